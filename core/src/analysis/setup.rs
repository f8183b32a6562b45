//! The tags that decide how a record is read (handbook §10.4, §13 items 2-4): `Variant`,
//! `Redefine`, `PDTL` (and its legacy names) and `Result`, with their T- and P-codes. The
//! remaining tag rules are checked in `tags`.

use crate::diagnostics::{Code, Diagnostic, Findings, Fix, Severity};
use crate::format::dominant_line_ending;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::position::Position;
use crate::syntax::chars::is_white_space;
use crate::syntax::{Item, Tag};
use crate::text::TextRange;

/// The title of the fix that adds the missing `Variant` tag.
const ADD_VARIANT: &str = "Add [Variant \"C'escacs\"]";

/// How the movetext of a record is to be read.
#[derive(Debug)]
pub struct Setup {
    /// The identifier set for the movetext.
    pub identifiers: IdentifierSet,
    /// The starting position; `None` when the movetext cannot be replayed (an unusable PDTL or
    /// Redefine, or a variant other than C'escacs).
    pub start: Option<Position>,
    /// Whether a `PDTL` tag gives the start.
    pub has_pdtl: bool,
    /// The value of the `Result` tag, with the range of its content.
    pub result_tag: Option<(String, TextRange)>,
    /// Where the tag section ends: tags after this item index are S003.
    pub first_movetext_item: usize,
}

/// Reads the content-affecting tags of a record's items.
pub fn read_setup(text: &str, items: &[Item], diagnostics: &mut Findings) -> Setup {
    let first_movetext_item = crate::syntax::movetext_start(items);
    let tags: Vec<&Tag> = items[..first_movetext_item]
        .iter()
        .filter_map(|item| if let Item::Tag(tag) = item { Some(tag) } else { None })
        .collect();
    for item in &items[first_movetext_item..] {
        if let Item::Tag(tag) = item {
            diagnostics.push(Diagnostic::new(
                Code::S003,
                TextRange::new(tag.range.start, tag.range.start + 1),
                format!(
                    "tag {} after the movetext started: tags come before the moves",
                    tag.name.text(text)
                ),
            ));
        }
    }

    let mut playable = true;
    match tags.first() {
        Some(first) if first.name.text(text) == "Variant" => {
            let value = first.value_text(text).unwrap_or_default();
            if value == "Grand C'escacs" {
                diagnostics.push(
                    Diagnostic::new(
                        Code::T002,
                        value_range(first),
                        "Grand C'escacs is an experimental variant: its board is not checked",
                    )
                    .with_severity(Severity::Warning),
                );
                playable = false;
            } else if value != "C'escacs" {
                diagnostics.push(Diagnostic::new(
                    Code::T002,
                    value_range(first),
                    format!("Variant is \"{value}\": a CTL-PGN record is [Variant \"C'escacs\"]"),
                ));
                playable = false;
            }
        }
        Some(first) => {
            let mut diagnostic = Diagnostic::new(
                Code::T001,
                TextRange::new(first.range.start, first.range.start + 1),
                "the first tag must be [Variant \"C'escacs\"]",
            );
            // Broken text before the first tag would still come first once the tag is added.
            let broken_before = items
                .iter()
                .take_while(|item| !matches!(item, Item::Tag(_)))
                .any(|item| matches!(item, Item::Error(_)));
            // A first tag line that opens the record (a broken `[Variant` line) would open
            // another one after the tag added, which would be a record of its own.
            let opens_record = crate::syntax::opens_record(&text.as_bytes()[first.range.start..]);
            // So would a first tag line that is broken itself (the parser's recovery may
            // take in the tag added). Anything before the first tag (a comment) would be left
            // in front of the `[Variant` line added, a record of its own.
            let written_before = !text[..first.range.start].trim_matches(is_white_space).is_empty();
            if !broken_before
                && !written_before
                && !first.malformed
                && !opens_record
                && !tags.iter().any(|tag| tag.name.text(text) == "Variant")
            {
                diagnostic = diagnostic.with_fix(Fix::replace(
                    ADD_VARIANT,
                    TextRange::empty(first.range.start),
                    // In the record's own line ending, as `fmt` keeps it.
                    format!("[Variant \"C'escacs\"]{}", dominant_line_ending(text)),
                ));
            }
            diagnostics.push(diagnostic);
        }
        None => {
            let mut diagnostic = Diagnostic::new(
                Code::T001,
                TextRange::empty(0),
                "the record has no tags: it must start with [Variant \"C'escacs\"]",
            );
            // The tag line and blank line added make a record of their own when what follows
            // does not read as movetext (a broken tag line, stray text): the fix would leave a
            // record without tags, so it is only offered before movetext that reads. A
            // variation never closed lets the parser's recovery take in the tag added, and so
            // may text that lowers to no item at all: not offered either.
            let unreadable = items.iter().any(|item| match item {
                Item::Error(_) => true,
                Item::Variation(variation) => variation.close.is_none(),
                _ => false,
            }) || (items.is_empty()
                && !text.trim_matches(is_white_space).is_empty());
            if !unreadable {
                diagnostic = diagnostic.with_fix(Fix::replace(
                    ADD_VARIANT,
                    TextRange::empty(0),
                    format!("[Variant \"C'escacs\"]{0}{0}", dominant_line_ending(text)),
                ));
            }
            diagnostics.push(diagnostic);
        }
    }

    // Content-affecting tags: the first occurrence counts, later ones are T003 errors.
    let mut redefine: Option<(usize, &Tag)> = None;
    let mut position_tag: Option<(usize, &Tag)> = None;
    let mut result_tag = None;
    let mut variant_seen = false;
    for (index, tag) in tags.iter().enumerate() {
        let name = tag.name.text(text);
        let slot = match name {
            "Variant" => {
                if variant_seen {
                    duplicate(tag, name, diagnostics);
                }
                variant_seen = true;
                continue;
            }
            "Redefine" => &mut redefine,
            "PDTL" | "TLPD" | "DPTL" => {
                if name != "PDTL" {
                    diagnostics.push(
                        Diagnostic::new(
                            Code::T005,
                            TextRange::new(tag.range.start, tag.range.start + 1),
                            format!("{name} is a deprecated name of the position tag: write PDTL"),
                        )
                        .with_fix(Fix::replace(
                            "Rename to PDTL",
                            tag.name.range,
                            "PDTL",
                        )),
                    );
                }
                &mut position_tag
            }
            "Result" => {
                if result_tag.is_none() {
                    result_tag = Some((tag.value_text(text).unwrap_or_default(), value_range(tag)));
                }
                continue;
            }
            _ => continue,
        };
        if slot.is_some() {
            duplicate(tag, name, diagnostics);
        } else {
            *slot = Some((index, *tag));
        }
    }

    let mut pdtl_identifiers = IdentifierSet::standard();
    let mut identifiers = IdentifierSet::standard();
    if let Some((redefine_index, tag)) = redefine {
        match IdentifierSet::from_redefine(&tag.value_text(text).unwrap_or_default()) {
            Ok(set) => {
                identifiers = set.clone();
                match position_tag {
                    Some((pdtl_index, _)) if redefine_index > pdtl_index => diagnostics.push(Diagnostic::new(
                        Code::T023,
                        TextRange::new(tag.range.start, tag.range.start + 1),
                        "Redefine after PDTL: the PDTL was read with the standard letters; put Redefine immediately before PDTL",
                    )),
                    Some((pdtl_index, _)) => {
                        pdtl_identifiers = set;
                        if redefine_index + 1 != pdtl_index {
                            diagnostics.push(
                                Diagnostic::new(Code::T023, TextRange::new(tag.range.start, tag.range.start + 1), "Redefine must stand immediately before PDTL")
                                    .with_severity(Severity::Warning),
                            );
                        }
                    }
                    None if redefine_index + 1 != tags.len() => diagnostics.push(
                        Diagnostic::new(Code::T023, TextRange::new(tag.range.start, tag.range.start + 1), "Redefine must be the last tag when there is no PDTL")
                            .with_severity(Severity::Warning),
                    ),
                    None => {}
                }
            }
            Err(refused) => {
                diagnostics.push(Diagnostic::new(
                    Code::T022,
                    value_range(tag),
                    refused.to_string(),
                ));
                playable = false;
            }
        }
    }

    let mut start = Some(Position::initial());
    if let Some((pdtl_index, tag)) = position_tag {
        let after = &tags[pdtl_index + 1..];
        // Nothing may follow PDTL but a Redefine tag standing alone (T023 judges that one).
        let only_redefine_after = matches!(after, [tag] if tag.name.text(text) == "Redefine");
        if !after.is_empty() && !only_redefine_after {
            diagnostics.push(Diagnostic::new(
                Code::T024,
                TextRange::new(tag.range.start, tag.range.start + 1),
                "PDTL must be the last tag",
            ));
        }
        let value = tag.value_text(text).unwrap_or_default();
        let reading = pdtl::parse(&value, &pdtl_identifiers);
        // The value is read unescaped: a broken PDTL may hold `\"` or `\\`, whose ranges
        // differ in the text.
        for problem in reading.problems {
            diagnostics.push(
                Diagnostic::new(
                    problem.code,
                    tag.value_range_in_text(text, problem.range),
                    problem.message,
                )
                .with_severity(problem.severity),
            );
        }
        start = reading.position;
    }
    Setup {
        identifiers,
        start: if playable { start } else { None },
        has_pdtl: position_tag.is_some(),
        result_tag,
        first_movetext_item,
    }
}

fn duplicate(tag: &Tag, name: &str, diagnostics: &mut Findings) {
    diagnostics.push(Diagnostic::new(
        Code::T003,
        TextRange::new(tag.range.start, tag.range.start + 1),
        format!("second {name} tag: only the first one is used"),
    ));
}

/// The range of a tag's value content, or of the tag when it has none.
fn value_range(tag: &Tag) -> TextRange {
    tag.value_content_range().unwrap_or(tag.range)
}

#[cfg(test)]
mod tests {
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::syntax;

    /// Every diagnostic of `text` with the text its range covers.
    fn covered(text: &str) -> Vec<(String, String)> {
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        analysis
            .diagnostics
            .iter()
            .map(|diagnostic| {
                let covered = text.get(diagnostic.range.to_range());
                assert!(covered.is_some(), "{diagnostic:?} is off the characters of {text:?}");
                (diagnostic.code.as_str().to_string(), covered.unwrap_or("").to_string())
            })
            .collect()
    }

    #[test]
    fn pdtl_problems_are_placed_past_the_escapes_of_the_value() {
        // `\♙` is one character in the value but two in the text: the P001 of the value
        // `♙` covers `\♙`, and a problem after an escape is moved past it.
        let found = covered("[PDTL\"\\♙\"]");
        assert!(found.contains(&("P001".to_string(), "\\♙".to_string())), "{found:?}");
        let found = covered("[PDTL \"\\\\/28:x - - - 0 1\"]\n\n*\n");
        assert!(found.iter().all(|(_, covered)| !covered.is_empty()), "{found:?}");
        let placement = found.iter().find(|(code, _)| code == "P007");
        assert_eq!(placement.map(|(_, covered)| covered.as_str()), Some("28:x"), "{found:?}");
    }

    /// The codes of `text`'s diagnostics, and the codes once its first fix of `code` is made.
    fn codes_before_and_after_fix(text: &str, code: &str) -> Option<(Vec<String>, Vec<String>)> {
        let codes = |text: &str| {
            let record = syntax::parse_record(text);
            let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
            let fix = analysis
                .diagnostics
                .iter()
                .find(|diagnostic| diagnostic.code.as_str() == code)
                .and_then(|diagnostic| diagnostic.fixes.first().cloned());
            let codes = analysis.diagnostics.iter().map(|d| d.code.as_str().to_string()).collect();
            (codes, fix)
        };
        let (before, fix) = codes(text);
        let fix = fix?;
        Some((before, codes(&fix.applied_to(text)).0))
    }

    #[test]
    fn the_variant_tag_is_added_only_where_it_starts_the_same_record() {
        let (before, after) = codes_before_and_after_fix("1. G7-G9, E21-E17\n*\n", "T001")
            .expect("a record of moves alone is given its Variant tag");
        assert!(before.contains(&"T001".to_string()), "{before:?}");
        assert!(!after.contains(&"T001".to_string()), "{after:?}");
        // A broken tag line: the tags added before it would make a record of their own.
        let broken = "\u{FFFD}[[]]";
        let found = covered(broken);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(broken, "T001"), None, "{broken:?}");
        // Broken text before the first tag: the tag added after it would not be first.
        let broken = "[VariaDemo\"]\n[Event \"E\"]\n\n*\n";
        let found = covered(broken);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(broken, "T001"), None, "{broken:?}");
        // A broken Variant tag line (found by the fuzzer): the tag added before it would make
        // a record of its own, and the broken line would still open this one.
        let broken = "[Variant s\"\nv";
        let found = covered(broken);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(broken, "T001"), None, "{broken:?}");
        // A comment before the first tag (found by the fuzzer): it would be a record of its
        // own in front of the Variant tag added.
        let commented = "{}\n[d\"\"]";
        let found = covered(commented);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(commented, "T001"), None, "{commented:?}");
        // A broken first tag line after a comment (found by the fuzzer).
        let broken = "{}\n[v";
        let found = covered(broken);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(broken, "T001"), None, "{broken:?}");
        // Variations never closed (found by the fuzzer): the tag added was not read as one.
        let broken = "(2.E1-(2.E1E(2.EE1(2.EE1(2.E1E(2.,E1-";
        let found = covered(broken);
        assert!(found.iter().any(|(code, _)| code == "T001"), "{found:?}");
        assert_eq!(codes_before_and_after_fix(broken, "T001"), None, "{broken:?}");
    }
}
