//! The catalogue of tag names (§10.2): unknown names with a suggestion (T004), tags written
//! twice (T003, W), and tags that belong to one kind of record only (T019).

use super::TagLine;
use crate::analysis::RESULTS;
use crate::diagnostics::{Code, Diagnostic, Findings, Fix, Severity};
use crate::syntax::chars::is_white_space;

/// What the handbook says about one tag of the catalogue (§10.2, §10.3), in words a hover or a
/// completion can show: what it records, the values it takes, and where it stands.
#[derive(Debug)]
pub(crate) struct TagWords {
    pub(crate) name: &'static str,
    /// What the tag records, as one sentence.
    pub(crate) meaning: &'static str,
    /// The values it takes, with examples in backquotes.
    pub(crate) values: &'static str,
    /// Where it stands in the tag section and how often it may appear.
    pub(crate) position: &'static str,
}

const fn words(
    name: &'static str,
    meaning: &'static str,
    values: &'static str,
    position: &'static str,
) -> TagWords {
    TagWords { name, meaning, values, position }
}

/// Every tag of the catalogue, in the handbook's order: the one table the names, the checks and
/// the hovers read.
pub(crate) const CATALOGUE: [TagWords; 29] = [
    words(
        "Variant",
        "The game variant: a CTL-PGN record is a game of C'escacs.",
        "`C'escacs`; `Grand C'escacs` is an experimental variant (a warning, and the board is not checked).",
        "Mandatory: the first tag of every record (it starts the record), once.",
    ),
    words(
        "Event",
        "The event (tournament, match) the game belongs to.",
        "Free text; `?` when unknown; `CG` for a casual game.",
        "Roster 1: the second tag of a registered game, right after Variant.",
    ),
    words(
        "Site",
        "Where the game was played.",
        "`City, Region CCC`, `Region CCC`, `CCC` or `?`, CCC being the three-letter ISO country code (`Moià (Barcelona), Catalunya ESP`).",
        "Roster 2: after Event.",
    ),
    words(
        "Date",
        "The date of the game.",
        "`YYYY-MM-DD`, with `?` for each unknown digit (`2024-05-01`, `2025-??-??`, `201?-??-??`).",
        "Roster 3: after Site. In a model item, after Id or after the Annotator tags.",
    ),
    words(
        "Round",
        "The round of the event.",
        "`-` or `‐` (not applicable), `?`, or numbers joined by dots (`1`, `2.1`).",
        "Roster 4: after Date.",
    ),
    words(
        "White",
        "The player of White.",
        "`Surname(s), Given name` (initials as in `Prat, J. A.`), `?` when unknown, or a program's name and version.",
        "Roster 5: after Round; WhiteNA may stand in its place.",
    ),
    words(
        "Black",
        "The player of Black.",
        "`Surname(s), Given name` (initials as in `Prat, J. A.`), `?` when unknown, or a program's name and version.",
        "Roster 6: after White (and WhiteAlias); BlackNA may stand in its place.",
    ),
    words(
        "Result",
        "The result of the game; the result line after the moves must say the same.",
        "`3-0` White wins, `2-1` White stalemates Black, `0-3` Black wins, `1-2` Black stalemates White, `1-1` draw, `*` unfinished.",
        "Roster 7, the last roster tag: the 8th tag, the 9th with one alias, the 10th with two. In a model item, after Id or after the Annotator tags.",
    ),
    words(
        "Id",
        "The identifier of the record: its publisher and a key unique for that publisher, with suffixes.",
        "`Publisher-Key[-Suffix…]`: letters, digits and hyphens (`Cescacs-X01`, `Cescacs-X01-V-en`).",
        "The second tag of a model item (minimal registration); in a registered game, after the roster.",
    ),
    words(
        "Annotator",
        "Who is responsible for the record: first the party that entered it (server, program), then the posting user, then later annotating programs.",
        "A person, written like a player (`Surname, Given name`), or a program or server.",
        "Repeatable, all Annotator tags together; a model item needs one naming its publisher.",
    ),
    words(
        "AnnotatorId",
        "The identifier of the posting user on a server.",
        "An identifier; when the Id key starts with `A` (an annotator's draft), the digits after it (`Cescacs-A0001-24` gives `0001`).",
        "At most once; required when the Id key starts with `A`.",
    ),
    words(
        "EventDate",
        "For a casual game (`[Event \"CG\"]`), the date of the match.",
        "A date as in Date: `YYYY-MM-DD`, `?` for each unknown digit.",
        "After the roster, once.",
    ),
    words(
        "MatchDate",
        "The date the match started; meaningless without Round.",
        "A date as in Date: `YYYY-MM-DD`, `?` for each unknown digit.",
        "After the roster, once.",
    ),
    words(
        "Termination",
        "Why the game ended otherwise than by its moves.",
        "`abandoned`, `rules infraction`, `time forfeit`, `death` or `emergency`.",
        "After the roster, once.",
    ),
    words(
        "Lang",
        "The language of the comments.",
        "An ISO 639-1 two-letter or ISO 639-3 three-letter code, lower case (`en`, `ca`, `spa`).",
        "Once; before Title when both are present.",
    ),
    words(
        "Title",
        "A title for the record (exceptional).",
        "Free text.",
        "Once; after Lang when both are present.",
    ),
    words(
        "Revisited",
        "The model item this one revisits: by the same publisher its main line becomes obsolete, by another this is a republication with changes.",
        "The Id of a model item.",
        "Model items only (records without players), once.",
    ),
    words(
        "Model",
        "The opening model item the game follows.",
        "The Id of an opening model item.",
        "Real games only (records with players), once.",
    ),
    words(
        "Mode",
        "How the game was played.",
        "`OTB` (over the board), `ICS` (internet chess server), `TC` (telecommunication, a peer-to-peer program), `EM` (e-mail) or `BBS` (bulletin board).",
        "Real games only (records with players), once.",
    ),
    words(
        "WhiteType",
        "Whether White is a human or a program.",
        "`human` or `program`.",
        "Real games only (records with players), once.",
    ),
    words(
        "BlackType",
        "Whether Black is a human or a program.",
        "`human` or `program`.",
        "Real games only (records with players), once.",
    ),
    words(
        "TimeControl",
        "The time control of the game.",
        "`?` unknown; `-` or `‐` none; `N/S` N moves in S seconds (`40/9000`); `S` sudden death in seconds (`4500`); `S+I` seconds plus an increment per move (`4500+60`); `*S` seconds per move (`*180`).",
        "Real games only (records with players), once.",
    ),
    words(
        "WhiteNA",
        "The network address of White, for an anonymous game.",
        "An e-mail address, or `Annotator2@Annotator1` for drafts.",
        "Roster 5, in place of White; WhiteAlias is then mandatory.",
    ),
    words(
        "BlackNA",
        "The network address of Black, for an anonymous game.",
        "An e-mail address, or `Annotator2@Annotator1` for drafts.",
        "Roster 6, in place of Black; BlackAlias is then mandatory.",
    ),
    words(
        "WhiteAlias",
        "The nickname of White.",
        "Free text.",
        "Immediately after White or WhiteNA, once.",
    ),
    words(
        "BlackAlias",
        "The nickname of Black.",
        "Free text.",
        "Immediately after Black or BlackNA, once.",
    ),
    words(
        "Example",
        "A real game that illustrates this model item.",
        "The Id of a real game.",
        "Model items only; repeatable, all Example tags together.",
    ),
    words(
        "Redefine",
        "The piece identifiers of the record, when they are not the standard letters P E J N G R V D K: it changes how moves and the PDTL are read.",
        "`FAN` (figurines), or alternative letters as `Letter@Standard` joined by commas (`A@J, C@N, T@R`): A B F L for J, C S for N, T for R, W for V, Q for D.",
        "Once; immediately before PDTL when there is one, otherwise the last tag (after PDTL it is an error).",
    ),
    words(
        "PDTL",
        "The position the record starts from (a continuation, a problem), described by transversal lines; without it the game starts from the initial position.",
        "Placement, side to move, castling status, special-capture field, halfmove clock and move number: `/28:v/…/0:V/ w RKRrkr - 0 1`.",
        "Once; the last tag.",
    ),
];

/// Every tag name of the catalogue, in the handbook's order.
pub(crate) const KNOWN: [&str; 29] = names(&CATALOGUE);

const fn names(catalogue: &[TagWords; 29]) -> [&'static str; 29] {
    let mut names = [""; 29];
    let mut index = 0;
    while index < names.len() {
        names[index] = catalogue[index].name;
        index += 1;
    }
    names
}

/// What the catalogue says about a tag name; the legacy names of `PDTL` (`TLPD`, `DPTL`) are
/// read as `PDTL`, as `setup` reads them.
pub(crate) fn tag_words(name: &str) -> Option<&'static TagWords> {
    let name = if LEGACY_POSITION_NAMES.contains(&name) { "PDTL" } else { name };
    CATALOGUE.iter().find(|words| words.name == name)
}

/// Legacy names of `PDTL`: `setup` reads them and reports T005, so they are not unknown.
const LEGACY_POSITION_NAMES: [&str; 2] = ["TLPD", "DPTL"];

/// The tags whose duplicates `setup` reports as errors, since it must choose the one it uses.
const CONTENT_AFFECTING: [&str; 5] = ["Variant", "Redefine", "PDTL", "TLPD", "DPTL"];

/// The tags that may be repeated (§10.3 item 7).
pub(crate) const REPEATABLE: [&str; 2] = ["Annotator", "Example"];

/// The tags that name the players and so make a record a real game (§10.2).
const PLAYER_TAGS: [&str; 4] = ["White", "WhiteNA", "Black", "BlackNA"];

/// Tags meaningful only in a real game.
const REAL_GAME_ONLY: [&str; 5] = ["Model", "Mode", "WhiteType", "BlackType", "TimeControl"];

/// Tags meaningful only in a model item.
const MODEL_ONLY: [&str; 2] = ["Revisited", "Example"];

/// T004 for names outside the catalogue, T003 for a catalogue tag written a second time.
/// `result_line` is the text of the record's result line, if any.
pub(super) fn check_names(
    text: &str,
    tags: &[TagLine<'_>],
    result_line: Option<&str>,
    diagnostics: &mut Findings,
) {
    for (index, line) in tags.iter().enumerate() {
        if !is_known(line.name) {
            let mut diagnostic =
                Diagnostic::new(Code::T004, line.line_range(), unknown_name_message(line.name));
            // A rename in a broken tag line, or one that would trade T004 for a worse error,
            // is not offered: a tag that changes how the whole record reads (its letters, its
            // starting position) cannot be judged here, a Variant tag starts a record only
            // where the record starts, and a Result tag must agree with the result line (T014).
            let renamed = suggestion(line.name).filter(|known| {
                let present = tags.iter().any(|other| other.name == *known);
                !line.tag.malformed
                    && match *known {
                        "Variant" => !present && opens_this_record(index, line, text),
                        "Result" => agrees_with(line.value.as_deref(), result_line),
                        known => !CONTENT_AFFECTING.contains(&known),
                    }
            });
            if let Some(known) = renamed {
                diagnostic = diagnostic.with_fix(Fix::replace(
                    format!("Rename to {known}"),
                    line.tag.name.range,
                    known,
                ));
            }
            diagnostics.push(diagnostic);
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

/// Whether a tag line renamed to Variant would be `[Variant "C'escacs"]` where this record
/// starts: any other Variant line starts a record of its own (or says another variant, T002).
fn opens_this_record(index: usize, line: &TagLine<'_>, text: &str) -> bool {
    index == 0
        && line.value.as_deref() == Some("C'escacs")
        && text[..line.tag.range.start].trim_matches(is_white_space).is_empty()
}

/// Whether a Result tag of `value` would agree with the result line (T014 compares two valid
/// results only).
fn agrees_with(value: Option<&str>, result_line: Option<&str>) -> bool {
    fn valid(result: Option<&str>) -> Option<&str> {
        result.filter(|result| RESULTS.contains(result))
    }
    match (valid(value), valid(result_line)) {
        (Some(value), Some(line)) => value == line,
        _ => true,
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

/// The T004 message for a name outside the catalogue, with the name it was probably meant to be.
pub(crate) fn unknown_name_message(name: &str) -> String {
    match suggestion(name) {
        Some(known) if known.eq_ignore_ascii_case(name) => {
            format!("unknown tag {name}: tag names are case-sensitive, write {known}")
        }
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
pub(super) fn check_record_kind(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    let real_game = tags.iter().any(|line| PLAYER_TAGS.contains(&line.name));
    for line in tags {
        let message = if real_game && MODEL_ONLY.contains(&line.name) {
            format!(
                "{} belongs to model items, but this record is a real game (it names players)",
                line.name
            )
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
    use super::{suggestion, tag_words, CATALOGUE, KNOWN};
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::diagnostics::Code;
    use crate::syntax;

    #[test]
    fn every_tag_of_the_catalogue_has_its_words() {
        assert_eq!(KNOWN.len(), CATALOGUE.len());
        for words in &CATALOGUE {
            assert!(
                !words.meaning.is_empty() && !words.values.is_empty() && !words.position.is_empty(),
                "{}",
                words.name
            );
        }
        assert_eq!(tag_words("DPTL").map(|words| words.name), Some("PDTL"));
        assert!(tag_words("Result")
            .is_some_and(|words| words.values.contains("`2-1` White stalemates Black")));
        assert!(tag_words("WhiteElo").is_none());
    }

    #[test]
    fn names_in_another_case_or_slightly_misspelt_get_a_suggestion() {
        assert_eq!(suggestion("model"), Some("Model"));
        assert_eq!(suggestion("Timecontrol"), Some("TimeControl"));
        assert_eq!(suggestion("Anotator"), Some("Annotator"));
        assert_eq!(suggestion("Rond"), Some("Round"));
        assert_eq!(suggestion("WhiteElo"), None);
        assert_eq!(suggestion("ECO"), None);
    }

    /// The titles of the fixes of the T004 of `text`.
    fn rename_fixes(text: &str) -> Vec<String> {
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let unknown = analysis.diagnostics.iter().find(|d| d.code == Code::T004);
        let unknown = unknown.unwrap_or_else(|| panic!("T004 in {text:?}"));
        unknown.fixes.iter().map(|fix| fix.title.clone()).collect()
    }

    #[test]
    fn a_misspelt_name_is_renamed_only_in_a_tag_line_that_reads() {
        let record = "[Variant \"C'escacs\"]\n[Event \"E\"]\n[Anotator \"A\"]\n\n*\n";
        assert_eq!(rename_fixes(record), ["Rename to Annotator"]);
        // `[Redefi` without a value: as Redefine it would be an error of its own.
        assert!(rename_fixes("[D\"\"[Redefi").is_empty());
        // A second Variant tag would be an error of its own.
        assert!(rename_fixes("[Variant \"C'escacs\"]\n[Varian \"C'escacs\"]\n\n*\n").is_empty());
    }

    #[test]
    fn a_misspelt_variant_tag_is_renamed_only_where_it_starts_the_record() {
        let record = "[Varint \"C'escacs\"]\n[Event \"E\"]\n\n*\n";
        assert_eq!(rename_fixes(record), ["Rename to Variant"]);
        // Found by the fuzzer: after `]` the renamed line starts a record of its own.
        assert!(rename_fixes("]\n[arian\"\"]").is_empty());
        assert!(rename_fixes("[Varint \"Grand\"]\n[Event \"E\"]\n\n*\n").is_empty());
    }

    #[test]
    fn no_rename_to_a_tag_that_changes_how_the_record_reads() {
        // Found by the fuzzer: an empty PDTL is an error of its own.
        assert!(rename_fixes("[PDL\"\"]").is_empty());
        assert!(rename_fixes("[Variant \"C'escacs\"]\n[Redefin \"FAN\"]\n\n*\n").is_empty());
    }

    #[test]
    fn a_misspelt_result_tag_is_renamed_only_when_it_agrees_with_the_result_line() {
        // Found by the fuzzer: as Result, `*` would disagree with `3-0` (T014, an error).
        assert!(rename_fixes("[osult\"*\"]3-0").is_empty());
        let record = |value: &str| format!("[Variant \"C'escacs\"]\n[Reslt \"{value}\"]\n\n3-0\n");
        assert!(rename_fixes(&record("*")).is_empty());
        assert_eq!(rename_fixes(&record("3-0")), ["Rename to Result"]);
        // A value that is no result is a warning of its own (T013), and no disagreement.
        assert_eq!(rename_fixes(&record("won")), ["Rename to Result"]);
    }
}
