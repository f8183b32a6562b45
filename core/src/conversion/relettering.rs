//! A record's identifiers rewritten to the standard letters, to FAN figurines or to a preset of
//! alternative letters (handbook §4.3, §9.7, §12.3), with its `Redefine` tag to match.
//!
//! The rewrite is a list of edits of the original text, one per identifier that changes (in
//! moves of every line of play, in the `PDTL` tag and in `~` references of comments) plus one
//! for the `Redefine` line; whitespace, comments, ratings and everything else stay byte for
//! byte, so converting to FAN and back to letters gives back a record written in standard
//! letters exactly.

use super::identifier_map::IdentifierMap;
use super::redefine_tag::{redefine_tag_edit, POSITION_TAG_NAMES};
use super::verify::{check_same_game, Compared};
use super::{require_replay, ConversionError, LetterTarget};
use crate::analysis::RecordAnalysis;
use crate::pieces::Side;
use crate::syntax::{movetext_start, Item, RecordSyntax, Step};
use crate::text::{apply_edits, TextEdit};

/// The record `text` with its identifiers rewritten to `target`.
pub fn reletter_record(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    target: &LetterTarget,
) -> Result<String, ConversionError> {
    let edits = reletter_edits(text, syntax, analysis, target)?;
    Ok(apply_edits(text, &edits))
}

/// The edits that rewrite the identifiers of the record `text` to `target`: disjoint, in text
/// order, each replacing only the bytes that change. The record must replay, and the result is
/// checked to replay to the same positions in every line of play.
pub fn reletter_edits(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    target: &LetterTarget,
) -> Result<Vec<TextEdit>, ConversionError> {
    require_replay(analysis)?;
    let to = target.identifiers();
    let map = IdentifierMap { from: &analysis.identifiers, to: &to };
    let tag_section = &syntax.items[..movetext_start(&syntax.items)];
    let mut edits = Vec::new();
    edits.extend(redefine_tag_edit(text, tag_section, target.redefine_value()));
    item_edits(text, syntax, &map, &mut edits);
    edits.sort_by_key(|edit| (edit.range.start, edit.range.end));
    let converted = apply_edits(text, &edits);
    check_same_game(text, syntax, analysis, &converted, Compared::EveryLine)?;
    Ok(edits)
}

/// Edits for the identifiers of the record's items, variations included.
fn item_edits(
    text: &str,
    syntax: &RecordSyntax,
    map: &IdentifierMap<'_>,
    edits: &mut Vec<TextEdit>,
) {
    for step in syntax.walk(&syntax.items) {
        let Step::Item(item, _) = step else { continue };
        match item {
            Item::Tag(tag) if POSITION_TAG_NAMES.contains(&tag.name.text(text)) => {
                if let Some(range) = tag.value_content_range() {
                    // A PDTL holds neither `"` nor `\`, so its content is its value unescaped.
                    map.pdtl_edits(&text[range], range.start, edits);
                }
            }
            Item::MoveLine(line) => {
                if let Some(white) = line.white() {
                    map.half_move_edits(text, white, Side::White, edits);
                }
                if let Some(black) = line.black() {
                    map.half_move_edits(text, black, Side::Black, edits);
                }
            }
            Item::Comment(comment) => map.comment_edits(text, comment, edits),
            Item::Variation(_)
            | Item::Tag(_)
            | Item::Result(_)
            | Item::StrayClose(_)
            | Item::Error(_) => {}
        }
    }
}
