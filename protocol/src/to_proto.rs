//! From the core to the protocol: byte offsets of the text as LSP `Position`s (0-based line and
//! column in the negotiated encoding), and the `ide` layer's values and the core's diagnostics
//! as `lsp_types`. With `from_proto`, the only place that counts columns.
//!
//! UTF-8 columns are bytes; UTF-16 columns are code units, so a figurine such as `🩐` counts
//! two and `×` or `…` one. Lines end at `\n`, `\r\n` and `\r` only, as LSP says, which is why
//! ropey is built without its Unicode line breaks. An offset past the end is the end.

use lsp_types::{
    self, CompletionItemKind, CompletionTextEdit, DiagnosticSeverity, DocumentHighlight,
    DocumentHighlightKind, Documentation, Hover, HoverContents, InsertTextFormat, Location,
    MarkupContent, MarkupKind, NumberOrString, Position, TextEdit, Uri,
};
use ropey::Rope;

use super::encoding::{Negotiated, PositionEncoding};
use ctlpgn_core::diagnostics::{Diagnostic, Severity};
use ctlpgn_core::document::Document;
use ctlpgn_core::ide::completion::{CompletionItem, CompletionKind};
use ctlpgn_core::ide::hover::HoverText;
use ctlpgn_core::ide::markdown;
use ctlpgn_core::ide::navigation::{HighlightKind, HighlightedRange};
use ctlpgn_core::text::columns;
use ctlpgn_core::text::TextRange;

/// The LSP position of a byte offset; an offset past the end is the end of the text.
pub fn position(rope: &Rope, offset: usize, encoding: PositionEncoding) -> Position {
    let place = columns::line_column(rope, offset, encoding.columns());
    Position::new(place.line, place.column)
}

/// The LSP range of a byte range.
pub fn range(rope: &Rope, range: TextRange, encoding: PositionEncoding) -> lsp_types::Range {
    lsp_types::Range::new(
        position(rope, range.start, encoding),
        position(rope, range.end, encoding),
    )
}

/// A byte range of a document as a location in it.
pub fn location(rope: &Rope, uri: &Uri, bytes: TextRange, encoding: PositionEncoding) -> Location {
    Location { uri: uri.clone(), range: range(rope, bytes, encoding) }
}

/// The positions of many offsets inside one record, as `position` gives them, without asking
/// the whole document's rope for each: the record's first line and column are found once, and
/// the rest is counted in the record's own text. A board's move list converts a range per
/// half-move of the line of play, and each lookup in the rope of a large document costs.
///
/// Every position costs the same whatever its line's length: a UTF-16 column is the count of
/// units up to the offset less the count up to its line's start, and both are read from a
/// table of counts every `UNIT_STRIDE` bytes, built in one pass. Counting from the line's
/// start for each position made a board on a record written on one line of 400 KB take seconds.
#[derive(Debug)]
pub struct RecordPositions<'a> {
    rope: &'a Rope,
    text: &'a str,
    /// Where `text` starts in the document.
    start: usize,
    /// The position of `start`.
    first: Position,
    /// The byte offsets (in `text`) where its lines start, after `\n`, `\r\n` or a lone `\r`.
    line_starts: Vec<usize>,
    /// In UTF-16 only: the UTF-16 units of `text[..k * UNIT_STRIDE]` at index `k`.
    units: Vec<usize>,
    encoding: PositionEncoding,
}

/// How many bytes of a record's text lie between two entries of `RecordPositions`' table of
/// UTF-16 counts: a position counts at most this many bytes twice, and the table takes a
/// thirty-second of the text's size.
const UNIT_STRIDE: usize = 256;

/// The UTF-16 units a byte of UTF-8 text counts for: one per character, at its first byte, and
/// two for a character beyond the Basic Multilingual Plane (a four-byte one).
fn utf16_units(byte: u8) -> usize {
    match byte {
        0x80..=0xBF => 0,
        0xF0..=0xFF => 2,
        _ => 1,
    }
}

impl<'a> RecordPositions<'a> {
    /// The converter for the record whose text `text` starts at byte `start` of `rope`.
    pub fn new(
        rope: &'a Rope,
        text: &'a str,
        start: usize,
        encoding: PositionEncoding,
    ) -> RecordPositions<'a> {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (index, &byte) in bytes.iter().enumerate() {
            let ends_line = byte == b'\n' || byte == b'\r' && bytes.get(index + 1) != Some(&b'\n');
            if ends_line {
                line_starts.push(index + 1);
            }
        }
        let units = match encoding {
            PositionEncoding::Utf8 => Vec::new(),
            PositionEncoding::Utf16 => {
                let mut units = Vec::with_capacity(bytes.len() / UNIT_STRIDE + 1);
                let mut counted = 0;
                units.push(0);
                for chunk in bytes.chunks(UNIT_STRIDE) {
                    counted += chunk.iter().map(|&byte| utf16_units(byte)).sum::<usize>();
                    units.push(counted);
                }
                units
            }
        };
        let first = position(rope, start, encoding);
        RecordPositions { rope, text, start, first, line_starts, units, encoding }
    }

    /// The UTF-16 units of `text[..inside]`, from the table and at most `UNIT_STRIDE` bytes.
    fn units_before(&self, inside: usize) -> usize {
        let block = inside / UNIT_STRIDE;
        let counted = self.units.get(block).copied().unwrap_or(0);
        let rest = &self.text.as_bytes()[block * UNIT_STRIDE..inside];
        counted + rest.iter().map(|&byte| utf16_units(byte)).sum::<usize>()
    }

    /// The position of a byte offset of the document; outside the record, asked of the rope.
    pub fn position(&self, offset: usize) -> Position {
        let Some(inside) = offset
            .checked_sub(self.start)
            .filter(|&inside| inside <= self.text.len() && self.text.is_char_boundary(inside))
        else {
            return position(self.rope, offset, self.encoding);
        };
        let line = self.line_starts.partition_point(|&start| start <= inside) - 1;
        let line_start = self.line_starts[line];
        let column = match self.encoding {
            PositionEncoding::Utf8 => inside - line_start,
            PositionEncoding::Utf16 => self.units_before(inside) - self.units_before(line_start),
        };
        let (line, column) = if line == 0 {
            (self.first.line, self.first.character.saturating_add(saturate(column)))
        } else {
            (self.first.line.saturating_add(saturate(line)), saturate(column))
        };
        Position::new(line, column)
    }

    /// The LSP range of a byte range of the document.
    pub fn range(&self, range: TextRange) -> lsp_types::Range {
        lsp_types::Range::new(self.position(range.start), self.position(range.end))
    }
}

/// A count as the protocol's `u32`; documents beyond 4 GiB are not a concern, but a conversion
/// must still not panic.
fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Every diagnostic of a document, in text order; with `rules`, the warnings of the optional
/// rule checks too.
pub fn document_diagnostics(
    document: &Document,
    encoding: PositionEncoding,
    rules: bool,
) -> Vec<lsp_types::Diagnostic> {
    first_diagnostics(document, encoding, rules, usize::MAX).0
}

/// The first `most` of [`document_diagnostics`], and how many there are in all: only those
/// kept are turned into the protocol's values (a generated file can hold a million).
pub fn first_diagnostics(
    document: &Document,
    encoding: PositionEncoding,
    rules: bool,
    most: usize,
) -> (Vec<lsp_types::Diagnostic>, usize) {
    let mut kept = Vec::new();
    let mut all = 0;
    for record in document.records() {
        for found in record.state.reported(rules) {
            all += 1;
            if kept.len() < most {
                let range = range(document.rope(), record.in_document(found.range), encoding);
                kept.push(diagnostic(found, range));
            }
        }
    }
    (kept, all)
}

/// A core diagnostic as the protocol's, at `range`: the handbook's code (`K003`), source
/// `ctlpgn`, the message followed by the code's kebab-case name in brackets (as the command
/// line prints it) and the severity.
pub fn diagnostic(diagnostic: &Diagnostic, range: lsp_types::Range) -> lsp_types::Diagnostic {
    let severity = match diagnostic.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Hint => DiagnosticSeverity::HINT,
    };
    lsp_types::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_string())),
        source: Some("ctlpgn".to_string()),
        message: format!("{} [{}]", diagnostic.message, diagnostic.code.name()),
        ..lsp_types::Diagnostic::default()
    }
}

/// A hover, as Markdown when the client shows it, else as the text the Markdown reads as.
pub fn hover(rope: &Rope, found: HoverText, negotiated: Negotiated) -> Hover {
    let (kind, value) = if negotiated.markdown_hover {
        (MarkupKind::Markdown, found.markdown)
    } else {
        (MarkupKind::PlainText, markdown::plain(&found.markdown))
    };
    Hover {
        contents: HoverContents::Markup(MarkupContent { kind, value }),
        range: Some(range(rope, found.range, negotiated.encoding)),
    }
}

/// A completion item with its text edit, as a snippet when the client takes them. Its filter
/// text is sent only when it is not the label: Neovim 0.7 starts inserting where the items'
/// edits start only when some item has no filter text (see `ide::completion`).
pub fn completion_item(
    rope: &Rope,
    item: CompletionItem,
    negotiated: Negotiated,
) -> lsp_types::CompletionItem {
    let edit_range = range(rope, item.edit_range, negotiated.encoding);
    let insert_text = item.filter.clone();
    let filter_text = (item.filter != item.label).then_some(item.filter);
    let (new_text, format) = if negotiated.snippets {
        (item.snippet, InsertTextFormat::SNIPPET)
    } else {
        (item.plain, InsertTextFormat::PLAIN_TEXT)
    };
    lsp_types::CompletionItem {
        label: item.label,
        kind: Some(completion_kind(item.kind)),
        detail: Some(item.detail),
        documentation: item.documentation.map(|value| {
            Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
        }),
        preselect: item.preselect.then_some(true),
        sort_text: Some(item.sort_key),
        filter_text,
        insert_text_format: Some(format),
        // The filter text again as the insert text, which a client ignores when the item has
        // an edit (the protocol says so), but for eglot: it completes the word before the
        // cursor to the items' insert texts (else their labels) and filters them by their
        // filter texts, and with labels, `JF6-` and C-M-i became `JF6-JF6-` (the labels'
        // common beginning inserted after what was typed). Its exit function then applies
        // the edit.
        insert_text: Some(insert_text),
        text_edit: Some(CompletionTextEdit::Edit(TextEdit { range: edit_range, new_text })),
        ..lsp_types::CompletionItem::default()
    }
}

/// The protocol's kind for a completion item, which editors show as an icon.
fn completion_kind(kind: CompletionKind) -> CompletionItemKind {
    match kind {
        CompletionKind::TagName => CompletionItemKind::PROPERTY,
        CompletionKind::TagValue => CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Piece => CompletionItemKind::CLASS,
        CompletionKind::Move => CompletionItemKind::VALUE,
        CompletionKind::Marker => CompletionItemKind::KEYWORD,
        CompletionKind::Reference => CompletionItemKind::REFERENCE,
    }
}

/// A highlight: the target as written text, the references as reads of it.
pub fn highlight(
    rope: &Rope,
    found: HighlightedRange,
    encoding: PositionEncoding,
) -> DocumentHighlight {
    let kind = match found.kind {
        HighlightKind::Target => DocumentHighlightKind::TEXT,
        HighlightKind::Reference => DocumentHighlightKind::READ,
    };
    DocumentHighlight { range: range(rope, found.range, encoding), kind: Some(kind) }
}

#[cfg(test)]
mod tests {
    use super::super::from_proto::offset;
    use super::*;

    const TEXT: &str = "[White \"Pérez\"]\r\n1. K4×K6…\r🩐x\n";

    fn round_trip(encoding: PositionEncoding) {
        let rope = Rope::from_str(TEXT);
        for (at, _) in TEXT.char_indices().chain([(TEXT.len(), ' ')]) {
            // No position lies between the two characters of a CRLF line break.
            if TEXT[..at].ends_with('\r') && TEXT[at..].starts_with('\n') {
                continue;
            }
            let position = position(&rope, at, encoding);
            assert_eq!(offset(&rope, position, encoding), at, "{position:?}");
        }
    }

    #[test]
    fn offsets_and_positions_round_trip_in_both_encodings() {
        round_trip(PositionEncoding::Utf8);
        round_trip(PositionEncoding::Utf16);
    }

    #[test]
    fn columns_count_bytes_or_utf16_units() {
        let rope = Rope::from_str(TEXT);
        let x = TEXT.find('x').expect("x");
        assert_eq!(position(&rope, x, PositionEncoding::Utf16), Position::new(2, 2));
        assert_eq!(position(&rope, x, PositionEncoding::Utf8), Position::new(2, 4));
        let k6 = TEXT.find("K6").expect("K6");
        assert_eq!(position(&rope, k6, PositionEncoding::Utf16), Position::new(1, 6));
        assert_eq!(position(&rope, k6, PositionEncoding::Utf8), Position::new(1, 7));
    }

    #[test]
    fn a_record_counts_its_positions_as_the_whole_document_does() {
        let before = "[Variant \"C'escacs\"]\r\n*\n\n";
        let document = format!("{before}{TEXT}\r\r\n🩐\r[Site \"x\"]");
        let rope = Rope::from_str(&document);
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            // The record starts at a line's start, and in the middle of one.
            for start in [before.len(), before.len() + 3] {
                let record = RecordPositions::new(&rope, &document[start..], start, encoding);
                for (at, _) in document.char_indices().chain([(document.len(), ' ')]) {
                    assert_eq!(record.position(at), position(&rope, at, encoding), "{at}");
                }
                let range = TextRange::new(start + 2, document.len());
                assert_eq!(record.range(range), super::range(&rope, range, encoding));
            }
        }
    }

    #[test]
    fn a_long_line_counts_its_columns_across_the_table_s_strides() {
        // Figurines (two UTF-16 units, four bytes), `×` and `…` on both sides of every stride
        // of the table of counts, on a line many strides long, and a line after it.
        let line: String = (0..300).map(|index| format!("{index}. 🩐D2×E5… ")).collect();
        let document = format!("[Variant \"C'escacs\"]\n\n{line}\r\n2. K4-K6🩐:\n*\n");
        let rope = Rope::from_str(&document);
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let record = RecordPositions::new(&rope, &document, 0, encoding);
            for (at, _) in document.char_indices().chain([(document.len(), ' ')]) {
                assert_eq!(record.position(at), position(&rope, at, encoding), "{at}");
            }
        }
    }

    #[test]
    fn positions_out_of_range_are_clamped() {
        let rope = Rope::from_str(TEXT);
        let line_one_end = TEXT.find('\r').expect("a CR");
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            assert_eq!(offset(&rope, Position::new(0, 500), encoding), line_one_end);
            assert_eq!(offset(&rope, Position::new(99, 0), encoding), TEXT.len());
            assert_eq!(offset(&rope, Position::new(u32::MAX, u32::MAX), encoding), TEXT.len());
        }
        // The second unit of the surrogate pair of 🩐 is inside the character.
        let figurine = TEXT.find('🩐').expect("the figurine");
        assert_eq!(offset(&rope, Position::new(2, 1), PositionEncoding::Utf16), figurine);
        assert_eq!(offset(&rope, Position::new(2, 2), PositionEncoding::Utf8), figurine);
        assert_eq!(position(&rope, usize::MAX, PositionEncoding::Utf16), Position::new(3, 0));
    }
}
