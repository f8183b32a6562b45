//! `textDocument/completion`: the core's suggestions at the cursor as completion items, each
//! with its text edit in the negotiated encoding, as a snippet when the client takes them.

use tower_lsp_server::lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Documentation, InsertTextFormat,
    MarkupContent, MarkupKind, Position, TextEdit,
};

use super::capabilities::Negotiated;
use super::completion::{self, SuggestionKind};
use super::convert;
use super::documents::Document;

/// The completion items at a position of a document, in the order they should be shown.
pub fn items(
    document: &Document,
    position: Position,
    negotiated: Negotiated,
) -> Vec<CompletionItem> {
    let rope = document.rope();
    let offset = convert::offset(rope, position, negotiated.encoding);
    let Some(record) = document.record_at(offset) else { return Vec::new() };
    let parsed = document.parsed(record);
    completion::complete(
        &record.state.text,
        &parsed.syntax,
        &parsed.analysis,
        offset - record.range.start,
    )
    .into_iter()
    .enumerate()
    .map(|(index, suggestion)| {
        let range =
            convert::range(rope, record.in_document(suggestion.replace), negotiated.encoding);
        let (new_text, format) = if negotiated.snippets {
            (suggestion.snippet, InsertTextFormat::SNIPPET)
        } else {
            (suggestion.plain, InsertTextFormat::PLAIN_TEXT)
        };
        CompletionItem {
            label: suggestion.label,
            kind: Some(kind(suggestion.kind)),
            detail: Some(suggestion.detail),
            documentation: suggestion.documentation.map(|value| {
                Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
            }),
            preselect: suggestion.preselect.then_some(true),
            // The core's order is the one to show; clients sort by this text.
            sort_text: Some(format!("{index:04}")),
            filter_text: Some(suggestion.filter),
            insert_text_format: Some(format),
            text_edit: Some(CompletionTextEdit::Edit(TextEdit { range, new_text })),
            ..CompletionItem::default()
        }
    })
    .collect()
}

/// The protocol's kind for a suggestion, which editors show as an icon.
fn kind(kind: SuggestionKind) -> CompletionItemKind {
    match kind {
        SuggestionKind::TagName => CompletionItemKind::PROPERTY,
        SuggestionKind::TagValue => CompletionItemKind::ENUM_MEMBER,
        SuggestionKind::Piece => CompletionItemKind::CLASS,
        SuggestionKind::Move => CompletionItemKind::VALUE,
        SuggestionKind::Marker => CompletionItemKind::KEYWORD,
        SuggestionKind::Reference => CompletionItemKind::REFERENCE,
    }
}
