//! Whether a half-move's placement may be written: the record it makes must have no error the
//! record did not have, compared by code and place (each place of the new record mapped back
//! through the edits), and must replay, at the half-move written, to the position played, one
//! a PDTL may hold. The board lists the half-moves whose placement passes and playing writes
//! only those: both ask [`Proofs`], so that they cannot disagree.
//!
//! Proving costs an analysis of the whole record, and a board lists some hundred and fifty
//! half-moves on every cursor move. But the half-moves played at one place are all placed
//! alike but for their own text: the same edits around it (a new variation `(N. X)` after
//! the same move line, or the line going on with its end mark moved), a checkmate ending the
//! main line also making the result the winner's. Every one of them is legal from the same
//! position and is read back as itself, and what the analysis says of the rest of the record
//! depends only on whether it mates (the result checks, a variation ended by `#`), not on
//! which half-move it is: so one proof serves every half-move placed alike. The first one met
//! of each shape is proven; the others take its verdict, and a board costs an analysis or two
//! whatever the number of half-moves it lists. Whether the position a half-move leads to
//! has a PDTL is its own, and is asked of each half-move that could change that.

use std::collections::HashMap;

use super::placement::{Insertion, Placement};
use crate::analysis::{self, analyse_syntax, AnalysisOptions, Keep, RuleChecks};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::document::RecordView;
use crate::notation::Check;
use crate::replay::{EffectKind, LegalMove};
use crate::syntax::{Reading, RecordReader};
use crate::text::{apply_edits, TextEdit, TextRange};

/// The verdicts on the shapes of the placements met at one place.
pub(super) struct Proofs<'a> {
    view: RecordView<'a>,
    verdicts: HashMap<Shape, Result<(), String>>,
}

/// What a placement writes but for the half-move's own text: each edit's range and text,
/// with the half-move cut out of the text that holds it (and where it stood), and whether the
/// half-move mates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Shape {
    edits: Vec<(TextRange, String, Option<usize>)>,
    mate: bool,
}

impl Shape {
    fn of(edits: &[Insertion], played: TextRange, legal: &LegalMove) -> Shape {
        let mut shift: isize = 0;
        let edits = edits
            .iter()
            .map(|edit| {
                let start = edit.range.start.saturating_add_signed(shift);
                shift += edit.new_text.len() as isize - edit.range.len() as isize;
                let inside = played.start >= start && played.end <= start + edit.new_text.len();
                match inside.then(|| played.start - start) {
                    Some(at) => {
                        let mut cut = edit.new_text.clone();
                        cut.replace_range(at..at + played.len(), "");
                        (edit.range, cut, Some(at))
                    }
                    None => (edit.range, edit.new_text.clone(), None),
                }
            })
            .collect();
        Shape { edits, mate: legal.check == Some(Check::Mate) }
    }
}

impl<'a> Proofs<'a> {
    pub fn new(view: RecordView<'a>) -> Proofs<'a> {
        Proofs { view, verdicts: HashMap::new() }
    }

    /// `Ok` when `placement`, of `legal`, may be written; else why not. A half-move written
    /// there already needs no edit and no proof.
    pub fn check(&mut self, placement: &Placement, legal: &LegalMove) -> Result<(), String> {
        let Placement::Edits { edits, played, succeeds } = placement else { return Ok(()) };
        let view = self.view;
        // The position is the half-move's own: one that no PDTL may hold is not written, as
        // the record would have no position there to show. From a position a PDTL holds (the
        // board's), a legal half-move leads to one only by what it takes or brings back: a
        // King taken (P009), a piece regained beyond the count (P010). A quiet half-move
        // keeps the material and the Bishops' hex colours, and the replay keeps the castling
        // and special-capture fields in step with it; and printing and reading a PDTL back
        // for each of a hundred and fifty half-moves was most of a board's time.
        let effect = &legal.applied.effect;
        let material = effect.captured.is_some()
            || effect.promotion.is_some()
            || matches!(effect.kind, EffectKind::ForcedPromotion);
        if material {
            let ids = &view.analysis.identifiers;
            if let Some(problem) = analysis::pdtl_problem(&legal.applied.position, ids) {
                return Err(problem.to_string());
            }
        }
        self.verdicts
            .entry(Shape::of(edits, *played, legal))
            .or_insert_with(|| prove(view, edits, *played, *succeeds, legal))
            .clone()
    }
}

/// Proves one placement on the record it makes: no error added, and the half-move at
/// `played` replayed to the position played.
fn prove(
    view: RecordView<'_>,
    edits: &[Insertion],
    played: TextRange,
    succeeds: Option<TextRange>,
    legal: &LegalMove,
) -> Result<(), String> {
    let edits: Vec<TextEdit> =
        edits.iter().map(|edit| TextEdit::replace(edit.range, edit.new_text.clone())).collect();
    let record = apply_edits(view.text, &edits);
    // The hand-written reader first, as a document is read: about eighteen times faster than
    // tree-sitter, which reads what it declines.
    let syntax = RecordReader::new(Reading::ReaderFirst).read(&record);
    let options = AnalysisOptions::new(Keep::Everything, RuleChecks::Skip);
    let analysis = analyse_syntax(&record, &syntax, options);
    let mut before = Errors::of(&view.analysis.diagnostics);
    let added = analysis
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .find(|diagnostic| !before.take(diagnostic, &edits, played, succeeds));
    if let Some(added) = added {
        return Err(format!("the record would have an error ({}: {})", added.code, added.message));
    }
    // Past a hundred of one part's findings the others are only counted (S015): an error
    // added there shows in the count.
    let (errors_before, errors_after) = (view.analysis.census().errors, analysis.census().errors);
    if errors_after > errors_before {
        return Err(format!(
            "the record would have {errors_after} errors instead of {errors_before}"
        ));
    }
    match analysis.played_at(played.start) {
        Some(replayed) if replayed.after == legal.applied.position => Ok(()),
        _ => Err("the record would not replay to the position played".into()),
    }
}

/// The errors of the record before the edits, each matched at most once.
struct Errors {
    /// Code and range of each, and whether it was matched.
    listed: Vec<(Code, TextRange, bool)>,
    /// The indices into `listed` by code and range.
    by_place: HashMap<(Code, TextRange), Vec<usize>>,
}

impl Errors {
    fn of(diagnostics: &[Diagnostic]) -> Errors {
        let listed: Vec<(Code, TextRange, bool)> = diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
            .map(|diagnostic| (diagnostic.code, diagnostic.range, false))
            .collect();
        let mut by_place: HashMap<(Code, TextRange), Vec<usize>> = HashMap::new();
        for (index, &(code, range, _)) in listed.iter().enumerate() {
            by_place.entry((code, range)).or_default().push(index);
        }
        Errors { listed, by_place }
    }

    /// Matches an error of the edited record with one of these not matched yet: the same code
    /// at the place its range maps back to through `edits`; or, for one on the half-move
    /// `played` that took over the end of the main line from `succeeds`, the same code there.
    /// Whether one was found.
    fn take(
        &mut self,
        error: &Diagnostic,
        edits: &[TextEdit],
        played: TextRange,
        succeeds: Option<TextRange>,
    ) -> bool {
        let starts = before_edits(edits, error.range.start);
        let ends = before_edits(edits, error.range.end);
        for &start in starts.iter().flatten() {
            for &end in ends.iter().flatten() {
                if end < start {
                    continue;
                }
                let found = self.by_place.get(&(error.code, TextRange::new(start, end))).and_then(
                    |indices| indices.iter().copied().find(|&index| !self.listed[index].2),
                );
                if let Some(index) = found {
                    self.listed[index].2 = true;
                    return true;
                }
            }
        }
        let Some(succeeds) = succeeds.filter(|_| played.contains_range(error.range)) else {
            return false;
        };
        let found = self.listed.iter_mut().find(|(code, range, taken)| {
            !*taken && *code == error.code && succeeds.contains_range(*range)
        });
        found.map(|found| found.2 = true).is_some()
    }
}

/// Where a place of the edited record stood before `edits` (sorted, disjoint, in the
/// unedited record's offsets): outside the text they wrote, one place; at an edge of a text
/// written, either end of the range it replaced; strictly inside it, none, since that text
/// is new.
fn before_edits(edits: &[TextEdit], place: usize) -> [Option<usize>; 2] {
    let mut shift: isize = 0;
    for edit in edits {
        let start = edit.range.start.saturating_add_signed(shift);
        let end = start + edit.new_text.len();
        if place < start {
            break;
        }
        if place == start || place == end {
            return [Some(edit.range.start), Some(edit.range.end)];
        }
        if place < end {
            return [None, None];
        }
        shift += edit.new_text.len() as isize - edit.range.len() as isize;
    }
    [place.checked_add_signed(-shift), None]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_map_back_through_the_edits() {
        // `abcdef` with `XYZ` inserted at 2: `abXYZcdef`.
        let inserted = [TextEdit::replace(TextRange::empty(2), "XYZ")];
        assert_eq!(before_edits(&inserted, 1), [Some(1), None]);
        assert_eq!(before_edits(&inserted, 2), [Some(2), Some(2)]);
        assert_eq!(before_edits(&inserted, 3), [None, None]);
        assert_eq!(before_edits(&inserted, 5), [Some(2), Some(2)]);
        assert_eq!(before_edits(&inserted, 6), [Some(3), None]);
        // `cd` replaced by `Q`: `abQef`, whose `e` at 3 was at 4.
        let replaced = [TextEdit::replace(TextRange::new(2, 4), "Q")];
        assert_eq!(before_edits(&replaced, 3), [Some(2), Some(4)]);
        assert_eq!(before_edits(&replaced, 4), [Some(5), None]);
        // Two edits: the shift of the first applies after it.
        let both = [
            TextEdit::replace(TextRange::empty(1), "XY"),
            TextEdit::replace(TextRange::new(4, 5), ""),
        ];
        // `aXYbcdf`: `d` at 5 was at 3, the edge of the deletion at 6 (before `f`) was 4 or
        // 5, the end at 7 was 6.
        assert_eq!(before_edits(&both, 4), [Some(2), None]);
        assert_eq!(before_edits(&both, 5), [Some(3), None]);
        assert_eq!(before_edits(&both, 6), [Some(4), Some(5)]);
        assert_eq!(before_edits(&both, 7), [Some(6), None]);
    }
}
