//! Semantic tokens (`textDocument/semanticTokens/full` and `/range`): the legend announced at
//! `initialize` and the encoding of a document's tokens as the protocol's relative five-number
//! groups in the negotiated position encoding; `ide::semantic` finds the tokens in each
//! record's tree.
//!
//! The token types are the protocol's standard ones, so that any theme colours them: pieces
//! are types, coordinates variables, separators operators, and so on (see [`TokenType`]). Three
//! custom modifiers say more for themes that want it: `capture` (`×` and the captured piece),
//! `check` and `promotion`; the standard `declaration` marks a variation's label (which
//! references name) and `defaultLibrary` the player references `@W`, `@B`. Most clients cannot
//! show a token that spans lines, so a comment's text running over several lines is sent as
//! one token per line.

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensFullOptions,
    SemanticTokensLegend, SemanticTokensOptions, SemanticTokensServerCapabilities,
};

use super::encoding::PositionEncoding;
use super::to_proto;
use ctlpgn_core::document::Document;
use ctlpgn_core::document::Record;
use ctlpgn_core::ide::semantic::{
    document_tokens, ClassifiedToken, TokenRun, TokenType, CAPTURE, CHECK, DECLARATION,
    DEFAULT_LIBRARY, PROMOTION,
};
use ctlpgn_core::parallel;
use ctlpgn_core::text::TextRange;

/// The standard protocol type a token is sent as.
fn protocol(token_type: TokenType) -> SemanticTokenType {
    match token_type {
        TokenType::TagName => SemanticTokenType::PROPERTY,
        TokenType::TagValue => SemanticTokenType::STRING,
        TokenType::MoveNumber => SemanticTokenType::NUMBER,
        TokenType::Piece => SemanticTokenType::TYPE,
        TokenType::Coordinate => SemanticTokenType::VARIABLE,
        TokenType::Operator => SemanticTokenType::OPERATOR,
        TokenType::Keyword => SemanticTokenType::KEYWORD,
        TokenType::Reference => SemanticTokenType::MACRO,
        TokenType::Result => SemanticTokenType::ENUM_MEMBER,
        TokenType::Indicator => SemanticTokenType::EVENT,
        TokenType::Comment => SemanticTokenType::COMMENT,
        TokenType::Annotation => SemanticTokenType::DECORATOR,
    }
}

/// The modifiers in legend order, each with the bit `classify` sets for it (the bit of the
/// modifier at index `i` is `1 << i`).
fn modifiers() -> [(u8, SemanticTokenModifier); 5] {
    [
        (CAPTURE, SemanticTokenModifier::new("capture")),
        (CHECK, SemanticTokenModifier::new("check")),
        (PROMOTION, SemanticTokenModifier::new("promotion")),
        (DECLARATION, SemanticTokenModifier::DECLARATION),
        (DEFAULT_LIBRARY, SemanticTokenModifier::DEFAULT_LIBRARY),
    ]
}

/// The legend announced at `initialize`.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TokenType::ALL.into_iter().map(protocol).collect(),
        token_modifiers: modifiers().into_iter().map(|(_, modifier)| modifier).collect(),
    }
}

/// The capability announced at `initialize`: whole documents and ranges. Deltas, which the
/// protocol makes optional, are not offered: they would need every answer kept per document,
/// and the whole answer is computed from the records' trees in one pass.
pub fn capability() -> SemanticTokensServerCapabilities {
    SemanticTokensServerCapabilities::SemanticTokensOptions(SemanticTokensOptions {
        legend: legend(),
        range: Some(true),
        full: Some(SemanticTokensFullOptions::Bool(true)),
        ..SemanticTokensOptions::default()
    })
}

/// The tokens of a document, or of the part of it within `range` (a byte range), encoded for
/// the protocol: tokens split at line ends, positions relative to the previous token.
pub fn encode(
    document: &Document,
    range: Option<TextRange>,
    encoding: PositionEncoding,
) -> Vec<SemanticToken> {
    let classified = document_tokens(document, range);
    // The records are encoded on every core, each share from its own first token, placed
    // as if nothing came before it; joining the shares makes each one's first token relative
    // to the last token of the share before. Encoding 700,000 tokens took as long as reading
    // and classifying the records.
    let shares = parallel::map_chunks(&classified, |records| {
        vec![encode_records(document, records, encoding)]
    });
    let count = shares.iter().map(|share| share.tokens.len()).sum();
    let mut tokens = Vec::with_capacity(count);
    let mut previous = (0, 0);
    for share in shares {
        let mut share_tokens = share.tokens.into_iter();
        let Some(first) = share_tokens.next() else { continue };
        // Relative to (0, 0), the first token's deltas are its line and start.
        let (line, start) = (first.delta_line, first.delta_start);
        let delta_line = line - previous.0;
        let delta_start = if delta_line == 0 { start - previous.1 } else { start };
        tokens.push(SemanticToken { delta_line, delta_start, ..first });
        tokens.extend(share_tokens);
        previous = share.last;
    }
    tokens
}

/// The tokens of some consecutive records, the first placed relative to the document's start.
fn encode_records(
    document: &Document,
    records: &[(&Record, TokenRun)],
    encoding: PositionEncoding,
) -> Encoder {
    // At least one protocol token per classified token: room for them at once spares copying
    // millions of them as the list grows.
    let count = records.iter().map(|(_, run)| run.as_slice().len()).sum();
    let mut encoder = Encoder { tokens: Vec::with_capacity(count), last: (0, 0) };
    for (record, run) in records {
        let start = to_proto::position(document.rope(), record.range.start, encoding);
        let mut columns = Columns::new(&record.state.text, encoding, start.line, start.character);
        for token in run.as_slice() {
            encoder.push(&mut columns, token);
        }
    }
    encoder
}

/// The line and column of offsets of one record's text, met in increasing order.
///
/// `convert` counts columns from the document's rope, which costs a few tree lookups per
/// position; a record's tokens come in text order, so one pass over its text counts them all
/// (a 2,000-record file has 700,000 tokens). The rules are `convert`'s: lines end at `\n`,
/// `\r\n` and `\r`; columns are bytes in UTF-8 and code units in UTF-16. A test checks that
/// both agree on every token.
struct Columns<'a> {
    text: &'a str,
    /// The offset reached, in the record's text, and its line and column in the document.
    offset: usize,
    line: u32,
    column: u32,
    /// The first line break at or after `offset` (the text's length when none is left):
    /// searched once per line, so that a token finds whether a line ends before it without
    /// looking at the bytes in between.
    next_break: usize,
    /// In UTF-16, the first byte at or after `offset` that is not ASCII (the text's length
    /// when none is left, and always in UTF-8, whose columns are bytes). Columns are bytes
    /// up to it: a record has a few `×` and `∞` among thousands of ASCII bytes.
    next_wide: usize,
}

impl<'a> Columns<'a> {
    /// The columns of `text`, a record whose first byte is at `line` and `column`.
    fn new(text: &'a str, encoding: PositionEncoding, line: u32, column: u32) -> Columns<'a> {
        let mut columns =
            Columns { text, offset: 0, line, column, next_break: 0, next_wide: text.len() };
        columns.find_next_break();
        if encoding == PositionEncoding::Utf16 {
            columns.next_wide = columns.find_wide(0);
        }
        columns
    }

    fn find_next_break(&mut self) {
        let rest = &self.text.as_bytes()[self.offset..];
        self.next_break =
            memchr::memchr2(b'\n', b'\r', rest).map_or(self.text.len(), |at| self.offset + at);
    }

    /// The first byte at or after `from` that is not ASCII, or the text's length.
    fn find_wide(&self, from: usize) -> usize {
        let rest = &self.text.as_bytes()[from..];
        rest.iter().position(|byte| !byte.is_ascii()).map_or(self.text.len(), |at| from + at)
    }

    /// Moves on to `target` (never before the offset reached, and past the `\n` of a `\r\n`
    /// that `target` would split) and gives its line and column.
    fn advance(&mut self, target: usize) -> (u32, u32) {
        while let Some(line_break) = self.advance_on_line(target) {
            // In `\r\n` the `\n` ends the line.
            let crlf = self.text.as_bytes()[line_break..].starts_with(b"\r\n");
            self.offset = line_break + if crlf { 2 } else { 1 };
            self.line = self.line.saturating_add(1);
            self.column = 0;
            self.find_next_break();
        }
        (self.line, self.column)
    }

    /// Moves on towards `target` (never before the offset reached) as far as the first line
    /// break, and gives where that break starts; `None` once at `target`, with no break
    /// before it.
    fn advance_on_line(&mut self, target: usize) -> Option<usize> {
        let target = target.min(self.text.len());
        if self.offset >= target {
            return None;
        }
        let (stop, crossed) = if self.next_break < target {
            (self.next_break, Some(self.next_break))
        } else {
            (target, None)
        };
        let units = self.units_to(stop);
        self.column = self.column.saturating_add(units);
        self.offset = stop;
        crossed
    }

    /// The columns from the offset reached to `to`, on one line. In UTF-16 a character of four
    /// UTF-8 bytes is two code units and the others one: its first byte tells which, so no
    /// character is decoded.
    fn units_to(&mut self, to: usize) -> u32 {
        let mut units = to - self.offset;
        while self.next_wide < to {
            let byte = self.text.as_bytes()[self.next_wide];
            if byte & 0xC0 == 0x80 {
                units -= 1;
            } else if byte >= 0xF0 {
                units += 1;
            }
            self.next_wide = self.find_wide(self.next_wide + 1);
        }
        u32::try_from(units).unwrap_or(u32::MAX)
    }
}

/// Encodes tokens in order, each relative to the one before it.
struct Encoder {
    tokens: Vec<SemanticToken>,
    /// The line and start column of the last token sent.
    last: (u32, u32),
}

impl Encoder {
    /// Sends a token, one piece per line it covers; line breaks are never part of a piece.
    fn push(&mut self, columns: &mut Columns<'_>, token: &ClassifiedToken) {
        let TextRange { start, end } = token.range();
        let (mut line, mut from) = columns.advance(start);
        while columns.advance_on_line(end).is_some() {
            self.send(line, from, columns.column.saturating_sub(from), token);
            // Past the line break: both bytes of a `\r\n`, even for a token that ends between
            // them, whose next token starts on the next line anyway.
            (line, from) = columns.advance(columns.offset + 1);
            if columns.offset >= end {
                return;
            }
        }
        self.send(line, from, columns.column.saturating_sub(from), token);
    }

    fn send(&mut self, line: u32, start: u32, length: u32, token: &ClassifiedToken) {
        if length == 0 {
            return;
        }
        let (previous_line, previous_start) = self.last;
        let delta_line = line - previous_line;
        let delta_start = if delta_line == 0 { start - previous_start } else { start };
        self.tokens.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: token.token_type as u32,
            token_modifiers_bitset: u32::from(token.modifiers),
        });
        self.last = (line, start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::from_proto;

    /// The tokens of a document placed with `to_proto`, one rope lookup per position: slow, but
    /// the reference the one-pass counting must agree with. Absolute `(line, start, length)`.
    fn placed_one_by_one(document: &Document, encoding: PositionEncoding) -> Vec<(u32, u32, u32)> {
        use lsp_types::Position;
        let rope = document.rope();
        let mut placed = Vec::new();
        for (record, run) in document_tokens(document, None) {
            for token in run.as_slice() {
                let range = record.in_document(token.range());
                let (start, end) = (
                    to_proto::position(rope, range.start, encoding),
                    to_proto::position(rope, range.end, encoding),
                );
                for line in start.line..=end.line {
                    let from = if line == start.line { start.character } else { 0 };
                    let to = if line == end.line {
                        end.character
                    } else {
                        let line_end =
                            from_proto::offset(rope, Position::new(line, u32::MAX), encoding);
                        to_proto::position(rope, line_end, encoding).character
                    };
                    if to > from {
                        placed.push((line, from, to - from));
                    }
                }
            }
        }
        placed
    }

    #[test]
    fn counting_columns_in_one_pass_agrees_with_convert() {
        let record = "[Variant \"C'escacs\"]\r\n[White \"Núria\"]\r\n[Redefine \"FAN\"]\r\n{ 🩐… ~F14\r\n  two\rlines\n  #1@W }\r\n1. E7-E13, E21-E15\r\n2. \u{1FA50}D2-E7 !?, F20×F16:\r\n*\r\n";
        // Broken text too, whose error tokens may span line breaks or end inside a `\r\n`.
        let broken = "[Variant \"C'escacs\"]\r\n1. E7-E13 ×\r\r\n, ((E21-\r\n{ never \u{1FA50}\r\nclosed\r\n";
        // All ASCII, whose UTF-16 columns are bytes too.
        let ascii = "[Variant \"C'escacs\"]\r\n{ one\rtwo\r\n  #1@W }\r\n1. E7-E13 x\r\r\n, ((E21-\r\n{ open\r\n";
        // Enough records to be encoded in shares on every core, and joined.
        let text = format!("{record}\n{}\n{broken}\n{ascii}\n", record.replace("\r\n", "\n"))
            .repeat(parallel::SHARED_FROM);
        let document = Document::new(&text, 1);
        assert_eq!(document.records().len(), 4 * parallel::SHARED_FROM);
        placement_agrees_with_convert(&text);
    }

    /// The one-pass placement and `convert` agree on records made of pieces of CTL-PGN,
    /// characters of one to four bytes and every kind of line end, broken or not.
    fn placement_agrees_with_convert(text: &str) {
        let document = Document::new(text, 1);
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let mut absolute = Vec::new();
            let (mut line, mut start) = (0, 0);
            for token in encode(&document, None, encoding) {
                line += token.delta_line;
                start = if token.delta_line == 0 {
                    start + token.delta_start
                } else {
                    token.delta_start
                };
                absolute.push((line, start, token.length));
            }
            assert_eq!(absolute, placed_one_by_one(&document, encoding), "{text:?} {encoding:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn placing_generated_records_agrees_with_convert(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "[White \"N\u{fa}ria\"]", "[Variant \"C'escacs\"]", "1.", " ", "\t", "\n",
                    "\r", "\r\n", "E7-E13", "F8\u{d7}F12", "+\u{221e}", ",", "{", "}", "#1@W",
                    "\u{1FA50}D2-E7", "\u{2026}", "\u{25c7}", "(", ")", "*", "\u{2010}", "\n\n",
                ]),
                0..40,
            )
        ) {
            placement_agrees_with_convert(&parts.concat());
        }
    }

    #[test]
    fn the_legend_names_every_type_in_order() {
        let legend = legend();
        assert_eq!(legend.token_types.len(), TokenType::ALL.len());
        for (index, token_type) in TokenType::ALL.iter().enumerate() {
            assert_eq!(*token_type as usize, index);
        }
        for (index, (bit, _)) in modifiers().into_iter().enumerate() {
            assert_eq!(bit, 1 << index);
        }
        assert_eq!(legend.token_modifiers[4], SemanticTokenModifier::DEFAULT_LIBRARY);
    }
}
