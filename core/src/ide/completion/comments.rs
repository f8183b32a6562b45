//! Completion in a comment: the player markers `@W:` and `@B:` at the start of the body, and
//! references to the half-moves already played in the comment's line of play after `#`
//! (§12.3: a comment never names a later move, so only its history is offered).

use super::{word_start, CompletionItem, CompletionKind};
use crate::analysis::{history_at, move_label};
use crate::pieces::Side;
use crate::syntax::{Comment, RecordSyntax};
use crate::text::TextRange;

/// The completion items inside `comment` at `offset`.
pub fn complete(
    text: &str,
    syntax: &RecordSyntax,
    comment: &Comment,
    offset: usize,
) -> Vec<CompletionItem> {
    let start = word_start(text, offset, &['#', '@', ':']);
    let word = &text[start..offset];
    let body_before = &text[comment.open.range.end..start];
    if comment.marker.is_none()
        && body_before.trim().is_empty()
        && (word.is_empty() || word.starts_with('@'))
    {
        return markers(text, syntax, comment, TextRange::new(start, offset));
    }
    if word.starts_with('#') {
        return references(text, syntax, offset, TextRange::new(start, offset));
    }
    Vec::new()
}

/// `@W:` and `@B:` for the half-moves of the move line the comment follows that its history
/// holds: in a variation replacing Black's half-move, before its first move line, the move
/// line it is attached to without that half-move.
fn markers(
    text: &str,
    syntax: &RecordSyntax,
    comment: &Comment,
    replace: TextRange,
) -> Vec<CompletionItem> {
    let history = history_at(text, syntax, comment.range.start);
    let Some(last) = history.half_moves.last() else { return Vec::new() };
    let line = last.line.range;
    let number = last.line.number.text(text);
    let of_line = history.half_moves.iter().rev().take_while(|written| written.line.range == line);
    let mut items: Vec<CompletionItem> = of_line
        .map(|written| {
            let (side, half_move) = (written.side, written.half_move);
            let marker = match side {
                Side::White => "@W:",
                Side::Black => "@B:",
            };
            let written = &text[half_move.range.start..half_move.move_end()];
            let detail =
                format!("{} comment on {}", side.name(), move_label(number, side, written));
            CompletionItem::plain(marker, CompletionKind::Marker, detail, replace)
        })
        .collect();
    // White's first, as the move line writes them.
    items.reverse();
    items
}

/// `#N@W` / `#N@B` for every half-move of the history, the latest first.
fn references(
    text: &str,
    syntax: &RecordSyntax,
    offset: usize,
    replace: TextRange,
) -> Vec<CompletionItem> {
    let history = history_at(text, syntax, offset);
    history
        .half_moves
        .iter()
        .rev()
        .filter_map(|written| {
            let number = written.line.number.text(text);
            let digits = number.trim_end_matches(['.', '…', ' ']).trim();
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let letter = match written.side {
                Side::White => 'W',
                Side::Black => 'B',
            };
            let move_text = &text[written.half_move.range.start..written.half_move.move_end()];
            let detail = move_label(number, written.side, move_text);
            Some(CompletionItem::plain(
                format!("#{digits}@{letter}"),
                CompletionKind::Reference,
                detail,
                replace,
            ))
        })
        .collect()
}
