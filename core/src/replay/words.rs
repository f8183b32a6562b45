//! Small English phrases shared by the replay's messages and descriptions, so that every
//! message names pieces the same way ("a Knight", "an Elephant", "White's own Elephant").

use crate::pieces::{Piece, PieceKind};

/// The kind's name with its indefinite article: `a Knight`, `an Elephant`, `a pawn`.
pub(super) fn a(kind: PieceKind) -> String {
    let article = if kind == PieceKind::Elephant { "an" } else { "a" };
    format!("{article} {}", kind.name())
}

/// A piece with its colour: `White pawn`, `Black Knight`.
pub(super) fn coloured(piece: Piece) -> String {
    format!("{} {}", piece.side.name(), piece.kind.name())
}

/// A piece as its owner's: `White's Knight`, `Black's pawn`.
pub(super) fn owned(piece: Piece) -> String {
    format!("{}'s {}", piece.side.name(), piece.kind.name())
}
