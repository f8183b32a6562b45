//! The custom request `ctlpgn/play`: a half-move played at a place of a document, for the
//! editors' boards. Decodes the request, and encodes `ide::play::play`'s answer as a workspace
//! edit of the document (its version named, so that a client refuses it once the text has
//! changed) and the range where the half-move then stands, in the negotiated encoding:
//!
//! ```json
//! {"textDocument": {"uri": "…", "version": 3}, "position": {…}, "move": "G7-G9"}
//!
//! {"edit": {"documentChanges": [{"textDocument": {"uri": "…", "version": 3},
//!                                "edits": [{"range": {…}, "newText": "\n2. G7-G9:"}]}]},
//!  "range": {"start": {"line": 4, "character": 3}, "end": {"line": 4, "character": 8}}}
//! ```
//!
//! The request names the version its position was read in (the `version` of the
//! `ctlpgn/board` answer it plays from): a position read in another text may stand anywhere
//! in this one, even in another record, so a version that is not the document's is refused
//! with `ContentModified` (-32801), and a request without one with `InvalidParams`, and
//! nothing is played. A half-move that is not legal there, or a place without an exact
//! position, is refused with `InvalidParams` and the reason; the document is not changed.

use crate::error::ResponseError as Error;
use lsp_types::{
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range,
    TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use serde::{Deserialize, Serialize};

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
    pub text_document: PlayedDocument,
    pub position: Position,
    #[serde(rename = "move")]
    pub half_move: String,
}

/// The document played in: a `VersionedTextDocumentIdentifier`, whose version is read as an
/// option so that a request without one is refused with a reason (`PlayParams::version`)
/// rather than serde's word for a missing field.
#[derive(Clone, Debug, Deserialize)]
pub struct PlayedDocument {
    pub uri: Uri,
    #[serde(default)]
    pub version: Option<i32>,
}

impl PlayParams {
    /// The version the request's position was read in; `InvalidParams` when it names none.
    pub fn version(&self) -> Result<i32, Error> {
        self.text_document.version.ok_or_else(|| {
            Error::invalid_params(
                "ctlpgn/play needs textDocument.version: the version of the document its \
                 position was read in (the version of the ctlpgn/board answer it plays from)",
            )
        })
    }
}

/// The refusal of a play whose position was read in `asked`, another version than the
/// document's, `current`: the position may stand anywhere in the text as it is now.
pub fn stale(asked: i32, current: i32) -> Error {
    Error::content_modified(format!(
        "the document changed since the position was read (version {asked}, now {current}): \
         ask for the board again"
    ))
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
    Ok(encode(document, view, &params.text_document.uri, played, encoding))
}

/// The answer for `played`: its edits in the document as it stands, its range in the record
/// as the edits leave it (they change nothing before the record, so the record starts where
/// it did).
fn encode(
    document: &Document,
    view: RecordView<'_>,
    uri: &Uri,
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
                    uri: uri.clone(),
                    version: Some(document.version()),
                },
                edits,
            }])),
            ..WorkspaceEdit::default()
        },
        range: after.range(played.range),
    }
}
