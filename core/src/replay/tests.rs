//! Unit tests of the replay: each move kind's board and state change (§8.2-§8.5), each K-code
//! with its message (the cases of the handbook's examples `bad-02` and `bad-03` among them),
//! the English descriptions, and the optional rule warnings.

use super::test_notation::{read, read_all};
use super::{apply, rule_warnings, Applied, Incoherence};
use crate::diagnostics::Code;
use crate::geometry::{parse_coordinate, Hex};
use crate::identifiers::IdentifierSet;
use crate::notation::{CastlingToken, Move};
use crate::pieces::{Piece, PieceKind, Side};
use crate::position::{CastlingRights, Position, SpecialCapture};

pub(super) fn hex(text: &str) -> Hex {
    parse_coordinate(text).unwrap_or_else(|e| panic!("{text}: {}", e.message))
}

/// Plays moves written `E7-E13, E21-E15 F8-F12` from `position`; panics at an incoherent one.
pub(super) fn play(position: &Position, moves: &str) -> Position {
    read_all(moves).iter().fold(position.clone(), |position, mv| match apply(&position, mv) {
        Ok(applied) => applied.position,
        Err(e) => panic!("{mv:?} in {moves}: {} {}", e.code.as_str(), e.message),
    })
}

pub(super) fn after(moves: &str) -> Position {
    play(&Position::initial(), moves)
}

pub(super) fn applied(position: &Position, text: &str) -> Applied {
    apply(position, &read(text))
        .unwrap_or_else(|e| panic!("{text}: {} {}", e.code.as_str(), e.message))
}

fn fails(position: &Position, text: &str) -> Incoherence {
    fails_move(position, &read(text))
}

fn fails_move(position: &Position, mv: &Move) -> Incoherence {
    match apply(position, mv) {
        Ok(applied) => panic!("{mv:?} was applied: {}", applied.effect.describe()),
        Err(incoherence) => incoherence,
    }
}

pub(super) fn pdtl(position: &Position) -> String {
    crate::pdtl::print(position, &IdentifierSet::standard())
}

/// Fields 3 to 6 of the PDTL: castling, special field, clock, move number.
pub(super) fn state(position: &Position) -> String {
    pdtl(position).split(' ').skip(2).collect::<Vec<_>>().join(" ")
}

/// A constructed position: `side` to move, no castling rights, move 1, pieces written as a
/// standard letter (upper case White, lower case Black) and a hex: `KG1 PE7 pE21 jF22`.
pub(super) fn board(side: Side, pieces: &str) -> Position {
    let mut position = Position::empty();
    position.turn = side;
    for item in pieces.split_whitespace() {
        let letter = item.chars().next().expect("a piece letter");
        let kind = PieceKind::from_standard_letter(letter.to_ascii_uppercase())
            .expect("a standard letter");
        let owner = if letter.is_ascii_uppercase() { Side::White } else { Side::Black };
        position.set(hex(&item[1..]), Some(Piece::new(owner, kind)));
    }
    position
}

fn piece(position: &Position, at: &str) -> Option<(Side, PieceKind)> {
    position.get(hex(at)).map(|piece| (piece.side, piece.kind))
}

/// The half-move must fail with `code`, and its message must be `message` exactly.
fn assert_fails(position: &Position, text: &str, code: Code, message: &str) {
    let incoherence = fails(position, text);
    assert_eq!((incoherence.code, incoherence.message.as_str()), (code, message), "{text}");
}

// ---- move kinds and the state update -------------------------------------------------------

#[test]
fn an_ordinary_move_moves_the_piece_and_counts_the_clock() {
    let start = after("F8-F12, F20-F16");
    let done = applied(&start, "JF6-C15");
    assert_eq!(piece(&done.position, "C15"), Some((Side::White, PieceKind::Bishop)));
    assert_eq!(piece(&done.position, "F6"), None);
    assert_eq!(done.position.turn, Side::Black);
    assert_eq!(done.position.halfmove_clock, 1);
    assert_eq!(done.position.move_number, Some(2));
    assert_eq!(done.position.special, SpecialCapture::None);
    assert_eq!(done.effect.describe(), "White Bishop F6 to C15");
    let black = applied(&done.position, "NE25-C21");
    assert_eq!(black.position.halfmove_clock, 2);
    assert_eq!(black.position.move_number, Some(3));
    assert_eq!(black.position.turn, Side::White);
}

#[test]
fn double_and_triple_steps_open_en_passant_with_lines_in_ascending_order() {
    let white_double = after("F8-F12");
    assert_eq!(
        white_double.special,
        SpecialCapture::EnPassant { piece: hex("F12"), crossed: vec![hex("F10")] }
    );
    assert_eq!(state(&white_double), "RKRrkr F12@10 0 1");
    let white_triple = after("E7-E13");
    assert_eq!(
        white_triple.special,
        SpecialCapture::EnPassant { piece: hex("E13"), crossed: vec![hex("E9"), hex("E11")] }
    );
    let black_triple = after("E7-E9, H22-H16");
    assert_eq!(
        black_triple.special,
        SpecialCapture::EnPassant { piece: hex("H16"), crossed: vec![hex("H18"), hex("H20")] }
    );
    assert_eq!(state(&black_triple), "RKRrkr H16@18-20 0 2");
    assert_eq!(
        after("E7-E9, H22-H16, E9-E11").special,
        SpecialCapture::None,
        "a single step resets the field"
    );
    assert_eq!(
        applied(&Position::initial(), "E7-E13").effect.describe(),
        "White pawn E7 to E13 (triple step)"
    );
}

#[test]
fn a_scornful_move_needs_an_opponent_pawn_in_front_of_the_origin() {
    let scornful = after("E7-E13, E21-E15, E13-F14");
    assert_eq!(
        scornful.special,
        SpecialCapture::Scornful { piece: hex("F14"), scorned: Some(hex("E15")) }
    );
    let own_pawn_in_front = board(Side::White, "PE13 PE15");
    assert_eq!(applied(&own_pawn_in_front, "E13-F14").position.special, SpecialCapture::None);
    let piece_in_front = board(Side::White, "PE13 nE15");
    assert_eq!(applied(&piece_in_front, "E13-F14").position.special, SpecialCapture::None);
    let capture = board(Side::White, "PE13 pE15 nF16");
    assert_eq!(
        applied(&capture, "E13\u{d7}NF16").position.special,
        SpecialCapture::None,
        "captures never open a field"
    );
    let black = board(Side::Black, "pE15 PE13");
    let done = applied(&black, "E15-D14");
    assert_eq!(
        done.position.special,
        SpecialCapture::Scornful { piece: hex("D14"), scorned: Some(hex("E13")) }
    );
    assert_eq!(
        done.effect.describe(),
        "Black pawn E15 to D14 (scornful move past the pawn on E13)"
    );
}

#[test]
fn the_scornful_pawn_is_taken_with_a_single_at() {
    let start = after("E7-E13, E21-E15, E13-F14");
    let done = applied(&start, "E15@F14");
    assert_eq!(piece(&done.position, "F14"), Some((Side::Black, PieceKind::Pawn)));
    assert_eq!(piece(&done.position, "E15"), None);
    assert_eq!(done.position.halfmove_clock, 0);
    assert_eq!(done.position.special, SpecialCapture::None);
    assert_eq!(done.effect.describe(), "Black pawn E15 takes the scornful pawn on F14");
}

#[test]
fn en_passant_removes_the_pawn_one_or_two_column_steps_beyond() {
    let triple = after("E7-E9, G21-G15, G7-G13");
    // Black lands on G9 (first crossed hex) with @@, or on G11 (second) with @.
    let on_first = applied(&board_with_black_pawn(&triple, "F12"), "F12@@G9");
    assert_eq!(piece(&on_first.position, "G13"), None);
    assert_eq!(piece(&on_first.position, "G9"), Some((Side::Black, PieceKind::Pawn)));
    assert_eq!(
        on_first.effect.describe(),
        "Black pawn F12 takes en passant on G9, removing the pawn on G13"
    );
    let on_second = applied(&board_with_black_pawn(&triple, "F14"), "F14@G11");
    assert_eq!(piece(&on_second.position, "G13"), None);
    assert_eq!(on_second.position.halfmove_clock, 0);
    // White takes after Black's double step D16-D12 (crossing D14).
    let white = board(Side::White, "PC11 pD12");
    let done = applied(&white, "C11@D14");
    assert_eq!(piece(&done.position, "D12"), None);
    assert_eq!(piece(&done.position, "D14"), Some((Side::White, PieceKind::Pawn)));
}

fn board_with_black_pawn(position: &Position, at: &str) -> Position {
    let mut position = position.clone();
    position.set(hex(at), Some(Piece::new(Side::Black, PieceKind::Pawn)));
    position
}

#[test]
fn a_pawn_that_promoted_on_its_double_step_is_taken_en_passant_by_its_letter() {
    let start = board(Side::White, "PT18 pA23 KG1 kG27");
    let promoted = applied(&start, "T18-T22=D");
    assert_eq!(state(&promoted.position), "-- T22@20 0 1");
    assert_eq!(piece(&promoted.position, "T22"), Some((Side::White, PieceKind::Queen)));
    assert_fails(
        &promoted.position,
        "A23@T20",
        Code::K007,
        "the captured piece on T22 is a Queen; letter D missing",
    );
    let taken = applied(&promoted.position, "A23@DT20");
    assert_eq!(piece(&taken.position, "T22"), None);
    assert_eq!(
        taken.effect.describe(),
        "Black pawn A23 takes en passant on T20, removing the Queen on T22"
    );
}

#[test]
fn a_scornful_move_that_promotes_keeps_the_field_and_the_capture_names_the_piece() {
    let start = board(Side::White, "PE25 pE27");
    let promoted = applied(&start, "E25-D26=D");
    assert_eq!(
        promoted.position.special,
        SpecialCapture::Scornful { piece: hex("D26"), scorned: Some(hex("E27")) }
    );
    assert_fails(
        &promoted.position,
        "E27@D26",
        Code::K007,
        "the captured piece on D26 is a Queen; letter D missing",
    );
    let taken = applied(&promoted.position, "E27@DD26");
    assert_eq!(piece(&taken.position, "D26"), Some((Side::Black, PieceKind::Pawn)));
    assert_eq!(
        taken.effect.describe(),
        "Black pawn E27 takes the Queen (a scornful pawn that promoted) on D26"
    );
}

#[test]
fn promotion_replaces_the_pawn_and_awaiting_leaves_it() {
    let start = board(Side::White, "PB22 PA21 KG1 kG27");
    let queen = applied(&start, "B22-B24=D");
    assert_eq!(piece(&queen.position, "B24"), Some((Side::White, PieceKind::Queen)));
    assert_eq!(queen.position.halfmove_clock, 0);
    assert_eq!(queen.effect.describe(), "White pawn B22 to B24, promoting to a Queen");
    let mut full = board(Side::White, "PA21 DE1 VF0 RC3 RI3 GD2 GH2 NE3 NG3 JF2 JF4 JF6");
    full.halfmove_clock = 7;
    let waiting = applied(&full, "A21-A23=&");
    assert_eq!(piece(&waiting.position, "A23"), Some((Side::White, PieceKind::Pawn)));
    assert_eq!(waiting.position.halfmove_clock, 0);
    assert!(waiting.effect.describe().contains("awaits promotion"));
}

#[test]
fn a_forced_promotion_turns_the_awaiting_pawn_into_the_piece() {
    let start = board(Side::White, "PT22 KG1 kG27");
    let mut start = start;
    start.halfmove_clock = 5;
    let done = applied(&start, "T22=R");
    assert_eq!(piece(&done.position, "T22"), Some((Side::White, PieceKind::Rook)));
    assert_eq!(done.position.halfmove_clock, 0);
    assert_eq!(done.position.turn, Side::Black);
    assert_eq!(done.effect.describe(), "White pawn awaiting on T22 promotes to a Rook");
    // A White pawn awaiting on C25, Black's Queen's Rook home, does not clear Black's flag by
    // promoting: nothing leaves the hex.
    let mut on_home = board(Side::White, "PC25 kG27 rI25");
    on_home.castling[Side::Black.index()] =
        CastlingRights { king: true, queen_rook: false, king_rook: true };
    assert_eq!(state(&applied(&on_home, "C25=R").position), "-kr - 0 1");
}

#[test]
fn castling_moves_king_and_rooks_and_counts_as_a_quiet_move() {
    let start = after("H6-H10, H22-H18, I5-I9, I23-I19, EH4-H8, EH24-H20");
    let white = applied(&start, "KRK-HIOO");
    assert_eq!(piece(&white.position, "H6"), Some((Side::White, PieceKind::King)));
    assert_eq!(piece(&white.position, "I7"), Some((Side::White, PieceKind::Rook)));
    assert_eq!(piece(&white.position, "G1"), None);
    assert_eq!(piece(&white.position, "I3"), None);
    assert_eq!(state(&white.position), "-rkr - 3 4");
    assert_eq!(
        white.effect.describe(),
        "White castles KRK-HIOO: King G1 to H6, King's Rook I3 to I7"
    );
    let mut double = board(Side::White, "KG1 RC3 RI3 kG27");
    double.castling[Side::White.index()] = CastlingRights::ALL;
    let done = applied(&double, "KRR-FEE");
    assert_eq!(piece(&done.position, "F6"), Some((Side::White, PieceKind::King)));
    assert_eq!(piece(&done.position, "E7"), Some((Side::White, PieceKind::Rook)));
    assert_eq!(piece(&done.position, "E5"), Some((Side::White, PieceKind::Rook)));
    assert_eq!(
        done.effect.describe(),
        "White castles KRR-FEE: King G1 to F6, King's Rook I3 to E7, Queen's Rook C3 to E5"
    );
}

#[test]
fn castling_status_follows_king_moves_rook_moves_and_captures_on_home_hexes() {
    let mut start = board(Side::White, "KG1 RC3 RI3 kG27 rC25 rI25");
    start.castling = [CastlingRights::ALL; 2];
    let rook_left = applied(&start, "RC3-C9");
    assert_eq!(state(&rook_left.position), "KRrkr - 1 1");
    let black_takes_home = applied(&rook_left.position, "RI25\u{d7}RI3");
    // Black's King's Rook left I25; White's King's Rook was taken on I3.
    assert_eq!(state(&black_takes_home.position), "Krk - 0 2");
    let back_home = play(&black_takes_home.position, "RC9-C3");
    assert_eq!(
        back_home.castling[0],
        CastlingRights { king: true, queen_rook: false, king_rook: false },
        "no right regained"
    );
    let king_moved = play(&back_home, "KG27-F26");
    assert_eq!(state(&king_moved), "K- - 2 3");
}

#[test]
fn the_move_number_stays_unknown_when_unknown() {
    let mut start = board(Side::Black, "pE21 PE7");
    start.move_number = None;
    let done = applied(&start, "E21-E19");
    assert_eq!(done.position.move_number, None);
    assert!(pdtl(&done.position).ends_with(" 0 ?"));
}

#[test]
fn a_king_leap_capture_resets_the_clock_and_clears_the_rights() {
    let mut start = board(Side::White, "KG1 RC3 RI3 nH6 kG27");
    start.castling[0] = CastlingRights::ALL;
    start.halfmove_clock = 9;
    let done = applied(&start, "KG1\u{d7}NH6");
    assert_eq!(done.position.halfmove_clock, 0);
    assert_eq!(done.position.castling[0], CastlingRights::NONE);
    assert_eq!(done.effect.describe(), "White King G1 takes the Knight on H6");
}

// ---- the K-codes -------------------------------------------------------------------------

/// The cases of the handbook's example `bad-02-coherence` (one incoherence per variation),
/// each played from the position of the main line where the variation branches.
#[test]
fn the_coherence_cases_of_example_bad_02() {
    let to_3 = "E7-E13, E21-E15 F8-F12, F20-F16";
    let to_4 = format!("{to_3} E13\u{d7}F16, E15\u{d7}F12");
    let to_5 = format!("{to_4} EG5-F8, EG23-F20 G7-G13");
    let to_10 =
        format!("{to_5}, F12@@G9 JF6\u{d7}G9, EF20\u{d7}F16 JF4-D10, NE25-C15 EE5-E7, NC15-F14 EF8-F12, EE23-E19");
    let cases: [(&str, &str, Code, &str); 15] = [
        ("", "E9-E13", Code::K001, "no piece on the origin hex E9"),
        ("", "E21-E19", Code::K002, "the pawn on E21 belongs to Black, but it is White's move"),
        ("", "NF6-C15", Code::K003, "F6 holds a Bishop, not a Knight"),
        ("", "EE5-E7", Code::K004, "non-capture onto E7, which is occupied (White pawn there)"),
        ("", "E7\u{d7}D10", Code::K005, "capture sign but D10 is empty"),
        ("", "E7\u{d7}PD10", Code::K005, "capture sign but D10 is empty"),
        ("", "E7\u{d7}EE5", Code::K006, "capture of White's own Elephant on E5"),
        ("", "KRK-II", Code::K023, "castling destination I5 is occupied (White pawn there): KRK-II needs it empty"),
        (to_3, "E13\u{d7}PF16", Code::K009, "the captured piece on F16 is a pawn, which is never named (P written)"),
        (
            &to_4,
            "EG5@F8",
            Code::K010,
            "@ used by a non-pawn (an Elephant on G5): only pawns take en passant or a scornful pawn",
        ),
        (
            &to_4,
            "G7@G9",
            Code::K011,
            "@ with a straight move is neither en passant (a diagonal forward step (\u{b1}1, +3)) nor a scornful capture (an oblique forward step (\u{b1}1, +1))",
        ),
        (&to_4, "G7@F8", Code::K014, "scornful capture but F8 is empty (no Black piece to take)"),
        (
            &to_5,
            "F12@G9",
            Code::K013,
            "en passant with single @ needs a White piece on G11, which is empty; the pawn is on G13 (@@)",
        ),
        (&to_10, "EF12\u{d7}F14", Code::K007, "the captured piece on F14 is a Knight; letter N missing"),
        (&to_10, "EF12\u{d7}GF14", Code::K008, "the captured piece on F14 is a Knight, not a Pegasus"),
    ];
    for (prefix, text, code, message) in cases {
        assert_fails(&after(prefix), text, code, message);
    }
    // The main line itself is coherent to its end.
    let end = play(&after(&to_10), "EF12\u{d7}NF14, EF16\u{d7}EF14");
    assert_eq!(state(&end), "RKRrkr - 0 11");
}

#[test]
fn an_unknown_castling_token_is_k020() {
    let incoherence = fails_move(&Position::initial(), &Move::Castling(CastlingToken("KRK-HI")));
    assert_eq!(incoherence.code, Code::K020);
    assert!(incoherence.message.starts_with("KRK-HI is not a castling token"));
}

/// The PDTL of the handbook's example `bad-03-promotion-castling`: White has lost the Queen,
/// one Rook, both Pegasi, both Knights and all Bishops.
const BAD_03: &str =
    "/27:1k/25:r2r/22:1P5/21:1P6/19:6p1/18:5p1/7:3P4/4:1E3/3:R3/1:1K/0:V/ w RKrkr - 0 40";

fn bad_03() -> Position {
    let reading = crate::pdtl::parse(BAD_03, &IdentifierSet::standard());
    assert_eq!(reading.problems, vec![]);
    reading.position.expect("the example's PDTL is usable")
}

#[test]
fn the_promotion_and_castling_cases_of_example_bad_03() {
    let start = bad_03();
    let cases: [(&str, Code, &str); 7] = [
        ("B22-B24", Code::K015, "pawn reaches its promotion hex B24 without =X or =&"),
        ("B22-B24=E", Code::K017, "cannot promote to an Elephant"),
        ("B22-B24=V", Code::K018, "the Wyvern is still on the board, so it is not regainable"),
        ("E7-E9=D", Code::K016, "E9 is not a promotion hex; =D not allowed"),
        ("T22=R", Code::K019, "no White pawn awaiting promotion on T22 (T22 is empty)"),
        ("KRK-II", Code::K022, "KRK-II needs White's King's Rook on I3 (it is empty)"),
        (
            "KRD-DD",
            Code::K023,
            "castling destination D4 is occupied (White Elephant there): KRD-DD needs it empty",
        ),
    ];
    for (text, code, message) in cases {
        assert_fails(&start, text, code, message);
    }
    let moved = play(&start, "B22-B24=D, KG27-F26 KG1-H2, KF26-E25");
    assert_fails(&moved, "KRD-DD", Code::K021, "the White King is on H2, not on G1");
    let end = play(&moved, "E7-E9, KE25-D24");
    assert_eq!(state(&end), "-- - 1 43");
}

#[test]
fn k003_says_how_a_pawn_or_a_piece_is_written() {
    let start = Position::initial();
    assert_fails(
        &start,
        "E3-F8",
        Code::K003,
        "E3 holds a Knight, not a pawn (a Knight move starts with N)",
    );
    assert_fails(
        &start,
        "NE7-E9",
        Code::K003,
        "E7 holds a pawn, not a Knight (a pawn move is written without a letter)",
    );
}

#[test]
fn k004_suggests_a_capture_on_an_opponent_piece() {
    let start = board(Side::White, "NE3 pF8");
    assert_fails(
        &start,
        "NE3-F8",
        Code::K004,
        "non-capture onto F8, which is occupied (Black pawn there); a capture is written with \u{d7}",
    );
}

#[test]
fn k011_refuses_other_geometries_and_double_at_on_a_scornful_capture() {
    let start = board(Side::White, "PE13 pF14 pF10");
    assert_fails(
        &start,
        "E13@@F14",
        Code::K011,
        "@@ is never a scornful capture: the oblique step E13 to F14 takes with a single @",
    );
    let backwards = fails(&start, "E13@F10");
    assert_eq!(backwards.code, Code::K011);
    assert!(backwards.message.starts_with("@ with the step E13 to F10 is neither en passant"));
    let black = board(Side::Black, "pF12 PG15");
    let message = fails(&black, "F12@G15").message;
    assert!(message.contains("(\u{b1}1, -3)") && message.contains("(\u{b1}1, -1)"), "{message}");
}

#[test]
fn k012_and_k013_judge_the_landing_hex_and_the_captured_hex() {
    let occupied = board(Side::Black, "pF12 jG9 PG13");
    assert_fails(
        &occupied,
        "F12@@G9",
        Code::K012,
        "en passant landing hex G9 is occupied (Black Bishop there)",
    );
    let own = board(Side::Black, "pF12 pG11");
    assert_fails(
        &own,
        "F12@G9",
        Code::K013,
        "en passant with single @ needs a White piece on G11, which holds Black's pawn",
    );
    let off_board = board(Side::White, "PC3");
    assert_fails(
        &off_board,
        "C3@@B6",
        Code::K013,
        "en passant with @@ needs a Black piece 4 lines beyond B6, which is off the board",
    );
    let wrong_sign = board(Side::White, "PE15 pD16");
    assert_fails(
        &wrong_sign,
        "E15@@D18",
        Code::K013,
        "en passant with @@ needs a Black piece on D14, which is empty; the pawn is on D16 (@)",
    );
}

#[test]
fn k014_refuses_a_scornful_capture_of_an_own_piece() {
    let start = board(Side::White, "PG7 PF8");
    assert_fails(
        &start,
        "G7@F8",
        Code::K014,
        "scornful capture but F8 holds White's pawn (no Black piece to take)",
    );
}

#[test]
fn k016_refuses_a_suffix_on_a_piece_move() {
    let start = after("F8-F12, F20-F16");
    assert_fails(
        &start,
        "NE3-F8=D",
        Code::K016,
        "only a pawn promotes; =D not allowed on a Knight move",
    );
    assert_fails(&start, "E7-E9=&", Code::K016, "E9 is not a promotion hex; =& not allowed");
}

#[test]
fn k017_and_k018_judge_the_promotion_piece() {
    let start = board(Side::White, "PB22 RC3 RI3 JF6 JF2 KG1");
    assert_fails(&start, "B22-B24=K", Code::K017, "cannot promote to a King");
    assert_fails(&start, "B22-B24=P", Code::K017, "cannot promote to a pawn");
    assert_fails(
        &start,
        "B22-B24=R",
        Code::K018,
        "both Rooks are still on the board, so no Rook is regainable",
    );
    // B24 is a black hex and F6 holds White's black-hex Bishop; F2's is coloured.
    assert_fails(
        &start,
        "B22-B24=J",
        Code::K018,
        "White still has its Bishop of the black hexes, so no Bishop is regainable on B24 (a black hex)",
    );
    let bishop_free = board(Side::White, "PB22 JF2 JF4 KG1");
    assert_eq!(
        piece(&applied(&bishop_free, "B22-B24=J").position, "B24"),
        Some((Side::White, PieceKind::Bishop))
    );
    let pegasi = board(Side::White, "PB22 GD2 GH2");
    assert_fails(
        &pegasi,
        "B22-B24=G",
        Code::K018,
        "both Pegasi are still on the board, so no Pegasus is regainable",
    );
}

#[test]
fn k019_needs_an_own_pawn_on_its_promotion_hex() {
    let not_promotion_hex = board(Side::White, "PE7");
    assert_fails(
        &not_promotion_hex,
        "E7=D",
        Code::K019,
        "no White pawn awaiting promotion on E7 (E7 is not a promotion hex of White)",
    );
    let black_pawn = board(Side::White, "pT22");
    assert_fails(
        &black_pawn,
        "T22=D",
        Code::K019,
        "no White pawn awaiting promotion on T22 (Black pawn there)",
    );
    let not_regainable = board(Side::White, "PT22 DE1");
    assert_fails(
        &not_regainable,
        "T22=D",
        Code::K018,
        "the Queen is still on the board, so it is not regainable",
    );
    assert_fails(&not_regainable, "T22=E", Code::K017, "cannot promote to an Elephant");
}

#[test]
fn k021_and_k022_name_the_missing_king_and_rook() {
    let no_king = board(Side::White, "RC3 RI3");
    assert_fails(
        &no_king,
        "KRK-II",
        Code::K021,
        "White has no King on the board; castling needs it on G1",
    );
    let no_queens_rook = board(Side::White, "KG1 RI3");
    assert_fails(
        &no_queens_rook,
        "KRR-HIH",
        Code::K022,
        "KRR-HIH needs White's Queen's Rook on C3 (it is empty)",
    );
    let black = board(Side::Black, "kG27 nC25 rI25");
    assert_fails(
        &black,
        "KRD-DE",
        Code::K022,
        "KRD-DE needs Black's Queen's Rook on C25 (Black Knight there)",
    );
    let blocked_rook = board(Side::Black, "kG27 rC25 DE27");
    assert_fails(
        &blocked_rook,
        "KRD-DE",
        Code::K023,
        "castling destination E27 is occupied (White Queen there): KRD-DE needs it empty",
    );
}

#[test]
fn the_first_failing_check_wins() {
    // An empty origin is reported even though the capture would also be on an empty hex.
    assert_eq!(fails(&Position::initial(), "E9\u{d7}D12").code, Code::K001);
    // A wrong type is reported before the separator's checks.
    assert_eq!(fails(&Position::initial(), "NF6@E9").code, Code::K003);
    // The captured letter is checked before the promotion suffix.
    let start = board(Side::White, "PK20 nL23");
    assert_eq!(fails(&start, "K20\u{d7}L23").code, Code::K007);
    assert_eq!(
        applied(&start, "K20\u{d7}NL23=N").position.get(hex("L23")),
        Some(Piece::new(Side::White, PieceKind::Knight))
    );
}

#[test]
fn a_failed_half_move_leaves_the_position_untouched() {
    let start = Position::initial();
    let _ = fails(&start, "E9-E13");
    assert_eq!(start, Position::initial());
}

#[test]
fn messages_quote_the_records_identifiers() {
    let start = after("E7-E13, E21-E15 F8-F12, F20-F16 E13\u{d7}F16, E15\u{d7}F12 EG5-F8, EG23-F20 G7-G13, F12@@G9 JF6\u{d7}G9, EF20\u{d7}F16 JF4-D10, NE25-C15 EE5-E7, NC15-F14 EF8-F12, EE23-E19");
    let ids = IdentifierSet::from_redefine("A@J, C@N, T@R").expect("a valid Redefine");
    let incoherence =
        super::apply_with_identifiers(&start, &read("EF12\u{d7}F14"), &ids).unwrap_err();
    assert_eq!(incoherence.message, "the captured piece on F14 is a Knight; letter C missing");
}

// ---- optional rule warnings ----------------------------------------------------------------

fn warnings(position: &Position, text: &str) -> Vec<Code> {
    rule_warnings(position, &read(text)).into_iter().map(|(code, _)| code).collect()
}

#[test]
fn r001_en_passant_only_right_after_the_step() {
    let fresh = board_after_black_double_step();
    assert_eq!(warnings(&fresh, "C11@D14"), vec![]);
    let mut stale = fresh.clone();
    stale.special = SpecialCapture::None;
    assert_eq!(warnings(&stale, "C11@D14"), vec![Code::R001]);
    // The landing hex must be one the pawn crossed.
    let triple = after("E7-E9, G21-G15, G7-G13");
    let mut triple = triple;
    triple.set(hex("F12"), Some(Piece::new(Side::Black, PieceKind::Pawn)));
    triple.set(hex("H14"), Some(Piece::new(Side::Black, PieceKind::Pawn)));
    assert_eq!(warnings(&triple, "F12@@G9"), vec![]);
    assert_eq!(warnings(&triple, "H14@G11"), vec![]);
    assert_eq!(
        warnings(&triple, "F12@G9"),
        vec![Code::R001],
        "@ on G9 would take G11, not the pawn on G13"
    );
}

fn board_after_black_double_step() -> Position {
    let start = board(Side::Black, "pD16 PC11");
    applied(&start, "D16-D12").position
}

#[test]
fn r002_scornful_capture_only_by_the_scorned_pawn_right_after() {
    let scornful = after("E7-E13, E21-E15, E13-F14");
    assert_eq!(warnings(&scornful, "E15@F14"), vec![]);
    let mut other = scornful.clone();
    other.set(hex("G15"), Some(Piece::new(Side::Black, PieceKind::Pawn)));
    assert_eq!(warnings(&other, "G15@F14"), vec![Code::R002]);
    let mut from_pdtl = other.clone();
    from_pdtl.special = SpecialCapture::Scornful { piece: hex("F14"), scorned: None };
    assert_eq!(warnings(&from_pdtl, "G15@F14"), vec![], "after a PDTL any pawn in reach may take");
    let mut stale = scornful;
    stale.special = SpecialCapture::None;
    assert_eq!(warnings(&stale, "E15@F14"), vec![Code::R002]);
}

#[test]
fn r003_and_r004_judge_rights_and_paths() {
    let mut start = board(Side::White, "KG1 RC3 RI3 kG27");
    start.castling[0] = CastlingRights { king: true, queen_rook: false, king_rook: true };
    assert_eq!(warnings(&start, "KRK-FE"), vec![]);
    assert_eq!(warnings(&start, "KRD-DE"), vec![Code::R003]);
    start.set(hex("G5"), Some(Piece::new(Side::Black, PieceKind::Knight)));
    let blocked = rule_warnings(&start, &read("KRK-FE"));
    assert_eq!(
        blocked,
        vec![(Code::R004, "the King's Rook's path from I3 to E7 is blocked on G5".to_string())]
    );
    // KRD-DE passes over D2, the King's own destination.
    let mut de = board(Side::White, "KG1 RC3");
    de.castling[0] = CastlingRights::ALL;
    assert_eq!(warnings(&de, "KRD-DE"), vec![]);
}

#[test]
fn r005_judges_a_pawn_left_awaiting() {
    let start = board(Side::White, "PA21 KG1");
    assert_eq!(warnings(&start, "A21-A23=D"), vec![]);
    let waiting = board(Side::White, "PA21 KG1 DE1 VF0 RC3 RI3 GD2 GH2 NE3 NG3 JF2 JF4 JF6");
    assert_eq!(warnings(&waiting, "A21-A23=&"), vec![]);
    let careless = board(Side::White, "PA21 KG1");
    assert_eq!(warnings(&careless, "A21-A23=&"), vec![Code::R005]);
}

#[test]
fn r007_scornful_capture_written_with_a_cross() {
    let scornful = after("E7-E13, E21-E15, E13-F14");
    assert_eq!(warnings(&scornful, "E15\u{d7}F14"), vec![Code::R007]);
    assert_eq!(warnings(&Position::initial(), "E7-E13"), vec![]);
}

// ---- robustness ------------------------------------------------------------------------------

mod properties {
    use super::super::{apply, rule_warnings};
    use crate::castling;
    use crate::geometry::{Hex, ALL_HEXES};
    use crate::notation::{CastlingToken, Move, PieceMove, Promotion, Separator};
    use crate::pieces::{Piece, PieceKind, Side};
    use crate::position::{CastlingRights, Position, SpecialCapture};
    use proptest::prelude::*;

    fn hex() -> impl Strategy<Value = Hex> {
        (0..ALL_HEXES.len()).prop_map(|i| ALL_HEXES[i])
    }

    fn kind() -> impl Strategy<Value = PieceKind> {
        (0..PieceKind::ALL.len()).prop_map(|i| PieceKind::ALL[i])
    }

    fn side() -> impl Strategy<Value = Side> {
        any::<bool>().prop_map(|white| if white { Side::White } else { Side::Black })
    }

    /// Any half-move value, including castling tokens outside the table.
    fn any_move() -> impl Strategy<Value = Move> {
        let separator = prop_oneof![
            Just(Separator::Move),
            Just(Separator::Capture),
            Just(Separator::At),
            Just(Separator::DoubleAt)
        ];
        let promotion = proptest::option::of(prop_oneof![
            kind().prop_map(Promotion::To),
            Just(Promotion::Awaiting)
        ]);
        let piece_move = (kind(), hex(), separator, proptest::option::of(kind()), hex(), promotion)
            .prop_map(|(piece, origin, separator, captured, destination, promotion)| {
                Move::Piece(PieceMove {
                    piece,
                    origin,
                    separator,
                    captured,
                    destination,
                    promotion,
                })
            });
        let names: Vec<&'static str> =
            castling::all().iter().map(|c| c.name).chain(["KRK-HI", "KRD-II", ""]).collect();
        prop_oneof![
            6 => piece_move,
            1 => (hex(), kind()).prop_map(|(hex, piece)| Move::ForcedPromotion { hex, piece }),
            1 => proptest::sample::select(names).prop_map(|name| Move::Castling(CastlingToken(name))),
        ]
    }

    /// A random board, possibly far from any game: the replay must still answer.
    fn any_position() -> impl Strategy<Value = Position> {
        (
            proptest::collection::vec((hex(), side(), kind()), 0..90),
            side(),
            any::<[bool; 6]>(),
            proptest::option::of((hex(), any::<bool>())),
            proptest::option::of(1..500u32),
        )
            .prop_map(|(pieces, turn, flags, special, move_number)| {
                let mut position =
                    if pieces.len() % 3 == 0 { Position::initial() } else { Position::empty() };
                for (hex, side, kind) in pieces {
                    position.set(hex, Some(Piece::new(side, kind)));
                }
                position.turn = turn;
                position.castling = [
                    CastlingRights { king: flags[0], queen_rook: flags[1], king_rook: flags[2] },
                    CastlingRights { king: flags[3], queen_rook: flags[4], king_rook: flags[5] },
                ];
                position.special = match special {
                    None => SpecialCapture::None,
                    Some((hex, true)) => {
                        SpecialCapture::EnPassant { piece: hex, crossed: vec![hex] }
                    }
                    Some((hex, false)) => SpecialCapture::Scornful { piece: hex, scorned: None },
                };
                position.move_number = move_number;
                position
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Every half-move on every position is answered without panicking; an applied one
        /// flips the turn and removes exactly the captured piece from the board.
        #[test]
        fn apply_answers_every_move_on_every_position(position in any_position(), mv in any_move()) {
            let _ = rule_warnings(&position, &mv);
            if let Ok(applied) = apply(&position, &mv) {
                let _ = crate::replay::legality_warnings(&position, &mv, &applied.position);
                let _ = crate::replay::check_suffix_warning(&applied.position, Some(crate::notation::Check::Mate));
                prop_assert_eq!(applied.position.turn, position.turn.opponent());
                let taken = usize::from(applied.effect.captured.is_some());
                prop_assert_eq!(applied.position.pieces().count() + taken, position.pieces().count());
                prop_assert!(!applied.effect.describe().is_empty());
                if let Some(captured) = applied.effect.captured {
                    prop_assert_eq!(captured.piece.side, position.turn.opponent());
                }
            }
        }
    }

    /// A board with one King a side, White to move, and up to 24 other pieces, most of them
    /// Black's, so that White is often in check and sometimes checkmated.
    fn attacked_position() -> impl Strategy<Value = Position> {
        (hex(), hex(), proptest::collection::vec((hex(), 0..4u8, kind()), 0..24)).prop_map(
            |(white_king, black_king, pieces)| {
                let mut position = Position::empty();
                for (hex, owner, kind) in
                    pieces.into_iter().filter(|(_, _, kind)| *kind != PieceKind::King)
                {
                    let side = if owner == 0 { Side::White } else { Side::Black };
                    position.set(hex, Some(Piece::new(side, kind)));
                }
                position.set(black_king, Some(Piece::new(Side::Black, PieceKind::King)));
                position.set(white_king, Some(Piece::new(Side::White, PieceKind::King)));
                position
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// Two searches agree: the side to move, in check, is checkmated (the reply search of
        /// the check classification) exactly when it has no legal half-move (every candidate
        /// replayed and judged by the rule checks).
        #[test]
        fn checkmate_is_having_no_legal_half_move(position in attacked_position()) {
            let kings = position.pieces().filter(|(_, piece)| piece.kind == PieceKind::King).count();
            if kings == 2 && crate::movement::is_in_check(&position, Side::White) {
                let mate = crate::replay::check_given(&position) == Some(crate::notation::Check::Mate);
                prop_assert_eq!(mate, crate::replay::legal_moves(&position).is_empty());
            }
        }

        /// Legal-move generation answers on any board.
        #[test]
        fn legal_moves_answer_on_every_position(position in any_position()) {
            let _ = crate::replay::legal_moves(&position);
        }
    }
}
