//! Range formatting: of the formatter's minimal edits, those that lie within the lines a range
//! touches, and only when they say the same without the edits left out.
//!
//! An editor asks to format a few lines (`gq` in Neovim, "Format Selection" in VS Code) and
//! expects nothing else to move. The formatter lays out a whole record, so its edits for the
//! lines asked for are picked out of the record's. An edit whose old text reaches outside those
//! lines is dropped; when some are dropped, the rest applied alone must still read as the same
//! record ([`super::equivalence`]), or the record gets no edit at all: Myers' diff may pair a
//! repeated line (`*`, a blank line) across a move of text from one line to another, and then
//! one half of the change without the other would duplicate or lose a token.

use super::equivalence::compare_files;
use super::options::FormatOptions;
use crate::text::{apply_edits, TextEdit, TextRange};

/// The whole lines `range` touches, each with its line end: from the start of the line the
/// range starts on to the end of the line it ends on, that line included even when the range
/// ends at its start: Neovim 0.7's `gq` asks for lines 3 to 5 as the range from the start of
/// line 3 to the start of line 5. An empty range touches the line it stands in.
pub fn touched_lines(text: &str, range: TextRange) -> TextRange {
    let bytes = text.as_bytes();
    // A range starting between the `\r` and the `\n` of one line end stands on the line that
    // line end closes; past that, the last `\n` or `\r` before the start ends the line before.
    let inside_crlf = range.start > 0
        && bytes[range.start - 1] == b'\r'
        && bytes.get(range.start) == Some(&b'\n');
    let before = if inside_crlf { range.start - 1 } else { range.start };
    let start = text[..before].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let end = match text[range.end..].find(['\n', '\r']) {
        None => text.len(),
        Some(at) => {
            let at = range.end + at;
            if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
                at + 2
            } else {
                at + 1
            }
        }
    };
    TextRange::new(start, end)
}

/// Of one record's edits (`edits`, in text order, the record's text being `text[record]`), those
/// that lie within `lines` (an insertion at either end of them included), when they keep the
/// record equivalent on their own; otherwise none.
pub(super) fn kept_within(
    text: &str,
    record: TextRange,
    edits: Vec<TextEdit>,
    lines: TextRange,
    options: &FormatOptions,
) -> Vec<TextEdit> {
    let count = edits.len();
    let kept: Vec<TextEdit> =
        edits.into_iter().filter(|edit| lines.contains_range(edit.range)).collect();
    if kept.is_empty() || kept.len() == count {
        return kept;
    }
    let original = &text[record];
    let local: Vec<TextEdit> = kept
        .iter()
        .map(|edit| TextEdit::replace(edit.range.unshifted(record.start), edit.new_text.clone()))
        .collect();
    let partly_formatted = apply_edits(original, &local);
    match compare_files(original, &partly_formatted, options) {
        Ok(()) => kept,
        Err(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{kept_within, touched_lines};
    use crate::format::FormatOptions;
    use crate::text::{TextEdit, TextRange};

    #[test]
    fn edits_that_do_not_say_the_same_alone_are_all_left_out() {
        // The edits Myers' diff alone made for this record: the lone `{a}` paired with the one
        // moved down from the second move line, so that the first line's edit drops a comment
        // that the second's writes back.
        let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15 {a}\n{a}\n2. F8-F12 {a}\n*\n";
        let line = |start: &str| {
            let at = text.find(start).expect("the line");
            TextRange::new(at, at + text[at..].find('\n').expect("a line end") + 1)
        };
        let edits = vec![
            TextEdit::replace(line("1. E7"), "1. E7-E13, E21-E15\n"),
            TextEdit::replace(line("2. F8"), "{a}\n2. F8-F12\n{a}\n"),
        ];
        let record = TextRange::new(0, text.len());
        let options = FormatOptions::default();
        for lines in [line("1. E7"), line("2. F8")] {
            assert_eq!(kept_within(text, record, edits.clone(), lines, &options), []);
        }
        let both = TextRange::new(line("1. E7").start, line("2. F8").end);
        assert_eq!(kept_within(text, record, edits.clone(), both, &options), edits);
        // Edits that keep the record alone are kept.
        let alone = vec![
            TextEdit::replace(line("1. E7"), "1. E7-E13, E21-E15\n{a}\n"),
            TextEdit::replace(line("2. F8"), "2. F8-F12\n{a}\n"),
        ];
        assert_eq!(
            kept_within(text, record, alone.clone(), line("2. F8"), &options),
            [alone[1].clone()]
        );
    }

    #[test]
    fn a_range_widens_to_the_whole_lines_it_touches() {
        let text = "ab\ncd\r\nef\rgh";
        let lines = |start: usize, end: usize| {
            let widened = touched_lines(text, TextRange::new(start, end));
            &text[widened]
        };
        assert_eq!(lines(0, 0), "ab\n");
        assert_eq!(lines(1, 1), "ab\n");
        assert_eq!(lines(2, 2), "ab\n");
        assert_eq!(lines(3, 3), "cd\r\n");
        assert_eq!(lines(4, 6), "cd\r\n");
        assert_eq!(lines(5, 5), "cd\r\n");
        assert_eq!(lines(6, 6), "cd\r\n", "between the \\r and the \\n of one line end");
        assert_eq!(lines(6, 8), "cd\r\nef\r");
        assert_eq!(lines(1, 4), "ab\ncd\r\n");
        assert_eq!(lines(0, 3), "ab\ncd\r\n", "the line the range ends at the start of");
        assert_eq!(lines(3, 7), "cd\r\nef\r");
        assert_eq!(lines(7, 7), "ef\r", "a lone \\r ends a line");
        assert_eq!(lines(8, 11), "ef\rgh");
        assert_eq!(lines(11, 11), "gh");
        assert_eq!(lines(12, 12), "gh", "the end of a text without a last line end");
        assert_eq!(touched_lines("a\n", TextRange::empty(2)), TextRange::empty(2));
        assert_eq!(touched_lines("", TextRange::empty(0)), TextRange::empty(0));
    }
}
