//! The positions hovers show and the shared ways of writing them: where the line of play
//! stands before a half-move or at a comment (asked of `analysis::standing_at`, so that a
//! variation starts where the half-move it replaces did, as everywhere else), a half-move's
//! label, and the board with its PDTL.

use super::Record;
use crate::analysis::{move_label, standing_at, PlayedHalfMove, Standing};
use crate::board;
use crate::conversion;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::position::Position;

/// The label of a replayed half-move, with the move as written (without its annotations):
/// `12. …, EE23-D20`.
pub(super) fn played_label(text: &str, played: &PlayedHalfMove) -> String {
    let written = text.get(played.range.start..played.move_end).unwrap_or("");
    move_label(&format!("{}.", played.number), played.side, written)
}

/// Where the line of play holding `offset` stands there: before the half-move written there,
/// or at the comment.
pub(super) fn standing<'a>(record: Record<'a>, offset: usize) -> Standing<'a> {
    standing_at(record.syntax, offset, record.analysis)
}

/// Where a standing is, in words: `after 3. …, E15×F12` or `at the start of the record`.
pub(super) fn describe(record: Record<'_>, standing: Standing<'_>) -> String {
    match standing.after {
        Some(played) => format!("after {}", played_label(record.text, played)),
        None => "at the start of the record".to_string(),
    }
}

/// Appends the board (with the hexes of `marked` bracketed), whose turn it is and the PDTL of
/// a position.
pub(super) fn write_position(
    out: &mut String,
    position: &Position,
    ids: &IdentifierSet,
    marked: &[Hex],
) {
    out.push_str("```text\n");
    out.push_str(&board::text::picture(position, ids, marked));
    out.push_str("```\n\n");
    out.push_str(position.turn.name());
    out.push_str(" to move.\n\n");
    // A position that the rule checks flagged may be one no PDTL holds (P010): say so
    // rather than show a PDTL that `check` rejects.
    if let Some(problem) = conversion::pdtl_problem(position, ids) {
        out.push_str(&problem.replacen("no PDTL", "No PDTL", 1));
        out.push('\n');
        return;
    }
    out.push_str("PDTL `");
    pdtl::write_pdtl(position, ids, out);
    out.push_str("`\n");
}
