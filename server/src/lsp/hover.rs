//! The hover of a half-move, as Markdown over byte ranges: the move in words, whose turn it
//! is, the board and the canonical PDTL after it; for a half-move that was not replayed, the
//! findings that stopped it and the last position known before it.
//!
//! Nothing here knows the protocol (the server converts the range and wraps the text), so the
//! module can move to the core unchanged.

use std::ops::Range;

use super::board;
use crate::analysis::{PlayedHalfMove, RecordAnalysis};
use crate::diagnostics::Diagnostic;
use crate::geometry::Hex;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::pieces::Side;
use crate::position::Position;
use crate::syntax::{HalfMoveText, Item, RecordSyntax, Token};

/// A hover: the byte range it describes and its Markdown text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverText {
    pub range: Range<usize>,
    pub markdown: String,
}

/// The hover at a byte offset of a record's text; `None` when the offset is not on a half-move.
pub fn hover(text: &str, syntax: &RecordSyntax, analysis: &RecordAnalysis, offset: usize) -> Option<HoverText> {
    let written = find_half_move(&syntax.items, offset)?;
    let range = written.half_move.range.clone();
    let played = played_at(analysis, range.start);
    let move_text = text.get(range.start..written.half_move.move_end()).unwrap_or("");
    let title = label(written.number.text(text), written.side, move_text);
    let what = played.map_or_else(|| "not replayed".to_string(), |played| played.effect.describe());
    let mut markdown = format!("**{title}** · {what}\n\n");
    // Findings on the half-move, including a zero-width one at its start.
    let findings: Vec<&Diagnostic> = analysis
        .diagnostics
        .iter()
        .filter(|d| d.range.start < range.end && (d.range.end > range.start || d.range.start == range.start))
        .collect();
    for finding in &findings {
        markdown.push_str(&format!("- {} `{}`: {}\n", finding.code, finding.code.name(), finding.message));
    }
    if !findings.is_empty() {
        markdown.push('\n');
    }
    let ids = &analysis.identifiers;
    match played {
        Some(played) => write_position(&mut markdown, &played.after, ids, &[played.effect.origin, played.effect.destination]),
        None => {
            if findings.is_empty() {
                markdown.push_str("An earlier half-move of its line of play could not be replayed.\n\n");
            }
            let start;
            let position = match known_before(&syntax.items, range.start, Before::Start, analysis).unwrap_or(Before::Unknown) {
                Before::After(previous) => {
                    let written = text.get(previous.range.start..previous.move_end).unwrap_or("");
                    let previous_label = label(&format!("{}.", previous.number), previous.side, written);
                    markdown.push_str(&format!("Last known position, after {previous_label}:\n\n"));
                    Some(&previous.after)
                }
                Before::Start => {
                    markdown.push_str("Last known position, the start of the record:\n\n");
                    start = record_start(text, syntax, ids);
                    start.as_ref()
                }
                Before::Unknown => None,
            };
            match position {
                Some(position) => write_position(&mut markdown, position, ids, &[]),
                None => markdown.push_str("No position is known before it.\n"),
            }
        }
    }
    Some(HoverText { range, markdown })
}

/// The board, whose turn it is and the PDTL of a position.
fn write_position(out: &mut String, position: &Position, ids: &IdentifierSet, marked: &[Hex]) {
    out.push_str("```text\n");
    out.push_str(&board::picture(position, ids, marked));
    out.push_str("```\n\n");
    out.push_str(position.turn.name());
    out.push_str(" to move.\n\nPDTL `");
    pdtl::write_pdtl(position, ids, out);
    out.push_str("`\n");
}

/// A written half-move with what its move line says about it.
struct Written<'a> {
    half_move: &'a HalfMoveText,
    number: &'a Token,
    side: Side,
}

/// `12. EE23-D20` for White, `12. …, EE23-D20` for Black.
fn label(number: &str, side: Side, written: &str) -> String {
    match side {
        Side::White => format!("{number} {written}"),
        Side::Black => format!("{number} …, {written}"),
    }
}

/// The written half-move holding `offset`, in a line of play or any variation inside it.
fn find_half_move(items: &[Item], offset: usize) -> Option<Written<'_>> {
    items.iter().find_map(|item| match item {
        Item::MoveLine(line) => [(&line.white, Side::White), (&line.black, Side::Black)].into_iter().find_map(|(half_move, side)| {
            let half_move = half_move.as_ref().filter(|h| h.range.contains(&offset))?;
            Some(Written { half_move, number: &line.number, side })
        }),
        Item::Variation(variation) if variation.range.contains(&offset) => find_half_move(&variation.items, offset),
        _ => None,
    })
}

/// The replayed half-move that starts at `start`; `played` is in text order.
fn played_at(analysis: &RecordAnalysis, start: usize) -> Option<&PlayedHalfMove> {
    let index = analysis.played.binary_search_by_key(&start, |played| played.range.start).ok()?;
    analysis.played.get(index)
}

/// The last position known before a half-move.
#[derive(Clone, Copy)]
enum Before<'a> {
    /// The start of the record.
    Start,
    /// The position after a replayed half-move.
    After(&'a PlayedHalfMove),
    /// None: a variation that replaces nothing.
    Unknown,
}

/// The last position known before the half-move starting at `target` in `items`, a line of
/// play starting from `start`: the position after the last replayed half-move of the line
/// before it, or the line's start. A variation starts where the half-move it replaces did
/// (handbook §11.2). `None` when the half-move is not in `items`.
fn known_before<'a>(items: &[Item], target: usize, start: Before<'a>, analysis: &'a RecordAnalysis) -> Option<Before<'a>> {
    let mut last = start;
    // The positions before and after White's half-move of the last move line, where a
    // variation that follows it starts.
    let mut attach = (Before::Unknown, Before::Unknown);
    for item in items {
        match item {
            Item::MoveLine(line) => {
                let before_white = last;
                if advance(line.white.as_ref(), target, &mut last, analysis) {
                    return Some(last);
                }
                let after_white = last;
                if advance(line.black.as_ref(), target, &mut last, analysis) {
                    return Some(last);
                }
                attach = (before_white, after_white);
            }
            Item::Variation(variation) => {
                let black_first = variation
                    .items
                    .iter()
                    .find_map(|item| if let Item::MoveLine(line) = item { Some(line.ellipsis.is_some()) } else { None })
                    .unwrap_or(false);
                let start = if black_first { attach.1 } else { attach.0 };
                if let Some(found) = known_before(&variation.items, target, start, analysis) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Moves `last` past a half-move when it was replayed; `true` when the half-move is the target.
fn advance<'a>(half_move: Option<&HalfMoveText>, target: usize, last: &mut Before<'a>, analysis: &'a RecordAnalysis) -> bool {
    let Some(half_move) = half_move else { return false };
    if half_move.range.start == target {
        return true;
    }
    if let Some(played) = played_at(analysis, half_move.range.start) {
        *last = Before::After(played);
    }
    false
}

/// The start position of a record: its position tag, or the initial position.
///
/// FIXME(issue 5): `RecordAnalysis` should carry the start position its replay used; until it
/// does, this re-reads the first position tag (`PDTL`, or its legacy names) as the setup does.
fn record_start(text: &str, syntax: &RecordSyntax, ids: &IdentifierSet) -> Option<Position> {
    let tag = syntax.items.iter().find_map(|item| match item {
        Item::Tag(tag) if matches!(tag.name.text(text), "PDTL" | "TLPD" | "DPTL") => Some(tag),
        _ => None,
    });
    match tag {
        Some(tag) => pdtl::parse(&tag.value_text(text)?, ids).position,
        None => Some(Position::initial()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse_syntax;
    use crate::syntax;

    fn hover_at(text: &str, needle: &str) -> Option<HoverText> {
        let tree = syntax::parse(&mut syntax::new_parser(), text);
        let record = syntax::lower_record(&tree);
        let analysis = analyse_syntax(text, &record);
        hover(text, &record, &analysis, text.find(needle)? + 1)
    }

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20:\n*\n";

    #[test]
    fn a_replayed_half_move_shows_the_move_in_words_and_the_position_after_it() {
        let hover = hover_at(GAME, "EE23").expect("a hover");
        assert_eq!(&GAME[hover.range.clone()], "EE23-D20:");
        assert!(hover.markdown.starts_with("**2. …, EE23-D20** · Black Elephant E23 to D20\n"), "{}", hover.markdown);
        assert!(hover.markdown.contains("White to move."));
        assert!(hover.markdown.contains("20    ·   ·  [e]  p   ·   ·   ·\n"), "{}", hover.markdown);
        assert!(hover.markdown.contains("23      p   p  [·]  e   p   p\n"), "{}", hover.markdown);
        assert!(hover.markdown.contains("PDTL `/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:pp1epp/"));
    }

    #[test]
    fn a_half_move_that_failed_shows_why_and_the_position_before_it() {
        let text = GAME.replace("JF6-B18", "NF6-B18");
        let hover = hover_at(&text, "NF6").expect("a hover");
        assert!(hover.markdown.starts_with("**2. NF6-B18** · not replayed\n\n- K003 `origin-wrong-piece`: "), "{}", hover.markdown);
        assert!(hover.markdown.contains("Last known position, after 1. …, E21-E19:"));
        assert!(hover.markdown.contains("White to move."));
        let later = hover_at(&text, "EE23").expect("a hover");
        assert!(later.markdown.contains("An earlier half-move of its line of play could not be replayed."));
        assert!(later.markdown.contains("after 1. …, E21-E19"));
    }

    #[test]
    fn the_first_half_move_of_a_variation_starts_from_the_half_move_it_replaces() {
        let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(1. …, NE21-E17)\n2. JF6-B18, EE23-D20:\n*\n";
        let hover = hover_at(text, "NE21").expect("a hover");
        assert!(hover.markdown.contains("- K003 `origin-wrong-piece`"), "{}", hover.markdown);
        assert!(hover.markdown.contains("Last known position, after 1. K4-K6:"), "{}", hover.markdown);
        assert_eq!(hover_at(GAME, "*"), None);
        assert_eq!(hover_at(GAME, "Variant"), None);
    }
}
