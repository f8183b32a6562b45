//! Unit tests of the conversions on small records written for them: exact outputs of each
//! conversion, the positions at places of a record, continuations, and the refusals.

use super::*;
use crate::analysis::{analyse_syntax, pdtl_after_ply, pdtl_at, pdtl_problem, AnalysisOptions};
use crate::diagnostics::Severity;
use crate::pdtl;
use crate::syntax::{self, RecordSyntax};

fn parsed(text: &str) -> (RecordSyntax, RecordAnalysis) {
    let record = syntax::parse_record(text);
    let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
    (record, analysis)
}

fn reletter(text: &str, target: &LetterTarget) -> Result<String, ConversionError> {
    let (record, analysis) = parsed(text);
    reletter_record(text, &record, &analysis, target)
}

fn minimal(text: &str) -> Result<String, ConversionError> {
    let (record, analysis) = parsed(text);
    minimal_record(text, &record, &analysis)
}

/// The PDTL at the first occurrence of `needle` in `text`, plus `shift` bytes.
fn pdtl_at_needle(text: &str, needle: &str, shift: usize) -> Option<String> {
    let (record, analysis) = parsed(text);
    pdtl_at(text, &record, &analysis, text.find(needle).expect("the needle is in the text") + shift)
}

/// The PDTL after the replayed half-move written as `needle` (its first occurrence).
fn pdtl_after(text: &str, needle: &str) -> String {
    let (_, analysis) = parsed(text);
    let start = text.find(needle).expect("the needle is in the text");
    let played = analysis.played_at(start).expect("the half-move replayed");
    pdtl::print(&played.after, &analysis.identifiers)
}

/// A record in standard letters with every place an identifier can stand: moves (moving,
/// captured and promotion pieces are covered by the corpus tests), castling, comments with
/// `~` references, a variation, a rating.
const LETTERS: &str = "[Variant \"C'escacs\"]
[Id \"Demo-T01\"]
[Annotator \"Demo\"]
[Result \"*\"]
{ Bishops ~J[d] and ~j, the Knight ~nG25, the hex ~F14. }
1. H6-H10, H22-H18
2. EH4-H8, EH24-H20
3. KRK-HH ?!, KRK-HH
{ @W: ~K goes to H6 and ~R to H4 }
(3. JF6-C15, NG25-I21)
4. JF6-C15, NG25-I21:
*
";

const FAN: &str = "[Variant \"C'escacs\"]
[Id \"Demo-T01\"]
[Annotator \"Demo\"]
[Result \"*\"]
[Redefine \"FAN\"]
{ Bishops ~\u{2657}[d] and ~\u{265D}, the Knight ~\u{265E}G25, the hex ~F14. }
1. H6-H10, H22-H18
2. \u{2616}H4-H8, \u{2616}H24-H20
3. KRK-HH ?!, KRK-HH
{ @W: ~\u{2654} goes to H6 and ~\u{2656} to H4 }
(3. \u{2657}F6-C15, \u{2658}G25-I21)
4. \u{2657}F6-C15, \u{2658}G25-I21:
*
";

const MINIMAL: &str = "[Variant \"C'escacs\"]
[Id \"Demo-T01\"]
[Annotator \"Demo\"]
[Result \"*\"]

1. H6-H10, H22-H18
2. EH4-H8, EH24-H20
3. KRK-HH, KRK-HH
4. JF6-C15, NG25-I21:
*
";

/// The opening of the handbook's example 05, with `T@R` and a PDTL in redefined letters.
const REDEFINED: &str = "[Variant \"C'escacs\"]
[Id \"Demo-T05\"]
[Annotator \"Demo\"]
[Result \"*\"]
[Redefine \"A@J, C@N, T@R\"]
[PDTL \"/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt - 0 1\"]
1. H6-H10, H22-H18
2. EH4-H8, EH24-H20
3. KTK-HH, KTK-HH ! (=)
{ @W: ~A[d] stays, ~T goes to H4 }
4. AF6-C15, CG25-I21 ?!(=):
*
";

#[test]
fn letters_become_figurines_and_back_byte_for_byte() {
    assert_eq!(reletter(LETTERS, &LetterTarget::Fan).as_deref(), Ok(FAN));
    assert_eq!(reletter(FAN, &LetterTarget::Standard).as_deref(), Ok(LETTERS));
    // A record already in its target is left as it is.
    assert_eq!(reletter(LETTERS, &LetterTarget::Standard).as_deref(), Ok(LETTERS));
    assert_eq!(reletter(FAN, &LetterTarget::Fan).as_deref(), Ok(FAN));
}

#[test]
fn alternative_letters_rewrite_moves_castling_pdtl_and_references() {
    let standard = reletter(REDEFINED, &LetterTarget::Standard).expect("converts");
    let expected = REDEFINED
        .replace("[Redefine \"A@J, C@N, T@R\"]\n", "")
        .replace(
            "/28:v/27:dk/26:gag/25:tcct/24:peaep/23:ppeepp/22:2pap2",
            "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2",
        )
        .replace(
            "6:2PAP2/5:PPEEPP/4:PEAEP/3:TCCT/2:GAG/1:DK/0:V/ w TKTtkt",
            "6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr",
        )
        .replace("KTK-HH", "KRK-HH")
        .replace("~A[d] stays, ~T", "~J[d] stays, ~R")
        .replace("AF6-C15, CG25-I21", "JF6-C15, NG25-I21");
    assert_eq!(standard, expected);
    let target = LetterTarget::redefine("B@J, Q@D, W@V").expect("a valid preset");
    let preset = reletter(REDEFINED, &target).expect("converts");
    assert!(
        preset.contains("[Redefine \"B@J, Q@D, W@V\"]\n[PDTL \"/28:w/27:qk/26:gbg/25:rnnr/"),
        "{preset}"
    );
    assert!(preset.contains("3. KRK-HH, KRK-HH ! (=)\n{ @W: ~B[d] stays, ~R goes"), "{preset}");
    assert!(preset.contains("4. BF6-C15, NG25-I21 ?!(=):"), "{preset}");
    // Back to the original preset, the original text.
    let original = LetterTarget::redefine("A@J, C@N, T@R").expect("a valid preset");
    assert_eq!(reletter(&preset, &original).as_deref(), Ok(REDEFINED));
    assert_eq!(LetterTarget::redefine("FAN"), Ok(LetterTarget::Fan));
    assert!(LetterTarget::redefine("H@E")
        .unwrap_err()
        .to_string()
        .contains("H is never an identifier"));
}

#[test]
fn minimal_keeps_the_main_line_in_standard_letters() {
    assert_eq!(minimal(LETTERS).as_deref(), Ok(MINIMAL));
    assert_eq!(minimal(FAN).as_deref(), Ok(MINIMAL));
    let from_redefined = minimal(REDEFINED).expect("converts");
    assert_eq!(
        from_redefined,
        "[Variant \"C'escacs\"]\n[Id \"Demo-T05\"]\n[Annotator \"Demo\"]\n[Result \"*\"]\n\
         [PDTL \"/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1\"]\n\n\
         1. H6-H10, H22-H18\n2. EH4-H8, EH24-H20\n3. KRK-HH, KRK-HH\n4. JF6-C15, NG25-I21:\n*\n"
    );
}

#[test]
fn minimal_respells_what_a_minimum_reader_need_not_know() {
    // An en dash as separator (S006), the legacy check suffix ^+ (S010) and the legacy tag
    // name TLPD (T005) are warnings; a minimum reader knows -, +^ and PDTL.
    let text = "[Variant \"C'escacs\"]\r\n[TLPD \"/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1\"]\r\n\
                1. E7\u{2013}E13, E21-E15^+ !(=):\r\n1-1\r\n";
    let converted = minimal(text).expect("converts");
    assert!(converted.starts_with("[Variant \"C'escacs\"]\r\n[PDTL \"/28:v/"), "{converted}");
    assert!(converted.ends_with(" 0 1\"]\r\n\r\n1. E7-E13, E21-E15+^:\r\n1-1\r\n"), "{converted}");
}

#[test]
fn a_record_that_does_not_replay_is_refused() {
    let text = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. E9-E11:\n*\n";
    let start = text.find("E9-E11").expect("the bad move");
    for result in [reletter(text, &LetterTarget::Fan), minimal(text)] {
        match result {
            Err(ConversionError::DoesNotReplay(diagnostic)) => {
                assert_eq!(diagnostic.code.as_str(), "K001");
                assert_eq!(diagnostic.range.start, start);
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    let (record, analysis) = parsed(text);
    assert_eq!(continuation_at(text, &record, &analysis, start), None);
    assert_eq!(pdtl_at(text, &record, &analysis, text.len()), None);
    assert!(pdtl_at(text, &record, &analysis, start - 1).is_some());
}

/// A record from a PDTL giving Black the move, whose first move line has no White half-move,
/// with a variation replacing Black's half-move: `variation` is its text.
fn black_first(variation: &str) -> String {
    format!("[Variant \"C'escacs\"]\n[Id \"Demo-T02\"]\n[Annotator \"Demo\"]\n[Redefine \"T@R\"]\n[PDTL \"/27:1k/21:3p4/20:3p3/4:4P/1:1K/ b -- - 0 5\"]\n\n5. …, E21-E19\n({variation})\n6. K4-K6:\n*\n")
}

#[test]
fn a_variation_of_black_s_half_move_of_a_line_without_white_s_is_converted_and_continued() {
    // Black moving White's pawn: the conversions are refused, as for any half-move that does
    // not replay.
    let wrong = black_first("5. …, K4-K6");
    let start = wrong.find("K4-K6)").expect("the variation's half-move");
    for result in [reletter(&wrong, &LetterTarget::Standard), minimal(&wrong)] {
        match result {
            Err(ConversionError::DoesNotReplay(diagnostic)) => {
                assert_eq!((diagnostic.code.as_str(), diagnostic.range.start), ("K002", start));
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
    // A legal one is relettered, checked to replay alike, and continued from.
    let right = black_first("5. …, F20-F18");
    assert!(reletter(&right, &LetterTarget::Standard).is_ok());
    let (record, analysis) = parsed(&right);
    let at = right.find("F20-F18").expect("the variation's half-move");
    let continuation = continuation_at(&right, &record, &analysis, at).expect("a position");
    // The continuation's first move is to be written on the blank line before its result.
    assert!(continuation.ends_with("/18:3p3/4:4P/1:1K/ w -- - 0 6\"]\n\n*\n"), "{continuation}");
}

#[test]
fn a_reference_that_would_change_kind_is_refused() {
    // `~♙` followed by a digit is a piece reference; `~P5` would be the hex P5.
    let text =
        "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n{ the pawn ~\u{2659}5 }\n1. E7-E13:\n*\n";
    match reletter(text, &LetterTarget::Standard) {
        Err(ConversionError::NotLossless { range, message }) => {
            assert_eq!(&text[range], "~\u{2659}");
            assert!(message.contains("read differently"), "{message}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn the_pdtl_at_a_place_follows_its_line_of_play() {
    let initial = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";
    assert_eq!(pdtl_at_needle(LETTERS, "[Id", 2).as_deref(), Some(initial));
    assert_eq!(pdtl_at_needle(LETTERS, "{ Bishops", 3).as_deref(), Some(initial));
    assert_eq!(pdtl_at_needle(LETTERS, "1. H6", 0).as_deref(), Some(initial));
    // On a half-move, from its first character to its end: the position after it.
    let after_first = pdtl_after(LETTERS, "H6-H10");
    assert_eq!(pdtl_at_needle(LETTERS, "H6-H10", 0), Some(after_first.clone()));
    assert_eq!(pdtl_at_needle(LETTERS, "H6-H10", 6), Some(after_first.clone()));
    assert_eq!(pdtl_at_needle(LETTERS, ", H22", 0), Some(after_first));
    // In a variation: from where the half-move it replaces stood, then along it; before its
    // `(`, still the main line.
    let after_castling = pdtl_after(LETTERS, "KRK-HH\n");
    let before_third = pdtl_after(LETTERS, "EH24-H20");
    assert_eq!(pdtl_at_needle(LETTERS, "(3. J", 0), Some(after_castling.clone()));
    assert_eq!(pdtl_at_needle(LETTERS, "(3. J", 1), Some(before_third.clone()));
    assert_eq!(pdtl_at_needle(LETTERS, "(3. J", 3), Some(before_third));
    let variation_bishop = LETTERS.find("(3. JF6").expect("the variation") + 4;
    let (_, analysis) = parsed(LETTERS);
    let played = analysis.played_at(variation_bishop).expect("replayed");
    assert_eq!(played.depth, 1);
    assert_eq!(
        pdtl_at_needle(LETTERS, "(3. JF6", 6),
        Some(pdtl::print(&played.after, &analysis.identifiers))
    );
    // After the variation's `)`, the main line again.
    assert_eq!(pdtl_at_needle(LETTERS, "I21)", 4), Some(after_castling.clone()));
    assert_eq!(pdtl_at_needle(LETTERS, "{ @W", 3), Some(after_castling));
    // After the last move, its position.
    let (_, analysis) = parsed(LETTERS);
    assert_eq!(pdtl_at_needle(LETTERS, "*\n", 1), pdtl_after_ply(&analysis, 8));
    assert_eq!(pdtl_after_ply(&analysis, 0).as_deref(), Some(initial));
    assert_eq!(pdtl_after_ply(&analysis, 9), None);
    // The PDTL speaks the record's identifiers.
    assert!(
        pdtl_at_needle(FAN, "\u{2616}H4", 0).is_some_and(|pdtl| pdtl.starts_with("/28:\u{1FA52}/"))
    );
}

#[test]
fn a_continuation_starts_from_the_position_at_the_cursor() {
    let (record, analysis) = parsed(LETTERS);
    let white_castling = LETTERS.find("KRK-HH ?!").expect("White's castling");
    let continuation =
        continuation_at(LETTERS, &record, &analysis, white_castling).expect("a position");
    let pdtl = pdtl_after(LETTERS, "KRK-HH ?!");
    // No move yet, and the result line of a game in progress: the record checks clean as it
    // is, and its first move line (`3. …, ` by the PDTL's turn and number) goes on the blank
    // line.
    assert_eq!(
        continuation,
        format!("[Variant \"C'escacs\"]\n[Id \"Demo-T01\"]\n[Annotator \"Demo\"]\n[Result \"*\"]\n[PDTL \"{pdtl}\"]\n\n*\n")
    );
    let fields: Vec<&str> = pdtl.split(' ').collect();
    assert_eq!((fields[1], fields[5]), ("b", "3"), "{pdtl}");
    let at_start = continuation_at(LETTERS, &record, &analysis, 0).expect("the start");
    assert!(at_start.ends_with(" w RKRrkr - 0 1\"]\n\n*\n"), "{at_start}");
    // The continuation of a continuation whose move numbers are unknown keeps them unknown.
    let unknown = "[Variant \"C'escacs\"]\n[Event \"CG\"]\n[Result \"3-0\"]\n[Termination \"abandoned\"]\n[Redefine \"T@R\"]\n\
                   [PDTL \"/28:v/27:dk/26:gjg/25:tnnt/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:TNNT/2:GJG/1:DK/0:V/ b TKTtkt - 0 ?\"]\n\
                   1? \u{2026}, E21-E15:\n3-0\n";
    let (record, analysis) = parsed(unknown);
    let continuation =
        continuation_at(unknown, &record, &analysis, unknown.find("3-0\n").expect("the result"))
            .expect("a position");
    assert!(continuation.starts_with("[Variant \"C'escacs\"]\n[Event \"CG\"]\n[Result \"*\"]\n[Redefine \"T@R\"]\n[PDTL \"/28:v/"), "{continuation}");
    assert!(continuation.ends_with(" w TKTtkt E15@17-19 0 ?\"]\n\n*\n"), "{continuation}");
}

/// The valid records of the handbook's examples and the repository's example, embedded: the
/// core does no IO, not even in its tests.
const EXAMPLES: [&str; 7] = [
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/examples/01-registered-game.ctl-pgn"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/examples/02-quick-mate-variations.ctl-pgn"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/examples/03-pdtl-continuation.ctl-pgn"
    )),
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/examples/04-fan.ctl-pgn")),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/examples/05-redefine-letters.ctl-pgn"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/examples/06-promotion-scornful.ctl-pgn"
    )),
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/opening.ctl-pgn")),
];

/// A record we write checks clean: the continuation from before and after every half-move of
/// every line of play of the examples, and from their starts and ends, is one record without
/// any diagnostic (no move line begun and left without its move, S011; no result line
/// missing, M006), and it starts from the position at that place.
#[test]
fn the_continuation_of_every_place_of_the_examples_checks_clean() {
    let mut continuations = 0;
    for (number, text) in EXAMPLES.iter().enumerate() {
        for record in parse_records(text) {
            let record_text = record.text(text);
            let (syntax, analysis) = (&record.syntax, &record.analysis);
            let places = analysis.played.iter().flat_map(|played| {
                [played.range.start, played.range.end, played.range.end.saturating_sub(1)]
            });
            for offset in places.chain([0, record_text.len()]) {
                let Some(continuation) = continuation_at(record_text, syntax, analysis, offset)
                else {
                    continue;
                };
                continuations += 1;
                let analysed =
                    crate::analysis::analyse_file(&continuation, AnalysisOptions::default());
                let [only] = analysed.as_slice() else {
                    panic!("example {number}, offset {offset}: not one record:\n{continuation}");
                };
                let codes: Vec<&str> =
                    only.analysis.diagnostics.iter().map(|d| d.code.as_str()).collect();
                assert!(
                    codes.is_empty(),
                    "example {number}, offset {offset}: {codes:?}\n{continuation}"
                );
                let start = only
                    .analysis
                    .start
                    .as_ref()
                    .map(|p| pdtl::print(p, &only.analysis.identifiers));
                assert_eq!(
                    start,
                    pdtl_at(record_text, syntax, analysis, offset),
                    "example {number}, offset {offset}"
                );
            }
        }
    }
    assert!(continuations > 300, "only {continuations} continuations were made");
}

/// The layouts of [`REDEFINED`] whose tags share lines, or whose lines end in `\r\n`, or whose
/// last line has no line end: the conversions must treat them as the one-tag-per-line text.
fn tag_layouts() -> Vec<String> {
    let tags_on_one_line = REDEFINED
        .replace("[Redefine \"A@J, C@N, T@R\"]\n[PDTL", "[Redefine \"A@J, C@N, T@R\"] [PDTL");
    let all_tags_on_one_line = REDEFINED.replace("\"]\n[", "\"] [");
    let pdtl_first = REDEFINED.replace("[Result \"*\"]\n", "").replace(
        "[Redefine \"A@J, C@N, T@R\"]\n[PDTL \"",
        "[Result \"*\"]\t[Redefine \"A@J, C@N, T@R\"]  [PDTL \"",
    );
    let mut layouts = vec![
        tags_on_one_line.clone(),
        all_tags_on_one_line.clone(),
        pdtl_first,
        tags_on_one_line.replace('\n', "\r\n"),
    ];
    let without_final_line_end: Vec<String> =
        layouts.iter().map(|text| text.trim_end().to_string()).collect();
    layouts.extend(without_final_line_end);
    layouts
}

/// Whether `text` analyses without an error diagnostic.
fn has_no_error(text: &str) -> bool {
    parsed(text).1.diagnostics.iter().all(|diagnostic| diagnostic.severity != Severity::Error)
}

#[test]
fn conversions_of_tags_sharing_a_line_keep_the_other_tags() {
    let preset = LetterTarget::redefine("B@J, Q@D, W@V").expect("a valid preset");
    let original = LetterTarget::redefine("A@J, C@N, T@R").expect("a valid preset");
    for text in tag_layouts() {
        assert!(has_no_error(&text), "{text}");
        let letters = reletter(&text, &LetterTarget::Standard).expect("converts");
        assert!(!letters.contains("Redefine") && has_no_error(&letters), "{letters}");
        assert!(letters.contains("[PDTL \"/28:v/27:dk/26:gjg/25:rnnr/"), "{letters}");
        assert!(letters.contains("[Result \"*\"]"), "{letters}");
        // Letters → FAN → letters and letters → preset → letters give the letters back.
        for target in [&LetterTarget::Fan, &preset, &original] {
            let converted = reletter(&letters, target).expect("converts");
            assert!(has_no_error(&converted), "{converted}");
            assert_eq!(reletter(&converted, &LetterTarget::Standard).as_deref(), Ok(&*letters));
            // And straight from the redefined record.
            let direct = reletter(&text, target).expect("converts");
            assert!(has_no_error(&direct), "{direct}");
        }
        assert_eq!(reletter(&text, &original).as_deref(), Ok(&*text));
        let minimal = minimal(&text).expect("converts");
        assert!(has_no_error(&minimal) && !minimal.contains("Redefine"), "{minimal}");
        let (record, analysis) = parsed(&text);
        for (offset, _) in text.char_indices() {
            if let Some(continuation) = continuation_at(&text, &record, &analysis, offset) {
                assert!(continuation.contains("[Redefine \"A@J, C@N, T@R\"]"), "{continuation}");
                assert!(has_no_error(&continuation), "{continuation}");
            }
        }
    }
}

#[test]
fn invalid_references_stay_as_written_in_a_round_trip() {
    // ~x (N011), ~J[w] and ~N[d] (N012), ~KE8 and ~E8 (N010) name nothing: no conversion
    // touches them, and every round trip gives the record back byte for byte.
    let letters = LETTERS
        .replace("the hex ~F14. }", "the hex ~F14, and ~x, ~J[w], ~N[d], ~KE8, ~E8, ~jE9. }");
    let (_, analysis) = parsed(&letters);
    let codes: Vec<&str> = analysis.diagnostics.iter().map(|d| d.code.as_str()).collect();
    for code in ["N010", "N011", "N012"] {
        assert!(codes.contains(&code), "{codes:?}");
    }
    let fan = reletter(&letters, &LetterTarget::Fan).expect("converts");
    assert!(
        fan.contains("~x, ~J[w], ~N[d], ~KE8, ~E8, ~\u{265D}E9. }"),
        "only the valid ~jE9 changes: {fan}"
    );
    assert_eq!(reletter(&fan, &LetterTarget::Standard).as_deref(), Ok(&*letters));
    let preset = LetterTarget::redefine("B@J, Q@D, W@V").expect("a valid preset");
    let redefined = reletter(&letters, &preset).expect("converts");
    assert!(redefined.contains("~x, ~J[w], ~N[d], ~KE8, ~E8, ~bE9. }"), "{redefined}");
    assert_eq!(reletter(&redefined, &LetterTarget::Standard).as_deref(), Ok(&*letters));
}

#[test]
fn an_invalid_reference_that_the_target_would_read_as_a_piece_is_refused() {
    // `~♔` names nothing in letters (N011) but the King in FAN; `~w` nothing in the standard
    // letters but a Wyvern after W@V. Left as written they would change meaning, and the
    // way back would rewrite them: the conversion is refused instead.
    let preset = LetterTarget::redefine("B@J, Q@D, W@V").expect("a valid preset");
    for (reference, target) in [("~\u{2654}", LetterTarget::Fan), ("~w", preset)] {
        let text = LETTERS.replace("the hex ~F14.", &format!("the hex ~F14, {reference}."));
        match reletter(&text, &target) {
            Err(ConversionError::NotLossless { range, message }) => {
                assert_eq!(&text[range], reference);
                assert!(message.contains("not valid in this record"), "{message}");
            }
            other => panic!("expected a refusal for {reference}, got {other:?}"),
        }
    }
}

#[test]
fn no_pdtl_is_given_for_a_position_no_pdtl_may_hold() {
    // R009: the Bishop steps orthogonally from F6 to F8, a hex of the colour of F2, where
    // White's other Bishop stands; a minimum reader replays it, but no PDTL holds two White
    // Bishops on one hex colour (P010).
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-R09\"]\n[Annotator \"Demo\"]\n[Result \"*\"]\n\
                1. F8-F10, F20-F18\n2. JF6-F8, E21-E15:\n*\n";
    let (record, analysis) = parsed(text);
    assert!(has_no_error(text));
    let bishop = text.find("JF6-F8").expect("the Bishop's move");
    let played = analysis.played_at(bishop).expect("replayed");
    let problem = pdtl_problem(&played.after, &analysis.identifiers).expect("a problem");
    assert_eq!(problem.code, crate::diagnostics::Code::P010);
    assert!(
        problem.to_string().starts_with(
            "no PDTL: the position is not one a PDTL may hold (P010: White has 2 Bishops"
        ),
        "{problem}"
    );
    assert!(problem.sentence().starts_with("No PDTL: the position"), "{}", problem.sentence());
    assert_eq!(pdtl_at(text, &record, &analysis, bishop), None);
    assert_eq!(pdtl_after_ply(&analysis, 3), None);
    assert_eq!(continuation_at(text, &record, &analysis, bishop), None);
    // Before it, every place has its PDTL; after it, none does.
    assert!(pdtl_after_ply(&analysis, 2).is_some());
    assert!(continuation_at(text, &record, &analysis, bishop - 1).is_some());
    assert_eq!(pdtl_at(text, &record, &analysis, text.len()), None);
}
