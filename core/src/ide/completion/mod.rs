//! Completion over byte offsets: what may be written at a place of a record, decided from
//! the line being typed and the record's syntax and analysis.
//!
//! Four places are told apart: a tag name after `[`, a tag value inside its quotes, the
//! movetext (the pieces and the legal half-moves of the side to move) and a comment body
//! (markers and references to earlier moves). Like the hovers, nothing here knows the
//! protocol: the server turns each item into the protocol's, in the negotiated encoding.
//!
//! Every item of an answer replaces text from the same place, where the word under the cursor
//! starts as Vim counts words (`is_keyword`): the text typed before that place must already be
//! the item's, and stays. Clients insert from different places (VS Code and eglot from the
//! edit's start; Neovim 0.7's omnifunc from the start of the Vim word, unless every item has
//! no filter text and the same edit start; Neovim 0.11 from the edits' common start), and
//! this place is the one they all agree on, so that `JF6-` completed to `JF6-C15` is never
//! written `JF6-JF6-C15`. The items that do not go on with what was typed after that place
//! (compared without case) are left out: Neovim 0.11 shows what it is given.

mod comments;
mod moves;
mod tags;

use crate::analysis::RecordAnalysis;
use crate::document::RecordView;
use crate::syntax::{Comment, Item, RecordSyntax, Step};
use crate::text::TextRange;

/// What a completion item stands for, so that editors can show an icon for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    TagName,
    TagValue,
    Piece,
    /// A whole half-move.
    Move,
    Marker,
    Reference,
}

/// One thing that may be written at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    /// A short line shown beside the label.
    pub detail: String,
    /// Markdown shown when the item is selected.
    pub documentation: Option<String>,
    /// The text the editor matches against what was typed in `edit_range` before the cursor:
    /// the label from the start of `edit_range`.
    pub filter: String,
    /// The text that replaces `edit_range`, as a snippet (`$1`, `${1|a,b|}` placeholders).
    pub snippet: String,
    /// The same text without placeholders, for clients that take no snippets.
    pub plain: String,
    /// The byte range the item replaces: it holds the cursor and stays on its line.
    pub edit_range: TextRange,
    /// Whether the editor should select this item first.
    pub preselect: bool,
    /// The key editors sort by: the items' order, which is the one to show (clients sort by
    /// this text, not by the order they receive).
    pub sort_key: String,
}

impl CompletionItem {
    /// An item whose text has no placeholders.
    fn plain(
        label: impl Into<String>,
        kind: CompletionKind,
        detail: impl Into<String>,
        replace: TextRange,
    ) -> CompletionItem {
        let label = label.into();
        CompletionItem {
            snippet: escape_snippet(&label),
            plain: label.clone(),
            filter: label.clone(),
            label,
            kind,
            detail: detail.into(),
            documentation: None,
            edit_range: replace,
            preselect: false,
            sort_key: String::new(),
        }
    }
}

/// The completion items at byte `offset` of the document, in the order they should be shown,
/// with their edit ranges in the document.
pub fn completion(view: RecordView<'_>, offset: usize) -> Vec<CompletionItem> {
    let Some(offset) = view.in_record(offset) else { return Vec::new() };
    let items = complete(view.text, view.syntax, view.analysis, offset);
    let mut items = from_keyword_start(view.text, offset, items);
    for (index, item) in items.iter_mut().enumerate() {
        item.edit_range = view.in_document(item.edit_range);
        item.sort_key = format!("{index:04}");
    }
    items
}

/// The completion items at byte `offset` of a record's text, with edit ranges in the record's
/// text and no sort keys yet.
pub(crate) fn complete(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    offset: usize,
) -> Vec<CompletionItem> {
    if offset > text.len() || !text.is_char_boundary(offset) {
        return Vec::new();
    }
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |newline| newline + 1);
    if let Some(comment) = comment_at(syntax, offset) {
        return comments::complete(text, syntax, comment, offset);
    }
    if let Some(tag) = tags::TagContext::read(text, line_start, offset) {
        let in_movetext = movetext_offset(&syntax.items).is_some_and(|start| start < line_start);
        return tags::complete(text, syntax, &analysis.identifiers, &tag, in_movetext);
    }
    if looks_like_movetext(&text[line_start..offset]) {
        return moves::complete(text, syntax, analysis, offset);
    }
    Vec::new()
}

/// Where the movetext starts: the start of its first item, if it has one.
fn movetext_offset(items: &[Item]) -> Option<usize> {
    items.get(crate::syntax::movetext_start(items)).map(|item| item.range().start)
}

/// Whether the start of a line, up to the cursor, can hold a half-move at its end: it starts
/// with a move number (after indentation, `(` and a variation label) and the cursor comes
/// after the number.
fn looks_like_movetext(typed: &str) -> bool {
    let typed = typed.trim_start_matches([' ', '\t', '.', '(']);
    let typed = match typed.strip_prefix('$') {
        Some(labelled) => labelled
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '[' || c == ']')
            .trim_start(),
        None => typed,
    };
    let digits = typed.len() - typed.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    digits > 0 && typed[digits..].starts_with('.')
}

/// The comment whose body holds `offset`, in the record or any variation (the walk enters
/// only the variations that hold the offset).
fn comment_at(syntax: &RecordSyntax, offset: usize) -> Option<&Comment> {
    let mut walk = syntax.walk(&syntax.items);
    while let Some(step) = walk.next() {
        match step {
            Step::Item(Item::Comment(comment), _) => {
                let body_end =
                    if comment.closed { comment.range.end - 1 } else { comment.range.end };
                if comment.open.range.end <= offset && offset <= body_end {
                    return Some(comment);
                }
            }
            Step::Item(Item::Variation(variation), _)
                if !(variation.range.contains(offset) || variation.range.end == offset) =>
            {
                walk.skip_variation()
            }
            _ => {}
        }
    }
    None
}

/// The start of the word that ends at `offset`: letters, digits, figurines and the given
/// extra characters.
fn word_start(text: &str, offset: usize, extra: &[char]) -> usize {
    text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| {
            c.is_alphanumeric()
                || extra.contains(&c)
                || !c.is_ascii() && !c.is_whitespace() && !"×‐…".contains(c)
        })
        .last()
        .map_or(offset, |(index, _)| index)
}

/// Whether Vim counts `c` as part of a word (a keyword character of its default
/// 'iskeyword', `@,48-57,_,192-255`), for the characters a CTL-PGN line holds: letters and
/// digits of every script, `_`, the Latin-1 letters and signs from `À` (so `×` and `÷`), and
/// the FAN figurines. Neovim 0.11 counts the figurines as words (emoji and the Chess Symbols
/// block); 0.7 does so only for the Chess Symbols block (`🩐`), so that an item of a
/// figurine typed alone starts at the figurine and carries no filter text, which 0.7 then
/// follows (see `from_keyword_start`). Not words: `-`, `‐`, `*`, `@`, `=`, `+`, `∞`, `#`, `…`,
/// brackets, quotes and blanks.
fn is_keyword(c: char) -> bool {
    match u32::from(c) {
        0..=0x7F => c.is_ascii_alphanumeric() || c == '_',
        0x80..=0xBF => false,
        0xC0..=0xFF => true,
        _ => c.is_alphanumeric() || crate::pieces::PieceKind::from_figurine(c).is_some(),
    }
}

/// Where the word (as Vim counts words, `is_keyword`) that ends at `offset` starts.
fn keyword_start(text: &str, offset: usize) -> usize {
    text[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_keyword(c))
        .last()
        .map_or(offset, |(index, _)| index)
}

/// The items made to replace text from where the word before the cursor starts (see the
/// module's doc), no earlier than where they started: the text typed before that place must
/// begin the item (a `‐` typed for its `-`, a `*` for its `×`), and is taken off its text and
/// its filter; an item that does not go on with what was typed after that place (without
/// case) is left out.
fn from_keyword_start(
    text: &str,
    offset: usize,
    items: Vec<CompletionItem>,
) -> Vec<CompletionItem> {
    let word = keyword_start(text, offset);
    items
        .into_iter()
        .filter_map(|mut item| {
            let start = item.edit_range.start.max(word).min(offset);
            let kept = text.get(item.edit_range.start..start)?;
            let typed = text.get(start..offset)?.to_lowercase();
            let own: String = item.plain.chars().take(kept.chars().count()).collect();
            if !kept.chars().map(keyboard).eq(own.chars().map(keyboard)) {
                return None;
            }
            item.plain = item.plain[own.len()..].to_string();
            item.snippet = item.snippet.strip_prefix(escape_snippet(&own).as_str())?.to_string();
            item.filter = item.filter.strip_prefix(own.as_str())?.to_string();
            if !item.filter.to_lowercase().starts_with(&typed) {
                return None;
            }
            item.edit_range = TextRange::new(start, item.edit_range.end);
            Some(item)
        })
        .collect()
}

/// A character as a keyboard types it: the Unicode hyphen `‐` as `-`, and `*` as the capture
/// sign `×` it stands for.
fn keyboard(c: char) -> char {
    match c {
        '\u{2010}' => '-',
        '*' => '\u{D7}',
        other => other,
    }
}

/// Text made safe for a snippet: `$`, `}` and `\` are taken literally.
fn escape_snippet(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '$' | '}' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests;
