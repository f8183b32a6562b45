//! `workspace/executeCommand`: the command that gives the PDTL of the position at a place of
//! a document (`ide::actions::pdtl_at`).

use lsp_types::{self, ExecuteCommandParams, Position, Uri};

use super::encoding::PositionEncoding;
use super::error::ResponseError;
use super::from_proto;
use ctlpgn_core::document::Document;
use ctlpgn_core::ide::actions;

/// The command that answers the PDTL at a position: arguments `[uri, position]`.
pub const POSITION_AT: &str = "ctlpgn.positionAt";

/// The PDTL of the position at a place of a document: after the half-move there, or where
/// the line of play stands; `None` when it is not known.
pub fn pdtl_at(
    document: &Document,
    position: lsp_types::Position,
    encoding: PositionEncoding,
) -> Option<String> {
    actions::pdtl_at(document, from_proto::offset(document.rope(), position, encoding))
}

/// The document and the position `ctlpgn.positionAt` names, or why the command cannot be run.
pub fn position_at_arguments(
    params: &ExecuteCommandParams,
) -> Result<(Uri, Position), ResponseError> {
    if params.command != POSITION_AT {
        return Err(ResponseError::invalid_params(format!(
            "unknown command {}",
            ctlpgn_core::text::quoted(&params.command)
        )));
    }
    let [uri, position] = params.arguments.as_slice() else {
        return Err(ResponseError::invalid_params("ctlpgn.positionAt takes [uri, position]"));
    };
    match (
        serde_json::from_value::<Uri>(uri.clone()),
        serde_json::from_value::<Position>(position.clone()),
    ) {
        (Ok(uri), Ok(position)) => Ok((uri, position)),
        _ => Err(ResponseError::invalid_params(
            "ctlpgn.positionAt takes a document URI and a position {line, character}",
        )),
    }
}
