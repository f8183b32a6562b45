//! The hand-written record reader against the tree-sitter path, as one source of truth:
//! wherever the reader accepts a record, its syntax values equal those lowered from the tree,
//! and the semantic tokens classified from them equal those classified from the tree.
//! Over every record of every `.ctl-pgn` file of the repository (corpus, handbook examples,
//! fixtures), and over generated and mutated records. (`ctlpgn check` and `fmt` both ways:
//! server/tests/readers.rs.)

use ctlpgn_core::analysis::{self, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::format::{format_text_with, FormatOptions};
use ctlpgn_core::ide::semantic;
use ctlpgn_core::syntax::chars::{is_space_or_tab, is_white_space};
use ctlpgn_core::syntax::{self, Item, Reading, RecordSyntax};
use ctlpgn_test_support::fixtures::{files_under, read_text, record_files, repository_dir};
use proptest::prelude::*;

fn tree_syntax(parser: &mut tree_sitter::Parser, text: &str) -> RecordSyntax {
    syntax::parse_record_with(parser, text)
}

/// Reads every record of `text` both ways; panics where the reader accepts and differs.
/// Returns (records, accepted).
fn compare_file(parser: &mut tree_sitter::Parser, text: &str, name: &str) -> (usize, usize) {
    let ranges = syntax::split_records(text);
    let mut accepted = 0;
    for (i, range) in ranges.iter().enumerate() {
        let record = &text[*range];
        if let Some(read) = syntax::read_record(record) {
            accepted += 1;
            let tree = syntax::parse(parser, record);
            let lowered = syntax::lower_record(&tree, record);
            assert_eq!(read, lowered, "{name}, record {}: the reader differs from the tree", i + 1);
            assert_eq!(
                semantic::classify_syntax(record, &read),
                semantic::classify(record, &tree),
                "{name}, record {}: the tokens from the syntax differ from the tree's",
                i + 1
            );
        }
    }
    (ranges.len(), accepted)
}

#[test]
fn the_reader_gives_the_trees_values_for_every_record_it_accepts_in_the_repository() {
    let mut parser = syntax::new_parser();
    let files = record_files();
    assert!(files.len() > 80, "the repository's record files are found ({})", files.len());
    let mut valid = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        // A file that is not UTF-8 (the example of S000) is refused before any reading.
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let name = path.display().to_string();
        let (records, accepted) = compare_file(&mut parser, &text, &name);
        if name.contains("corpus/valid") {
            valid.0 += records;
            valid.1 += accepted;
        }
        // The same file with CRLF line ends.
        compare_file(&mut parser, &text.replace('\n', "\r\n"), &format!("{name} (CRLF)"));
    }
    assert_eq!(valid.0, valid.1, "the reader accepts every record of the valid corpus");
}

#[test]
fn the_reader_declines_broken_records() {
    for text in [
        "[Variant \"C'escacs\"]\n1. E7-E13 +\n+\n",
        "[Variant \"C'escacs\"]\n1. E7 -E13\n",
        "[Variant \"C'escacs\"]\n{ unclosed\n",
        "[Variant \"C'escacs\"]\n(1. E7-E13\n",
        "[Variant \"C'escacs\"]\n)\n",
        "[Event \"x\"]\n1. E7-E13\n",
        "[Variant \"C'escacs\n",
    ] {
        assert_eq!(syntax::read_record(text), None, "{text:?}");
    }
}

#[test]
fn the_reader_reads_every_token_of_a_half_move() {
    let text = "[Variant \"C'escacs\"]\n1. NE3-F8=D+∞ ?! (=):, ♘E3×♝F8 # ◇\n2. KRK-II, T22=R\n*\n";
    let read = syntax::read_record(text).expect("a well-formed record");
    assert_eq!(read, tree_syntax(&mut syntax::new_parser(), text));
    let syntax::Item::MoveLine(line) = &read.items[1] else { panic!("a move line") };
    let white = line.white().expect("a white half-move");
    assert_eq!(white.indicator.as_ref().map(|t| t.text(text)), Some("(=):"));
}

#[test]
fn every_token_of_a_record_is_classified_alike_both_ways() {
    let text = "[Variant \"C'escacs\"]\n{@W: a ~NG25 on ~F14, #1@B then $24 } \n1. NE3-F8=D+∞ ?! (=):, ♘E3×♝F8 # ◇\n2. KRK-II, T22=R\n($[2] 2. …, G9@F10)\n*\n";
    let read = syntax::read_record(text).expect("a well-formed record");
    let tree = syntax::parse(&mut syntax::new_parser(), text);
    let from_syntax = semantic::classify_syntax(text, &read);
    assert_eq!(from_syntax, semantic::classify(text, &tree));
    let written: Vec<&str> = from_syntax.iter().map(|token| &text[token.range()]).collect();
    for part in ["$24", "$[2]", "…", "@", "a", "on", "then", "~NG25", "#1@B", "@W:", "=", "D"] {
        assert!(written.contains(&part), "{part} in {written:?}");
    }
}

// ---- Generated and mutated records ----------------------------------------------------------

/// The pieces records are made of: tokens of every kind, the handbook's odd characters.
const PIECES: &[&str] = &[
    "1. ",
    "2. ",
    "12? ",
    "E7-E13",
    "NE3×F8",
    "EF12×NF14",
    "B22-B24=D",
    "T22=R",
    "KRK-II",
    "♔♖♔-II",
    "F12@@G9",
    "D6@E9",
    "E7E13",
    "H6‐H12",
    "E13×F16",
    "JF6×♝F8",
    "+",
    "+∞",
    "+^",
    "++",
    "#",
    "^+",
    "?!",
    "!!",
    "◇",
    ":",
    "(=)",
    "(=):",
    ", ",
    "…",
    "...",
    "{ @W: ~H6 see #5@B }",
    "{:x}",
    "{#W: old}",
    "{ ~J[d] ~NG25 $24 #14[#12.2]@W. }",
    "($[1] ",
    "(",
    ")",
    ". ",
    ".{",
    "0-3",
    "3-0",
    "1-1",
    "*",
    "1/2-1/2",
    "[Event \"x\"]",
    "[Result \"0-3\"]",
    "$1",
    "x",
    "×",
    "‐",
    "\u{FEFF}",
    "\r\n",
    "\n",
    " ",
    "\t",
    "[Variant \"C'escacs\"]",
];

fn generated_record() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PIECES), 0..40).prop_map(|pieces| {
        let mut text = String::from("[Variant \"C'escacs\"]\n");
        for piece in pieces {
            text.push_str(piece);
        }
        text
    })
}

/// A half-move from its parts: piece, origin, separator, captured piece, destination,
/// promotion, check, rating, indicator (or castling, or a forced promotion).
fn half_move() -> impl Strategy<Value = String> {
    let select = |options: &'static [&'static str]| proptest::sample::select(options);
    (
        select(&["", "", "N", "J", "♘", "g", "E"]),
        select(&["E7", "H6", "F12", "A5", "Z17"]),
        select(&["-", "-", "×", "‐", "*", "@", "@@", "x", "", "–"]),
        select(&["", "", "", "N", "♝", "D"]),
        select(&["E13", "H12", "G9", "K18", "T22"]),
        select(&["", "", "", "=D", "=&", "=♕"]),
        select(&["", "", "+", "+∞", "+^", "++", "#", "^+", " +"]),
        select(&["", "", "?!", " ??", "◇", " !"]),
        select(&["", "", ":", "(=)", " (=):"]),
        0u8..10,
    )
        .prop_map(
            |(piece, origin, sep, captured, dest, promo, check, rating, indicator, form)| {
                let main = match form {
                    0 => "KRK-II".to_string(),
                    1 => format!("{dest}=R"),
                    _ => format!("{piece}{origin}{sep}{captured}{dest}{promo}"),
                };
                format!("{main}{check}{rating}{indicator}")
            },
        )
}

/// A well-formed record of tags, move lines, comments and variations (opened and closed
/// in balance) and a result.
fn structured_record() -> impl Strategy<Value = String> {
    let item = prop_oneof![
        4 => (1u32..40, half_move(), proptest::option::of(half_move()))
            .prop_map(|(n, white, black)| match black {
                Some(black) => format!("{n}. {white}, {black}\n"),
                None => format!("{n}. {white}\n"),
            }),
        1 => (1u32..40, half_move()).prop_map(|(n, black)| format!("{n}. …, {black}\n")),
        1 => proptest::sample::select(&[
            "{ @W: keeps ~H6 covered }\n", "{ see #5@B and #4.1. }\n", "{:~J[d] ~NG25 $24}\n",
            ".{ @B: ~g mates }\n", "{ x }", "{#W: old}\n", "{ @Wx #12. ~F14 }\n",
        ][..]).prop_map(str::to_string),
        1 => proptest::sample::select(&["($[1] ", "(", ".(", "($[2]\n"][..]).prop_map(str::to_string),
        1 => proptest::sample::select(&[")\n", ".)", ")"][..]).prop_map(str::to_string),
    ];
    (
        proptest::collection::vec(item, 0..30),
        proptest::sample::select(&["", "*\n", "0-3\n", "3-0", "1-1\n"][..]),
    )
        .prop_map(|(items, result)| {
            let mut text = String::from("[Variant \"C'escacs\"]\n[Event \"x \\\" y\"]\n\n");
            let mut depth = 0usize;
            for item in items {
                if item.starts_with(')') || item.starts_with(".)") {
                    if depth == 0 {
                        continue;
                    }
                    depth -= 1;
                } else if item.starts_with('(') || item.starts_with(".(") {
                    depth += 1;
                }
                text.push_str(&item);
            }
            for _ in 0..depth {
                text.push_str(")\n");
            }
            text.push_str(result);
            text
        })
}

/// Every C0 control character, DEL, every character Unicode counts as white space or as a
/// space separator, and the invisible ones that pass for one (zero-width space and joiners,
/// word joiner, Mongolian vowel separator, byte-order mark), each as a string.
fn odd_characters() -> &'static [String] {
    static ODD: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    ODD.get_or_init(|| {
        let mut odd: Vec<char> = ('\0'..='\u{1F}').collect();
        odd.extend([' ', '\u{7F}', '\u{85}', '\u{A0}', '\u{1680}', '\u{180E}']);
        odd.extend('\u{2000}'..='\u{200D}');
        odd.extend(['\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{2060}', '\u{3000}']);
        odd.push('\u{FEFF}');
        odd.into_iter().map(String::from).collect()
    })
}

/// What a mutation inserts: a piece of a record, or one of the odd characters.
fn insertion() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        3 => proptest::sample::select(PIECES),
        1 => (0..odd_characters().len()).prop_map(|index| odd_characters()[index].as_str()),
    ]
}

/// Applies a mutation at a place of `text` given as a fraction: delete, insert or duplicate a
/// byte-sized or character-sized piece.
fn mutate(text: &str, place: usize, kind: u8, insert: &str) -> String {
    let boundaries: Vec<usize> =
        text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).collect();
    let at = boundaries[place % boundaries.len()];
    let next = boundaries.iter().copied().find(|&b| b > at).unwrap_or(text.len());
    let mut out = String::with_capacity(text.len() + insert.len());
    match kind % 3 {
        0 => {
            out.push_str(&text[..at]);
            out.push_str(&text[next..]);
        }
        1 => {
            out.push_str(&text[..at]);
            out.push_str(insert);
            out.push_str(&text[at..]);
        }
        _ => {
            out.push_str(&text[..next]);
            out.push_str(&text[at..]);
        }
    }
    out
}

fn corpus_sample() -> &'static [String] {
    static SAMPLE: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SAMPLE.get_or_init(read_corpus_sample)
}

fn read_corpus_sample() -> Vec<String> {
    let root = repository_dir();
    ["testdata/examples", "testdata/corpus/valid"]
        .iter()
        .flat_map(|dir| files_under(&root.join(dir), ".ctl-pgn"))
        .take(30)
        .map(|path| read_text(&path))
        .collect()
}

/// Compares both ways over every record the split gives.
fn assert_same(text: &str) -> Result<(), TestCaseError> {
    let mut parser = syntax::new_parser();
    for range in syntax::split_records(text) {
        let record = &text[range];
        if let Some(read) = syntax::read_record(record) {
            let tree = syntax::parse(&mut parser, record);
            prop_assert_eq!(&read, &syntax::lower_record(&tree, record), "record {:?}", record);
            prop_assert_eq!(
                semantic::classify_syntax(record, &read),
                semantic::classify(record, &tree),
                "tokens of {:?}",
                record
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn generated_records_read_the_same_both_ways(text in generated_record()) {
        assert_same(&text)?;
    }

    #[test]
    fn structured_records_read_the_same_both_ways(
        text in structured_record(),
        crlf in any::<bool>(),
        mutations in proptest::collection::vec(
            (any::<usize>(), any::<u8>(), insertion()), 0..3),
    ) {
        let mut text = if crlf { text.replace('\n', "\r\n") } else { text };
        for (place, kind, insert) in mutations {
            text = mutate(&text, place, kind, insert);
        }
        assert_same(&text)?;
    }

    #[test]
    fn mutated_records_read_the_same_both_ways(
        file in 0usize..30,
        mutations in proptest::collection::vec(
            (any::<usize>(), any::<u8>(), insertion()), 1..4),
    ) {
        let sample = corpus_sample();
        let mut text = sample[file % sample.len()].clone();
        for (place, kind, insert) in mutations {
            text = mutate(&text, place, kind, insert);
        }
        assert_same(&text)?;
    }
}

// ---- White space, one definition for the reader and the grammar -----------------------------

/// A record with `¤` at every place white space may stand between tokens: the start and end of
/// lines, a blank line, inside a tag line, around a move line's number, comma and half-moves, a
/// variation's parentheses and label, a comment and the result.
const BETWEEN_TOKENS: &str = "[Variant \"C'escacs\"]\n¤[Event¤\"x\"]¤\n¤\n1.¤E7-E13¤,¤E21-E15¤\n¤(¤$[2]¤2. …,¤G9-F10¤)¤\n¤{ a ~F14 }¤\n¤*¤\n";

/// The records with `c` at each place of `template`'s `¤` in turn (a space at the others).
fn each_place(template: &str, c: &str) -> Vec<String> {
    let places = template.matches('¤').count();
    (0..places)
        .map(|place| {
            let mut parts = template.split('¤');
            let mut text = parts.next().unwrap_or_default().to_string();
            for (index, part) in parts.enumerate() {
                text.push_str(if index == place { c } else { " " });
                text.push_str(part);
            }
            text
        })
        .collect()
}

/// The first item of `items`, at any depth, that `wanted` picks.
fn find_item<'a, T>(record: &'a RecordSyntax, wanted: impl Fn(&'a Item) -> Option<T>) -> Option<T> {
    record.walk(&record.items).find_map(|step| match step {
        syntax::Step::Item(item, _) => wanted(item),
        syntax::Step::Leave(_) => None,
    })
}

/// Reads `text` both ways and checks what a user sees of it: the reader gives the tree's values
/// or declines, the diagnostics are the same, and so is `fmt`'s output (returned), which is the
/// text itself wherever the tree of its one record holds a syntax error.
fn assert_read_alike(parser: &mut tree_sitter::Parser, text: &str) -> String {
    let tree = syntax::parse(parser, text);
    let lowered = syntax::lower_record(&tree, text);
    if let Some(read) = syntax::read_record(text) {
        assert_eq!(read, lowered, "{text:?}: the reader differs from the tree");
    }
    let diagnostics = |reading| {
        let options =
            AnalysisOptions { reading, ..AnalysisOptions::new(Keep::Findings, RuleChecks::Judge) };
        analysis::analyse_file(text, options)
            .into_iter()
            .flat_map(|record| record.analysis.diagnostics)
            .map(|d| (d.code, d.range, d.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        diagnostics(Reading::ReaderFirst),
        diagnostics(Reading::TreeSitter),
        "{text:?}: the diagnostics differ"
    );
    let options = FormatOptions::default();
    let formatted = format_text_with(text, &options, Reading::ReaderFirst);
    assert_eq!(formatted, format_text_with(text, &options, Reading::TreeSitter), "{text:?}");
    if tree.root_node().has_error() && syntax::split_records(text).len() == 1 {
        assert_eq!(formatted, text, "a record with a syntax error is kept as written");
    }
    formatted
}

#[test]
fn the_grammar_reads_white_space_as_the_readers_one_definition_says() {
    let mut parser = syntax::new_parser();
    let mut every_whitespace =
        (0..=0x10FFFF).filter_map(char::from_u32).filter(|c| c.is_whitespace());
    assert!(every_whitespace.all(|c| odd_characters().contains(&c.to_string())), "all spaces");
    for odd in odd_characters() {
        let c = odd.chars().next().expect("a character");
        // Between tokens the grammar takes the character as white space, or the record holds
        // an error: nothing but white space stands there.
        for text in each_place(BETWEEN_TOKENS, odd) {
            let tree = syntax::parse(&mut parser, &text);
            assert_eq!(tree.root_node().has_error(), !is_white_space(c), "{text:?}");
            assert_read_alike(&mut parser, &text);
        }
        // Before the first record white space is nothing; anything else is a record of its own.
        let text = format!("{odd}\n[Variant \"C'escacs\"]\n*\n");
        assert_eq!(syntax::split_records(&text).len() == 1, is_white_space(c), "{text:?}");
        let tree = syntax::parse(&mut parser, &text);
        assert_eq!(tree.root_node().has_error(), !is_white_space(c), "{text:?}");
        let formatted = assert_read_alike(&mut parser, &text);
        assert!(is_white_space(c) || formatted.starts_with(&format!("{odd}\n")), "{text:?}");
        // Inside a label white space ends it; anything else is part of it (a malformed label,
        // M020), but NUL, which no token of tree-sitter's generated lexer takes.
        let text = format!("[Variant \"C'escacs\"]\n1. E7-E13\n($[{odd}] 1. G7-G13)\n");
        let record = syntax::parse_record_with(&mut parser, &text);
        let label = find_item(&record, |item| match item {
            Item::Variation(variation) => variation.label.map(|label| label.text(&text)),
            _ => None,
        });
        let part_of_it = !is_white_space(c) && c != '\0';
        assert_eq!(label == Some(&format!("$[{odd}]")), part_of_it, "{text:?}");
        assert_read_alike(&mut parser, &text);
        // Inside indentation and a result, only spaces and tabs stand.
        let text = format!("[Variant \"C'escacs\"]\n1. E7-E13\n.{odd}.{{ a }}\n3{odd}-{odd}0\n");
        let record = syntax::parse_record_with(&mut parser, &text);
        let indentation = find_item(&record, |item| match item {
            Item::Comment(comment) => comment.indentation.map(|token| token.text(&text)),
            _ => None,
        });
        assert_eq!(indentation == Some(&format!(".{odd}.")), is_space_or_tab(c), "{text:?}");
        let result = find_item(&record, |item| match item {
            Item::Result(token) => Some(token.text(&text)),
            _ => None,
        });
        assert_eq!(result == Some(&format!("3{odd}-{odd}0")), is_space_or_tab(c), "{text:?}");
        assert_read_alike(&mut parser, &text);
    }
}
