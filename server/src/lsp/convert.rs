//! Positions between the core and the protocol: byte offsets of the text on one side, LSP
//! `Position`s (0-based line and column in the negotiated encoding) on the other.
//!
//! This is the only place that counts columns. UTF-8 columns are bytes; UTF-16 columns are code
//! units, so a figurine such as `🩐` counts two and `×` or `…` one. Lines end at `\n`, `\r\n`
//! and `\r` only, as LSP says, which is why ropey is built without its Unicode line breaks.
//! Every conversion clamps instead of panicking: a client may send a column past the end of
//! a line (LSP says it then means the line end), a line past the end of the document, or a
//! UTF-16 column in the middle of a surrogate pair.

use std::ops::Range;

use ropey::Rope;
use tower_lsp_server::lsp_types::{self, Position};

/// How columns are counted, as negotiated at `initialize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionEncoding {
    /// Columns in bytes, when the client offers `utf-8`.
    Utf8,
    /// Columns in UTF-16 code units: the protocol's default, which every client supports.
    #[default]
    Utf16,
}

impl PositionEncoding {
    /// The encoding's protocol name.
    pub fn kind(self) -> lsp_types::PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => lsp_types::PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => lsp_types::PositionEncodingKind::UTF16,
        }
    }
}

/// The LSP position of a byte offset; an offset past the end is the end of the text.
pub fn position(rope: &Rope, offset: usize, encoding: PositionEncoding) -> Position {
    let offset = offset.min(rope.len_bytes());
    let line = rope.byte_to_line(offset);
    let line_start = rope.line_to_byte(line);
    let column = match encoding {
        PositionEncoding::Utf8 => offset - line_start,
        PositionEncoding::Utf16 => {
            rope.char_to_utf16_cu(rope.byte_to_char(offset))
                - rope.char_to_utf16_cu(rope.byte_to_char(line_start))
        }
    };
    Position::new(saturate(line), saturate(column))
}

/// The LSP range of a byte range.
pub fn range(rope: &Rope, range: Range<usize>, encoding: PositionEncoding) -> lsp_types::Range {
    lsp_types::Range::new(
        position(rope, range.start, encoding),
        position(rope, range.end, encoding),
    )
}

/// The byte offset of an LSP position, always on a character boundary. A line past the end is
/// the end of the text; a column past the end of its line is the end of the line (before its
/// line break); a column inside a character is the start of that character.
pub fn offset(rope: &Rope, position: Position, encoding: PositionEncoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_bytes();
    }
    let line_start = rope.line_to_byte(line);
    let line_end = line_start + content_length(rope, line);
    let column = position.character as usize;
    match encoding {
        PositionEncoding::Utf8 => {
            let byte = line_start.saturating_add(column).min(line_end);
            rope.char_to_byte(rope.byte_to_char(byte))
        }
        PositionEncoding::Utf16 => {
            let start_unit = rope.char_to_utf16_cu(rope.byte_to_char(line_start));
            let end_unit = rope.char_to_utf16_cu(rope.byte_to_char(line_end));
            let unit = start_unit.saturating_add(column).min(end_unit);
            rope.char_to_byte(rope.utf16_cu_to_char(unit))
        }
    }
}

/// The byte range of an LSP range, ordered even when the client sent it reversed.
pub fn byte_range(
    rope: &Rope,
    range: lsp_types::Range,
    encoding: PositionEncoding,
) -> Range<usize> {
    let start = offset(rope, range.start, encoding);
    let end = offset(rope, range.end, encoding);
    start.min(end)..start.max(end)
}

/// The length in bytes of a line without its line break.
fn content_length(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let length = slice.len_bytes();
    let last = |back: usize| if length >= back { Some(slice.byte(length - back)) } else { None };
    match (last(2), last(1)) {
        (Some(b'\r'), Some(b'\n')) => length - 2,
        (_, Some(b'\n' | b'\r')) => length - 1,
        _ => length,
    }
}

/// A count as the protocol's `u32`; documents beyond 4 GiB are not a concern, but a conversion
/// must still not panic.
fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "[White \"Pérez\"]\r\n1. K4×K6…\r🩐x\n";

    fn round_trip(encoding: PositionEncoding) {
        let rope = Rope::from_str(TEXT);
        for (offset, _) in TEXT.char_indices().chain([(TEXT.len(), ' ')]) {
            // No position lies between the two characters of a CRLF line break.
            if TEXT[..offset].ends_with('\r') && TEXT[offset..].starts_with('\n') {
                continue;
            }
            let position = position(&rope, offset, encoding);
            assert_eq!(super::offset(&rope, position, encoding), offset, "{position:?}");
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
