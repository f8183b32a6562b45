//! The check every conversion makes of its own output: the converted record is parsed and
//! analysed again, and must replay without an error to the same positions as the original, so
//! that a conversion which would change the game is refused instead of returned.

use super::ConversionError;
use crate::analysis::comments::is_valid_tilde_reference;
use crate::analysis::{self, AnalysisOptions, Keep, PlayedHalfMove, RecordAnalysis, RuleChecks};
use crate::diagnostics::Severity;
use crate::syntax::{self, Item, RecordSyntax, Reference, Step};
use crate::text::TextRange;

/// Which replayed half-moves must stay the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compared {
    /// Every line of play, variations included, and the kinds of the comment references
    /// (a relettered record keeps all of them).
    EveryLine,
    /// The main line only (a minimal record drops variations and comments).
    MainLine,
}

/// `Ok` when `converted` replays without an error to the positions `original` replays to.
pub(super) fn check_same_game(
    original: &str,
    original_syntax: &RecordSyntax,
    original_analysis: &RecordAnalysis,
    converted: &str,
    compared: Compared,
) -> Result<(), ConversionError> {
    let whole = TextRange::new(0, original.len());
    let converted_syntax = syntax::parse_record(converted);
    // The optional rule checks only add warnings, never an error nor a position: the check
    // skips them: they cost about as much as the replay.
    let options = AnalysisOptions::new(Keep::Everything, RuleChecks::Skip);
    let converted_analysis = analysis::analyse_syntax(converted, &converted_syntax, options);
    if let Some(error) = converted_analysis
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.severity == Severity::Error)
    {
        return Err(ConversionError::NotLossless {
            range: whole,
            message: format!(
                "the converted record would have the error {} ({}) at \"{}\"",
                error.code,
                error.message,
                converted.get(error.range.to_range()).unwrap_or("")
            ),
        });
    }
    let kept = |played: &PlayedHalfMove| compared == Compared::EveryLine || played.depth == 0;
    let before: Vec<&PlayedHalfMove> =
        original_analysis.played.iter().filter(|played| kept(played)).collect();
    let after: Vec<&PlayedHalfMove> =
        converted_analysis.played.iter().filter(|played| kept(played)).collect();
    for (index, original_ply) in before.iter().enumerate() {
        let same = after.get(index).is_some_and(|converted_ply| {
            (converted_ply.side, converted_ply.number, converted_ply.depth, &converted_ply.after)
                == (original_ply.side, original_ply.number, original_ply.depth, &original_ply.after)
        });
        if !same {
            let written = &original[original_ply.range.start..original_ply.move_end];
            return Err(ConversionError::NotLossless {
                range: original_ply.range,
                message: format!(
                    "the position after {} {written} would not be the same",
                    original_ply.number
                ),
            });
        }
    }
    if after.len() != before.len() {
        return Err(ConversionError::NotLossless {
            range: whole,
            message: format!("{} half-moves would replay instead of {}", after.len(), before.len()),
        });
    }
    if compared == Compared::EveryLine {
        let original_references = references(original_syntax);
        let converted_references = references(&converted_syntax);
        let valid_before = |reference: &Reference| {
            is_valid_tilde_reference(original, reference, &original_analysis.identifiers)
        };
        let valid_after = |reference: &Reference| {
            is_valid_tilde_reference(converted, reference, &converted_analysis.identifiers)
        };
        for (index, reference) in original_references.iter().enumerate() {
            let Some(converted_reference) = converted_references.get(index) else { break };
            if converted_reference.kind != reference.kind {
                return Err(changed_reference(original, reference.range));
            }
            if valid_before(reference) != valid_after(converted_reference) {
                return Err(reference_validity_changed(
                    original,
                    reference.range,
                    valid_before(reference),
                ));
            }
        }
        if converted_references.len() != original_references.len() {
            return Err(ConversionError::NotLossless {
                range: whole,
                message: "the comments would not hold the same references".to_string(),
            });
        }
    }
    Ok(())
}

/// The error for a comment reference that would be read as another kind of reference.
fn changed_reference(original: &str, range: TextRange) -> ConversionError {
    let written = original[range].to_string();
    ConversionError::NotLossless {
        range,
        message: format!("the comment reference {written} would be read differently once its identifier is rewritten"),
    }
}

/// The error for a `~` reference that would turn from valid to invalid (N010-N012) or back,
/// such as `~♔` in a record of letters converted to FAN: left as written (it names nothing
/// in letters) it would name the King, and converting back would not give the record back.
fn reference_validity_changed(original: &str, range: TextRange, valid: bool) -> ConversionError {
    let written = original[range].to_string();
    let message = if valid {
        format!("the comment reference {written} would no longer be valid once its identifier is rewritten")
    } else {
        format!("the comment reference {written} is not valid in this record (N010-N012) but would be in the converted identifiers; correct it first")
    };
    ConversionError::NotLossless { range, message }
}

/// Every reference of every comment of a record, variations included, in text order.
fn references(syntax: &RecordSyntax) -> Vec<&Reference> {
    let mut found = Vec::new();
    for step in syntax.walk(&syntax.items) {
        if let Step::Item(Item::Comment(comment), _) = step {
            found.extend(comment.references.iter());
        }
    }
    found
}
