//! Where the game stands at any place of a record: the line of play holding an offset and the
//! last half-move of its history replayed before it (handbook §12.3 item 1).
//!
//! Hovers, completion and the conversions all ask "what is the position here?"; they ask it
//! here, so that a variation starts where the half-move it replaces did (§11.2) everywhere.

use super::{PlayedHalfMove, RecordAnalysis};
use crate::pieces::Side;
use crate::position::Position;
use crate::syntax::{HalfMoveText, Item, MoveLine, RecordSyntax};

/// The state of the line of play at an offset, before the half-move written there (if any).
#[derive(Clone, Copy, Debug)]
pub struct Standing<'a> {
    /// The last replayed half-move of the history before the offset; `None` when the history
    /// holds none, so the line stands at the record's start.
    pub after: Option<&'a PlayedHalfMove>,
    /// Whether the history is unbroken: every half-move of it was replayed, and a variation
    /// replaces a half-move that exists. When it is not, `after` is only the last position
    /// known, not the position at the offset.
    pub complete: bool,
}

impl<'a> Standing<'a> {
    /// The position at the offset: after `after`, or the record's start.
    pub fn position(&self, analysis: &'a RecordAnalysis) -> Option<&'a Position> {
        match self.after {
            Some(played) => Some(&played.after),
            None => analysis.start.as_ref(),
        }
    }
}

impl RecordAnalysis {
    /// The replayed half-move whose text starts at `start`; `played` is in text order.
    pub fn played_at(&self, start: usize) -> Option<&PlayedHalfMove> {
        let index = self.played.binary_search_by_key(&start, |played| played.range.start).ok()?;
        self.played.get(index)
    }
}

/// A written half-move of a history, with the move line that holds it.
#[derive(Clone, Copy, Debug)]
pub struct HistoryMove<'a> {
    pub line: &'a MoveLine,
    pub side: Side,
    pub half_move: &'a HalfMoveText,
}

/// The history of the line of play at an offset (§12.3 item 1): its own half-moves written
/// before the offset, preceded, for a variation, by its parent's history up to the branching
/// point, recursively.
#[derive(Clone, Debug, Default)]
pub struct History<'a> {
    /// The half-moves in the order they are played.
    pub half_moves: Vec<HistoryMove<'a>>,
    /// Whether the history reaches back to the record's start: false for a variation that
    /// stands where no half-move was written to branch from.
    pub rooted: bool,
}

/// The history at `offset`: a half-move whose text holds the offset (its end included, where
/// the user is still typing it) is not part of it.
pub fn history_at(syntax: &RecordSyntax, offset: usize) -> History<'_> {
    let mut history = History { half_moves: Vec::new(), rooted: true };
    walk(syntax, offset, &mut history);
    history
}

/// Where the line of play holding `offset` stands there.
pub fn standing_at<'a>(
    syntax: &RecordSyntax,
    offset: usize,
    analysis: &'a RecordAnalysis,
) -> Standing<'a> {
    let history = history_at(syntax, offset);
    let mut standing = Standing { after: None, complete: history.rooted };
    for written in &history.half_moves {
        match analysis.played_at(written.half_move.range.start) {
            Some(played) => standing.after = Some(played),
            None => standing.complete = false,
        }
    }
    standing
}

/// Adds to `history` the half-moves of the main line written before `offset`, then of the
/// variation that holds it, and so on inwards.
fn walk<'a>(syntax: &'a RecordSyntax, offset: usize, history: &mut History<'a>) {
    let mut items = syntax.items.as_slice();
    'lines: loop {
        // How long the history was before White's and before Black's half-move of the last
        // move line: a variation after it branches at one of the two (§11.2). `None` before
        // any line.
        let mut branch_points: Option<(usize, usize)> = None;
        for item in items {
            if item.range().start >= offset {
                return;
            }
            match item {
                Item::MoveLine(line) => {
                    let before_white = history.half_moves.len();
                    if !add(line, Side::White, offset, history) {
                        return;
                    }
                    let before_black = history.half_moves.len();
                    if !add(line, Side::Black, offset, history) {
                        return;
                    }
                    branch_points = Some((before_white, before_black));
                }
                Item::Variation(variation)
                    if variation.close.as_ref().is_none_or(|close| offset < close.range.end) =>
                {
                    let inner = syntax.items_of(variation);
                    let black_first = inner.iter().find_map(|item| match item {
                        Item::MoveLine(line) => Some(line.ellipsis.is_some()),
                        _ => None,
                    });
                    match branch_points {
                        Some((before_white, before_black)) => {
                            history.half_moves.truncate(if black_first == Some(true) {
                                before_black
                            } else {
                                before_white
                            });
                        }
                        None => history.rooted = false,
                    }
                    items = inner;
                    continue 'lines;
                }
                _ => {}
            }
        }
        return;
    }
}

/// Adds one side's half-move of a move line when it ends before `offset`; `false` when it
/// holds the offset or lies after it, so the walk stops there.
fn add<'a>(line: &'a MoveLine, side: Side, offset: usize, history: &mut History<'a>) -> bool {
    let half_move = match side {
        Side::White => line.white.as_ref(),
        Side::Black => line.black.as_ref(),
    };
    let Some(half_move) = half_move else { return true };
    if offset <= half_move.range.end {
        return false;
    }
    history.half_moves.push(HistoryMove { line, side, half_move });
    true
}

/// A half-move as it is named in prose: `12. EE23-D20` for White, `12. …, EE23-D20` for Black.
pub fn move_label(number: &str, side: Side, written: &str) -> String {
    match side {
        Side::White => format!("{number} {written}"),
        Side::Black => format!("{number} …, {written}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse_syntax;
    use crate::syntax;

    /// The half-move the line stands after at the first occurrence of `needle` (plus
    /// `shift` bytes), as its text, and whether the history is complete.
    fn standing(text: &str, needle: &str, shift: usize) -> (Option<String>, bool, Option<Side>) {
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        let record = syntax::lower_record(&tree);
        let analysis = analyse_syntax(text, &record);
        let offset = text.find(needle).expect("the needle is in the text") + shift;
        let standing = standing_at(&record, offset, &analysis);
        let turn = standing.position(&analysis).map(|position| position.turn);
        (
            standing.after.map(|played| text[played.range.start..played.move_end].to_string()),
            standing.complete,
            turn,
        )
    }

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(1. …, NE21-E17)\n(1. E7-E9, E21-E19)\n2. JF6-B18, EE23-D20:\n*\n";

    #[test]
    fn the_tag_section_and_the_first_move_stand_at_the_start() {
        assert_eq!(standing(GAME, "[Variant", 1), (None, true, Some(Side::White)));
        assert_eq!(standing(GAME, "K4-K6", 0), (None, true, Some(Side::White)));
        assert_eq!(standing(GAME, "K4-K6", 2), (None, true, Some(Side::White)));
    }

    #[test]
    fn a_half_move_being_typed_is_not_yet_played() {
        assert_eq!(
            standing(GAME, "E21-E19\n(", 7),
            (Some("K4-K6".to_string()), true, Some(Side::Black))
        );
        assert_eq!(
            standing(GAME, "\n(1. …", 0),
            (Some("K4-K6".to_string()), true, Some(Side::Black))
        );
        assert_eq!(
            standing(GAME, "\n(1. …", 1),
            (Some("E21-E19".to_string()), true, Some(Side::White))
        );
    }

    #[test]
    fn a_variation_starts_where_the_half_move_it_replaces_did() {
        // A Black first move: after White's K4-K6; its own half-move failed (no Knight on E21).
        assert_eq!(standing(GAME, "NE21", 1), (Some("K4-K6".to_string()), true, Some(Side::Black)));
        assert_eq!(
            standing(GAME, "-E17)", 4),
            (Some("K4-K6".to_string()), true, Some(Side::Black))
        );
        // A White first move: from the start of the record, then along the variation.
        assert_eq!(standing(GAME, "E7-E9", 0), (None, true, Some(Side::White)));
        assert_eq!(
            standing(GAME, "E9, E21", 5),
            (Some("E7-E9".to_string()), true, Some(Side::Black))
        );
        // After the variation's `)` the main line goes on.
        assert_eq!(
            standing(GAME, "2. JF6", 0),
            (Some("E21-E19".to_string()), true, Some(Side::White))
        );
    }

    #[test]
    fn after_the_last_move_the_line_stands_after_it() {
        assert_eq!(
            standing(GAME, "*\n", 0),
            (Some("EE23-D20".to_string()), true, Some(Side::White))
        );
        let broken = GAME.replace("JF6-B18", "NF6-B18");
        assert_eq!(
            standing(&broken, "*\n", 0),
            (Some("E21-E19".to_string()), false, Some(Side::White))
        );
    }
}
