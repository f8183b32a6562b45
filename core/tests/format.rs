//! The formatter (issue 6): fixtures for each layout rule, and its guarantees checked on every
//! corpus and handbook example file and on generated records: lossless (the formatted file
//! lowers to the same records), idempotent, broken records untouched, range formatting limited
//! to the records touched, minimal edits that rebuild the formatted text (`ctlpgn fmt` itself:
//! server/tests/fmt.rs).

use std::ops::Range;
use std::path::PathBuf;

use ctlpgn_core::analysis::{analyse_file, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::diagnostics::Code;
use ctlpgn_core::format::{
    equivalence, format_edits, format_text, touched_lines, EllipsisStyle, FormatOptions, Separators,
};
use ctlpgn_core::text::{TextEdit, TextRange};
use ctlpgn_test_support::fixtures;
use proptest::prelude::*;

// ---- Helpers ------------------------------------------------------------------------------

/// Every game of the corpus and every example of the handbook.
fn testdata_files() -> Vec<(String, String)> {
    let mut files = fixtures::testdata_files("corpus/valid", ".ctl-pgn");
    files.extend(fixtures::testdata_files("corpus/incoherent", ".ctl-pgn"));
    files.extend(fixtures::testdata_files("examples", ".ctl-pgn"));
    assert!(files.len() > 80, "the corpus and examples are needed");
    files.iter().map(|path| (path.display().to_string(), fixtures::read_text(path))).collect()
}

fn all_options() -> [FormatOptions; 3] {
    [
        FormatOptions::default(),
        FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Unicode },
        FormatOptions { separators: Separators::Ascii, ellipsis: EllipsisStyle::Ascii },
    ]
}

/// Applies edits given in text order and disjoint, as an editor would.
fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = text.to_string();
    let mut previous_start = usize::MAX;
    for edit in edits.iter().rev() {
        assert!(edit.range.end <= previous_start, "edits overlap or are out of order: {edits:?}");
        previous_start = edit.range.start;
        out.replace_range(edit.range.to_range(), &edit.new_text);
    }
    out
}

/// Every guarantee that holds for any input: lossless, idempotent, and the edits (whole file or
/// any range) rebuild the formatted text.
fn check_guarantees(name: &str, text: &str, options: &FormatOptions) -> String {
    let formatted = format_text(text, options);
    if let Err(difference) = equivalence::compare_files(text, &formatted, options) {
        panic!("{name}: formatting changed the content: {difference}\n--- before\n{text}\n--- after\n{formatted}");
    }
    assert_eq!(format_text(&formatted, options), formatted, "{name}: formatting is not idempotent");
    assert_eq!(
        apply(text, &format_edits(text, options, None)),
        formatted,
        "{name}: the edits do not rebuild the output"
    );
    assert!(
        format_edits(&formatted, options, None).is_empty(),
        "{name}: a formatted file still has edits"
    );
    formatted
}

/// The layout hints (M027 spacing, M029 dots) of the records of a formatted file that `fmt`
/// laid out, each with its line: none is expected, as `fmt` writes the canonical layout. The
/// records it keeps as written (a half-move with its parts apart) are left out.
fn layout_hints(formatted: &str) -> Vec<String> {
    let options = AnalysisOptions::new(Keep::Findings, RuleChecks::Skip);
    let laid_out = |text: &str| {
        let record = ctlpgn_core::syntax::parse_record(text);
        let mut lines = std::iter::once(&record.items).chain(&record.bodies).flatten();
        !lines.any(|item| {
            matches!(item, ctlpgn_core::syntax::Item::MoveLine(line)
                if line.half_moves().any(|half_move| half_move.written_apart(text).is_some()))
        })
    };
    analyse_file(formatted, options)
        .into_iter()
        .filter(|record| laid_out(&formatted[record.range]))
        .flat_map(|record| {
            let text = &formatted[record.range];
            record
                .analysis
                .diagnostics
                .into_iter()
                .filter(|d| matches!(d.code, Code::M027 | Code::M029))
                .map(|d| {
                    let start = text[..d.range.start].rfind('\n').map_or(0, |end| end + 1);
                    let line = text[start..].lines().next().unwrap_or_default();
                    format!("{}: {} (at {line:?})", d.code, d.message)
                })
        })
        .collect()
}

// ---- Fixtures -----------------------------------------------------------------------------

/// `NAME.ctl-pgn` formats to `NAME.formatted.ctl-pgn`; a name starting `unicode-` or `ascii-`
/// is formatted with both options in that style.
#[test]
fn fixtures_format_to_their_expected_layout() {
    let files = fixtures::files_with(&fixtures::fixtures_dir("format"), ".ctl-pgn");
    let inputs: Vec<&PathBuf> = files
        .iter()
        .filter(|path| !path.to_string_lossy().ends_with(".formatted.ctl-pgn"))
        .collect();
    assert!(inputs.len() >= 12, "the format fixtures are missing");
    for input in inputs {
        let name = input
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .trim_end_matches(".ctl-pgn")
            .to_string();
        let options = if name.starts_with("unicode-") {
            all_options()[1]
        } else if name.starts_with("ascii-") {
            all_options()[2]
        } else {
            FormatOptions::default()
        };
        let text = fixtures::read_text(input);
        let expected =
            fixtures::read_text(&input.with_file_name(format!("{name}.formatted.ctl-pgn")));
        let formatted = check_guarantees(&name, &text, &options);
        assert_eq!(formatted, expected, "{name}: the layout differs from the fixture");
        assert_eq!(
            format_text(&expected, &options),
            expected,
            "{name}: the expected layout is not stable"
        );
    }
}

#[test]
fn a_crlf_file_keeps_crlf_everywhere_and_a_mixed_file_takes_its_dominant_ending() {
    let crlf = "[Variant \"C'escacs\"]\r\n[Result \"*\"]\r\n1. E7-E13\n{ two\rlines }\r\n*\r\n";
    let formatted = format_text(crlf, &FormatOptions::default());
    assert_eq!(
        formatted,
        "[Variant \"C'escacs\"]\r\n[Result \"*\"]\r\n\r\n1. E7-E13\r\n{ two\r\nlines }\r\n*\r\n"
    );
    let mostly_lf = "[Variant \"C'escacs\"]\r\n[Result \"*\"]\n1. E7-E13:\n*\n";
    assert!(!format_text(mostly_lf, &FormatOptions::default()).contains('\r'));
}

#[test]
fn separators_never_become_x_and_special_captures_stay() {
    let text =
        "[Variant \"C'escacs\"]\n1. E13*F16, F12@@G9\n2. E15@D18, E13xF16\n3. KRK-II, KRD‐DE:\n*\n";
    for options in all_options() {
        let formatted = check_guarantees("separators", text, &options);
        let movetext = formatted.split("\n\n").nth(1).expect("movetext");
        assert_eq!(movetext.matches('x').count(), 1, "{formatted}");
        assert!(movetext.contains("F12@@G9") && movetext.contains("E15@D18"), "{formatted}");
    }
}

#[test]
fn the_equivalence_check_sees_every_change_but_layout() {
    let keep = FormatOptions::default();
    let unicode = all_options()[1];
    let original = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n{ a  \n b }\n(1. …, E21-E17)\n*\n";
    let relaid =
        "[Variant \"C'escacs\"]\n\n1.  E7-E13 ,E21-E15   \n. { a\n b }\n(1. …, E21-E17\n)\n*\n";
    assert_eq!(equivalence::compare_files(original, relaid, &keep), Ok(()));
    for changed in [
        original.replace("E21-E15", "E21-E17"),
        original.replace("E7-E13,", "E7-E13 !,"),
        original.replace("{ a  \n b }", "{ a b }"),
        original.replace("(1. …, E21-E17)\n", ""),
        original.replace("(1.", "($[1] 1."),
        original.replace("*\n", "1-1\n"),
        original.replace("E7-E13", "E7‐E13"),
        format!("{original}\n{original}"),
    ] {
        assert!(equivalence::compare_files(original, &changed, &keep).is_err(), "{changed}");
    }
    assert_eq!(
        equivalence::compare_files(
            original,
            &original.replace('-', "‐").replace('…', "..."),
            &unicode
        ),
        Ok(())
    );
    let broken = "[Variant \"C'escacs\"]\n1. E7-E13 {\n*\n";
    assert!(equivalence::compare_files(broken, &broken.replace("1. ", "1."), &keep).is_err());
}

// ---- The corpus and examples ---------------------------------------------------------

#[test]
fn corpus_and_examples_format_losslessly_and_idempotently() {
    for (name, text) in testdata_files() {
        for options in all_options() {
            check_guarantees(&name, &text, &options);
        }
    }
}

#[test]
fn corpus_games_are_already_in_canonical_layout() {
    for path in fixtures::testdata_files("corpus/valid", ".ctl-pgn") {
        let text = fixtures::read_text(&path);
        assert_eq!(format_text(&text, &FormatOptions::default()), text, "{}", path.display());
    }
}

// ---- Broken records, ranges, edits ----------------------------------------------------------

const MESSY: &str = "[Variant \"C'escacs\"]\n[White  \"Vidàl, Marc\"]\n1.E7-E13,E21-E15 2. F8‐F12 ,F20-F16\n3. E13×F16 :\n*\n";

#[test]
fn a_broken_record_is_left_byte_for_byte_while_its_neighbours_are_formatted() {
    for broken in [
        "[Variant \"C'escacs\"]\n1.E7-E13,  E21-E15\n{ never closed\n2. F8-F12:\n*\n",
        "[Variant \"C'escacs\"]\n1.E7-E13,  E21-E15 (1. E7-E11\n2. F8-F12:\n*\n",
        "[Variant \"C'escacs\"]\n1.E7-E13,  E21-E15 ]] 2. F8-F12:\n*\n",
        "[Variant \"C'escacs\"]\n1.E7-E13,  E21-E15\n[Event \"late\"] [Variant \"C'escacs\"]\n*\n",
    ] {
        let text = format!("{MESSY}{broken}{MESSY}");
        let formatted = check_guarantees("broken", &text, &FormatOptions::default());
        let clean = format_text(MESSY, &FormatOptions::default());
        assert_eq!(formatted, format!("{clean}\n{broken}{clean}"));
    }
}

#[test]
fn range_formatting_edits_only_the_lines_the_range_touches() {
    let text = format!("{MESSY}\n{MESSY}\n{MESSY}");
    let options = FormatOptions::default();
    let second = text.match_indices("[Variant").nth(1).expect("a second record").0;
    let third = text.match_indices("[Variant").nth(2).expect("a third record").0;
    let last_line = second + MESSY.find("3. E13").expect("a third move line");
    // On one move line, or any part of it: that line alone.
    for range in [
        TextRange::empty(last_line),
        TextRange::new(last_line + 3, last_line + 6),
        TextRange::new(last_line, last_line + "3. E13×F16 :\n".len()),
    ] {
        let edits = format_edits(&text, &options, Some(range));
        assert_eq!(edits.len(), 1, "{range:?}: {edits:?}");
        assert_eq!(&text[edits[0].range], "3. E13×F16 :\n");
        assert_eq!(edits[0].new_text, "3. E13×F16:\n");
    }
    // The first move line becomes two, with the blank line after the tags before them.
    let move_line = second + MESSY.find("1.E7").expect("a first move line");
    let edits = format_edits(&text, &options, Some(TextRange::new(move_line + 2, move_line + 4)));
    let applied = apply(&text, &edits);
    assert_eq!(
        &applied[second..applied.len() - (text.len() - third)],
        "[Variant \"C'escacs\"]\n[White  \"Vidàl, Marc\"]\n\n1. E7-E13, E21-E15\n2. F8‐F12, F20-F16\n3. E13×F16 :\n*\n\n"
    );
    // A line the formatter leaves as it is gets nothing, whatever its record needs.
    assert_eq!(format_edits(&text, &options, Some(TextRange::new(second, second + 1))), []);
    assert_eq!(format_edits(&text, &options, Some(TextRange::empty(text.len()))), []);
    // Across the whole record, the whole record.
    let across = format_edits(&text, &options, Some(TextRange::new(second - 1, third)));
    let applied = apply(&text, &across);
    let formatted = format_text(&text, &options);
    let formatted_second = formatted.match_indices("[Variant").nth(1).expect("a second").0;
    let formatted_third = formatted.match_indices("[Variant").nth(2).expect("a third").0;
    assert_eq!(
        &applied[second..applied.len() - (text.len() - third)],
        &formatted[formatted_second..formatted_third]
    );
}

#[test]
fn a_comment_moved_between_lines_is_formatted_a_line_at_a_time() {
    // Myers' diff alone paired the lone `{a}` with the one the formatter moves down from the
    // second move line: the first move line's edit dropped its `{a}` and the second's wrote it
    // back, so either alone lost or doubled a comment. Lines are paired where both texts have
    // said the same so far, so each line's edit stands alone.
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15 {a}\n{a}\n2. F8-F12 {a}\n*\n";
    let options = FormatOptions::default();
    let whole = format_edits(text, &options, None);
    let pairs: Vec<(&str, &str)> =
        whole.iter().map(|edit| (&text[edit.range], edit.new_text.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("1. E7-E13, E21-E15 {a}\n", "1. E7-E13, E21-E15\n{a}\n"),
            ("2. F8-F12 {a}\n", "2. F8-F12\n{a}\n"),
        ]
    );
    for (line, edit) in ["1. E7", "2. F8"].into_iter().zip(&whole) {
        let at = text.find(line).expect("the line");
        let edits = format_edits(text, &options, Some(TextRange::empty(at)));
        assert_eq!(&edits, std::slice::from_ref(edit), "{line}");
        assert_eq!(equivalence::compare_files(text, &apply(text, &edits), &options), Ok(()));
    }
}

#[test]
fn edits_cover_only_the_changed_lines_even_after_non_ascii_text() {
    let text = "[Variant \"C'escacs\"]\n[White \"Àlex Muñoz\"]\n[Redefine \"FAN\"]\n\n\
                1. 🩐D2-F6 ◇, ♞C25×🩐F6\n2. E7‐E13,  E21-E15\n{ ×, ‐, … and ♘ }\n3. E13×F16 :\n*\n";
    let options = FormatOptions::default();
    let edits = format_edits(text, &options, None);
    assert_eq!(edits.len(), 2, "{edits:?}");
    assert_eq!(&text[edits[0].range], "2. E7‐E13,  E21-E15\n");
    assert_eq!(edits[0].new_text, "2. E7‐E13, E21-E15\n");
    assert_eq!(&text[edits[1].range], "3. E13×F16 :\n");
    assert_eq!(edits[1].new_text, "3. E13×F16:\n");
    assert_eq!(apply(text, &edits), format_text(text, &options));
    let unicode =
        FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Unicode };
    assert_eq!(apply(text, &format_edits(text, &unicode, None)), format_text(text, &unicode));
}

#[test]
fn empty_and_blank_files_are_left_alone() {
    for text in ["", "\n\n", "\u{FEFF}", "  \n"] {
        assert_eq!(format_text(text, &FormatOptions::default()), text);
        assert!(format_edits(text, &FormatOptions::default(), None).is_empty());
    }
    let with_mark = "\u{FEFF}\n[Variant \"C'escacs\"]\n1. E7-E13:\n*";
    assert_eq!(
        format_text(with_mark, &FormatOptions::default()),
        "\u{FEFF}[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n"
    );
}

// ---- Generated records ----------------------------------------------------------------------

fn pick(choices: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(choices).prop_map(str::to_string)
}

/// A half-move from the pieces of §6.1, with random spacing before its annotation group.
fn half_move() -> impl Strategy<Value = String> {
    let coordinate =
        || pick(&["E7", "E13", "F8", "F12", "G9", "A21", "B24", "Z11", "L5", "D10", "T22"]);
    let piece_move = (
        pick(&["", "", "N", "E", "D", "♘", "🩐", "☖", "n"]),
        coordinate(),
        pick(&["-", "‐", "×", "*", "@", "@@", "x", "–"]),
        pick(&["", "", "N", "♝"]),
        coordinate(),
        pick(&["", "", "", "=D", "=&"]),
        // Spaces inside a move token are not CTL-AN, but the grammar reads through them.
        pick(&["", "", "", "", "", "", " "]),
    )
        .prop_map(|(piece, origin, separator, captured, destination, promotion, space)| {
            format!("{piece}{origin}{space}{separator}{space}{captured}{destination}{promotion}")
        });
    let other_move = pick(&["KRK-II", "KRK‐HIO", "KRD-DE", "KTK-HH", "♔♖♔-II", "T22=R"]);
    let the_move = prop_oneof![4 => piece_move, 1 => other_move];
    (
        the_move,
        pick(&["", "", "", "+", "+^", "+∞", "++", "#"]),
        pick(&["", " ", "  "]),
        pick(&["", "", "", "?", "??", "?!", "!", "!!", "!?", "◇", "$1"]),
        pick(&["", "", " "]),
        pick(&["", "", ":", "(=)", "(=):"]),
    )
        .prop_map(|(the_move, check, space, rating, inner_space, indicator)| {
            let check = if check.is_empty() || space.is_empty() {
                check
            } else {
                format!("{space}{check}")
            };
            let inner_space =
                if rating.is_empty() || indicator.is_empty() { "" } else { inner_space.as_str() };
            let space = if rating.is_empty() && indicator.is_empty() { "" } else { space.as_str() };
            format!("{the_move}{check}{space}{rating}{inner_space}{indicator}")
        })
}

/// A move line: a pair, a Black-first line, a White-only line, or (rarely) an incomplete one.
fn move_line() -> impl Strategy<Value = String> {
    (
        pick(&["1.", "5.", "12.", "1?", "7."]),
        pick(&[" ", "", "  "]),
        prop_oneof![4 => half_move(), 1 => pick(&["…", "..."])],
        prop_oneof![4 => half_move().prop_map(Some), 1 => Just(None)],
        pick(&["", " "]),
        pick(&[" ", "", "  "]),
    )
        .prop_map(|(number, space, white, black, before_comma, after_comma)| match black {
            Some(black) => format!("{number}{space}{white}{before_comma},{after_comma}{black}"),
            None => format!("{number}{space}{white}"),
        })
}

/// A comment from text, references, markers, blanks and line breaks (never `{`, `}`).
fn comment() -> impl Strategy<Value = String> {
    let pieces = &[
        "text", " ", "  ", "\n", "   \n", "\t", "@W: ", "@B: ", "~F14", "#5", "#5@B", "$24",
        "Àlex", "×‐…", "🩐", ". ", "(",
    ];
    (pick(&["", "", ":", " "]), prop::collection::vec(pick(pieces), 0..8))
        .prop_map(|(start, body)| format!("{{{start}{}}}", body.concat()))
}

/// What separates two lines of movetext: blanks, blank lines and stray indentation dots.
fn line_break() -> impl Strategy<Value = String> {
    pick(&["\n", "\n", "\n\n", " \n", "\t\n", "\n  ", "\n.", "\n. .", "\n..", "  \n\n ."])
}

/// One item of a line of play, and whether it is a move line (a `)` may attach only to those).
#[derive(Clone, Debug)]
struct Line {
    text: String,
    is_move_line: bool,
}

/// Joins items of a line of play: move lines sometimes share a line, anything else gets its own.
fn join(lines: &[(Line, String, bool)]) -> String {
    let mut out = String::new();
    for (index, (line, line_break, same_line)) in lines.iter().enumerate() {
        if index > 0 {
            let both_moves = line.is_move_line && lines[index - 1].0.is_move_line;
            out.push_str(if both_moves && *same_line { " " } else { line_break });
        }
        out.push_str(&line.text);
    }
    out
}

fn play_items(
    item: impl Strategy<Value = Line>,
    most: usize,
) -> impl Strategy<Value = Vec<(Line, String, bool)>> {
    prop::collection::vec((item, line_break(), prop::bool::weighted(0.2)), 0..most)
}

/// Move lines, comments and nested, labelled variations.
fn play_item() -> impl Strategy<Value = Line> + Clone {
    let leaf = prop_oneof![
        3 => move_line().prop_map(|text| Line { text, is_move_line: true }),
        1 => comment().prop_map(|text| Line { text, is_move_line: false }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let variation = (
            pick(&["", "", "$[1]", "$[2]", "$[12]"]),
            pick(&["", " ", "  "]),
            prop_oneof![8 => move_line().prop_map(Some), 1 => Just(None)],
            play_items(inner.clone(), 4),
            prop::bool::ANY,
            line_break(),
        )
            .prop_map(|(label, space, first, rest, attach, close_break)| {
                let mut lines = Vec::new();
                if let Some(first) = first {
                    lines.push((Line { text: first, is_move_line: true }, String::new(), false));
                }
                lines.extend(rest);
                let ends_with_move = lines.last().is_some_and(|(line, _, _)| line.is_move_line);
                let close = if ends_with_move && attach {
                    ")".to_string()
                } else {
                    format!("{close_break})")
                };
                let space = if label.is_empty() { "" } else { " " }.to_string() + &space;
                let body = join(&lines);
                let body = if body.is_empty() { body } else { format!("{space}{body}") };
                Line { text: format!("({label}{body}{close}"), is_move_line: false }
            });
        prop_oneof![2 => inner, 1 => variation]
    })
}

fn tag_line() -> impl Strategy<Value = String> {
    (
        pick(&["", " ", "\t"]),
        pick(&["Event", "Site", "White", "Black", "Result", "Lang"]),
        pick(&[" ", "  ", "\t"]),
        pick(&["\"CG\"", "\"Vidàl, Marc\"", "\"\"", "\"a \\\"b\\\" c\"", "\"?\""]),
        pick(&["", "  "]),
    )
        .prop_map(|(lead, name, space, value, trail)| {
            format!("{lead}[{name}{space}{value}]{trail}")
        })
}

fn record() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((tag_line(), pick(&["\n", "\n", " ", "\n\n"])), 0..4),
        pick(&["\n", "\n\n", "\n\n\n", "  \n"]),
        prop::collection::vec(comment(), 0..2),
        move_line(),
        play_items(play_item(), 8),
        pick(&["\n", "\n\n", " \n"]),
        pick(&["*", "3-0", "0-3", "1-1", "2-1", "1-2"]),
        prop::collection::vec((pick(&["\n", " ", "\n\n"]), comment()), 0..2),
    )
        .prop_map(
            |(tags, after_tags, start_comments, first, rest, before_result, result, finals)| {
                let mut text = "[Variant \"C'escacs\"]".to_string();
                for (tag, separator) in tags {
                    text.push_str(&separator);
                    text.push_str(&tag);
                }
                text.push_str(&after_tags);
                for comment in start_comments {
                    text.push_str(&comment);
                    text.push('\n');
                }
                let mut lines =
                    vec![(Line { text: first, is_move_line: true }, String::new(), false)];
                lines.extend(rest);
                text.push_str(&join(&lines));
                text.push_str(&before_result);
                text.push_str(&result);
                for (separator, comment) in finals {
                    text.push_str(&separator);
                    text.push_str(&comment);
                }
                text
            },
        )
}

fn file() -> impl Strategy<Value = String> {
    (
        pick(&["", "", "\u{FEFF}", "\n\n"]),
        prop::collection::vec((record(), pick(&["\n", "\n\n", "\n \n\n"])), 1..4),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(lead, records, crlf)| {
            let mut text = lead;
            for (record, end) in records {
                text.push_str(&record);
                text.push_str(&end);
            }
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            text
        })
}

fn some_options() -> impl Strategy<Value = FormatOptions> {
    prop::sample::select(all_options().to_vec())
}

fn some_range(length: usize) -> impl Strategy<Value = Range<usize>> {
    (0..=length, 0..=length).prop_map(|(a, b)| a.min(b)..a.max(b))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_records_format_losslessly_idempotently_and_by_minimal_edits(text in file(), options in some_options()) {
        let mut parser = ctlpgn_core::syntax::new_parser();
        for range in ctlpgn_core::syntax::split_records(&text) {
            let record = ctlpgn_core::syntax::parse_record_with(&mut parser, &text[range]);
            prop_assert!(!record.has_error, "the generator wrote a record with a syntax error:\n{}", &text[range]);
        }
        let formatted = check_guarantees("generated", &text, &options);
        prop_assert_eq!(layout_hints(&formatted), Vec::<String>::new(), "formatted:\n{}", formatted);
    }

    #[test]
    fn range_edits_format_a_part_that_whole_file_formatting_agrees_with(
        (text, range) in file().prop_flat_map(|text| { let length = text.len(); (Just(text), some_range(length)) }),
        options in some_options(),
    ) {
        let boundary = |mut offset: usize| { while !text.is_char_boundary(offset) { offset -= 1; } offset };
        let range = TextRange::new(boundary(range.start), boundary(range.end));
        let edits = format_edits(&text, &options, Some(range));
        // Each edit lies in a record (the first stretched back to the start of the text) that
        // meets the range, ends included.
        let mut spans = ctlpgn_core::syntax::split_records(&text);
        spans[0].start = 0;
        for edit in &edits {
            let meets = spans.iter().any(|span| {
                span.start <= edit.range.start && edit.range.end <= span.end && span.start <= range.end && range.start <= span.end
            });
            prop_assert!(meets, "{:?} lies outside the records {:?} touches", edit, range);
        }
        let applied = apply(&text, &edits);
        prop_assert_eq!(format_text(&applied, &options), format_text(&text, &options));
    }

    #[test]
    fn range_edits_lie_within_the_lines_the_range_touches_and_keep_the_records(
        (text, range) in file().prop_flat_map(|text| { let length = text.len(); (Just(text), some_range(length)) }),
        options in some_options(),
    ) {
        let boundary = |mut offset: usize| { while !text.is_char_boundary(offset) { offset -= 1; } offset };
        let range = TextRange::new(boundary(range.start), boundary(range.end));
        let lines = touched_lines(&text, range);
        prop_assert!(lines.contains_range(range) || range.is_empty(), "{:?} widened to {:?}", range, lines);
        let edits = format_edits(&text, &options, Some(range));
        for edit in &edits {
            prop_assert!(lines.contains_range(edit.range), "{:?} lies outside the lines {:?} of {:?}", edit, lines, range);
        }
        let applied = apply(&text, &edits);
        prop_assert_eq!(equivalence::compare_files(&text, &applied, &options), Ok(()), "after {:?}", edits);
    }
}
