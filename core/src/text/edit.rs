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
/// out rather than cutting a character in two (a conversion's output check then refuses the
/// changed game).
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    apply_edits_within(text, TextRange::new(0, text.len()), edits)
}

/// The text of `range` with the edits that lie inside it applied, as [`apply_edits`] does;
/// edits outside the range are left out.
pub fn apply_edits_within(text: &str, range: TextRange, edits: &[TextEdit]) -> String {
    let mut inside: Vec<&TextEdit> =
        edits.iter().filter(|edit| range.contains_range(edit.range)).collect();
    inside.sort_by_key(|edit| edit.range.start);
    let added: usize = inside.iter().map(|edit| edit.new_text.len()).sum();
    let mut out = String::with_capacity(range.len() + added);
    let mut copied = range.start;
    for edit in inside {
        debug_assert!(edit.range.start >= copied, "overlapping edits");
        if edit.range.start < copied {
            continue;
        }
        out.push_str(&text[copied..edit.range.start]);
        out.push_str(&edit.new_text);
        copied = edit.range.end;
    }
    out.push_str(&text[copied..range.end]);
    out
}

#[cfg(test)]
mod tests {
    use super::{apply_edits, apply_edits_within, TextEdit};
    use crate::text::TextRange;

    #[test]
    fn edits_apply_in_text_order_whatever_order_they_come_in() {
        let text = "1. E7-E13, E21…E17";
        let dots = text.find('…').unwrap();
        let edits = [
            TextEdit::replace(TextRange::new(dots, dots + '…'.len_utf8()), "-"),
            TextEdit::insert(0, "◇ "),
            TextEdit::delete(TextRange::new(2, 3)),
            TextEdit::insert(0, "× "),
        ];
        assert_eq!(apply_edits(text, &edits), "◇ × 1.E7-E13, E21-E17");
        // Within a range: the edits outside it are left out, and so is the text.
        let moves = TextRange::new(2, text.len());
        assert_eq!(apply_edits_within(text, moves, &edits), "E7-E13, E21-E17");
    }
}
