//! Incremental parsing gives the same tree as a fresh parse.
//!
//! Real game texts (the shared corpus and the handbook examples) receive random small edits
//! (insert, delete or replace a short string at a random character boundary, with non-ASCII
//! characters among the inserted strings). Each edit is applied to the old tree with
//! `Tree::edit` (byte offsets and row/column points computed from the old and new text), the
//! text is re-parsed with the old tree, and the result must equal a fresh parse of the new
//! text: the same S-expression and the same byte range for every node, anonymous ones
//! included.
//!
//! `CTLPGN_PROPTEST_CASES` overrides the number of cases (64 by default).

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use tree_sitter::{InputEdit, Point, Tree};

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

/// The texts of the real game files, read once.
fn texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        common::real_game_files()
            .iter()
            .map(|path| common::read(path))
            .collect()
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

/// The row/column point of a byte offset (columns count bytes, as in tree-sitter).
fn point_at(text: &str, byte: usize) -> Point {
    let before = &text.as_bytes()[..byte];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    Point::new(row, byte - line_start)
}

/// Applies `edit` to `text`; returns the new text and the matching `InputEdit`.
fn apply(text: &str, edit: &Edit) -> (String, InputEdit) {
    // Character boundaries, the end of the text included.
    let boundaries: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .collect();
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

/// Every node in pre-order, anonymous ones included: kind, field name, byte range, flags.
fn all_nodes(tree: &Tree) -> Vec<(String, Option<&'static str>, usize, usize, bool, bool)> {
    let mut nodes = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        nodes.push((
            node.kind().to_string(),
            cursor.field_name(),
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
fn first_difference(
    incremental: &[(String, Option<&'static str>, usize, usize, bool, bool)],
    fresh: &[(String, Option<&'static str>, usize, usize, bool, bool)],
) -> String {
    for (i, (a, b)) in incremental.iter().zip(fresh).enumerate() {
        if a != b {
            return format!("node {i}: incremental {a:?}, fresh {b:?}");
        }
    }
    format!(
        "{} nodes incrementally, {} fresh",
        incremental.len(),
        fresh.len()
    )
}

fn cases() -> u32 {
    std::env::var("CTLPGN_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
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
        let mut tree = parser.parse(&text, None).expect("a tree");
        for edit in &edits {
            let (new_text, input_edit) = apply(&text, edit);
            tree.edit(&input_edit);
            let incremental = parser.parse(&new_text, Some(&tree)).expect("an incremental tree");
            let fresh = parser.parse(&new_text, None).expect("a fresh tree");
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
    let edit = Edit {
        at: u16::MAX,
        kind: EditKind::Replace(3, "🩐"),
    };
    let (new_text, input_edit) = apply(text, &edit);
    assert_eq!(new_text, format!("{text}🩐"));
    assert_eq!(input_edit.start_byte, text.len());
    assert_eq!(input_edit.new_end_byte, text.len() + 4);
    assert_eq!(input_edit.new_end_position, Point::new(2, 4));
}
