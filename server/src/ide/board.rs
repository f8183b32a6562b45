//! The board at a place of a document, for the `ctlpgn/board` request and the editors' board
//! panels: the position drawn (SVG and text), its PDTL, whose turn and the check, and the
//! half-moves of the line of play under the place, for a move list. Byte ranges of the
//! document; the edge converts them and encodes the answer.

use crate::analysis::move_label;
use crate::board::{board_at, Board, Theme};
use crate::document::RecordView;
use crate::pieces::Side;
use crate::replay;
use crate::text::TextRange;

/// How to draw the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardOptions {
    /// Black at the bottom.
    pub flip: bool,
    /// The colours the SVG falls back to where the page sets none of its own.
    pub theme: Theme,
}

/// One half-move of the line of play at the place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineEntry {
    /// Its place in the line: 1 for the first half-move after the record's start.
    pub ply: usize,
    /// The move number as written, without its full stop.
    pub number: String,
    pub side: Side,
    /// The move as written, with its check suffix but without annotations.
    pub written: String,
    /// The move with its number, as a move list shows it: `1. K4-K6`, `1. …, E21-E19`.
    pub label: String,
    /// Whether it was replayed.
    pub played: bool,
    /// The move's text: a byte range of the document.
    pub range: TextRange,
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
    pub line: Vec<LineEntry>,
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
    let label =
        |number: &str, side, written: &str| move_label(&format!("{number}."), side, written);
    let line = at
        .line
        .iter()
        .map(|half_move| LineEntry {
            ply: half_move.ply,
            number: half_move.number.clone(),
            side: half_move.side,
            written: half_move.written.clone(),
            label: label(&half_move.number, half_move.side, &half_move.written),
            played: half_move.played,
            range: view.in_document(half_move.range),
        })
        .collect();
    let (svg, text) = drawn.unzip();
    BoardAnswer {
        exact: at.exact,
        svg,
        text,
        ply: at.ply,
        move_number: at.position.and_then(|position| position.move_number),
        side: at.position.map(|position| position.turn),
        current: at
            .current()
            .map(|half_move| label(&half_move.number, half_move.side, &half_move.written)),
        check: at.position.and_then(replay::check_in_words).map(|(_, words)| words),
        pdtl: at.pdtl,
        line,
    }
}
