//! Every half-move the side to move may play, by the rules of play (§4.2, §6, §8): for
//! completion in the movetext, each with the position after it, what it does and the check
//! it gives.
//!
//! Candidates come from the movement of the pieces, the special captures the position allows,
//! the forced promotions and the 24 castlings; a candidate is kept when the replay applies it
//! and no rule check objects to it, so that what is offered is exactly what the checks accept.
//! Castling is also refused in check and onto an attacked hex, which the handbook leaves to
//! the rules of play rather than to the record (§8.6).

use super::rules::regainable_kinds;
use super::{apply, check_given, legality_warnings, rule_warnings, Applied};
use crate::castling;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::movement::{destinations, is_in_check, special_captures, Reach};
use crate::notation::{Check, Move, PieceMove, Promotion, Separator, Spelling};
use crate::pieces::{Piece, PieceKind};
use crate::position::Position;

/// A half-move the side to move may play.
#[derive(Clone, Debug)]
pub struct LegalMove {
    pub mv: Move,
    /// The position after it, and what it does.
    pub applied: Applied,
    /// The check it gives, as its most precise suffix.
    pub check: Option<Check>,
}

impl LegalMove {
    /// The half-move as it is written into a record: the move in the identifiers of `ids`
    /// with `spelling`'s separators, then the check suffix it earns ([`check_given`], what the
    /// rule check R008 expects). Completion offers this text and playing on the board writes
    /// it, so the two cannot differ.
    pub fn text(&self, ids: &IdentifierSet, spelling: Spelling) -> String {
        let mut text = self.mv.write_spelled(ids, spelling);
        text.push_str(self.check.map_or("", Check::as_str));
        text
    }
}

/// Every legal half-move of the side to move, in the order the candidates were found: forced
/// promotions, then the pieces in PDTL order with their moves, special captures, castlings.
pub fn legal_moves(position: &Position) -> Vec<LegalMove> {
    let side = position.turn;
    let mut candidates = Vec::new();
    for hex in position.awaiting_promotion(side) {
        candidates.extend(
            regainable_kinds(position, side, hex)
                .map(|kind| Move::ForcedPromotion { hex, piece: kind }),
        );
    }
    for (from, piece) in position.pieces().filter(|(_, piece)| piece.side == side) {
        let may_leap = piece.kind == PieceKind::King && position.castling[side.index()].king;
        for (to, reach) in destinations(position, from, piece, may_leap) {
            let (separator, taken) = match reach {
                Reach::Quiet => (Separator::Move, None),
                Reach::Capture => (Separator::Capture, position.get(to)),
            };
            push_piece_move(&mut candidates, position, piece, from, separator, taken, to);
        }
    }
    // Both `@` and `@@` are tried for en passant; the replay keeps the one whose geometry holds.
    let pawn = Piece::new(side, PieceKind::Pawn);
    for capture in special_captures(position) {
        let taken = position.get(capture.victim.unwrap_or(capture.to));
        let separators: &[Separator] = if capture.victim.is_some() {
            &[Separator::At, Separator::DoubleAt]
        } else {
            &[Separator::At]
        };
        for &separator in separators {
            push_piece_move(
                &mut candidates,
                position,
                pawn,
                capture.from,
                separator,
                taken,
                capture.to,
            );
        }
    }
    let in_check = is_in_check(position, side);
    candidates.extend(
        castling::all()
            .iter()
            .filter(|_| !in_check)
            .map(|castling| Move::Castling(castling.token())),
    );
    candidates
        .into_iter()
        .filter_map(|mv| {
            let applied = apply(position, &mv).ok()?;
            let castled_into_check =
                matches!(mv, Move::Castling(_)) && is_in_check(&applied.position, side);
            let objected = !rule_warnings(position, &mv).is_empty()
                || !legality_warnings(position, &mv, &applied.position).is_empty();
            if castled_into_check || objected {
                return None;
            }
            let check = check_given(&applied.position);
            Some(LegalMove { mv, applied, check })
        })
        .collect()
}

/// A piece move as it is written: the letter of the `taken` piece unless it is a pawn, and for
/// a pawn reaching its promotion hex one candidate per piece it may become, or `=&`.
fn push_piece_move(
    candidates: &mut Vec<Move>,
    position: &Position,
    piece: Piece,
    from: Hex,
    separator: Separator,
    taken: Option<Piece>,
    to: Hex,
) {
    let captured = taken.map(|victim| victim.kind).filter(|&kind| kind != PieceKind::Pawn);
    let base = PieceMove {
        piece: piece.kind,
        origin: from,
        separator,
        captured,
        destination: to,
        promotion: None,
    };
    if piece.kind != PieceKind::Pawn || !to.is_promotion_hex(piece.side) {
        candidates.push(Move::Piece(base));
        return;
    }
    let kinds: Vec<PieceKind> = regainable_kinds(position, piece.side, to).collect();
    if kinds.is_empty() {
        candidates.push(Move::Piece(PieceMove { promotion: Some(Promotion::Awaiting), ..base }));
    }
    candidates.extend(
        kinds
            .into_iter()
            .map(|kind| Move::Piece(PieceMove { promotion: Some(Promotion::To(kind)), ..base })),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::tests::{applied, board};

    /// The moves as written with the standard letters and their check suffixes, sorted.
    fn written(position: &Position) -> Vec<String> {
        let ids = IdentifierSet::standard();
        let mut moves: Vec<String> = legal_moves(position)
            .iter()
            .map(|legal| legal.text(&ids, Spelling::KEYBOARD))
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
        assert!(
            !moves.iter().any(|mv| mv.starts_with("RF6-G")),
            "the pinned Rook stays on its column"
        );
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

    #[test]
    fn a_half_move_s_text_spells_its_separators_as_asked() {
        let mut position = board(crate::pieces::Side::White, "KG1 RI3 RC3 PE7 NE3 pF10 kG27");
        position.castling[0] = crate::position::CastlingRights::ALL;
        let texts = |spelling| {
            let mut texts: Vec<String> = legal_moves(&position)
                .iter()
                .map(|legal| legal.text(&IdentifierSet::standard(), spelling))
                .collect();
            texts.sort();
            texts
        };
        let unicode = texts(Spelling::UNICODE);
        assert!(unicode.contains(&"E7\u{2010}E13".to_string()), "{unicode:?}");
        assert!(unicode.contains(&"KRK\u{2010}II".to_string()), "{unicode:?}");
        assert!(unicode.contains(&"E7\u{D7}F10".to_string()), "{unicode:?}");
        let ascii = texts(Spelling::ASCII);
        assert!(ascii.contains(&"E7*F10".to_string()), "{ascii:?}");
        assert!(ascii.contains(&"KRR-HIH".to_string()), "{ascii:?}");
        let keyboard = texts(Spelling::KEYBOARD);
        assert!(keyboard.contains(&"E7\u{D7}F10".to_string()), "{keyboard:?}");
        assert!(keyboard.contains(&"KRD-DE".to_string()), "{keyboard:?}");
        // The three spell the same moves.
        assert_eq!(unicode.len(), ascii.len());
    }
}
