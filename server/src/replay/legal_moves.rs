//! Every half-move the side to move may play, by the rules of play (§4.2, §6, §8): for
//! completion in the movetext, each with the position after it, what it does and the check
//! it gives.
//!
//! Candidates come from the movement of the pieces, the special captures the position allows,
//! the forced promotions and the 24 castlings; a candidate is kept when the replay applies it
//! and no rule check objects to it, so that what is offered is exactly what the checks accept.
//! Castling is also refused in check and onto an attacked hex, which the handbook leaves to
//! the rules of play rather than to the record (§8.6).

use super::rules::REGAINABLE_KINDS;
use super::{apply, check_given, legality_warnings, rule_warnings, Applied};
use crate::castling;
use crate::geometry::Hex;
use crate::movement::{destinations, is_in_check, Reach};
use crate::notation::{Check, Move, PieceMove, Promotion, Separator};
use crate::pieces::{Piece, PieceKind};
use crate::position::{Position, SpecialCapture};

/// A half-move the side to move may play.
#[derive(Clone, Debug)]
pub struct LegalMove {
    pub mv: Move,
    /// The position after it, and what it does.
    pub applied: Applied,
    /// The check it gives, as its most precise suffix.
    pub check: Option<Check>,
}

/// Every legal half-move of the side to move, in the order the candidates were found: forced
/// promotions, then the pieces in PDTL order with their moves, special captures, castlings.
pub fn legal_moves(position: &Position) -> Vec<LegalMove> {
    let side = position.turn;
    let mut candidates = Vec::new();
    let awaiting = position.pieces().filter(|(hex, piece)| *piece == Piece::new(side, PieceKind::Pawn) && hex.is_promotion_hex(side));
    for (hex, _) in awaiting {
        candidates.extend(regainable(position, hex).map(|kind| Move::ForcedPromotion { hex, piece: kind }));
    }
    for (from, piece) in position.pieces().filter(|(_, piece)| piece.side == side) {
        let may_leap = piece.kind == PieceKind::King && position.castling[side.index()].king;
        for (to, reach) in destinations(position, from, piece, may_leap) {
            let separator = if reach == Reach::Capture { Separator::Capture } else { Separator::Move };
            push_piece_move(&mut candidates, position, piece, from, separator, to);
        }
    }
    special_captures(&mut candidates, position);
    let in_check = is_in_check(position, side);
    candidates.extend(castling::all().iter().filter(|_| !in_check).map(|castling| Move::Castling(castling.token())));
    candidates
        .into_iter()
        .filter_map(|mv| {
            let applied = apply(position, &mv).ok()?;
            let castled_into_check = matches!(mv, Move::Castling(_)) && is_in_check(&applied.position, side);
            let objected = !rule_warnings(position, &mv).is_empty() || !legality_warnings(position, &mv, &applied.position).is_empty();
            if castled_into_check || objected {
                return None;
            }
            let check = check_given(&applied.position);
            Some(LegalMove { mv, applied, check })
        })
        .collect()
}

/// The kinds the side to move may regain on `hex` by promotion.
fn regainable(position: &Position, hex: Hex) -> impl Iterator<Item = PieceKind> + '_ {
    REGAINABLE_KINDS.into_iter().filter(move |&kind| position.is_regainable(position.turn, kind, hex.colour()))
}

/// A piece move as it is written: the captured piece's letter unless it is a pawn, and for a
/// pawn reaching its promotion hex one candidate per piece it may become, or `=&`.
fn push_piece_move(candidates: &mut Vec<Move>, position: &Position, piece: Piece, from: Hex, separator: Separator, to: Hex) {
    let captured = match separator {
        Separator::Move => None,
        Separator::Capture | Separator::At | Separator::DoubleAt => special_victim(position, to).or(position.get(to)),
    }
    .map(|victim| victim.kind)
    .filter(|&kind| kind != PieceKind::Pawn);
    let base = PieceMove { piece: piece.kind, origin: from, separator, captured, destination: to, promotion: None };
    if piece.kind != PieceKind::Pawn || !to.is_promotion_hex(piece.side) {
        candidates.push(Move::Piece(base));
        return;
    }
    let kinds: Vec<PieceKind> = regainable(position, to).collect();
    if kinds.is_empty() {
        candidates.push(Move::Piece(PieceMove { promotion: Some(Promotion::Awaiting), ..base }));
    }
    candidates.extend(kinds.into_iter().map(|kind| Move::Piece(PieceMove { promotion: Some(Promotion::To(kind)), ..base })));
}

/// The piece an en passant capture landing on `landing` takes, when the position allows one
/// there.
fn special_victim(position: &Position, landing: Hex) -> Option<Piece> {
    match &position.special {
        SpecialCapture::EnPassant { piece, crossed } if crossed.contains(&landing) => position.get(*piece),
        _ => None,
    }
}

/// En passant and scornful-pawn captures: every own pawn in reach of the special field, with
/// both `@` and `@@` tried (the replay keeps the one whose geometry holds).
fn special_captures(candidates: &mut Vec<Move>, position: &Position) {
    let side = position.turn;
    let forward = side.forward();
    let pawn = Piece::new(side, PieceKind::Pawn);
    let own_pawn_at = |hex: Option<Hex>| hex.filter(|&hex| position.get(hex) == Some(pawn));
    match &position.special {
        SpecialCapture::EnPassant { crossed, .. } => {
            for &landing in crossed {
                for from in [-1, 1].into_iter().filter_map(|column| own_pawn_at(landing.offset(column, -3 * forward))) {
                    for separator in [Separator::At, Separator::DoubleAt] {
                        push_piece_move(candidates, position, pawn, from, separator, landing);
                    }
                }
            }
        }
        SpecialCapture::Scornful { piece: target, .. } => {
            for from in [-1, 1].into_iter().filter_map(|column| own_pawn_at(target.offset(column, -forward))) {
                let captured = position.get(*target).map(|victim| victim.kind).filter(|&kind| kind != PieceKind::Pawn);
                candidates.push(Move::Piece(PieceMove {
                    piece: PieceKind::Pawn,
                    origin: from,
                    separator: Separator::At,
                    captured,
                    destination: *target,
                    promotion: None,
                }));
            }
        }
        SpecialCapture::None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identifiers::IdentifierSet;
    use crate::replay::tests::{applied, board};

    /// The moves as written with the standard letters and their check suffixes, sorted.
    fn written(position: &Position) -> Vec<String> {
        let ids = IdentifierSet::standard();
        let mut moves: Vec<String> = legal_moves(position)
            .iter()
            .map(|legal| format!("{}{}", legal.mv.write(&ids), legal.check.map_or("", Check::as_str)))
            .collect();
        moves.sort();
        moves
    }

    #[test]
    fn the_first_moves_are_pawn_steps_and_a_few_pieces() {
        let moves = written(&Position::initial());
        assert!(moves.contains(&"E7-E13".to_string()), "a triple step from E7");
        assert!(!moves.iter().any(|mv| mv == "E7-E15" || mv == "F8-F14"));
        assert!(!moves.iter().any(|mv| mv.starts_with("KR")), "nothing can castle yet");
        // Every one of them is accepted by the replay and the rule checks, by construction;
        // and each one is different.
        let mut unique = moves.clone();
        unique.dedup();
        assert_eq!(unique, moves);
    }

    #[test]
    fn checks_captures_promotions_and_the_king_s_safety_are_written_out() {
        // The Rook on F6 shields its King on F2 from the Rook on F20; the pawn on A21 may
        // promote to the Queen White has lost.
        let position = board(crate::pieces::Side::White, "KF2 RF6 PA21 rF20 kC25");
        let moves = written(&position);
        assert!(moves.contains(&"RF6×RF20".to_string()), "{moves:?}");
        assert!(!moves.iter().any(|mv| mv.starts_with("RF6-G")), "the pinned Rook stays on its column");
        assert!(moves.contains(&"A21-A23=D+∞".to_string()), "{moves:?}");
        assert!(!moves.contains(&"A21-A23=&".to_string()), "=& only when nothing is regainable");
    }

    #[test]
    fn an_awaiting_pawn_that_can_promote_leaves_nothing_else_to_play() {
        let position = board(crate::pieces::Side::White, "PT22 KG1 kG27");
        assert_eq!(written(&position), ["T22=D", "T22=G", "T22=J", "T22=N", "T22=R", "T22=V"]);
    }

    #[test]
    fn en_passant_is_offered_right_after_the_step() {
        let start = board(crate::pieces::Side::Black, "pD16 PC11 KG1 kG27");
        let after = applied(&start, "D16-D12").position;
        assert!(written(&after).contains(&"C11@D14".to_string()), "{:?}", written(&after));
    }
}
