//! `textDocument/formatting` and `rangeFormatting`: the formatter's minimal edits, converted to
//! the negotiated encoding, so that cursors and undo history survive format on save.

use lsp_types::{self, TextEdit};

use super::encoding::PositionEncoding;
use super::from_proto;
use super::to_proto;
use ctlpgn_core::document::Document;
use ctlpgn_core::format::{self, FormatOptions};

/// The edits that format a document, or only the records a range touches.
pub fn edits(
    document: &Document,
    range: Option<lsp_types::Range>,
    options: &FormatOptions,
    encoding: PositionEncoding,
) -> Vec<TextEdit> {
    let rope = document.rope();
    let text = rope.to_string();
    let byte_range = range.map(|range| from_proto::byte_range(rope, range, encoding));
    format::format_edits(&text, options, byte_range)
        .into_iter()
        .map(|edit| TextEdit {
            range: to_proto::range(rope, edit.range, encoding),
            new_text: edit.new_text,
        })
        .collect()
}
