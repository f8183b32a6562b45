//! The canonical layout of one record (§7, §10.1, §11, §12.1): tag lines, a blank line, then
//! one line per move pair, comment, variation opener or closer and result, indented with one
//! dot per nesting level (§11.4). Lines end with `\n` here; the caller picks the file's ending.

use super::moves::write_move_line;
use super::options::FormatOptions;
use crate::syntax::{Comment, Item, RecordSyntax, Tag, Variation};

/// Lays out a record that [`is_formattable`] accepted; every line, the last included, ends
/// with `\n`.
pub(super) fn lay_out_record(text: &str, record: &RecordSyntax, options: &FormatOptions) -> String {
    let mut layout = Layout { text, options, out: String::with_capacity(text.len() + 64) };
    // The tag section ends at its last tag before the movetext; comments among the tags (T025)
    // stay inside it, so that the blank line still parts tags from moves.
    let movetext_start = record
        .items
        .iter()
        .position(|item| !matches!(item, Item::Tag(_) | Item::Comment(_)))
        .unwrap_or(record.items.len());
    let tag_section = record.items[..movetext_start]
        .iter()
        .rposition(|item| matches!(item, Item::Tag(_)))
        .map_or(0, |last| last + 1);
    layout.items(&record.items[..tag_section], 0);
    if tag_section > 0 && tag_section < record.items.len() {
        layout.out.push('\n');
    }
    layout.items(&record.items[tag_section..], 0);
    layout.out
}

/// Whether the formatter may rewrite a record. A record with a syntax error, an unclosed
/// comment or an unclosed variation is kept as written: its tree does not say what the author
/// meant, so any layout could change the meaning. A `[Variant` tag after the first item would
/// start a new record once it stood at the start of its own line, so that record is kept too.
pub(super) fn is_formattable(text: &str, record: &RecordSyntax) -> bool {
    let later_variant_tag = record
        .items
        .iter()
        .skip(1)
        .any(|item| matches!(item, Item::Tag(tag) if tag.name.text(text) == "Variant"));
    !record.has_error
        && !later_variant_tag
        && all_closed(&record.items)
        && !has_half_move_written_apart(text, &record.items)
}

/// Whether a half-move of any line of play has its parts apart (`H6 -H12`, S004): laying it
/// out would join tokens the user wrote apart, so the record is kept as written.
fn has_half_move_written_apart(text: &str, items: &[Item]) -> bool {
    let mut pending = vec![items];
    while let Some(items) = pending.pop() {
        for item in items {
            match item {
                Item::MoveLine(line)
                    if [&line.white, &line.black]
                        .into_iter()
                        .flatten()
                        .any(|half_move| half_move.written_apart(text).is_some()) =>
                {
                    return true;
                }
                Item::Variation(variation) => pending.push(&variation.items),
                _ => {}
            }
        }
    }
    false
}

fn all_closed(items: &[Item]) -> bool {
    items.iter().all(|item| match item {
        Item::Comment(comment) => comment.closed,
        Item::Variation(variation) => variation.close.is_some() && all_closed(&variation.items),
        Item::Error(_) => false,
        _ => true,
    })
}

struct Layout<'a> {
    text: &'a str,
    options: &'a FormatOptions,
    out: String,
}

impl Layout<'_> {
    /// The items of a line of play at nesting `depth` (0: the main line), one or more lines each.
    fn items(&mut self, items: &[Item], depth: usize) {
        for item in items {
            match item {
                Item::Tag(tag) => self.tag(tag),
                Item::MoveLine(line) => {
                    self.dots(depth);
                    write_move_line(&mut self.out, self.text, line, self.options);
                    self.out.push('\n');
                }
                Item::Comment(comment) => self.comment(comment, depth),
                Item::Variation(variation) => self.variation(variation, depth + 1),
                Item::Result(token) | Item::Error(token) => {
                    self.out.push_str(token.text(self.text));
                    self.out.push('\n');
                }
                Item::StrayClose(_) => {
                    self.dots(depth);
                    self.out.push_str(")\n");
                }
            }
        }
    }

    /// `[Name "value"]`, the value exactly as written.
    fn tag(&mut self, tag: &Tag) {
        self.out.push('[');
        self.out.push_str(tag.name.text(self.text));
        if let Some(value) = &tag.value {
            self.out.push(' ');
            self.out.push_str(value.text(self.text));
        }
        self.out.push_str("]\n");
    }

    /// A comment from `{` to `}` as written, its first line indented to `depth`. Only trailing
    /// blanks of its lines go, and its inner line breaks take the file's ending later.
    fn comment(&mut self, comment: &Comment, depth: usize) {
        self.dots(depth);
        let body = &self.text[comment.open.range.start..comment.range.end];
        for (index, line) in comment_lines(body).enumerate() {
            if index > 0 {
                self.out.push('\n');
            }
            self.out.push_str(line.trim_end_matches([' ', '\t']));
        }
        self.out.push('\n');
    }

    /// A variation of nesting `depth` (1: a variation of the main line). The opener carries
    /// `depth − 1` dots, `(`, the label and the first move line; the content carries `depth`
    /// dots; `)` ends the last move line, or stands alone when a comment or variation ends it.
    fn variation(&mut self, variation: &Variation, depth: usize) {
        self.dots(depth - 1);
        self.out.push('(');
        let mut content = variation.items.as_slice();
        if let Some(label) = &variation.label {
            self.out.push_str(label.text(self.text));
        }
        if let Some((Item::MoveLine(first), rest)) = content.split_first() {
            if variation.label.is_some() {
                self.out.push(' ');
            }
            write_move_line(&mut self.out, self.text, first, self.options);
            content = rest;
        }
        // An empty variation closes on its own line's `(`, unless a malformed label (`$[2`,
        // `$2`) would read the `)` as part of itself.
        let label_is_closed =
            variation.label.as_ref().is_none_or(|label| label.text(self.text).ends_with(']'));
        if variation.items.is_empty() && label_is_closed {
            self.out.push_str(")\n");
            return;
        }
        self.out.push('\n');
        self.items(content, depth);
        // A malformed indicator `(=` would swallow an attached `)` into `(=)`.
        let ends_with_move = matches!(variation.items.last(), Some(Item::MoveLine(_)));
        if ends_with_move && !self.out.ends_with("(=\n") {
            self.out.pop();
            self.out.push_str(")\n");
        } else {
            self.dots(depth - 1);
            self.out.push_str(")\n");
        }
    }

    fn dots(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push('.');
        }
    }
}

/// The lines of a comment's text, whatever ended them (`\r\n`, `\n` or a lone `\r`).
pub(super) fn comment_lines(body: &str) -> impl Iterator<Item = &str> {
    body.split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .flat_map(|line| line.split('\r'))
}
