//! A record as values, and the depth-first walk over its items and its variations' items.

use super::{Item, SpareHalfMoves, Variation};

/// A record as values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordSyntax {
    /// The record's own items: tags, the main line's move lines, comments, variations, result.
    pub items: Vec<Item>,
    /// The items of every variation, at the index its `body` gives, in the order of their `(`.
    pub bodies: Vec<Vec<Item>>,
    /// Whether the record's tree holds any error or missing node.
    pub has_error: bool,
    /// Missing tokens the parser inserted (kind and position), besides ERROR items.
    pub missing: Vec<(String, usize)>,
}

impl RecordSyntax {
    /// The items of a variation of this record, in text order.
    pub fn items_of(&self, variation: &Variation) -> &[Item] {
        self.bodies.get(variation.body).map_or(&[], Vec::as_slice)
    }

    /// Whether every comment and variation of the record, at any depth, is closed and no item
    /// is an error: the record's items and every variation's are all its items.
    pub fn all_closed(&self) -> bool {
        std::iter::once(&self.items).chain(&self.bodies).flatten().all(|item| match item {
            Item::Comment(comment) => comment.closed,
            Item::Variation(variation) => variation.close.is_some(),
            Item::Error(_) => false,
            _ => true,
        })
    }

    /// Whether the record reads as its author wrote it: no error or missing node in its tree,
    /// every comment and variation closed. Otherwise the syntax is the parser's best guess.
    pub fn is_clean(&self) -> bool {
        !self.has_error && self.missing.is_empty() && self.all_closed()
    }

    /// Drops the record, the boxes of its move lines' half-moves kept in `spares` for the
    /// records read next.
    pub fn recycle_into(mut self, spares: &mut SpareHalfMoves) {
        for item in std::iter::once(&mut self.items).chain(&mut self.bodies).flatten() {
            if let Item::MoveLine(line) = item {
                if !spares.keep_from(line) {
                    return;
                }
            }
        }
    }

    /// A depth-first walk, in text order, over `items` (the record's items or a part of them)
    /// and the items of every variation among them.
    pub fn walk<'a>(&'a self, items: &'a [Item]) -> Walk<'a> {
        Walk { syntax: self, lines: vec![(None, items.iter())], entered: None }
    }
}

/// A step of a [`Walk`].
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// An item, with its nesting depth (0 for the items the walk started with). A variation's
    /// items follow it, then its `Leave`, unless [`Walk::skip_variation`] was called.
    Item(&'a Item, usize),
    /// The end of a variation's items.
    Leave(&'a Variation),
}

/// A depth-first walk over items and their variations with an explicit stack, so that the
/// depth of nesting costs memory, never the thread's stack.
#[derive(Debug)]
pub struct Walk<'a> {
    syntax: &'a RecordSyntax,
    /// The lines of play being walked, innermost last, each with its variation (`None` for the
    /// items the walk started with).
    lines: Vec<(Option<&'a Variation>, std::slice::Iter<'a, Item>)>,
    /// The variation just given, whose items come next.
    entered: Option<&'a Variation>,
}

impl Walk<'_> {
    /// Leaves out the items of the variation just given (and its `Leave`).
    pub fn skip_variation(&mut self) {
        self.entered = None;
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        if let Some(variation) = self.entered.take() {
            self.lines.push((Some(variation), self.syntax.items_of(variation).iter()));
        }
        let depth = self.lines.len().checked_sub(1)?;
        let (_, items) = self.lines.last_mut()?;
        match items.next() {
            Some(item) => {
                if let Item::Variation(variation) = item {
                    self.entered = Some(variation);
                }
                Some(Step::Item(item, depth))
            }
            None => {
                let (variation, _) = self.lines.pop()?;
                variation.map(Step::Leave)
            }
        }
    }
}
