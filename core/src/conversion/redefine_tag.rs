//! The `Redefine` tag of a relettered record (handbook §4.3, §10.3 item 5): its value
//! replaced, the tag removed, or a new tag inserted where the handbook wants it, immediately
//! before the `PDTL` tag or else after the last tag. A tag alone on its line is removed and
//! inserted as a whole line; a tag that shares its line with other tags (tags may stand
//! side by side, §10.1) is removed with the blanks that separate it from its neighbour and
//! inserted as ` [Redefine "…"]` after the tag before it. Either way, inserting a tag and
//! removing it again gives back the text byte for byte, and no edit ever reaches into
//! another tag, whose own identifiers (the `PDTL` value) may be edited at the same time.

use crate::syntax::{Item, Tag};
use crate::text::{TextEdit, TextRange};

/// The names under which the position tag is read (§10.2: `TLPD` and `DPTL` are legacy).
pub(super) const POSITION_TAG_NAMES: [&str; 3] = ["PDTL", "TLPD", "DPTL"];

/// The edit that gives the tag section `tags` (the record's items before its movetext) the
/// `Redefine` tag `value` (`None`: no `Redefine` tag), or `None` when it already has it.
pub(super) fn redefine_tag_edit(
    text: &str,
    tags: &[Item],
    value: Option<&str>,
) -> Option<TextEdit> {
    let tag_named = |names: &[&str]| {
        tags.iter().find_map(|item| match item {
            Item::Tag(tag) if names.contains(&tag.name.text(text)) => Some(tag),
            _ => None,
        })
    };
    let redefine = tag_named(&["Redefine"]);
    match (redefine, value) {
        (None, None) => None,
        (Some(tag), None) => Some(TextEdit::delete(removal(text, tag))),
        (Some(tag), Some(value)) => {
            let range = tag.value_content_range()?;
            (text[range] != *value).then(|| TextEdit { range, new_text: value.to_string() })
        }
        (None, Some(value)) => {
            let tag_text = format!("[Redefine \"{value}\"]");
            if let Some(position_tag) = tag_named(&POSITION_TAG_NAMES) {
                let start = line_start(text, position_tag.range.start);
                let before = &text[start..position_tag.range.start];
                if !is_blank(before) {
                    // Another tag stands before the position tag on its line: the new tag
                    // goes between the two, on that line.
                    let at = start + before.trim_end_matches(BLANKS).len();
                    return Some(TextEdit::insert(at, format!(" {tag_text}")));
                }
                let ending = ending_after(text, position_tag);
                return Some(TextEdit::insert(start, format!("{before}{tag_text}{ending}")));
            }
            let last = tags.iter().rev().find_map(|item| {
                if let Item::Tag(tag) = item {
                    Some(tag)
                } else {
                    None
                }
            })?;
            let at = next_line_start(text, last.range.end);
            if !is_blank(&text[last.range.end..at]) {
                // Something follows the last tag on its line: the new tag goes right after it.
                let at = last.range.end;
                return Some(TextEdit::insert(at, format!(" {tag_text}")));
            }
            let line = &text[line_start(text, last.range.start)..last.range.start];
            let indentation = &line[..line.len() - line.trim_start_matches(BLANKS).len()];
            let ending = ending_after(text, last);
            let new_text = if line_ends_before(text, at) {
                format!("{indentation}{tag_text}{ending}")
            } else {
                // The last tag ends the text: the new line needs a line end before it.
                format!("{ending}{indentation}{tag_text}")
            };
            Some(TextEdit::insert(at, new_text))
        }
    }
}

/// The blanks that separate tags on a line.
const BLANKS: [char; 2] = [' ', '\t'];

/// Whether `text` holds nothing but blanks and line ends.
fn is_blank(text: &str) -> bool {
    text.chars().all(|c| BLANKS.contains(&c) || c == '\n' || c == '\r')
}

/// The range removed with `tag`: its whole line when it stands alone there; else the tag and
/// the blanks before it when something precedes it on its line, or the tag and the blanks
/// after it when something follows it. The other text of the line stays as written.
fn removal(text: &str, tag: &Tag) -> TextRange {
    let start = line_start(text, tag.range.start);
    let end = next_line_start(text, tag.range.end);
    let before = &text[start..tag.range.start];
    let after = &text[tag.range.end..end];
    if !is_blank(before) {
        TextRange::new(start + before.trim_end_matches(BLANKS).len(), tag.range.end)
    } else if !is_blank(after) {
        TextRange::new(
            tag.range.start,
            tag.range.end + (after.len() - after.trim_start_matches(BLANKS).len()),
        )
    } else {
        TextRange::new(start, end)
    }
}

/// The offset where the line holding `offset` starts.
fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind(['\n', '\r']).map_or(0, |end| end + 1)
}

/// The offset where the line after the one holding `offset` starts (the end of the text when
/// that line is the last).
fn next_line_start(text: &str, offset: usize) -> usize {
    match text[offset..].find(['\n', '\r']) {
        Some(end) if text[offset + end..].starts_with("\r\n") => offset + end + 2,
        Some(end) => offset + end + 1,
        None => text.len(),
    }
}

/// Whether the text before `offset` ends with a line end.
fn line_ends_before(text: &str, offset: usize) -> bool {
    text[..offset].ends_with(['\n', '\r'])
}

/// The line end of the tag's line, or the record's usual one when the tag ends the text.
fn ending_after<'a>(text: &'a str, tag: &Tag) -> &'a str {
    let end = next_line_start(text, tag.range.end);
    let line = &text[tag.range.end..end];
    match line.find(['\n', '\r']) {
        Some(at) => &line[at..],
        None => super::line_ending(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{self, movetext_start};

    /// The text after giving the record `value` as its `Redefine` tag.
    fn with_redefine(text: &str, value: Option<&str>) -> String {
        let record = syntax::parse_record(text);
        let tags = &record.items[..movetext_start(&record.items)];
        match redefine_tag_edit(text, tags, value) {
            Some(edit) => crate::text::apply_edits(text, &[edit]),
            None => text.to_string(),
        }
    }

    #[test]
    fn a_new_redefine_tag_stands_before_pdtl_or_after_the_last_tag() {
        let plain = "[Variant \"C'escacs\"]\r\n[Result \"*\"]\r\n\r\n1. E7-E13:\r\n*\r\n";
        let fan = with_redefine(plain, Some("FAN"));
        assert_eq!(fan, "[Variant \"C'escacs\"]\r\n[Result \"*\"]\r\n[Redefine \"FAN\"]\r\n\r\n1. E7-E13:\r\n*\r\n");
        assert_eq!(with_redefine(&fan, None), plain);
        let with_position = "[Variant \"C'escacs\"]\n  [PDTL \"x\"]\n1. E7-E13:\n*\n";
        let redefined = with_redefine(with_position, Some("T@R"));
        assert_eq!(
            redefined,
            "[Variant \"C'escacs\"]\n  [Redefine \"T@R\"]\n  [PDTL \"x\"]\n1. E7-E13:\n*\n"
        );
        assert_eq!(with_redefine(&redefined, Some("FAN")), redefined.replace("T@R", "FAN"));
        assert_eq!(with_redefine(&redefined, None), with_position);
    }

    #[test]
    fn a_tag_section_that_ends_the_text_gets_a_line_end_first() {
        assert_eq!(
            with_redefine("[Variant \"C'escacs\"]", Some("FAN")),
            "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]"
        );
    }
}
