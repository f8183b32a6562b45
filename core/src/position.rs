//! The game state a replay carries from half-move to half-move (handbook §8.1): the board,
//! whose turn it is, castling status, the special-capture field, the halfmove clock and the
//! move number. PDTL reads and prints exactly this state.

use crate::geometry::{promotion_indices, Hex, HexColour, ALL_HEXES, HEX_COUNT, NO_HEX};
use crate::pieces::{Piece, PieceKind, Side};

/// Castling status of one side (§8.3): whether the King and each Rook are still unmoved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    pub king: bool,
    pub queen_rook: bool,
    pub king_rook: bool,
}

impl CastlingRights {
    /// Every right, as at the start of a game.
    pub const ALL: CastlingRights =
        CastlingRights { king: true, queen_rook: true, king_rook: true };
    /// No right: the King has moved.
    pub const NONE: CastlingRights =
        CastlingRights { king: false, queen_rook: false, king_rook: false };
}

/// The special-capture field (§8.4, §9.5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpecialCapture {
    /// Nothing can be taken en passant or as a scornful pawn.
    None,
    /// A pawn (or the piece it promoted to) on `piece` crossed `crossed` (one or two hexes,
    /// in ascending line order) with a double or triple step.
    EnPassant { piece: Hex, crossed: Vec<Hex> },
    /// A pawn made a scornful move to `piece`; `scorned` is the opponent's pawn it passed,
    /// when known (a PDTL records only the scornful pawn's hex).
    Scornful { piece: Hex, scorned: Option<Hex> },
}

/// A complete game state.
#[derive(Clone, Debug)]
pub struct Position {
    board: [Option<Piece>; HEX_COUNT],
    /// The index of each side's first King in PDTL order ([`NO_HEX`] when it has none), by
    /// [`Side::index`]: kept by [`Position::set`], because the rule checks ask where a King
    /// stands several times a half-move, and scanning the board for it each time cost more
    /// than the checks themselves. It follows from `board`, so equality is unchanged by it.
    kings: [u8; 2],
    /// How many Kings each side has, so that taking the one King off (a King's move takes it
    /// off its origin first) needs no search for another.
    king_counts: [u8; 2],
    /// The side to move.
    pub turn: Side,
    /// Castling status, indexed by [`Side::index`].
    pub castling: [CastlingRights; 2],
    /// The special-capture field.
    pub special: SpecialCapture,
    /// Half-moves since the last pawn move or capture.
    pub halfmove_clock: u32,
    /// The number of the current full move; `None` when unknown (`?` in PDTL).
    pub move_number: Option<u32>,
    /// Whether each side's King is in check, by [`Side::index`], when a replay found it out
    /// and told the position ([`Position::know_check`]); forgotten by [`Position::set`]. The
    /// rule checks ask it of the position after one half-move and again before the next.
    /// It follows from `board`, so equality ignores it.
    known_check: [Option<bool>; 2],
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        // `kings`, `king_counts` and `known_check` follow from `board`.
        self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.special == other.special
            && self.halfmove_clock == other.halfmove_clock
            && self.move_number == other.move_number
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
        self.turn.hash(state);
        self.castling.hash(state);
        self.special.hash(state);
        self.halfmove_clock.hash(state);
        self.move_number.hash(state);
    }
}

impl Position {
    /// An empty board, White to move, no rights, move 1.
    pub fn empty() -> Position {
        Position {
            board: [None; HEX_COUNT],
            kings: [NO_HEX; 2],
            king_counts: [0; 2],
            turn: Side::White,
            castling: [CastlingRights::NONE; 2],
            special: SpecialCapture::None,
            halfmove_clock: 0,
            move_number: Some(1),
            known_check: [None; 2],
        }
    }

    /// The initial position of §5. Every record without a PDTL starts from it, so it is set
    /// out once and copied: setting out its 54 pieces, hex by hex, cost more per record than
    /// reading the record's tags.
    pub fn initial() -> Position {
        static INITIAL: std::sync::LazyLock<Position> = std::sync::LazyLock::new(Position::set_out);
        INITIAL.clone()
    }

    /// The pieces of the initial position set out on an empty board.
    fn set_out() -> Position {
        use PieceKind::*;
        let mut position = Position::empty();
        let white: [(PieceKind, &[(char, u8)]); 9] = [
            (King, &[('G', 1)]),
            (Queen, &[('E', 1)]),
            (Wyvern, &[('F', 0)]),
            (Rook, &[('C', 3), ('I', 3)]),
            (Pegasus, &[('D', 2), ('H', 2)]),
            (Knight, &[('E', 3), ('G', 3)]),
            (Bishop, &[('F', 2), ('F', 4), ('F', 6)]),
            (Elephant, &[('D', 4), ('H', 4), ('E', 5), ('G', 5)]),
            (
                Pawn,
                &[
                    ('B', 4),
                    ('K', 4),
                    ('A', 5),
                    ('C', 5),
                    ('I', 5),
                    ('L', 5),
                    ('D', 6),
                    ('H', 6),
                    ('E', 7),
                    ('G', 7),
                    ('F', 8),
                ],
            ),
        ];
        for (kind, hexes) in white {
            for &(letter, line) in hexes {
                let white_hex = Hex::from_letter(letter, line).expect("initial hexes exist");
                let black_hex = Hex::from_letter(letter, 28 - line).expect("mirror hexes exist");
                position.set(white_hex, Some(Piece::new(Side::White, kind)));
                position.set(black_hex, Some(Piece::new(Side::Black, kind)));
            }
        }
        position.castling = [CastlingRights::ALL; 2];
        position
    }

    /// Whether `side`'s King is in check, if a replay found it out on this board.
    pub fn known_check(&self, side: Side) -> Option<bool> {
        self.known_check[side.index()]
    }

    /// Tells the position whether `side`'s King is in check on it, until a piece is set.
    pub fn know_check(&mut self, side: Side, in_check: bool) {
        self.known_check[side.index()] = Some(in_check);
    }

    /// The piece on a hex.
    pub fn get(&self, hex: Hex) -> Option<Piece> {
        self.board[hex.index()]
    }

    /// The piece on the hex of index `index` in [`ALL_HEXES`], for walks along a
    /// [`crate::geometry::step_table`].
    pub fn at(&self, index: usize) -> Option<Piece> {
        self.board[index]
    }

    /// Puts a piece on a hex, or empties it.
    pub fn set(&mut self, hex: Hex, piece: Option<Piece>) {
        let index = hex.index();
        self.known_check = [None; 2];
        let replaced = std::mem::replace(&mut self.board[index], piece);
        if let Some(king @ Piece { kind: PieceKind::King, .. }) = replaced {
            let side = king.side.index();
            self.king_counts[side] -= 1;
            if usize::from(self.kings[side]) == index {
                self.kings[side] = if self.king_counts[side] == 0 {
                    NO_HEX
                } else {
                    let first = self.board.iter().position(|&on| on == Some(king));
                    first.map_or(NO_HEX, |first| first as u8)
                };
            }
        }
        if let Some(Piece { side, kind: PieceKind::King }) = piece {
            let side = side.index();
            // At most 169 Kings, so the count fits.
            self.king_counts[side] += 1;
            self.kings[side] = self.kings[side].min(index as u8);
        }
    }

    /// Where `side`'s King stands (the first in PDTL order if it has several); `None` on a
    /// board without one.
    pub fn king(&self, side: Side) -> Option<Hex> {
        let index = self.kings[side.index()];
        (index != NO_HEX).then(|| ALL_HEXES[usize::from(index)])
    }

    /// The hexes, column by column, where a pawn of `side` awaits promotion (§8.7).
    pub fn awaiting_promotion(&self, side: Side) -> impl Iterator<Item = Hex> + '_ {
        let pawn = Some(Piece::new(side, PieceKind::Pawn));
        let indices = promotion_indices(side);
        // Asked before every half-move of the rule checks, and nearly always none awaits: one
        // pass without a branch per hex says so, and only then are the hexes gone through.
        let any = indices
            .iter()
            .fold(false, |any, &index| any | (self.board[usize::from(index)] == pawn));
        let indices = if any { &indices[..] } else { &[] };
        indices
            .iter()
            .map(|&index| usize::from(index))
            .filter(move |&index| self.board[index] == pawn)
            .map(|index| ALL_HEXES[index])
    }

    /// Every occupied hex with its piece, in PDTL order.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        // The board is stored in the order of `ALL_HEXES`.
        ALL_HEXES
            .iter()
            .zip(&self.board)
            .filter_map(|(&hex, piece)| piece.map(|piece| (hex, piece)))
    }

    /// How many pieces of a kind a side has on the board.
    pub fn count(&self, side: Side, kind: PieceKind) -> usize {
        self.pieces().filter(|(_, piece)| *piece == Piece::new(side, kind)).count()
    }

    /// Whether `kind` is regainable by promotion for `side` on a hex of colour `colour` (§8.1):
    /// the side has fewer than its starting number of that kind, and for a Bishop none on a hex
    /// of that colour. Kings, Elephants and pawns are never regainable.
    pub fn is_regainable(&self, side: Side, kind: PieceKind, colour: HexColour) -> bool {
        match kind {
            PieceKind::King | PieceKind::Elephant | PieceKind::Pawn => false,
            PieceKind::Bishop => !self
                .pieces()
                .any(|(hex, piece)| piece == Piece::new(side, kind) && hex.colour() == colour),
            _ => self.count(side, kind) < kind.maximum_per_side(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// However pieces are put on and taken off, the King a position keeps track of is the
        /// first King its board holds.
        #[test]
        fn the_king_kept_is_the_first_on_the_board(
            changes in proptest::collection::vec((0usize..HEX_COUNT, 0usize..6), 0..200)
        ) {
            let mut position = Position::initial();
            for (index, what) in changes {
                let piece = match what {
                    0 => None,
                    1 => Some(Piece::new(Side::White, PieceKind::King)),
                    2 => Some(Piece::new(Side::Black, PieceKind::King)),
                    3 => Some(Piece::new(Side::White, PieceKind::Pawn)),
                    4 => Some(Piece::new(Side::Black, PieceKind::Queen)),
                    _ => position.get(ALL_HEXES[(index + 1) % HEX_COUNT]),
                };
                position.set(ALL_HEXES[index], piece);
                for side in [Side::White, Side::Black] {
                    let king = Piece::new(side, PieceKind::King);
                    let first = position.pieces().find(|&(_, piece)| piece == king);
                    let first = first.map(|(hex, _)| hex);
                    proptest::prop_assert_eq!(position.king(side), first);
                }
            }
        }
    }
}
