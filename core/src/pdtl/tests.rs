//! Tests of PDTL reading: every P-code with its severity and anchor, the PDTL values of the
//! handbook's example files, the reference corpus, and the print/parse round trip.

use super::*;
use crate::geometry::{parse_coordinate, Hex, ALL_HEXES};
use crate::pieces::{Piece, PieceKind};
use crate::position::{CastlingRights, SpecialCapture};
use proptest::prelude::*;

const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";
const INITIAL_PLACEMENT: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/";
/// After `1. E7-E13` (§9.8).
const AFTER_TRIPLE: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";
/// After `2. E13-F14` (§9.8), a scornful move.
const AFTER_SCORNFUL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/14:3P3/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr F14 0 2";

fn standard() -> IdentifierSet {
    IdentifierSet::standard()
}

fn hex(name: &str) -> Hex {
    parse_coordinate(name).expect("a hex of the board")
}

/// The codes and severities found in `text`, in order.
fn codes(text: &str, ids: &IdentifierSet) -> Vec<(Code, Severity)> {
    parse(text, ids).problems.iter().map(|problem| (problem.code, problem.severity)).collect()
}

/// Reads `text`, expecting exactly one problem with `code` and `severity`, anchored at the
/// start of `anchor` (its first occurrence in `text`); returns the reading.
fn expect_one(text: &str, code: Code, severity: Severity, anchor: &str) -> PdtlReading {
    let reading = parse(text, &standard());
    assert_eq!(reading.problems.len(), 1, "{text}: {:#?}", reading.problems);
    let problem = &reading.problems[0];
    assert_eq!((problem.code, problem.severity), (code, severity), "{text}: {}", problem.message);
    let start = text.find(anchor).expect("the anchor is in the text");
    assert_eq!(problem.range.start, start, "{text}: anchor of {}", problem.message);
    assert_eq!(reading.position.is_some(), severity != Severity::Error);
    reading
}

/// The initial PDTL with its field `index` replaced.
fn with_field(index: usize, value: &str) -> String {
    let mut fields: Vec<&str> = INITIAL.split(' ').collect();
    fields[index] = value;
    fields.join(" ")
}

/// The initial PDTL with one placement segment `from` replaced by `to`.
fn with_segment(from: &str, to: &str) -> String {
    assert!(INITIAL.contains(from));
    INITIAL.replacen(from, to, 1)
}

#[test]
fn the_initial_position_reads_in_all_four_spellings() {
    let spellings = [
        (INITIAL.to_string(), IdentifierSet::standard()),
        (
            "/28:w/27:qk/26:gbg/25:rnnr/24:pebep/23:ppeepp/22:2pbp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PBP2/5:PPEEPP/4:PEBEP/3:RNNR/2:GBG/1:QK/0:W/ w RKRrkr - 0 1".to_string(),
            IdentifierSet::from_redefine("B@J, Q@D, W@V").unwrap(),
        ),
        (
            "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1".to_string(),
            IdentifierSet::from_redefine("A@J, C@N, T@R").unwrap(),
        ),
        (
            "/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞♞♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:3♟♟3/20:3♟3/8:3♙3/7:3♙♙3/6:2♙♗♙2/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 0 1".to_string(),
            IdentifierSet::fan(),
        ),
    ];
    for (text, ids) in spellings {
        let reading = parse(&text, &ids);
        assert_eq!(reading.problems, vec![], "{text}");
        assert_eq!(reading.position, Some(Position::initial()), "{text}");
    }
}

#[test]
fn a_standard_letter_invalidated_by_redefine_is_an_unknown_piece() {
    let ids = IdentifierSet::from_redefine("A@J, C@N, T@R").unwrap();
    let reading = parse(INITIAL, &ids);
    let found: Vec<Code> = reading.problems.iter().map(|problem| problem.code).collect();
    // Every segment holding J, N or R, and the castling field written with R.
    assert!(found.contains(&Code::P007) && found.contains(&Code::P012), "{found:?}");
    assert!(reading.position.is_none());
    assert!(
        reading.problems[0].message.contains("invalidated by [Redefine \"A@J\"]"),
        "{}",
        reading.problems[0].message
    );
}

#[test]
fn figurines_need_fan_and_fan_needs_figurines() {
    assert!(codes(INITIAL, &IdentifierSet::fan())
        .iter()
        .all(|&(code, _)| code == Code::P007 || code == Code::P012));
    let fan_initial = print(&Position::initial(), &IdentifierSet::fan());
    assert!(codes(&fan_initial, &standard()).contains(&(Code::P007, Severity::Error)));
}

#[test]
fn p001_counts_the_fields() {
    let three = INITIAL.rsplitn(4, ' ').last().unwrap();
    expect_one(three, Code::P001, Severity::Error, "/28");
    let five = INITIAL.strip_suffix(" 1").unwrap();
    let reading = expect_one(five, Code::P001, Severity::Warning, "/28");
    assert_eq!(reading.position.unwrap().move_number, None);
    let four = INITIAL.strip_suffix(" 0 1").unwrap();
    let reading = expect_one(four, Code::P001, Severity::Warning, "/28");
    let position = reading.position.unwrap();
    assert_eq!((position.halfmove_clock, position.move_number), (0, None));
    expect_one(&format!("{INITIAL} 7"), Code::P001, Severity::Error, "/28");
    assert_eq!(codes("", &standard()), vec![(Code::P001, Severity::Error)]);
    // Runs of spaces between fields are tolerated.
    let spaced = INITIAL.replace(" w ", "   w  ");
    assert_eq!(parse(&spaced, &standard()).problems, vec![]);
}

#[test]
fn p002_placement_syntax() {
    let missing_start = INITIAL.strip_prefix('/').unwrap();
    expect_one(missing_start, Code::P002, Severity::Error, "28:v");
    let missing_end = with_field(0, INITIAL_PLACEMENT.strip_suffix('/').unwrap());
    expect_one(&missing_end, Code::P002, Severity::Error, "0:V");
    expect_one(&with_segment("/27:dk/", "/27:dk//"), Code::P002, Severity::Error, "//");
    expect_one(&with_segment("/28:v/", "/v/"), Code::P002, Severity::Error, "v/");
    expect_one(&with_field(0, "/"), Code::P002, Severity::Error, "/");
}

#[test]
fn p003_to_p006_line_segments() {
    expect_one(&with_segment("/28:v/", "/29:v/"), Code::P003, Severity::Error, "29:v");
    expect_one(&with_segment("/8:3P3/", "/08:3P3/"), Code::P003, Severity::Error, "08:3P3");
    let repeated = with_segment("/8:3P3/", "/8:3P3/8:3P3/");
    let reading = expect_one(&repeated, Code::P004, Severity::Error, "8:3P3/7:");
    assert!(reading.problems[0].range.start > INITIAL.find("8:3P3").unwrap());
    let order = with_segment("/3:RNNR/2:GJG/1:DK/0:V/", "/2:GJG/1:DK/0:V/3:RNNR/");
    let reading = expect_one(&order, Code::P005, Severity::Warning, "3:RNNR");
    assert_eq!(reading.position, Some(Position::initial()));
    expect_one(&with_segment("/8:3P3/", "/8:3P4/"), Code::P006, Severity::Error, "8:3P4");
    expect_one(&with_segment("/8:3P3/", "/8:3P/"), Code::P006, Severity::Error, "8:3P/");
    expect_one(&with_segment("/8:3P3/", "/8:/"), Code::P006, Severity::Error, "8:/");
}

#[test]
fn p007_and_p008_cells() {
    let reading =
        expect_one(&with_segment("/8:3P3/", "/8:3Q3/"), Code::P007, Severity::Error, "8:3Q3");
    assert!(reading.problems[0].message.contains("Q@D"), "{}", reading.problems[0].message);
    // Several unknown characters in one segment make one problem.
    expect_one(&with_segment("/8:3P3/", "/8:3QQ2/"), Code::P007, Severity::Error, "8:3QQ2");
    let empty_line = with_segment("/8:3P3/", "/14:7/8:3P3/");
    expect_one(&empty_line, Code::P008, Severity::Warning, "14:7");
    expect_one(&with_segment("/8:3P3/", "/8:03P3/"), Code::P008, Severity::Warning, "8:03P3");
    let reading =
        expect_one(&with_segment("/8:3P3/", "/8:12P3/"), Code::P008, Severity::Warning, "8:12P3");
    assert_eq!(reading.position, Some(Position::initial()));
    assert!(reading.problems[0].message.contains("(3)"), "{}", reading.problems[0].message);
}

#[test]
fn p009_and_p010_whole_board() {
    let no_black_king = with_segment("/27:dk/", "/27:d1/");
    let reading = parse(&no_black_king, &standard());
    // The castling field also claims Black's King on G27: P013 follows from the same fact.
    let found: Vec<(Code, usize)> =
        reading.problems.iter().map(|p| (p.code, p.range.start)).collect();
    assert_eq!(found[0], (Code::P009, 0));
    expect_one(
        &with_field(2, "RKR-").replace("/27:dk/", "/27:d1/"),
        Code::P009,
        Severity::Error,
        "/28",
    );
    expect_one(
        &with_segment("/27:dk/", "/27:kk/").replace("RKRrkr", "RKR-"),
        Code::P009,
        Severity::Error,
        "/28",
    );
    // An extra Bishop on F10, a white hex like F4: too many Bishops and two on white hexes.
    let extra = with_segment("/8:3P3/", "/10:3J3/8:3P3/");
    let reading = parse(&extra, &standard());
    assert_eq!(
        codes(&extra, &standard()),
        vec![(Code::P010, Severity::Error), (Code::P010, Severity::Error)]
    );
    assert!(reading.problems.iter().all(|problem| problem.range.start == 0));
    assert!(
        reading.problems[1].message.contains("F10, F4")
            || reading.problems[1].message.contains("F4, F10")
    );
    // A second White Queen in place of the pawn on F8.
    expect_one(&with_segment("/8:3P3/", "/8:3D3/"), Code::P010, Severity::Error, "/28");
}

#[test]
fn p011_turn() {
    expect_one(&with_field(1, "W"), Code::P011, Severity::Error, "W ");
}

#[test]
fn p012_p013_p018_castling() {
    expect_one(&with_field(2, "RKRRKR"), Code::P012, Severity::Error, "RKRRKR");
    expect_one(&with_field(2, "KRK"), Code::P012, Severity::Error, "KRK");
    expect_one(&with_field(2, "RKRrk-"), Code::P012, Severity::Error, "RKRrk-");
    let reading = expect_one(&with_field(2, "-"), Code::P018, Severity::Warning, "- -");
    assert_eq!(reading.position.unwrap().castling, [CastlingRights::NONE; 2]);
    let reading = expect_one(&with_field(2, "RKR"), Code::P018, Severity::Warning, "RKR");
    assert_eq!(reading.position.unwrap().castling, [CastlingRights::ALL, CastlingRights::NONE]);
    assert!(reading.problems[0].message.contains("RKR-"), "{}", reading.problems[0].message);
    let reading = expect_one(&with_field(2, "rkr"), Code::P018, Severity::Warning, "rkr");
    assert_eq!(reading.position.unwrap().castling, [CastlingRights::NONE, CastlingRights::ALL]);
    // Both hyphens are accepted, and every canonical part reads.
    for (field, white, black) in [
        ("\u{2010}\u{2010}", CastlingRights::NONE, CastlingRights::NONE),
        (
            "KRrk",
            CastlingRights { queen_rook: false, ..CastlingRights::ALL },
            CastlingRights { king_rook: false, ..CastlingRights::ALL },
        ),
        (
            "K-",
            CastlingRights { queen_rook: false, king_rook: false, king: true },
            CastlingRights::NONE,
        ),
        (
            "-k",
            CastlingRights::NONE,
            CastlingRights { queen_rook: false, king_rook: false, king: true },
        ),
    ] {
        let reading = parse(&with_field(2, field), &standard());
        assert_eq!(reading.problems, vec![], "{field}");
        assert_eq!(reading.position.unwrap().castling, [white, black], "{field}");
    }
    // A King or Rook off its home hex contradicts the claim.
    let moved_rook = with_segment("/3:RNNR/", "/3:RNN1/");
    let reading = expect_one(&moved_rook, Code::P013, Severity::Error, "RKRrkr");
    assert_eq!(
        reading.problems[0].message,
        "castling field RKR claims White's King's Rook but I3 is empty (King's Rook moved: should be RK)"
    );
    let black_king_leaped =
        INITIAL.replace("/27:dk/", "/27:d1/").replace("/22:2pjp2/", "/22:2pjk2/");
    let reading = expect_one(&black_king_leaped, Code::P013, Severity::Error, "RKRrkr");
    assert!(
        reading.problems[0].message.contains("Black's King is unmoved but G27 is empty"),
        "{}",
        reading.problems[0].message
    );
    // Redefined and FAN castling letters.
    let t_at_r = IdentifierSet::from_redefine("T@R").unwrap();
    let text = print(&Position::initial(), &t_at_r);
    assert!(text.contains(" TKTtkt "));
    assert_eq!(parse(&text, &t_at_r).problems, vec![]);
    assert_eq!(
        codes(&text.replace("TKTtkt", "RKRrkr"), &t_at_r),
        vec![(Code::P012, Severity::Error)]
    );
    let fan = IdentifierSet::fan();
    let text = print(&Position::initial(), &fan)
        .replace("\u{2656}\u{2654}\u{2656}\u{265C}\u{265A}\u{265C}", "\u{2654}\u{2656}-");
    let reading = parse(&text, &fan);
    assert_eq!(reading.problems, vec![]);
    assert_eq!(
        reading.position.unwrap().castling,
        [CastlingRights { queen_rook: false, ..CastlingRights::ALL }, CastlingRights::NONE]
    );
}

#[test]
fn the_castling_field_is_checked_even_when_legacy() {
    // `KR` for Black's part but I25 moved, written in the legacy form without White's part.
    let text = with_field(2, "kr").replace("/25:rnnr/", "/25:rnn1/");
    let found = codes(&text, &standard());
    assert_eq!(found, vec![(Code::P018, Severity::Warning), (Code::P013, Severity::Error)]);
}

#[test]
fn p014_p015_p019_special_field() {
    for bad in
        ["G15@", "G15@13-", "@13", "G14", "G15@013", "G15@29", "Q15", "G15@13-1x", "g15@13", "f14"]
    {
        expect_one(&with_field(3, bad), Code::P014, Severity::Error, bad);
    }
    // `G15@13` with White to move and a White pawn on G15.
    let text = with_segment("/20:3p3/8:3P3/7:3PP3/", "/20:3p3/15:4P3/8:3P3/7:3P4/")
        .replace(" - 0 1", " G15@13 0 1");
    let reading = expect_one(&text, Code::P015, Severity::Error, "G15@13");
    assert!(
        reading.problems[0].message.contains("White is to move"),
        "{}",
        reading.problems[0].message
    );
    // The same with Black to move is the double step G11-G15.
    let reading = parse(&text.replace(" w ", " b "), &standard());
    assert_eq!(reading.problems, vec![]);
    assert_eq!(
        reading.position.unwrap().special,
        SpecialCapture::EnPassant { piece: hex("G15"), crossed: vec![hex("G13")] }
    );
    // Wrong crossed line, empty hex, a Knight off the promotion hexes, occupied origin.
    for bad in ["G15@11", "G15@13-15", "G17@15", "E3@1", "G7@3-5"] {
        let text = text.replace(" w ", " b ").replace("G15@13", bad);
        let found = codes(&text, &standard());
        assert_eq!(found, vec![(Code::P015, Severity::Error)], "{bad}");
    }
    // Either order of the crossed lines and either hyphen are accepted on input.
    for written in ["E13@9-11", "E13@11-9", "E13@9\u{2010}11"] {
        let reading = parse(&AFTER_TRIPLE.replace("E13@9-11", written), &standard());
        assert_eq!(reading.problems, vec![], "{written}");
        assert_eq!(print(&reading.position.unwrap(), &standard()), AFTER_TRIPLE);
    }
    // The scornful form: valid after E13-F14, invalid with White to move or without the scorned pawn.
    assert_eq!(parse(AFTER_SCORNFUL, &standard()).problems, vec![]);
    expect_one(&AFTER_SCORNFUL.replace(" b ", " w "), Code::P015, Severity::Error, "F14 0");
    let without_scorner = AFTER_SCORNFUL.replace("/15:3p4/", "/");
    expect_one(&without_scorner, Code::P015, Severity::Error, "F14 0");
    // Legacy forms.
    let reading = expect_one(
        &AFTER_TRIPLE.replace("E13@9-11", "P@E9,11[E13]"),
        Code::P019,
        Severity::Warning,
        "P@E9",
    );
    assert_eq!(print(&reading.position.unwrap(), &standard()), AFTER_TRIPLE);
    assert!(
        reading.problems[0].message.contains("write E13@9-11"),
        "{}",
        reading.problems[0].message
    );
    let reading = expect_one(
        &AFTER_SCORNFUL.replace(" F14 ", " E15@F14 "),
        Code::P019,
        Severity::Warning,
        "E15@F14",
    );
    assert_eq!(print(&reading.position.unwrap(), &standard()), AFTER_SCORNFUL);
    expect_one(
        &AFTER_TRIPLE.replace("E13@9-11", "P@E9,11[E13"),
        Code::P014,
        Severity::Error,
        "P@E9",
    );
}

#[test]
fn a_promoted_piece_may_carry_the_special_field() {
    // White `T18-T22=D`: a double step ending in a promotion gives `T22@20`.
    let text = "/27:1k/22:D6/1:1K/ b -- T22@20 0 30";
    let reading = parse(text, &standard());
    assert_eq!(reading.problems, vec![], "{text}");
    // The same Queen elsewhere than on a promotion hex is not a pawn that just moved.
    let elsewhere = "/27:1k/20:D6/1:1K/ b -- T20@18 0 30";
    assert_eq!(codes(elsewhere, &standard()), vec![(Code::P015, Severity::Error)]);
}

#[test]
fn p016_and_p017_clocks() {
    expect_one(&with_field(4, "x"), Code::P016, Severity::Error, "x 1");
    let reading = expect_one(&with_field(4, "-"), Code::P016, Severity::Warning, "- 1");
    assert_eq!(reading.position.unwrap().halfmove_clock, 0);
    expect_one(&with_field(4, "99999999999"), Code::P016, Severity::Error, "9999");
    let reading = parse(&with_field(5, "0"), &standard());
    assert_eq!(reading.problems[0].range.start, with_field(5, "0").len() - 1);
    let reading = parse(&with_field(5, "-"), &standard());
    assert_eq!(codes(&with_field(5, "-"), &standard()), vec![(Code::P017, Severity::Warning)]);
    assert_eq!(reading.position.unwrap().move_number, None);
    assert_eq!(codes(&with_field(5, "01"), &standard()), vec![(Code::P017, Severity::Error)]);
    assert_eq!(codes(&with_field(5, "x"), &standard()), vec![(Code::P017, Severity::Error)]);
    assert_eq!(parse(&with_field(5, "?"), &standard()).position.unwrap().move_number, None);
}

#[test]
fn every_field_is_reported_when_several_are_wrong() {
    let text = "/28:v/27:dk/29:x/ W RKRRKR G15@ x 0";
    let found: Vec<Code> =
        parse(text, &standard()).problems.iter().map(|problem| problem.code).collect();
    assert_eq!(found, vec![Code::P003, Code::P011, Code::P012, Code::P014, Code::P016, Code::P017]);
}

/// The `[PDTL "…"]` values of the handbook's example files (examples/*.ctl-pgn).
const EXAMPLE_VALUES: [(&str, &str); 5] = [
    (
        "",
        "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b RKrkr - 2 ?",
    ),
    (
        "FAN",
        "/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞♞♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:3♟♟3/20:3♟3/8:3♙3/7:3♙♙3/6:2♙♗♙2/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 0 1",
    ),
    (
        "A@J, C@N, T@R",
        "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1",
    ),
    ("", "/26:2k/22:1P1j3/21:1P6/19:6p1/16:2p1p2/14:4P2/10:1J5/9:2r5/7:3PP3/6:3J3/4:1EKE1/3:RNNR/2:GJG/0:V/ w -- - 0 30"),
    ("", "/27:1k/25:r2r/22:1P5/21:1P6/19:6p1/18:5p1/7:3P4/4:1E3/3:R3/1:1K/0:V/ w RKrkr - 0 40"),
];

#[test]
fn the_example_files_pdtl_values_are_valid_and_canonical() {
    for (redefine, value) in EXAMPLE_VALUES {
        let ids = if redefine.is_empty() {
            IdentifierSet::standard()
        } else {
            IdentifierSet::from_redefine(redefine).unwrap()
        };
        let reading = parse(value, &ids);
        assert_eq!(reading.problems, vec![], "{value}");
        assert_eq!(print(&reading.position.unwrap(), &ids), value);
    }
}

#[test]
fn the_bad_tags_example_gives_p001_and_p013() {
    // bad-05-tags-pdtl.ctl-pgn line 14: the value starts at column 8, the castling field at 144.
    let value = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
    let reading = parse(value, &standard());
    let found: Vec<(Code, Severity, usize)> = reading
        .problems
        .iter()
        .map(|problem| (problem.code, problem.severity, problem.range.start))
        .collect();
    assert_eq!(
        found,
        vec![(Code::P001, Severity::Warning, 0), (Code::P013, Severity::Error, 144 - 8)]
    );
    assert_eq!(reading.problems[0].message, "PDTL has only 5 fields (move number missing)");
    assert_eq!(
        reading.problems[1].message,
        "castling field KR claims White's King's Rook but I3 is empty (King's Rook moved: should be RK)"
    );
    assert!(reading.position.is_none());
}

#[test]
fn the_worked_trace_position_is_read_back() {
    let text = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppe1pp/22:2pjp2/21:4p3/16:3e3/9:4J3/8:3E3/6:2P1P2/5:PPE1PP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 7";
    let reading = parse(text, &standard());
    assert_eq!(reading.problems, vec![]);
    assert_eq!(print(&reading.position.unwrap(), &standard()), text);
}

/// Every PDTL of the reference corpus (`testdata/corpus`): read without problem
/// and printed back identically.
#[test]
fn the_corpus_pdtl_strings_read_and_print_back() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus");
    let mut strings = Vec::new();
    let mut files = 0;
    for folder in ["valid", "incoherent"] {
        let entries = std::fs::read_dir(corpus.join(folder)).unwrap_or_else(|error| {
            panic!("the corpus folder {folder} must exist at {}: {error}", corpus.display())
        });
        for entry in entries {
            let path = entry.expect("a readable directory entry").path();
            if !path.to_string_lossy().ends_with(".expected.json") {
                continue;
            }
            files += 1;
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).expect("a readable sidecar"))
                    .expect("valid JSON");
            for key in ["initial_pdtl", "pdtl_before"] {
                if let Some(text) = json[key].as_str() {
                    strings.push(text.to_string());
                }
            }
            for ply in json["plies"].as_array().into_iter().flatten() {
                strings.push(ply["pdtl"].as_str().expect("every ply has a pdtl").to_string());
            }
        }
    }
    assert!(files >= 80, "expected the 80 corpus sidecars, found {files}");
    assert!(strings.len() > 3000);
    let ids = standard();
    let mut kinds = [0usize; 3];
    for text in &strings {
        let reading = parse(text, &ids);
        assert_eq!(reading.problems, vec![], "{text}");
        let position = reading.position.expect("a usable position");
        kinds[match position.special {
            SpecialCapture::None => 0,
            SpecialCapture::EnPassant { .. } => 1,
            SpecialCapture::Scornful { .. } => 2,
        }] += 1;
        assert_eq!(&print(&position, &ids), text);
    }
    assert!(
        kinds.iter().all(|&count| count > 0),
        "the corpus exercises every special field: {kinds:?}"
    );
}

/// The identifier sets the round trip is tried with.
fn identifier_sets() -> [IdentifierSet; 4] {
    [
        IdentifierSet::standard(),
        IdentifierSet::fan(),
        IdentifierSet::from_redefine("A@J, C@N, T@R").unwrap(),
        IdentifierSet::from_redefine("L@J, S@N, W@V, Q@D").unwrap(),
    ]
}

/// The random choices a position is built from.
#[derive(Clone, Debug)]
struct Recipe {
    kings: [(bool, usize); 2],
    pieces: Vec<(usize, usize, bool)>,
    black_to_move: bool,
    castling_bits: [bool; 6],
    special: (u8, usize, bool),
    halfmove_clock: u32,
    move_number: Option<u32>,
}

fn recipe() -> impl Strategy<Value = Recipe> {
    (
        [(any::<bool>(), 0..169usize), (any::<bool>(), 0..169usize)],
        proptest::collection::vec((0..169usize, 0..8usize, any::<bool>()), 0..80),
        any::<bool>(),
        [any::<bool>(); 6],
        (0..3u8, any::<usize>(), any::<bool>()),
        prop_oneof![0..10u32, any::<u32>()],
        proptest::option::of(1..2000u32),
    )
        .prop_map(
            |(
                kings,
                pieces,
                black_to_move,
                castling_bits,
                special,
                halfmove_clock,
                move_number,
            )| Recipe {
                kings,
                pieces,
                black_to_move,
                castling_bits,
                special,
                halfmove_clock,
                move_number,
            },
        )
}

/// Builds a position that a PDTL can describe: P009/P010 hold, castling rights match the
/// placement and the special field passes the test of §9.5.
fn build(recipe: &Recipe) -> Position {
    let mut position = Position::empty();
    let homes = [hex("G1"), hex("G27")];
    for (side, &(at_home, index)) in [Side::White, Side::Black].into_iter().zip(&recipe.kings) {
        let mut king_hex = if at_home { homes[side.index()] } else { ALL_HEXES[index] };
        if position.get(king_hex).is_some() {
            king_hex = ALL_HEXES[(king_hex.index() + 1) % ALL_HEXES.len()];
        }
        position.set(king_hex, Some(Piece::new(side, PieceKind::King)));
    }
    for &(index, kind, black) in &recipe.pieces {
        let hex = ALL_HEXES[index];
        let kind = PieceKind::ALL[kind];
        let side = if black { Side::Black } else { Side::White };
        let fits = match kind {
            PieceKind::Bishop => position.is_regainable(side, kind, hex.colour()),
            _ => position.count(side, kind) < kind.maximum_per_side(),
        };
        if position.get(hex).is_none() && fits {
            position.set(hex, Some(Piece::new(side, kind)));
        }
    }
    position.turn = if recipe.black_to_move { Side::Black } else { Side::White };
    add_special(&mut position, recipe.special);
    for side in [Side::White, Side::Black] {
        let bits = &recipe.castling_bits[side.index() * 3..side.index() * 3 + 3];
        let home = |name: &str| {
            let hex = hex(name);
            if side == Side::Black {
                Hex::new(hex.column(), 28 - hex.line()).unwrap()
            } else {
                hex
            }
        };
        let king = bits[0] && position.get(home("G1")) == Some(Piece::new(side, PieceKind::King));
        let rook = Some(Piece::new(side, PieceKind::Rook));
        position.castling[side.index()] = CastlingRights {
            king,
            queen_rook: king && bits[1] && position.get(home("C3")) == rook,
            king_rook: king && bits[2] && position.get(home("I3")) == rook,
        };
    }
    position.halfmove_clock = recipe.halfmove_clock;
    position.move_number = recipe.move_number;
    position
}

/// Tries to give the position an en passant (choice 1) or scornful (choice 2) field for a
/// piece of the side that has just moved, clearing the hexes the step needs; keeps `None`
/// when that is impossible.
fn add_special(position: &mut Position, (choice, pick, flag): (u8, usize, bool)) {
    let owner = position.turn.opponent();
    let candidates: Vec<Hex> = position
        .pieces()
        .filter(|(hex, piece)| {
            piece.side == owner && (piece.kind == PieceKind::Pawn || hex.is_promotion_hex(owner))
        })
        .map(|(hex, _)| hex)
        .collect();
    if choice == 0 || candidates.is_empty() {
        return;
    }
    let piece = candidates[pick % candidates.len()];
    let forward = owner.forward();
    let is_king = |position: &Position, hex: Hex| {
        position.get(hex).is_some_and(|p| p.kind == PieceKind::King)
    };
    let mut trial = position.clone();
    if choice == 1 {
        let steps: i16 = if flag { 2 } else { 1 };
        let behind: Option<Vec<Hex>> =
            (1..=steps + 1).map(|i| piece.offset(0, -2 * i * forward)).collect();
        let Some(behind) = behind else { return };
        if behind.iter().any(|&hex| is_king(&trial, hex)) {
            return;
        }
        for &hex in &behind {
            trial.set(hex, None);
        }
        let mut crossed = behind[..behind.len() - 1].to_vec();
        crossed.sort_by_key(|hex| hex.line());
        trial.special = SpecialCapture::EnPassant { piece, crossed };
    } else {
        let delta_column = if flag { 1 } else { -1 };
        let (Some(origin), Some(scorned)) =
            (piece.offset(delta_column, -forward), piece.offset(delta_column, forward))
        else {
            return;
        };
        let scorner = Piece::new(owner.opponent(), PieceKind::Pawn);
        if is_king(&trial, origin) || is_king(&trial, scorned) {
            return;
        }
        trial.set(origin, None);
        if trial.get(scorned) != Some(scorner) {
            if trial.count(scorner.side, PieceKind::Pawn) >= PieceKind::Pawn.maximum_per_side() {
                return;
            }
            trial.set(scorned, Some(scorner));
        }
        trial.special = SpecialCapture::Scornful { piece, scorned: None };
    }
    if special_capture_problem(&trial).is_none() {
        *position = trial;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn printed_positions_read_back_without_problem(recipe in recipe()) {
        let position = build(&recipe);
        prop_assert!(placement::board_is_valid(&position));
        for ids in identifier_sets() {
            let text = print(&position, &ids);
            let reading = parse(&text, &ids);
            prop_assert_eq!(&reading.problems, &vec![], "{}", text);
            prop_assert_eq!(reading.position.as_ref(), Some(&position), "{}", text);
            prop_assert_eq!(print(reading.position.as_ref().unwrap(), &ids), text);
        }
    }

    #[test]
    fn any_text_is_read_without_panic(text in "[/0-9:wbRKrkDdPpJjNnGgVvEe@?\\- \u{2010}\u{265A}\u{2654}\u{1FA50}F]{0,80}") {
        for ids in identifier_sets() {
            let reading = parse(&text, &ids);
            let has_error = reading.problems.iter().any(|problem| problem.severity == Severity::Error);
            prop_assert_eq!(reading.position.is_none(), has_error);
            for problem in &reading.problems {
                prop_assert!(problem.range.end <= text.len());
                prop_assert!(text.is_char_boundary(problem.range.start) && text.is_char_boundary(problem.range.end));
            }
        }
    }
}

#[test]
fn special_fields_survive_the_round_trip_in_each_form() {
    // A fixed recipe per form, so that the round trip covers them whatever the random cases.
    let mut covered = [false; 3];
    for pick in 0..40 {
        for choice in 0..3u8 {
            let recipe = Recipe {
                kings: [(true, 0), (true, 0)],
                pieces: [("C3", false), ("I3", false), ("C25", true), ("I25", true)]
                    .iter()
                    .map(|&(name, black)| (hex(name).index(), 5, black))
                    .chain((0..169).step_by(5).map(|i| (i, i % 8, i % 2 == 0)))
                    .collect(),
                black_to_move: pick % 2 == 0,
                castling_bits: [true; 6],
                special: (choice, pick, pick % 3 == 0),
                halfmove_clock: 3,
                move_number: Some(12),
            };
            let position = build(&recipe);
            assert_eq!(position.castling, [CastlingRights::ALL; 2]);
            covered[match position.special {
                SpecialCapture::None => 0,
                SpecialCapture::EnPassant { .. } => 1,
                SpecialCapture::Scornful { .. } => 2,
            }] = true;
            let text = print(&position, &standard());
            let reading = parse(&text, &standard());
            assert_eq!(reading.problems, vec![], "{text}");
            assert_eq!(reading.position, Some(position));
        }
    }
    assert_eq!(covered, [true; 3]);
}
