//! Diagnostics as the core produces them: a handbook code, a severity, a byte range in the
//! analysed text and a message saying what is wrong and what is expected. Positions in lines
//! and columns are computed at the edges (command line, language server), never here.

mod codes;

pub use codes::{Code, Severity};

use std::ops::Range;

/// One finding in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// Byte range in the text the analysis was given.
    pub range: Range<usize>,
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, range: Range<usize>, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity: code.default_severity(), range, message: message.into() }
    }

    /// The same diagnostic with another severity (for the codes with two in the handbook).
    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    /// The same diagnostic moved by `offset` bytes, for a record's findings placed in its file.
    pub fn shifted(mut self, offset: usize) -> Diagnostic {
        self.range = self.range.start + offset..self.range.end + offset;
        self
    }
}
