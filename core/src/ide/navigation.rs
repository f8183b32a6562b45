//! Go to definition, find references and document highlights over byte ranges: a comment
//! reference (`#14@B`, `#12.2`, `#16[#14.1#12.2]`) leads to the half-move, move line or
//! variation it names, and from there back to every reference that names it. The targets were
//! resolved by the analysis.

use crate::analysis::ReferenceTarget;
use crate::document::RecordView;
use crate::text::TextRange;

/// What a highlighted range is to the thing under the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HighlightKind {
    /// The half-move, move line or variation the references name.
    Target,
    /// A reference naming it.
    Reference,
}

/// A range to highlight together with the others of the same target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HighlightedRange {
    /// A byte range of the document.
    pub range: TextRange,
    pub kind: HighlightKind,
}

/// The byte range (in the record) of what a reference names.
fn target_range(target: &ReferenceTarget) -> &TextRange {
    match target {
        ReferenceTarget::HalfMove { range, .. }
        | ReferenceTarget::MoveLine { range, .. }
        | ReferenceTarget::Variation { range, .. } => range,
    }
}

/// Where the reference under the document offset leads (a byte range of the document), if the
/// offset is on a resolved reference.
pub fn definition(view: RecordView<'_>, offset: usize) -> Option<TextRange> {
    let at = view.in_record(offset)?;
    let reference =
        view.analysis.references.iter().find(|reference| reference.range.touches(at))?;
    Some(view.in_document(*target_range(&reference.target)))
}

/// What the offset names: the byte range of the target (a half-move, move line or variation)
/// and every reference naming it, in the record's text. The offset may stand on a reference or
/// on a target that references name (the innermost one wins).
fn linked(view: RecordView<'_>, offset: usize) -> Option<(TextRange, Vec<TextRange>)> {
    let at = view.in_record(offset)?;
    let resolved = &view.analysis.references;
    let target =
        resolved.iter().find(|r| r.range.touches(at)).map(|r| *target_range(&r.target)).or_else(
            || {
                resolved
                    .iter()
                    .map(|r| target_range(&r.target))
                    .filter(|range| range.touches(at))
                    .min_by_key(|range| range.len())
                    .cloned()
            },
        )?;
    let references =
        resolved.iter().filter(|r| *target_range(&r.target) == target).map(|r| r.range).collect();
    Some((target, references))
}

/// Every reference naming the same target as the offset, and the target itself first when
/// asked: byte ranges of the document.
pub fn references(view: RecordView<'_>, offset: usize, include_target: bool) -> Vec<TextRange> {
    let Some((target, references)) = linked(view, offset) else { return Vec::new() };
    let target = include_target.then_some(target);
    target.into_iter().chain(references).map(|range| view.in_document(range)).collect()
}

/// The target under the offset and the references naming it, highlighted together.
pub fn highlights(view: RecordView<'_>, offset: usize) -> Vec<HighlightedRange> {
    let Some((target, references)) = linked(view, offset) else { return Vec::new() };
    let highlight = |range, kind| HighlightedRange { range: view.in_document(range), kind };
    std::iter::once(highlight(target, HighlightKind::Target))
        .chain(references.into_iter().map(|range| highlight(range, HighlightKind::Reference)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax;

    #[test]
    fn a_reference_leads_to_its_half_move_and_back_in_document_offsets() {
        let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n2. { see #1@B } *\n";
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        let syntax = syntax::lower_record(&tree, text);
        let analysis = analyse_syntax(text, &syntax, AnalysisOptions::default());
        let start = 7;
        let view = RecordView { text, start, syntax: &syntax, analysis: &analysis };
        let reference = start + text.find("#1@B").expect("the reference");
        let target = start + text.find("E21-E19").expect("the half-move");
        let found = definition(view, reference).expect("a definition");
        assert_eq!(found.start, target);
        let references = references(view, target, true);
        assert_eq!(references.len(), 2);
        assert_eq!(references[1].start, reference);
        let kinds: Vec<_> = highlights(view, reference).iter().map(|h| h.kind).collect();
        assert_eq!(kinds, [HighlightKind::Target, HighlightKind::Reference]);
        assert!(definition(view, start - 1).is_none());
    }
}
