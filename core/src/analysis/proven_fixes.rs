//! Quick fixes proven on the records tree-sitter had to recover. On a well-formed record a
//! fix is written for the syntax the author meant, but on a record holding a syntax error the
//! tree is a guess, and a fix computed from the guess can leave its diagnostic or add errors
//! once applied (the fuzzer finds a new one with each new recovery). So on such a record each
//! fix is applied, the fixed text analysed afresh, and the fix kept only when the census says
//! it helped ([`FixVerdict`]): every consumer (code actions, fix-all, the fuzzer) sees only
//! fixes that do what they say.

use super::{analyse_unproven, AnalysisOptions, Keep, RecordAnalysis, RuleChecks};
use crate::diagnostics::{Census, Diagnostic, Fix, FixVerdict};
use crate::syntax::{self, RecordReader, RecordSyntax};

/// The most fixes proven in one record. Each proof analyses the record again, so proving
/// every fix of a record broken in hundreds of places would cost the square of its size on
/// every keystroke; the fixes past these (in text order) are withheld, as a record so broken
/// is mended by rewriting it rather than one fix at a time.
pub const MOST_PROOFS: usize = 16;

/// The most text the proofs of one record analyse again, in bytes: a large broken record gets
/// fewer proofs (one of 256 KB, none past that), so that proving never costs more than
/// analysing 256 KB, whatever the record's size (a 1 MB record of faults was analysed 17
/// times).
pub const PROOF_BYTES: usize = 256 * 1024;

/// How many fixes of a record of `len` bytes are proven.
fn proofs_for(len: usize) -> usize {
    MOST_PROOFS.min(PROOF_BYTES / len.max(1))
}

/// Whether a record's fixes need proving: it is not [clean](RecordSyntax::is_clean).
pub(super) fn needs_proof(record: &RecordSyntax) -> bool {
    !record.is_clean()
}

/// Keeps, of every fix of the analysis's diagnostics and rule warnings, those that help, of
/// the first [`MOST_PROOFS`] (fewer in a record over 16 KB: [`PROOF_BYTES`]).
///
/// A finding's fix is judged without the rule checks, which cost as much as the replay: the
/// findings do not depend on them (the fuzzer checks it) and rule warnings are never errors,
/// so the census of the fixed code and of the errors is the same either way.
pub(super) fn keep_proven_fixes(
    text: &str,
    analysis: &mut RecordAnalysis,
    rule_checks: RuleChecks,
) {
    let census = analysis.census();
    let mut proofs_left = proofs_for(text.len());
    let mut keep_helping = |diagnostics: &mut Vec<Diagnostic>, rule_checks: RuleChecks| {
        for diagnostic in diagnostics {
            let fixes = std::mem::take(&mut diagnostic.fixes);
            diagnostic.fixes = fixes
                .into_iter()
                .filter(|fix| {
                    let judged = proofs_left > 0;
                    proofs_left = proofs_left.saturating_sub(1);
                    judged && judge_fix(text, diagnostic, fix, &census, rule_checks).helps()
                })
                .collect();
        }
    };
    keep_helping(&mut analysis.diagnostics, RuleChecks::Skip);
    keep_helping(&mut analysis.rule_warnings, rule_checks);
}

/// The verdict on `fix` of `diagnostic`, found in `text` (a record, or a file of records)
/// whose census is `before`: the fixed text is split into records again (a fix may start or
/// join one) and each is analysed, its fixes unproven.
pub fn judge_fix(
    text: &str,
    diagnostic: &Diagnostic,
    fix: &Fix,
    before: &Census,
    rule_checks: RuleChecks,
) -> FixVerdict {
    let fixed = fix.applied_to(text);
    FixVerdict::of(diagnostic, before, &census_of_text(&fixed, rule_checks))
}

/// The census of a text's diagnostics ([`RecordAnalysis::census`] of each record), the rule
/// warnings included when they are judged.
pub fn census_of_text(text: &str, rule_checks: RuleChecks) -> Census {
    let mut reader = RecordReader::default();
    let options = AnalysisOptions::new(Keep::Findings, rule_checks);
    let mut census = Census::default();
    for range in syntax::split_records(text) {
        let record_text = &text[range];
        let syntax = reader.read(record_text);
        census.add(&analyse_unproven(record_text, &syntax, options).census());
        reader.recycle(syntax);
    }
    census
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyse_file, AnalysisOptions, Keep};
    use crate::diagnostics::Code;

    /// Every fix the analysis offers in `text` (one record), judged on the whole text.
    fn offered_fixes(text: &str) -> Vec<(Code, Fix, FixVerdict)> {
        let analyses = analyse_file(text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
        let census = census_of_text(text, RuleChecks::Judge);
        analyses
            .iter()
            .flat_map(|record| {
                record.analysis.diagnostics.iter().chain(&record.analysis.rule_warnings)
            })
            .flat_map(|diagnostic| {
                diagnostic.fixes.iter().map(|fix| {
                    let verdict = judge_fix(text, diagnostic, fix, &census, RuleChecks::Judge);
                    (diagnostic.code, fix.clone(), verdict)
                })
            })
            .collect()
    }

    /// Each text once made the fuzzer report a fix computed from tree-sitter's recovery that
    /// did not help; the fix is now withheld, and the diagnostic itself stays.
    #[test]
    fn unhelpful_fixes_on_recovered_records_are_withheld() {
        for (text, code) in [
            // fuzzer: the R008 fix ("Remove the check suffix") added an error.
            ("1.K4-K6,E21-E19\n6.E7-E9,I23-X14+7-", Code::R008),
            // fuzzer: the M006 fix (a result line) left M006.
            ("9.H1H1[I", Code::M006),
            // fuzzer: the T001 fix (a Variant tag) left T001.
            ("[A]\"\"9\"\"9\"\"9\"\"9\"\"9\"\"9\"\"9\"\"\"", Code::T001),
        ] {
            let record = syntax::parse_record(text);
            assert!(needs_proof(&record), "{text:?} is a recovered record");
            let analyses =
                analyse_file(text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
            let analysis = &analyses[0].analysis;
            let found: Vec<&Diagnostic> =
                analysis.diagnostics.iter().chain(&analysis.rule_warnings).collect();
            assert!(found.iter().any(|d| d.code == code), "{text:?} keeps its {code}");
            for (code, fix, verdict) in offered_fixes(text) {
                assert!(verdict.helps(), "{text:?}: {code} fix {:?}: {verdict:?}", fix.title);
            }
        }
    }

    /// On recovered records the fixes that do help are still offered: here a check suffix on
    /// a move that gives no check, in a record with a stray `]`.
    #[test]
    fn helpful_fixes_on_recovered_records_stay() {
        let text = "[Variant \"C'escacs\"]\n[Event \"e\"]\n\n1. E7-E13+, E21-E15:\n]\n*\n";
        assert!(needs_proof(&syntax::parse_record(text)), "{text:?} is a recovered record");
        let offered = offered_fixes(text);
        assert!(offered.iter().any(|(code, _, _)| *code == Code::R008), "{offered:?}");
        assert!(offered.iter().all(|(_, _, verdict)| verdict.helps()), "{offered:?}");
    }

    /// fuzzer: an unclosed comment is no syntax error to tree-sitter, but the result line the
    /// M006 fix added went into the comment; such a record's fixes are proven too.
    #[test]
    fn a_record_with_an_unclosed_comment_is_proven() {
        let text =
            "[Variant \"C'escacs\"]\n[Event \"e\"]\n\n1. E7-E13, E21-E15\n2. F8-F12{{ open\n";
        assert!(!syntax::parse_record(text).is_clean(), "{text:?} is not clean");
        for (code, fix, verdict) in offered_fixes(text) {
            assert!(verdict.helps(), "{code} fix {:?}: {verdict:?}", fix.title);
        }
    }

    /// fuzzer (a hang): hundreds of fixable diagnostics in one broken record are not each
    /// proven by analysing the whole record again.
    #[test]
    fn at_most_a_bounded_number_of_fixes_is_proven_in_a_record() {
        // A broken record (its Site tag is never closed) with a fixable NAG on every
        // half-move: far more fixes than are proven.
        let text = format!(
            "[Variant \"C'escacs\"]\n[Site \"?[Variant\n{}",
            "56. K4-K6 $1, E21-E19 $1\n".repeat(300)
        );
        let analyses = analyse_file(&text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
        let fixes: usize =
            analyses.iter().flat_map(|r| &r.analysis.diagnostics).map(|d| d.fixes.len()).sum();
        assert!(fixes <= MOST_PROOFS, "{fixes} fixes offered");
        let unproven: usize = analyses
            .iter()
            .map(|r| {
                let record_text = &text[r.range];
                let record = syntax::parse_record(record_text);
                let options = AnalysisOptions::new(Keep::Findings, RuleChecks::Skip);
                let all = analyse_unproven(record_text, &record, options);
                all.diagnostics.iter().map(|d| d.fixes.len()).sum::<usize>()
            })
            .sum();
        assert!(unproven > MOST_PROOFS, "the record has {unproven} fixes to prove");
    }

    /// A fix of one finding of thousands leaves a hundred listed: it is judged by the count of
    /// them all, those past each part's hundred included.
    #[test]
    fn a_fix_of_one_of_thousands_of_findings_is_judged_by_them_all() {
        let text = format!(
            "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Demo\"]\n\n{}*\n",
            (1..=150).map(|n| format!("{n}. E7xE13, E21xE15\n")).collect::<String>()
        );
        let analyses = analyse_file(&text, AnalysisOptions::new(Keep::Findings, RuleChecks::Skip));
        let analysis = &analyses[0].analysis;
        assert_eq!(analysis.census().count(Code::S005), 300);
        let first = analysis.diagnostics.iter().find(|d| d.code == Code::S005).expect("an S005");
        let fix = first.fixes.first().expect("a fix: write ×");
        let census = census_of_text(&text, RuleChecks::Skip);
        assert!(judge_fix(&text, first, fix, &census, RuleChecks::Skip).helps());
    }

    /// A broken record of a million faults was analysed again for each of 16 proofs: the
    /// proofs of one record analyse at most `PROOF_BYTES` again, whatever its size.
    #[test]
    fn the_proofs_of_a_large_broken_record_analyse_at_most_a_bounded_text_again() {
        assert_eq!(proofs_for(1_000), MOST_PROOFS);
        assert_eq!(proofs_for(PROOF_BYTES / 4), 4);
        assert_eq!(proofs_for(PROOF_BYTES), 1);
        assert_eq!(proofs_for(PROOF_BYTES + 1), 0);
        let line = "56. K4-K6 $1, E21-E19 $1\n";
        let text = format!(
            "[Variant \"C'escacs\"]\n[Site \"?[Variant\n{}",
            line.repeat(PROOF_BYTES / line.len() + 1)
        );
        let analyses = analyse_file(&text, AnalysisOptions::new(Keep::Findings, RuleChecks::Skip));
        let fixes: usize =
            analyses.iter().flat_map(|r| &r.analysis.diagnostics).map(|d| d.fixes.len()).sum();
        assert_eq!(fixes, 0, "no fix of a broken record over {PROOF_BYTES} bytes is proven");
    }
}
