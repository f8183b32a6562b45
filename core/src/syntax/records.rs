//! Where records begin: at every line whose first non-blank characters are `[Variant`
//! (handbook §2), the same rule the grammar's scanner applies, so that a record's text parses
//! on its own exactly as it would inside the whole file.

use super::chars::{is_space_or_tab_byte, is_white_space};
use crate::text::TextRange;

/// Byte ranges of the records of a file, in order, covering the whole text. Text before the
/// first `[Variant` line is a record of its own when it holds anything but blanks (it is
/// reported as lacking its Variant tag); a leading byte-order mark is not part of any record.
pub fn split_records(text: &str) -> Vec<TextRange> {
    let bytes = text.as_bytes();
    let body_start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let mut starts = Vec::new();
    let mut line_start = body_start;
    while line_start < bytes.len() {
        let content = line_start
            + bytes[line_start..].iter().take_while(|&&b| is_space_or_tab_byte(b)).count();
        if opens_record(&bytes[content..]) {
            starts.push(line_start);
        }
        line_start = match memchr_newline(&bytes[content..]) {
            Some(offset) => content + offset + 1,
            None => bytes.len(),
        };
    }
    let mut ranges = Vec::with_capacity(starts.len() + 1);
    let first = starts.first().copied().unwrap_or(bytes.len());
    if !text[body_start..first].chars().all(is_white_space) {
        ranges.push(TextRange::new(body_start, first));
    }
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(bytes.len());
        ranges.push(TextRange::new(start, end));
    }
    ranges
}

/// Whether a line's content starts with `[Variant` not followed by a tag-name character.
pub fn opens_record(content: &[u8]) -> bool {
    content.starts_with(b"[Variant")
        && !content.get(8).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The offset of the next line end (`\n`, or a lone `\r`), found by a vectorised search:
/// every line of a file is passed over this way.
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', bytes)
}

#[cfg(test)]
mod tests {
    use super::split_records;

    #[test]
    fn records_start_at_variant_lines() {
        let text =
            "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n  [Variant \"C'escacs\"]\n[VariantX \"\"]\n";
        let ranges = split_records(text);
        assert_eq!(ranges.len(), 2);
        assert!(text[ranges[1]].trim_start().starts_with("[Variant \""));
        assert_eq!(ranges[1].end, text.len());
    }

    #[test]
    fn text_before_the_first_record_is_a_record_when_not_blank() {
        assert_eq!(split_records("\n\n[Variant \"x\"]\n").len(), 1);
        assert_eq!(split_records("[Event \"x\"]\n[Variant \"x\"]\n").len(), 2);
        assert_eq!(split_records("").len(), 0);
    }
}
