//! From the protocol to the core: LSP `Position`s and `Range`s (0-based line and column in the
//! negotiated encoding) as byte offsets of the text.
//!
//! Every conversion clamps instead of panicking: a client may send a column past the end of
//! a line (LSP says it then means the line end), a line past the end of the document, or a
//! UTF-16 column in the middle of a surrogate pair. The way back is `to_proto`.

use ctlpgn_core::text::TextRange;

use ropey::Rope;
use tower_lsp_server::lsp_types::{self, Position};

use super::encoding::PositionEncoding;

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
pub fn byte_range(rope: &Rope, range: lsp_types::Range, encoding: PositionEncoding) -> TextRange {
    let start = offset(rope, range.start, encoding);
    let end = offset(rope, range.end, encoding);
    TextRange::new(start.min(end), start.max(end))
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
