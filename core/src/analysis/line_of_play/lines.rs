//! Every line of play of a record at once, for a move list that shows the tree (the viewer,
//! the playground, `ctlpgn/lines`): the main line and each variation with its half-moves,
//! comments and nested variations in text order, each half-move with its ply as the board
//! counts it. Read from the same tree as the history and the board ([`PlayTree`]), so that
//! §11.2's branching rule is written once: a variation's first half-move has the ply of the
//! half-move it replaces.
//!
//! One pass over the tree's lines, parents before their variations (a line's id is the order
//! its `(` is written in), so a record nested 100,000 deep costs no recursion and no walk per
//! level: time and size are linear in the record.

use super::tree::{played_before, Branch, PlayTree};
use super::LineHalfMove;
use crate::analysis::RecordAnalysis;
use crate::pieces::Side;
use crate::syntax::{Comment, RecordSyntax};
use crate::text::TextRange;

/// One thing written in a line of play, in text order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineItem {
    /// A half-move, with what is written after the move (its annotations `?!`, `:`, `$24`, as
    /// written, a blank before them included), if anything.
    HalfMove(LineHalfMove, Option<String>),
    /// A comment: its text between the braces, trimmed, and the range of the whole comment.
    Comment { text: String, range: TextRange },
    /// A variation branching off this line, by its index among the record's lines.
    Variation(usize),
}

/// The main line (index 0) or a variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayLineOf {
    /// The line this variation branches off; `None` for the main line.
    pub parent: Option<usize>,
    /// The half-moves played before its first one, through its parents: the ply it branches
    /// from (its first half-move has ply `ply + 1`, the replaced half-move's). 0 for the main
    /// line and for a variation written before any move line, which replaces nothing.
    pub ply: usize,
    /// The label `$[n]` when well formed.
    pub label: Option<u32>,
    /// From the variation's `(` to its end; `None` for the main line.
    pub range: Option<TextRange>,
    pub items: Vec<LineItem>,
}

/// The lines of play of a record: the main line first, then the variations in the order their
/// `(` is written, so that a variation comes after the line it branches off. Byte ranges of
/// the record's text.
pub fn lines_of_play(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
) -> Vec<PlayLineOf> {
    let tree = PlayTree::build(text, syntax);
    // Per line, the written half-moves before each of its move lines (index: the move line),
    // filled when the line is reached, before any of its variations.
    let mut before: Vec<Vec<usize>> = Vec::with_capacity(tree.lines.len());
    let mut lines: Vec<PlayLineOf> = Vec::with_capacity(tree.lines.len());
    for (play_line, comments) in tree.lines.iter().zip(comments_by_line(&tree, text)) {
        let start = match play_line.branch {
            Some(Branch { parent, attach: Some(attach), replaced }) => {
                let attached = tree.lines[parent].moves[attach].line;
                let kept = usize::from(played_before(attached, replaced).is_some());
                lines[parent].ply + before[parent][attach] + kept
            }
            _ => 0,
        };
        let mut counts = Vec::with_capacity(play_line.moves.len());
        // Each item with where it is written, sorted once into text order.
        let mut placed: Vec<(usize, LineItem)> = comments;
        let mut ply = start;
        for numbered in &play_line.moves {
            counts.push(ply - start);
            let move_line = numbered.line;
            for side in [Side::White, Side::Black] {
                let half_move = match side {
                    Side::White => move_line.white(),
                    Side::Black => move_line.black(),
                };
                let Some(half_move) = half_move else { continue };
                ply += 1;
                let item = LineHalfMove::of(text, analysis, move_line, side, half_move, ply);
                // As written, its blank before it too: the move and it make the half-move's text.
                let annotation = text
                    .get(item.range.end..half_move.range.end)
                    .map(str::trim_end)
                    .filter(|written| !written.is_empty())
                    .map(str::to_string);
                placed.push((half_move.range.start, LineItem::HalfMove(item, annotation)));
            }
        }
        for &child in &play_line.children {
            let variation = tree.lines[child].variation.map_or(0, |v| v.open.range.start);
            placed.push((variation, LineItem::Variation(child)));
        }
        // Stable, and nothing of one line starts where another thing of it does.
        placed.sort_by_key(|(start, _)| *start);
        before.push(counts);
        lines.push(PlayLineOf {
            parent: play_line.branch.map(|branch| branch.parent),
            ply: start,
            label: play_line.label,
            range: play_line.variation.map(|_| play_line.range()),
            items: placed.into_iter().map(|(_, item)| item).collect(),
        });
    }
    lines
}

/// The comments of the record by line of play, each with where it is written, in text order.
fn comments_by_line(tree: &PlayTree<'_>, text: &str) -> Vec<Vec<(usize, LineItem)>> {
    let mut by_line: Vec<Vec<(usize, LineItem)>> = Vec::new();
    by_line.resize_with(tree.lines.len(), Vec::new);
    for site in &tree.sites {
        let item =
            LineItem::Comment { text: comment_text(text, site.comment), range: site.comment.range };
        by_line[site.line].push((site.offset(), item));
    }
    by_line
}

/// The text of a comment between its braces, trimmed (the whole rest of an unclosed one).
fn comment_text(text: &str, comment: &Comment) -> String {
    // From the `{`: a marker after it (`@W:`) is part of what the comment says.
    let start = comment.open.range.end;
    let end = if comment.closed { comment.range.end.saturating_sub(1) } else { comment.range.end };
    text.get(start..end.max(start)).unwrap_or("").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax;

    /// Each line as `parent@ply: items`, a half-move as `ply:label`, a comment as `{text}`, a
    /// variation as `(n)`.
    fn outline(text: &str) -> Vec<String> {
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let lines = lines_of_play(text, &record, &analysis);
        lines
            .iter()
            .map(|line| {
                let items: Vec<String> = line
                    .items
                    .iter()
                    .map(|item| match item {
                        LineItem::HalfMove(half_move, annotation) => {
                            let annotation = annotation.as_deref().unwrap_or("");
                            format!("{}:{}{annotation}", half_move.ply, half_move.label())
                        }
                        LineItem::Comment { text, .. } => format!("{{{text}}}"),
                        LineItem::Variation(line) => format!("({line})"),
                    })
                    .collect();
                let parent = line.parent.map_or("main".to_string(), |p| p.to_string());
                format!("{parent}@{}: {}", line.ply, items.join(" "))
            })
            .collect()
    }

    #[test]
    fn variations_start_at_the_ply_of_the_half_move_they_replace() {
        let nested = "[Variant \"C'escacs\"]\n\n{start} 1. K4-K6, E21-E19 {a}\n(1. …, E21-E17 {@B: b}\n2. E7-E9\n(2. E7-E11, E17-E15\n(2. …, I21-I19)))\n(1. E7-E9)\n2. JF6-B18!?, EE23-D20: {h}\n*\n";
        assert_eq!(
            outline(nested),
            [
                "main@0: {start} 1:1. K4-K6 2:1. …, E21-E19 {a} (1) (4) 3:2. JF6-B18!? 4:2. …, EE23-D20: {h}",
                "0@1: 2:1. …, E21-E17 {@B: b} 3:2. E7-E9 (2)",
                "1@2: 3:2. E7-E11 4:2. …, E17-E15 (3)",
                "2@3: 4:2. …, I21-I19",
                "0@0: 1:1. E7-E9",
            ]
        );
    }

    #[test]
    fn a_record_starting_with_black_and_a_variation_before_any_move_line() {
        let black_first = "[Variant \"C'escacs\"]\n[PDTL \"/27:1k/21:3p4/20:3p3/4:4P/1:1K/ b -- - 0 5\"]\n\n(5. …, F20-F16)\n5. …, E21-E19\n(5. …, F20-F18\n6. K4-K6 {multi\nline})\n6. K4-K6:\n*\n";
        assert_eq!(
            outline(black_first),
            [
                "main@0: (1) 1:5. …, E21-E19 (2) 2:6. K4-K6:",
                "0@0: 1:5. …, F20-F16",
                "0@0: 1:5. …, F20-F18 2:6. K4-K6 {multi\nline}",
            ]
        );
    }

    #[test]
    fn a_nesting_thousands_deep_is_read_in_one_pass() {
        let depth = 20_000;
        let mut text = String::from("[Variant \"C'escacs\"]\n\n1. K4-K6\n");
        text.push_str(&"(1. E7-E9\n".repeat(depth));
        text.push_str(&")".repeat(depth));
        text.push_str("\n*\n");
        let record = syntax::parse_record(&text);
        let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
        let lines = lines_of_play(&text, &record, &analysis);
        assert_eq!(lines.len(), depth + 1);
        assert!(lines.iter().skip(1).all(|line| line.ply == 0 && line.items.len() <= 2));
    }
}
