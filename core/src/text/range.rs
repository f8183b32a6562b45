//! A byte range of a text: the one range type of the crate, `Copy` so that passing one around
//! never clones, and indexing a `str` with it gives the text it covers.

use std::fmt;
use std::ops::{Index, Range};

/// The bytes from `start` up to, not including, `end` of a text; `start <= end`, and an empty
/// range is a place between two bytes (where an insertion goes).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    /// The range from `start` to `end`.
    pub const fn new(start: usize, end: usize) -> TextRange {
        debug_assert!(start <= end, "a text range ends before it starts");
        TextRange { start, end }
    }

    /// The empty range at `offset`.
    pub const fn empty(offset: usize) -> TextRange {
        TextRange { start: offset, end: offset }
    }

    pub const fn len(self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// Whether the byte at `offset` is inside the range.
    pub const fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Whether `offset` is inside the range or at its end: where a cursor touches it.
    pub const fn touches(self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }

    /// Whether `other` lies wholly inside the range.
    pub const fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// Whether the two ranges share a byte.
    pub const fn overlaps(self, other: TextRange) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The same bytes seen from a text that starts `base` bytes earlier (a record's range in
    /// its document, from its range in the record).
    pub const fn shifted(self, base: usize) -> TextRange {
        TextRange { start: self.start + base, end: self.end + base }
    }

    /// The same bytes seen from a text that starts `base` bytes later; `base` is at most
    /// `start`.
    pub const fn unshifted(self, base: usize) -> TextRange {
        TextRange { start: self.start - base, end: self.end - base }
    }

    /// The standard library's range of the same bytes, for the APIs that take one.
    pub const fn to_range(self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for TextRange {
    fn from(range: Range<usize>) -> TextRange {
        TextRange::new(range.start, range.end)
    }
}

impl From<TextRange> for Range<usize> {
    fn from(range: TextRange) -> Range<usize> {
        range.to_range()
    }
}

impl fmt::Debug for TextRange {
    /// Written as the standard library writes ranges (`3..7`), so snapshots and test messages
    /// read the same as they did.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl Index<TextRange> for str {
    type Output = str;

    fn index(&self, range: TextRange) -> &str {
        &self[range.start..range.end]
    }
}

impl Index<TextRange> for String {
    type Output = str;

    fn index(&self, range: TextRange) -> &str {
        &self[range.start..range.end]
    }
}

impl Index<TextRange> for [u8] {
    type Output = [u8];

    fn index(&self, range: TextRange) -> &[u8] {
        &self[range.start..range.end]
    }
}

#[cfg(test)]
mod tests {
    use super::TextRange;

    #[test]
    fn a_range_indexes_the_text_it_covers_and_answers_for_its_ends() {
        let text = "1. E7×E13";
        let range = TextRange::new(3, 9);
        assert_eq!(&text[range], "E7×E1");
        assert_eq!(range.len(), 6);
        assert!(range.contains(3) && !range.contains(9) && range.touches(9));
        assert!(range.contains_range(TextRange::new(5, 7)));
        assert!(!range.contains_range(TextRange::new(5, 10)));
        assert!(range.overlaps(TextRange::new(8, 12)) && !range.overlaps(TextRange::empty(9)));
        assert_eq!(range.shifted(10).unshifted(10), range);
        assert_eq!(format!("{range:?}"), "3..9");
        assert_eq!(TextRange::from(3..9), range);
        assert!(TextRange::empty(4).is_empty());
    }
}
