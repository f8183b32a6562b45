//! Completion in the tag section: tag names after `[`, in roster order with the next missing
//! required tag first, and the values of tags whose value is one of a list or has a shape.

use super::{escape_snippet, CompletionItem, CompletionKind};
use crate::analysis::tags::{tag_words, ENUMERATIONS, REPEATABLE, ROSTER, TAG_NAMES};
use crate::analysis::RESULTS;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::position::Position;
use crate::syntax::{Item, RecordSyntax};
use crate::text::TextRange;

/// The `Redefine` values the handbook gives as examples (§4.3).
const REDEFINE_PRESETS: [&str; 5] =
    ["FAN", "A@J, C@N, T@R", "B@J, Q@D, W@V", "L@J, S@N, T@R, W@V", "F@J, C@N, T@R, W@V"];

/// Where in a tag line the cursor stands.
#[derive(Debug)]
pub enum TagContext<'a> {
    /// Typing the name: `name` is the part written before the cursor, starting after `[`.
    Name { bracket: usize, name: TextRange, replace_line: Option<usize> },
    /// Inside the quotes of the value of tag `name`; `content` is the value's text range.
    Value { name: &'a str, content: TextRange },
}

impl<'a> TagContext<'a> {
    /// Reads the line holding the cursor: `[Na|`, or `[Name "val|`.
    pub fn read(text: &'a str, line_start: usize, offset: usize) -> Option<TagContext<'a>> {
        let typed = &text[line_start..offset];
        let bracket = line_start + typed.len() - typed.trim_start().len();
        let after_bracket = text[bracket..offset].strip_prefix('[')?;
        let name_start = bracket + 1;
        let line_end = text[offset..].find(['\n', '\r']).map_or(text.len(), |end| offset + end);
        let rest = &text[offset..line_end];
        if after_bracket.chars().all(|c| c.is_ascii_alphanumeric()) {
            // At the end of the line (an auto-closed `]` aside) the whole tag line is written;
            // inside an existing line only the name is replaced.
            let closing = rest.trim_end();
            let replace_line =
                (closing.is_empty() || closing == "]").then_some(offset + closing.len());
            let word_end =
                offset + rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            let name =
                TextRange::new(name_start, if replace_line.is_some() { offset } else { word_end });
            return Some(TagContext::Name { bracket, name, replace_line });
        }
        let name_length = after_bracket.find(|c: char| !c.is_ascii_alphanumeric())?;
        let name = &after_bracket[..name_length];
        let value = after_bracket[name_length..].trim_start().strip_prefix('"')?;
        if name.is_empty() || value.contains('"') {
            return None;
        }
        let content_end = offset + rest.find('"').unwrap_or(0);
        Some(TagContext::Value { name, content: TextRange::new(offset - value.len(), content_end) })
    }
}

/// The completion items for a tag context; after the movetext only a new record's `Variant` tag.
pub fn complete(
    text: &str,
    syntax: &RecordSyntax,
    ids: &IdentifierSet,
    context: &TagContext<'_>,
    in_movetext: bool,
) -> Vec<CompletionItem> {
    match context {
        TagContext::Name { bracket, name: typed_name, replace_line } => {
            let present: Vec<&str> = syntax
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Tag(tag) if tag.range.start != *bracket => Some(tag.name.text(text)),
                    _ => None,
                })
                .collect();
            let names = if in_movetext { vec!["Variant"] } else { suggested_names(&present) };
            let next_required = if in_movetext { Some("Variant") } else { next_required(&present) };
            names
                .into_iter()
                .map(|name| {
                    let words = tag_words(name);
                    let detail = words.map_or_else(String::new, |words| words.position.to_string());
                    let mut suggestion = match replace_line {
                        Some(end) => {
                            let (snippet_value, plain_value) = value_template(name, ids);
                            CompletionItem {
                                label: name.to_string(),
                                kind: CompletionKind::TagName,
                                detail,
                                snippet: format!("[{name} \"{snippet_value}\"]$0"),
                                plain: format!("[{name} \"{plain_value}\"]"),
                                filter: format!("[{name}"),
                                edit_range: TextRange::new(*bracket, *end),
                                preselect: false,
                                documentation: None,
                                sort_key: String::new(),
                            }
                        }
                        None => CompletionItem::plain(
                            name,
                            CompletionKind::TagName,
                            detail,
                            *typed_name,
                        ),
                    };
                    suggestion.preselect = next_required == Some(name);
                    suggestion.documentation =
                        words.map(|words| format!("{}\n\n{}", words.meaning, words.values));
                    suggestion
                })
                .collect()
        }
        TagContext::Value { name, content } => values(name, ids)
            .into_iter()
            .map(|(label, snippet, plain)| CompletionItem {
                kind: CompletionKind::TagValue,
                detail: format!("{name} value"),
                snippet,
                plain,
                filter: label.clone(),
                label,
                edit_range: *content,
                preselect: false,
                documentation: None,
                sort_key: String::new(),
            })
            .collect(),
    }
}

/// The tag names that may still be added, in the order of the form the record follows: the
/// next missing required tag first, then the rest of the roster, then the catalogue.
fn suggested_names(present: &[&str]) -> Vec<&'static str> {
    let mut order: Vec<&'static str> = vec!["Variant"];
    if present.get(1) == Some(&"Id") {
        order.extend(["Id", "Annotator", "AnnotatorId", "Date", "Result"]);
    } else {
        order.extend(ROSTER.iter().flat_map(|entry| entry.names.iter().copied()));
    }
    order.extend(TAG_NAMES);
    let mut names: Vec<&'static str> = Vec::new();
    if let Some(next) = next_required(present) {
        names.push(next);
    }
    for name in order {
        if !names.contains(&name) && (!present.contains(&name) || REPEATABLE.contains(&name)) {
            names.push(name);
        }
    }
    names
}

/// The first required tag of the record's form that is missing.
fn next_required(present: &[&str]) -> Option<&'static str> {
    if !present.contains(&"Variant") {
        return Some("Variant");
    }
    if present.get(1) == Some(&"Id") {
        return (!present.contains(&"Annotator")).then_some("Annotator");
    }
    ROSTER
        .iter()
        .filter(|entry| !entry.optional)
        .find(|entry| !entry.names.iter().any(|name| present.contains(name)))
        .map(|entry| entry.names[0])
}

/// The value written with a new tag line: as a snippet (a choice when the value is one of a
/// list) and as plain text.
fn value_template(name: &str, ids: &IdentifierSet) -> (String, String) {
    match name {
        "Variant" => ("C'escacs".to_string(), "C'escacs".to_string()),
        "Date" | "EventDate" | "MatchDate" => {
            ("${1:????}-${2:??}-${3:??}".to_string(), "????-??-??".to_string())
        }
        _ => {
            let choices: Vec<String> =
                values(name, ids).into_iter().map(|(_, _, plain)| plain).collect();
            if choices.is_empty() || name == "PDTL" {
                ("$1".to_string(), String::new())
            } else {
                let escaped: Vec<String> = choices
                    .iter()
                    .map(|choice| {
                        choice.replace('\\', "\\\\").replace(',', "\\,").replace('|', "\\|")
                    })
                    .collect();
                (format!("${{1|{}|}}", escaped.join(",")), String::new())
            }
        }
    }
}

/// The values offered inside a tag's quotes, as (label, snippet, plain text).
fn values(name: &str, ids: &IdentifierSet) -> Vec<(String, String, String)> {
    let listed = |values: &[&str]| {
        values
            .iter()
            .map(|value| (value.to_string(), escape_snippet(value), value.to_string()))
            .collect()
    };
    match name {
        "Variant" => listed(&["C'escacs", "Grand C'escacs"]),
        "Result" => listed(&RESULTS),
        "Redefine" => listed(&REDEFINE_PRESETS),
        "Round" => listed(&["1", "-", "?"]),
        "Event" => listed(&["?", "CG"]),
        "TimeControl" => listed(&["?", "-", "40/9000", "4500", "4500+60", "*180"]),
        "Date" | "EventDate" | "MatchDate" => vec![
            (
                "YYYY-MM-DD".to_string(),
                "${1:YYYY}-${2:MM}-${3:DD}".to_string(),
                "????-??-??".to_string(),
            ),
            ("????-??-??".to_string(), "????-??-??".to_string(), "????-??-??".to_string()),
        ],
        "PDTL" => {
            let mut initial = String::new();
            pdtl::write_pdtl(&Position::initial(), ids, &mut initial);
            vec![("initial position".to_string(), escape_snippet(&initial), initial)]
        }
        _ => ENUMERATIONS
            .iter()
            .find(|(tag, _)| *tag == name)
            .map_or_else(Vec::new, |(_, allowed)| listed(allowed)),
    }
}
