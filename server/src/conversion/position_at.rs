//! The position at a place of a record, as the board loads it: the PDTL (handbook §9) after
//! the half-move written there, or after the last half-move of its line of play before it, in
//! variations as in the main line; in the tag section, the record's starting position.

use crate::analysis::{standing_at, RecordAnalysis};
use crate::pdtl;
use crate::position::Position;
use crate::syntax::{HalfMoveText, Item, RecordSyntax, Step};

/// The position after the half-move whose text holds `offset` (its end included), or else
/// after the last half-move of the line of play before `offset`; the starting position before
/// the first one. A variation holds the offsets after its `(`: there it stands where the
/// half-move it replaces did (§11.2). `None` when that position is not known: the half-move
/// there, or one before it in its line of play, did not replay.
pub fn position_at<'a>(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &'a RecordAnalysis,
    offset: usize,
) -> Option<&'a Position> {
    let offset = offset.min(text.len());
    if let Some(half_move) = half_move_at(syntax, offset) {
        return analysis.played_at(half_move.range.start).map(|played| &played.after);
    }
    let standing = standing_at(syntax, offset, analysis);
    if !standing.complete {
        return None;
    }
    standing.position(analysis)
}

/// The PDTL of [`position_at`], in the record's identifiers (as the replay prints it).
pub fn pdtl_at(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    offset: usize,
) -> Option<String> {
    position_at(text, syntax, analysis, offset)
        .map(|position| pdtl::print(position, &analysis.identifiers))
}

/// The position after the `ply`-th half-move of the main line (1 for the first), or the
/// starting position for ply 0; `None` past the last replayed half-move.
pub fn position_after_ply(analysis: &RecordAnalysis, ply: usize) -> Option<&Position> {
    match ply.checked_sub(1) {
        None => analysis.start.as_ref(),
        Some(index) => analysis.main_line().nth(index).map(|played| &played.after),
    }
}

/// The PDTL of [`position_after_ply`], in the record's identifiers.
pub fn pdtl_after_ply(analysis: &RecordAnalysis, ply: usize) -> Option<String> {
    position_after_ply(analysis, ply).map(|position| pdtl::print(position, &analysis.identifiers))
}

/// The written half-move whose text holds `offset`, its end included, in any line of play:
/// the walk enters only the variations that hold the offset.
fn half_move_at(syntax: &RecordSyntax, offset: usize) -> Option<&HalfMoveText> {
    let holds = |range: &std::ops::Range<usize>| range.start <= offset && offset <= range.end;
    let mut walk = syntax.walk(&syntax.items);
    while let Some(step) = walk.next() {
        let Step::Item(item, _) = step else { continue };
        if !holds(item.range()) {
            walk.skip_variation();
            continue;
        }
        if let Item::MoveLine(line) = item {
            let found = [&line.white, &line.black].into_iter().flatten().find(|h| holds(&h.range));
            if found.is_some() {
                return found;
            }
        }
    }
    None
}
