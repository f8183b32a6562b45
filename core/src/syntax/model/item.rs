//! The items of a record or of a variation, in text order: tags, move lines, comments,
//! variations, results and what the reading could not place.

use crate::text::TextRange;

use super::{Comment, MoveLine, Tag, Token};

/// A variation `( … )`. Its items are kept by its record ([`RecordSyntax::items_of`]), not
/// inside it: a record nests variations as deep as its author likes, and a value that held
/// its nested variations would recurse per level when dropped, cloned, compared or printed.
///
/// [`RecordSyntax::items_of`]: crate::syntax::RecordSyntax::items_of
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    pub range: TextRange,
    pub open: Token,
    pub label: Option<Token>,
    /// The `)`; `None` when the variation was never closed (M011).
    pub close: Option<Token>,
    /// Where its items are in [`RecordSyntax::bodies`](crate::syntax::RecordSyntax::bodies).
    pub body: usize,
}

/// One item of a record or of a variation, in text order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Tag(Tag),
    MoveLine(MoveLine),
    Comment(Comment),
    Variation(Variation),
    Result(Token),
    /// A `)` that closes nothing.
    StrayClose(Token),
    /// Text the grammar could not place (an ERROR node).
    Error(Token),
}

impl Item {
    /// The item's byte range in the record.
    pub fn range(&self) -> &TextRange {
        match self {
            Item::Tag(tag) => &tag.range,
            Item::MoveLine(line) => &line.range,
            Item::Comment(comment) => &comment.range,
            Item::Variation(variation) => &variation.range,
            Item::Result(token) | Item::StrayClose(token) | Item::Error(token) => &token.range,
        }
    }
}

/// Where the movetext of a record's items starts: at the first move line, variation, result or
/// stray `)`. Everything before it is the tag section (with any comments among the tags).
pub fn movetext_start(items: &[Item]) -> usize {
    items
        .iter()
        .position(|item| {
            matches!(
                item,
                Item::MoveLine(_) | Item::Variation(_) | Item::Result(_) | Item::StrayClose(_)
            )
        })
        .unwrap_or(items.len())
}
