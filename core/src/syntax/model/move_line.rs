//! A move line `N. white, black` and the written parts of its half-moves, each a token.

use crate::geometry::{valid_coordinate, Hex};
use crate::text::TextRange;

use super::Token;

/// The written parts of a half-move, each a token when present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HalfMoveText {
    pub range: TextRange,
    pub piece: Option<Token>,
    pub origin: Option<Token>,
    pub separator: Option<Token>,
    pub captured: Option<Token>,
    pub destination: Option<Token>,
    pub promotion: Option<Token>,
    pub castling: Option<Token>,
    pub check: Option<Token>,
    pub rating: Option<Token>,
    pub nag: Option<Token>,
    pub indicator: Option<Token>,
    /// Whether an error node lies inside the half-move.
    pub has_error: bool,
    /// The hexes of the origin and the destination where their coordinates are valid, and
    /// whether the parts stand apart ([`HalfMoveText::written_apart`] is `Some`): read with
    /// the syntax (by the reader as it reads the parts), so that the analysis neither reads
    /// every coordinate again nor looks for gaps in every half-move. A coordinate that is
    /// missing or wrong has no hex here; the analysis judges it.
    pub origin_hex: Option<Hex>,
    pub destination_hex: Option<Hex>,
    pub apart: bool,
}

impl HalfMoveText {
    /// Reads what the parts say at once into `origin_hex`, `destination_hex` and `apart`, once
    /// the parts are in place. `may_stand_apart` is false where the caller knows the parts
    /// stand together (the reader reads them so, but for blanks before a check suffix).
    pub(crate) fn read_parts(&mut self, text: &str, may_stand_apart: bool) {
        // Read as bytes: a coordinate is ASCII, and slicing the text as a string would check
        // both ends for character boundaries.
        let hex = |token: &Option<Token>| {
            token.as_ref().and_then(|token| valid_coordinate(&text.as_bytes()[token.range]))
        };
        self.origin_hex = hex(&self.origin);
        self.destination_hex = hex(&self.destination);
        self.apart = may_stand_apart && self.written_apart(text).is_some();
    }

    /// The end of the move itself, before the check suffix and annotations.
    pub fn move_end(&self) -> usize {
        [&self.promotion, &self.destination, &self.castling]
            .into_iter()
            .flatten()
            .map(|token| token.range.end)
            .max()
            .unwrap_or(self.range.end)
    }
}

/// A move line `N. white, black`, `N. …, black` or `N. white`.
///
/// Its half-moves are kept in one box, made when the first is read: the parts of a half-move
/// take about 290 bytes, and a move line without any (`9.`, or a million of them on one line:
/// `9.89.89.8`) would otherwise take twice that for three bytes of text. A move line is about
/// 110 bytes, and one allocation holds both its half-moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLine {
    pub range: TextRange,
    pub indentation: Option<Token>,
    pub number: Token,
    pub ellipsis: Option<Token>,
    pub comma: Option<Token>,
    /// `None` when the line has no half-move; never a pair of two `None`s.
    half_moves: Option<Box<HalfMovePair>>,
}

/// White's and Black's half-moves of a move line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct HalfMovePair {
    white: Option<HalfMoveText>,
    black: Option<HalfMoveText>,
}

impl MoveLine {
    /// White's half-move, if written.
    pub fn white(&self) -> Option<&HalfMoveText> {
        self.half_moves.as_ref()?.white.as_ref()
    }

    /// Black's half-move, if written.
    pub fn black(&self) -> Option<&HalfMoveText> {
        self.half_moves.as_ref()?.black.as_ref()
    }

    /// White's half-move, then Black's, those written.
    pub fn half_moves(&self) -> impl Iterator<Item = &HalfMoveText> {
        [self.white(), self.black()].into_iter().flatten()
    }

    /// White's half-move, mutable, for the readers completing it.
    pub(crate) fn white_mut(&mut self) -> Option<&mut HalfMoveText> {
        self.half_moves.as_mut()?.white.as_mut()
    }

    /// Black's half-move, mutable, for the readers completing it.
    pub(crate) fn black_mut(&mut self) -> Option<&mut HalfMoveText> {
        self.half_moves.as_mut()?.black.as_mut()
    }

    /// White's half-move, then Black's, those written, mutable.
    pub(crate) fn half_moves_mut(&mut self) -> impl Iterator<Item = &mut HalfMoveText> {
        self.half_moves
            .as_deref_mut()
            .into_iter()
            .flat_map(|pair| [pair.white.as_mut(), pair.black.as_mut()].into_iter().flatten())
    }

    /// Puts `half_move` in as White's and returns it in its place; the box for the line's
    /// half-moves, when one is needed, comes from `spares`.
    pub(crate) fn set_white(
        &mut self,
        half_move: HalfMoveText,
        spares: &mut SpareHalfMoves,
    ) -> &mut HalfMoveText {
        self.half_moves.get_or_insert_with(|| spares.take()).white.insert(half_move)
    }

    /// Puts `half_move` in as Black's and returns it in its place (see [`MoveLine::set_white`]).
    pub(crate) fn set_black(
        &mut self,
        half_move: HalfMoveText,
        spares: &mut SpareHalfMoves,
    ) -> &mut HalfMoveText {
        self.half_moves.get_or_insert_with(|| spares.take()).black.insert(half_move)
    }
}

/// Boxes for move lines' half-moves, taken back from records done with for the records read
/// next. The batch path reads record after record: each of a record's move lines allocated
/// its box and dropped it with the record, and the allocator keeps only a few of one size at
/// hand, so that allocating and freeing them took a tenth of `check`'s instructions.
#[derive(Debug, Default)]
pub struct SpareHalfMoves {
    // The boxes themselves are what is kept: unboxing them would allocate again.
    #[allow(clippy::vec_box)]
    boxes: Vec<Box<HalfMovePair>>,
}

impl SpareHalfMoves {
    /// The most boxes kept (about 600 KB).
    const MOST: usize = 1024;

    /// An empty box, a spare one if there is.
    fn take(&mut self) -> Box<HalfMovePair> {
        self.boxes.pop().unwrap_or_default()
    }

    /// Takes the box of `line`'s half-moves, emptied, for another line; `false` when no more
    /// are kept.
    pub(crate) fn keep_from(&mut self, line: &mut MoveLine) -> bool {
        if self.boxes.len() >= Self::MOST {
            return false;
        }
        if let Some(mut pair) = line.half_moves.take() {
            pair.white = None;
            pair.black = None;
            self.boxes.push(pair);
        }
        true
    }
}
