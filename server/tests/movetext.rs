//! The whole analysis of the fixtures of `tests/fixtures/movetext`: records whose movetext
//! has one cause of error (moves after the result line, a move with a blank inside, the
//! numbering, the variations), each with a sidecar `name.expected` listing every diagnostic the file gives, as `LINE:COL CODE`
//! lines (1-based, columns in characters), so that a cascade of diagnostics after the one
//! that says what is wrong is caught. Blank lines and lines starting with `#` are ignored.

use ctlpgn::analysis::{analyse_file, AnalysisOptions, Keep, RuleChecks};
use ctlpgn::text::LineIndex;
use ctlpgn_test_support::fixtures::{files_with, fixtures_dir, read_text};

/// The codes of the movetext walk (numbering, structure, variations): each is given by a
/// fixture.
const MOVETEXT_CODES: [&str; 22] = [
    "M001", "M002", "M003", "M004", "M005", "M008", "M010", "M011", "M012", "M013", "M014", "M015",
    "M016", "M017", "M019", "M020", "M021", "M022", "M023", "M024", "M025", "M026",
];

/// Every diagnostic of the file as `LINE:COL CODE`, in text order.
fn diagnostics(text: &str) -> Vec<String> {
    let lines = LineIndex::new(text);
    let mut found: Vec<(usize, String)> =
        analyse_file(text, AnalysisOptions::new(Keep::Findings, RuleChecks::Skip))
            .into_iter()
            .flat_map(|record| {
                let start = record.range.start;
                record.analysis.diagnostics.into_iter().map(move |diagnostic| {
                    (start + diagnostic.range.start, diagnostic.code.as_str().to_string())
                })
            })
            .collect();
    found.sort();
    found
        .into_iter()
        .map(|(offset, code)| {
            let (line, column) = lines.line_column(text, offset);
            format!("{line}:{column} {code}")
        })
        .collect()
}

#[test]
fn movetext_fixtures_give_exactly_their_sidecars() {
    let dir = fixtures_dir("movetext");
    for sidecar in files_with(&dir, ".expected") {
        let fixture = sidecar.with_extension("ctl-pgn");
        assert!(fixture.is_file(), "{} has no fixture", sidecar.display());
    }
    let files = files_with(&dir, ".ctl-pgn");
    let mut failures = Vec::new();
    let mut covered = Vec::new();
    for path in files {
        let expected: Vec<String> = read_text(&path.with_extension("expected"))
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(str::to_string)
            .collect();
        let actual = diagnostics(&read_text(&path));
        covered.extend(actual.iter().filter_map(|row| row.split(' ').nth(1)).map(str::to_string));
        if actual != expected {
            failures.push(format!(
                "{}:\n  expected {expected:?}\n       got {actual:?}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let uncovered: Vec<_> =
        MOVETEXT_CODES.iter().filter(|code| !covered.iter().any(|c| c == *code)).collect();
    assert!(uncovered.is_empty(), "no fixture covers {uncovered:?}");
}
