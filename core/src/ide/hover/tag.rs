//! The hover of a tag name (handbook §10.2, §10.3): what the tag records, the values it takes
//! and where it stands, in the words of the tag catalogue the checks use.

use super::{Context, HoverText};
use crate::analysis::tags::{tag_words, unknown_name_message};
use crate::ide::markdown;
use crate::syntax::Tag;

/// The hover of a tag's name; an unknown name gets the T004 message with its suggestion.
pub(super) fn hover(record: Context<'_>, tag: &Tag) -> Option<HoverText> {
    let name = tag.name.text(record.view.text);
    let shown = markdown::text(name);
    let markdown = match tag_words(name) {
        Some(words) => {
            let legacy = if words.name == name {
                String::new()
            } else {
                format!(" (legacy name of {}: write {})", words.name, words.name)
            };
            format!(
                "**{shown}**{legacy} · {}\n\n**Values:** {}\n\n**Position:** {}\n",
                words.meaning, words.values, words.position
            )
        }
        None => format!("**{shown}** · {}\n", markdown::text(&unknown_name_message(name))),
    };
    Some(HoverText { range: tag.name.range, markdown })
}

#[cfg(test)]
mod tests {
    use super::super::tests::hover_at;

    const TAGS: &str = "[Variant \"C'escacs\"]\n[Event \"CG\"]\n[Datum \"2024-05-01\"]\n[TLPD \"/1:K/0:k/ w - -\"]\n";

    #[test]
    fn a_tag_name_shows_its_meaning_values_and_position() {
        let hover = hover_at(TAGS, "Event").expect("a hover");
        assert_eq!(&TAGS[hover.range], "Event");
        assert!(
            hover
                .markdown
                .starts_with("**Event** · The event (tournament, match) the game belongs to.\n\n"),
            "{}",
            hover.markdown
        );
        assert!(
            hover
                .markdown
                .contains("**Values:** Free text; `?` when unknown; `CG` for a casual game."),
            "{}",
            hover.markdown
        );
        assert!(
            hover.markdown.contains("**Position:** Roster 1: the second tag of a registered game"),
            "{}",
            hover.markdown
        );
    }

    #[test]
    fn legacy_and_unknown_names_say_what_to_write() {
        let legacy = hover_at(TAGS, "TLPD").expect("a hover");
        assert!(
            legacy.markdown.starts_with(
                "**TLPD** (legacy name of PDTL: write PDTL) · The position the record starts from"
            ),
            "{}",
            legacy.markdown
        );
        let unknown = hover_at(TAGS, "Datum").expect("a hover");
        assert_eq!(unknown.markdown, "**Datum** · unknown tag Datum: did you mean Date?\n");
    }
}
