//! The diagnostics of a whole file as tests compare them: placed by line and column as the
//! examples' sidecars write them, or with their ranges and their fixes' edits in the file.

use ctlpgn_core::analysis::{analyse_file, AnalysedRecord, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::diagnostics::{Diagnostic, Severity};
use ctlpgn_core::text::LineIndex;

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
    let records = analyse_file(text, AnalysisOptions::default());
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

/// Every diagnostic of analysed records, the rule warnings included, with its range and its
/// fixes' edits in the file.
pub fn file_diagnostics(records: &[AnalysedRecord]) -> Vec<Diagnostic> {
    records
        .iter()
        .flat_map(|record| {
            let start = record.range.start;
            let analysis = &record.analysis;
            analysis.diagnostics.iter().chain(&analysis.rule_warnings).map(move |diagnostic| {
                let mut shifted = diagnostic.clone().shifted(start);
                for fix in &mut shifted.fixes {
                    for edit in &mut fix.edits {
                        edit.range = edit.range.shifted(start);
                    }
                }
                shifted
            })
        })
        .collect()
}

/// Every diagnostic of a file placed in the file: the findings, and the rule warnings when
/// `rule_checks` judges them (as the census of [`ctlpgn_core::analysis::judge_fix`] counts them).
pub fn diagnostics_in_file(text: &str, rule_checks: RuleChecks) -> Vec<Diagnostic> {
    file_diagnostics(&analyse_file(text, AnalysisOptions::new(Keep::Findings, rule_checks)))
}
