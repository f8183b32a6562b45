//! The custom request `ctlpgn/play`: a half-move played at a place of a document, for the
//! editors' boards. Decodes the request, and encodes `ide::play::play`'s answer as a workspace
//! edit of the document (its version named, so that a client refuses it once the text has
//! changed) and the range where the half-move then stands, in the negotiated encoding:
//!
//! ```json
//! {"edit": {"documentChanges": [{"textDocument": {"uri": "…", "version": 3},
//!                                "edits": [{"range": {…}, "newText": "\n2. G7-G9:"}]}]},
//!  "range": {"start": {"line": 4, "character": 3}, "end": {"line": 4, "character": 8}}}
//! ```
//!
//! A half-move that is not legal there, or a place without an exact position, is refused with
//! `InvalidParams` and the reason; the document is not changed.

use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::Error;
use tower_lsp_server::lsp_types::{
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range,
    TextDocumentEdit, TextDocumentIdentifier, TextEdit, WorkspaceEdit,
};

use super::encoding::PositionEncoding;
use super::to_proto::{self, RecordPositions};
use ctlpgn_core::document::Document;
use ctlpgn_core::document::RecordView;
use ctlpgn_core::format::FormatOptions;
use ctlpgn_core::ide::play::{play, Played};

/// The request's parameters: a place, and the half-move to play there (one of the `text`s of
/// the `moves` that `ctlpgn/board` offers at that place).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayParams {
    pub text_document: TextDocumentIdentifier,
    pub position: Position,
    #[serde(rename = "move")]
    pub half_move: String,
}

/// The answer: the edit to apply (no change when the half-move is written there already)
/// and where the half-move stands once it is applied.
#[derive(Debug, Serialize)]
pub struct PlayReply {
    edit: WorkspaceEdit,
    range: Range,
}

/// Plays the request's half-move in the record `view` of `document`; `offset` is the place,
/// a byte offset of the document.
pub fn answer(
    document: &Document,
    view: RecordView<'_>,
    params: &PlayParams,
    offset: usize,
    options: &FormatOptions,
    encoding: PositionEncoding,
) -> Result<PlayReply, Error> {
    let played = play(view, offset, &params.half_move, options)
        .map_err(|refusal| Error::invalid_params(refusal.to_string()))?;
    Ok(encode(document, view, &params.text_document, played, encoding))
}

/// The answer for `played`: its edits in the document as it stands, its range in the record
/// as the edits leave it (they change nothing before the record, so the record starts where
/// it did).
fn encode(
    document: &Document,
    view: RecordView<'_>,
    text_document: &TextDocumentIdentifier,
    played: Played,
    encoding: PositionEncoding,
) -> PlayReply {
    let rope = document.rope();
    let edits = played
        .edits
        .into_iter()
        .map(|edit| {
            OneOf::Left(TextEdit {
                range: to_proto::range(rope, edit.range, encoding),
                new_text: edit.new_text,
            })
        })
        .collect();
    let after = RecordPositions::new(rope, &played.record, view.start, encoding);
    PlayReply {
        edit: WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier {
                    uri: text_document.uri.clone(),
                    version: Some(document.version()),
                },
                edits,
            }])),
            ..WorkspaceEdit::default()
        },
        range: after.range(played.range),
    }
}
