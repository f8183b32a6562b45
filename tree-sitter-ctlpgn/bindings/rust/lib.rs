//! The tree-sitter grammar of CTL-PGN, the game-record format of C'escacs, for Rust.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_ctlpgn::LANGUAGE.into()).expect("the grammar loads");
//! let tree = parser.parse("[Variant \"C'escacs\"]\n1. E7-E13:\n*\n", None).expect("a tree");
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_ctlpgn() -> *const ();
}

/// The tree-sitter [`LanguageFn`] of this grammar.
#[allow(unsafe_code)] // The one call into the generated C parser.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_ctlpgn) };

/// The content of this grammar's `node-types.json`: the kinds of its nodes, their fields and
/// children.
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// The syntax-highlighting query of this grammar.
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// The folding query of this grammar.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");

#[cfg(test)]
mod tests {
    #[test]
    fn the_language_loads() {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&super::LANGUAGE.into()).expect("the CTL-PGN grammar loads");
    }
}
