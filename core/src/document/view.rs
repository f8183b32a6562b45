//! `RecordView`: one record of a document with everything derived from its text, so that an
//! editor feature takes one value instead of the text, syntax, analysis and offset apart.

use crate::analysis::RecordAnalysis;
use crate::syntax::RecordSyntax;
use crate::text::TextRange;

/// One record of a document and what was derived from its text. Every range of `syntax` and
/// `analysis` is a byte range of `text`; `start` is where `text` begins in the
/// document, so the two kinds of offsets are converted here and nowhere else.
#[derive(Clone, Copy, Debug)]
pub struct RecordView<'a> {
    /// The record's text, exactly as it stands in the document.
    pub text: &'a str,
    /// The byte offset of `text` in the document's text.
    pub start: usize,
    pub syntax: &'a RecordSyntax,
    pub analysis: &'a RecordAnalysis,
}

impl RecordView<'_> {
    /// A byte range of the record's text as a range of the document's text.
    pub fn in_document(&self, range: TextRange) -> TextRange {
        TextRange::new(self.start + range.start, self.start + range.end)
    }

    /// A document offset as an offset of the record's text, when it falls inside the record
    /// (its end included: a cursor after the last character is still in the record).
    pub fn in_record(&self, offset: usize) -> Option<usize> {
        offset.checked_sub(self.start).filter(|&inside| inside <= self.text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax::{lower_record, new_parser, parse};

    #[test]
    fn offsets_move_between_the_record_and_the_document() {
        let text = "[Variant \"C'escacs\"]\n*\n";
        let tree = parse(&mut new_parser(), text);
        let syntax = lower_record(&tree, text);
        let analysis = analyse_syntax(text, &syntax, AnalysisOptions::default());
        let view = RecordView { text, start: 100, syntax: &syntax, analysis: &analysis };
        assert_eq!(view.in_document(TextRange::new(1, 8)), TextRange::new(101, 108));
        assert_eq!(view.in_record(99), None);
        assert_eq!(view.in_record(100), Some(0));
        assert_eq!(view.in_record(100 + text.len()), Some(text.len()));
        assert_eq!(view.in_record(101 + text.len()), None);
    }
}
