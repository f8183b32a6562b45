//! Hovers, as Markdown over byte ranges of one record: on a half-move, a coordinate (in a
//! half-move or a comment), a tag name, the value of the `PDTL` tag, and a move reference
//! inside a comment. This file finds what stands under the offset; each kind of hover is
//! written by its own module, and `history` finds the positions they show.
//!
//! Nothing here knows the protocol: the server converts the range and wraps the text.

mod coordinate;
mod fit;
mod half_move;
mod history;
#[cfg(test)]
mod markup_tests;
mod position_tag;
mod reference;
mod tag;

use crate::document::RecordView;
use crate::pieces::Side;
use crate::syntax::{Comment, HalfMoveText, Item, RecordSyntax, ReferenceKind, Step, Tag, Token};
use crate::text::TextRange;

/// A hover: the byte range it describes and its Markdown text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverText {
    pub range: TextRange,
    pub markdown: String,
}

/// How a code block opens in a hover: a text board, or a PDTL on its line (see
/// `history::write_position`).
const TEXT_BOARD: &str = "```text\n";

/// How hovers are written, as the client can show them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HoverOptions {
    /// Whether boards are drawn as SVG images (for a client that shows them) or as text.
    pub images: bool,
}

/// What every hover reads: the record (its ranges relative to its text) and the options.
#[derive(Clone, Copy)]
struct Context<'a> {
    view: RecordView<'a>,
    options: HoverOptions,
}

/// A written half-move with what its move line says about it.
#[derive(Clone, Copy)]
struct Written<'a> {
    half_move: &'a HalfMoveText,
    number: &'a Token,
    side: Side,
}

/// What stands under the offset, innermost first: a coordinate of a half-move is found before
/// the half-move holding it, a reference before the comment holding it.
enum Found<'a> {
    TagName(&'a Tag),
    TagValue(&'a Tag),
    Coordinate(Written<'a>, &'a Token),
    HalfMove(Written<'a>),
    Reference(&'a Comment, usize),
}

/// The hover at a byte offset of the document, with its range in the document; `None` when
/// nothing under the offset has one. With `options.images`, its boards are SVG images
/// (`![…](data:image/svg+xml;base64,…)`) rather than text pictures.
///
/// A text hover's prose is wrapped to its widest code line (see `fit`): the board or the PDTL
/// set the width of a text client's window, and nothing else may widen it.
pub fn hover(view: RecordView<'_>, offset: usize, options: HoverOptions) -> Option<HoverText> {
    let offset = view.in_record(offset)?;
    let found = in_record(Context { view, options }, offset)?;
    let markdown = if !options.images && found.markdown.contains(TEXT_BOARD) {
        fit::wrapped(&found.markdown)
    } else {
        found.markdown
    };
    Some(HoverText { range: view.in_document(found.range), markdown })
}

/// The hover at a byte offset of the record's text, with its range in the record's text.
fn in_record(record: Context<'_>, offset: usize) -> Option<HoverText> {
    match find(record.view.syntax, offset)? {
        Found::TagName(tag) => tag::hover(record, tag),
        Found::TagValue(tag) => position_tag::hover(record, tag),
        Found::Coordinate(written, token) => Some(coordinate::in_half_move(record, written, token)),
        Found::HalfMove(written) => Some(half_move::hover(record, written)),
        Found::Reference(comment, index) => {
            let reference = &comment.references[index];
            match reference.kind {
                ReferenceKind::Move => reference::hover(record, reference),
                ReferenceKind::Hex | ReferenceKind::Piece => {
                    coordinate::in_comment(record, reference)
                }
                ReferenceKind::Player | ReferenceKind::Nag => None,
            }
        }
    }
}

/// What stands under `offset` among the record's items, in a line of play or any variation
/// inside it (the walk enters only the variations that hold the offset).
fn find(syntax: &RecordSyntax, offset: usize) -> Option<Found<'_>> {
    let mut walk = syntax.walk(&syntax.items);
    while let Some(step) = walk.next() {
        let Step::Item(item, _) = step else { continue };
        if let Some(found) = found_in(item, offset) {
            return Some(found);
        }
        if matches!(item, Item::Variation(variation) if !variation.range.contains(offset)) {
            walk.skip_variation();
        }
    }
    None
}

/// What stands under `offset` in an item other than a variation.
fn found_in(item: &Item, offset: usize) -> Option<Found<'_>> {
    match item {
        Item::Tag(tag) => {
            if tag.name.range.contains(offset) {
                Some(Found::TagName(tag))
            } else {
                tag.value
                    .as_ref()
                    .filter(|value| value.range.contains(offset))
                    .map(|_| Found::TagValue(tag))
            }
        }
        Item::MoveLine(line) => {
            [(line.white(), Side::White), (line.black(), Side::Black)].into_iter().find_map(
                |(half_move, side)| {
                    let half_move = half_move.as_ref().filter(|h| h.range.contains(offset))?;
                    let written = Written { half_move, number: &line.number, side };
                    let coordinate = [&half_move.origin, &half_move.destination]
                        .into_iter()
                        .flatten()
                        .find(|token| token.range.contains(offset));
                    Some(coordinate.map_or(Found::HalfMove(written), |token| {
                        Found::Coordinate(written, token)
                    }))
                },
            )
        }
        Item::Comment(comment) if comment.range.contains(offset) => comment
            .references
            .iter()
            .position(|reference| reference.range.contains(offset))
            .map(|index| Found::Reference(comment, index)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax;

    /// The text hover at the first character of the first occurrence of `needle`.
    pub(super) fn hover_at(text: &str, needle: &str) -> Option<HoverText> {
        hover_with(text, needle, HoverOptions::default())
    }

    /// The hover at the first character of the first occurrence of `needle`, with `options`.
    pub(super) fn hover_with(text: &str, needle: &str, options: HoverOptions) -> Option<HoverText> {
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        let record = syntax::lower_record(&tree, text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let view = RecordView { text, start: 0, syntax: &record, analysis: &analysis };
        hover(view, text.find(needle)?, options)
    }

    #[test]
    fn results_values_markers_player_references_and_nags_have_no_hover() {
        let text =
            "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n{ @W: fine, as @B knows $1 }\n*\n";
        assert_eq!(hover_at(text, "*"), None);
        assert_eq!(hover_at(text, "\"C'"), None);
        assert_eq!(hover_at(text, "@W: fine"), None);
        assert_eq!(hover_at(text, "fine"), None);
        assert_eq!(hover_at(text, "@B"), None);
        assert_eq!(hover_at(text, "$1"), None);
        assert_eq!(hover_at(text, ", E21"), None);
    }
}
