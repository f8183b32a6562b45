//! The optional rule checks that need the movement of the pieces, through the whole analysis:
//! each warning on the exact text it is about (after non-ASCII text on its line), and the
//! fixes of R008 writing the suffix that fits.

use ctlpgn_core::analysis::{analyse_file, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::diagnostics::{Code, Diagnostic};

/// A Rook against a lone King, from a PDTL: `+^` for a check from afar, a check without its
/// suffix, and a Rook moving like a Knight.
const GAME: &str = "[Variant \"C'escacs\"]
[Event \"Entrenament\"]
[White \"Vidàl, Àngel\"]
[Black \"Pérez, Núria\"]
[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]

1. RC3‐F6+^, KF20-E21
2. RF6-E7, KE21-F22
3. RE7-D12:
*
";

/// The rule warnings of a one-record file, with the text each one covers.
fn rule_warnings(text: &str) -> Vec<Diagnostic> {
    let records = analyse_file(text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].range.start, 0);
    records[0].analysis.rule_warnings.clone()
}

#[test]
fn checks_and_moves_are_judged_on_the_text_they_are_about() {
    let found: Vec<(Code, &str, String)> = rule_warnings(GAME)
        .into_iter()
        .map(|warning| (warning.code, &GAME[warning.range], warning.message))
        .collect();
    assert_eq!(
        found,
        [
            (Code::R008, "+^", "+^ but Black's King on F20 is in check from afar by the Rook on F6; write +∞".to_string()),
            (Code::R008, "RF6-E7", "the check suffix is missing: Black's King on E21 is in check from afar by the Rook on E7; write +∞".to_string()),
            (Code::R009, "RE7-D12", "a Rook cannot go from E7 to D12: it rides along orthogonal lines".to_string()),
        ]
    );
}

#[test]
fn the_fixes_of_r008_write_the_suffix_that_fits() {
    let edits: Vec<_> = rule_warnings(GAME)
        .into_iter()
        .filter(|warning| warning.code == Code::R008)
        .flat_map(|warning| warning.fixes.into_iter().flat_map(|fix| fix.edits))
        .collect();
    assert_eq!(edits.len(), 2);
    let text = ctlpgn_core::text::apply_edits(GAME, &edits);
    assert!(text.contains("1. RC3‐F6+∞, KF20-E21\n2. RF6-E7+∞, KE21-F22\n"), "{text}");
    let codes: Vec<Code> = rule_warnings(&text).into_iter().map(|warning| warning.code).collect();
    assert_eq!(codes, [Code::R009]);
}
