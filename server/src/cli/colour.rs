//! Colours on a terminal, in the manner of rustc and ruff: the severity and the carets in the
//! severity's colour, the code and the place in bold. `--color auto` colours only when standard
//! output is a terminal and `NO_COLOR` is unset or empty (no-color.org); `always` and `never`
//! say so. What the record wrote is made visible first (`terminal::visible`), so only these
//! codes ever reach the terminal as codes.

use std::io::IsTerminal;

use ctlpgn_core::diagnostics::Severity;

use super::arguments::ColourChoice;

/// Whether to colour, and the codes to do it with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paint {
    enabled: bool,
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";

impl Paint {
    /// The colouring `choice` asks for, for standard output.
    pub fn for_stdout(choice: ColourChoice) -> Paint {
        let enabled = match choice {
            ColourChoice::Always => true,
            ColourChoice::Never => false,
            ColourChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
            }
        };
        Paint { enabled }
    }

    /// No colours.
    pub fn none() -> Paint {
        Paint { enabled: false }
    }

    /// `text` in the colour of `severity`, bold.
    pub fn severity(self, severity: Severity, text: &str) -> String {
        let colour = match severity {
            Severity::Error => "\x1b[1;31m",
            Severity::Warning => "\x1b[1;33m",
            Severity::Hint => "\x1b[1;36m",
        };
        self.wrap(colour, text)
    }

    /// `text` in bold.
    pub fn bold(self, text: &str) -> String {
        self.wrap(BOLD, text)
    }

    /// `text` dimmed: the excerpt's gutter.
    pub fn dim(self, text: &str) -> String {
        self.wrap("\x1b[2m", text)
    }

    fn wrap(self, code: &str, text: &str) -> String {
        if self.enabled && !text.is_empty() {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}
