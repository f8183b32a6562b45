//! The line-of-play query of a board at a place of a record, for the `ctlpgn/board` request
//! and the editors' board panels: the position there (asked of [`position_at`], as the PDTL
//! and the hovers ask it), the half-move that led to it, and the half-moves of the line of play
//! holding the place, for a move list. Byte ranges of the record's text; the edge converts them.

use super::position_at::position_at;
use super::{move_label, PlayTree};
use crate::analysis::{PlayedHalfMove, RecordAnalysis};
use crate::pdtl;
use crate::pieces::Side;
use crate::position::Position;
use crate::syntax::{HalfMoveText, Item, MoveLine, RecordSyntax};
use crate::text::TextRange;

/// One written half-move of the line of play at a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineHalfMove {
    /// Its place in the line: 1 for the first half-move after the record's start.
    pub ply: usize,
    /// The move number as written (`12.`), without its full stop.
    pub number: String,
    pub side: Side,
    /// The move as written, with its check suffix but without annotations: `EE23-D20+`.
    pub written: String,
    /// The move's text (where a client puts the cursor to stand on it).
    pub range: TextRange,
    /// Whether it was replayed.
    pub played: bool,
}

impl LineHalfMove {
    /// The half-move `half_move`, `side`'s of `move_line`, at `ply` of its line of play: its
    /// text up to the end of the move the analysis replayed (its check suffix included), or
    /// of the move as written when it did not replay.
    pub(crate) fn of(
        text: &str,
        analysis: &RecordAnalysis,
        move_line: &MoveLine,
        side: Side,
        half_move: &HalfMoveText,
        ply: usize,
    ) -> LineHalfMove {
        let played = analysis.played_at(half_move.range.start);
        let end = played.map_or_else(|| half_move.move_end(), |played| played.move_end);
        LineHalfMove {
            ply,
            number: move_line.number.text(text).trim_end_matches('.').to_string(),
            side,
            written: text.get(half_move.range.start..end).unwrap_or("").to_string(),
            range: TextRange::new(half_move.range.start, end),
            played: played.is_some(),
        }
    }

    /// The move with its number, as a move list shows it: `1. K4-K6`, `1. …, E21-E19`.
    pub fn label(&self) -> String {
        move_label(&format!("{}.", self.number), self.side, &self.written)
    }
}

/// The board at a place: what a board panel shows for the cursor there.
#[derive(Clone, Debug)]
pub struct BoardAt<'a> {
    /// The position shown: the one at the place, or, when a half-move there or before it in
    /// its line of play did not replay, the last one known before it. `None` when no position
    /// is known (the position tag cannot be read).
    pub position: Option<&'a Position>,
    /// Whether `position` is the position at the place (not only the last one known).
    pub exact: bool,
    /// The PDTL at the place, from [`super::pdtl_at`]: `None` when the position is not
    /// known or no PDTL may hold it.
    pub pdtl: Option<String>,
    /// The replayed half-move that led to `position`; `None` at the record's start.
    pub after: Option<&'a PlayedHalfMove>,
    /// The half-move under or before the place, as an index into `line` plus one (its ply);
    /// 0 before the first half-move (in the tags, at the start of the line).
    pub ply: usize,
    /// The half-moves of the line of play holding the place: the history before it (through
    /// the parents of a variation up to its branching point) and the rest of the line itself.
    pub line: Vec<LineHalfMove>,
}

impl BoardAt<'_> {
    /// The half-move under or before the place.
    pub fn current(&self) -> Option<&LineHalfMove> {
        self.ply.checked_sub(1).and_then(|index| self.line.get(index))
    }
}

/// The board at byte `offset` of a record's text.
pub fn board_at<'a>(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &'a RecordAnalysis,
    offset: usize,
) -> BoardAt<'a> {
    let offset = offset.min(text.len());
    let tree = PlayTree::build(text, syntax);
    let history = tree.history(offset);
    let rest = rest_of_line(tree.items_at(syntax, offset), offset);
    // The half-move whose text holds the offset (its end included), as `position_at` says.
    let held = rest.first().filter(|(_, _, half_move)| half_move.range.start <= offset);
    let written = history
        .half_moves
        .iter()
        .map(|written| (written.line, written.side, written.half_move))
        .chain(rest.iter().copied());
    let line: Vec<LineHalfMove> = written
        .enumerate()
        .map(|(index, (move_line, side, half_move))| {
            LineHalfMove::of(text, analysis, move_line, side, half_move, index + 1)
        })
        .collect();
    let ply = history.half_moves.len() + usize::from(held.is_some());
    let exact_position = position_at(text, syntax, analysis, offset);
    let standing = tree.standing(offset, analysis);
    let held_played = held.and_then(|(_, _, half_move)| analysis.played_at(half_move.range.start));
    let after = if held.is_some() { held_played.or(standing.after) } else { standing.after };
    let exact = match held {
        Some(_) => held_played.is_some(),
        None => standing.complete,
    };
    BoardAt {
        position: after.map(|played| &played.after).or(analysis.start.as_ref()),
        exact,
        pdtl: exact_position.ok().map(|position| pdtl::print(position, &analysis.identifiers)),
        after,
        ply,
        line,
    }
}

/// The written half-moves of `items` (the innermost line of play holding `offset`) that the
/// history at `offset` does not hold: the one holding the offset and those after it, up to the
/// end of that line (a variation's `)`, or the record's end for the main line).
fn rest_of_line(items: &[Item], offset: usize) -> Vec<(&MoveLine, Side, &HalfMoveText)> {
    items
        .iter()
        .filter_map(|item| match item {
            Item::MoveLine(line) => Some(line),
            _ => None,
        })
        .flat_map(|line| [(line, Side::White, line.white()), (line, Side::Black, line.black())])
        .filter_map(|(line, side, half_move)| Some((line, side, half_move?)))
        .filter(|(_, _, half_move)| offset <= half_move.range.end)
        .collect()
}
