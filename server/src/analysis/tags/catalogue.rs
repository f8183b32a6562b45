//! The catalogue of tag names (§10.2): unknown names with a suggestion (T004), tags written
//! twice (T003, W), and tags that belong to one kind of record only (T019).

use super::TagLine;
use crate::diagnostics::{Code, Diagnostic, Severity};

/// Every tag name of the catalogue, in the handbook's order.
const KNOWN: [&str; 29] = [
    "Variant", "Event", "Site", "Date", "Round", "White", "Black", "Result", "Id", "Annotator", "AnnotatorId",
    "EventDate", "MatchDate", "Termination", "Lang", "Title", "Revisited", "Model", "Mode", "WhiteType",
    "BlackType", "TimeControl", "WhiteNA", "BlackNA", "WhiteAlias", "BlackAlias", "Example", "Redefine", "PDTL",
];

/// Legacy names of `PDTL`: `setup` reads them and reports T005, so they are not unknown.
const LEGACY_POSITION_NAMES: [&str; 2] = ["TLPD", "DPTL"];

/// The tags whose duplicates `setup` reports as errors, since it must choose the one it uses.
const CONTENT_AFFECTING: [&str; 5] = ["Variant", "Redefine", "PDTL", "TLPD", "DPTL"];

/// The tags that may be repeated (§10.3 item 7).
pub(super) const REPEATABLE: [&str; 2] = ["Annotator", "Example"];

/// The tags that name the players and so make a record a real game (§10.2).
const PLAYER_TAGS: [&str; 4] = ["White", "WhiteNA", "Black", "BlackNA"];

/// Tags meaningful only in a real game.
const REAL_GAME_ONLY: [&str; 5] = ["Model", "Mode", "WhiteType", "BlackType", "TimeControl"];

/// Tags meaningful only in a model item.
const MODEL_ONLY: [&str; 2] = ["Revisited", "Example"];

/// T004 for names outside the catalogue, T003 for a catalogue tag written a second time.
pub(super) fn check_names(tags: &[TagLine<'_>], diagnostics: &mut Vec<Diagnostic>) {
    for (index, line) in tags.iter().enumerate() {
        if !is_known(line.name) {
            diagnostics.push(Diagnostic::new(Code::T004, line.line_range(), unknown_name_message(line.name)));
        } else if is_duplicate(tags, index) {
            diagnostics.push(
                Diagnostic::new(
                    Code::T003,
                    line.line_range(),
                    format!("second {} tag: only Annotator and Example may be repeated", line.name),
                )
                .with_severity(Severity::Warning),
            );
        }
    }
}

fn is_known(name: &str) -> bool {
    KNOWN.contains(&name) || LEGACY_POSITION_NAMES.contains(&name)
}

/// Whether the tag at `index` repeats an earlier one that must appear once; duplicates of
/// unknown names are not judged, T004 already covers them.
fn is_duplicate(tags: &[TagLine<'_>], index: usize) -> bool {
    let name = tags[index].name;
    !REPEATABLE.contains(&name)
        && !CONTENT_AFFECTING.contains(&name)
        && tags[..index].iter().any(|earlier| earlier.name == name)
}

fn unknown_name_message(name: &str) -> String {
    match suggestion(name) {
        Some(known) if known.eq_ignore_ascii_case(name) => format!("unknown tag {name}: tag names are case-sensitive, write {known}"),
        Some(known) => format!("unknown tag {name}: did you mean {known}?"),
        None => format!("unknown tag {name}: CTL-PGN defines no such tag"),
    }
}

/// The catalogue name an unknown name was probably meant to be: the same letters in another
/// case, or else the nearest name within a small edit distance (one edit for short names,
/// whose every letter matters, two for longer ones).
fn suggestion(name: &str) -> Option<&'static str> {
    if let Some(known) = KNOWN.iter().find(|known| known.eq_ignore_ascii_case(name)) {
        return Some(known);
    }
    let lower = name.to_lowercase();
    let allowed = if name.chars().count() <= 4 { 1 } else { 2 };
    KNOWN
        .iter()
        .map(|known| (edit_distance(&lower, &known.to_lowercase()), *known))
        .filter(|(distance, _)| *distance <= allowed)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, known)| known)
}

/// Levenshtein distance between two strings, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, b_char) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(a_char != *b_char);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// T019: a real game is a record with players; every other record is a model item.
pub(super) fn check_record_kind(tags: &[TagLine<'_>], diagnostics: &mut Vec<Diagnostic>) {
    let real_game = tags.iter().any(|line| PLAYER_TAGS.contains(&line.name));
    for line in tags {
        let message = if real_game && MODEL_ONLY.contains(&line.name) {
            format!("{} belongs to model items, but this record is a real game (it names players)", line.name)
        } else if !real_game && REAL_GAME_ONLY.contains(&line.name) {
            format!("{} belongs to real games, but this record names no players (White or WhiteNA, Black or BlackNA)", line.name)
        } else {
            continue;
        };
        diagnostics.push(Diagnostic::new(Code::T019, line.line_range(), message));
    }
}

#[cfg(test)]
mod tests {
    use super::suggestion;

    #[test]
    fn names_in_another_case_or_slightly_misspelt_get_a_suggestion() {
        assert_eq!(suggestion("model"), Some("Model"));
        assert_eq!(suggestion("Timecontrol"), Some("TimeControl"));
        assert_eq!(suggestion("Anotator"), Some("Annotator"));
        assert_eq!(suggestion("Rond"), Some("Round"));
        assert_eq!(suggestion("WhiteElo"), None);
        assert_eq!(suggestion("ECO"), None);
    }
}
