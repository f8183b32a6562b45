//! The hover of a half-move: the move in words, the check it gives, whose turn it is, the
//! board and the canonical PDTL after it; for a half-move that was not replayed, the findings that stopped it and the
//! last position known before it.

use super::history;
use super::{Context, HoverText, Written};
use crate::analysis::move_label;
use crate::diagnostics::Diagnostic;
use crate::replay;

/// The hover of a written half-move.
pub(super) fn hover(record: Context<'_>, written: Written<'_>) -> HoverText {
    let (text, analysis) = (record.view.text, record.view.analysis);
    let range = written.half_move.range;
    let played = analysis.played_at(range.start);
    let move_text = text.get(range.start..written.half_move.move_end()).unwrap_or("");
    let title = move_label(written.number.text(text), written.side, move_text);
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
            finding.message
        ));
    }
    if !findings.is_empty() {
        markdown.push('\n');
    }
    match played {
        Some(played) => {
            if let Some((_, check)) = replay::check_in_words(&played.after) {
                markdown.push_str(&format!("{check}.\n\n"));
            }
            history::write_position(
                record,
                &mut markdown,
                &played.after,
                &[played.effect.origin, played.effect.destination],
            );
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
                    history::write_position(record, &mut markdown, position, &[]);
                }
                None => markdown.push_str("No position is known before it.\n"),
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
    fn a_replayed_half_move_shows_the_move_in_words_and_the_position_after_it() {
        let hover = hover_at(GAME, "EE23").expect("a hover");
        assert_eq!(&GAME[hover.range], "EE23-D20:");
        assert!(
            hover.markdown.starts_with("**2. …, EE23-D20** · Black Elephant E23 to D20\n"),
            "{}",
            hover.markdown
        );
        assert!(hover.markdown.contains("White to move."));
        assert!(hover.markdown.contains("20    ·   ·  [e]  p   ·   ·   ·\n"), "{}", hover.markdown);
        assert!(hover.markdown.contains("23      p   p  [·]  e   p   p\n"), "{}", hover.markdown);
        assert!(hover.markdown.contains("PDTL `/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:pp1epp/"));
    }

    #[test]
    fn a_half_move_that_gives_check_says_so() {
        let text = "[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3-F6+∞, KF20-E21:\n*\n";
        let hover = hover_at(text, "RC3").expect("a hover");
        assert!(
            hover
                .markdown
                .contains("\n\nBlack's King on F20 is in check from afar by the Rook on F6.\n\n"),
            "{}",
            hover.markdown
        );
        let reply = hover_at(text, "KF20").expect("a hover");
        assert!(!reply.markdown.contains("in check"), "{}", reply.markdown);
    }

    #[test]
    fn a_position_no_pdtl_may_hold_shows_why_instead_of_a_pdtl() {
        // R009 (a Bishop stepping orthogonally) leaves two White Bishops on one hex colour.
        let text = "[Variant \"C'escacs\"]\n\n1. F8-F10, F20-F18\n2. JF6-F8, E21-E15:\n*\n";
        let hover = hover_at(text, "JF6").expect("a hover");
        assert!(
            hover.markdown.contains("No PDTL: the position is not one a PDTL may hold (P010: "),
            "{}",
            hover.markdown
        );
        assert!(!hover.markdown.contains("PDTL `"), "{}", hover.markdown);
        let before = hover_at(text, "F20").expect("a hover");
        assert!(before.markdown.contains("PDTL `/28:"), "{}", before.markdown);
    }

    #[test]
    fn a_half_move_that_failed_shows_why_and_the_position_before_it() {
        let text = GAME.replace("JF6-B18", "NF6-B18");
        let hover = hover_at(&text, "NF6").expect("a hover");
        assert!(
            hover
                .markdown
                .starts_with("**2. NF6-B18** · not replayed\n\n- K003 `origin-wrong-piece`: "),
            "{}",
            hover.markdown
        );
        assert!(hover.markdown.contains("Last known position, after 1. …, E21-E19:"));
        assert!(hover.markdown.contains("White to move."));
        let later = hover_at(&text, "EE23").expect("a hover");
        assert!(later
            .markdown
            .contains("An earlier half-move of its line of play could not be replayed."));
        assert!(later.markdown.contains("after 1. …, E21-E19"));
    }

    #[test]
    fn the_first_half_move_of_a_variation_starts_from_the_half_move_it_replaces() {
        let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(1. …, NE21-E17)\n2. JF6-B18, EE23-D20:\n*\n";
        let hover = hover_at(text, "NE21").expect("a hover");
        assert!(hover.markdown.contains("- K003 `origin-wrong-piece`"), "{}", hover.markdown);
        assert!(
            hover.markdown.contains("Last known position, after 1. K4-K6:"),
            "{}",
            hover.markdown
        );
    }

    #[test]
    fn a_failed_first_half_move_starts_from_the_record_start() {
        let text = "[Variant \"C'escacs\"]\n\n1. NK4-K6, E21-E19:\n*\n";
        let hover = hover_at(text, "NK4").expect("a hover");
        assert!(
            hover.markdown.contains("Last known position, the start of the record:"),
            "{}",
            hover.markdown
        );
        assert!(hover.markdown.contains("PDTL `/28:v/27:dk/"), "{}", hover.markdown);
    }
}
