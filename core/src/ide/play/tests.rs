//! Playing on records written for it: each placement (appended for White and for Black,
//! before the result, inside a variation, at the record's start, the half-move already there,
//! an existing variation, a new variation at each depth), each kind of half-move (promotion,
//! the 24 castlings, en passant, the King's leap) and each way of writing identifiers
//! (letters, FAN, `Redefine`), the variations of Black's half-move of a move line without
//! White's. Every edit is checked: the document it makes has no error, and the position at
//! the range answered is the one played. Then what is refused, and not offered: a move that is
//! not legal (quoted cut), a place without a position, an edit that would trade an error for
//! another, a position no PDTL may hold.

use super::*;
use crate::analysis::{analyse_syntax, AnalysisOptions};
use crate::conversion::parse_records;
use crate::diagnostics::Severity;
use crate::document::Document;
use crate::geometry::parse_coordinate;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::pieces::{Piece, PieceKind};
use crate::position::CastlingRights;
use crate::syntax;
use crate::text::apply_edits;
use ctlpgn_test_support::cursor::Marked;

/// The tags of a record from the initial position.
const TAGS: &str = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n";

/// The document `fixture` without its cursor mark `$0`, and the mark's offset.
fn cursor(fixture: &str) -> (String, usize) {
    let marked = Marked::cursor(fixture);
    let offset = marked.offset();
    (marked.text, offset)
}

/// Plays `text` at the `$0` of `fixture` with `options`: the document after the edits, the
/// played half-move in brackets. The document must have no error, and stand after the
/// half-move in the position it was played to.
fn play_with(fixture: &str, text: &str, options: &FormatOptions) -> String {
    let (document_text, offset) = cursor(fixture);
    let document = Document::new(&document_text, 1);
    let open = document.at(offset).expect("the cursor is in a record");
    let view = open.view();
    let before = analysis::position_at(view.text, view.syntax, view.analysis, offset - view.start)
        .expect("a position at the cursor")
        .clone();
    let played =
        play(view, offset, text, options).unwrap_or_else(|refusal| panic!("{text}: {refusal}"));
    let after = apply_edits(&document_text, &played.edits);
    assert_eq!(&after[view.start..view.start + played.record.len()], played.record);
    assert_accepted(&after);
    let expected = legal_moves(&before)
        .into_iter()
        .find(|legal| {
            let ids = &view.analysis.identifiers;
            [Spelling::KEYBOARD, Spelling::UNICODE, Spelling::ASCII]
                .into_iter()
                .any(|spelling| legal.text(ids, spelling) == text)
        })
        .expect("a legal half-move")
        .applied
        .position;
    let records = parse_records(&after);
    let record = records
        .iter()
        .find(|record| record.range.contains_range(played.range))
        .expect("the range is in a record");
    let inside = played.range.start - record.range.start;
    let at = analysis::position_at(record.text(&after), &record.syntax, &record.analysis, inside);
    assert_eq!(at, Ok(&expected), "the position at the half-move played");
    let range = played.range;
    format!("{}[{}]{}", &after[..range.start], &after[range], &after[range.end..])
}

fn play_at(fixture: &str, text: &str) -> String {
    play_with(fixture, text, &FormatOptions::default())
}

/// Every record of `text` is one that `check` accepts: no error.
fn assert_accepted(text: &str) {
    for record in parse_records(text) {
        let errors: Vec<_> = record
            .analysis
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
            .map(|diagnostic| (diagnostic.code, diagnostic.message.clone()))
            .collect();
        assert!(errors.is_empty(), "{errors:?} in\n{}", record.text(text));
    }
}

/// The record of `tags` with no half-move, `*` for its result, the cursor in its tags.
fn at_start(tags: &str) -> String {
    format!("{}*\n", tags.replacen("[Variant", "[Variant$0", 1))
}

/// The half-moves offered `shift` bytes after the `$0` of `fixture`.
fn moves_at(fixture: &str, shift: isize) -> Result<Vec<PlayableMove>, NoPosition> {
    let (text, offset) = cursor(fixture);
    let offset = offset.checked_add_signed(shift).expect("a place in the text");
    let document = Document::new(&text, 1);
    let open = document.at(offset).expect("the cursor is in a record");
    playable_moves(open.view(), offset, &FormatOptions::default())
}

/// The refusal of playing `text` at the `$0` of `fixture`.
fn refused(fixture: &str, text: &str) -> Refusal {
    let (document_text, offset) = cursor(fixture);
    let document = Document::new(&document_text, 1);
    let open = document.at(offset).expect("the cursor is in a record");
    play(open.view(), offset, text, &FormatOptions::default()).expect_err("a refusal")
}

/// A record starting from a position of `side` to move with `pieces` (`KG1 RI3 rC25`:
/// upper case White), each side's castling rights as given, in `ids`' identifiers.
fn from_position(
    side: Side,
    pieces: &str,
    rights: [CastlingRights; 2],
    ids: &IdentifierSet,
    tags: &str,
) -> String {
    let mut position = Position::empty();
    position.turn = side;
    position.castling = rights;
    position.move_number = Some(12);
    for item in pieces.split_whitespace() {
        let letter = item.chars().next().expect("a piece letter");
        let kind = PieceKind::from_standard_letter(letter.to_ascii_uppercase()).expect("a letter");
        let owner = if letter.is_ascii_uppercase() { Side::White } else { Side::Black };
        let hex = parse_coordinate(&item[1..]).expect("a hex");
        position.set(hex, Some(Piece::new(owner, kind)));
    }
    let pdtl = pdtl::print(&position, ids);
    format!("[Variant \"C'escacs\"]\n{tags}[PDTL \"{pdtl}\"]\n[Result \"*\"]\n\n")
}

// ---- placements -----------------------------------------------------------------------------

#[test]
fn a_white_half_move_starts_a_new_move_line_before_the_result() {
    let fixture = format!("{TAGS}1. K4-K6, E21-E19:$0\n*\n");
    assert_eq!(play_at(&fixture, "E7-E9"), format!("{TAGS}1. K4-K6, E21-E19\n2. [E7-E9]:\n*\n"));
}

#[test]
fn a_black_half_move_goes_after_white_s_on_its_move_line() {
    let fixture = format!("{TAGS}1. K4-K6:$0\n*\n");
    assert_eq!(play_at(&fixture, "E21-E19"), format!("{TAGS}1. K4-K6, [E21-E19]:\n*\n"));
    // The end mark leaves White's annotations where they are.
    let annotated = format!("{TAGS}1. K4-K6 ?!(=):$0\n*\n");
    assert_eq!(play_at(&annotated, "E21-E19"), format!("{TAGS}1. K4-K6 ?!(=), [E21-E19]:\n*\n"));
    let spaced = format!("{TAGS}1. K4-K6 :$0\n*\n");
    assert_eq!(play_at(&spaced, "E21-E19"), format!("{TAGS}1. K4-K6, [E21-E19]:\n*\n"));
}

#[test]
fn the_end_mark_moves_to_the_new_last_half_move_past_comments_and_variations() {
    let fixture = format!(
        "{TAGS}1. K4-K6, E21-E19 !:$0\n(1. …, E21-E17)\n{{ a comment }}\n*\n\n{{ after }}\n"
    );
    assert_eq!(
        play_at(&fixture, "E7-E9"),
        format!(
            "{TAGS}1. K4-K6, E21-E19 !\n(1. …, E21-E17)\n{{ a comment }}\n2. [E7-E9]:\n*\n\n{{ after }}\n"
        )
    );
    // A result on the line of the last move goes to a line of its own after the new one.
    let same_line = format!("{TAGS}1. K4-K6:$0 *\n");
    assert_eq!(play_at(&same_line, "E21-E19"), format!("{TAGS}1. K4-K6, [E21-E19]: *\n"));
    let black_last = format!("{TAGS}1. K4-K6, E21-E19:$0 *\n");
    assert_eq!(play_at(&black_last, "E7-E9"), format!("{TAGS}1. K4-K6, E21-E19\n2. [E7-E9]:\n*\n"));
}

#[test]
fn inside_a_variation_the_half_move_goes_before_its_close() {
    let game = format!("{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17$0)\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&game, "E7-E9"),
        format!("{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.2. [E7-E9])\n2. E7-E9:\n*\n")
    );
    let white_last = format!("{TAGS}1. K4-K6, E21-E19\n(1. E7-E9$0)\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&white_last, "E21-E17"),
        format!("{TAGS}1. K4-K6, E21-E19\n(1. E7-E9, [E21-E17])\n2. E7-E9:\n*\n")
    );
    // A `)` alone on its line after a comment comes back to the new last half-move.
    let commented =
        format!("{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.{{ why }}$0\n)\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&commented, "E7-E9"),
        format!(
            "{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.{{ why }}\n.2. [E7-E9])\n2. E7-E9:\n*\n"
        )
    );
}

#[test]
fn at_the_record_s_start_the_first_move_line_is_written() {
    let empty = "[Variant \"C'escacs\"]\n[Result$0 \"*\"]\n\n*\n";
    assert_eq!(
        play_at(empty, "K4-K6"),
        "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. [K4-K6]:\n*\n".to_string()
    );
    // The blank line after the tags is written when it is missing.
    let tight = "[Variant \"C'escacs\"]\n[Result$0 \"*\"]\n*\n";
    assert_eq!(
        play_at(tight, "K4-K6"),
        "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. [K4-K6]:\n*\n".to_string()
    );
    // Black to move in the PDTL: `N. …, Y`, N its move number.
    let ids = IdentifierSet::standard();
    let tags = from_position(Side::Black, "KG1 PE7 kG27 pE21", [CastlingRights::NONE; 2], &ids, "");
    let black = format!("{}*\n", tags.replacen("[Result", "[Result$0", 1));
    assert_eq!(play_at(&black, "E21-E19"), format!("{tags}12. …, [E21-E19]:\n*\n"));
}

#[test]
fn with_an_unknown_move_number_the_first_move_line_is_numbered_1_question_mark() {
    let ids = IdentifierSet::standard();
    let tags = from_position(Side::Black, "KG1 PE7 kG27 pE21", [CastlingRights::NONE; 2], &ids, "")
        .replace(" 0 12\"]", " 0 ?\"]");
    let fixture = at_start(&tags);
    assert_eq!(play_at(&fixture, "E21-E19"), format!("{tags}1? …, [E21-E19]:\n*\n"));
}

#[test]
fn the_half_move_already_there_is_not_written_again() {
    let game = format!("{TAGS}1. K4-K6$0, E21-E19\n(1. …, E21-E17)\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&game, "E21-E19"),
        format!("{TAGS}1. K4-K6, [E21-E19]\n(1. …, E21-E17)\n2. E7-E9:\n*\n")
    );
    // The first half-move of a variation that replaces the next one.
    assert_eq!(
        play_at(&game, "E21-E17"),
        format!("{TAGS}1. K4-K6, E21-E19\n(1. …, [E21-E17])\n2. E7-E9:\n*\n")
    );
    // In the tags: the first half-move.
    let in_tags = game.replace("$0", "").replacen("[Result", "[Result$0", 1);
    assert_eq!(
        play_at(&in_tags, "K4-K6"),
        format!("{TAGS}1. [K4-K6], E21-E19\n(1. …, E21-E17)\n2. E7-E9:\n*\n")
    );
}

#[test]
fn another_half_move_makes_a_variation_after_what_is_attached_to_its_move_line() {
    let game = format!("{TAGS}1. K4-K6$0, E21-E19\n(1. …, E21-E17)\n{{ note }}\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&game, "F20-F18"),
        format!("{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17)\n{{ note }}\n([F20-F18]\n2. E7-E9:\n*\n")
            .replace("([F20-F18]", "(1. …, [F20-F18])")
    );
    // White's first half-move replaced: from the start of the record.
    let start = format!("{TAGS}1. K4-K6, E21-E19:\n*\n").replacen("[Result", "[Result$0", 1);
    assert_eq!(play_at(&start, "E7-E9"), format!("{TAGS}1. K4-K6, E21-E19:\n(1. [E7-E9])\n*\n"));
}

#[test]
fn a_new_variation_nests_at_every_depth() {
    // Depth 2: a variation inside the variation of Black's first move.
    let depth_one =
        format!("{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.2. E7-E9$0, F20-F18)\n2. E7-E9:\n*\n");
    assert_eq!(
        play_at(&depth_one, "F20-F16"),
        format!(
            "{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.2. E7-E9, F20-F18\n.(2. …, [F20-F16])\n)\n2. E7-E9:\n*\n"
        )
    );
    // Depth 3, before a later move line of the depth-2 variation.
    let depth_two = format!(
        "{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.2. E7-E9, F20-F18\n.(2. …, F20-F16\n..3. F8-F10$0, F16-F14\n..4. F10-F12)\n)\n2. E7-E9:\n*\n"
    );
    assert_eq!(
        play_at(&depth_two, "E17-E15"),
        format!(
            "{TAGS}1. K4-K6, E21-E19\n(1. …, E21-E17\n.2. E7-E9, F20-F18\n.(2. …, F20-F16\n..3. F8-F10, F16-F14\n..(3. …, [E17-E15])\n..4. F10-F12)\n)\n2. E7-E9:\n*\n"
        )
    );
}

#[test]
fn a_checkmate_at_the_end_of_the_main_line_makes_the_result_the_winner_s() {
    // The position before the mate that ends the corpus game g0012.
    let pdtl = "/27:vk/26:rj1/25:3r/23:2n3/22:6p/21:2e2p2/19:3p4/18:4pp1/17:1pPP1e2/16:1Pp2J1/14:5Pg/13:5P2/12:3p3/11:4E1P1/10:2pE3/8:2P1p2/7:1P1R4/6:5j1/4:1Ej2/3:R1N1/2:GJK/0:V/ b -kr - 0 55";
    let tags = |result: &str| {
        format!("[Variant \"C'escacs\"]\n[PDTL \"{pdtl}\"]\n[Result \"{result}\"]\n\n")
    };
    let fixture = at_start(&tags("*"));
    assert_eq!(
        play_at(&fixture, "GX14\u{D7}L11#"),
        format!("{}55. \u{2026}, [GX14\u{D7}L11#]\n0-3\n", tags("0-3"))
    );
}

// ---- kinds of half-move ---------------------------------------------------------------------

#[test]
fn every_castling_is_written_from_its_token() {
    let ids = IdentifierSet::standard();
    let rights = [CastlingRights::ALL, CastlingRights::NONE];
    let tags = from_position(Side::White, "KG1 RC3 RI3 kG27", rights, &ids, "");
    let fixture = at_start(&tags);
    let moves = moves_at(&fixture, 0).expect("moves");
    let castlings: Vec<&PlayableMove> =
        moves.iter().filter(|playable| playable.text.starts_with("KR")).collect();
    assert_eq!(castlings.len(), 24, "{castlings:?}");
    for castling in castlings {
        assert_eq!(castling.from.to_string(), "G1", "the King's hex");
        assert_eq!(
            play_at(&fixture, &castling.text),
            format!("{tags}12. [{}]:\n*\n", castling.text)
        );
    }
}

#[test]
fn promotions_share_their_hexes_and_are_spelled_out() {
    let ids = IdentifierSet::standard();
    let tags = from_position(Side::White, "KG1 PA21 kG27", [CastlingRights::NONE; 2], &ids, "");
    let fixture = at_start(&tags);
    let moves = moves_at(&fixture, 0).expect("moves");
    let mut promotions: Vec<&str> = moves
        .iter()
        .filter(|playable| playable.from.to_string() == "A21" && playable.to.to_string() == "A23")
        .map(|playable| playable.text.as_str())
        .collect();
    promotions.sort_unstable();
    assert!(promotions.len() > 1, "{promotions:?}");
    assert!(promotions.iter().all(|text| text.starts_with("A21-A23=")), "{promotions:?}");
    let queen = promotions.iter().find(|text| text.starts_with("A21-A23=D")).expect("a Queen");
    assert_eq!(play_at(&fixture, queen), format!("{tags}12. [{queen}]:\n*\n"));
}

#[test]
fn en_passant_and_the_king_s_leap_are_played() {
    let ids = IdentifierSet::standard();
    let rights =
        [CastlingRights { king: true, queen_rook: false, king_rook: false }, CastlingRights::NONE];
    let tags = from_position(Side::White, "KG1 PG7 kG27 pH12", rights, &ids, "");
    // White's triple step, then Black takes en passant two column steps back.
    let fixture = format!("{tags}12. G7-G13:$0\n*\n");
    assert_eq!(play_at(&fixture, "H12@@G9"), format!("{tags}12. G7-G13, [H12@@G9]:\n*\n"));
    let start = at_start(&tags);
    assert_eq!(play_at(&start, "KG1-H6"), format!("{tags}12. [KG1-H6]:\n*\n"));
}

#[test]
fn a_fan_record_is_played_in_figurines() {
    let fan = IdentifierSet::from_redefine("FAN").expect("FAN");
    let tags = from_position(
        Side::White,
        "KG1 NE3 kG27",
        [CastlingRights::NONE; 2],
        &fan,
        "[Redefine \"FAN\"]\n",
    );
    let fixture = at_start(&tags);
    assert_eq!(play_at(&fixture, "\u{2658}E3-F8"), format!("{tags}12. [\u{2658}E3-F8]:\n*\n"));
}

#[test]
fn a_redefined_record_is_played_in_its_letters() {
    let ids = IdentifierSet::from_redefine("T@R").expect("T@R");
    let rights = [CastlingRights::ALL, CastlingRights::NONE];
    let tags = from_position(Side::White, "KG1 RC3 RI3 kG27", rights, &ids, "[Redefine \"T@R\"]\n");
    let fixture = at_start(&tags);
    assert_eq!(play_at(&fixture, "KTK-II"), format!("{tags}12. [KTK-II]:\n*\n"));
    assert_eq!(play_at(&fixture, "TI3-I9"), format!("{tags}12. [TI3-I9]:\n*\n"));
}

#[test]
fn the_record_s_separators_and_ellipsis_are_kept() {
    let game = format!(
        "{TAGS}1. K4\u{2010}K6$0, E21\u{2010}E19\n(1. ..., E21\u{2010}E17)\n2. E7\u{2010}E9:\n*\n"
    );
    assert_eq!(
        play_at(&game, "F20-F18"),
        format!(
            "{TAGS}1. K4\u{2010}K6, E21\u{2010}E19\n(1. ..., E21\u{2010}E17)\n(1. ..., [F20\u{2010}F18])\n2. E7\u{2010}E9:\n*\n"
        )
    );
    // A record that writes none follows the settings.
    let plain = "[Variant \"C'escacs\"]\n[Result$0 \"*\"]\n\n*\n";
    let unicode = FormatOptions {
        separators: crate::format::Separators::Unicode,
        ..FormatOptions::default()
    };
    assert_eq!(
        play_with(plain, "K4-K6", &unicode),
        "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. [K4\u{2010}K6]:\n*\n".to_string()
    );
}

#[test]
fn line_ends_and_other_records_are_kept() {
    let first = format!("{TAGS}1. K4-K6:\n*\n\n").replace('\n', "\r\n");
    let second = format!("{TAGS}1. K4-K6, E21-E19:$0\r\n*\r\n")
        .replace("\n\n1.", "\r\n\r\n1.")
        .replace("\"]\n", "\"]\r\n");
    let fixture = format!("{first}{second}");
    let played = play_at(&fixture, "E7-E9");
    assert!(played.starts_with(&first), "{played:?}");
    assert!(played.ends_with("1. K4-K6, E21-E19\r\n2. [E7-E9]:\r\n*\r\n"), "{played:?}");
}

// ---- refusals -------------------------------------------------------------------------------

#[test]
fn an_illegal_half_move_is_refused() {
    let fixture = format!("{TAGS}1. K4-K6:$0\n*\n");
    assert_eq!(
        refused(&fixture, "E21-E13"),
        Refusal::NotLegal { text: "E21-E13".into(), side: Side::Black }
    );
    assert_eq!(
        refused(&fixture, "E7-E9").to_string(),
        "`E7-E9` is not a half-move Black may play here"
    );
}

#[test]
fn a_place_without_an_exact_position_is_refused() {
    // The Knight on E21 is not there: nothing is known after it.
    let fixture = format!("{TAGS}1. K4-K6, NE21-E17:$0\n*\n");
    assert!(matches!(refused(&fixture, "E7-E9"), Refusal::NoPosition(NoPosition::Unknown)));
}

#[test]
fn the_moves_offered_are_absent_where_no_position_is_known() {
    let fixture = format!("{TAGS}1. K4-K6, NE21-E17:$0\n*\n");
    assert_eq!(moves_at(&fixture, 0), Err(NoPosition::Unknown));
    let moves = moves_at(&fixture, -11).expect("moves after K4-K6");
    assert!(moves.iter().any(|playable| playable.text == "E21-E19"));
}

#[test]
fn a_refusal_quotes_a_long_move_cut() {
    let fixture = format!("{TAGS}1. K4-K6:$0\n*\n");
    // A megabyte of move, its 40th character a two-byte one.
    let long = format!("{}\u{D7}{}", "E".repeat(39), "K".repeat(1 << 20));
    let refusal = refused(&fixture, &long);
    let quoted = format!("{}\u{D7}\u{2026}", "E".repeat(39));
    assert_eq!(refusal, Refusal::NotLegal { text: quoted.clone(), side: Side::Black });
    assert_eq!(refusal.to_string(), format!("`{quoted}` is not a half-move Black may play here"));
    // Up to 40 characters, the whole text.
    let forty = "E".repeat(40);
    assert_eq!(refused(&fixture, &forty), Refusal::NotLegal { text: forty, side: Side::Black });
}

// ---- a variation replacing Black's half-move of a line without White's -------------------

/// A record from a PDTL giving Black the move, the move number unknown (`1?`) or 5.
fn black_to_move(number: &str) -> String {
    let ids = IdentifierSet::standard();
    let tags =
        from_position(Side::Black, "KG1 PK4 kG27 pE21 pF20", [CastlingRights::NONE; 2], &ids, "");
    match number {
        "1?" => tags.replace(" 0 12\"]", " 0 ?\"]"),
        _ => tags.replace(" 0 12\"]", &format!(" 0 {number}\"]")),
    }
}

#[test]
fn a_variation_of_black_s_first_half_move_is_played_from_before_it() {
    for (number, written, repeated, next) in [("1?", "1?", "1.", "2."), ("5", "5.", "5.", "6.")] {
        let tags = black_to_move(number);
        let game = format!("{tags}{written} …, E21-E19\n{next} K4-K6:\n*\n");
        // In the tags every Black half-move is offered, and each is played: the one written
        // there already, any other as a variation `(N. …, Y)` replayed from the start.
        let start = game.replacen("[Result", "[Result$0", 1);
        let offered = moves_at(&start, 0).expect("moves at the start");
        assert!(offered.iter().any(|playable| playable.text == "F20-F18"), "{offered:?}");
        assert_eq!(
            play_at(&start, "F20-F18"),
            format!("{tags}{written} …, E21-E19\n({repeated} …, [F20-F18])\n{next} K4-K6:\n*\n")
        );
        assert_eq!(
            play_at(&start, "E21-E19"),
            format!("{tags}{written} …, [E21-E19]\n{next} K4-K6:\n*\n")
        );
        // Inside such a variation the line goes on from the position it stands in.
        let inside =
            format!("{tags}{written} …, E21-E19\n({repeated} …, F20-F18$0)\n{next} K4-K6:\n*\n");
        assert_eq!(
            play_at(&inside, "K4-K6"),
            format!(
                "{tags}{written} …, E21-E19\n({repeated} …, F20-F18\n.{next} [K4-K6])\n{next} K4-K6:\n*\n"
            )
        );
    }
}

// ---- plays that would trade one error for another -------------------------------------------

#[test]
fn a_half_move_that_would_turn_one_error_into_another_is_neither_offered_nor_played() {
    // N002: text after a comment's `}`. A variation of White's first half-move goes after the
    // comment, and would put `indeed` on a line of its own: N002 would become S001, as many
    // errors as before, but not the same.
    let fixture = "[Variant \"C'escacs\"]\n[Id$0 \"Demo-X01\"]\n[Annotator \"Demo\"]\n\n1. E7-E13, E21-E15\n{ @B: good } indeed\n2. F8-F12:\n*\n";
    let refusal = refused(fixture, "K4-K6");
    assert!(matches!(&refusal, Refusal::Unplaceable(why) if why.contains("S001")), "{refusal:?}");
    let offered = moves_at(fixture, 0).expect("moves at the start");
    let texts: Vec<&str> = offered.iter().map(|playable| playable.text.as_str()).collect();
    // The half-move written there already is all that is left.
    assert_eq!(texts, ["E7-E13"]);
}

#[test]
fn where_nothing_can_be_written_nothing_is_offered() {
    // M010: after White's lone half-move, Black's would go in a variation of White's next
    // one, which does not replay.
    let fixture = format!("{TAGS}1. E7-E13$0\n2. F8-F12:\n*\n");
    assert_eq!(moves_at(&fixture, 0), Ok(Vec::new()));
    assert!(matches!(refused(&fixture, "E21-E15"), Refusal::Unplaceable(_)));
}

#[test]
fn the_errors_about_the_end_of_the_main_line_move_to_the_half_move_played() {
    // No result line (M006): it is said of the last half-move, and then of the one played.
    let fixture = format!("{TAGS}1. K4-K6:$0\n");
    let (text, offset) = cursor(&fixture);
    let document = Document::new(&text, 1);
    let open = document.at(offset).expect("a record");
    let played = play(open.view(), offset, "E21-E19", &FormatOptions::default()).expect("played");
    assert_eq!(played.record, format!("{TAGS}1. K4-K6, E21-E19:\n"));
    let record = syntax::parse_record(&played.record);
    let analysis = analyse_syntax(&played.record, &record, AnalysisOptions::default());
    let codes: Vec<_> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| (d.code, &played.record[d.range]))
        .collect();
    assert_eq!(codes, [(crate::diagnostics::Code::M006, "E21-E19")]);
}

#[test]
fn a_half_move_to_a_position_no_pdtl_may_hold_is_neither_offered_nor_played() {
    // Black's King left en prise: taking it leaves Black without one (P009).
    let ids = IdentifierSet::standard();
    let tags = from_position(Side::White, "KG1 RC3 kC25", [CastlingRights::NONE; 2], &ids, "");
    let fixture = at_start(&tags);
    let offered = moves_at(&fixture, 0).expect("moves");
    assert!(offered.iter().any(|playable| playable.text == "RC3-C5+\u{221E}"), "{offered:?}");
    assert!(!offered.iter().any(|playable| playable.to.to_string() == "C25"), "{offered:?}");
    let refusal = refused(&fixture, "RC3\u{D7}KC25");
    assert!(matches!(&refusal, Refusal::Unplaceable(why) if why.contains("P009")), "{refusal:?}");
}
