//! The state update after the board change (§8.3-§8.5): castling status, the special-capture
//! field, the halfmove clock, the move number and the turn, all derived from the half-move's
//! [`MoveEffect`] so that every move kind is treated by the same rules.

use super::effect::{EffectKind, MoveEffect, PawnStep};
use crate::castling::{rook_home_at, RookRole};
use crate::geometry::Hex;
use crate::pieces::{PieceKind, Side};
use crate::position::{CastlingRights, Position, SpecialCapture};

/// Completes `after`, whose board already shows the half-move, from the state of `before`.
pub(super) fn advance(before: &Position, mut after: Position, effect: &MoveEffect) -> Position {
    advance_from(before.halfmove_clock, before.move_number, &mut after, effect);
    after
}

/// [`advance`] for a position whose board was changed in place: its clock and move number are
/// still those before the half-move.
pub(super) fn advance_in_place(position: &mut Position, effect: &MoveEffect) {
    advance_from(position.halfmove_clock, position.move_number, position, effect);
}

fn advance_from(clock: u32, number: Option<u32>, after: &mut Position, effect: &MoveEffect) {
    let mover = effect.side;
    update_castling(after, effect);
    after.special = special_field(effect);
    let resets_clock = effect.piece == PieceKind::Pawn || effect.captured.is_some();
    after.halfmove_clock = if resets_clock { 0 } else { clock.saturating_add(1) };
    if mover == Side::Black {
        after.move_number = number.map(|number| number.saturating_add(1));
    }
    after.turn = mover.opponent();
}

/// §8.3: a King move clears its side's status; a piece leaving a home Rook hex, or taken on
/// one, clears the flag of that hex's owner. A Rook that comes back never regains the right,
/// which is why the flags are only ever cleared.
fn update_castling(after: &mut Position, effect: &MoveEffect) {
    if effect.piece == PieceKind::King {
        after.castling[effect.side.index()] = CastlingRights::NONE;
    }
    // The hexes a move touches, visited without collecting them (this runs per half-move).
    let mut clear = |hex: Hex| {
        if let Some((side, rook)) = rook_home_at(hex) {
            let rights = &mut after.castling[side.index()];
            match rook {
                RookRole::QueensRook => rights.queen_rook = false,
                RookRole::KingsRook => rights.king_rook = false,
            }
        }
    };
    // A forced promotion moves nothing: its pawn stays on its hex.
    if effect.kind != EffectKind::ForcedPromotion {
        clear(effect.origin);
    }
    if let EffectKind::Castling { rooks, .. } = &effect.kind {
        for rook in rooks.iter() {
            clear(rook.origin);
        }
    }
    if let Some(captured) = effect.captured {
        clear(captured.hex);
    }
}

/// §8.4: the field is reset by every half-move and set only by a double or triple step or a
/// scornful move; it names the destination even when the pawn promoted there.
fn special_field(effect: &MoveEffect) -> SpecialCapture {
    let forward = effect.side.forward();
    let ahead = |lines: i16| effect.origin.offset(0, lines * forward);
    match effect.step {
        None => SpecialCapture::None,
        Some(PawnStep::Double) => SpecialCapture::EnPassant {
            piece: effect.destination,
            crossed: ahead(2).into_iter().collect(),
        },
        Some(PawnStep::Triple) => {
            let mut crossed: Vec<Hex> = [ahead(2), ahead(4)].into_iter().flatten().collect();
            crossed.sort_by_key(|hex| hex.line());
            SpecialCapture::EnPassant { piece: effect.destination, crossed }
        }
        Some(PawnStep::Scornful { scorned }) => {
            SpecialCapture::Scornful { piece: effect.destination, scorned: Some(scorned) }
        }
    }
}
