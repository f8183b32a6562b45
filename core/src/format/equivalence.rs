//! The formatter's promise as a check: two files say the same thing when they hold the same
//! records, and each pair of records lowers to the same tags, move lines, half-move tokens,
//! annotations, comments, variations, labels and results once the formatter's freedoms are set
//! aside (indentation, spacing, trailing blanks and line ends inside comments, and the
//! spellings its options name). A record with a syntax error must come back byte for byte.

use super::layout::{comment_lines, is_formattable};
use super::options::{EllipsisStyle, FormatOptions, Separators};
use crate::syntax::{self, HalfMoveText, Item, RecordSyntax, ReferenceKind, Step, Token};

/// `Ok` when `formatted` says what `original` says; otherwise the first difference found.
pub fn compare_files(
    original: &str,
    formatted: &str,
    options: &FormatOptions,
) -> Result<(), String> {
    let original_records = syntax::split_records(original);
    let formatted_records = syntax::split_records(formatted);
    if original_records.len() != formatted_records.len() {
        return Err(format!(
            "{} records became {}",
            original_records.len(),
            formatted_records.len()
        ));
    }
    let mut parser = syntax::new_parser();
    for (number, (before, after)) in original_records.into_iter().zip(formatted_records).enumerate()
    {
        let (before, after) = (&original[before], &formatted[after]);
        let before_syntax = syntax::parse_record_with(&mut parser, before);
        if !is_formattable(before, &before_syntax) {
            if before != after {
                return Err(format!("record {}, which has an error, was changed", number + 1));
            }
            continue;
        }
        let after_syntax = syntax::parse_record_with(&mut parser, after);
        if after_syntax.has_error {
            return Err(format!("record {} has an error once formatted", number + 1));
        }
        let reader = ShapeReader { options };
        let before_shape = reader.record(before, &before_syntax);
        let after_shape = reader.record(after, &after_syntax);
        if before_shape != after_shape {
            let at = before_shape
                .iter()
                .zip(&after_shape)
                .position(|(a, b)| a != b)
                .unwrap_or(before_shape.len().min(after_shape.len()));
            return Err(format!(
                "record {} differs at item {at}: {:?} became {:?}",
                number + 1,
                before_shape.get(at),
                after_shape.get(at)
            ));
        }
    }
    Ok(())
}

/// What an item says, with only the text the formatter must keep. A record reads as one flat
/// list of shapes, a variation's items between its `Variation` and its `End`, so that comparing
/// or printing shapes never recurses per nesting level.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    Tag {
        name: String,
        value: Option<String>,
    },
    MoveLine {
        number: String,
        white: Option<HalfMoveShape>,
        ellipsis: Option<String>,
        comma: bool,
        black: Option<HalfMoveShape>,
    },
    Comment {
        body: String,
        marker: Option<String>,
        references: Vec<(ReferenceKind, String)>,
    },
    Variation {
        label: Option<String>,
        closed: bool,
    },
    /// The end of a variation's items.
    End,
    Result(String),
    StrayClose,
    Error(String),
}

/// A half-move's tokens, each with the name of its part.
#[derive(Debug, PartialEq, Eq)]
struct HalfMoveShape {
    parts: Vec<(&'static str, String)>,
}

/// Reads items into shapes, spelling separators and ellipses in one way when the options allow
/// the formatter to change them.
struct ShapeReader<'a> {
    options: &'a FormatOptions,
}

impl ShapeReader<'_> {
    /// The shapes of a record's items and of its variations' items, in text order.
    fn record(&self, text: &str, syntax: &RecordSyntax) -> Vec<Shape> {
        syntax
            .walk(&syntax.items)
            .map(|step| match step {
                Step::Item(item, _) => self.item(text, item),
                Step::Leave(_) => Shape::End,
            })
            .collect()
    }

    fn item(&self, text: &str, item: &Item) -> Shape {
        let owned = |token: &Token| token.text(text).to_string();
        match item {
            Item::Tag(tag) => {
                Shape::Tag { name: owned(&tag.name), value: tag.value.as_ref().map(owned) }
            }
            Item::MoveLine(line) => Shape::MoveLine {
                number: owned(&line.number),
                white: line.white().map(|half_move| self.half_move(text, half_move)),
                ellipsis: line.ellipsis.as_ref().map(|token| self.ellipsis(token.text(text))),
                comma: line.comma.is_some(),
                black: line.black().map(|half_move| self.half_move(text, half_move)),
            },
            Item::Comment(comment) => {
                let body = &text[comment.open.range.start..comment.range.end];
                let lines: Vec<&str> =
                    comment_lines(body).map(|line| line.trim_end_matches([' ', '\t'])).collect();
                Shape::Comment {
                    body: lines.join("\n"),
                    marker: comment.marker.as_ref().map(owned),
                    references: comment
                        .references
                        .iter()
                        .map(|r| (r.kind, text[r.range].to_string()))
                        .collect(),
                }
            }
            Item::Variation(variation) => Shape::Variation {
                label: variation.label.as_ref().map(owned),
                closed: variation.close.is_some(),
            },
            Item::Result(token) => Shape::Result(owned(token)),
            Item::StrayClose(_) => Shape::StrayClose,
            Item::Error(token) => Shape::Error(owned(token)),
        }
    }

    fn half_move(&self, text: &str, half_move: &HalfMoveText) -> HalfMoveShape {
        let named = [
            ("piece", &half_move.piece),
            ("origin", &half_move.origin),
            ("separator", &half_move.separator),
            ("captured", &half_move.captured),
            ("destination", &half_move.destination),
            ("promotion", &half_move.promotion),
            ("castling", &half_move.castling),
            ("check", &half_move.check),
            ("rating", &half_move.rating),
            ("nag", &half_move.nag),
            ("indicator", &half_move.indicator),
        ];
        let parts = named
            .into_iter()
            .filter_map(|(name, token)| {
                let written = token.as_ref()?.text(text);
                Some((
                    name,
                    if name == "separator" || name == "castling" {
                        self.separator(written)
                    } else {
                        written.to_string()
                    },
                ))
            })
            .collect();
        HalfMoveShape { parts }
    }

    /// Separators (and castling hyphens) in the ASCII spelling when the formatter may respell them.
    fn separator(&self, written: &str) -> String {
        match self.options.separators {
            Separators::Keep => written.to_string(),
            Separators::Unicode | Separators::Ascii => {
                written.replace('\u{2010}', "-").replace('\u{D7}', "*")
            }
        }
    }

    fn ellipsis(&self, written: &str) -> String {
        match self.options.ellipsis {
            EllipsisStyle::Keep => written.to_string(),
            EllipsisStyle::Unicode | EllipsisStyle::Ascii => "...".to_string(),
        }
    }
}
