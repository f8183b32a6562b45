//! The editor's features as plain values: functions of a document (or one record's
//! `RecordView`) and byte offsets or ranges of the document, returning byte ranges of the
//! document. The protocol edge (`lsp`) decodes positions, calls these and encodes their
//! answers; nothing here knows the protocol.

pub mod actions;
pub mod board;
pub mod completion;
pub mod folding;
pub mod hover;
pub mod lines;
pub mod markdown;
pub mod navigation;
pub mod outline;
pub mod play;
pub mod semantic;

#[cfg(test)]
mod robustness_tests;

#[cfg(test)]
mod tests {
    /// A record with tags, a variation and a comment on two lines: what the outline and the
    /// folds are tried on.
    pub const GAME: &str = "[Variant \"C'escacs\"]\n[White \"Pérez\"]\n[Black \"Vidal\"]\n\n1. K4-K6, E21-E19\n(1. …, E21-E17\n2. B4-B6, K24-K18)\n{A comment\non two lines}\n2. JF6-B18, EE23-D20:\n*\n\n";

    /// What is prepared as a document opens is what the features derive when asked: the
    /// folds, the outline and the semantic tokens of a document read in bulk, one of its
    /// records declined by the reader, are those of the same document unprepared.
    #[test]
    fn what_is_prepared_at_opening_is_what_the_features_derive() {
        use crate::analysis::RuleChecks;
        use crate::document::{Document, Prepare};
        let declined = "[Variant \"C'escacs\"]\n1. E7 -E13 \u{d7} ((\n\n";
        let text = format!("{GAME}{declined}").repeat(crate::parallel::SHARED_FROM * 2);
        let all: [Prepare; 3] =
            [super::semantic::prepare, super::folding::prepare, super::outline::prepare];
        let prepared = Document::read(&text, 1, RuleChecks::Skip, all.into());
        let plain = Document::read(&text, 1, RuleChecks::Skip, [].into());
        assert_eq!(
            super::folding::document_folds(&prepared),
            super::folding::document_folds(&plain)
        );
        assert_eq!(super::outline::symbols(&prepared), super::outline::symbols(&plain));
        let tokens = |document: &Document| -> Vec<Vec<super::semantic::ClassifiedToken>> {
            let classified = super::semantic::document_tokens(document, None);
            classified.iter().map(|(_, run)| run.as_slice().to_vec()).collect()
        };
        assert_eq!(tokens(&prepared), tokens(&plain));
    }
}
