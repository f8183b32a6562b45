//! Diagnostics as the core produces them: a handbook code, a severity, a byte range in the
//! analysed text and a message saying what is wrong and what is expected. Positions in lines
//! and columns are computed at the edges (command line, language server), never here.

mod census;
mod codes;
mod findings;

pub use census::{Census, FixVerdict};
pub use codes::{Code, Severity};
pub use findings::{Findings, Pass, MAX_PER_PASS};

use crate::text::{apply_edits, TextEdit, TextRange};

/// One finding in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    /// Byte range in the text the analysis was given.
    pub range: TextRange,
    pub message: String,
    /// The changes that resolve it, when they are obvious; an editor offers them as quick
    /// fixes. Most diagnostics have none; a few have alternatives (change the tag or the line).
    pub fixes: Vec<Fix>,
}

/// A change that resolves a diagnostic: edits of the analysed text, which never overlap,
/// under a title that says what the change does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<TextEdit>,
}

impl Fix {
    /// A fix made of one edit.
    pub fn replace(title: impl Into<String>, range: TextRange, text: impl Into<String>) -> Fix {
        Fix { title: title.into(), edits: vec![TextEdit::replace(range, text)] }
    }

    /// `text` (the text the fix's ranges are in) with the fix applied.
    pub fn applied_to(&self, text: &str) -> String {
        apply_edits(text, &self.edits)
    }
}

impl Diagnostic {
    /// S000 for a file whose bytes are not UTF-8, at its start: where the first bad byte is
    /// (`valid_up_to`, its offset). Each edge adds what its reader can do about it.
    pub fn not_utf8(valid_up_to: usize) -> Diagnostic {
        let message = format!(
            "the file is not valid UTF-8 (first bad byte at offset {valid_up_to}); CTL-PGN files \
             are UTF-8"
        );
        Diagnostic::new(Code::S000, TextRange::empty(0), message)
    }

    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, range: TextRange, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            range,
            message: message.into(),
            fixes: Vec::new(),
        }
    }

    /// The same diagnostic with one more way to fix it.
    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fixes.push(fix);
        self
    }

    /// The same diagnostic with another severity (for the codes with two in the handbook).
    pub fn with_severity(mut self, severity: Severity) -> Diagnostic {
        self.severity = severity;
        self
    }

    /// The same diagnostic moved by `offset` bytes, for a record's findings placed in its file.
    pub fn shifted(mut self, offset: usize) -> Diagnostic {
        self.range = TextRange::new(self.range.start + offset, self.range.end + offset);
        self
    }
}
