//! The core's answers as JSON, their byte ranges as places in UTF-16 code units: the same
//! values, field for field, as the language server's answers (diagnostics, hovers, completion
//! items, `ctlpgn/board`, `ctlpgn/play`), so that the page and the editors show one thing.

use ctlpgn_core::analysis::LineHalfMove;
use ctlpgn_core::diagnostics::{Diagnostic, Severity};
use ctlpgn_core::ide::board::BoardAnswer;
use ctlpgn_core::ide::completion::{CompletionItem, CompletionKind};
use ctlpgn_core::text::columns::{self, Columns, LineColumn};
use ctlpgn_core::text::{TextEdit, TextRange};
use ropey::Rope;
use serde_json::{json, Value};

/// The place of a byte offset of `rope`.
pub fn place(rope: &Rope, offset: usize) -> Value {
    let LineColumn { line, column } = columns::line_column(rope, offset, Columns::Utf16);
    json!({"line": line, "character": column})
}

/// The places of a byte range of `rope`.
pub fn range(rope: &Rope, range: TextRange) -> Value {
    json!({"start": place(rope, range.start), "end": place(rope, range.end)})
}

/// The name of a severity, as the page shows it and `ctlpgn check --format json` writes it.
pub fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "hint",
    }
}

/// A diagnostic at `range` (a byte range of the document): its code, name, severity and
/// message, and the 1-based line a list shows.
pub fn diagnostic(rope: &Rope, found: &Diagnostic, at: TextRange) -> Value {
    let range = range(rope, at);
    let line = range["start"]["line"].as_u64().unwrap_or(0) + 1;
    json!({
        "range": range,
        "line": line,
        "severity": severity(found.severity),
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

/// The board at a place, as `ctlpgn/board` answers it, with the document's `version`: the move
/// list a window of the line around the place, with the line's length and its ends.
pub fn board(rope: &Rope, record: usize, version: i32, answer: BoardAnswer) -> Value {
    let side_name = |side: ctlpgn_core::pieces::Side| side.name().to_lowercase();
    let entry = |half_move: LineHalfMove| {
        json!({
            "ply": half_move.ply,
            "number": half_move.number,
            "side": side_name(half_move.side),
            "move": half_move.written,
            "label": half_move.label(),
            "played": half_move.played,
            "range": range(rope, half_move.range),
        })
    };
    let line_start = answer.line.first().map_or(1, |first| first.ply);
    let line: Vec<Value> = answer.line.into_iter().map(entry).collect();
    let (line_first, line_last) =
        answer.line_ends.map(|(first, last)| (entry(first), entry(last))).unzip();
    let mut reply = json!({
        "version": version,
        "record": record + 1,
        "exact": answer.exact,
        "svg": answer.svg,
        "text": answer.text,
        "pdtl": answer.pdtl,
        "ply": answer.ply,
        "moveNumber": answer.move_number,
        "side": answer.side.map(side_name),
        "move": answer.current,
        "check": answer.check,
        "line": line,
        "lineStart": line_start,
        "lineLength": answer.line_length,
        "lineFirst": line_first,
        "lineLast": line_last,
    });
    // Absent where nothing can be played, as the server leaves it out.
    if let Some(moves) = answer.moves {
        reply["moves"] = moves
            .into_iter()
            .map(|playable| {
                json!({
                    "from": playable.from.to_string(),
                    "to": playable.to.to_string(),
                    "text": playable.text,
                })
            })
            .collect();
    }
    reply
}
