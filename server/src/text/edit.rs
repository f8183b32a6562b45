//! An edit of a text: new text for a byte range. Quick fixes, the formatter, the conversions
//! and the server's answers all speak in these.

use super::TextRange;

/// Replace the bytes `range` of a text by `new_text`; an empty range inserts, an empty text
/// deletes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub new_text: String,
}

impl TextEdit {
    pub fn replace(range: TextRange, new_text: impl Into<String>) -> TextEdit {
        TextEdit { range, new_text: new_text.into() }
    }

    pub fn insert(offset: usize, new_text: impl Into<String>) -> TextEdit {
        TextEdit::replace(TextRange::empty(offset), new_text)
    }

    pub fn delete(range: TextRange) -> TextEdit {
        TextEdit::replace(range, String::new())
    }
}

/// `text` with `edits` applied. The edits are ranges of `text` that do not overlap, in any
/// order; two insertions at one place go in the order given. An edit overlapping one before it
/// is a bug of whoever made them: a debug build stops there, a release build leaves that edit
/// out rather than cutting a character in two.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut ordered: Vec<&TextEdit> = edits.iter().collect();
    ordered.sort_by_key(|edit| edit.range.start);
    let added: usize = ordered.iter().map(|edit| edit.new_text.len()).sum();
    let mut out = String::with_capacity(text.len() + added);
    let mut copied = 0;
    for edit in ordered {
        debug_assert!(edit.range.start >= copied, "overlapping edits");
        if edit.range.start < copied || edit.range.end > text.len() {
            continue;
        }
        out.push_str(&text[copied..edit.range.start]);
        out.push_str(&edit.new_text);
        copied = edit.range.end;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{apply_edits, TextEdit};
    use crate::text::TextRange;

    #[test]
    fn edits_apply_in_text_order_whatever_order_they_come_in() {
        let text = "1. E7-E13, E21…E17";
        let dots = text.find('…').unwrap();
        let edits = [
            TextEdit::replace(TextRange::at(dots, '…'.len_utf8()), "-"),
            TextEdit::insert(0, "◇ "),
            TextEdit::delete(TextRange::new(2, 3)),
            TextEdit::insert(0, "× "),
        ];
        assert_eq!(apply_edits(text, &edits), "◇ × 1.E7-E13, E21-E17");
    }
}
