//! The lines of play of a record as the edges send them — the language server's `ctlpgn/lines`
//! and the web's `lines` — for a move list that shows the whole tree: the record's tags and
//! result, and every line of play (`analysis::lines_of_play`) with its half-moves, comments
//! and variations. Its places are the edge's own (`R`), as the board's are: the byte ranges of
//! the document are converted by the function the edge passes.

use serde::Serialize;

use super::board::LineReply;
use crate::analysis::{lines_of_play, LineItem};
use crate::document::RecordView;
use crate::syntax::Item;
use crate::text::TextRange;

/// The answer (docs/language-server.md gives each field's meaning), with the document's
/// `version` it was read in, the record's number from 1 and how many records the document
/// holds, for a chooser.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinesReply<R> {
    pub version: i32,
    pub record: usize,
    pub records: usize,
    /// The record's text, its trailing blank lines included.
    pub range: R,
    pub tags: Vec<TagReply>,
    /// The main line's result as written (`2-1`, `*`), if any.
    pub result: Option<String>,
    pub lines: Vec<PlayLineReply<R>>,
}

/// A tag of the record, its value unescaped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TagReply {
    pub name: String,
    pub value: String,
}

/// The main line (the first) or a variation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayLineReply<R> {
    /// The index of the line it branches off; `null` for the main line.
    pub parent: Option<usize>,
    /// The ply it branches from: the half-moves played before its first.
    pub ply: usize,
    pub label: Option<u32>,
    /// From the `(` to the end of the variation; `null` for the main line.
    pub range: Option<R>,
    pub items: Vec<ItemReply<R>>,
}

/// One thing written in a line of play, in text order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ItemReply<R> {
    /// A half-move (the fields of the board's `line`) and what is written after the move.
    HalfMove {
        #[serde(flatten)]
        half_move: LineReply<R>,
        annotation: Option<String>,
    },
    Comment {
        text: String,
        range: R,
    },
    /// A variation branching here, by its index in `lines`.
    Variation {
        line: usize,
    },
}

/// The lines of play of the record `view` (record `index` from 0 of `records` in a document
/// at `version`), each byte range of the document converted by `range`.
pub fn lines<R>(
    view: RecordView<'_>,
    version: i32,
    index: usize,
    records: usize,
    range: impl Fn(TextRange) -> R,
) -> LinesReply<R> {
    let (text, syntax) = (view.text, view.syntax);
    let in_document = |bytes: TextRange| range(view.in_document(bytes));
    let lines = lines_of_play(text, syntax, view.analysis)
        .into_iter()
        .map(|line| PlayLineReply {
            parent: line.parent,
            ply: line.ply,
            label: line.label,
            range: line.range.map(&in_document),
            items: line
                .items
                .into_iter()
                .map(|item| match item {
                    LineItem::HalfMove(half_move, annotation) => ItemReply::HalfMove {
                        half_move: LineReply::of(half_move, &in_document),
                        annotation,
                    },
                    LineItem::Comment { text, range } => {
                        ItemReply::Comment { text, range: in_document(range) }
                    }
                    LineItem::Variation(line) => ItemReply::Variation { line },
                })
                .collect(),
        })
        .collect();
    let tags = syntax
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Tag(tag) => Some(TagReply {
                name: tag.name.text(text).to_string(),
                value: tag.value_text(text).unwrap_or_default(),
            }),
            _ => None,
        })
        .collect();
    let result = syntax.items.iter().find_map(|item| match item {
        Item::Result(token) => Some(token.text(text).to_string()),
        _ => None,
    });
    let whole = in_document(TextRange::new(0, text.len()));
    LinesReply { version, record: index + 1, records, range: whole, tags, result, lines }
}
