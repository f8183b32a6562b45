//! The syntax of CTL-PGN as values: a file split into records, each record read on its own
//! into the syntax model (`model`: tags, move lines, comments, variations and results with
//! byte ranges), by the hand-written reader or, where it declines, by tree-sitter and the
//! lowering of its tree. Nothing here judges the content; `analysis` does.

pub mod chars;
mod lower;
mod model;
pub mod node_kind;
mod reader;
mod records;

pub use lower::lower_record;
pub use model::{
    movetext_start, Comment, Gap, HalfMoveText, Item, MoveLine, RecordSyntax, Reference,
    ReferenceKind, SpareHalfMoves, Step, Tag, Token, Variation, Walk,
};
pub use reader::{read_record, Reading, RecordReader};
pub use records::{opens_record, split_records};

/// A tree-sitter parser for CTL-PGN.
pub fn new_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_ctlpgn::LANGUAGE.into())
        .expect("the CTL-PGN grammar is built with an ABI this tree-sitter loads");
    parser
}

/// Parses the text of one record (or a whole file) into a tree; a parse always gives a tree.
pub fn parse(parser: &mut tree_sitter::Parser, text: &str) -> tree_sitter::Tree {
    parser.parse(text, None).expect("a parser with a language and no timeout always returns a tree")
}

/// The syntax of one record's text as tree-sitter reads it, with a parser of its own: for a
/// record read once (a test, a conversion's check of its output), where no parser is at hand.
pub fn parse_record(text: &str) -> RecordSyntax {
    parse_record_with(&mut new_parser(), text)
}

/// [`parse_record`] with a parser at hand, for records read one after the other: the tree is
/// lowered from the very text it was parsed from.
pub fn parse_record_with(parser: &mut tree_sitter::Parser, text: &str) -> RecordSyntax {
    lower_record(&parse(parser, text), text)
}
