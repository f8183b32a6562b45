//! `textDocument/hover`: what stands under the cursor (a half-move and the position after it,
//! a tag, a reference), as Markdown or plain text as the client shows it.

use ctlpgn_core::document::Document;
use ctlpgn_core::ide;
use lsp_types::{Hover, HoverParams};

use crate::context::{at_position, Context};
use crate::to_proto;

/// The hover at the request's position; `None` where nothing is said.
pub fn hover(document: &Document, params: &HoverParams, context: &Context) -> Option<Hover> {
    let position = params.text_document_position_params.position;
    let options = ide::hover::HoverOptions { images: context.settings.hover_images };
    let found = at_position(document, position, context, |view, offset| {
        ide::hover::hover(view, offset, options)
    })??;
    Some(to_proto::hover(document.rope(), found, context.negotiated))
}
