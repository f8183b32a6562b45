//! Go to definition and find references: a comment reference (`#14@B`, `#12.2`,
//! `#16[#14.1#12.2]`) leads to the half-move, move line or variation it names, and from there
//! back to every reference that names it. The targets were resolved by the analysis.

use std::ops::Range;

use tower_lsp_server::lsp_types::{Location, Position, Uri};

use super::convert::{self, PositionEncoding};
use super::documents::{Document, Record};
use crate::analysis::ReferenceTarget;

/// The byte range (in the record) of what a reference names.
fn target_range(target: &ReferenceTarget) -> &Range<usize> {
    match target {
        ReferenceTarget::HalfMove { range, .. } | ReferenceTarget::MoveLine { range, .. } | ReferenceTarget::Variation { range, .. } => range,
    }
}

fn location(document: &Document, record: &Record, range: &Range<usize>, uri: &Uri, encoding: PositionEncoding) -> Location {
    Location { uri: uri.clone(), range: convert::range(document.rope(), record.in_document(range.clone()), encoding) }
}

/// Where the reference under the cursor leads, if the cursor is on a resolved reference.
pub fn definition(document: &Document, position: Position, uri: &Uri, encoding: PositionEncoding) -> Option<Location> {
    let offset = convert::offset(document.rope(), position, encoding);
    let record = document.record_at(offset)?;
    let at = offset - record.range.start;
    let parsed = document.parsed(record);
    let reference = parsed.analysis.references.iter().find(|r| r.range.start <= at && at <= r.range.end)?;
    Some(location(document, record, target_range(&reference.target), uri, encoding))
}

/// Every reference naming the same target as the cursor: the cursor may stand on a reference or
/// on the half-move, move line or variation that references name (the innermost one wins).
pub fn references(document: &Document, position: Position, uri: &Uri, encoding: PositionEncoding, include_target: bool) -> Vec<Location> {
    let offset = convert::offset(document.rope(), position, encoding);
    let Some(record) = document.record_at(offset) else { return Vec::new() };
    let at = offset - record.range.start;
    let parsed = document.parsed(record);
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
        });
    let Some(target) = target else { return Vec::new() };
    let mut locations: Vec<Location> = resolved
        .iter()
        .filter(|r| *target_range(&r.target) == target)
        .map(|r| location(document, record, &r.range, uri, encoding))
        .collect();
    if include_target {
        locations.insert(0, location(document, record, &target, uri, encoding));
    }
    locations
}
