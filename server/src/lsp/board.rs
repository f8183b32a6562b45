//! The custom request `ctlpgn/board`: the board at a place of a document, for the editors'
//! board panels (and any client). Decodes the request's options and encodes `ide::board`'s
//! answer, its byte ranges in the negotiated encoding:
//!
//! ```json
//! {"record": 1, "exact": true, "svg": "<svg …", "text": "28 …", "pdtl": "/28:v/…",
//!  "ply": 2, "moveNumber": 2, "side": "white", "move": "1. …, E21-E19", "check": null,
//!  "line": [{"ply": 1, "number": "1", "side": "white", "move": "K4-K6",
//!            "label": "1. K4-K6", "played": true, "range": {…}}, …],
//!  "moves": [{"from": "G7", "to": "G9", "text": "G7-G9"}, …]}
//! ```
//!
//! docs/language-server.md documents every field.

use serde::{Deserialize, Serialize};
use tower_lsp_server::lsp_types::{Position, Range, TextDocumentIdentifier};

use super::to_proto::RecordPositions;
use ctlpgn_core::board::Theme;
use ctlpgn_core::format::FormatOptions;
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

/// The answer, serialized as it stands: a typed value is turned into JSON once, where a
/// `serde_json::Value` built first would be copied again into the response.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BoardReply {
    record: usize,
    exact: bool,
    svg: Option<String>,
    text: Option<String>,
    pdtl: Option<String>,
    ply: usize,
    move_number: Option<u32>,
    side: Option<String>,
    #[serde(rename = "move")]
    current: Option<String>,
    check: Option<String>,
    line: Vec<LineReply>,
    /// Absent where nothing can be played.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveReply>>,
}

/// One half-move of the answer's `moves`.
#[derive(Debug, Serialize)]
pub struct MoveReply {
    from: String,
    to: String,
    text: String,
}

/// One half-move of the answer's `line`.
#[derive(Debug, Serialize)]
pub struct LineReply {
    ply: usize,
    number: String,
    side: String,
    #[serde(rename = "move")]
    written: String,
    label: String,
    played: bool,
    range: Range,
}

/// The answer to `ctlpgn/board` for the board of record `index` (from 0) of a document, whose
/// positions `positions` converts (every range of the answer lies in that record).
pub fn encode(positions: &RecordPositions<'_>, index: usize, answer: BoardAnswer) -> BoardReply {
    let side_name = |side: ctlpgn_core::pieces::Side| side.name().to_lowercase();
    let line = answer
        .line
        .into_iter()
        .map(|entry| LineReply {
            label: entry.label(),
            ply: entry.ply,
            number: entry.number,
            side: side_name(entry.side),
            written: entry.written,
            played: entry.played,
            range: positions.range(entry.range),
        })
        .collect();
    BoardReply {
        record: index + 1,
        exact: answer.exact,
        svg: answer.svg,
        text: answer.text,
        pdtl: answer.pdtl,
        ply: answer.ply,
        move_number: answer.move_number,
        side: answer.side.map(side_name),
        current: answer.current,
        check: answer.check,
        line,
        moves: answer.moves.map(|moves| {
            moves
                .into_iter()
                .map(|playable| MoveReply {
                    from: playable.from.to_string(),
                    to: playable.to.to_string(),
                    text: playable.text,
                })
                .collect()
        }),
    }
}
