//! Line and column arithmetic on text: 1-based lines and columns counted in Unicode scalar
//! values, as the handbook writes positions (§1).

/// The start offsets of the lines of a text; only `\n`, `\r\n` and `\r` end lines.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        // Room for lines of about 32 bytes, so that a record's index rarely grows while built.
        let mut starts = Vec::with_capacity(bytes.len() / 32 + 1);
        starts.push(0);
        starts.extend(line_ends(bytes, 0, bytes.len()).map(|end| end + 1));
        LineIndex { starts }
    }

    /// The 0-based line holding a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset).saturating_sub(1)
    }

    /// The byte offset where a 0-based line starts.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or_else(|| *self.starts.last().unwrap_or(&0))
    }

    /// The 1-based line and 1-based column (in characters) of a byte offset. The file's
    /// byte-order mark (a U+FEFF that is its first character) is not counted; a U+FEFF
    /// anywhere else is a character like any other.
    pub fn line_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let offset = offset.min(text.len());
        let prefix = text.get(start..offset).unwrap_or("");
        let prefix = match start {
            0 => prefix.strip_prefix('\u{FEFF}').unwrap_or(prefix),
            _ => prefix,
        };
        (line + 1, prefix.chars().count() + 1)
    }
}

/// Whether two byte offsets of `text` stand on one line: no line starts after the first and
/// at or before the second, by the line ends of [`LineIndex`]. It reads only the bytes between
/// them, so that a record's analysis, which asks this of neighbouring tokens, needs no index
/// of all its lines.
pub fn on_one_line(text: &str, a: usize, b: usize) -> bool {
    let bytes = text.as_bytes();
    let (from, to) = (a.min(b).min(bytes.len()), a.max(b).min(bytes.len()));
    line_ends(bytes, from, to).next().is_none()
}

/// The offsets of the bytes that end a line in `bytes[from..to]`: every `\n`, and a `\r` not
/// followed by a `\n` (in `\r\n` the line ends at the `\n`, which may lie past `to`). Found
/// by a vectorised search: every record of a file is indexed.
fn line_ends(bytes: &[u8], from: usize, to: usize) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', &bytes[from..to])
        .map(move |index| from + index)
        .filter(|&end| bytes[end] == b'\n' || bytes.get(end + 1) != Some(&b'\n'))
}

#[cfg(test)]
mod tests {
    use super::{on_one_line, LineIndex};

    #[test]
    fn two_offsets_are_on_one_line_as_the_index_places_them() {
        let text = "a×b\r\nc‐d\re…\n\n🩐x\r";
        let index = LineIndex::new(text);
        for a in 0..=text.len() {
            for b in 0..=text.len() {
                assert_eq!(
                    on_one_line(text, a, b),
                    index.line_of(a) == index.line_of(b),
                    "offsets {a} and {b}"
                );
            }
        }
    }

    #[test]
    fn columns_count_characters_and_lines_end_at_any_line_break() {
        let text = "a×b\r\nc‐d\re…\n🩐x";
        let index = LineIndex::new(text);
        assert_eq!(index.line_column(text, text.find('b').unwrap()), (1, 3));
        assert_eq!(index.line_column(text, text.find('d').unwrap()), (2, 3));
        assert_eq!(index.line_column(text, text.find('e').unwrap()), (3, 1));
        assert_eq!(index.line_column(text, text.find('x').unwrap()), (4, 2));
    }

    #[test]
    fn only_the_files_first_character_is_skipped_as_a_byte_order_mark() {
        let text = "\u{FEFF}ab\n\u{FEFF}cd\r\u{FEFF}\u{FEFF}e";
        let index = LineIndex::new(text);
        assert_eq!(index.line_column(text, text.find('a').unwrap()), (1, 1));
        assert_eq!(index.line_column(text, text.find('b').unwrap()), (1, 2));
        assert_eq!(index.line_column(text, text.find('c').unwrap()), (2, 2));
        assert_eq!(index.line_column(text, text.find('d').unwrap()), (2, 3));
        assert_eq!(index.line_column(text, text.find('e').unwrap()), (3, 3));
        // Without a mark, the first line counts from its first character too.
        assert_eq!(index.line_column("ab", 1), (1, 2));
    }
}
