//! Incremental parsing gives the same tree as a fresh parse.
//!
//! Real game texts (the corpus and the handbook examples, alone and three by three)
//! receive random small edits
//! (insert, delete or replace a short string at a random character boundary, with non-ASCII
//! characters among the inserted strings). Each edit is applied to the old tree with
//! `Tree::edit` (byte offsets and row/column points computed from the old and new text), the
//! text is re-parsed with the old tree, and the result must equal a fresh parse of the new
//! text: the same S-expression and the same byte range for every node, anonymous ones
//! included. That holds for trees without errors: where the old tree or the new one holds
//! one, tree-sitter's error recovery may differ with the subtrees it reuses, and the server
//! parses afresh (as this test then does).
//!
//! `CTLPGN_PROPTEST_CASES` overrides the number of cases (256 by default, about a second).

mod common;

use std::ops::ControlFlow;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::point_at;
use proptest::prelude::*;
use tree_sitter::{InputEdit, ParseOptions, Parser, Point, Tree};

/// Parses `text` (incrementally when `old` is given), failing instead of hanging when the
/// parse does not finish within a few seconds.
fn parse(parser: &mut Parser, text: &str, old: Option<&Tree>) -> Tree {
    const LIMIT: Duration = Duration::from_secs(5);
    let start = Instant::now();
    let bytes = text.as_bytes();
    let mut read = |offset: usize, _: Point| &bytes[offset.min(bytes.len())..];
    let mut give_up = |_: &tree_sitter::ParseState| {
        if start.elapsed() > LIMIT {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut give_up);
    parser.parse_with_options(&mut read, old, Some(options)).unwrap_or_else(|| {
        panic!(
            "the {} parse did not finish within {LIMIT:?} (an endless loop?) on:\n{text}",
            if old.is_some() { "incremental" } else { "fresh" }
        )
    })
}

/// Strings inserted by the edits: move and comment syntax, line ends, non-ASCII characters.
const FRAGMENTS: &[&str] = &[
    " ",
    "\n",
    "\r\n",
    "\t",
    ",",
    ".",
    "..",
    "…",
    "×",
    "‐",
    "–",
    "◇",
    "♘",
    "♞",
    "☖",
    "🩐",
    "🩓",
    "!",
    "?",
    "?!",
    "!!",
    ":",
    "(=)",
    "+",
    "+∞",
    "+^",
    "#",
    "=D",
    "=&",
    "@",
    "@@",
    "x",
    "*",
    "-",
    "{",
    "}",
    "{ ",
    " }",
    "(",
    ")",
    "($[1] ",
    "$2",
    "[",
    "]",
    "\"",
    "\\",
    "~K",
    "~F14",
    "#14@B",
    "@W:",
    "E7-E13",
    "NE3-F8",
    "KRK-II",
    "12. ",
    "1? ",
    "3-0",
    "1-1",
    "[Variant \"C'escacs\"]\n",
    "\n[Variant \"x\"]\n",
    "[Event \"e\"]",
    "\n{ unclosed",
    "\n(1. F8-F12",
    "é",
    "\u{FEFF}",
];

/// The texts of the real game files, read once, and multi-record texts made of three
/// consecutive files (so that edits also fall next to record boundaries).
fn texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let files: Vec<String> =
            common::real_game_files().iter().map(|path| common::read(path)).collect();
        let joined: Vec<String> = files
            .chunks(3)
            .enumerate()
            .map(|(i, chunk)| chunk.join(if i % 2 == 0 { "\n" } else { "" }))
            .collect();
        files.into_iter().chain(joined).collect()
    })
}

#[derive(Debug, Clone)]
enum EditKind {
    Insert(&'static str),
    Delete(usize),
    Replace(usize, &'static str),
}

#[derive(Debug, Clone)]
struct Edit {
    /// Where the edit starts, as a fraction of the text's characters (0..=u16::MAX).
    at: u16,
    kind: EditKind,
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let fragment = prop::sample::select(FRAGMENTS);
    let kind = prop_oneof![
        fragment.clone().prop_map(EditKind::Insert),
        (1usize..12).prop_map(EditKind::Delete),
        ((1usize..8), fragment).prop_map(|(n, s)| EditKind::Replace(n, s)),
    ];
    (any::<u16>(), kind).prop_map(|(at, kind)| Edit { at, kind })
}

/// Applies `edit` to `text`; returns the new text and the matching `InputEdit`.
fn apply(text: &str, edit: &Edit) -> (String, InputEdit) {
    // Character boundaries, the end of the text included.
    let boundaries: Vec<usize> =
        text.char_indices().map(|(i, _)| i).chain(std::iter::once(text.len())).collect();
    let last = boundaries.len() - 1;
    let index = (usize::from(edit.at) * last) / usize::from(u16::MAX);
    let start = boundaries[index];
    let (removed_chars, inserted) = match edit.kind {
        EditKind::Insert(s) => (0, s),
        EditKind::Delete(n) => (n, ""),
        EditKind::Replace(n, s) => (n, s),
    };
    let old_end = boundaries[(index + removed_chars).min(last)];
    let mut new_text = String::with_capacity(text.len() + inserted.len());
    new_text.push_str(&text[..start]);
    new_text.push_str(inserted);
    new_text.push_str(&text[old_end..]);
    let new_end = start + inserted.len();
    let input_edit = InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point_at(text, start),
        old_end_position: point_at(text, old_end),
        new_end_position: point_at(&new_text, new_end),
    };
    (new_text, input_edit)
}

/// A node as compared: kind, field name, byte range, MISSING and ERROR flags.
type NodeSummary = (String, Option<String>, usize, usize, bool, bool);

/// Every node in pre-order, anonymous ones included.
fn all_nodes(tree: &Tree) -> Vec<NodeSummary> {
    let mut nodes = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        nodes.push((
            node.kind().to_string(),
            cursor.field_name().map(str::to_string),
            node.start_byte(),
            node.end_byte(),
            node.is_missing(),
            node.is_error(),
        ));
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return nodes;
            }
        }
    }
}

/// Describes the first difference between two node lists.
fn first_difference(incremental: &[NodeSummary], fresh: &[NodeSummary]) -> String {
    for (i, (a, b)) in incremental.iter().zip(fresh).enumerate() {
        if a != b {
            return format!("node {i}: incremental {a:?}, fresh {b:?}");
        }
    }
    format!("{} nodes incrementally, {} fresh", incremental.len(), fresh.len())
}

fn cases() -> u32 {
    std::env::var("CTLPGN_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn incremental_parse_equals_fresh_parse(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_strategy(), 1..5),
    ) {
        let texts = texts();
        let mut text = texts[file.index(texts.len())].clone();
        let mut parser = common::new_parser();
        let mut tree = parse(&mut parser, &text, None);
        for edit in &edits {
            let (new_text, input_edit) = apply(&text, edit);
            let old_had_error = tree.root_node().has_error();
            tree.edit(&input_edit);
            let incremental = parse(&mut parser, &new_text, Some(&tree));
            let fresh = parse(&mut parser, &new_text, None);
            if old_had_error || incremental.root_node().has_error() {
                // Error recovery depends on the subtrees an incremental parse reuses
                // (`10.(=) X` made `10×.(=) X` gave a variation incrementally, a move line
                // afresh), so the server parses such a text afresh (the document's
                // `incremental::parse`), and so does this test before the next edit.
                text = new_text;
                tree = fresh;
                continue;
            }
            let (a, b) = (incremental.root_node().to_sexp(), fresh.root_node().to_sexp());
            prop_assert_eq!(&a, &b, "S-expressions differ after {:?} ({:?})", edit, input_edit);
            let (a, b) = (all_nodes(&incremental), all_nodes(&fresh));
            prop_assert!(a == b, "node ranges differ after {:?} ({:?}): {}",
                edit, input_edit, first_difference(&a, &b));
            text = new_text;
            tree = incremental;
        }
    }
}

#[test]
fn points_count_bytes_per_line() {
    let text = "ab\n×c\n";
    assert_eq!(point_at(text, 0), Point::new(0, 0));
    assert_eq!(point_at(text, 3), Point::new(1, 0));
    assert_eq!(point_at(text, 5), Point::new(1, 2)); // `×` is two bytes
    assert_eq!(point_at(text, text.len()), Point::new(2, 0));
    let edit = Edit { at: u16::MAX, kind: EditKind::Replace(3, "🩐") };
    let (new_text, input_edit) = apply(text, &edit);
    assert_eq!(new_text, format!("{text}🩐"));
    assert_eq!(input_edit.start_byte, text.len());
    assert_eq!(input_edit.new_end_byte, text.len() + 4);
    assert_eq!(input_edit.new_end_position, Point::new(2, 4));
}

/// A regression: a syntax error just before a record boundary, produced by an edit. With a
/// scanner that offered `_record_end` and `_record_start` by turns during error recovery, the
/// incremental re-parse looped forever.
#[test]
fn an_error_before_a_record_boundary_does_not_loop() {
    let text = "[Variant \"a\"]\n1. E7-E13, DF24-F10#\n0-3\n[Variant \"b\"]\n1. E7-E13:\n*\n";
    let start = text.find("F10#").expect("the sample has F10#");
    let new_text = format!("{}12. {}", &text[..start], &text[start + 3..]);
    let input_edit = InputEdit {
        start_byte: start,
        old_end_byte: start + 3,
        new_end_byte: start + 4,
        start_position: point_at(text, start),
        old_end_position: point_at(text, start + 3),
        new_end_position: point_at(&new_text, start + 4),
    };
    let mut parser = common::new_parser();
    let mut tree = parse(&mut parser, text, None);
    tree.edit(&input_edit);
    let incremental = parse(&mut parser, &new_text, Some(&tree));
    let fresh = parse(&mut parser, &new_text, None);
    assert_eq!(incremental.root_node().to_sexp(), fresh.root_node().to_sexp());
    assert!(fresh.root_node().has_error());
    // The error stays in the first record; the second one is intact.
    let root = fresh.root_node();
    assert_eq!(root.named_child_count(), 2);
    let second = root.named_child(1).expect("a second record");
    assert_eq!(second.kind(), "record");
    assert!(!second.has_error());
}

/// The whole-file tree reuses the records that follow an edit: only the edited record is
/// re-read, and the changed ranges cover the inserted character only.
#[test]
fn records_after_an_edit_are_reused() {
    let record = |n: usize| {
        format!(
            "[Variant \"C'escacs\"]\n[Round \"{n}\"]\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16:\n*\n"
        )
    };
    let text: String = (0..50).map(record).collect::<Vec<_>>().join("\n");
    let record_20 = text.find("[Round \"20\"]").expect("record 20");
    let at = record_20 + text[record_20..].find("E21-E15").expect("a move") + "E21-E15".len();
    let new_text = format!("{}!{}", &text[..at], &text[at..]);
    let input_edit = InputEdit {
        start_byte: at,
        old_end_byte: at,
        new_end_byte: at + 1,
        start_position: point_at(&text, at),
        old_end_position: point_at(&text, at),
        new_end_position: point_at(&new_text, at + 1),
    };
    let mut parser = common::new_parser();
    let old = parse(&mut parser, &text, None);
    let mut edited = old.clone();
    edited.edit(&input_edit);
    let incremental = parse(&mut parser, &new_text, Some(&edited));
    assert_eq!(
        incremental.root_node().to_sexp(),
        parse(&mut parser, &new_text, None).root_node().to_sexp()
    );
    let changed: Vec<_> = edited.changed_ranges(&incremental).collect();
    assert_eq!(changed.len(), 1, "changed ranges: {changed:?}");
    assert_eq!((changed[0].start_byte, changed[0].end_byte), (at, at + 1));
    // The records after the edited one are reused whole: the re-parse reads (lexes) only a
    // few tokens of the edited record, not the tokens of the 29 records that follow it.
    let lexed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = std::sync::Arc::clone(&lexed);
    parser.set_logger(Some(Box::new(move |_, message| {
        if message.starts_with("lexed_lookahead") {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    })));
    let mut edited = old.clone();
    edited.edit(&input_edit);
    let _ = parse(&mut parser, &new_text, Some(&edited));
    parser.set_logger(None);
    let lexed = lexed.load(std::sync::atomic::Ordering::Relaxed);
    let tokens_per_record = 22; // 2 tags (4 tokens each), 2 move lines, a result
    assert!(
        lexed < 2 * tokens_per_record,
        "{lexed} tokens lexed again; the records after the edit are not reused"
    );
}
