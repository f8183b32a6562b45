//! The quick fixes the core attaches to diagnostics: each one, applied, removes its diagnostic
//! and brings no new error — on hand-written cases, on the handbook's invalid examples and on
//! the corrupted corpus games.

use ctlpgn_core::analysis::{census_of_text, judge_fix, RuleChecks};
use ctlpgn_core::diagnostics::Diagnostic;
use ctlpgn_test_support::diagnostics::diagnostics_in_file;
use ctlpgn_test_support::fixtures::testdata_files;

/// Every diagnostic of a file, with ranges in the file.
fn diagnostics(text: &str) -> Vec<Diagnostic> {
    diagnostics_in_file(text, RuleChecks::Skip)
}

/// Checks every fix of a text: its diagnostic's code is found once less (a renumbering or a
/// result line may clear several), and no error is added.
fn every_fix_helps(name: &str, text: &str) -> usize {
    let found = diagnostics(text);
    // Those past each part's hundred counted too, as the fixed text's census counts them.
    let census = census_of_text(text, RuleChecks::Skip);
    let mut checked = 0;
    for diagnostic in &found {
        for fix in &diagnostic.fixes {
            let verdict = judge_fix(text, diagnostic, fix, &census, RuleChecks::Skip);
            let fixed = &fix.applied_to(text);
            if let Some((before, after)) = verdict.keeps_diagnostic {
                panic!(
                    "{name}: {} ({}) leaves {after} of {before} {}\n{fixed}",
                    fix.title, diagnostic.code, diagnostic.code
                );
            }
            if let Some((errors, errors_after)) = verdict.adds_errors {
                panic!("{name}: {} adds errors: {errors} -> {errors_after}\n{fixed}", fix.title);
            }
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
