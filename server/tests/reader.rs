//! The hand-written record reader against the tree-sitter path, as one source of truth:
//! wherever the reader accepts a record, its syntax values equal those lowered from the tree,
//! and the semantic tokens classified from them equal those classified from the tree.
//! Over every record of every `.ctl-pgn` file of the repository (corpus, handbook examples,
//! fixtures), and over generated and mutated records.

use std::path::{Path, PathBuf};

use ctlpgn::ide::semantic;
use ctlpgn::syntax::{self, RecordSyntax};
use proptest::prelude::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.ctl-pgn` file under `dir`, depth first with an explicit stack, sorted.
fn record_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "ctl-pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn all_record_files() -> Vec<PathBuf> {
    let root = repository();
    ["testdata", "examples", "server/tests/fixtures", "tests", "tree-sitter-ctlpgn/test"]
        .iter()
        .flat_map(|dir| record_files(&root.join(dir)))
        .collect()
}

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
    let files = all_record_files();
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
    let white = line.white.as_ref().expect("a white half-move");
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
    let root = repository();
    ["testdata/examples", "testdata/corpus/valid"]
        .iter()
        .flat_map(|dir| record_files(&root.join(dir)))
        .take(30)
        .map(|path| std::fs::read_to_string(path).expect("readable"))
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
            (any::<usize>(), any::<u8>(), proptest::sample::select(PIECES)), 0..3),
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
            (any::<usize>(), any::<u8>(), proptest::sample::select(PIECES)), 1..4),
    ) {
        let sample = corpus_sample();
        let mut text = sample[file % sample.len()].clone();
        for (place, kind, insert) in mutations {
            text = mutate(&text, place, kind, insert);
        }
        assert_same(&text)?;
    }
}

// ---- The whole command both ways ----------------------------------------------------------

fn check_json(path: &Path, rules: bool, reader: Option<&str>) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.arg("check").arg("--format").arg("json");
    if rules {
        command.arg("--rules");
    }
    command.arg(path);
    match reader {
        Some(value) => command.env("CTLPGN_READER", value),
        None => command.env_remove("CTLPGN_READER"),
    };
    command.output().expect("ctlpgn runs")
}

#[test]
fn check_prints_the_same_json_with_the_reader_and_with_tree_sitter_alone() {
    let files = all_record_files();
    let mut with_findings = 0;
    for path in &files {
        for rules in [false, true] {
            let fast = check_json(path, rules, None);
            let tree = check_json(path, rules, Some("tree-sitter"));
            assert_eq!(
                String::from_utf8_lossy(&fast.stdout),
                String::from_utf8_lossy(&tree.stdout),
                "{} (rules: {rules})",
                path.display()
            );
            assert_eq!(fast.status.code(), tree.status.code(), "{}", path.display());
            with_findings += usize::from(fast.stdout.len() > 2);
        }
    }
    // The comparison covers files with findings, not only clean ones.
    assert!(with_findings > 20, "files with findings: {with_findings}");
}
