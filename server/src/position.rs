//! The game state a replay carries from half-move to half-move (handbook §8.1): the board,
//! whose turn it is, castling status, the special-capture field, the halfmove clock and the
//! move number. PDTL reads and prints exactly this state.

use crate::geometry::{Hex, HexColour, ALL_HEXES, HEX_COUNT};
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: [Option<Piece>; HEX_COUNT],
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
}

impl Position {
    /// An empty board, White to move, no rights, move 1.
    pub fn empty() -> Position {
        Position {
            board: [None; HEX_COUNT],
            turn: Side::White,
            castling: [CastlingRights::NONE; 2],
            special: SpecialCapture::None,
            halfmove_clock: 0,
            move_number: Some(1),
        }
    }

    /// The initial position of §5.
    pub fn initial() -> Position {
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

    /// The piece on a hex.
    pub fn get(&self, hex: Hex) -> Option<Piece> {
        self.board[hex.index()]
    }

    /// Puts a piece on a hex, or empties it.
    pub fn set(&mut self, hex: Hex, piece: Option<Piece>) {
        self.board[hex.index()] = piece;
    }

    /// Every occupied hex with its piece, in PDTL order.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        // The board is stored in the order of `ALL_HEXES`.
        ALL_HEXES
            .iter()
            .zip(&self.board)
            .filter_map(|(&hex, piece)| piece.map(|piece| (hex, piece)))
    }

    /// The first hex, in PDTL order, holding `piece`.
    pub fn find(&self, piece: Piece) -> Option<Hex> {
        self.board.iter().position(|&on| on == Some(piece)).map(|index| ALL_HEXES[index])
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
