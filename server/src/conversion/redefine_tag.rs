//! The `Redefine` tag of a relettered record (handbook §4.3, §10.3 item 5): its value
//! replaced, its line removed, or a new line inserted where the handbook wants it, immediately
//! before the `PDTL` tag or else after the last tag. Lines are removed and inserted whole, so
//! that inserting a tag and removing it again gives back the text byte for byte.

use crate::format::TextEdit;
use crate::syntax::{Item, Tag};

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
        (Some(tag), None) => Some(TextEdit {
            range: line_start(text, tag.range.start)..next_line_start(text, tag.range.end),
            new_text: String::new(),
        }),
        (Some(tag), Some(value)) => {
            let range = tag.value_content_range()?;
            (text[range.clone()] != *value).then(|| TextEdit { range, new_text: value.to_string() })
        }
        (None, Some(value)) => {
            let line = format!("[Redefine \"{value}\"]");
            if let Some(position_tag) = tag_named(&POSITION_TAG_NAMES) {
                let start = line_start(text, position_tag.range.start);
                let indentation = &text[start..position_tag.range.start];
                let ending = ending_after(text, position_tag);
                return Some(TextEdit {
                    range: start..start,
                    new_text: format!("{indentation}{line}{ending}"),
                });
            }
            let last = tags.iter().rev().find_map(|item| {
                if let Item::Tag(tag) = item {
                    Some(tag)
                } else {
                    None
                }
            })?;
            let indentation = &text[line_start(text, last.range.start)..last.range.start];
            let at = next_line_start(text, last.range.end);
            let ending = ending_after(text, last);
            let new_text = if line_ends_before(text, at) {
                format!("{indentation}{line}{ending}")
            } else {
                // The last tag ends the text: the new line needs a line end before it.
                format!("{ending}{indentation}{line}")
            };
            Some(TextEdit { range: at..at, new_text })
        }
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
        let record = syntax::lower_record(&syntax::parse(&mut syntax::new_parser(), text));
        let tags = &record.items[..movetext_start(&record.items)];
        match redefine_tag_edit(text, tags, value) {
            Some(edit) => super::super::apply_edits(text, &[edit]),
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
