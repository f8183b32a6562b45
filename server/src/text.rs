//! Line and column arithmetic on text: 1-based lines and columns counted in Unicode scalar
//! values, as the handbook writes positions (§1). Protocol encodings are the server's concern.

/// The start offsets of the lines of a text; only `\n`, `\r\n` and `\r` end lines.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
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

    /// The 1-based line and 1-based column (in characters) of a byte offset. A leading BOM is
    /// not counted.
    pub fn line_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let offset = offset.min(text.len());
        let prefix = text.get(start..offset).unwrap_or("");
        let prefix = prefix.strip_prefix('\u{FEFF}').unwrap_or(prefix);
        (line + 1, prefix.chars().count() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::LineIndex;

    #[test]
    fn columns_count_characters_and_lines_end_at_any_line_break() {
        let text = "a×b\r\nc‐d\re…\n🩐x";
        let index = LineIndex::new(text);
        assert_eq!(index.line_column(text, text.find('b').unwrap()), (1, 3));
        assert_eq!(index.line_column(text, text.find('d').unwrap()), (2, 3));
        assert_eq!(index.line_column(text, text.find('e').unwrap()), (3, 1));
        assert_eq!(index.line_column(text, text.find('x').unwrap()), (4, 2));
    }
}
