//! `workspace/executeCommand`: the command that gives the PDTL of the position at a place of
//! a document (`ide::actions::pdtl_at`).

use tower_lsp_server::lsp_types;

use super::encoding::PositionEncoding;
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
