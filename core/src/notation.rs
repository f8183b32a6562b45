//! CTL-AN half-moves as values (handbook §6): what the syntax layer reads from the tree and
//! the replay applies. Pieces are already resolved through the record's identifier set, so a
//! half-move means the same whether it was written with letters, alternative letters or FAN.

use crate::geometry::Hex;
use crate::pieces::PieceKind;

/// The separator of a piece move (§6.1), after the recoverable spellings were read: `x` as
/// `×` (S005) and the look-alike dashes as `-` (S006).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Separator {
    /// `‐` or `-`: a move to an empty hex.
    Move,
    /// `×` or `*`: an ordinary capture on the destination.
    Capture,
    /// `@`: en passant with the captured piece one column step beyond the landing hex, or a
    /// scornful-pawn capture on the destination.
    At,
    /// `@@`: en passant with the captured piece two column steps beyond the landing hex.
    DoubleAt,
}

/// A promotion suffix (§6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    /// `=X`: the pawn becomes this piece.
    To(PieceKind),
    /// `=&`: nothing suitable is regainable; the pawn waits on its promotion hex.
    Awaiting,
}

/// A piece move: everything but castling and forced promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceMove {
    /// The moving piece; [`PieceKind::Pawn`] when no identifier was written.
    pub piece: PieceKind,
    pub origin: Hex,
    pub separator: Separator,
    /// The captured piece's identifier, when one was written.
    pub captured: Option<PieceKind>,
    pub destination: Hex,
    pub promotion: Option<Promotion>,
}

/// One of the 24 castling tokens of §6.6, by its standard spelling (`KRK-HIO`, `KRR-FEE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingToken(pub &'static str);

/// What a half-move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Piece(PieceMove),
    /// `T22=R`: the pawn awaiting promotion on `hex` becomes `piece`.
    ForcedPromotion {
        hex: Hex,
        piece: PieceKind,
    },
    Castling(CastlingToken),
}

/// The check suffix (§6.7); the legacy `^+` is read as [`Check::Adjoining`] (S010).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Check {
    /// `+`
    Plain,
    /// `+∞`
    FromAfar,
    /// `+^`
    Adjoining,
    /// `++`
    Double,
    /// `#`
    Mate,
}

impl Check {
    /// The canonical spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Check::Plain => "+",
            Check::FromAfar => "+\u{221E}",
            Check::Adjoining => "+^",
            Check::Double => "++",
            Check::Mate => "#",
        }
    }
}

/// How the two separators that have two spellings are written (§6.1): the hyphen of a move
/// to an empty hex and of a castling token (`-` or `‐`), and the capture sign (`×` or `*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spelling {
    pub hyphen: &'static str,
    pub capture: &'static str,
}

impl Spelling {
    /// The hyphen a keyboard types and the preferred capture sign: `-` and `×`.
    pub const KEYBOARD: Spelling = Spelling { hyphen: "-", capture: "\u{D7}" };
    /// The preferred characters: `‐` (U+2010) and `×` (U+00D7).
    pub const UNICODE: Spelling = Spelling { hyphen: "\u{2010}", capture: "\u{D7}" };
    /// The keyboard characters only: `-` and `*`.
    pub const ASCII: Spelling = Spelling { hyphen: "-", capture: "*" };
}

impl Default for Spelling {
    fn default() -> Spelling {
        Spelling::KEYBOARD
    }
}

impl Move {
    /// The move in CTL-AN with the identifiers of `ids`: `NE3-F8`, `E13×F16`, `B22-B24=D`,
    /// `T22=R`, `KRK-HIO` (`KTK-HIO` after `T@R`), with the separators a keyboard types, `-`
    /// and `×` ([`Spelling::KEYBOARD`]).
    pub fn write(&self, ids: &crate::identifiers::IdentifierSet) -> String {
        self.write_spelled(ids, Spelling::KEYBOARD)
    }

    /// The move as [`Move::write`] writes it, its hyphens and capture sign spelled as
    /// `spelling` says; `@`/`@@` have one spelling.
    pub fn write_spelled(
        &self,
        ids: &crate::identifiers::IdentifierSet,
        spelling: Spelling,
    ) -> String {
        let mut out = String::with_capacity(12);
        match self {
            Move::Piece(piece_move) => {
                if piece_move.piece != PieceKind::Pawn {
                    out.push(ids.move_identifier(piece_move.piece));
                }
                out.push_str(&piece_move.origin.to_string());
                out.push_str(match piece_move.separator {
                    Separator::Move => spelling.hyphen,
                    Separator::Capture => spelling.capture,
                    Separator::At => "@",
                    Separator::DoubleAt => "@@",
                });
                if let Some(captured) = piece_move.captured {
                    out.push(if captured == PieceKind::Pawn {
                        'P'
                    } else {
                        ids.move_identifier(captured)
                    });
                }
                out.push_str(&piece_move.destination.to_string());
                match piece_move.promotion {
                    Some(Promotion::To(kind)) => {
                        out.push('=');
                        out.push(ids.move_identifier(kind));
                    }
                    Some(Promotion::Awaiting) => out.push_str("=&"),
                    None => {}
                }
            }
            Move::ForcedPromotion { hex, piece } => {
                out.push_str(&hex.to_string());
                out.push('=');
                out.push(ids.move_identifier(*piece));
            }
            Move::Castling(CastlingToken(name)) => {
                let rook = ids.rook_identifier();
                for (i, c) in name.chars().enumerate() {
                    // The rook letter (second) and a both-rooks side letter follow Redefine.
                    match c {
                        'R' if i == 1 || i == 2 => out.push(rook),
                        '-' => out.push_str(spelling.hyphen),
                        c => out.push(c),
                    }
                }
            }
        }
        out
    }
}
