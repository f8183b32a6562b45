//! The whole analysis of the fixtures of `core/tests/fixtures/movetext`: records whose movetext
//! has one cause of error (moves after the result line, a move with a blank inside, the
//! numbering, the variations), each with a sidecar `name.expected` that shows every diagnostic
//! the file gives under the line it points at (code, range and message), so that a cascade of
//! diagnostics after the one that says what is wrong is caught. The sidecar opens with notes
//! (`#` lines) on what the fixture holds; `UPDATE_EXPECT=1` rewrites what follows them.

use ctlpgn_core::analysis::RuleChecks;
use ctlpgn_test_support::annotations::render_diagnostics;
use ctlpgn_test_support::diagnostics::diagnostics_in_file;
use ctlpgn_test_support::expect::ExpectFiles;
use ctlpgn_test_support::fixtures::{files_with, fixtures_dir, read_text};

/// The codes of the movetext walk (numbering, structure, variations): each is given by a
/// fixture.
const MOVETEXT_CODES: [&str; 22] = [
    "M001", "M002", "M003", "M004", "M005", "M008", "M010", "M011", "M012", "M013", "M014", "M015",
    "M016", "M017", "M019", "M020", "M021", "M022", "M023", "M024", "M025", "M026",
];

#[test]
fn movetext_fixtures_give_exactly_their_sidecars() {
    let dir = fixtures_dir("movetext");
    for sidecar in files_with(&dir, ".expected") {
        let fixture = sidecar.with_extension("ctl-pgn");
        assert!(fixture.is_file(), "{} has no fixture", sidecar.display());
    }
    let mut expected = ExpectFiles::new();
    let mut covered = Vec::new();
    for path in files_with(&dir, ".ctl-pgn") {
        let text = read_text(&path);
        let diagnostics = diagnostics_in_file(&text, RuleChecks::Skip);
        covered.extend(diagnostics.iter().map(|diagnostic| diagnostic.code.as_str()));
        let rendered = render_diagnostics(&text, &diagnostics);
        expected.check_after_notes(&path.with_extension("expected"), &rendered);
    }
    expected.finish();
    let uncovered: Vec<_> = MOVETEXT_CODES.iter().filter(|code| !covered.contains(code)).collect();
    assert!(uncovered.is_empty(), "no fixture covers {uncovered:?}");
}
