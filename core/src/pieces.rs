//! Pieces and sides (handbook §4.1): the nine piece kinds with their standard letters and FAN
//! figurines. Alternative letters and `[Redefine]` live in `identifiers`.

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The other player.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// `+1` for White and `-1` for Black: the sign of "forward" on the lines.
    pub fn forward(self) -> i16 {
        match self {
            Side::White => 1,
            Side::Black => -1,
        }
    }

    /// `w` or `b`, as in PDTL.
    pub fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "White",
            Side::Black => "Black",
        }
    }

    /// Index for per-side arrays.
    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

/// The nine kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    Pawn,
    Elephant,
    Bishop,
    Knight,
    Pegasus,
    Rook,
    Wyvern,
    Queen,
    King,
}

impl PieceKind {
    /// All kinds, pawn first.
    pub const ALL: [PieceKind; 9] = [
        PieceKind::Pawn,
        PieceKind::Elephant,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Pegasus,
        PieceKind::Rook,
        PieceKind::Wyvern,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The standard upper-case letter: `P E J N G R V D K`.
    pub fn standard_letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Elephant => 'E',
            PieceKind::Bishop => 'J',
            PieceKind::Knight => 'N',
            PieceKind::Pegasus => 'G',
            PieceKind::Rook => 'R',
            PieceKind::Wyvern => 'V',
            PieceKind::Queen => 'D',
            PieceKind::King => 'K',
        }
    }

    /// The kind whose standard letter is `letter` (upper case).
    pub fn from_standard_letter(letter: char) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|kind| kind.standard_letter() == letter)
    }

    /// The FAN figurine of the kind for a side (§4.1).
    pub fn figurine(self, side: Side) -> char {
        let (white, black) = match self {
            PieceKind::Pawn => ('\u{2659}', '\u{265F}'),
            PieceKind::Elephant => ('\u{2616}', '\u{2617}'),
            PieceKind::Bishop => ('\u{2657}', '\u{265D}'),
            PieceKind::Knight => ('\u{2658}', '\u{265E}'),
            PieceKind::Pegasus => ('\u{1FA50}', '\u{1FA53}'),
            PieceKind::Rook => ('\u{2656}', '\u{265C}'),
            PieceKind::Wyvern => ('\u{1FA4F}', '\u{1FA52}'),
            PieceKind::Queen => ('\u{2655}', '\u{265B}'),
            PieceKind::King => ('\u{2654}', '\u{265A}'),
        };
        match side {
            Side::White => white,
            Side::Black => black,
        }
    }

    /// The kind and colour of a FAN figurine.
    pub fn from_figurine(figurine: char) -> Option<(PieceKind, Side)> {
        // Most characters asked about are a move's ASCII letters: answered without the search.
        if figurine.is_ascii() {
            return None;
        }
        PieceKind::ALL.into_iter().find_map(|kind| {
            [Side::White, Side::Black]
                .into_iter()
                .find(|&side| kind.figurine(side) == figurine)
                .map(|side| (kind, side))
        })
    }

    /// The English name, lower case (`pawn`, `Pegasus` is written `Pegasus` in prose).
    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Elephant => "Elephant",
            PieceKind::Bishop => "Bishop",
            PieceKind::Knight => "Knight",
            PieceKind::Pegasus => "Pegasus",
            PieceKind::Rook => "Rook",
            PieceKind::Wyvern => "Wyvern",
            PieceKind::Queen => "Queen",
            PieceKind::King => "King",
        }
    }

    /// How many pieces of this kind a side has at most (P010), which is also the number at the
    /// start except for promotions.
    pub fn maximum_per_side(self) -> usize {
        match self {
            PieceKind::Pawn => 11,
            PieceKind::Elephant => 4,
            PieceKind::Bishop => 3,
            PieceKind::Knight | PieceKind::Pegasus | PieceKind::Rook => 2,
            PieceKind::Wyvern | PieceKind::Queen | PieceKind::King => 1,
        }
    }
}

/// A piece: its owner and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub kind: PieceKind,
}

impl Piece {
    pub fn new(side: Side, kind: PieceKind) -> Piece {
        Piece { side, kind }
    }
}
