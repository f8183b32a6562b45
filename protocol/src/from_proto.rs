//! From the protocol to the core: LSP `Position`s and `Range`s (0-based line and column in the
//! negotiated encoding) as byte offsets of the text.
//!
//! Every conversion clamps instead of panicking: a client may send a column past the end of
//! a line (LSP says it then means the line end), a line past the end of the document, or a
//! UTF-16 column in the middle of a surrogate pair. The way back is `to_proto`.

use ctlpgn_core::text::columns::{self, LineColumn};
use ctlpgn_core::text::TextRange;

use lsp_types::{self, Position};
use ropey::Rope;

use super::encoding::PositionEncoding;

/// The byte offset of an LSP position, always on a character boundary. A line past the end is
/// the end of the text; a column past the end of its line is the end of the line (before its
/// line break); a column inside a character is the start of that character.
pub fn offset(rope: &Rope, position: Position, encoding: PositionEncoding) -> usize {
    columns::offset(rope, place(position), encoding.columns())
}

/// An LSP position as the core's line and column (in the encoding negotiated).
pub fn place(position: Position) -> LineColumn {
    LineColumn { line: position.line, column: position.character }
}

/// The byte range of an LSP range, ordered even when the client sent it reversed.
pub fn byte_range(rope: &Rope, range: lsp_types::Range, encoding: PositionEncoding) -> TextRange {
    let start = offset(rope, range.start, encoding);
    let end = offset(rope, range.end, encoding);
    TextRange::new(start.min(end), start.max(end))
}
