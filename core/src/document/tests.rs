//! The document's edits against fresh opens of the same text: records, their texts, findings
//! and trees must not depend on the editing history.

use std::sync::Arc;

use super::cache::{PARSES_KEPT, PARSE_BYTES_KEPT};
use super::record::Parsed;
use super::record::LARGE_RECORD;
use super::{Change, Document, Preparations, Prepare};
use crate::analysis::{analyse_syntax, AnalysisOptions, RuleChecks};
use crate::diagnostics::Diagnostic;
use crate::syntax;
use crate::text::TextRange;
use ctlpgn_test_support::fixtures::knights_out_and_back;

const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n*\n\n";

/// The byte offset of a line and byte column of `text`.
fn at(text: &str, line: usize, column: usize) -> usize {
    text.split_inclusive('\n').take(line).map(str::len).sum::<usize>() + column
}

/// The change of the bytes `from..to` of a line.
/// The tree of a record's parse: a record of a few bytes keeps it.
fn tree_of(parsed: &Parsed) -> &tree_sitter::Tree {
    parsed.tree.as_ref().expect("a record smaller than LARGE_RECORD keeps its tree")
}

fn edit<'a>(text: &str, line: usize, from: usize, to: usize, new: &'a str) -> Change<'a> {
    Change { range: TextRange::new(at(text, line, from), at(text, line, to)), text: new }
}

#[test]
fn unchanged_records_keep_their_analysis() {
    let text = GAME.repeat(3);
    let mut document = Document::new(&text, 1);
    let before: Vec<_> = document.records().iter().map(|record| record.state.clone()).collect();
    // Line 7 is the move line of the second record.
    document.apply(2, [edit(&text, 7, 3, 5, "B4")]);
    let after = document.records();
    assert_eq!(after.len(), 3);
    assert!(Arc::ptr_eq(&before[0], &after[0].state));
    assert!(!Arc::ptr_eq(&before[1], &after[1].state));
    assert!(Arc::ptr_eq(&before[2], &after[2].state));
    assert!(after[1].state.text.contains("B4-K6"));
    assert_eq!(document.version(), 2);
}

#[test]
fn records_that_move_are_found_by_their_text() {
    let other = GAME.replace("K4-K6", "B4-B6");
    let mut document = Document::new(&format!("{GAME}{other}"), 1);
    let second = document.records()[1].state.clone();
    // Deleting the first record moves the second to the front.
    document.apply(2, [Change { range: TextRange::new(0, GAME.len()), text: "" }]);
    assert_eq!(document.records().len(), 1);
    assert!(Arc::ptr_eq(&second, &document.records()[0].state));
}

#[test]
fn changes_apply_in_order_and_a_full_change_replaces_the_text() {
    let mut document = Document::new(GAME, 1);
    document.apply(2, [edit(GAME, 2, 3, 3, "x"), edit(GAME, 2, 3, 4, "")]);
    assert_eq!(document.rope().to_string(), GAME);
    document.apply(3, [Change { range: TextRange::new(0, GAME.len()), text: "" }]);
    assert!(document.records().is_empty());
    assert!(document.at(0).is_none());
}

#[test]
fn a_change_past_the_end_or_inside_a_character_is_clamped() {
    let text = "[Variant \"C'escacs\"]\n\n1. K4×K6\n*\n";
    let mut document = Document::new(text, 1);
    let times = text.find('×').expect("a capture sign");
    document.apply(2, [Change { range: TextRange::new(times + 1, text.len() + 10), text: "" }]);
    assert_eq!(document.rope().to_string(), &text[..times]);
    assert_eq!(summary(&document), summary(&Document::new(&text[..times], 2)));
}

#[test]
fn a_record_is_found_at_an_offset_with_its_parse() {
    let text = GAME.repeat(2);
    let document = Document::new(&text, 1);
    let second = document.at(GAME.len() + 3).expect("the second record");
    assert_eq!(second.index, 1);
    let view = second.view();
    assert_eq!(view.start, GAME.len());
    assert_eq!(view.text, GAME);
    assert_eq!(view.in_record(GAME.len() + 3), Some(3));
    let same = document.view(second.record);
    assert_eq!(same.index, 1);
    assert!(Arc::ptr_eq(&same.parsed, &second.parsed), "the parse is kept, not redone");
    assert_eq!(document.at(text.len()).map(|found| found.index), Some(1));
    assert!(document.at(text.len() + 1).is_none());
}

#[test]
fn an_incremental_parse_gives_the_fresh_tree() {
    let mut parser = syntax::new_parser();
    let old = Parsed::new(GAME, None, RuleChecks::Judge);
    for new in [
        GAME.replace("K4-K6", "K4×K6…"),
        GAME.replace("E21", "🩐"),
        GAME.replace("1. ", ""),
        format!("{GAME}2. A5-A7"),
    ] {
        let edited = Parsed::new(&new, Some((GAME, &old)), RuleChecks::Judge);
        let fresh = syntax::parse(&mut parser, &new);
        assert_eq!(tree_of(&edited).root_node().to_sexp(), fresh.root_node().to_sexp(), "{new}");
        assert_eq!(
            edited.analysis.diagnostics,
            analyse_syntax(&new, &syntax::lower_record(&fresh, &new), AnalysisOptions::default())
                .diagnostics
        );
    }
}

#[test]
fn deleting_the_number_of_a_draw_offer_line_gives_what_a_fresh_open_gives() {
    // Found by fuzzing: `2. (=)` with its `2` deleted parsed incrementally as a variation
    // `(=)` (S001 at the `)`) but afresh as stray tokens (S001 and M006).
    for text in [
        "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. (=)\n*\n",
        "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. (=), E19-E17\n*\n",
    ] {
        let mut document = Document::new(text, 1);
        document.parsed(&document.records()[0].clone());
        document.apply(2, [edit(text, 3, 0, 1, "")]);
        let edited = document.rope().to_string();
        assert_eq!(edited, text.replace("\n2. (=)", "\n. (=)"));
        let fresh = Document::new(&edited, 2);
        assert_eq!(document.records()[0].state.diagnostics, fresh.records()[0].state.diagnostics);
        let record = document.records()[0].clone();
        assert_eq!(
            tree_of(&document.parsed(&record)).root_node().to_sexp(),
            syntax::parse(&mut syntax::new_parser(), &edited).root_node().to_sexp()
        );
    }
}

#[test]
fn inserting_a_byte_order_mark_then_a_quote_at_the_start_gives_what_a_fresh_open_gives() {
    // Found by fuzzing: after a byte-order mark inserted at the start, the first record
    // starts after the mark; a `"` inserted before the mark makes the first line
    // `"\u{FEFF}[Variant …`, which opens no record, but the re-split kept the old record
    // after the mark as a record of its own.
    let text = GAME.repeat(2);
    let mut document = Document::new(&text, 1);
    document.apply(2, [Change { range: TextRange::empty(0), text: "\u{FEFF}" }]);
    document.apply(3, [Change { range: TextRange::empty(0), text: "\"" }]);
    let edited = document.rope().to_string();
    assert_eq!(edited, format!("\"\u{FEFF}{text}"));
    let fresh = Document::new(&edited, 3);
    assert_eq!(fresh.records().len(), 2);
    assert_eq!(summary(&document), summary(&fresh));
}

#[test]
fn parses_are_cached_for_the_records_asked_about_and_the_record_being_edited() {
    let text = GAME.repeat(3);
    let mut document = Document::new(&text, 1);
    let first = document.records()[0].clone();
    let parsed = document.parsed(&first);
    assert!(Arc::ptr_eq(&parsed, &document.parsed(&first)), "asked twice, parsed once");
    document.apply(2, [edit(&text, 7, 3, 5, "B4")]);
    let edited = document.records()[1].clone();
    assert!(document.parses.get(&edited.state).is_some(), "the edited record keeps its parse");
    assert_eq!(document.parsed(&edited).analysis.diagnostics, edited.state.diagnostics);
    for extra in 0..PARSES_KEPT + 5 {
        let more =
            format!("{text}{}", GAME.replace("K4-K6", &format!("K4-K{}", 6 + 2 * (extra % 3))));
        document = Document::new(&more, 1);
        for record in document.records().to_vec() {
            document.parsed(&record);
        }
    }
    assert!(document.parses.len() <= PARSES_KEPT);
}

#[test]
fn a_snapshot_for_one_record_carries_its_parse_and_gives_back_what_it_parsed() {
    let text = GAME.repeat(3);
    let mut document = Document::new(&text, 1);
    let (first, second) = (document.records()[0].clone(), document.records()[1].clone());
    let kept = document.parsed(&first);
    // The parse kept is carried: a request on the snapshot parses nothing again.
    let snapshot = document.snapshot_at(first.range.start + 3);
    assert!(Arc::ptr_eq(&snapshot.at(first.range.start + 3).expect("a record").parsed, &kept));
    // What the snapshot parsed comes back to the document.
    let parsed_there = snapshot.at(second.range.start).expect("a record").parsed;
    document.keep_parses_of(&snapshot);
    assert!(document.parses.get(&second.state).is_some_and(|got| Arc::ptr_eq(&got, &parsed_there)));
    // A parse of a record edited meanwhile does not.
    let snapshot = document.snapshot_at(second.range.start);
    document.apply(2, [edit(&text, 7, 3, 5, "B4")]);
    let stale = snapshot.at(second.range.start).expect("a record").parsed;
    document.keep_parses_of(&snapshot);
    assert!(document.parses.get(&second.state).is_none(), "the edited record's old parse");
    assert!(document.parses.entries().iter().all(|(_, parsed)| !Arc::ptr_eq(parsed, &stale)));
}

/// Pieces of text that edits insert: nothing (a pure deletion, such as the one that turned
/// `2. (=)` into `. (=)`), record starts and pieces of them (a line opens a record by its
/// first bytes), move lines, annotations and draw offers, comments, non-ASCII characters,
/// line breaks of every kind, a byte-order mark.
const PIECES: [&str; 24] = [
    "",
    "",
    "2. (=)\n",
    "(=)",
    "[Variant \"C'escacs\"]\n",
    "\n",
    "\r\n",
    "\r",
    "2. JF6-B18, EE23-D20:",
    "×",
    "…",
    "🩐",
    "{ ~F6 }",
    "(",
    ")",
    "*\n",
    "E",
    "[",
    "[Variant",
    "_",
    " \t",
    "\u{FEFF}",
    "\"",
    "\n[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n",
];

/// A record with draw offers, one of them on a line of its own (S001, M006): edits around it
/// exercise error recovery, where incremental and fresh parses may differ.
const DRAW_OFFERS: &str =
    "[Variant \"C'escacs\"]\n\n1. K4-K6 (=), E21-E19\n2. (=)\n3. JF6-B18 !(=):\n*\n";

/// The change `(at, removed, piece)` against `text`: where it starts, how many characters it
/// removes, what it inserts, as indices into the text's character boundaries and `PIECES`.
fn change_of(text: &str, (at, removed, piece): (usize, usize, usize)) -> Change<'static> {
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let start = at % boundaries.len();
    let end = (start + removed).min(boundaries.len() - 1);
    Change { range: TextRange::new(boundaries[start], boundaries[end]), text: PIECES[piece] }
}

/// What a document's records are, to compare with a fresh document's.
fn summary(document: &Document) -> Vec<(TextRange, String, Vec<Diagnostic>)> {
    let records = document.records().iter();
    records
        .map(|record| (record.range, record.state.text.clone(), record.state.diagnostics.clone()))
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// However a document is edited, one change or a batch at a time, its records, texts and
    /// findings are the ones a fresh document of the same text has: re-splitting only around
    /// the edit and reusing unchanged records never keeps a stale one. Batches applied to the
    /// text alone and brought to the records later, together (as the server does for a large
    /// record while the user types), give the same.
    #[test]
    fn an_edited_document_equals_a_fresh_one(
        batches in proptest::collection::vec((proptest::collection::vec((0usize..10_000, 0usize..12, 0usize..PIECES.len()), 1..4), proptest::bool::weighted(0.7)), 1..16)
    ) {
        let mut document = Document::new(&format!("{}{DRAW_OFFERS}", GAME.repeat(3)), 1);
        let last = batches.len() - 1;
        for (index, (batch, settle)) in batches.into_iter().enumerate() {
            // Each change refers to the text the previous one left, as in an editor's batch.
            let mut editor_side = document.rope().to_string();
            let mut changes = Vec::new();
            for change in batch {
                let change = change_of(&editor_side, change);
                editor_side.replace_range(change.range.to_range(), change.text);
                changes.push(change);
            }
            document.edit(index as i32 + 2, changes);
            proptest::prop_assert_eq!(document.rope().to_string(), editor_side);
            if !settle && index < last {
                continue;
            }
            document.settle();
            let fresh = Document::new(&document.rope().to_string(), 0);
            proptest::prop_assert_eq!(summary(&document), summary(&fresh));
            for record in document.records() {
                let parsed = document.parsed(record);
                let fresh_parse = syntax::parse(&mut syntax::new_parser(), &record.state.text);
                proptest::prop_assert_eq!(tree_of(&parsed).root_node().to_sexp(), fresh_parse.root_node().to_sexp());
            }
            // No parse is kept for a record the document no longer holds.
            let held = |state| document.records().iter().any(|record| Arc::ptr_eq(&record.state, state));
            proptest::prop_assert!(document.parses.states().iter().all(held));
        }
    }
}

/// Editing a large record again and again, and asking about it after each edit as an editor
/// does, keeps one parse of it: none of an older text, and none over the cache's byte bound
/// unless it is the only one. Its parse has no tree, and its findings are a fresh open's.
#[test]
fn a_large_record_edited_again_and_again_keeps_one_parse_within_the_bound() {
    for one_line in [true, false] {
        let text = format!("{GAME}{}", knights_out_and_back(3_500, one_line));
        let mut document = Document::new(&text, 1);
        let large = document.records()[1].clone();
        assert!(large.state.text.len() > LARGE_RECORD, "{}", large.state.text.len());
        // In the middle of the moves: a space in, then out again.
        let middle = text.len() - large.state.text.len() / 2;
        let middle = (middle..).find(|&at| text.as_bytes()[at] == b' ').expect("a space");
        for round in 0..30 {
            let change = if round % 2 == 0 {
                Change { range: TextRange::new(middle, middle), text: " " }
            } else {
                Change { range: TextRange::new(middle, middle + 1), text: "" }
            };
            document.apply(round + 2, [change]);
            let large = document.records()[1].clone();
            let parsed = document.parsed(&large);
            assert!(parsed.tree.is_none());
            document.parsed(&document.records()[0].clone());
            assert_eq!(document.parses.len(), 2, "round {round}: the two records' parses");
            let states = document.parses.states();
            assert!(states.iter().any(|state| Arc::ptr_eq(state, &large.state)), "{round}");
            assert!(document.parses.bytes() <= PARSE_BYTES_KEPT);
        }
        let fresh = Document::new(&document.rope().to_string(), 0);
        assert_eq!(summary(&document), summary(&fresh));
    }
}

/// Small records edited one after the other keep at most `PARSES_KEPT` parses, and none of a
/// text the document no longer holds.
#[test]
fn edited_records_leave_no_parse_of_their_old_text() {
    let text = GAME.repeat(PARSES_KEPT * 2);
    let mut document = Document::new(&text, 1);
    for round in 0..PARSES_KEPT * 2 {
        let record = document.records()[round].clone();
        let at = record.range.start + record.state.text.find("K6").expect("a move");
        document
            .apply(round as i32 + 2, [Change { range: TextRange::new(at, at + 2), text: "K8" }]);
        assert!(document.parses.len() <= PARSES_KEPT);
        let held =
            |state| document.records().iter().any(|record| Arc::ptr_eq(&record.state, state));
        assert!(document.parses.states().iter().all(held), "round {round}");
    }
}

#[test]
fn derived_values_are_computed_once_per_record_text() {
    let text = GAME.repeat(3);
    let mut document = Document::new(&text, 1);
    let derive = |record: &super::Record, syntax: &syntax::RecordSyntax| {
        (record.state.text.len(), syntax.items.len())
    };
    let first = document.map_derived(derive);
    let again = document.map_derived(derive);
    assert!(first.iter().zip(&again).all(|(one, two)| Arc::ptr_eq(one, two)));
    document.apply(2, [edit(&text, 7, 3, 5, "B44")]);
    let after = document.map_derived(derive);
    assert!(Arc::ptr_eq(&first[0], &after[0]));
    assert!(!Arc::ptr_eq(&first[1], &after[1]), "the edited record derives anew");
    assert_eq!(after[1].0, GAME.len() + 1);
    assert!(Arc::ptr_eq(&first[2], &after[2]));
}

/// A document opened with many records reads them with the hand-written reader and keeps only
/// their findings; each record's parse, asked for later through tree-sitter, finds the same.
#[test]
fn records_read_in_bulk_have_the_findings_of_their_parse() {
    let records = [
        GAME,
        "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. K6×E19, G9-G9+\n",
        "[Variant \"C'escacs\"]\n{ unclosed\n1. E7-E13\n\n",
        "[Variant \"C'escacs\"]\n1. E7 -E13 × ((\n\n",
        "[Variant \"C'escacs\"]\n[Event \"é ‐ …\"]\n1. ♘E3-F5, X24-Z23 ◇\n(1. E7-E13\n\n",
    ];
    let text: String = records.iter().cycle().take(PARSES_KEPT + 8).copied().collect();
    let document = Document::new(&text, 1);
    assert_eq!(document.records().len(), PARSES_KEPT + 8);
    assert!(document.parses.len() == 0, "no parse is kept when a file opens");
    for record in document.records() {
        let parsed = document.parsed(record);
        assert_eq!(parsed.analysis.diagnostics, record.state.diagnostics, "{}", record.state.text);
        assert_eq!(parsed.analysis.rule_warnings, record.state.rule_warnings);
    }
    let broken = document.records().iter().filter(|record| !record.state.diagnostics.is_empty());
    assert!(broken.count() >= 4, "the comparison covers records with findings");
}

/// What the test's preparation keeps: the number of items of the record's syntax.
struct Prepared(usize);

fn count_items(state: &super::RecordState, syntax: &syntax::RecordSyntax) {
    state.derived.keep(Prepared(syntax.items.len()));
}

fn fail_to_prepare(_: &super::RecordState, _: &syntax::RecordSyntax) {
    panic!("a preparation that fails");
}

/// Records read in bulk are prepared from the syntax the reader read them into; the records it
/// declines, and a record edited on its own (parsed, its tree kept), derive what they are
/// asked for when asked. A preparation that panics leaves the records as they would be without.
#[test]
fn records_read_in_bulk_are_prepared_where_the_reader_reads_them() {
    let records = [GAME, "[Variant \"C'escacs\"]\n{ unclosed\n1. E7-E13\n\n"];
    let text: String = records.iter().cycle().take(PARSES_KEPT + 8).copied().collect();
    let mut document =
        Document::read(&text, 1, RuleChecks::Judge, Preparations::from([count_items as Prepare]));
    let mut declined = 0;
    for record in document.records() {
        let read = syntax::read_record(&record.state.text);
        declined += usize::from(read.is_none());
        let prepared = record.state.derived.get::<Prepared>();
        assert_eq!(prepared.map(|prepared| prepared.0), read.map(|read| read.items.len()));
    }
    assert!(declined > 0 && declined < document.records().len());
    document.apply(2, [edit(&text, 2, 3, 5, "K5")]);
    assert!(document.records()[0].state.derived.get::<Prepared>().is_none());
    assert!(document.records()[2].state.derived.get::<Prepared>().is_some());

    let failing = Document::read(
        &text,
        1,
        RuleChecks::Judge,
        Preparations::from([fail_to_prepare as Prepare]),
    );
    assert_eq!(summary(&failing), summary(&Document::new(&text, 1)));
}

/// Random bytes read as UTF-8 (invalid sequences become U+FFFD), `length` bytes or a few more,
/// with no line that starts a record: one record the hand-written reader declines.
fn random_record(seed: u64, length: usize) -> String {
    let mut state = seed | 1;
    let mut bytes = Vec::with_capacity(length);
    while bytes.len() < length {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        bytes.extend_from_slice(&state.to_le_bytes());
    }
    String::from_utf8_lossy(&bytes).replace("[Variant", "[Varian")
}

#[test]
fn a_record_of_random_bytes_on_either_side_of_the_large_record_bound_is_parsed_on_request() {
    // Over LARGE_RECORD, the parse of a record the reader declines was made inside the
    // thread's parser's borrow, and the reader's fallback asked for the parser again: a
    // panic ("already borrowed") on every request about the record.
    for length in [LARGE_RECORD - 64, LARGE_RECORD + 1, 2 * LARGE_RECORD] {
        let text = random_record(length as u64, length);
        assert!(syntax::read_record(&text).is_none(), "the reader declines random bytes");
        let document = Document::new(&text, 1);
        assert_eq!(document.records().len(), 1);
        for offset in [0, text.len() / 2, text.len()] {
            let offset = (0..=offset).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
            let open = document.at(offset).expect("the record holds every offset");
            assert_eq!(open.parsed.tree.is_some(), text.len() <= LARGE_RECORD);
            let view = open.view();
            let _ = crate::ide::hover::hover(view, offset, Default::default());
            let _ = crate::ide::board::board(view, offset, Default::default());
        }
    }
}
