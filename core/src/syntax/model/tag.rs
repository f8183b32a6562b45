//! A tag line `[Name "value"]` as a value, and its value read with its escapes undone.

use crate::text::TextRange;

use super::Token;

/// A tag line `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub range: TextRange,
    pub name: Token,
    /// The value token, quotes included; `None` when the tag has no value.
    pub value: Option<Token>,
    /// Whether the tag line holds an error (S002).
    pub malformed: bool,
}

impl Tag {
    /// The value without its quotes and with `\"` and `\\` unescaped.
    pub fn value_text(&self, source: &str) -> Option<String> {
        let raw = self.value.as_ref()?.text(source);
        let inner = raw.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(raw);
        let mut value = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(escaped) = chars.next() {
                    value.push(escaped);
                    continue;
                }
            }
            value.push(c);
        }
        Some(value)
    }

    /// The record's byte range written for `unescaped`, a byte range of [`Tag::value_text`]:
    /// each `\"` or `\\` counts for one byte there but two in the text, so a range found in
    /// the unescaped value (a PDTL problem) is moved past the escapes before it and widened
    /// over those inside it. Ends off a character of the value are moved outwards.
    pub fn value_range_in_text(&self, source: &str, unescaped: TextRange) -> TextRange {
        let Some(token) = self.value.as_ref() else { return self.range };
        let raw = token.text(source);
        let (inner_start, inner) =
            match raw.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
                Some(inner) => (token.range.start + 1, inner),
                None => (token.range.start, raw),
            };
        // Walk the text as `value_text` does, keeping each character's place in both.
        let (mut start, mut end) = (None, None);
        let mut value_offset = 0;
        let mut chars = inner.char_indices().peekable();
        while let Some((text_offset, c)) = chars.next() {
            let value_char = match c {
                '\\' => chars.next().map(|(_, escaped)| escaped).unwrap_or(c),
                _ => c,
            };
            let written_end = chars.peek().map_or(inner.len(), |(next, _)| *next);
            let value_end = value_offset + value_char.len_utf8();
            if start.is_none() && unescaped.start < value_end {
                start = Some(inner_start + text_offset);
            }
            if end.is_none() && unescaped.end <= value_offset {
                end = Some(inner_start + text_offset);
            } else if end.is_none() && unescaped.end <= value_end {
                end = Some(inner_start + written_end);
            }
            value_offset = value_end;
        }
        let start = start.unwrap_or(inner_start + inner.len());
        let end = end.unwrap_or(inner_start + inner.len()).max(start);
        TextRange::new(start, end)
    }

    /// Byte range of the value's content, inside the quotes.
    pub fn value_content_range(&self) -> Option<TextRange> {
        let range = self.value.as_ref()?.range;
        Some(TextRange::new(range.start + 1, range.end.saturating_sub(1).max(range.start + 1)))
    }
}
