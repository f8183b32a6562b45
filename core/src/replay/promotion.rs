//! Promotion (§6.5, §8.7): the suffix checks K015-K018 of a pawn move and the forced promotion
//! `h=X` of a pawn awaiting promotion (K019, then K017/K018).
//!
//! Whether a piece may be chosen is judged on the position before the half-move: the mover's
//! own pieces are what decide regainability, and a capture made on the same move only removes
//! an opponent piece, so the answer is the same before and after.

use super::effect::{EffectKind, MoveEffect};
use super::words::{a, coloured};
use super::Incoherence;
use crate::diagnostics::Code;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::notation::{PieceMove, Promotion};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::Position;

/// K015-K018 for a piece move whose earlier checks passed: a pawn ending on its promotion hex
/// carries `=X` or `=&`, no other move carries a suffix, and `X` is a suitable regainable piece.
pub(super) fn check_suffix(
    before: &Position,
    mv: &PieceMove,
    piece: Piece,
    ids: &IdentifierSet,
) -> Result<(), Incoherence> {
    let promotes = piece.kind == PieceKind::Pawn && mv.destination.is_promotion_hex(piece.side);
    match (promotes, mv.promotion) {
        (true, None) => Err(Incoherence::new(
            Code::K015,
            format!("pawn reaches its promotion hex {} without =X or =&", mv.destination),
        )),
        (false, Some(suffix)) => {
            let written = match suffix {
                Promotion::To(kind) => format!("={}", ids.move_identifier(kind)),
                Promotion::Awaiting => "=&".to_string(),
            };
            let message = if piece.kind == PieceKind::Pawn {
                format!("{} is not a promotion hex; {written} not allowed", mv.destination)
            } else {
                format!("only a pawn promotes; {written} not allowed on {} move", a(piece.kind))
            };
            Err(Incoherence::new(Code::K016, message))
        }
        (true, Some(Promotion::To(kind))) => check_piece(before, piece.side, kind, mv.destination),
        _ => Ok(()),
    }
}

/// K017-K018: `kind` is a piece a pawn may become on `hex` (§8.1): not a King, Elephant or
/// pawn, and regainable by `side`, a Bishop only for the colour of `hex`.
pub(super) fn check_piece(
    before: &Position,
    side: Side,
    kind: PieceKind,
    hex: Hex,
) -> Result<(), Incoherence> {
    if matches!(kind, PieceKind::King | PieceKind::Elephant | PieceKind::Pawn) {
        return Err(Incoherence::new(Code::K017, format!("cannot promote to {}", a(kind))));
    }
    if before.is_regainable(side, kind, hex.colour()) {
        return Ok(());
    }
    let message = match kind {
        PieceKind::Queen | PieceKind::Wyvern => {
            format!("the {} is still on the board, so it is not regainable", kind.name())
        }
        PieceKind::Bishop => format!(
            "{} still has its Bishop of the {colour} hexes, so no Bishop is regainable on {hex} (a {colour} hex)",
            side.name(),
            colour = hex.colour().name()
        ),
        _ => format!("both {} are still on the board, so no {} is regainable", plural(kind), kind.name()),
    };
    Err(Incoherence::new(Code::K018, message))
}

/// The plural of the kinds a side has two of.
fn plural(kind: PieceKind) -> String {
    match kind {
        PieceKind::Pegasus => "Pegasi".to_string(),
        _ => format!("{}s", kind.name()),
    }
}

/// The forced promotion `h=X` (§6.5): the mover's pawn awaits on `hex`, its promotion hex, and
/// becomes `kind`. Nothing moves, so origin and destination are both `hex`.
pub(super) fn apply_forced(
    before: &Position,
    hex: Hex,
    kind: PieceKind,
) -> Result<(Position, MoveEffect), Incoherence> {
    let mover = before.turn;
    let pawn = Piece::new(mover, PieceKind::Pawn);
    let on_hex = before.get(hex);
    if !hex.is_promotion_hex(mover) || on_hex != Some(pawn) {
        let detail = if !hex.is_promotion_hex(mover) {
            format!("{hex} is not a promotion hex of {}", mover.name())
        } else {
            match on_hex {
                None => format!("{hex} is empty"),
                Some(piece) => format!("{} there", coloured(piece)),
            }
        };
        return Err(Incoherence::new(
            Code::K019,
            format!("no {} pawn awaiting promotion on {hex} ({detail})", mover.name()),
        ));
    }
    check_piece(before, mover, kind, hex)?;
    let mut after = before.clone();
    after.set(hex, Some(Piece::new(mover, kind)));
    let effect = MoveEffect {
        side: mover,
        piece: PieceKind::Pawn,
        origin: hex,
        destination: hex,
        kind: EffectKind::ForcedPromotion,
        captured: None,
        promotion: Some(Promotion::To(kind)),
        step: None,
    };
    Ok((after, effect))
}
