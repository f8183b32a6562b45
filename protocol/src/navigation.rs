//! `textDocument/definition`, `documentHighlight` and `references`: a reference (`#14@B`) and
//! the half-move it names, within one record.

use ctlpgn_core::document::Document;
use ctlpgn_core::ide;
use lsp_types::{
    DocumentHighlight, DocumentHighlightParams, GotoDefinitionParams, GotoDefinitionResponse,
    Location, ReferenceParams,
};

use crate::context::{at_position, Context};
use crate::to_proto;

/// The half-move a reference at the request's position names.
pub fn definition(
    document: &Document,
    params: &GotoDefinitionParams,
    context: &Context,
) -> Option<GotoDefinitionResponse> {
    let at = &params.text_document_position_params;
    let target = at_position(document, at.position, context, |view, offset| {
        ide::navigation::definition(view, offset)
    })??;
    let encoding = context.negotiated.encoding;
    let location = to_proto::location(document.rope(), &at.text_document.uri, target, encoding);
    Some(GotoDefinitionResponse::Scalar(location))
}

/// The half-move at the request's position and the references to it, or those of the
/// half-move a reference there names; `None` when there are none.
pub fn highlights(
    document: &Document,
    params: &DocumentHighlightParams,
    context: &Context,
) -> Option<Vec<DocumentHighlight>> {
    let position = params.text_document_position_params.position;
    let found = at_position(document, position, context, |view, offset| {
        ide::navigation::highlights(view, offset)
    })
    .unwrap_or_default();
    let (rope, encoding) = (document.rope(), context.negotiated.encoding);
    let highlights: Vec<_> =
        found.into_iter().map(|found| to_proto::highlight(rope, found, encoding)).collect();
    (!highlights.is_empty()).then_some(highlights)
}

/// The references to the half-move at the request's position (and the half-move itself when
/// the client asks for the declaration).
pub fn references(
    document: &Document,
    params: &ReferenceParams,
    context: &Context,
) -> Vec<Location> {
    let at = &params.text_document_position;
    let include_target = params.context.include_declaration;
    let found = at_position(document, at.position, context, |view, offset| {
        ide::navigation::references(view, offset, include_target)
    })
    .unwrap_or_default();
    let (rope, encoding) = (document.rope(), context.negotiated.encoding);
    found
        .into_iter()
        .map(|range| to_proto::location(rope, &at.text_document.uri, range, encoding))
        .collect()
}
