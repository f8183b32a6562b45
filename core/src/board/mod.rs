//! The board drawn once, for every reader: a position with its marks in, an SVG document
//! (`svg`) or a monospace picture (`text`) out. Pure: no IO, no protocol.
//!
//! A [`Board`] is the whole input of a drawing: the position, the record's identifier set
//! (the letters on the pieces), the [`Marks`] (the half-move's origin and destination, the
//! King in check, the hexes of a pending en passant or scornful capture), the orientation and
//! the [`Theme`]. `ctlpgn board`, the `ctlpgn/board` request, hovers and the editor panels
//! build one and ask it for a `String`.
//!
//! The SVG is made for reading by people and by programs: every hex is one element with
//! `data-hex` and its colour class (`hex white`, `hex black`, `hex coloured`), every piece one
//! element with `data-hex`, `data-piece` (the standard letter) and `data-side` (`w` or `b`),
//! every mark one element with `data-mark` and `data-hex`.

mod data_uri;
mod layout;
mod svg;
pub mod text;
mod theme;

#[cfg(test)]
mod tests;

pub use data_uri::svg_data_uri;
pub use theme::Theme;

use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::movement::{is_in_check, king_hex};
use crate::position::{Position, SpecialCapture};

/// What the board highlights besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Where the half-move that led to the position started and ended (the same hex for a
    /// forced promotion).
    pub last_move: Option<(Hex, Hex)>,
    /// The hex of the King in check, if the side to move is in check.
    pub check: Option<Hex>,
    /// The hexes an en passant capture can take on: the one or two hexes the pawn crossed.
    pub en_passant: Vec<Hex>,
    /// The hex of a scornful pawn that the pawn it scorned may take.
    pub scornful: Option<Hex>,
}

impl Marks {
    /// The marks a position calls for by itself: the King of the side to move when it is in
    /// check, and the special-capture field of its PDTL.
    pub fn of_position(position: &Position) -> Marks {
        let check = is_in_check(position, position.turn)
            .then(|| king_hex(position, position.turn))
            .flatten();
        let (en_passant, scornful) = match &position.special {
            SpecialCapture::None => (Vec::new(), None),
            SpecialCapture::EnPassant { crossed, .. } => (crossed.clone(), None),
            SpecialCapture::Scornful { piece, .. } => (Vec::new(), Some(*piece)),
        };
        Marks { last_move: None, check, en_passant, scornful }
    }
}

/// Everything a drawing of the board depends on.
#[derive(Clone, Debug)]
pub struct Board<'a> {
    pub position: &'a Position,
    /// The record's identifiers: a piece shows its letter in this set (the standard letter
    /// when the record uses FAN figurines, which most fonts lack).
    pub identifiers: &'a IdentifierSet,
    pub marks: Marks,
    /// Black at the bottom instead of White.
    pub flipped: bool,
    pub theme: Theme,
}

impl<'a> Board<'a> {
    /// The position upright in the light theme, with the marks it calls for by itself
    /// ([`Marks::of_position`]).
    pub fn new(position: &'a Position, identifiers: &'a IdentifierSet) -> Board<'a> {
        Board {
            position,
            identifiers,
            marks: Marks::of_position(position),
            flipped: false,
            theme: Theme::Light,
        }
    }

    /// Marks the origin and destination of the half-move that led to the position.
    pub fn with_move(mut self, origin: Hex, destination: Hex) -> Board<'a> {
        self.marks.last_move = Some((origin, destination));
        self
    }

    /// Turns the board half a turn: Black at the bottom if White was, and back.
    pub fn flip(mut self) -> Board<'a> {
        self.flipped = !self.flipped;
        self
    }

    /// The same board in another theme.
    pub fn with_theme(mut self, theme: Theme) -> Board<'a> {
        self.theme = theme;
        self
    }

    /// The board as a standalone SVG document (at most 40 KB, for any position).
    pub fn svg(&self) -> String {
        svg::document(self, None)
    }

    /// The board as a standalone SVG document drawn `width` pixels wide (its height in
    /// proportion): for a hover, where the natural size would not fit.
    pub fn svg_with_width(&self, width: u32) -> String {
        svg::document(self, Some(width))
    }

    /// The board as a monospace picture, the half-move's hexes bracketed.
    pub fn text(&self) -> String {
        let marked: Vec<Hex> = self
            .marks
            .last_move
            .map(|(origin, destination)| vec![origin, destination])
            .unwrap_or_default();
        text::oriented_picture(self.position, self.identifiers, &marked, self.flipped)
    }
}
