//! R006, R008 and R009 on small boards: each code raised where the rules are broken, with its
//! message, and silent where they are kept.

use super::test_notation::read;
use super::tests::{applied, board};
use super::{check_given, check_suffix_warning, legality_warnings, SuffixMismatch};
use crate::diagnostics::Code;
use crate::notation::Check;
use crate::pieces::Side;
use crate::position::{CastlingRights, Position};

/// The warnings of one half-move played from `position`.
fn warnings(position: &Position, text: &str) -> Vec<(Code, String)> {
    legality_warnings(position, &read(text), &applied(position, text).position)
}

fn r009(message: &str) -> Vec<(Code, String)> {
    vec![(Code::R009, message.to_string())]
}

#[test]
fn r009_a_piece_goes_only_where_it_moves() {
    let rook = board(Side::White, "RC3 KG1 kG27");
    assert_eq!(warnings(&rook, "RC3-C11"), vec![]);
    assert_eq!(
        warnings(&rook, "RC3-E9"),
        r009("a Rook cannot go from C3 to E9: it rides along orthogonal lines")
    );
    let blocked = board(Side::White, "RC3 PC7 KG1 kG27");
    assert_eq!(
        warnings(&blocked, "RC3-C11"),
        r009("a Rook cannot go from C3 to C11: C7 is in the way")
    );
    // The handbook's example: a quadruple step.
    assert_eq!(
        warnings(&Position::initial(), "E7-E15"),
        r009("a pawn cannot go from E7 to E15: it steps straight forward once or twice (three times from its triple-step hexes) or obliquely forward once onto an empty hex, and takes diagonally forward")
    );
    assert_eq!(warnings(&Position::initial(), "E7-E13"), vec![], "E7 is a triple-step hex");
    assert_eq!(warnings(&Position::initial(), "F8-F14").len(), 1, "F8 is not");
    // A Knight rides two jumps over an empty hex, but takes only with one.
    assert_eq!(warnings(&board(Side::White, "NF14 KG1 kG27"), "NF14-D24"), vec![], "over E19");
    assert_eq!(
        warnings(&board(Side::White, "NF14 rD24 KG1 kG27"), "NF14×RD24"),
        r009("a Knight cannot go from F14 to D24: it makes a knight jump, and takes only so; or two identical jumps over an empty hex")
    );
}

#[test]
fn r009_the_king_leaps_only_as_its_first_move_and_not_out_of_check() {
    let mut start = board(Side::White, "KG1 kG27");
    start.castling[0] = CastlingRights::ALL;
    assert_eq!(warnings(&start, "KG1-H6"), vec![]);
    let mut moved = start.clone();
    moved.castling[0] = CastlingRights::NONE;
    assert_eq!(
        warnings(&moved, "KG1-H6"),
        r009("a King cannot go from G1 to H6: the King's leap is only the King's first move")
    );
    let mut checked = board(Side::White, "KG1 rG11 kG27");
    checked.castling[0] = CastlingRights::ALL;
    assert_eq!(
        warnings(&checked, "KG1-H6"),
        r009("a King cannot go from G1 to H6: it may not leap out of check")
    );
}

#[test]
fn r009_a_half_move_may_not_leave_its_own_king_in_check() {
    // The Rook on F6 shields the King on F2 from the Rook on F20.
    let pinned = board(Side::White, "KF2 RF6 rF20 kG27");
    assert_eq!(warnings(&pinned, "RF6-F12"), vec![]);
    assert_eq!(
        warnings(&pinned, "RF6-G7"),
        r009("this half-move leaves White's King on F2 in check from the Rook on F20")
    );
    assert_eq!(
        warnings(&board(Side::White, "KF2 kF6"), "KF2-F4")[0].0,
        Code::R009,
        "Kings never stand side by side"
    );
}

#[test]
fn r006_an_awaiting_pawn_promotes_as_soon_as_it_can_unless_its_king_is_in_check() {
    // White lacks its Queen, so the pawn awaiting on T22 must promote.
    let waiting = board(Side::White, "PT22 KG1 kG27");
    assert_eq!(
        warnings(&waiting, "KG1-G3"),
        vec![(Code::R006, "the pawn awaiting promotion on T22 must promote now that a Queen is regainable: this half-move should be the forced promotion T22=…".to_string())]
    );
    assert_eq!(warnings(&waiting, "T22=D"), vec![]);
    assert_eq!(
        warnings(&waiting, "T22-A23=D")[0].0,
        Code::R006,
        "the next half-move is the forced promotion itself (§8.7)"
    );
    let checked = board(Side::White, "PT22 KG1 rG11 kG27");
    assert_eq!(warnings(&checked, "KG1-H2"), vec![], "a King in check answers the check first");
}

/// A board after a half-move: Black, to move, looks at its King.
fn black_to_move(pieces: &str) -> Position {
    board(Side::Black, pieces)
}

fn mismatch(message: &str, expected: Option<Check>) -> Option<SuffixMismatch> {
    Some(SuffixMismatch { message: message.to_string(), expected })
}

#[test]
fn r008_the_suffix_says_what_the_check_is() {
    let afar = black_to_move("RF4 KG1 kF20");
    assert_eq!(check_given(&afar), Some(Check::FromAfar));
    assert_eq!(check_suffix_warning(&afar, Some(Check::FromAfar)), None);
    assert_eq!(check_suffix_warning(&afar, Some(Check::Plain)), None, "+ stands for any check");
    assert_eq!(
        check_suffix_warning(&afar, None),
        mismatch("the check suffix is missing: Black's King on F20 is in check from afar by the Rook on F4; write +∞", Some(Check::FromAfar))
    );
    assert_eq!(
        check_suffix_warning(&afar, Some(Check::Adjoining)),
        mismatch(
            "+^ but Black's King on F20 is in check from afar by the Rook on F4; write +∞",
            Some(Check::FromAfar)
        )
    );
    let jump = black_to_move("NE15 KG1 kF20");
    assert_eq!(check_given(&jump), Some(Check::Adjoining), "a knight jump cannot be shielded");
    let double = black_to_move("RF4 NE15 KG1 kF20");
    assert_eq!(check_given(&double), Some(Check::Double));
    let none = black_to_move("RC3 KG1 kF20");
    assert_eq!(check_suffix_warning(&none, None), None);
    assert_eq!(
        check_suffix_warning(&none, Some(Check::FromAfar)),
        mismatch("+∞ but Black's King on F20 is not in check: no check suffix", None)
    );
}

#[test]
fn r008_mate_is_written_with_a_hash_and_only_then() {
    // The Queen on F24 covers every hex around the King on F28, and nothing can take it.
    let mate = black_to_move("DF24 KG1 kF28");
    assert_eq!(check_given(&mate), Some(Check::Mate));
    assert_eq!(check_suffix_warning(&mate, Some(Check::Mate)), None);
    assert_eq!(
        check_suffix_warning(&mate, Some(Check::Plain)),
        mismatch(
            "+ but Black's King on F28 is checkmated by the Queen on F24; write #",
            Some(Check::Mate)
        )
    );
    // A Bishop on H24 can take the Queen.
    let escape = black_to_move("DF24 KG1 kF28 jH24");
    assert_eq!(check_given(&escape), Some(Check::FromAfar));
    assert_eq!(
        check_suffix_warning(&escape, Some(Check::Mate)),
        mismatch(
            "# but Black's King on F28 is in check from afar by the Queen on F24; write +∞",
            Some(Check::FromAfar)
        )
    );
}

#[test]
fn r008_an_en_passant_capture_can_answer_a_check() {
    // White's double step E9-E13 checks the King on F16. The Rook on E7 guards E13, the Queen
    // and the Bishop cover G13, G15 and E15, Black's own pieces fill the other hexes around
    // the King: only the pawn on F14, taking en passant on E11, answers the check.
    let start =
        board(Side::White, "PE9 RE7 DG7 JC15 KG1 kF16 pF14 pF18 pE17 pG17 pG19 pE19 pH16 nD16");
    let after = applied(&start, "E9-E13").position;
    assert_eq!(check_given(&after), Some(Check::Adjoining));
    let mut no_en_passant = after;
    no_en_passant.special = crate::position::SpecialCapture::None;
    assert_eq!(check_given(&no_en_passant), Some(Check::Mate));
}
