//! Cursor markers in fixture text, as rust-analyzer's tests write them: `$0` where the cursor
//! stands, `$0…$0` around a selection. A test writes the text it sends with the place it asks
//! about inside it, rather than counting lines and characters by hand; the place comes back as
//! bytes of the text without its markers, and as the protocol's positions in either encoding.
//!
//! `$0` is also a NAG a comment may hold (`{ $0 }`): a fixture that needs one as text is written
//! without markers. Every reader here checks how many markers it found, so that a stray one
//! fails the test rather than moving its cursor.

use std::ops::Range;

use serde_json::Value;

use crate::positions::{lsp_position, lsp_range, Encoding};

/// What marks the cursor, or each end of a selection.
pub const MARKER: &str = "$0";

/// A fixture's text without its markers, and the bytes they marked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    /// The text without its markers: what a test opens.
    pub text: String,
    /// The marked bytes of `text`: empty for a cursor.
    pub range: Range<usize>,
}

impl Marked {
    /// A fixture with one `$0`: the cursor.
    pub fn cursor(fixture: &str) -> Marked {
        let (text, offsets) = cursors(fixture);
        assert_eq!(offsets.len(), 1, "one {MARKER} marks the cursor in {fixture:?}");
        Marked { text, range: offsets[0]..offsets[0] }
    }

    /// A fixture with two `$0`: the selection between them.
    pub fn selection(fixture: &str) -> Marked {
        let (text, offsets) = cursors(fixture);
        assert_eq!(offsets.len(), 2, "two {MARKER} mark a selection in {fixture:?}");
        Marked { text, range: offsets[0]..offsets[1] }
    }

    /// The cursor (or selection) that `snippet` marks in `text`: `snippet` without its markers
    /// must stand in `text` exactly once, so that a test names the place in its context
    /// (`Marked::within(GAME, "the answer to #3$0@W")`) and a fixture shared by several tests
    /// stays whole.
    pub fn within(text: &str, snippet: &str) -> Marked {
        let (plain, offsets) = cursors(snippet);
        let range = match offsets[..] {
            [at] => at..at,
            [start, end] => start..end,
            _ => panic!("one or two {MARKER} mark the place in {snippet:?}"),
        };
        let mut found = text.match_indices(&plain).map(|(at, _)| at);
        let at = found.next().unwrap_or_else(|| panic!("{plain:?} is not in the text"));
        assert!(found.next().is_none(), "{plain:?} stands more than once in the text");
        Marked { text: text.to_string(), range: at + range.start..at + range.end }
    }

    /// The cursor's byte offset (the start of a selection).
    pub fn offset(&self) -> usize {
        self.range.start
    }

    /// The cursor as the protocol writes a position, in `encoding`'s units.
    pub fn position(&self, encoding: Encoding) -> Value {
        lsp_position(&self.text, self.range.start, encoding)
    }

    /// The marked bytes as the protocol writes a range, in `encoding`'s units.
    pub fn lsp_range(&self, encoding: Encoding) -> Value {
        lsp_range(&self.text, self.range.clone(), encoding)
    }
}

/// A fixture with any number of `$0`: its text without them and the offset of each, in order
/// (for a test that asks the same question at several places of one text).
pub fn cursors(fixture: &str) -> (String, Vec<usize>) {
    let mut text = String::with_capacity(fixture.len());
    let mut offsets = Vec::new();
    for (index, piece) in fixture.split(MARKER).enumerate() {
        if index > 0 {
            offsets.push(text.len());
        }
        text.push_str(piece);
    }
    (text, offsets)
}

/// `text` with `$0` written at the start and the end of `range` (once for an empty range):
/// how a snapshot shows the bytes an answer points at, as the fixtures mark them.
pub fn mark(text: &str, range: Range<usize>) -> String {
    let mut marked = String::with_capacity(text.len() + 2 * MARKER.len());
    marked.push_str(&text[..range.start]);
    marked.push_str(MARKER);
    if !range.is_empty() {
        marked.push_str(&text[range.clone()]);
        marked.push_str(MARKER);
    }
    marked.push_str(&text[range.end..]);
    marked
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_cursor_is_found_after_multi_byte_characters_in_both_encodings() {
        // `×` is 2 bytes and 1 UTF-16 unit, `…` 3 and 1, the Pegasus figurine 4 and 2.
        let marked = Marked::cursor("[Site \"Moià\"]\r\n3. E13×F16 … 🩐$0D2-E7\n");
        assert_eq!(marked.text, "[Site \"Moià\"]\r\n3. E13×F16 … 🩐D2-E7\n");
        assert_eq!(&marked.text[marked.offset()..], "D2-E7\n");
        assert_eq!(marked.position(Encoding::Utf16), json!({"line": 1, "character": 15}));
        assert_eq!(marked.position(Encoding::Utf8), json!({"line": 1, "character": 20}));
    }

    #[test]
    fn a_selection_is_the_text_between_its_two_markers() {
        let marked = Marked::selection("1. E7-E13, $0E21×E15$0:\n*\n");
        assert_eq!(&marked.text[marked.range.clone()], "E21×E15");
        assert_eq!(
            marked.lsp_range(Encoding::Utf16),
            json!({"start": {"line": 0, "character": 11}, "end": {"line": 0, "character": 18}})
        );
        assert_eq!(marked.lsp_range(Encoding::Utf8)["end"], json!({"line": 0, "character": 19}));
        assert_eq!(mark(&marked.text, marked.range.clone()), "1. E7-E13, $0E21×E15$0:\n*\n");
        assert_eq!(mark("ab", 1..1), "a$0b");
    }

    #[test]
    fn a_snippet_marks_its_place_in_a_text_it_stands_in_once() {
        let text = "1. E7-E13, E21-E15\n{ see #1@B… and #1@W }\n";
        let marked = Marked::within(text, "#1$0@W");
        assert_eq!(marked.text, text);
        assert_eq!(&text[marked.offset()..], "@W }\n");
        assert_eq!(
            Marked::within(text, "… and $0#1@W$0").range,
            text.find("#1@W").map(|at| at..at + 4).expect("there")
        );
        for snippet in ["#1$0", "E7$0-E14", "$0E7$0-$0"] {
            assert!(
                std::panic::catch_unwind(|| Marked::within(text, snippet)).is_err(),
                "{snippet}"
            );
        }
    }

    #[test]
    fn several_cursors_come_in_order() {
        let (text, offsets) = cursors("$0a\n$0b$0");
        assert_eq!(text, "a\nb");
        assert_eq!(offsets, [0, 2, 3]);
    }

    #[test]
    fn a_fixture_with_the_wrong_number_of_markers_is_refused() {
        for (fixture, selection) in [("no marker", false), ("$0a$0", false), ("$0a", true)] {
            let read = std::panic::catch_unwind(|| {
                if selection {
                    Marked::selection(fixture)
                } else {
                    Marked::cursor(fixture)
                }
            });
            assert!(read.is_err(), "{fixture:?} read as {read:?}");
        }
    }
}
