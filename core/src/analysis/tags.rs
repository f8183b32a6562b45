//! The tag rules of the handbook (§10, §14.6): order, roster, repeatable tags, value formats and
//! names (T-codes), beyond the content-affecting tags read by `setup` (T001, T002, T005, T022,
//! T023, T024, and T003 for `Variant`, `Redefine`, `PDTL`) and the `Result` agreement (T014).

mod catalogue;
mod dates;
mod identifier;
mod order;
mod values;

pub(crate) use catalogue::{tag_words, unknown_name_message};
pub(crate) use catalogue::{KNOWN as TAG_NAMES, REPEATABLE};
pub(crate) use order::ROSTER;
pub(crate) use values::ENUMERATIONS;

use crate::diagnostics::Findings;
use crate::syntax::{Comment, Item, Tag};
use crate::text::TextRange;

/// Checks the tag section of a record's items: names, order, record kind and values.
pub fn check_tags(text: &str, items: &[Item], diagnostics: &mut Findings) {
    let section = TagSection::read(text, items);
    let result_line = items.iter().find_map(|item| match item {
        Item::Result(token) => Some(token.text(text)),
        _ => None,
    });
    catalogue::check_names(text, &section.tags, result_line, diagnostics);
    catalogue::check_record_kind(&section.tags, diagnostics);
    order::check_order(&section, diagnostics);
    values::check_values(&section.tags, diagnostics);
    identifier::check_annotator_id(&section.tags, diagnostics);
}

/// One readable tag line of the tag section.
#[derive(Debug)]
struct TagLine<'a> {
    tag: &'a Tag,
    name: &'a str,
    /// The unescaped value; `None` when the line has no value.
    value: Option<String>,
}

impl TagLine<'_> {
    /// Where tag issues point: the whole line, starting at its `[` (§14 anchors).
    fn line_range(&self) -> TextRange {
        self.tag.range
    }

    /// Where value-format issues point: the value's content, after the opening quote.
    fn value_range(&self) -> TextRange {
        self.tag.value_content_range().unwrap_or_else(|| self.line_range())
    }
}

/// The tags before the movetext, and the comments written among them.
#[derive(Debug)]
struct TagSection<'a> {
    tags: Vec<TagLine<'a>>,
    /// Comments before the last tag of the section (T025); later ones are start comments.
    comments_among_tags: Vec<&'a Comment>,
}

impl<'a> TagSection<'a> {
    /// Reads the section: the items before the first move line, variation, result or stray
    /// `)`. Malformed tag lines (S002) keep their place in the order under the name written
    /// after their `[`, but their value is not judged: S002 says it could not be read.
    fn read(text: &'a str, items: &'a [Item]) -> TagSection<'a> {
        let section = &items[..crate::syntax::movetext_start(items)];
        let mut tags = Vec::new();
        let mut comments = Vec::new();
        let mut last_tag_start = 0;
        for item in section {
            match item {
                Item::Tag(tag) => {
                    last_tag_start = tag.range.start;
                    if tag.malformed {
                        let name = written_name(text, tag);
                        if !name.is_empty() {
                            tags.push(TagLine { tag, name, value: None });
                        }
                    } else {
                        tags.push(TagLine {
                            tag,
                            name: tag.name.text(text),
                            value: tag.value_text(text),
                        });
                    }
                }
                Item::Comment(comment) => comments.push(comment),
                _ => {}
            }
        }
        comments.retain(|comment| comment.range.start < last_tag_start);
        TagSection { tags, comments_among_tags: comments }
    }
}

/// The name written after the `[` of a malformed tag line. The grammar's error recovery may
/// take a later word for the name (`[Event Barcelona]` is read as a tag named `Barcelona`), so
/// the name is read from the line's text with the grammar's rule for tag names.
fn written_name<'a>(text: &'a str, tag: &Tag) -> &'a str {
    let line = &text[tag.range];
    let after_bracket = line.strip_prefix('[').unwrap_or(line).trim_start_matches([' ', '\t']);
    let length = after_bracket
        .char_indices()
        .find(|&(index, c)| {
            !(c.is_ascii_alphabetic() || (index > 0 && (c.is_ascii_digit() || c == '_')))
        })
        .map_or(after_bracket.len(), |(index, _)| index);
    &after_bracket[..length]
}

/// A value as quoted in messages: an empty value would otherwise read as nothing.
fn shown(value: &str) -> &str {
    if value.is_empty() {
        "an empty value"
    } else {
        value
    }
}
