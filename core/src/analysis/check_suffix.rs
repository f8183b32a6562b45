//! The R008 diagnostic of a half-move whose check suffix does not say what it does to the
//! opponent's King: on the suffix when one is written, else on the move, with a fix that
//! writes the suffix that fits.

use crate::diagnostics::{Code, Diagnostic, Fix};
use crate::notation::Check;
use crate::replay::SuffixMismatch;
use crate::syntax::HalfMoveText;
use crate::text::TextRange;

/// The diagnostic of a mismatched suffix. No fix is offered where `#` would be added or taken
/// away, because `#` also ends the game (§7.4): the end marks and the result need the user's
/// eye, and M004/M005/M018 speak about them.
pub(super) fn check_suffix_diagnostic(
    half_move: &HalfMoveText,
    written_check: Option<Check>,
    mismatch: SuffixMismatch,
) -> Diagnostic {
    let written = half_move.check.as_ref();
    let range = written
        .map_or(TextRange::new(half_move.range.start, half_move.move_end()), |token| token.range);
    let diagnostic = Diagnostic::new(Code::R008, range, mismatch.message);
    if mismatch.expected == Some(Check::Mate) || written_check == Some(Check::Mate) {
        return diagnostic;
    }
    let fix = match (written, mismatch.expected) {
        (Some(token), Some(expected)) => {
            Fix::replace(format!("Write {}", expected.as_str()), token.range, expected.as_str())
        }
        (Some(token), None) => Fix::replace("Remove the check suffix", token.range, ""),
        (None, Some(expected)) => {
            let end = half_move.move_end();
            Fix::replace(
                format!("Write {}", expected.as_str()),
                TextRange::empty(end),
                expected.as_str(),
            )
        }
        (None, None) => return diagnostic,
    };
    diagnostic.with_fix(fix)
}
