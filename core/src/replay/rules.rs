//! Optional rule checks (§14.4) judged on the board before the half-move, with no move
//! generation: en passant and scornful capture availability (R001, R002), castling rights and
//! Rook paths (R003, R004), `=&` although a piece is regainable (R005), and a scornful capture
//! written with `×` (R007). Those that need the movement of the pieces (R006, R008, R009) are
//! in `legality`.
//!
//! They are warnings about the game, not about the record: they never stop a replay. They are
//! judged on the position before the half-move and say nothing about a half-move that is
//! incoherent (the replay reports that one).

use super::words::a;
use crate::castling::RookRole;
use crate::diagnostics::Code;
use crate::geometry::Hex;
use crate::notation::{CastlingToken, Move, PieceMove, Promotion, Separator};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::{Position, SpecialCapture};

/// The kinds a promotion can bring back, in the order a message lists them.
const REGAINABLE_KINDS: [PieceKind; 6] = [
    PieceKind::Queen,
    PieceKind::Wyvern,
    PieceKind::Rook,
    PieceKind::Pegasus,
    PieceKind::Knight,
    PieceKind::Bishop,
];

/// The rule warnings of one half-move played from `position` (codes R001-R005 and R007), each
/// with a message; empty when the rules checked here are kept.
pub fn rule_warnings(position: &Position, mv: &Move) -> Vec<(Code, String)> {
    let mut warnings = Vec::new();
    match mv {
        Move::Piece(piece_move) => piece_move_warnings(position, piece_move, &mut warnings),
        Move::Castling(token) => castling_warnings(position, *token, &mut warnings),
        Move::ForcedPromotion { .. } => {}
    }
    warnings
}

/// `(Δcolumn, Δline)` of a move, with the line counted in the mover's forward direction.
fn forward_delta(mv: &PieceMove, side: Side) -> (i16, i16) {
    let delta_column = i16::from(mv.destination.column()) - i16::from(mv.origin.column());
    let delta_line = i16::from(mv.destination.line()) - i16::from(mv.origin.line());
    (delta_column, delta_line * side.forward())
}

fn piece_move_warnings(position: &Position, mv: &PieceMove, warnings: &mut Vec<(Code, String)>) {
    let mover = position.turn;
    if position.get(mv.origin) != Some(Piece::new(mover, PieceKind::Pawn)) {
        return;
    }
    let (delta_column, delta_line) = forward_delta(mv, mover);
    let target = position.get(mv.destination);
    let oblique_forward = delta_column.abs() == 1 && delta_line == 1;
    match mv.separator {
        Separator::At | Separator::DoubleAt if delta_column.abs() == 1 && delta_line == 3 => {
            let steps = if mv.separator == Separator::DoubleAt { 2 } else { 1 };
            let taken = mv.destination.offset(0, -2 * steps * mover.forward());
            let available = matches!(&position.special,
                SpecialCapture::EnPassant { piece, crossed } if Some(*piece) == taken && crossed.contains(&mv.destination));
            if !available {
                warnings.push((
                    Code::R001,
                    format!(
                        "en passant on {} is not available: the previous half-move was not a double or triple step crossing {}",
                        mv.destination, mv.destination
                    ),
                ));
            }
        }
        Separator::At if oblique_forward => {
            let available = matches!(&position.special,
                SpecialCapture::Scornful { piece, scorned } if *piece == mv.destination && scorned.is_none_or(|hex| hex == mv.origin));
            if !available {
                warnings.push((
                    Code::R002,
                    format!(
                        "scornful capture on {} is not available: the piece there did not just make a scornful move past the pawn on {}",
                        mv.destination, mv.origin
                    ),
                ));
            }
        }
        Separator::Capture
            if oblique_forward && target.is_some_and(|piece| piece.side != mover) =>
        {
            warnings.push((
                Code::R007,
                format!(
                    "a pawn takes with an oblique step only as a scornful capture, written with @: {}@{}",
                    mv.origin, mv.destination
                ),
            ));
        }
        _ => {}
    }
    if mv.promotion == Some(Promotion::Awaiting) && mv.destination.is_promotion_hex(mover) {
        if let Some(kind) = suitable(position, mover, mv.destination) {
            warnings.push((
                Code::R005,
                format!(
                    "=& although {} is regainable on {}: the pawn must promote",
                    a(kind),
                    mv.destination
                ),
            ));
        }
    }
}

/// The first piece kind `side` may regain on `hex`, if any.
pub(super) fn suitable(position: &Position, side: Side, hex: Hex) -> Option<PieceKind> {
    regainable_kinds(position, side, hex).next()
}

/// Every kind `side` may regain by promotion on `hex`, in the order a message lists them.
pub(super) fn regainable_kinds(
    position: &Position,
    side: Side,
    hex: Hex,
) -> impl Iterator<Item = PieceKind> + '_ {
    REGAINABLE_KINDS
        .into_iter()
        .filter(move |&kind| position.is_regainable(side, kind, hex.colour()))
}

/// R003 and R004 for a castling whose token is known.
fn castling_warnings(
    position: &Position,
    token: CastlingToken,
    warnings: &mut Vec<(Code, String)>,
) {
    let Some(castling) = token.castling() else { return };
    let mover = position.turn;
    let rights = position.castling[mover.index()];
    let rooks = castling.rook_moves(mover);
    let lost: Vec<&str> = std::iter::once((!rights.king).then_some("the King has moved"))
        .chain(rooks.iter().map(|rook| {
            let kept = match rook.rook {
                RookRole::QueensRook => rights.queen_rook,
                RookRole::KingsRook => rights.king_rook,
            };
            (!kept).then_some(match rook.rook {
                RookRole::QueensRook => "the Queen's Rook has moved or was taken",
                RookRole::KingsRook => "the King's Rook has moved or was taken",
            })
        }))
        .flatten()
        .collect();
    if !lost.is_empty() {
        warnings.push((
            Code::R003,
            format!("{} castling right already lost: {}", castling.name, lost.join(", ")),
        ));
    }
    let king_destination = castling.king_destination(mover);
    for rook in &rooks {
        // The King's destination lies on some paths; it is empty before the move (K023) and
        // the King and Rook move together, so it never blocks.
        if let Some(hex) = rook
            .path
            .iter()
            .copied()
            .find(|&hex| hex != king_destination && position.get(hex).is_some())
        {
            warnings.push((
                Code::R004,
                format!(
                    "the {}'s path from {} to {} is blocked on {hex}",
                    rook.rook.name(),
                    rook.origin,
                    rook.destination
                ),
            ));
        }
    }
}
