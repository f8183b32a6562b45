//! The diagnostics of a whole file as tests compare them: placed by line and column as the
//! examples' sidecars write them, or with their ranges and their fixes' edits in the file; and
//! the census that judges a quick fix (its diagnostic's code is found once less and no error is
//! added), shared by the fix tests and the fuzzer.

use std::collections::BTreeMap;

use ctlpgn::analysis::{analyse_file, AnalysedRecord, Keep, RuleChecks};
use ctlpgn::diagnostics::{Code, Diagnostic, Fix, Severity};
use ctlpgn::text::LineIndex;

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

/// Which diagnostics of a record count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// The findings alone.
    Findings,
    /// The findings and the warnings of the optional rule checks.
    WithRuleWarnings,
}

/// Every diagnostic of analysed records, with its range and its fixes' edits in the file.
pub fn file_diagnostics(records: &[AnalysedRecord], counted: Counted) -> Vec<Diagnostic> {
    records
        .iter()
        .flat_map(|record| {
            let start = record.range.start;
            let warnings = match counted {
                Counted::Findings => &[][..],
                Counted::WithRuleWarnings => &record.analysis.rule_warnings[..],
            };
            record.analysis.diagnostics.iter().chain(warnings).map(move |diagnostic| {
                let mut shifted = diagnostic.clone().shifted(start);
                for fix in &mut shifted.fixes {
                    for edit in &mut fix.edits {
                        edit.range = edit.range.start + start..edit.range.end + start;
                    }
                }
                shifted
            })
        })
        .collect()
}

/// Every diagnostic of a file (rule checks judged), placed in the file.
pub fn diagnostics_in_file(text: &str, counted: Counted) -> Vec<Diagnostic> {
    file_diagnostics(&analyse_file(text, Keep::Findings, RuleChecks::Judge), counted)
}

/// How many diagnostics of each code, and how many errors, a text has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    pub codes: BTreeMap<Code, usize>,
    pub errors: usize,
}

impl Census {
    /// The census of some diagnostics.
    pub fn of(diagnostics: &[Diagnostic]) -> Census {
        let mut codes = BTreeMap::new();
        for diagnostic in diagnostics {
            *codes.entry(diagnostic.code).or_insert(0) += 1;
        }
        let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        Census { codes, errors }
    }

    /// How many diagnostics of `code`.
    pub fn count(&self, code: Code) -> usize {
        self.codes.get(&code).copied().unwrap_or(0)
    }
}

/// What a quick fix did to its text, judged by the census before and after.
#[derive(Clone, Debug)]
pub struct FixVerdict {
    /// The text with the fix applied.
    pub fixed: String,
    /// `(before, after)` diagnostics of the fixed code when the fix did not lower their
    /// number (a renumbering or a result line may clear several, so fewer is enough).
    pub keeps_diagnostic: Option<(usize, usize)>,
    /// `(before, after)` errors when the fix added some. An error fixed may let the replay go
    /// on and find a later one, so that is not counted against it.
    pub adds_errors: Option<(usize, usize)>,
}

impl FixVerdict {
    /// Whether the fix did what a fix must.
    pub fn helps(&self) -> bool {
        self.keeps_diagnostic.is_none() && self.adds_errors.is_none()
    }
}

/// Applies `fix` of `diagnostic` to `text`, whose census is `before`, and judges it.
pub fn judge_fix(
    text: &str,
    diagnostic: &Diagnostic,
    fix: &Fix,
    before: &Census,
    counted: Counted,
) -> FixVerdict {
    let fixed = fix.applied_to(text);
    let after = Census::of(&diagnostics_in_file(&fixed, counted));
    let (code_before, code_after) = (before.count(diagnostic.code), after.count(diagnostic.code));
    let replay_went_on = after.errors > 0 && diagnostic.severity == Severity::Error;
    FixVerdict {
        keeps_diagnostic: (code_after >= code_before).then_some((code_before, code_after)),
        adds_errors: (after.errors > before.errors && !replay_went_on)
            .then_some((before.errors, after.errors)),
        fixed,
    }
}
