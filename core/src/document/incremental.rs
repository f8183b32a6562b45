//! A record's tree parsed incrementally from the tree of the text it replaces: the edit
//! between the two texts, and the rule that a tree with errors is parsed afresh.

use tree_sitter::{InputEdit, Point};

use crate::syntax;

/// The tree of a text, incrementally from a previous text's tree when there is one.
///
/// Tree-sitter's error recovery depends on the subtrees an incremental parse reuses: after
/// deleting the `2` of a line `2. (=)`, the incremental parse read `(=)` as a variation and
/// the fresh one as stray tokens, and the two gave different diagnostics. Only a tree
/// without errors is the same however it was reached, so when the old tree or the new one
/// holds an error the text is parsed afresh: the document must say what a fresh open of
/// the same text says. Records with errors are few and small, and a parse is a fraction of
/// a millisecond.
pub fn parse(
    parser: &mut tree_sitter::Parser,
    text: &str,
    previous: Option<(&str, &tree_sitter::Tree)>,
) -> tree_sitter::Tree {
    match previous {
        Some((previous_text, previous)) if !previous.root_node().has_error() => {
            let mut old_tree = previous.clone();
            old_tree.edit(&edit_between(previous_text, text));
            match parser.parse(text, Some(&old_tree)) {
                Some(tree) if !tree.root_node().has_error() => tree,
                _ => syntax::parse(parser, text),
            }
        }
        _ => syntax::parse(parser, text),
    }
}

/// The edit that turns `old` into `new`: the run between their common prefix and their
/// common suffix, both cut at character boundaries. A keystroke changes one run, and
/// tree-sitter only needs to know which bytes changed.
fn edit_between(old: &str, new: &str) -> InputEdit {
    let boundary = |offset: usize, from_end: bool| {
        if from_end {
            old.is_char_boundary(old.len() - offset) && new.is_char_boundary(new.len() - offset)
        } else {
            old.is_char_boundary(offset) && new.is_char_boundary(offset)
        }
    };
    let mut prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !boundary(prefix, false) {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix =
        old.bytes().rev().zip(new.bytes().rev()).take(room).take_while(|(a, b)| a == b).count();
    while !boundary(suffix, true) {
        suffix -= 1;
    }
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    }
}

/// The tree-sitter point of a byte offset: rows end at `\n`, columns are bytes.
fn point(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    Point::new(before.iter().filter(|&&b| b == b'\n').count(), offset - row_start)
}
