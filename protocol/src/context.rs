//! What every answer reads besides its document and parameters: what was negotiated with the
//! client and the user's settings; and the one way from a request's position to the record
//! there (position → byte offset → the record's view → the `ide` layer's answer).

use ctlpgn_core::document::{Document, RecordView};
use lsp_types::Position;

use crate::encoding::Negotiated;
use crate::from_proto;
use crate::settings::Settings;

/// What was negotiated at `initialize` and the settings in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Context {
    pub negotiated: Negotiated,
    pub settings: Settings,
}

/// `work` on the record of `document` holding the request's `position`, seen as a
/// `RecordView`, with the position as a byte offset of the document; `None` outside every
/// record (in an empty document).
pub fn at_position<T>(
    document: &Document,
    position: Position,
    context: &Context,
    work: impl FnOnce(RecordView<'_>, usize) -> T,
) -> Option<T> {
    let offset = from_proto::offset(document.rope(), position, context.negotiated.encoding);
    view_at(document, offset, |view, _| work(view, offset))
}

/// `work` on the record of `document` holding byte `offset` (see `Document::at`), seen as a
/// `RecordView`, with the record's index; `None` outside every record.
pub fn view_at<T>(
    document: &Document,
    offset: usize,
    work: impl FnOnce(RecordView<'_>, usize) -> T,
) -> Option<T> {
    let open = document.at(offset)?;
    Some(work(open.view(), open.index))
}
