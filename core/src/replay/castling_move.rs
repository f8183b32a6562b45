//! Castling (§6.6, §8.6): the coherence checks K020-K023 in the order of §13.1 and the board
//! change, King and Rook(s) from their home hexes to the hexes of the table.
//!
//! Whether the castling rights still hold, and whether the Rooks' paths are clear, are rule
//! matters (R003, R004) left to `rules`.

use super::effect::{EffectKind, MoveEffect};
use super::words::coloured;
use super::Incoherence;
use crate::castling::{king_home, RookMove};
use crate::diagnostics::Code;
use crate::notation::CastlingToken;
use crate::pieces::{Piece, PieceKind};
use crate::position::Position;

/// Checks a castling against `before` and returns the position with only the board changed,
/// and what happened.
pub(super) fn apply(
    before: &Position,
    token: CastlingToken,
) -> Result<(Position, MoveEffect), Incoherence> {
    let Some(castling) = token.castling() else {
        return Err(Incoherence::new(
            Code::K020,
            format!(
                "{} is not a castling token: the 24 tokens are listed in the handbook, \u{a7}6.6",
                token.0
            ),
        ));
    };
    let mover = before.turn;
    let king = Piece::new(mover, PieceKind::King);
    let home = king_home(mover);
    if before.get(home) != Some(king) {
        let message = match before.pieces().find(|&(_, piece)| piece == king) {
            Some((hex, _)) => format!("the {} King is on {hex}, not on {home}", mover.name()),
            None => {
                format!("{} has no King on the board; castling needs it on {home}", mover.name())
            }
        };
        return Err(Incoherence::new(Code::K021, message));
    }
    let rooks: Vec<RookMove> = castling.rook_moves(mover);
    for rook in &rooks {
        if before.get(rook.origin) != Some(Piece::new(mover, PieceKind::Rook)) {
            let there = match before.get(rook.origin) {
                None => "it is empty".to_string(),
                Some(piece) => format!("{} there", coloured(piece)),
            };
            return Err(Incoherence::new(
                Code::K022,
                format!(
                    "{} needs {}'s {} on {} ({there})",
                    castling.name,
                    mover.name(),
                    rook.rook.name(),
                    rook.origin
                ),
            ));
        }
    }
    let king_destination = castling.king_destination(mover);
    let destinations =
        std::iter::once(king_destination).chain(rooks.iter().map(|rook| rook.destination));
    for destination in destinations {
        if let Some(occupant) = before.get(destination) {
            return Err(Incoherence::new(
                Code::K023,
                format!(
                    "castling destination {destination} is occupied ({} there): {} needs it empty",
                    coloured(occupant),
                    castling.name
                ),
            ));
        }
    }

    let mut after = before.clone();
    after.set(home, None);
    for rook in &rooks {
        after.set(rook.origin, None);
    }
    after.set(king_destination, Some(king));
    for rook in &rooks {
        after.set(rook.destination, Some(Piece::new(mover, PieceKind::Rook)));
    }
    let effect = MoveEffect {
        side: mover,
        piece: PieceKind::King,
        origin: home,
        destination: king_destination,
        kind: EffectKind::Castling { token: castling.name, rooks },
        captured: None,
        promotion: None,
        step: None,
    };
    Ok((after, effect))
}
