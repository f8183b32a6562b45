//! The tag rules (`analysis::tags::check_tags`) on the handbook's examples, the corpus and
//! the fixtures of `core/tests/fixtures/tags`, each fixture with a sidecar `name.expected` that
//! shows the diagnostics it must give under the lines they point at (code, range and message;
//! `UPDATE_EXPECT=1` rewrites the sidecars).

use std::collections::BTreeSet;

use ctlpgn_core::diagnostics::{Census, Code, Diagnostic, Findings, Pass, Severity};

use ctlpgn_core::analysis;
use ctlpgn_test_support::annotations::render_diagnostics;
use ctlpgn_test_support::expect::ExpectFiles;
use ctlpgn_test_support::fixtures::{
    files_with, fixtures_dir, read_text, testdata_dir, testdata_files,
};

/// The codes the tag module reports. T003 is shared with `setup`, which reports the
/// duplicated content-affecting tags as errors; the tag module's duplicates are warnings.
const TAG_MODULE_CODES: [Code; 18] = [
    Code::T003,
    Code::T004,
    Code::T006,
    Code::T007,
    Code::T008,
    Code::T009,
    Code::T010,
    Code::T011,
    Code::T012,
    Code::T013,
    Code::T015,
    Code::T016,
    Code::T017,
    Code::T018,
    Code::T019,
    Code::T020,
    Code::T021,
    Code::T025,
];

fn from_tag_module(code: Code, severity: Severity) -> bool {
    TAG_MODULE_CODES.contains(&code) && (code != Code::T003 || severity == Severity::Warning)
}

/// The tag diagnostics of every record of a file, with ranges in the file.
fn check_file(text: &str) -> Vec<Diagnostic> {
    let mut parser = ctlpgn_core::syntax::new_parser();
    let mut found = Vec::new();
    for range in ctlpgn_core::syntax::split_records(text) {
        let record_text = &text[range];
        let tree = ctlpgn_core::syntax::parse(&mut parser, record_text);
        let record = ctlpgn_core::syntax::lower_record(&tree, record_text);
        let mut diagnostics = Findings::new(Pass::Tags);
        analysis::tags::check_tags(record_text, &record.items, &mut diagnostics);
        let diagnostics = diagnostics.into_diagnostics(&mut Census::default());
        found.extend(diagnostics.into_iter().map(|diagnostic| diagnostic.shifted(range.start)));
    }
    found
}

/// The diagnostics as sorted `LINE:COL CODE` lines.
fn located(text: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
    let lines = ctlpgn_core::text::LineIndex::new(text);
    let mut located: Vec<(usize, usize, &str)> = diagnostics
        .iter()
        .map(|diagnostic| {
            let (line, column) = lines.line_column(text, diagnostic.range.start);
            (line, column, diagnostic.code.as_str())
        })
        .collect();
    located.sort();
    located.into_iter().map(|(line, column, code)| format!("{line}:{column} {code}")).collect()
}

#[test]
fn the_bad_tag_example_gives_exactly_its_tag_diagnostics() {
    let examples = testdata_dir().join("examples");
    let text = read_text(&examples.join("bad-05-tags-pdtl.ctl-pgn"));
    let sidecar = read_text(&examples.join("bad-05-tags-pdtl.expected.txt"));
    let expected: Vec<String> = sidecar
        .lines()
        .filter_map(|row| {
            let mut fields = row.split_whitespace();
            let (position, severity, code) = (fields.next()?, fields.next()?, fields.next()?);
            let code = *Code::ALL.iter().find(|known| known.as_str() == code)?;
            let severity = if severity == "E" { Severity::Error } else { Severity::Warning };
            from_tag_module(code, severity).then(|| format!("{position} {}", code.as_str()))
        })
        .collect();
    assert_eq!(
        expected,
        ["3:1 T006", "3:8 T011", "11:1 T009", "12:8 T018", "13:15 T015"],
        "the sidecar changed"
    );
    let found = check_file(&text);
    assert_eq!(located(&text, &found), expected, "\n{}", render_diagnostics(&text, &found));
}

#[test]
fn valid_examples_and_corpus_games_give_no_tag_diagnostic() {
    let mut checked = 0;
    let examples: Vec<_> = testdata_files("examples", ".ctl-pgn")
        .into_iter()
        .filter(|path| path.file_name().is_some_and(|name| name.to_string_lossy().starts_with('0')))
        .collect();
    let games = testdata_files("corpus/valid", ".ctl-pgn");
    assert!(
        !examples.is_empty() && !games.is_empty(),
        "the handbook examples or corpus are missing"
    );
    for path in examples.iter().chain(&games) {
        let text = read_text(path);
        let found = check_file(&text);
        assert!(found.is_empty(), "{}:\n{}", path.display(), render_diagnostics(&text, &found));
        checked += 1;
    }
    assert_eq!(checked, examples.len() + games.len());
}

#[test]
fn every_fixture_gives_the_diagnostics_of_its_sidecar() {
    let folder = fixtures_dir("tags");
    let mut expected = ExpectFiles::new();
    let mut covered = BTreeSet::new();
    for fixture in files_with(&folder, ".ctl-pgn") {
        let text = read_text(&fixture);
        let found = check_file(&text);
        expected.check_after_notes(
            &fixture.with_extension("expected"),
            &render_diagnostics(&text, &found),
        );
        covered.extend(found.iter().map(|diagnostic| diagnostic.code));
    }
    expected.finish();
    for sidecar in files_with(&folder, ".expected") {
        assert!(
            sidecar.with_extension("ctl-pgn").is_file(),
            "{} has no fixture",
            sidecar.display()
        );
    }
    let uncovered: Vec<&str> = TAG_MODULE_CODES
        .iter()
        .filter(|code| !covered.contains(code))
        .map(|code| code.as_str())
        .collect();
    assert!(uncovered.is_empty(), "no fixture covers {uncovered:?}");
}
