//! The order of the tags (§10.3): the form chosen by the second tag (T007), the roster of a
//! registered game and the place of the aliases (T006), the publisher of a model item (T008),
//! repeatable tags kept together (T009), aliases required by network addresses (T010),
//! `Title` after `Lang` (T017) and comments among the tags (T025).

use super::catalogue::REPEATABLE;
use super::{TagLine, TagSection};
use crate::diagnostics::{Code, Diagnostic, Findings};
use crate::text::TextRange;

/// One position of the roster (§10.3 item 2): the names that fill it, and whether it may be
/// left out.
#[derive(Debug)]
pub(crate) struct RosterEntry {
    pub(crate) names: &'static [&'static str],
    pub(crate) optional: bool,
}

impl RosterEntry {
    /// The entry as messages name it: `White (or WhiteNA)`.
    fn describe(&self) -> String {
        match self.names {
            [name, alternatives @ ..] if !alternatives.is_empty() => {
                format!("{name} (or {})", alternatives.join(" or "))
            }
            names => names.join(" or "),
        }
    }
}

const fn required(names: &'static [&'static str]) -> RosterEntry {
    RosterEntry { names, optional: false }
}

const fn optional(names: &'static [&'static str]) -> RosterEntry {
    RosterEntry { names, optional: true }
}

/// The roster of a registered game, from the tag after `Variant` to `Result`.
pub(crate) const ROSTER: [RosterEntry; 9] = [
    required(&["Event"]),
    required(&["Site"]),
    required(&["Date"]),
    required(&["Round"]),
    required(&["White", "WhiteNA"]),
    optional(&["WhiteAlias"]),
    required(&["Black", "BlackNA"]),
    optional(&["BlackAlias"]),
    required(&["Result"]),
];

/// Each alias and the player tags it must follow immediately.
const ALIASES: [(&str, [&str; 2]); 2] =
    [("WhiteAlias", ["White", "WhiteNA"]), ("BlackAlias", ["Black", "BlackNA"])];

/// Checks the order rules of the tag section.
pub(super) fn check_order(section: &TagSection<'_>, diagnostics: &mut Findings) {
    let tags = &section.tags;
    check_form(tags, diagnostics);
    for name in REPEATABLE {
        check_consecutive(tags, name, diagnostics);
    }
    check_aliases_present(tags, diagnostics);
    check_title_after_lang(tags, diagnostics);
    for comment in &section.comments_among_tags {
        diagnostics.push(Diagnostic::new(
            Code::T025,
            TextRange::new(comment.open.range.start, comment.range.end),
            "comment among the tags: tags come first, comments after the last tag",
        ));
    }
}

/// The tags after `Variant`, where the form starts. When the first tag is not `Variant`
/// (T001), the form is read from the first tag, so that a record that only lacks its
/// `Variant` line is not also told that its roster is out of order.
fn head<'t, 'a>(tags: &'t [TagLine<'a>]) -> &'t [TagLine<'a>] {
    match tags.first() {
        Some(first) if first.name == "Variant" => &tags[1..],
        _ => tags,
    }
}

/// T007, and the form's own rules: the roster (T006) or the publisher (T008). A misplaced
/// alias is T006 in any form, reported only when the roster is in order (T006 is reported
/// once per record, §13.1).
fn check_form(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    let Some(last) = tags.last() else { return };
    let head = head(tags);
    let roster_break = match head.first().map(|line| line.name) {
        Some("Event") => roster_break(head),
        Some("Id") => {
            check_publisher(tags, &head[0], diagnostics);
            None
        }
        second => {
            let (at, message) = match second {
                Some(name) => (&head[0], format!("second tag is {name}: a record continues with Event (registered game) or Id (model item)")),
                None => (last, "Variant alone: a record continues with Event (registered game) or Id (model item)".to_string()),
            };
            diagnostics.push(Diagnostic::new(Code::T007, at.line_range(), message));
            None
        }
    };
    if let Some((at, message)) = roster_break.or_else(|| misplaced_alias(tags)) {
        diagnostics.push(Diagnostic::new(Code::T006, at.line_range(), message));
    }
}

/// Walks the roster with a cursor on the tags (§10.3 item 2): a matching tag advances the
/// cursor, a missing optional alias is skipped, anything else breaks the roster at the tag
/// under the cursor, or at the last tag when the tags ran out.
fn roster_break<'t, 'a>(head: &'t [TagLine<'a>]) -> Option<(&'t TagLine<'a>, String)> {
    let mut cursor = 0;
    for entry in &ROSTER {
        match head.get(cursor) {
            Some(line) if entry.names.contains(&line.name) => cursor += 1,
            _ if entry.optional => {}
            Some(line) => {
                return Some((
                    line,
                    format!(
                        "seven-tag roster out of order: {} expected before {}",
                        entry.describe(),
                        line.name
                    ),
                ))
            }
            None => {
                let last = head.last()?;
                return Some((
                    last,
                    format!(
                        "seven-tag roster incomplete: {} expected after {}",
                        entry.describe(),
                        last.name
                    ),
                ));
            }
        }
    }
    None
}

/// The first alias that does not follow its player tag immediately.
fn misplaced_alias<'t, 'a>(tags: &'t [TagLine<'a>]) -> Option<(&'t TagLine<'a>, String)> {
    tags.iter().enumerate().find_map(|(index, line)| {
        let (alias, players) = ALIASES.iter().find(|(alias, _)| *alias == line.name)?;
        let follows_player = index > 0 && players.contains(&tags[index - 1].name);
        (!follows_player).then(|| {
            (line, format!("{alias} must come immediately after {} or {}", players[0], players[1]))
        })
    })
}

/// T008: the `Id` form names its publisher in an `Annotator` tag.
fn check_publisher(tags: &[TagLine<'_>], id: &TagLine<'_>, diagnostics: &mut Findings) {
    if !tags.iter().any(|line| line.name == "Annotator") {
        diagnostics.push(Diagnostic::new(
            Code::T008,
            id.line_range(),
            "a record in the Id form needs an Annotator tag naming its publisher",
        ));
    }
}

/// T009 at every tag of `name` that starts a new run after an earlier one.
fn check_consecutive(tags: &[TagLine<'_>], name: &str, diagnostics: &mut Findings) {
    let mut seen = false;
    for (index, line) in tags.iter().enumerate() {
        if line.name != name {
            continue;
        }
        let continues_run = index > 0 && tags[index - 1].name == name;
        if seen && !continues_run {
            diagnostics.push(Diagnostic::new(
                Code::T009,
                line.line_range(),
                format!(
                    "{name} tags must be consecutive: this one is separated from the earlier ones"
                ),
            ));
        }
        seen = true;
    }
}

/// T010: a network address in place of a player's name needs the player's alias.
fn check_aliases_present(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    for (address, alias) in [("WhiteNA", "WhiteAlias"), ("BlackNA", "BlackAlias")] {
        let Some(line) = tags.iter().find(|line| line.name == address) else { continue };
        if !tags.iter().any(|line| line.name == alias) {
            diagnostics.push(Diagnostic::new(
                Code::T010,
                line.line_range(),
                format!(
                    "{address} replaces the player's name, so {alias} is required right after it"
                ),
            ));
        }
    }
}

/// T017, at the first `Title` when it comes before the first `Lang`.
fn check_title_after_lang(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    let position = |name: &str| tags.iter().position(|line| line.name == name);
    if let (Some(title), Some(lang)) = (position("Title"), position("Lang")) {
        if title < lang {
            diagnostics.push(Diagnostic::new(
                Code::T017,
                tags[title].line_range(),
                "Title must come after Lang",
            ));
        }
    }
}
