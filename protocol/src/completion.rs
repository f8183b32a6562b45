//! `textDocument/completion`: tag names and values, half-moves (pieces, then their
//! destinations), references, with the edits each makes in the negotiated encoding.

use ctlpgn_core::document::Document;
use ctlpgn_core::ide;
use ctlpgn_core::ide::completion::CompletionKind;
use lsp_types::{CompletionList, CompletionParams, CompletionResponse};

use crate::context::{at_position, Context};
use crate::to_proto;

/// The items at the request's position; `None` when there are none.
pub fn completion(
    document: &Document,
    params: &CompletionParams,
    context: &Context,
) -> Option<CompletionResponse> {
    let position = params.text_document_position.position;
    let items = at_position(document, position, context, |view, offset| {
        ide::completion::completion(view, offset)
    })
    .unwrap_or_default();
    // After a piece the user types a separator, and what may be written then is the piece's
    // destinations, which no filtering of the pieces gives: the list is incomplete, so that a
    // client completing as the user types (Neovim 0.11, whose menu ignores trigger characters
    // while it is open) asks again.
    let incomplete = items.iter().any(|item| item.kind == CompletionKind::Piece);
    let rope = document.rope();
    let items: Vec<_> = items
        .into_iter()
        .map(|item| to_proto::completion_item(rope, item, context.negotiated))
        .collect();
    if items.is_empty() {
        None
    } else if incomplete {
        Some(CompletionResponse::List(CompletionList { is_incomplete: true, items }))
    } else {
        Some(CompletionResponse::Array(items))
    }
}
