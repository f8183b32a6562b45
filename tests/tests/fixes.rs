//! The quick fixes the core attaches to diagnostics: each one, applied, removes its diagnostic
//! and brings no new error — on hand-written cases, on the handbook's invalid examples and on
//! the corrupted corpus games.

use ctlpgn::analysis::{analyse_file, Keep, RuleChecks};
use ctlpgn::diagnostics::{Code, Diagnostic, Fix, Severity};
use ctlpgn_tests::testdata_files;

/// Every diagnostic of a file, with ranges in the file.
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    analyse_file(text, Keep::Findings, RuleChecks::Judge)
        .into_iter()
        .flat_map(|record| {
            let start = record.range.start;
            record.analysis.diagnostics.into_iter().map(move |diagnostic| {
                let fixes = diagnostic
                    .fixes
                    .iter()
                    .map(|fix| Fix {
                        title: fix.title.clone(),
                        edits: fix
                            .edits
                            .iter()
                            .map(|edit| ctlpgn::diagnostics::Replacement {
                                range: edit.range.start + start..edit.range.end + start,
                                text: edit.text.clone(),
                            })
                            .collect(),
                    })
                    .collect();
                Diagnostic { fixes, ..diagnostic.shifted(start) }
            })
        })
        .collect()
}

/// How many diagnostics of each code, and how many errors, a text has.
fn census(text: &str) -> (std::collections::BTreeMap<Code, usize>, usize) {
    let found = diagnostics(text);
    let mut codes = std::collections::BTreeMap::new();
    for diagnostic in &found {
        *codes.entry(diagnostic.code).or_insert(0) += 1;
    }
    (codes, found.iter().filter(|d| d.severity == Severity::Error).count())
}

/// Checks every fix of a text: its diagnostic's code is found once less (a renumbering or a
/// result line may clear several), and no error is added.
fn every_fix_helps(name: &str, text: &str) -> usize {
    let (codes, errors) = census(text);
    let mut checked = 0;
    for diagnostic in diagnostics(text) {
        for fix in &diagnostic.fixes {
            let fixed = fix.applied_to(text);
            let (codes_after, errors_after) = census(&fixed);
            let before = codes[&diagnostic.code];
            let after = codes_after.get(&diagnostic.code).copied().unwrap_or(0);
            assert!(
                after < before,
                "{name}: {} ({}) leaves {} of {} {}\n{fixed}",
                fix.title,
                diagnostic.code,
                after,
                before,
                diagnostic.code
            );
            // An error fixed may let the replay go on and find a later one; any other new
            // error is the fix's fault.
            let replay_went_on = errors_after > 0 && diagnostic.severity == Severity::Error;
            assert!(
                errors_after <= errors || replay_went_on,
                "{name}: {} adds errors: {errors} -> {errors_after}\n{fixed}",
                fix.title
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn hand_written_problems_are_fixed() {
    let cases = [
        ("result-value", "[Variant \"C'escacs\"]\n[Id \"Demo-F01\"]\n[Annotator \"Vidàl\"]\n\n1. E7-E13, D22-D16:\n1-0\n", "Write 3-0", "D16:\n3-0\n"),
        ("mode-case", "[Variant \"C'escacs\"]\n[Event \"?\"]\n[Site \"?\"]\n[Date \"????-??-??\"]\n[Round \"-\"]\n[White \"Núria\"]\n[Black \"Pau\"]\n[Result \"*\"]\n[Mode \"otb\"]\n\n1. E7-E13, D22-D16:\n*\n", "Write OTB", "[Mode \"OTB\"]"),
        ("missing-result", "[Variant \"C'escacs\"]\n[Id \"Demo-F03\"]\n[Annotator \"Vidàl\"]\n[Result \"1-1\"]\n\n1. E7-E13, D22-D16:", "Add the result line 1-1", "D16:\n1-1\n"),
    ];
    for (name, text, title, expected) in cases {
        let fix = diagnostics(text)
            .into_iter()
            .flat_map(|d| d.fixes)
            .find(|fix| fix.title == title)
            .unwrap_or_else(|| panic!("{name}: no fix {title:?}"));
        assert!(fix.applied_to(text).contains(expected), "{name}: {}", fix.applied_to(text));
        assert!(every_fix_helps(name, text) > 0, "{name}");
    }
}

#[test]
fn fixes_on_the_invalid_handbook_examples_and_corpus_games_remove_their_diagnostic() {
    let mut checked = 0;
    let files = testdata_files("examples", ".ctl-pgn")
        .into_iter()
        .chain(testdata_files("corpus/incoherent", ".ctl-pgn"));
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        checked += every_fix_helps(&path.display().to_string(), &text);
    }
    assert!(checked >= 10, "only {checked} fixes were found in the test data");
}
