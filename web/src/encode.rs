//! The core's answers as JSON, their byte ranges as places in UTF-16 code units: the same
//! values, field for field, as the language server's answers (diagnostics, hovers, completion
//! items, `ctlpgn/board`, `ctlpgn/play`), so that the page and the editors show one thing. The
//! board's answer is the core's `BoardReply`, which the language server sends too.

use ctlpgn_core::diagnostics::Diagnostic;
use ctlpgn_core::ide::board::{BoardAnswer, BoardReply};
use ctlpgn_core::ide::completion::{CompletionItem, CompletionKind};
use ctlpgn_core::text::columns::{self, Columns, LineColumn};
use ctlpgn_core::text::{TextEdit, TextRange};
use ropey::Rope;
use serde_json::{json, Value};

use crate::requests::{Place, PlaceRange};

/// The place of a byte offset of `rope`.
pub fn place(rope: &Rope, offset: usize) -> Place {
    let LineColumn { line, column } = columns::line_column(rope, offset, Columns::Utf16);
    Place { line, character: column }
}

/// The places of a byte range of `rope`.
pub fn range(rope: &Rope, range: TextRange) -> PlaceRange {
    PlaceRange { start: place(rope, range.start), end: place(rope, range.end) }
}

/// A diagnostic at `range` (a byte range of the document): its code, name, severity (as
/// `ctlpgn check --format json` writes it) and message, and the 1-based line a list shows.
pub fn diagnostic(rope: &Rope, found: &Diagnostic, at: TextRange) -> Value {
    let range = range(rope, at);
    let line = u64::from(range.start.line) + 1;
    json!({
        "range": range,
        "line": line,
        "severity": found.severity.as_str(),
        "code": found.code.as_str(),
        "name": found.code.name(),
        "message": found.message,
    })
}

/// Edits of the document, in text order.
pub fn edits(rope: &Rope, edits: &[TextEdit]) -> Value {
    edits
        .iter()
        .map(|edit| json!({"range": range(rope, edit.range), "newText": edit.new_text}))
        .collect()
}

/// A completion item: what the list shows, and the edit (plain text and snippet) it makes.
pub fn completion_item(rope: &Rope, item: CompletionItem) -> Value {
    json!({
        "label": item.label,
        "kind": completion_kind(item.kind),
        "detail": item.detail,
        "documentation": item.documentation,
        "filterText": item.filter,
        "sortText": item.sort_key,
        "preselect": item.preselect,
        "range": range(rope, item.edit_range),
        "newText": item.plain,
        "snippet": item.snippet,
    })
}

fn completion_kind(kind: CompletionKind) -> &'static str {
    match kind {
        CompletionKind::TagName => "tag",
        CompletionKind::TagValue => "value",
        CompletionKind::Piece => "piece",
        CompletionKind::Move => "move",
        CompletionKind::Marker => "keyword",
        CompletionKind::Reference => "reference",
    }
}

/// The board at a place, as `ctlpgn/board` answers it, with the document's `version` and the
/// record's index (from 0): the move list a window of the line around the place, with the
/// line's length and its ends.
pub fn board(
    rope: &Rope,
    record: usize,
    version: i32,
    answer: BoardAnswer,
) -> BoardReply<PlaceRange> {
    answer.reply(version, record, |at| range(rope, at))
}
