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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLine {
    pub range: TextRange,
    pub indentation: Option<Token>,
    pub number: Token,
    pub white: Option<HalfMoveText>,
    pub ellipsis: Option<Token>,
    pub comma: Option<Token>,
    pub black: Option<HalfMoveText>,
}
