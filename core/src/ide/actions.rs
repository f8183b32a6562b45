//! The code actions as plain values over byte ranges of the document: the quick fixes the
//! analysis attached to its diagnostics, the fix-all of a document, and the conversions of
//! the record at a place (to standard letters, to FAN, to minimal CTL-PGN, and a new record
//! continuing the game from the place).
//!
//! The fix-all and the conversions are whole-document or whole-record work, so each has a
//! cheap test of whether to offer it (`offers_fix_all`, `offered_conversions`) apart from the
//! work itself: an editor that resolves actions lazily asks for the work only when the user
//! picks one. A record that does not replay offers no rewrite: the core refuses to convert
//! what it cannot check.

use std::collections::BTreeSet;

use crate::analysis;
use crate::conversion::{self, LetterTarget};
use crate::diagnostics::{Diagnostic, Fix};
use crate::document::{Document, OpenRecord, Record};
use crate::text::{TextEdit, TextRange};

/// What an action does, for the editor's menus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// One fix of one diagnostic.
    QuickFix,
    /// Every fix of the document that is the only one of its diagnostic.
    FixAll,
    /// A rewrite of the whole record.
    ConvertRecord,
    /// A new record after the record, continuing its game.
    ContinueInNewRecord,
}

/// An action: its title, its kind and its edits, byte ranges of the document's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action<'a> {
    pub title: String,
    pub kind: ActionKind,
    pub edits: Vec<TextEdit>,
    /// The diagnostic a quick fix fixes, with its range in the document.
    pub diagnostic: Option<(&'a Diagnostic, TextRange)>,
    /// Whether the action is the one obvious choice (the only fix of its diagnostic).
    pub preferred: bool,
}

/// The conversions of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversion {
    StandardLetters,
    Fan,
    Minimal,
    ContinueFromHere,
}

impl Conversion {
    pub const ALL: [Conversion; 4] = [
        Conversion::StandardLetters,
        Conversion::Fan,
        Conversion::Minimal,
        Conversion::ContinueFromHere,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Conversion::StandardLetters => "Convert this record to standard letters",
            Conversion::Fan => "Convert this record to FAN figurines",
            Conversion::Minimal => "Strip this record to minimal CTL-PGN",
            Conversion::ContinueFromHere => "Continue from here in a new record",
        }
    }

    pub fn kind(self) -> ActionKind {
        match self {
            Conversion::ContinueFromHere => ActionKind::ContinueInNewRecord,
            _ => ActionKind::ConvertRecord,
        }
    }

    /// The conversion's name in the data an editor keeps for a lazy action.
    pub fn name(self) -> &'static str {
        match self {
            Conversion::StandardLetters => "standard",
            Conversion::Fan => "fan",
            Conversion::Minimal => "minimal",
            Conversion::ContinueFromHere => "continue",
        }
    }

    pub fn from_name(name: &str) -> Option<Conversion> {
        Conversion::ALL.into_iter().find(|conversion| conversion.name() == name)
    }

    fn letters(self) -> Option<LetterTarget> {
        match self {
            Conversion::StandardLetters => Some(LetterTarget::Standard),
            Conversion::Fan => Some(LetterTarget::Fan),
            _ => None,
        }
    }
}

/// The quick fixes of the diagnostics that touch `bytes` (with `rules`, of the optional rule
/// checks' warnings too), record by record.
pub fn quick_fixes(document: &Document, bytes: TextRange, rules: bool) -> Vec<Action<'_>> {
    let mut actions = Vec::new();
    let touched = document
        .records()
        .iter()
        .filter(|record| record.range.start <= bytes.end && bytes.start <= record.range.end);
    for record in touched {
        for diagnostic in record.state.reported(rules) {
            // A diagnostic anchored at the `[` of a tag line is also found from the text its
            // fix changes (the tag name, say), where the cursor usually is.
            let mut places = std::iter::once(&diagnostic.range).chain(
                diagnostic.fixes.iter().flat_map(|fix| fix.edits.iter().map(|edit| &edit.range)),
            );
            if places.any(|place| {
                let place = record.in_document(*place);
                place.start <= bytes.end && bytes.start <= place.end
            }) {
                let preferred = diagnostic.fixes.len() == 1;
                for fix in &diagnostic.fixes {
                    actions.push(Action {
                        title: fix.title.clone(),
                        kind: ActionKind::QuickFix,
                        edits: placed(record, fix),
                        diagnostic: Some((diagnostic, record.in_document(diagnostic.range))),
                        preferred,
                    });
                }
            }
        }
    }
    actions
}

/// A fix's edits in the document's offsets.
fn placed(record: &Record, fix: &Fix) -> Vec<TextEdit> {
    fix.edits
        .iter()
        .map(|edit| TextEdit {
            range: record.in_document(edit.range),
            new_text: edit.new_text.clone(),
        })
        .collect()
}

/// The fixes the fix-all takes: the only fix of each diagnostic.
fn only_fixes(document: &Document, rules: bool) -> impl Iterator<Item = (&Record, &Fix)> {
    document.records().iter().flat_map(move |record| {
        record.state.reported(rules).filter_map(move |diagnostic| {
            match diagnostic.fixes.as_slice() {
                [fix] => Some((record, fix)),
                _ => None,
            }
        })
    })
}

/// The title of the fix-all.
pub const FIX_ALL_TITLE: &str = "Fix all CTL-PGN problems with an obvious fix";

/// Whether the document has a fix for the fix-all: one pass over the findings, no edit made.
pub fn offers_fix_all(document: &Document, rules: bool) -> bool {
    only_fixes(document, rules).next().is_some()
}

/// Every fix of the document that is the only one of its diagnostic, skipping any whose edits
/// would overlap an earlier one (two renumberings of one line, say); `None` when there is
/// nothing to fix.
pub fn fix_all(document: &Document, rules: bool) -> Option<Action<'_>> {
    let mut edits: Vec<TextEdit> = Vec::new();
    // The ranges taken, which never overlap, by start then end: their ends then increase too,
    // so the one taken range a new range may overlap is the last that starts before its
    // end. A file with thousands of fixes is checked in a logarithm each, not a scan.
    let mut taken: BTreeSet<(usize, usize)> = BTreeSet::new();
    let overlaps = |taken: &BTreeSet<(usize, usize)>, new: &TextRange| {
        taken.contains(&(new.start, new.end))
            || taken
                .range(..(new.end, 0))
                .next_back()
                .is_some_and(|&(start, end)| new.start < end && start < new.end)
    };
    for (record, fix) in only_fixes(document, rules) {
        let placed = placed(record, fix);
        if !placed.iter().any(|edit| overlaps(&taken, &edit.range)) {
            taken.extend(placed.iter().map(|edit| (edit.range.start, edit.range.end)));
            edits.extend(placed);
        }
    }
    (!edits.is_empty()).then(|| Action {
        title: FIX_ALL_TITLE.to_string(),
        kind: ActionKind::FixAll,
        edits,
        diagnostic: None,
        preferred: false,
    })
}

/// The conversions worth offering at `offset` without making them: for a record that
/// replays, the letter conversions to identifiers it does not use already and the minimal
/// record; and the continuation when the place has a known position. `conversion` may still
/// refuse one (a rewrite whose output would not replay the same) or find nothing to change.
pub fn offered_conversions(document: &Document, offset: usize) -> Vec<Conversion> {
    let Some(open) = document.at(offset) else { return Vec::new() };
    let view = open.view();
    let replays = conversion::require_replay(view.analysis).is_ok();
    Conversion::ALL
        .into_iter()
        .filter(|conversion| match conversion {
            Conversion::StandardLetters | Conversion::Fan => {
                replays
                    && conversion
                        .letters()
                        .is_some_and(|target| view.analysis.identifiers != target.identifiers())
            }
            Conversion::Minimal => replays,
            Conversion::ContinueFromHere => view.in_record(offset).is_some_and(|inside| {
                analysis::position_at(view.text, view.syntax, view.analysis, inside).is_ok()
            }),
        })
        .collect()
}

/// One conversion of the record at `offset`, made (with no edit when the record is already
/// as the conversion would make it); `None` when it does not apply or refuses.
pub fn conversion(document: &Document, offset: usize, which: Conversion) -> Option<Action<'_>> {
    let open = document.at(offset)?;
    convert(document, &open, offset, which)
}

fn convert<'a>(
    document: &Document,
    open: &OpenRecord<'_>,
    offset: usize,
    which: Conversion,
) -> Option<Action<'a>> {
    let view = open.view();
    let (text, syntax, analysis) = (view.text, view.syntax, view.analysis);
    let edits = match which {
        Conversion::StandardLetters | Conversion::Fan => {
            let target = which.letters()?;
            if analysis.identifiers == target.identifiers() {
                return None;
            }
            let edits = conversion::reletter_edits(text, syntax, analysis, &target).ok()?;
            edits
                .into_iter()
                .map(|edit| TextEdit {
                    range: view.in_document(edit.range),
                    new_text: edit.new_text,
                })
                .collect()
        }
        Conversion::Minimal => {
            let minimal = conversion::minimal_record(text, syntax, analysis).ok()?;
            // The record keeps the blank lines that follow it; only its content is replaced.
            let content = TextRange::new(0, text.trim_end().len());
            let minimal = minimal.trim_end();
            if &text[content] == minimal {
                // Already minimal: nothing to change (and nothing offered when made at once).
                Vec::new()
            } else {
                vec![TextEdit { range: view.in_document(content), new_text: minimal.to_string() }]
            }
        }
        Conversion::ContinueFromHere => {
            let inside = view.in_record(offset)?;
            let continuation = conversion::continuation_at(text, syntax, analysis, inside)?;
            vec![insertion_after(document, open.record, &continuation)]
        }
    };
    Some(Action {
        title: which.title().to_string(),
        kind: which.kind(),
        edits,
        diagnostic: None,
        preferred: false,
    })
}

/// The insertion of a new record, whose lines all end, after `record`: a blank line between
/// the two records, and one before the record that follows, if any; in the new record's line
/// ending.
fn insertion_after(document: &Document, record: &Record, new_record: &str) -> TextEdit {
    let text = &record.state.text;
    let ending = if new_record.ends_with("\r\n") { "\r\n" } else { "\n" };
    let separator = if text.ends_with("\n\n") || text.ends_with("\r\n\r\n") {
        String::new()
    } else if text.ends_with('\n') {
        ending.to_string()
    } else {
        ending.repeat(2)
    };
    let followed = record.range.end < document.rope().len_bytes();
    let after = if followed { ending } else { "" };
    TextEdit {
        range: TextRange::empty(record.range.end),
        new_text: format!("{separator}{new_record}{after}"),
    }
}

/// The PDTL of the position at a place of a document: after the half-move there, or where the
/// line of play stands; `None` when it is not known.
pub fn pdtl_at(document: &Document, offset: usize) -> Option<String> {
    let open = document.at(offset)?;
    let view = open.view();
    analysis::pdtl_at(view.text, view.syntax, view.analysis, view.in_record(offset)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fix-all as a scan of every edit taken before: the reference for the ordered set.
    fn fix_all_by_scan(document: &Document) -> Vec<TextEdit> {
        let mut edits: Vec<TextEdit> = Vec::new();
        for (record, fix) in only_fixes(document, true) {
            let placed = placed(record, fix);
            let overlaps = placed.iter().any(|new| {
                edits.iter().any(|old| {
                    let (new, old) = (&new.range, &old.range);
                    new.start < old.end && old.start < new.end || new == old
                })
            });
            if !overlaps {
                edits.extend(placed);
            }
        }
        edits
    }

    #[test]
    fn the_fix_all_skips_the_fixes_that_overlap_an_earlier_one_as_a_scan_does() {
        // Misnumbered lines (each renumbering fix may cover the next ones), `x` captures, a
        // NAG, a misspelt tag and a missing end mark, in two records.
        let record = "[Variant \"C'escacs\"]\n[Anotator \"x\"]\n\n1. E7-E13, E21-E15\n3. F8-F12 $1, F20-F16\n5. E13xF16, E15xF12\n5. G8-G12, G21-G15\n";
        let text = format!("{record}\n{}", record.replace("1. ", "2. "));
        let document = Document::new(&text, 1);
        let made = fix_all(&document, true).expect("fixes");
        let reference = fix_all_by_scan(&document);
        assert!(reference.len() >= 6, "{reference:?}");
        let offered: usize = only_fixes(&document, true).map(|(_, fix)| fix.edits.len()).sum();
        assert!(offered > reference.len(), "some fixes overlap: {offered}");
        assert_eq!(made.edits, reference);
        // The fixes taken, applied: what the editor shows once the action is chosen.
        let fixed = crate::text::apply_edits(&text, &made.edits);
        insta::assert_snapshot!(format!("{} ({:?})\n\n{fixed}", made.title, made.kind), @r#"
        Fix all CTL-PGN problems with an obvious fix (FixAll)

        [Variant "C'escacs"]
        [Annotator "x"]

        1. E7-E13, E21-E15
        2. F8-F12 !, F20-F16
        4. E13×F16, E15×F12
        4. G8-G12, G21-G15:

        [Variant "C'escacs"]
        [Annotator "x"]

        2. E7-E13, E21-E15
        3. F8-F12 !, F20-F16
        4. E13×F16, E15×F12
        4. G8-G12, G21-G15:
        "#);
    }
}
