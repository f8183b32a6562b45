//! Go to definition and find references: a comment reference (`#14@B`, `#12.2`,
//! `#16[#14.1#12.2]`) leads to the half-move, move line or variation it names, and from there
//! back to every reference that names it; document highlights show a target and its
//! references together. The targets were resolved by the analysis.

use std::ops::Range;

use tower_lsp_server::lsp_types::{
    DocumentHighlight, DocumentHighlightKind, Location, Position, Uri,
};

use super::convert::{self, PositionEncoding};
use super::documents::{Document, Record};
use crate::analysis::ReferenceTarget;

/// The byte range (in the record) of what a reference names.
fn target_range(target: &ReferenceTarget) -> &Range<usize> {
    match target {
        ReferenceTarget::HalfMove { range, .. }
        | ReferenceTarget::MoveLine { range, .. }
        | ReferenceTarget::Variation { range, .. } => range,
    }
}

fn location(
    document: &Document,
    record: &Record,
    range: &Range<usize>,
    uri: &Uri,
    encoding: PositionEncoding,
) -> Location {
    Location {
        uri: uri.clone(),
        range: convert::range(document.rope(), record.in_document(range.clone()), encoding),
    }
}

/// Where the reference under the cursor leads, if the cursor is on a resolved reference.
pub fn definition(
    document: &Document,
    position: Position,
    uri: &Uri,
    encoding: PositionEncoding,
) -> Option<Location> {
    let offset = convert::offset(document.rope(), position, encoding);
    let record = document.record_at(offset)?;
    let at = offset - record.range.start;
    let parsed = document.parsed(record);
    let reference =
        parsed.analysis.references.iter().find(|r| r.range.start <= at && at <= r.range.end)?;
    Some(location(document, record, target_range(&reference.target), uri, encoding))
}

/// What the cursor names: the record, the byte range of the target (a half-move, move line or
/// variation) and every reference naming it. The cursor may stand on a reference or on a
/// target that references name (the innermost one wins).
fn linked(
    document: &Document,
    position: Position,
    encoding: PositionEncoding,
) -> Option<(Record, Range<usize>, Vec<Range<usize>>)> {
    let offset = convert::offset(document.rope(), position, encoding);
    let record = document.record_at(offset)?.clone();
    let at = offset - record.range.start;
    let parsed = document.parsed(&record);
    let resolved = &parsed.analysis.references;
    let target = resolved
        .iter()
        .find(|r| r.range.start <= at && at <= r.range.end)
        .map(|r| target_range(&r.target).clone())
        .or_else(|| {
            resolved
                .iter()
                .map(|r| target_range(&r.target))
                .filter(|range| range.start <= at && at <= range.end)
                .min_by_key(|range| range.len())
                .cloned()
        })?;
    let references = resolved
        .iter()
        .filter(|r| *target_range(&r.target) == target)
        .map(|r| r.range.clone())
        .collect();
    Some((record, target, references))
}

/// Every reference naming the same target as the cursor, and the target itself when asked.
pub fn references(
    document: &Document,
    position: Position,
    uri: &Uri,
    encoding: PositionEncoding,
    include_target: bool,
) -> Vec<Location> {
    let Some((record, target, references)) = linked(document, position, encoding) else {
        return Vec::new();
    };
    let target = include_target.then_some(target);
    target
        .iter()
        .chain(&references)
        .map(|range| location(document, &record, range, uri, encoding))
        .collect()
}

/// The target under the cursor and the references naming it, highlighted together: the
/// target as written text, the references as reads of it.
pub fn highlights(
    document: &Document,
    position: Position,
    encoding: PositionEncoding,
) -> Vec<DocumentHighlight> {
    let Some((record, target, references)) = linked(document, position, encoding) else {
        return Vec::new();
    };
    let highlight = |range: &Range<usize>, kind| DocumentHighlight {
        range: convert::range(document.rope(), record.in_document(range.clone()), encoding),
        kind: Some(kind),
    };
    std::iter::once(highlight(&target, DocumentHighlightKind::TEXT))
        .chain(references.iter().map(|range| highlight(range, DocumentHighlightKind::READ)))
        .collect()
}
