//! The custom request `ctlpgn/board`: the board at a place of a document, for the editors'
//! board panels (and any client). Decodes the request's options and encodes `ide::board`'s
//! answer, its byte ranges in the negotiated encoding:
//!
//! ```json
//! {"version": 3, "record": 1, "exact": true, "svg": "<svg …", "text": "28 …",
//!  "pdtl": "/28:v/…", "ply": 2, "moveNumber": 2, "side": "white", "move": "1. …, E21-E19",
//!  "check": null,
//!  "line": [{"ply": 1, "number": "1", "side": "white", "move": "K4-K6",
//!            "label": "1. K4-K6", "played": true, "range": {…}}, …],
//!  "lineStart": 1, "lineLength": 2, "lineFirst": {"ply": 1, …}, "lineLast": {"ply": 2, …},
//!  "moves": [{"from": "G7", "to": "G9", "text": "G7-G9"}, …]}
//! ```
//!
//! `version` is the document's version the place was read in, which `ctlpgn/play` takes back;
//! `line` is a window of at most `ide::board::LINE_WINDOW` half-moves around the place (see
//! `ide::board`). The parameters are read by name only: an array is refused (`ByName`).
//! docs/language-server.md documents every field.

use lsp_types::{Position, Range, TextDocumentIdentifier};
use serde::Deserialize;

use super::context::{view_at, Context};
use super::to_proto::RecordPositions;
use ctlpgn_core::board::Theme;
use ctlpgn_core::document::Document;
use ctlpgn_core::format::FormatOptions;
use ctlpgn_core::ide;
use ctlpgn_core::ide::board::{BoardAnswer, BoardOptions};

/// The request's parameters: a place, and how to draw the board there.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
    /// Black at the bottom.
    #[serde(default)]
    pub flip: bool,
    /// `light` (the default) or `dark`: the colours the SVG falls back to where the page
    /// sets none of its `--ctlpgn-*` custom properties.
    #[serde(default)]
    pub theme: Option<String>,
}

impl BoardParams {
    /// How the request asks the board to be drawn, with the formatter's settings (`format`)
    /// for the half-moves offered; an unknown theme is the default one.
    pub fn options(&self, format: FormatOptions) -> BoardOptions {
        let theme = self.theme.as_deref().and_then(Theme::from_name).unwrap_or_default();
        BoardOptions { flip: self.flip, theme, format }
    }
}

/// The answer, serialized as it stands (`ide::board::BoardReply`, the fields the web's `board`
/// sends too), its ranges in the negotiated encoding: a typed value is turned into JSON once,
/// where a `serde_json::Value` built first would be copied again into the response.
pub type BoardReply = ctlpgn_core::ide::board::BoardReply<Range>;

/// The answer to `ctlpgn/board` for the board of record `index` (from 0) of a document at
/// `version`, whose positions `positions` converts (every range of the answer lies in that
/// record).
pub fn encode(
    positions: &RecordPositions<'_>,
    version: i32,
    index: usize,
    answer: BoardAnswer,
) -> BoardReply {
    answer.reply(version, index, |range| positions.range(range))
}

/// The board of `document` at byte `offset`, as `params` asks for it; `None` outside every
/// record.
pub fn board(
    document: &Document,
    offset: usize,
    params: &BoardParams,
    context: &Context,
) -> Option<BoardReply> {
    let options = params.options(context.settings.format);
    let encoding = context.negotiated.encoding;
    view_at(document, offset, |view, index| {
        let answer = ide::board::board(view, offset, options);
        let positions = RecordPositions::new(document.rope(), view.text, view.start, encoding);
        encode(&positions, document.version(), index, answer)
    })
}
