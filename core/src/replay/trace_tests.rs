//! The handbook's worked examples replayed move by move: the trace of §16.1, the PDTL examples
//! of §9.8, and the main lines of the example files `06-promotion-scornful` and
//! `03-pdtl-continuation` (which start from a PDTL), with no optional rule warning on the way.

use super::test_notation::{read, read_all};
use super::tests::{after, pdtl, state};
use super::{apply, rule_warnings};
use crate::identifiers::IdentifierSet;
use crate::position::Position;

#[test]
fn the_worked_trace_of_16_1() {
    // Half-move, then the special field, castling, clock and move number after it.
    let rows = [
        ("E7-E13", "E13@9-11", "RKRrkr", 0, 1),
        ("E21-E15", "E15@17-19", "RKRrkr", 0, 2),
        ("F8-F12", "F12@10", "RKRrkr", 0, 2),
        ("F20-F16", "F16@18", "RKRrkr", 0, 3),
        ("E13\u{d7}F16", "-", "RKRrkr", 0, 3),
        ("E15\u{d7}F12", "-", "RKRrkr", 0, 4),
        ("EG5-F8", "-", "RKRrkr", 1, 4),
        ("EG23-F20", "-", "RKRrkr", 2, 5),
        ("G7-G13", "G13@9-11", "RKRrkr", 0, 5),
        ("F12@@G9", "-", "RKRrkr", 0, 6),
        ("JF6\u{d7}G9", "-", "RKRrkr", 0, 6),
        ("EF20\u{d7}F16", "-", "RKRrkr", 0, 7),
    ];
    let mut position = Position::initial();
    assert_eq!(state(&position), "RKRrkr - 0 1");
    for (text, special, castling, clock, number) in rows {
        position = apply(&position, &read(text))
            .unwrap_or_else(|e| panic!("{text}: {}", e.message))
            .position;
        assert_eq!(
            state(&position),
            format!("{castling} {special} {clock} {number}"),
            "after {text}"
        );
    }
    assert_eq!(
        pdtl(&position),
        "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/16:3e3/9:4J3/8:3E3/6:2P1P2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 7"
    );
}

#[test]
fn the_pdtl_examples_of_9_8() {
    let cases = [
        (
            "E7-E13",
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1",
        ),
        (
            "E7-E13, E21-E15",
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr E15@17-19 0 2",
        ),
        (
            "E7-E13, E21-E15 E13-F14",
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/14:3P3/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F14 0 2",
        ),
        (
            "E7-E13, E21-E15 E13-F14, E15@F14",
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/14:3p3/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 3",
        ),
        (
            "H6-H10, H22-H18 I5-I9, I23-I19 EH4-H8, EH24-H20 KRK-HIOO, KRK-HIO",
            "/28:v/27:d1/26:gjg/25:rnn1/24:pej1p/23:ppeerp/22:2pjk2/21:3pp3/20:3pe2/19:5p2/18:4p2/10:4P2/9:5P2/8:3PE2/7:3PPR2/6:2PJK2/5:PPEE1P/4:PEJ1P/3:RNN1/2:GJG/1:D1/0:V/ w -- - 4 5",
        ),
    ];
    for (moves, expected) in cases {
        assert_eq!(pdtl(&after(moves)), expected, "after {moves}");
    }
}

/// Replays `moves` from a PDTL, checking after each half-move the castling, special, clock and
/// move-number fields, and that no optional rule warning is raised (the examples are valid
/// games).
fn replay_from_pdtl(start: &str, moves: &[(&str, &str)]) -> Position {
    let ids = IdentifierSet::standard();
    let reading = crate::pdtl::parse(start, &ids);
    assert_eq!(reading.problems, vec![]);
    let mut position = reading.position.expect("a usable PDTL");
    for (text, expected) in moves {
        let mv = read(text);
        assert_eq!(rule_warnings(&position, &mv), vec![], "rule warnings for {text}");
        position = apply(&position, &mv)
            .unwrap_or_else(|e| panic!("{text}: {} {}", e.code.as_str(), e.message))
            .position;
        if !expected.is_empty() {
            assert_eq!(state(&position), *expected, "after {text}");
        }
    }
    position
}

#[test]
fn the_main_line_of_example_06_promotion_scornful() {
    let start =
        "/26:2k/22:1P1j3/21:1P6/19:6p1/16:2p1p2/14:4P2/10:1J5/9:2r5/7:3PP3/6:3J3/4:1EKE1/3:RNNR/2:GJG/0:V/ w -- - 0 30";
    let end = replay_from_pdtl(
        start,
        &[
            ("B22-B24=D", "-- - 0 30"),
            ("H16-G15", "-- G15 0 31"),
            ("H14@G15", "-- - 0 31"),
            ("KH26-G25", "-- - 1 32"),
            ("A21-A23=&", "-- - 0 32"),
            ("RC9\u{d7}RC3", "-- - 0 33"),
            ("A23=R", "-- - 0 33"),
            ("KG25-G23:", "-- - 1 34"),
        ],
    );
    assert_eq!(
        pdtl(&end),
        "/24:D4/23:R2k2/22:3j3/19:6p1/16:2p4/15:4P3/10:1J5/7:3PP3/6:3J3/4:1EKE1/3:rNNR/2:GJG/0:V/ w -- - 1 34"
    );
}

#[test]
fn the_main_line_of_example_03_pdtl_continuation() {
    let start = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b RKrkr - 2 ?";
    let moves = "GL5\u{d7}GE5+^ DE1\u{d7}GE5, KRD-DE JE11\u{d7}A23, GH26-G23 DE5-A17, JF26-E23 NE7-C17, D22-D20 \
                 NC17-T18, JF22-C13+\u{221e} KG1-E1, DK6-E21+\u{221e} VF0-E5, DE21-K16+\u{221e} KE1-D2, JE23-K8 \
                 NT18-B22+^, KD26-C25 JA23\u{d7}C23, GG23\u{d7}JC23 GF8-B20+^, GC23\u{d7}GB20 DA17\u{d7}GB20, RE27\u{d7}VE5 \
                 DB20-C19+\u{221e}, ED24-C21 RH2\u{d7}RE5, DK16-F20 DC19-E25#";
    let texts: Vec<String> =
        moves.split([',', ' ']).filter(|t| !t.is_empty()).map(str::to_string).collect();
    assert_eq!(texts.len(), read_all(moves).len());
    let mut plan: Vec<(&str, &str)> = texts.iter().map(|t| (t.as_str(), "")).collect();
    // Black castles on its first full move: the King D26, the Queen's Rook E27.
    plan[2].1 = "RK- - 1 ?";
    let end = replay_from_pdtl(start, &plan);
    assert_eq!(state(&end), "-- - 2 ?");
}
