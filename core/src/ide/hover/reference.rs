//! The hover of a move reference inside a comment (handbook §12.3: `#14@B`, `#14`, `#12.2`,
//! `#16[#14.1#12.2]`): the half-move, move or variation it names, as the analysis resolved it,
//! with the board and PDTL after it; for a reference that does not resolve, why.

use super::history::{self, Shown};
use super::{Context, HoverText};
use crate::analysis::{PlayedHalfMove, ReferenceTarget};
use crate::ide::markdown;
use crate::replay;
use crate::syntax::Reference;
use crate::text::TextRange;

/// The hover of a move reference.
pub(super) fn hover(record: Context<'_>, reference: &Reference) -> Option<HoverText> {
    let range = reference.range;
    let written = record.view.text.get(range.to_range())?;
    let analysis = record.view.analysis;
    let Some(resolved) = analysis.references.iter().find(|resolved| resolved.range == range) else {
        // Unresolved: the findings on the reference say why; text such as `#.` has none.
        let findings: Vec<String> = analysis
            .diagnostics
            .iter()
            .filter(|d| d.range == range)
            .map(|d| format!("- {} `{}`: {}\n", d.code, d.code.name(), markdown::text(&d.message)))
            .collect();
        if findings.is_empty() {
            return None;
        }
        return Some(HoverText {
            range,
            markdown: format!(
                "**{}** · names nothing\n\n{}",
                markdown::text(written),
                findings.concat()
            ),
        });
    };
    // What the reference names, and the replayed half-move whose position ends it.
    let (named, last) = match &resolved.target {
        ReferenceTarget::HalfMove { range: target, .. } => {
            let played = analysis.played_at(target.start);
            let named = played.map_or_else(
                || markdown::text(&record.view.text[*target]),
                |played| history::played_label(record.view.text, played),
            );
            (named, played)
        }
        ReferenceTarget::MoveLine { range: target, .. } => (
            format!("move {}", first_line(&record.view.text[*target])),
            last_played(record, target, false),
        ),
        ReferenceTarget::Variation { range: target, number, label } => {
            let text = first_line(&record.view.text[*target]);
            let label = markdown::code(&format!("$[{label}]"));
            (
                format!("the variation {label} of move {number}: {text}"),
                last_played(record, target, true),
            )
        }
    };
    let mut markdown = format!("**{}** · {named}\n\n", markdown::text(written));
    match last {
        Some(played) => {
            markdown.push_str(&format!(
                "After {}: {}.\n\n",
                history::played_label(record.view.text, played),
                played.effect.describe()
            ));
            let marked = [played.effect.origin, played.effect.destination];
            let check = replay::check_in_words(&played.after).map(|(_, check)| check);
            let shown = Shown { position: &played.after, marked: &marked, check, note: "" };
            history::write_position(record, &mut markdown, shown);
        }
        None => markdown.push_str("It was not replayed, so no position is known after it.\n"),
    }
    Some(HoverText { range, markdown })
}

/// The first line of a text as a code span (it is the record's text, as written), with an
/// ellipsis when more lines follow.
fn first_line(text: &str) -> String {
    match text.split_once('\n') {
        Some((first, _)) => format!("{} …", markdown::code(first.trim_end())),
        None => markdown::code(text),
    }
}

/// The last half-move replayed inside `range` (a move line, or a whole variation), provided the
/// line of play it belongs to got that far: for a variation, the last replayed half-move of
/// the variation itself, not of a variation nested in it.
fn last_played<'a>(
    record: Context<'a>,
    range: &TextRange,
    variation: bool,
) -> Option<&'a PlayedHalfMove> {
    let inside = || {
        record
            .view
            .analysis
            .played
            .iter()
            .filter(|played| range.start <= played.range.start && played.range.end <= range.end)
    };
    let depth =
        if variation { inside().map(|played| played.depth).min()? } else { inside().next()?.depth };
    inside().rfind(|played| played.depth == depth)
}

#[cfg(test)]
mod tests {
    use super::super::tests::hover_at;

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13×F16, E15×F12\n{ @B: see #3@W, #2 and #9 }\n($[1] 3. …, EE23-E19\n4. EG5-F8)\n{ compare #3.1 }\n4. EG5-F8, EG23-F20:\n*\n";

    #[test]
    fn a_half_move_reference_shows_the_half_move_and_the_position_after_it() {
        let hover = hover_at(GAME, "#3@W").expect("a hover");
        assert_eq!(&GAME[hover.range], "#3@W");
        insta::assert_snapshot!("reference_half_move", hover.markdown);
    }

    #[test]
    fn a_move_reference_shows_the_position_after_black() {
        let hover = hover_at(GAME, "#2 ").expect("a hover");
        insta::assert_snapshot!("reference_move", hover.markdown);
    }

    #[test]
    fn a_variation_reference_shows_the_position_at_its_end() {
        let hover = hover_at(GAME, "#3.1").expect("a hover");
        insta::assert_snapshot!("reference_variation", hover.markdown);
    }

    #[test]
    fn a_reference_that_names_nothing_says_why() {
        let hover = hover_at(GAME, "#9").expect("a hover");
        insta::assert_snapshot!("reference_to_nothing", hover.markdown);
    }
}
