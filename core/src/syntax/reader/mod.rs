//! A hand-written reader for well-formed records, the batch path's fast way to a record's
//! [`RecordSyntax`]: byte by byte, one pass, no tree, variations on an explicit stack. It gives
//! exactly the values that lowering the record's tree-sitter tree gives, or declines (`None`)
//! at the first thing it is not sure of (an error the tree would hold, or an unusual but
//! valid spelling it does not read): the caller then parses the record with tree-sitter, so
//! that broken records keep the tree's error recovery, ranges and diagnostics.

mod comment;
mod cursor;
mod half_move;
mod tag;

use cursor::Cursor;

use crate::syntax::chars::{is_space_or_tab_byte, is_white_space_byte, BYTE_ORDER_MARK};
use crate::syntax::{Item, MoveLine, RecordSyntax, SpareHalfMoves, Token, Variation};
use crate::text::TextRange;

/// Reads one record's text (as [`crate::syntax::split_records`] cuts it) into the syntax
/// values `lower_record(parse(text))` gives, or `None` when the record is not plainly
/// well-formed.
pub fn read_record(text: &str) -> Option<RecordSyntax> {
    read_record_with(text, &mut SpareHalfMoves::default())
}

/// [`read_record`] with the boxes of move lines' half-moves taken from `spares`.
fn read_record_with(text: &str, spares: &mut SpareHalfMoves) -> Option<RecordSyntax> {
    // Characters the grammar treats in ways not worth mirroring: the byte-order mark is a
    // blank to the grammar but not to the record split, and NUL is a lookahead of 0.
    if text.contains(BYTE_ORDER_MARK) || text.as_bytes().contains(&0) {
        return None;
    }
    let mut cursor = Cursor::new(text);
    cursor.skip_blanks();
    // A record opens with its `[Variant` tag (a headless record is left to the tree).
    let rest = &cursor.bytes[cursor.pos..];
    if !rest.starts_with(b"[Variant")
        || rest.get(8).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return None;
    }
    // An item takes a line or more, and an item is large (a move line is about 110 bytes):
    // room for them all at once spares moving them as the list grows.
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let mut record = RecordSyntax { items: Vec::with_capacity(lines), ..RecordSyntax::default() };
    // The variations being read, innermost last: where each sits (its body, or `None` for the
    // record's items, and its index there).
    let mut open: Vec<(Option<usize>, usize)> = Vec::new();
    loop {
        cursor.skip_spaces();
        let Some(byte) = cursor.byte() else { break };
        let body = open_body(&open, &record);
        let item_start = cursor.pos;
        let indentation = if byte == b'.' {
            let token = read_indentation(&mut cursor);
            if cursor.skip_spaces() {
                return None;
            }
            Some(token)
        } else {
            None
        };
        let item = match cursor.byte()? {
            b'[' if body.is_none() && indentation.is_none() => {
                Item::Tag(tag::read_tag(&mut cursor)?)
            }
            b'0'..=b'9' => match result_at(&cursor) {
                Some(end) if body.is_none() && indentation.is_none() => {
                    let result = Token { range: TextRange::new(cursor.pos, end) };
                    cursor.pos = end;
                    Item::Result(result)
                }
                Some(_) => return None,
                None => {
                    let container = container(&mut record, body);
                    container.push(Item::MoveLine(MoveLine::default()));
                    let Some(Item::MoveLine(line)) = container.last_mut() else { return None };
                    half_move::read_move_line(&mut cursor, indentation, line, spares)?;
                    continue;
                }
            },
            b'*' if body.is_none() && indentation.is_none() => {
                if !ends_token(&cursor, cursor.pos + 1) {
                    return None;
                }
                cursor.pos += 1;
                Item::Result(Token { range: TextRange::new(cursor.pos - 1, cursor.pos) })
            }
            b'{' => {
                let (comment, end) = comment::read_comment(text, indentation, cursor.pos)?;
                cursor.pos = end;
                Item::Comment(comment)
            }
            b'(' => {
                if cursor.byte_at(cursor.pos + 1) == Some(b'=') {
                    return None;
                }
                let open_at = cursor.pos;
                cursor.pos += 1;
                let label = read_label(&mut cursor)?;
                let variation = Variation {
                    range: TextRange::new(item_start, cursor.pos),
                    open: Token { range: TextRange::new(open_at, open_at + 1) },
                    label,
                    close: None,
                    body: record.bodies.len(),
                };
                record.bodies.push(Vec::new());
                let container = container(&mut record, body);
                container.push(Item::Variation(variation));
                open.push((body, container.len() - 1));
                continue;
            }
            b')' => {
                // A `)` closing nothing is left to the tree (M011).
                let (parent, index) = open.pop()?;
                let close = Token { range: TextRange::new(cursor.pos, cursor.pos + 1) };
                cursor.pos += 1;
                let Some(Item::Variation(variation)) =
                    container(&mut record, parent).get_mut(index)
                else {
                    return None;
                };
                variation.range.end = close.range.end;
                variation.close = Some(close);
                continue;
            }
            _ => return None,
        };
        container(&mut record, body).push(item);
    }
    // An unclosed variation is left to the tree (M011).
    open.is_empty().then_some(record)
}

/// The body the innermost open variation fills, `None` for the record's own items.
fn open_body(open: &[(Option<usize>, usize)], record: &RecordSyntax) -> Option<usize> {
    let &(parent, index) = open.last()?;
    let items = match parent {
        Some(body) => record.bodies.get(body)?,
        None => &record.items,
    };
    match items.get(index)? {
        Item::Variation(variation) => Some(variation.body),
        _ => None,
    }
}

fn container(record: &mut RecordSyntax, body: Option<usize>) -> &mut Vec<Item> {
    match body {
        Some(body) => &mut record.bodies[body],
        None => &mut record.items,
    }
}

/// Whether a token ending at `end` is followed by a blank, a line end or the end of the text.
fn ends_token(cursor: &Cursor<'_>, end: usize) -> bool {
    cursor.byte_at(end).is_none_or(is_white_space_byte)
}

/// Indentation `\.([ \t]*\.)*` at the cursor: from the first dot to the last.
fn read_indentation(cursor: &mut Cursor<'_>) -> Token {
    let start = cursor.pos;
    let mut end = start + 1;
    let mut at = end;
    loop {
        while cursor.byte_at(at).is_some_and(is_space_or_tab_byte) {
            at += 1;
        }
        if cursor.byte_at(at) != Some(b'.') {
            break;
        }
        at += 1;
        end = at;
    }
    cursor.pos = end;
    Token { range: TextRange::new(start, end) }
}

/// A result `D-D` (digits on both sides, as the grammar reads it leniently for M007) at the
/// cursor, standing alone; its end. Other spellings (`1/2-1/2`, `3 - 0`) are left to the tree.
fn result_at(cursor: &Cursor<'_>) -> Option<usize> {
    let mut at = cursor.pos;
    while cursor.byte_at(at).is_some_and(|b| b.is_ascii_digit()) {
        at += 1;
    }
    if cursor.byte_at(at) != Some(b'-') {
        return None;
    }
    at += 1;
    let digits = at;
    while cursor.byte_at(at).is_some_and(|b| b.is_ascii_digit()) {
        at += 1;
    }
    (at > digits && ends_token(cursor, at)).then_some(at)
}

/// The optional label `$[…]` right after a variation's `(`; `None` inside when there is none,
/// `None` outside when it is one the reader leaves to the tree.
fn read_label(cursor: &mut Cursor<'_>) -> Option<Option<Token>> {
    let mut probe = Cursor { text: cursor.text, bytes: cursor.bytes, pos: cursor.pos };
    probe.skip_spaces();
    if probe.byte() != Some(b'$') {
        return Some(None);
    }
    let start = probe.pos;
    if probe.byte_at(start + 1) != Some(b'[') {
        return None;
    }
    let mut at = start + 2;
    while let Some(b) = probe.byte_at(at) {
        if b == b']' {
            cursor.pos = at + 1;
            return Some(Some(Token { range: TextRange::new(start, at + 1) }));
        }
        if is_white_space_byte(b) || !b.is_ascii() {
            return None;
        }
        at += 1;
    }
    None
}

/// Which way records are read into syntax values where no tree is needed (the batch path).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reading {
    /// The hand-written reader, and tree-sitter for the records it declines.
    #[default]
    ReaderFirst,
    /// Tree-sitter for every record: the old path, kept to compare against (the command
    /// line's `CTLPGN_READER=tree-sitter`).
    TreeSitter,
}

/// Reads records into syntax values the way a [`Reading`] says, with a tree-sitter parser
/// made only when a record needs it.
#[derive(Default)]
pub struct RecordReader {
    reading: Reading,
    parser: Option<tree_sitter::Parser>,
    /// Boxes taken back from the records done with ([`RecordReader::recycle`]).
    spares: SpareHalfMoves,
}

impl std::fmt::Debug for RecordReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordReader").field("reading", &self.reading).finish_non_exhaustive()
    }
}

impl RecordReader {
    pub fn new(reading: Reading) -> RecordReader {
        RecordReader { reading, parser: None, spares: SpareHalfMoves::default() }
    }

    /// The syntax of one record's text.
    pub fn read(&mut self, text: &str) -> RecordSyntax {
        if self.reading == Reading::ReaderFirst {
            if let Some(record) = read_record_with(text, &mut self.spares) {
                return record;
            }
        }
        let parser = self.parser.get_or_insert_with(crate::syntax::new_parser);
        crate::syntax::parse_record_with(parser, text)
    }

    /// Drops a record read before, keeping the boxes of its move lines' half-moves for the
    /// records read next.
    pub fn recycle(&mut self, record: RecordSyntax) {
        record.recycle_into(&mut self.spares);
    }
}
