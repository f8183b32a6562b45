//! The position at a place of a record, as the board loads it: the PDTL (handbook §9) after
//! the half-move written there, or after the last half-move of its line of play before it, in
//! variations as in the main line; in the tag section, the record's starting position.
//!
//! A replay only checks what a minimum reader checks (§13), so a half-move that the rule
//! checks flag (R009: a Bishop stepping onto a hex of another colour, say) can lead to a
//! position that no PDTL may hold (P010: two Bishops of one side on one hex colour). Every
//! PDTL this crate hands out passes [`pdtl_problem`] first, so that a PDTL we print is one we
//! read back without an error, and a continuation never starts from a record with an error.

use super::standing_at;
use crate::analysis::RecordAnalysis;
use crate::diagnostics::{Code, Severity};
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::position::Position;
use crate::syntax::{HalfMoveText, Item, RecordSyntax, Step};

/// Why a place has no position to hand out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPosition {
    /// The half-move there, or one before it in its line of play, did not replay (or the ply
    /// is past the last replayed one).
    Unknown,
    /// The position is known but no PDTL may hold it: [`pdtl_problem`]'s reason.
    NoPdtl(NoPdtl),
}

/// Why a position has no PDTL: the error its PDTL would read back with (P009 one King per
/// side, P010 too many pieces of a type or two Bishops of one side on one hex colour, P013,
/// P015). It reads `no PDTL: the position is not one a PDTL may hold (P010: …)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoPdtl {
    pub code: Code,
    pub message: String,
}

impl NoPdtl {
    /// The reason as a sentence of its own, after another: `No PDTL: …`.
    pub fn sentence(&self) -> String {
        let reason = self.to_string();
        format!("N{}", &reason[1..])
    }
}

impl std::fmt::Display for NoPdtl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no PDTL: the position is not one a PDTL may hold ({}: {})",
            self.code, self.message
        )
    }
}

impl std::error::Error for NoPdtl {}

impl std::fmt::Display for NoPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoPosition::Unknown => f.write_str("no position is known there"),
            NoPosition::NoPdtl(problem) => problem.fmt(f),
        }
    }
}

/// The position after the half-move whose text holds `offset` (its end included), or else
/// after the last half-move of the line of play before `offset`; the starting position before
/// the first one. A variation holds the offsets after its `(`: there it stands where the
/// half-move it replaces did (§11.2). An error when that position is not known (the half-move
/// there, or one before it in its line of play, did not replay) or is no position a PDTL may
/// hold ([`pdtl_problem`]).
pub fn position_at<'a>(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &'a RecordAnalysis,
    offset: usize,
) -> Result<&'a Position, NoPosition> {
    let offset = offset.min(text.len());
    let position = if let Some(half_move) = half_move_at(syntax, offset) {
        analysis.played_at(half_move.range.start).map(|played| &played.after)
    } else {
        let standing = standing_at(text, syntax, offset, analysis);
        if standing.complete {
            standing.position(analysis)
        } else {
            None
        }
    };
    printable(position.ok_or(NoPosition::Unknown)?, analysis)
}

/// Why `position` has no PDTL: its PDTL in `ids` would not read back without an error
/// ([`NoPdtl`]). `None` when its PDTL reads back cleanly.
pub fn pdtl_problem(position: &Position, ids: &IdentifierSet) -> Option<NoPdtl> {
    printed_pdtl(position, ids).err()
}

/// The PDTL of `position` in `ids`, one line, when it reads back cleanly; else why there is
/// none (see `pdtl_problem`). What every printer of a PDTL prints: we never print one that
/// `check` rejects.
pub fn printed_pdtl(position: &Position, ids: &IdentifierSet) -> Result<String, NoPdtl> {
    let printed = pdtl::print(position, ids);
    let reading = pdtl::parse(&printed, ids);
    match reading.problems.into_iter().find(|problem| problem.severity == Severity::Error) {
        None => Ok(printed),
        Some(error) => Err(NoPdtl { code: error.code, message: error.message }),
    }
}

/// `position` when a PDTL may hold it.
fn printable<'a>(
    position: &'a Position,
    analysis: &RecordAnalysis,
) -> Result<&'a Position, NoPosition> {
    match pdtl_problem(position, &analysis.identifiers) {
        None => Ok(position),
        Some(problem) => Err(NoPosition::NoPdtl(problem)),
    }
}

/// The PDTL of [`position_at`], in the record's identifiers (as the replay prints it).
pub fn pdtl_at(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    offset: usize,
) -> Option<String> {
    position_at(text, syntax, analysis, offset)
        .ok()
        .map(|position| pdtl::print(position, &analysis.identifiers))
}

/// The position after the `ply`-th half-move of the main line (1 for the first), or the
/// starting position for ply 0; an error past the last replayed half-move, or when it is no
/// position a PDTL may hold ([`pdtl_problem`]).
pub fn position_after_ply(analysis: &RecordAnalysis, ply: usize) -> Result<&Position, NoPosition> {
    let position = match ply.checked_sub(1) {
        None => analysis.start.as_ref(),
        Some(index) => analysis.main_line().nth(index).map(|played| &played.after),
    };
    printable(position.ok_or(NoPosition::Unknown)?, analysis)
}

/// The PDTL of [`position_after_ply`], in the record's identifiers.
pub fn pdtl_after_ply(analysis: &RecordAnalysis, ply: usize) -> Option<String> {
    position_after_ply(analysis, ply)
        .ok()
        .map(|position| pdtl::print(position, &analysis.identifiers))
}

/// The written half-move whose text holds `offset`, its end included, in any line of play:
/// the walk enters only the variations that hold the offset.
fn half_move_at(syntax: &RecordSyntax, offset: usize) -> Option<&HalfMoveText> {
    let mut walk = syntax.walk(&syntax.items);
    while let Some(step) = walk.next() {
        let Step::Item(item, _) = step else { continue };
        if !item.range().touches(offset) {
            walk.skip_variation();
            continue;
        }
        if let Item::MoveLine(line) = item {
            let found = line.half_moves().find(|h| h.range.touches(offset));
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
