//! The custom request `ctlpgn/board`: the board at a place of a document, for the editors'
//! board panels (and any client). Decodes the place, asks `board::board_at` of the core,
//! converts its byte ranges to the negotiated encoding and encodes the answer:
//!
//! ```json
//! {"record": 1, "exact": true, "svg": "<svg …", "text": "28 …", "pdtl": "/28:v/…",
//!  "ply": 2, "moveNumber": 2, "side": "white", "move": "1. …, E21-E19", "check": null,
//!  "line": [{"ply": 1, "number": "1", "side": "white", "move": "K4-K6",
//!            "label": "1. K4-K6", "played": true, "range": {…}}, …]}
//! ```
//!
//! The README documents every field.

use serde::Deserialize;
use serde_json::{json, Value};
use tower_lsp_server::lsp_types::{Position, TextDocumentIdentifier};

use super::convert::{self, PositionEncoding};
use super::documents::Document;
use crate::analysis::move_label;
use crate::board::{self, Board, Theme};
use crate::replay;

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

/// The answer to `ctlpgn/board` in `document`; `None` outside every record (in an empty
/// document).
pub fn answer(
    document: &Document,
    params: &BoardParams,
    encoding: PositionEncoding,
) -> Option<Value> {
    let rope = document.rope();
    let offset = convert::offset(rope, params.position, encoding);
    let record = document.record_at(offset)?;
    let index = document.records().iter().position(|other| std::ptr::eq(other, record))?;
    let parsed = document.parsed(record);
    let text = &record.state.text;
    let analysis = &parsed.analysis;
    let at =
        board::board_at(text, &parsed.syntax, analysis, offset.saturating_sub(record.range.start));
    let ids = &analysis.identifiers;
    let theme = params.theme.as_deref().and_then(Theme::from_name).unwrap_or_default();
    let drawn = at.position.map(|position| {
        let mut drawing = Board::new(position, ids).with_theme(theme);
        if let Some(played) = at.after {
            drawing = drawing.with_move(played.effect.origin, played.effect.destination);
        }
        if params.flip {
            drawing = drawing.flip();
        }
        (drawing.svg(), drawing.text())
    });
    let current = at.current();
    let line: Vec<Value> = at
        .line
        .iter()
        .map(|half_move| {
            json!({
                "ply": half_move.ply,
                "number": half_move.number,
                "side": half_move.side.name().to_lowercase(),
                "move": half_move.written,
                "label": move_label(&format!("{}.", half_move.number), half_move.side, &half_move.written),
                "played": half_move.played,
                "range": convert::range(rope, record.in_document(half_move.range.clone()), encoding),
            })
        })
        .collect();
    Some(json!({
        "record": index + 1,
        "exact": at.exact,
        "svg": drawn.as_ref().map(|(svg, _)| svg),
        "text": drawn.as_ref().map(|(_, text)| text),
        "pdtl": at.pdtl,
        "ply": at.ply,
        "moveNumber": at.position.and_then(|position| position.move_number),
        "side": at.position.map(|position| position.turn.name().to_lowercase()),
        "move": current.map(|half_move| {
            move_label(&format!("{}.", half_move.number), half_move.side, &half_move.written)
        }),
        "check": at.position.and_then(replay::check_in_words).map(|(_, words)| words),
        "line": line,
    }))
}
