//! Conversions of a record into a record that tells the same game: the minimal CTL-PGN a
//! minimum reader accepts (handbook §13), the identifiers rewritten to the standard letters,
//! to FAN figurines or to a preset of alternative letters (§4.3), and a new record continuing
//! the game from a place of the record (its PDTL, §9, from `analysis::position_at`).
//!
//! Every function takes a record's text with the syntax and analysis the caller already holds
//! (the language server keeps both per record), and byte offsets into that text. A conversion
//! of a record that does not replay (any error diagnostic) is refused, because the positions
//! it would have to keep are not known. Each conversion that claims to keep the game checks
//! its own output: the converted text is analysed again and must replay without an error to
//! the same positions, so that a surprise (a `~` reference whose meaning would change once its
//! letter changes, say) becomes a refusal instead of a silently different record.

mod continuation;
mod file;
mod identifier_map;
mod minimal;
mod redefine_tag;
mod relettering;
mod verify;

use std::fmt;

pub use continuation::continuation_at;
pub use file::{minimal_file, parse_records, reletter_file, ParsedRecord, RecordFailure};
pub use minimal::minimal_record;
pub use relettering::{reletter_edits, reletter_record};

use crate::analysis::RecordAnalysis;
use crate::diagnostics::{Diagnostic, Severity};
/// The line ending a record mostly uses, kept by every conversion.
use crate::format::dominant_line_ending as line_ending;
use crate::identifiers::{IdentifierSet, RedefineError};
use crate::text::TextRange;

/// The identifiers a record is rewritten to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LetterTarget {
    /// The standard letters `P E J N G R V D K`, with no `Redefine` tag.
    Standard,
    /// The FAN figurines, with `[Redefine "FAN"]`.
    Fan,
    /// Alternative letters, with `[Redefine "<value>"]`.
    Redefine {
        /// The tag value as given, such as `B@J, Q@D, W@V`.
        value: String,
        identifiers: IdentifierSet,
    },
}

impl LetterTarget {
    /// The target a `Redefine` value names: `FAN` is [`LetterTarget::Fan`], pairs such as
    /// `B@J, Q@D, W@V` a preset of alternative letters. The error's text is the T022 message.
    pub fn redefine(value: &str) -> Result<LetterTarget, RedefineError> {
        let identifiers = IdentifierSet::from_redefine(value)?;
        Ok(if identifiers.is_fan() {
            LetterTarget::Fan
        } else {
            LetterTarget::Redefine { value: value.to_string(), identifiers }
        })
    }

    /// The identifier set of the converted record.
    pub fn identifiers(&self) -> IdentifierSet {
        match self {
            LetterTarget::Standard => IdentifierSet::standard(),
            LetterTarget::Fan => IdentifierSet::fan(),
            LetterTarget::Redefine { identifiers, .. } => identifiers.clone(),
        }
    }

    /// The value of the converted record's `Redefine` tag; `None` when it has none.
    fn redefine_value(&self) -> Option<&str> {
        match self {
            LetterTarget::Standard => None,
            LetterTarget::Fan => Some("FAN"),
            LetterTarget::Redefine { value, .. } => Some(value),
        }
    }
}

/// Why a record was not converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConversionError {
    /// The record does not replay: its first error diagnostic, with its byte range.
    DoesNotReplay(Diagnostic),
    /// The converted record would not tell the same game; `range` is the place of the record
    /// where the two part (the whole record when no single place is to blame).
    NotLossless { range: TextRange, message: String },
}

impl ConversionError {
    /// The byte range of the record the error points at.
    pub fn range(&self) -> TextRange {
        match self {
            ConversionError::DoesNotReplay(diagnostic) => diagnostic.range,
            ConversionError::NotLossless { range, .. } => *range,
        }
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConversionError::DoesNotReplay(diagnostic) => write!(
                f,
                "the record does not replay: error[{}]: {} [{}]",
                diagnostic.code,
                diagnostic.message,
                diagnostic.code.name()
            ),
            ConversionError::NotLossless { message, .. } => {
                write!(f, "the conversion would change the record: {message}")
            }
        }
    }
}

impl std::error::Error for ConversionError {}

/// Refuses a record that has an error diagnostic: its replay is not complete, so no
/// conversion could promise to keep its positions.
pub fn require_replay(analysis: &RecordAnalysis) -> Result<(), ConversionError> {
    match analysis.diagnostics.iter().find(|diagnostic| diagnostic.severity == Severity::Error) {
        Some(diagnostic) => Err(ConversionError::DoesNotReplay(diagnostic.clone())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests;
