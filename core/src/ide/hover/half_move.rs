//! The hover of a half-move: the move in words, the check it gives, whose turn it is, the
//! canonical PDTL and the board after it; for a half-move that was not replayed, the findings
//! that stopped it and the last position known before it.

use super::history::{self, Shown};
use super::{Context, HoverText, Written};
use crate::diagnostics::Diagnostic;
use crate::ide::markdown;
use crate::replay;

/// The hover of a written half-move.
pub(super) fn hover(record: Context<'_>, written: Written<'_>) -> HoverText {
    with_note(record, written, "")
}

/// The hover of a written half-move with `note` (Markdown) before its board.
pub(super) fn with_note(record: Context<'_>, written: Written<'_>, note: &str) -> HoverText {
    let (text, analysis) = (record.view.text, record.view.analysis);
    let range = written.half_move.range;
    let played = analysis.played_at(range.start);
    let title = history::written_label(text, written);
    let what = played.map_or_else(|| "not replayed".to_string(), |played| played.effect.describe());
    let mut markdown = format!("**{title}** · {what}\n\n");
    // Findings on the half-move, including a zero-width one at its start.
    let findings: Vec<&Diagnostic> = analysis
        .diagnostics
        .iter()
        .filter(|d| {
            d.range.start < range.end && (d.range.end > range.start || d.range.start == range.start)
        })
        .collect();
    for finding in &findings {
        markdown.push_str(&format!(
            "- {} `{}`: {}\n",
            finding.code,
            finding.code.name(),
            markdown::text(&finding.message)
        ));
    }
    if !findings.is_empty() {
        markdown.push('\n');
    }
    match played {
        Some(played) => {
            let shown = Shown {
                position: &played.after,
                marked: &[played.effect.origin, played.effect.destination],
                check: replay::check_in_words(&played.after).map(|(_, check)| check),
                note,
            };
            history::write_position(record, &mut markdown, shown);
        }
        None => {
            if findings.is_empty() {
                markdown.push_str(
                    "An earlier half-move of its line of play could not be replayed.\n\n",
                );
            }
            let standing = history::standing(record, range.start);
            match standing.position(analysis) {
                Some(position) => {
                    let place = match standing.after {
                        Some(_) => history::describe(record, standing),
                        None => "the start of the record".to_string(),
                    };
                    markdown.push_str(&format!("Last known position, {place}:\n\n"));
                    let shown = Shown { position, marked: &[], check: None, note };
                    history::write_position(record, &mut markdown, shown);
                }
                None => {
                    markdown.push_str("No position is known before it.\n");
                    if !note.is_empty() {
                        markdown.push('\n');
                        markdown.push_str(note);
                    }
                }
            }
        }
    }
    HoverText { range, markdown }
}

#[cfg(test)]
mod tests {
    use super::super::tests::hover_at;

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6-B18, EE23-D20:\n*\n";

    #[test]
    fn a_replayed_half_move_shows_the_move_the_turn_and_the_pdtl_then_the_board() {
        let hover = hover_at(GAME, "EE23").expect("a hover");
        assert_eq!(&GAME[hover.range], "EE23-D20:");
        insta::assert_snapshot!("half_move_replayed", hover.markdown);
    }

    /// What a text client's window shows first, cut short by the screen: the half-move, whose
    /// turn it is and the PDTL, all before the board, on a half-move and on its coordinates.
    #[test]
    fn the_first_lines_of_a_text_hover_hold_the_move_the_turn_and_the_pdtl() {
        for needle in ["K4-K6", "K4", "K6,", "-E19", "JF6", "EE23", "D20"] {
            let hover = hover_at(GAME, needle).expect("a hover");
            let lines: Vec<&str> = hover.markdown.lines().collect();
            assert!(
                lines[0].starts_with("**1. ") || lines[0].starts_with("**2. "),
                "{needle}: {}",
                hover.markdown
            );
            let turn = lines.iter().position(|line| line.ends_with(" to move. PDTL:"));
            assert_eq!(turn, Some(2), "{needle}: {}", hover.markdown);
            assert_eq!(lines[4], "```text", "{needle}");
            assert!(
                lines[5].starts_with("/28:") && lines[5].contains(" RKRrkr - "),
                "{needle}: {}",
                lines[5]
            );
            assert_eq!(lines[6], "```", "{needle}");
            let board = lines.iter().position(|line| line.starts_with("28  ")).expect("a board");
            assert!(board > 6, "{needle}: {}", hover.markdown);
        }
    }

    #[test]
    fn a_half_move_that_gives_check_says_so_before_the_turn() {
        let text = "[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3-F6+∞, KF20-E21:\n*\n";
        let hover = hover_at(text, "RC3").expect("a hover");
        insta::assert_snapshot!("half_move_check", hover.markdown);
        // The reply gives no check.
        let reply = hover_at(text, "KF20").expect("a hover");
        insta::assert_snapshot!("half_move_check_reply", reply.markdown);
    }

    #[test]
    fn a_position_no_pdtl_may_hold_shows_why_instead_of_a_pdtl() {
        // R009 (a Bishop stepping orthogonally) leaves two White Bishops on one hex colour.
        let text = "[Variant \"C'escacs\"]\n\n1. F8-F10, F20-F18\n2. JF6-F8, E21-E15:\n*\n";
        let hover = hover_at(text, "JF6").expect("a hover");
        insta::assert_snapshot!("half_move_no_pdtl", hover.markdown);
        // The half-move before it has its PDTL.
        let before = hover_at(text, "F20").expect("a hover");
        insta::assert_snapshot!("half_move_before_no_pdtl", before.markdown);
    }

    #[test]
    fn a_half_move_that_failed_shows_why_and_the_position_before_it() {
        let text = GAME.replace("JF6-B18", "NF6-B18");
        let hover = hover_at(&text, "NF6").expect("a hover");
        insta::assert_snapshot!("half_move_failed", hover.markdown);
        let later = hover_at(&text, "EE23").expect("a hover");
        insta::assert_snapshot!("half_move_after_a_failed_one", later.markdown);
    }

    #[test]
    fn the_first_half_move_of_a_variation_starts_from_the_half_move_it_replaces() {
        let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(1. …, NE21-E17)\n2. JF6-B18, EE23-D20:\n*\n";
        let hover = hover_at(text, "NE21").expect("a hover");
        insta::assert_snapshot!("half_move_failed_first_of_a_variation", hover.markdown);
    }

    #[test]
    fn a_failed_first_half_move_starts_from_the_record_start() {
        let text = "[Variant \"C'escacs\"]\n\n1. NK4-K6, E21-E19:\n*\n";
        let hover = hover_at(text, "NK4").expect("a hover");
        insta::assert_snapshot!("half_move_failed_first", hover.markdown);
    }
}
