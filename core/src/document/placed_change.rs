//! Changes placed by line and column, as an editor sends a batch of them: each read in the text
//! the changes before it left, so each is converted to bytes just before it is applied (one edit
//! of the text per change, not a copy edited first to find the places). The language server and
//! the web's session both apply a batch this way.

use super::{Change, Document};
use crate::text::columns::{self, Columns, LineColumn};
use crate::text::TextRange;

/// A change as an editor places it: `range`, lines and columns of the text the previous change
/// of its batch left (`None`: the whole text), is replaced by `text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedChange<'a> {
    pub range: Option<[LineColumn; 2]>,
    pub text: &'a str,
}

/// What is done with a column inside a character (between the halves of a surrogate pair in
/// UTF-16, inside a character's bytes in UTF-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placing {
    /// Moved to the character's start: the language server's `didChange` is a notification,
    /// which cannot be refused.
    Clamped,
    /// Refused, and the batch changes nothing: applied at the character's start, the change
    /// would edit another place than its sender meant.
    Exact,
}

/// The change of a batch that [`Placing::Exact`] refused: its index in the batch and its range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misplaced {
    pub index: usize,
    pub range: [LineColumn; 2],
}

impl Document {
    /// Applies a batch of changes placed in lines and `columns` to the text, as [`Document::edit`]
    /// does (the records wait for [`Document::settle`]). A change with an end inside a
    /// character is moved to its start, or refused with the whole batch, as `placing` says.
    pub fn edit_placed<'a>(
        &mut self,
        version: i32,
        changes: impl IntoIterator<Item = PlacedChange<'a>>,
        columns: Columns,
        placing: Placing,
    ) -> Result<(), Misplaced> {
        // A rope's copy shares its nodes until edited: what a refusal puts back costs nothing.
        let before = (self.rope.clone(), self.pending, self.version);
        for (index, change) in changes.into_iter().enumerate() {
            let range = match change.range {
                None => TextRange::new(0, self.rope.len_bytes()),
                Some([start, end]) => {
                    let place = |at: LineColumn| match placing {
                        Placing::Clamped => Some(columns::offset(&self.rope, at, columns)),
                        Placing::Exact => columns::exact_offset(&self.rope, at, columns),
                    };
                    let Some((start, end)) = place(start).zip(place(end)) else {
                        (self.rope, self.pending, self.version) = before;
                        return Err(Misplaced { index, range: [start, end] });
                    };
                    TextRange::new(start.min(end), start.max(end))
                }
            };
            self.edit(version, [Change { range, text: change.text }]);
        }
        self.version = version;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, column: u32) -> LineColumn {
        LineColumn { line, column }
    }

    fn change(start: LineColumn, end: LineColumn, text: &str) -> PlacedChange<'_> {
        PlacedChange { range: Some([start, end]), text }
    }

    /// Each change of a batch is placed in the text the changes before it left, in UTF-16 or
    /// UTF-8 columns, past an astral figurine and a `×`; the records then describe the text
    /// as a fresh reading does.
    #[test]
    fn a_batch_is_placed_change_after_change() {
        let text = "[White \"Zoë\"]\n\n1. K4×K6 {🩐 x} *\n";
        for (columns, k6, after_figurine) in [(Columns::Utf16, 6, 13), (Columns::Utf8, 7, 16)] {
            let mut document = Document::new(text, 1);
            let batch = [
                // `K6` → `K7`, then the comment's `x` (further right once `K7 ` grew by a
                // character) becomes `y`, then the whole of line 0 is replaced.
                change(at(2, k6), at(2, k6 + 2), "K7 "),
                change(at(2, after_figurine + 1), at(2, after_figurine + 2), "y"),
                change(at(0, 0), at(0, 14), "[Black \"Zoë\"]"),
            ];
            assert_eq!(document.edit_placed(2, batch, columns, Placing::Exact), Ok(()));
            document.settle();
            let expected = "[Black \"Zoë\"]\n\n1. K4×K7  {🩐 y} *\n";
            assert_eq!(document.rope().to_string(), expected, "{columns:?}");
            assert_eq!(document.version(), 2);
            let fresh = Document::new(expected, 2);
            let records = |document: &Document| {
                let records = document.records().iter();
                records
                    .map(|record| (record.range, record.state.diagnostics.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(records(&document), records(&fresh));
        }
    }

    /// A change inside the figurine's surrogate pair: refused with the batch when exact (the
    /// change before it undone), moved to the figurine's start when clamped.
    #[test]
    fn a_change_inside_a_character_is_refused_or_moved_to_its_start() {
        let text = "1. K4-K6 {🩐} *\n";
        let batch = [change(at(0, 0), at(0, 0), "\n"), change(at(1, 11), at(1, 11), "x")];
        let mut document = Document::new(text, 1);
        let refused = document.edit_placed(2, batch, Columns::Utf16, Placing::Exact);
        assert_eq!(refused, Err(Misplaced { index: 1, range: [at(1, 11), at(1, 11)] }));
        assert_eq!((document.rope().to_string().as_str(), document.version()), (text, 1));
        assert!(!document.is_pending());
        let mut document = Document::new(text, 1);
        assert_eq!(document.edit_placed(2, batch, Columns::Utf16, Placing::Clamped), Ok(()));
        assert_eq!(document.rope().to_string(), "\n1. K4-K6 {x🩐} *\n");
    }
}
