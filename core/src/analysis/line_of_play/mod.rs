//! Where the game stands at any place of a record: the line of play holding an offset, its
//! history there and the last half-move of it replayed (handbook §12.3 item 1), all read from
//! the record's tree of lines of play (`tree`).
//!
//! Hovers, completion, the board and the conversions all ask "what is the position here?";
//! they ask it here (`position_at`, and `at` for the board with its move list), and reference resolution reads the same tree, so that a variation starts
//! where the half-move it replaces did (§11.2) everywhere.

mod at;
mod followers;
mod lines;
mod position_at;
mod tree;

pub use at::{board_at, BoardAt, LineHalfMove};
pub(crate) use followers::{Followers, Node};
pub use lines::{lines_of_play, LineItem, PlayLineOf};
pub use position_at::{
    pdtl_after_ply, pdtl_at, pdtl_problem, position_after_ply, position_at, printed_pdtl, NoPdtl,
    NoPosition,
};
pub(crate) use tree::{
    move_number, played_before, Branch, CommentPlace, Entry, NumberedMoveLine, PlayTree, Site,
};

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
/// point, and so on up the branches.
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
pub fn history_at<'a>(text: &'a str, syntax: &'a RecordSyntax, offset: usize) -> History<'a> {
    PlayTree::build(text, syntax).history(offset)
}

/// Where the line of play holding `offset` stands there.
pub fn standing_at<'a>(
    text: &str,
    syntax: &RecordSyntax,
    offset: usize,
    analysis: &'a RecordAnalysis,
) -> Standing<'a> {
    PlayTree::build(text, syntax).standing(offset, analysis)
}

impl<'a> PlayTree<'a> {
    /// The history at `offset`, as [`history_at`] gives it.
    pub fn history(&self, offset: usize) -> History<'a> {
        let line = self.line_at(offset);
        let mut entries: Vec<_> = self.history_back(line, offset).collect();
        entries.reverse();
        let mut half_moves = Vec::with_capacity(entries.len() * 2);
        'entries: for entry in entries {
            for side in [Side::White, Side::Black] {
                let Some(half_move) = entry.half_move(side) else { continue };
                if offset <= half_move.range.end {
                    break 'entries;
                }
                half_moves.push(HistoryMove { line: entry.line, side, half_move });
            }
        }
        History { half_moves, rooted: self.rooted(line) }
    }

    /// Where the line of play holding `offset` stands there, as [`standing_at`] gives it.
    pub fn standing<'r>(&self, offset: usize, analysis: &'r RecordAnalysis) -> Standing<'r> {
        let history = self.history(offset);
        let mut standing = Standing { after: None, complete: history.rooted };
        for written in &history.half_moves {
            match analysis.played_at(written.half_move.range.start) {
                Some(played) => standing.after = Some(played),
                None => standing.complete = false,
            }
        }
        standing
    }

    /// The items of the innermost line of play holding `offset` (see [`PlayTree::line_at`]).
    pub fn items_at(&self, syntax: &'a RecordSyntax, offset: usize) -> &'a [Item] {
        match self.lines[self.line_at(offset)].variation {
            Some(variation) => syntax.items_of(variation),
            None => &syntax.items,
        }
    }
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
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax;

    /// The half-move the line stands after at the first occurrence of `needle` (plus
    /// `shift` bytes), as its text, and whether the history is complete.
    fn standing(text: &str, needle: &str, shift: usize) -> (Option<String>, bool, Option<Side>) {
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        let record = syntax::lower_record(&tree, text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let offset = text.find(needle).expect("the needle is in the text") + shift;
        let standing = standing_at(text, &record, offset, &analysis);
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

    /// A record from a PDTL giving Black the move: its first move line has no White
    /// half-move, and a variation of Black's starts where the record does (§11.2), nested too.
    const BLACK_FIRST: &str = "[Variant \"C'escacs\"]\n[PDTL \"/27:1k/21:3p4/20:3p3/4:4P/1:1K/ b -- - 0 5\"]\n\n5. …, E21-E19\n(5. …, F20-F18\n.6. K4-K6\n.(6. K4-K8))\n(5. …, E21-E17\n.(5. …, F20-F16))\n6. K4-K6:\n*\n";

    #[test]
    fn a_variation_of_black_s_half_move_of_a_line_without_white_s_starts_before_it() {
        assert_eq!(standing(BLACK_FIRST, "(5. …, F20-F18", 1), (None, true, Some(Side::Black)));
        assert_eq!(
            standing(BLACK_FIRST, "\n.6. K4-K6", 1),
            (Some("F20-F18".to_string()), true, Some(Side::White))
        );
        assert_eq!(
            standing(BLACK_FIRST, "\n.(6. K4-K8", 1),
            (Some("K4-K6".to_string()), true, Some(Side::Black))
        );
        assert_eq!(
            standing(BLACK_FIRST, "(6. K4-K8", 1),
            (Some("F20-F18".to_string()), true, Some(Side::White))
        );
        // Nested in a variation whose first move line has no White half-move either.
        assert_eq!(standing(BLACK_FIRST, "(5. …, F20-F16", 1), (None, true, Some(Side::Black)));
        // The board there is the position at the place, and its line the variation's.
        let record = syntax::parse_record(BLACK_FIRST);
        let analysis = analyse_syntax(BLACK_FIRST, &record, AnalysisOptions::default());
        let offset = BLACK_FIRST.find("F20-F16").expect("the nested half-move") + 2;
        let board = board_at(BLACK_FIRST, &record, &analysis, offset);
        assert!(board.exact);
        let line: Vec<String> = board.line.iter().map(LineHalfMove::label).collect();
        assert_eq!(line, ["5. …, F20-F16"]);
        assert!(board.line.iter().all(|half_move| half_move.played));
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

#[cfg(test)]
mod agreement_tests {
    use super::history_at;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::diagnostics::Code;
    use crate::pieces::Side;
    use crate::syntax;

    /// Lines of play nested three deep, Black-first and White-first, with a comment `{x}`
    /// after each move line.
    const NESTED: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19 {a}\n(1. …, E21-E17 {b}\n2. E7-E9 {c}\n(2. E7-E11, E17-E15 {d}\n(2. …, I21-I19 {e})))\n(1. E7-E9, E21-E19 {f}\n2. K6-K8 {g})\n2. JF6-B18, EE23-D20: {h}\n*\n";

    /// The references `#N@W`/`#N@B` to every half-move of the history at `offset`: what
    /// completion offers there.
    fn references_to_history(text: &str, offset: usize) -> String {
        let record = syntax::parse_record(text);
        let history = history_at(text, &record, offset);
        let written = history.half_moves.iter().map(|written| {
            let number = written.line.number.text(text).trim_end_matches('.');
            let side = if written.side == Side::White { 'W' } else { 'B' };
            format!("#{number}@{side}")
        });
        written.collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn every_half_move_of_a_comments_history_is_one_its_references_resolve_to() {
        for placeholder in ["{a}", "{b}", "{c}", "{d}", "{e}", "{f}", "{g}", "{h}"] {
            let offset = NESTED.find(placeholder).expect("the placeholder is in the record");
            let references = references_to_history(NESTED, offset);
            assert!(!references.is_empty(), "{placeholder} has a history");
            let text = NESTED.replace(placeholder, &format!("{{{references}}}"));
            let record = syntax::parse_record(&text);
            let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
            let unresolved: Vec<_> = analysis
                .diagnostics
                .iter()
                .filter(|d| matches!(d.code, Code::N013 | Code::N014 | Code::N015))
                .map(|d| (d.code, &text[d.range], d.message.as_str()))
                .collect();
            assert!(unresolved.is_empty(), "{placeholder} {references}: {unresolved:?}");
        }
        // The history of the innermost Black-first variation: White's 2 of its parent kept.
        let offset = NESTED.find("{e}").expect("the placeholder is in the record");
        assert_eq!(references_to_history(NESTED, offset), "#1@W #1@B #2@W #2@B");
        let offset = NESTED.find("{g}").expect("the placeholder is in the record");
        assert_eq!(references_to_history(NESTED, offset), "#1@W #1@B #2@W");
    }
}
