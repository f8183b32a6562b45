//! The board at a place of a document, for the `ctlpgn/board` request and the editors' board
//! panels: the position drawn (SVG and text), its PDTL, whose turn and the check, and the
//! half-moves of the line of play under the place, for a move list, and the half-moves that
//! may be played there (`ide::play`). Byte ranges of the document; the edge converts them and
//! encodes the answer.

use crate::analysis::{board_at, LineHalfMove};
use crate::board::{Board, Theme};
use crate::document::RecordView;
use crate::format::FormatOptions;
use crate::ide::play::{playable_moves, PlayableMove};
use crate::pieces::Side;
use crate::replay;

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
    /// The half-moves of the line of play at the place, their ranges in the document.
    pub line: Vec<LineHalfMove>,
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
    let line = at
        .line
        .into_iter()
        .map(|half_move| LineHalfMove { range: view.in_document(half_move.range), ..half_move })
        .collect();
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
        moves: playable_moves(view, offset, &options.format).ok().filter(|moves| !moves.is_empty()),
    }
}
