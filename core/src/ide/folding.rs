//! What folds in a document, over byte ranges: each record, its tag section, its variations
//! and its comments. Whether a part spans several lines (and so is worth folding) is for the
//! edge, which knows the lines.

use crate::document::{Document, RecordState};
use crate::syntax::{Item, RecordSyntax, Step, Tag};
use crate::text::TextRange;

/// What a fold holds, for editors that fold by kind ("fold all comments").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

/// A foldable byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// The foldable parts of a record, outermost first; whether a part spans several lines (and
/// so is worth folding) is for the caller, who knows the lines.
pub fn folds(text: &str, syntax: &RecordSyntax) -> Vec<Fold> {
    let mut folds =
        vec![Fold { range: TextRange::new(0, text.trim_end().len()), kind: FoldKind::Region }];
    let tags: Vec<&Tag> = syntax
        .items
        .iter()
        .map_while(|item| if let Item::Tag(tag) = item { Some(tag) } else { None })
        .collect();
    if let (Some(first), Some(last)) = (tags.first(), tags.last()) {
        folds.push(Fold {
            range: TextRange::new(first.range.start, last.range.end),
            kind: FoldKind::Region,
        });
    }
    for step in syntax.walk(&syntax.items) {
        match step {
            Step::Item(Item::Variation(variation), _) => {
                folds.push(Fold { range: variation.range, kind: FoldKind::Region });
            }
            Step::Item(Item::Comment(comment), _) => {
                folds.push(Fold { range: comment.range, kind: FoldKind::Comment })
            }
            _ => {}
        }
    }
    folds
}

/// Derives a record's folds as the record is read with the others of its document (see
/// [`crate::document::Prepare`]), for a client that folds: it asks as soon as a document is
/// open.
pub fn prepare(state: &RecordState, syntax: &RecordSyntax) {
    state.derived.keep(RecordFolds(folds(&state.text, syntax)));
}

/// A record's folds, derived once per record text (kept with the record's state).
#[derive(Debug)]
struct RecordFolds(Vec<Fold>);

/// The foldable parts of every record of a document, in byte ranges of the document, record
/// by record. Each record's folds are derived once per text: after a keystroke, the edited
/// record alone is parsed again.
pub fn document_folds(document: &Document) -> Vec<Fold> {
    let derived =
        document.map_derived(|record, syntax| RecordFolds(folds(&record.state.text, syntax)));
    document
        .records()
        .iter()
        .zip(derived)
        .flat_map(|(record, folds)| {
            let placed: Vec<Fold> = folds
                .0
                .iter()
                .map(|fold| Fold { range: record.in_document(fold.range), kind: fold.kind })
                .collect();
            placed
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    use crate::ide::tests::GAME;

    #[test]
    fn records_tags_variations_and_comments_fold() {
        let folds: Vec<(String, FoldKind)> = folds(GAME, &syntax::parse_record(GAME))
            .into_iter()
            .map(|fold| (GAME[fold.range].to_string(), fold.kind))
            .collect();
        assert_eq!(folds.len(), 4);
        assert_eq!(folds[0].0, GAME.trim_end());
        assert_eq!(folds[1].0, "[Variant \"C'escacs\"]\n[White \"Pérez\"]\n[Black \"Vidal\"]");
        assert_eq!(folds[2].0, "(1. …, E21-E17\n2. B4-B6, K24-K18)");
        assert_eq!(folds[3], ("{A comment\non two lines}".to_string(), FoldKind::Comment));
    }

    #[test]
    fn a_document_folds_its_records_in_its_own_offsets() {
        let text = GAME.repeat(2);
        let document = Document::new(&text, 1);
        let folds = document_folds(&document);
        assert_eq!(folds.len(), 8);
        assert_eq!(&text[folds[4].range], GAME.trim_end());
        assert_eq!(folds[4].range.start, GAME.len());
        assert_eq!(&text[folds[7].range], "{A comment\non two lines}");
    }
}
