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

use serde::{Deserialize, Serialize};
use tower_lsp_server::lsp_types::{Position, Range, TextDocumentIdentifier};

use super::to_proto::RecordPositions;
use ctlpgn_core::analysis::LineHalfMove;
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
    version: i32,
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
    /// The ply of `line`'s first half-move (1 when the line has none).
    line_start: usize,
    line_length: usize,
    line_first: Option<LineReply>,
    line_last: Option<LineReply>,
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

/// One half-move of the answer's `line`, or its `lineFirst` or `lineLast`.
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

/// The answer to `ctlpgn/board` for the board of record `index` (from 0) of a document at
/// `version`, whose positions `positions` converts (every range of the answer lies in that
/// record).
pub fn encode(
    positions: &RecordPositions<'_>,
    version: i32,
    index: usize,
    answer: BoardAnswer,
) -> BoardReply {
    let side_name = |side: ctlpgn_core::pieces::Side| side.name().to_lowercase();
    let entry = |half_move: LineHalfMove| LineReply {
        label: half_move.label(),
        ply: half_move.ply,
        number: half_move.number,
        side: side_name(half_move.side),
        written: half_move.written,
        played: half_move.played,
        range: positions.range(half_move.range),
    };
    let line_start = answer.line.first().map_or(1, |first| first.ply);
    let line: Vec<LineReply> = answer.line.into_iter().map(entry).collect();
    let (line_first, line_last) =
        answer.line_ends.map(|(first, last)| (entry(first), entry(last))).unzip();
    BoardReply {
        version,
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
        line_start,
        line_length: answer.line_length,
        line_first,
        line_last,
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
