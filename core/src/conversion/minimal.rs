//! Minimal CTL-PGN: what the handbook's pre-filter makes of a record for a minimum reader
//! (§13, and the `sed` filter of the older page, §15 item 44), done on the syntax instead of
//! the text.
//!
//! The tags stay, except `Redefine`; the position tag is named `PDTL` and written in the
//! standard letters. The movetext keeps the main line alone, one move pair per line: no
//! comment, no variation, no rating, no draw offer; the last half-move keeps its `:` (or its
//! `#`), every half-move its check suffix. Identifiers become the standard letters, and the
//! recoverable spellings outside the move grammar are respelled as the grammar writes them
//! (a look-alike dash as `-`, the legacy `^+` as `+^`), since a minimum reader need not know
//! them. The result must replay to the same main-line positions.

use super::identifier_map::IdentifierMap;
use super::redefine_tag::POSITION_TAG_NAMES;
use super::verify::{check_same_game, Compared};
use super::{line_ending, require_replay, ConversionError};
use crate::analysis::RecordAnalysis;
use crate::identifiers::IdentifierSet;
use crate::pieces::Side;
use crate::syntax::{movetext_start, HalfMoveText, Item, MoveLine, RecordSyntax, Tag};
use crate::text::{apply_edits_within, TextRange};

/// The record `text` as minimal CTL-PGN: its tag lines, a blank line, its main-line move
/// lines and its result line, each line ended with the record's usual line ending.
pub fn minimal_record(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
) -> Result<String, ConversionError> {
    require_replay(analysis)?;
    let standard = IdentifierSet::standard();
    let map = IdentifierMap { from: &analysis.identifiers, to: &standard };
    let ending = line_ending(text);
    let movetext = movetext_start(&syntax.items);
    let mut out = String::with_capacity(text.len());
    for item in &syntax.items[..movetext] {
        // Comments among the tags (T025) go with the other comments.
        if let Item::Tag(tag) = item {
            if write_tag(&mut out, text, tag, &map) {
                out.push_str(ending);
            }
        }
    }
    if !out.is_empty() {
        out.push_str(ending);
    }
    for item in &syntax.items[movetext..] {
        match item {
            Item::MoveLine(line) => {
                write_move_line(&mut out, text, line, &map);
                out.push_str(ending);
            }
            Item::Result(token) => {
                out.push_str(token.text(text));
                out.push_str(ending);
            }
            Item::Tag(_)
            | Item::Comment(_)
            | Item::Variation(_)
            | Item::StrayClose(_)
            | Item::Error(_) => {}
        }
    }
    check_same_game(text, syntax, analysis, &out, Compared::MainLine)?;
    Ok(out)
}

/// Writes a tag line without its line end; `false` for a tag the minimal record drops.
fn write_tag(out: &mut String, text: &str, tag: &Tag, map: &IdentifierMap<'_>) -> bool {
    let name = tag.name.text(text);
    let (Some(value), Some(content)) = (&tag.value, tag.value_content_range()) else {
        return false;
    };
    if name == "Redefine" {
        return false;
    }
    out.push('[');
    if POSITION_TAG_NAMES.contains(&name) {
        // The legacy names TLPD and DPTL are read as PDTL (T005); a minimum reader knows PDTL.
        out.push_str("PDTL ");
        let mut edits = Vec::new();
        map.pdtl_edits(&text[content], content.start, &mut edits);
        out.push_str(&apply_edits_within(text, value.range, &edits));
    } else {
        out.push_str(name);
        out.push(' ');
        out.push_str(value.text(text));
    }
    out.push(']');
    true
}

/// Writes a main-line move line, `N. white, black` or `N. …, black`, without its line end.
fn write_move_line(out: &mut String, text: &str, line: &MoveLine, map: &IdentifierMap<'_>) {
    out.push_str(line.number.text(text));
    out.push(' ');
    match (line.white(), &line.ellipsis) {
        (Some(white), _) => write_half_move(out, text, white, Side::White, map),
        (None, Some(ellipsis)) => out.push_str(ellipsis.text(text)),
        (None, None) => {}
    }
    if let Some(black) = line.black() {
        out.push_str(", ");
        write_half_move(out, text, black, Side::Black, map);
    }
}

/// Writes a half-move of `mover`: the move and its check suffix in standard letters and
/// spellings, then `:` when it ends the game; ratings and draw offers are dropped.
fn write_half_move(
    out: &mut String,
    text: &str,
    half_move: &HalfMoveText,
    mover: Side,
    map: &IdentifierMap<'_>,
) {
    let mut edits = Vec::new();
    map.half_move_edits(text, half_move, mover, &mut edits);
    let end =
        half_move.check.as_ref().map_or_else(|| half_move.move_end(), |check| check.range.end);
    let written = apply_edits_within(text, TextRange::new(half_move.range.start, end), &edits);
    // Look-alike dashes (S006) only stand as separators or in castling tokens, and `^+` (S010)
    // only as a check suffix, so respelling them in the whole move touches nothing else.
    let respelled = written.replace(['\u{2013}', '\u{2011}', '\u{2212}'], "-").replace("^+", "+^");
    out.push_str(&respelled);
    if half_move.indicator.as_ref().is_some_and(|indicator| indicator.text(text).ends_with(':')) {
        out.push(':');
    }
}
