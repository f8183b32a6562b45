//! A token: the byte range of a piece of a record's text, the unit every value of the syntax
//! model points back into the text with.

use crate::text::TextRange;

/// A token of the text: its byte range in the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Token {
    pub range: TextRange,
}

impl Token {
    /// The token's text in the record's text.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.range]
    }
}
