//! The board at a place of a document, for the `ctlpgn/board` request and the editors' board
//! panels: the position drawn (SVG and text), its PDTL, whose turn and the check, and the
//! half-moves of the line of play under the place, for a move list, and the half-moves that
//! may be played there (`ide::play`). Byte ranges of the document; [`BoardAnswer::reply`]
//! makes the answer both edges send, with the ranges each edge converts.
//!
//! The move list is a window of at most [`LINE_WINDOW`] half-moves around the place, with the
//! line's length and its first and last half-moves: a board is asked for at every move of the
//! cursor, and a record written on one line of 400 KB has 34,000 half-moves, whose list made
//! an answer of megabytes and a page of as many buttons.

mod reply;

pub use reply::{BoardReply, LineReply, MoveReply};

use crate::analysis::{board_at, LineHalfMove};
use crate::board::{Board, Theme};
use crate::document::RecordView;
use crate::format::FormatOptions;
use crate::ide::play::{playable_moves, PlayableMove};
use crate::pieces::Side;
use crate::replay;

/// The most half-moves of the line of play an answer lists: those nearest the place.
pub const LINE_WINDOW: usize = 200;

/// How to draw the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardOptions {
    /// Black at the bottom.
    pub flip: bool,
    /// The colours the SVG falls back to where the page sets none of its own.
    pub theme: Theme,
    /// The spellings the half-moves offered take where the record writes none yet.
    pub format: FormatOptions,
}

/// The board at a place (docs/language-server.md gives each field's meaning).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardAnswer {
    /// Whether the position drawn is the one at the place (not only the last one known).
    pub exact: bool,
    /// The board as an SVG document; `None` when no position is known.
    pub svg: Option<String>,
    /// The board as a text picture; `None` when no position is known.
    pub text: Option<String>,
    pub pdtl: Option<String>,
    /// The half-move under or before the place, as its index in `line` plus one.
    pub ply: usize,
    /// The number of the move to be played, when the position knows it.
    pub move_number: Option<u32>,
    /// The side to move.
    pub side: Option<Side>,
    /// The label of the half-move under or before the place.
    pub current: Option<String>,
    /// The check the side to move is in, in words.
    pub check: Option<String>,
    /// The half-moves of the line of play at the place nearest it, at most [`LINE_WINDOW`] of
    /// them, in order, their ranges in the document.
    pub line: Vec<LineHalfMove>,
    /// How many half-moves the whole line of play has.
    pub line_length: usize,
    /// The line's first and last half-moves, for a client to go there when they lie outside
    /// `line`; `None` when the line has none.
    pub line_ends: Option<(LineHalfMove, LineHalfMove)>,
    /// Every half-move the side to move may play at the place, as it is written when played;
    /// `None` when the place has no exact position or the game is over there.
    pub moves: Option<Vec<PlayableMove>>,
}

/// The board at byte `offset` of the document; an offset outside the record stands at the
/// nearest end of it.
pub fn board(view: RecordView<'_>, offset: usize, options: BoardOptions) -> BoardAnswer {
    let inside = offset.saturating_sub(view.start).min(view.text.len());
    let at = board_at(view.text, view.syntax, view.analysis, inside);
    let drawn = at.position.map(|position| {
        let mut drawing =
            Board::new(position, &view.analysis.identifiers).with_theme(options.theme);
        if let Some(played) = at.after {
            drawing = drawing.with_move(played.effect.origin, played.effect.destination);
        }
        if options.flip {
            drawing = drawing.flip();
        }
        (drawing.svg(), drawing.text())
    });
    let current = at.current().map(LineHalfMove::label);
    let mut line = at.line;
    let line_length = line.len();
    let window = window(line_length, at.ply);
    let in_document = |half_move: &LineHalfMove| LineHalfMove {
        range: view.in_document(half_move.range),
        ..half_move.clone()
    };
    let line_ends =
        line.first().zip(line.last()).map(|(first, last)| (in_document(first), in_document(last)));
    line.truncate(window.end);
    line.drain(..window.start);
    for half_move in &mut line {
        half_move.range = view.in_document(half_move.range);
    }
    let (svg, text) = drawn.unzip();
    BoardAnswer {
        exact: at.exact,
        svg,
        text,
        ply: at.ply,
        move_number: at.position.and_then(|position| position.move_number),
        side: at.position.map(|position| position.turn),
        current,
        check: at.position.and_then(replay::check_in_words).map(|(_, words)| words),
        pdtl: at.pdtl,
        line,
        line_length,
        line_ends,
        moves: playable_moves(view, offset, &options.format).ok().filter(|moves| !moves.is_empty()),
    }
}

/// The indices of the half-moves an answer lists, of a line of `length` half-moves whose
/// half-move `ply` (from 1; 0 before the first) is the place's: [`LINE_WINDOW`] of them, as
/// many before the place's as after it where the line allows, so that the half-moves before
/// and after the place (a client's ← and →) are always among them.
pub fn window(length: usize, ply: usize) -> std::ops::Range<usize> {
    let current = ply.saturating_sub(1).min(length.saturating_sub(1));
    let start = current.saturating_sub(LINE_WINDOW / 2).min(length.saturating_sub(LINE_WINDOW));
    start..length.min(start + LINE_WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_holds_the_half_moves_around_the_place_and_no_more_than_its_size() {
        assert_eq!(window(0, 0), 0..0);
        assert_eq!(window(22, 0), 0..22);
        assert_eq!(window(22, 22), 0..22);
        assert_eq!(window(50_000, 0), 0..200);
        assert_eq!(window(50_000, 1), 0..200);
        assert_eq!(window(50_000, 25_000), 24_899..25_099);
        assert_eq!(window(50_000, 50_000), 49_800..50_000);
        for length in [0, 1, 199, 200, 201, 1_000] {
            for ply in 0..=length {
                let window = window(length, ply);
                assert_eq!(window.len(), length.min(LINE_WINDOW), "{length} {ply}");
                // The place's half-move and the ones on each side of it (by index, ply - 1).
                for neighbour in [ply.saturating_sub(2), ply.saturating_sub(1), ply] {
                    if neighbour < length {
                        assert!(window.contains(&neighbour), "{length} {ply}: {window:?}");
                    }
                }
            }
        }
    }
}
