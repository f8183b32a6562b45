//! The semantic classification of a document: which leaves of each record's tree carry
//! meaning, with what type and modifiers, as byte ranges of the record's text. A record the
//! hand-written reader accepts is classified from its syntax values, with no tree parsed (the
//! same tokens: a test compares both ways); the others from their tree. Nothing here knows the
//! protocol; the protocol layer's `semantic_tokens.rs` names the types in the legend and
//! encodes the tokens.

use std::ops::Range;

use std::sync::Arc;

use crate::document::{Document, Record, RecordState};
use crate::syntax::chars::is_white_space;
use crate::syntax::{node_kind, Comment, HalfMoveText, Item, RecordSyntax, ReferenceKind, Token};
use crate::text::TextRange;

/// The token types, in legend order: the value is the index the protocol sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenType {
    /// A tag name: `property`.
    TagName,
    /// A tag value, quotes included: `string`.
    TagValue,
    /// A move number (`12.`, `1?`): `number`.
    MoveNumber,
    /// A piece identifier, moving or captured, in a promotion or a `~` reference: `type`.
    Piece,
    /// A coordinate, in a half-move or a `~` reference, and `@W`/`@B` references: `variable`.
    Coordinate,
    /// A move separator, the ellipsis and the `=` of a promotion: `operator`.
    Operator,
    /// Castling, check suffixes and comment markers (`@W:`, `:`): `keyword`.
    Keyword,
    /// Move references in comments (`#14@B`, `#12.2`) and variation labels (`$[2]`): `macro`.
    Reference,
    /// A result (`3-0`, `*`): `enumMember`.
    Result,
    /// A game indicator (`:`, `(=)`, `(=):`): `event`.
    Indicator,
    /// A comment's braces and text: `comment`.
    Comment,
    /// A rating (`!?`, `◇`) or a NAG (`$24`): `decorator`.
    Annotation,
}

impl TokenType {
    /// Every type, in legend order.
    pub const ALL: [TokenType; 12] = [
        TokenType::TagName,
        TokenType::TagValue,
        TokenType::MoveNumber,
        TokenType::Piece,
        TokenType::Coordinate,
        TokenType::Operator,
        TokenType::Keyword,
        TokenType::Reference,
        TokenType::Result,
        TokenType::Indicator,
        TokenType::Comment,
        TokenType::Annotation,
    ];
}

/// The modifier bits a token may carry; the legend lists the modifiers in this order.
pub const CAPTURE: u8 = 1;
pub const CHECK: u8 = 1 << 1;
pub const PROMOTION: u8 = 1 << 2;
pub const DECLARATION: u8 = 1 << 3;
pub const DEFAULT_LIBRARY: u8 = 1 << 4;

/// One classified token of a record: its byte range in the record's text, its type and its
/// modifier bits. Twelve bytes: a document's tokens are kept with its records from the time
/// it is opened, 700,000 of them for a 2 MB file, and a record's offsets fit in 32 bits (the
/// server takes no message over 256 MiB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifiedToken {
    start: u32,
    end: u32,
    pub token_type: TokenType,
    pub modifiers: u8,
}

// What the compact layout is for.
const _: () = assert!(std::mem::size_of::<ClassifiedToken>() == 12);

impl ClassifiedToken {
    pub fn new(range: TextRange, token_type: TokenType, modifiers: u8) -> ClassifiedToken {
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        ClassifiedToken {
            start: offset(range.start),
            end: offset(range.end),
            token_type,
            modifiers,
        }
    }

    /// The byte range in the record's text.
    pub fn range(&self) -> TextRange {
        TextRange::new(self.start as usize, self.end as usize)
    }
}

/// The tokens of a record's tree, in text order and never overlapping: the tree's leaves that
/// carry meaning (punctuation such as brackets and commas, and indentation, are left to the
/// editor's own colouring).
pub fn classify(text: &str, tree: &tree_sitter::Tree) -> Vec<ClassifiedToken> {
    let mut classified = Vec::new();
    let mut cursor = tree.walk();
    // The kinds of the nodes the cursor stands in, innermost last: a node's `parent()` walks
    // down from the root, which would cost the depth of nesting for every brace.
    let mut parents: Vec<&str> = Vec::new();
    loop {
        let node = cursor.node();
        let parent = parents.last().copied();
        let descend = classify_node(text, node, parent, cursor.field_name(), &mut classified);
        if descend && cursor.goto_first_child() {
            parents.push(node.kind());
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return classified;
            }
            parents.pop();
        }
    }
}

/// Adds the tokens of one node; `true` when its children are still to be looked at.
fn classify_node(
    text: &str,
    node: tree_sitter::Node<'_>,
    parent: Option<&str>,
    field: Option<&str>,
    out: &mut Vec<ClassifiedToken>,
) -> bool {
    let range = Token::of(node).range;
    let mut push = |range: TextRange, token_type: TokenType, modifiers: u8| {
        if !range.is_empty() {
            out.push(ClassifiedToken::new(range, token_type, modifiers));
        }
    };
    let token_type = match node.kind() {
        node_kind::TAG_NAME => TokenType::TagName,
        node_kind::TAG_VALUE => TokenType::TagValue,
        node_kind::MOVE_NUMBER => TokenType::MoveNumber,
        node_kind::ELLIPSIS => TokenType::Operator,
        node_kind::COORDINATE | node_kind::HEX_REFERENCE => TokenType::Coordinate,
        node_kind::PIECE_REFERENCE => TokenType::Piece,
        node_kind::CASTLING | node_kind::COMMENT_MARKER => TokenType::Keyword,
        node_kind::RATING | node_kind::NAG => TokenType::Annotation,
        node_kind::INDICATOR => TokenType::Indicator,
        node_kind::RESULT => TokenType::Result,
        node_kind::MOVE_REFERENCE => TokenType::Reference,
        node_kind::COMMENT_TEXT => TokenType::Comment,
        node_kind::PIECE => {
            push(range, TokenType::Piece, if field == Some("captured") { CAPTURE } else { 0 });
            return false;
        }
        node_kind::SEPARATOR => {
            let capture = matches!(text.get(range.to_range()), Some("×" | "*" | "x" | "@" | "@@"));
            push(range, TokenType::Operator, if capture { CAPTURE } else { 0 });
            return false;
        }
        node_kind::CHECK => {
            push(range, TokenType::Keyword, CHECK);
            return false;
        }
        node_kind::PROMOTION => {
            // `=D`: the sign is an operator, the piece after it a type.
            let sign = range.start
                + text
                    .get(range.to_range())
                    .and_then(|written| written.chars().next())
                    .map_or(0, char::len_utf8);
            push(TextRange::new(range.start, sign), TokenType::Operator, PROMOTION);
            push(TextRange::new(sign, range.end), TokenType::Piece, PROMOTION);
            return false;
        }
        node_kind::LABEL => {
            push(range, TokenType::Reference, DECLARATION);
            return false;
        }
        node_kind::PLAYER_REFERENCE => {
            push(range, TokenType::Coordinate, DEFAULT_LIBRARY);
            return false;
        }
        node_kind::OPEN_BRACE | node_kind::CLOSE_BRACE if parent == Some(node_kind::COMMENT) => {
            TokenType::Comment
        }
        _ => return node.child_count() > 0,
    };
    push(range, token_type, 0);
    false
}

/// The tokens of a record the hand-written reader accepted, from its syntax: what
/// [`classify`] finds in the record's tree (a test compares both on every record of the
/// repository and on generated ones), without parsing it.
pub fn classify_syntax(text: &str, record: &RecordSyntax) -> Vec<ClassifiedToken> {
    // A token every three bytes or so, in movetext: room for them at once, and the list is
    // kept with the record at its length.
    let mut classified = Vec::with_capacity(text.len() / 2);
    let mut push = |token: Option<&Token>, token_type: TokenType, modifiers: u8| {
        if let Some(token) = token.filter(|token| !token.range.is_empty()) {
            classified.push(ClassifiedToken::new(token.range, token_type, modifiers));
        }
    };
    for item in std::iter::once(&record.items).chain(&record.bodies).flatten() {
        match item {
            Item::Tag(tag) => {
                push(Some(&tag.name), TokenType::TagName, 0);
                push(tag.value.as_ref(), TokenType::TagValue, 0);
            }
            Item::MoveLine(line) => {
                push(Some(&line.number), TokenType::MoveNumber, 0);
                push(line.ellipsis.as_ref(), TokenType::Operator, 0);
                for half_move in line.half_moves() {
                    half_move_tokens(text, half_move, &mut push);
                }
            }
            Item::Comment(comment) => comment_tokens(text, comment, &mut push),
            Item::Variation(variation) => {
                push(variation.label.as_ref(), TokenType::Reference, DECLARATION);
            }
            Item::Result(result) => push(Some(result), TokenType::Result, 0),
            Item::StrayClose(_) | Item::Error(_) => {}
        }
    }
    // Each item's tokens are in text order, the variations' bodies after the record's items;
    // no two tokens start at the same place.
    if !record.bodies.is_empty() {
        classified.sort_unstable_by_key(|token| token.start);
    }
    classified.shrink_to_fit();
    classified
}

/// The tokens of a half-move, as [`classify_node`] gives its leaves.
fn half_move_tokens(
    text: &str,
    half_move: &HalfMoveText,
    push: &mut impl FnMut(Option<&Token>, TokenType, u8),
) {
    push(half_move.piece.as_ref(), TokenType::Piece, 0);
    push(half_move.origin.as_ref(), TokenType::Coordinate, 0);
    if let Some(separator) = &half_move.separator {
        let capture = matches!(separator.text(text), "×" | "*" | "x" | "@" | "@@");
        push(Some(separator), TokenType::Operator, if capture { CAPTURE } else { 0 });
    }
    push(half_move.captured.as_ref(), TokenType::Piece, CAPTURE);
    push(half_move.destination.as_ref(), TokenType::Coordinate, 0);
    if let Some(promotion) = &half_move.promotion {
        // `=D`: the sign is an operator, the piece after it a type.
        let range = promotion.range;
        let sign = range.start + promotion.text(text).chars().next().map_or(0, char::len_utf8);
        push(
            Some(&Token { range: TextRange::new(range.start, sign) }),
            TokenType::Operator,
            PROMOTION,
        );
        push(Some(&Token { range: TextRange::new(sign, range.end) }), TokenType::Piece, PROMOTION);
    }
    push(half_move.castling.as_ref(), TokenType::Keyword, 0);
    push(half_move.check.as_ref(), TokenType::Keyword, CHECK);
    push(half_move.rating.as_ref(), TokenType::Annotation, 0);
    push(half_move.nag.as_ref(), TokenType::Annotation, 0);
    push(half_move.indicator.as_ref(), TokenType::Indicator, 0);
}

/// The tokens of a comment: its braces and marker, its references, and its text between them
/// as the grammar's scanner cuts it (from the first character that is not a blank or a line
/// end to the last, between two references or braces).
fn comment_tokens(
    text: &str,
    comment: &Comment,
    push: &mut impl FnMut(Option<&Token>, TokenType, u8),
) {
    push(Some(&comment.open), TokenType::Comment, 0);
    push(comment.marker.as_ref(), TokenType::Keyword, 0);
    let close_start = comment.range.end - usize::from(comment.closed);
    let mut text_from = comment.marker.as_ref().unwrap_or(&comment.open).range.end;
    let comment_text = |from: usize, to: usize| {
        let part = &text[from..to.max(from)];
        let start = from + (part.len() - part.trim_start_matches(is_white_space).len());
        let end = from + part.trim_end_matches(is_white_space).len();
        Token { range: TextRange::new(start, end.max(start)) }
    };
    for reference in &comment.references {
        push(Some(&comment_text(text_from, reference.range.start)), TokenType::Comment, 0);
        text_from = reference.range.end;
        let (token_type, modifiers) = match reference.kind {
            ReferenceKind::Player => (TokenType::Coordinate, DEFAULT_LIBRARY),
            ReferenceKind::Move => (TokenType::Reference, 0),
            ReferenceKind::Hex => (TokenType::Coordinate, 0),
            ReferenceKind::Piece => (TokenType::Piece, 0),
            ReferenceKind::Nag => (TokenType::Annotation, 0),
        };
        push(Some(&Token { range: reference.range }), token_type, modifiers);
    }
    push(Some(&comment_text(text_from, close_start)), TokenType::Comment, 0);
    if comment.closed {
        push(
            Some(&Token { range: TextRange::new(close_start, comment.range.end) }),
            TokenType::Comment,
            0,
        );
    }
}

/// Classifies a record's tokens as the record is read with the others of its document (see
/// [`crate::document::Prepare`]): a client that shows semantic tokens asks for the whole
/// document's as soon as it is open, and reading every record again for them cost more than
/// classifying them.
pub fn prepare(state: &RecordState, syntax: &RecordSyntax) {
    state.derived.keep(RecordTokens(classify_syntax(&state.text, syntax)));
}

/// A record's tokens, derived once per record text (kept with the record's state).
#[derive(Debug)]
struct RecordTokens(Vec<ClassifiedToken>);

/// Some of a record's tokens: a run of them, in text order.
#[derive(Clone, Debug)]
pub struct TokenRun {
    all: Arc<RecordTokens>,
    run: Range<usize>,
}

impl TokenRun {
    pub fn as_slice(&self) -> &[ClassifiedToken] {
        &self.all.0[self.run.clone()]
    }
}

/// The tokens of a document's records, record by record, with byte ranges of each record's
/// text; with `range` (a byte range of the document), only the records and tokens it touches.
/// Each record is classified once per text: after a keystroke, the edited record alone is
/// read and classified again (on every core when many records lack their tokens).
pub fn document_tokens(document: &Document, range: Option<TextRange>) -> Vec<(&Record, TokenRun)> {
    let from_syntax = |record: &Record, syntax: &RecordSyntax| {
        RecordTokens(classify_syntax(&record.state.text, syntax))
    };
    let from_tree = |record: &Record, tree: &tree_sitter::Tree| {
        RecordTokens(classify(&record.state.text, tree))
    };
    match range {
        None => document
            .records()
            .iter()
            .zip(document.map_derived_read(from_syntax, from_tree))
            .map(|(record, all)| {
                let run = 0..all.0.len();
                (record, TokenRun { all, run })
            })
            .collect(),
        Some(range) => document
            .records()
            .iter()
            .filter(|record| record.range.end >= range.start && record.range.start <= range.end)
            .map(|record| {
                let all = document.derived_read(record, from_syntax, from_tree);
                // The tokens are in text order and never overlap: the ones the range touches
                // are a run.
                let from = all
                    .0
                    .partition_point(|token| record.in_document(token.range()).end <= range.start);
                let to = all
                    .0
                    .partition_point(|token| record.in_document(token.range()).start < range.end);
                (record, TokenRun { all, run: from..to.max(from) })
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::RuleChecks;
    use crate::document::Prepare;
    use crate::syntax;

    /// The tokens of a record as `(text, type, modifiers)`.
    fn tokens(text: &str) -> Vec<(&str, TokenType, u8)> {
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        classify(text, &tree)
            .into_iter()
            .map(|h| (&text[h.range()], h.token_type, h.modifiers))
            .collect()
    }

    #[test]
    fn every_part_of_a_half_move_is_classified() {
        use TokenType::*;
        let text = "[Variant \"C'escacs\"]\n1. EF12×NF14+^ !?(=), B22-B24=D:\n*\n";
        assert_eq!(
            tokens(text),
            [
                ("Variant", TagName, 0),
                ("\"C'escacs\"", TagValue, 0),
                ("1.", MoveNumber, 0),
                ("E", Piece, 0),
                ("F12", Coordinate, 0),
                ("×", Operator, CAPTURE),
                ("N", Piece, CAPTURE),
                ("F14", Coordinate, 0),
                ("+^", Keyword, CHECK),
                ("!?", Annotation, 0),
                ("(=)", Indicator, 0),
                ("B22", Coordinate, 0),
                ("-", Operator, 0),
                ("B24", Coordinate, 0),
                ("=", Operator, PROMOTION),
                ("D", Piece, PROMOTION),
                (":", Indicator, 0),
                ("*", Result, 0),
            ]
        );
    }

    #[test]
    fn comments_variations_and_castling_are_classified() {
        use TokenType::*;
        let text = "[Variant \"C'escacs\"]\n1. …, KRK-II\n{ @B: see #1@B and ~F14 or ~g, $24 }\n($[2] 1. …, E21-E19)\n*\n";
        let found = tokens(text);
        let expected = [
            ("…", Operator, 0),
            ("KRK-II", Keyword, 0),
            ("{", Comment, 0),
            ("@B:", Keyword, 0),
            ("#1@B", Reference, 0),
            ("~F14", Coordinate, 0),
            ("~g", Piece, 0),
            ("$24", Annotation, 0),
            ("}", Comment, 0),
            ("$[2]", Reference, DECLARATION),
        ];
        for token in expected {
            assert!(found.contains(&token), "{token:?} in {found:?}");
        }
        assert!(
            found.iter().any(|(text, kind, _)| *kind == Comment && text.contains("see")),
            "{found:?}"
        );
        assert!(
            found.windows(2).all(|pair| pair[0].0.as_ptr() < pair[1].0.as_ptr()),
            "in text order"
        );
    }

    /// Only the records the hand-written reader reads are classified as a document opens: the
    /// others' tokens come from their tree, parsed when asked (`ide::tests` compares what is
    /// prepared with what is derived).
    #[test]
    fn tokens_are_prepared_for_the_records_the_reader_reads() {
        let records = [
            "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n{ #1@B: ~F14 }\n2. F8×F12 !?\n*\n\n",
            "[Variant \"C'escacs\"]\n1. E7 -E13 \u{d7} ((\n\n",
        ];
        let text = records.concat().repeat(crate::parallel::SHARED_FROM * 2);
        let prepared = Document::read(&text, 1, RuleChecks::Skip, [prepare as Prepare].into());
        for record in prepared.records() {
            let kept = record.state.derived.get::<RecordTokens>().is_some();
            assert_eq!(kept, syntax::read_record(&record.state.text).is_some());
        }
    }
}
