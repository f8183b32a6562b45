//! The canonical layout of one record (§7, §10.1, §11, §12.1): tag lines, a blank line, then
//! one line per move pair, comment, variation opener or closer and result, indented with one
//! dot per nesting level (§11.4). Lines end with `\n` here; the caller picks the file's ending.

use super::moves::write_move_line;
use super::options::FormatOptions;
use crate::syntax::{Comment, Item, RecordSyntax, Step, Tag, Variation};

/// Lays out a record that [`is_formattable`] accepted; every line, the last included, ends
/// with `\n`.
pub(super) fn lay_out_record(text: &str, record: &RecordSyntax, options: &FormatOptions) -> String {
    let mut layout =
        Layout { text, syntax: record, options, out: String::with_capacity(text.len() + 64) };
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

/// The deepest nesting of variations the formatter lays out. The canonical layout puts one dot
/// per level on every line of a variation, so its size grows with the square of the depth: a
/// record nested 100,000 deep would become billions of dots. Deeper records are kept as
/// written, as no author indents them by hand either.
pub const MAX_LAYOUT_DEPTH: usize = 1_000;

/// Whether the formatter may rewrite a record. A record with a syntax error, an unclosed
/// comment or an unclosed variation is kept as written: its tree does not say what the author
/// meant, so any layout could change the meaning. A `[Variant` tag after the first item would
/// start a new record once it stood at the start of its own line, so that record is kept too,
/// and so is one nested deeper than [`MAX_LAYOUT_DEPTH`].
pub(super) fn is_formattable(text: &str, record: &RecordSyntax) -> bool {
    let later_variant_tag = record
        .items
        .iter()
        .skip(1)
        .any(|item| matches!(item, Item::Tag(tag) if tag.name.text(text) == "Variant"));
    !record.has_error
        && !later_variant_tag
        && record.all_closed()
        && !record.walk(&record.items).any(|step| {
            matches!(step, Step::Item(Item::Variation(_), depth) if depth >= MAX_LAYOUT_DEPTH)
        })
        && !has_half_move_written_apart(text, record)
}

/// Whether a half-move of any line of play has its parts apart (`H6 -H12`, S004): laying it
/// out would join tokens the user wrote apart, so the record is kept as written.
fn has_half_move_written_apart(text: &str, record: &RecordSyntax) -> bool {
    std::iter::once(&record.items).chain(&record.bodies).flatten().any(|item| {
        matches!(item, Item::MoveLine(line)
            if line.half_moves().any(|half_move| half_move.written_apart(text).is_some()))
    })
}

struct Layout<'a> {
    text: &'a str,
    syntax: &'a RecordSyntax,
    options: &'a FormatOptions,
    out: String,
}

impl<'a> Layout<'a> {
    /// The items of the main line (nesting `depth` 0), one or more lines each, with their
    /// variations: the lines of play being laid out are kept on a stack, innermost last, each
    /// with its variation and depth.
    fn items(&mut self, items: &'a [Item], depth: usize) {
        let mut lines: Vec<(Option<&Variation>, std::slice::Iter<'a, Item>, usize)> =
            vec![(None, items.iter(), depth)];
        while let Some((_, items, depth)) = lines.last_mut() {
            let depth = *depth;
            match items.next() {
                Some(Item::Variation(variation)) => {
                    if let Some(content) = self.open_variation(variation, depth + 1) {
                        lines.push((Some(variation), content.iter(), depth + 1));
                    }
                }
                Some(item) => self.item(item, depth),
                None => {
                    if let Some((Some(variation), _, depth)) = lines.pop() {
                        self.close_variation(variation, depth);
                    }
                }
            }
        }
    }

    /// An item other than a variation, at nesting `depth`.
    fn item(&mut self, item: &Item, depth: usize) {
        match item {
            Item::Tag(tag) => self.tag(tag),
            Item::MoveLine(line) => {
                self.dots(depth);
                write_move_line(&mut self.out, self.text, line, self.options);
                self.out.push('\n');
            }
            Item::Comment(comment) => self.comment(comment, depth),
            Item::Variation(_) => {}
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

    /// The opener of a variation of nesting `depth` (1: a variation of the main line): `depth
    /// − 1` dots, `(`, the label and the first move line. The rest of its items, which carry
    /// `depth` dots, are returned; `None` when the variation is empty and closed already.
    fn open_variation(&mut self, variation: &Variation, depth: usize) -> Option<&'a [Item]> {
        self.dots(depth - 1);
        self.out.push('(');
        let items = self.syntax.items_of(variation);
        let mut content = items;
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
        if items.is_empty() && label_is_closed {
            self.out.push_str(")\n");
            return None;
        }
        self.out.push('\n');
        Some(content)
    }

    /// The `)` of a variation of nesting `depth`: it ends the last move line, or stands alone
    /// when a comment or variation ends it.
    fn close_variation(&mut self, variation: &Variation, depth: usize) {
        // A malformed indicator `(=` would swallow an attached `)` into `(=)`.
        let ends_with_move =
            matches!(self.syntax.items_of(variation).last(), Some(Item::MoveLine(_)));
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
