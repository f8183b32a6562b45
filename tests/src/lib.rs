//! Shared helpers of the end-to-end tests: where the corpus and examples live, and the
//! diagnostics of a file as `(line, column, code)` triples, the form the examples' sidecars use.

use std::path::PathBuf;

use ctlpgn::analysis::{analyse_file, AnalysedRecord, Keep, RuleChecks};
use ctlpgn::diagnostics::Severity;
use ctlpgn::text::LineIndex;

/// The repository's `testdata` folder (the handbook's examples, the corpus). A test
/// that needs it fails when it is missing rather than passing without looking at anything.
pub fn testdata_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata");
    assert!(dir.is_dir(), "the test data folder is missing: expected it at {}", dir.display());
    dir
}

/// The files of a `testdata` sub-folder with an extension, sorted.
pub fn testdata_files(folder: &str, extension: &str) -> Vec<PathBuf> {
    let dir = testdata_dir().join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.to_string_lossy().ends_with(extension))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {extension} files in {}", dir.display());
    files
}

/// A diagnostic placed in its file, as the examples' sidecars write it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    pub line: usize,
    pub column: usize,
    pub code: String,
    pub severity: Severity,
    pub message: String,
}

/// Analyses a file and places its diagnostics, in file order; the analyses keep their replayed
/// positions for the tests that compare them.
pub fn diagnostics_of(text: &str) -> (Vec<AnalysedRecord>, Vec<Found>) {
    let records = analyse_file(text, Keep::Everything, RuleChecks::Judge);
    let lines = LineIndex::new(text);
    let found = records
        .iter()
        .flat_map(|record| {
            let lines = &lines;
            record.analysis.diagnostics.iter().map(move |d| {
                let (line, column) = lines.line_column(text, record.range.start + d.range.start);
                Found {
                    line,
                    column,
                    code: d.code.to_string(),
                    severity: d.severity,
                    message: d.message.clone(),
                }
            })
        })
        .collect();
    (records, found)
}
