//! The command line: `ctlpgn check`, `replay`, `fmt`, `convert` and `pdtl` print or apply the
//! core's results.
//! Reading files and writing to the terminal happen here, never in the core.

mod check;
mod convert;
mod fmt;
mod pdtl;
mod replay;

use std::io::Read;

use crate::analysis::{self, AnalysedRecord};
use crate::diagnostics::Diagnostic;
use crate::text::LineIndex;

pub use check::run_check;
pub use convert::run_convert;
pub use fmt::run_fmt;
pub use pdtl::run_pdtl;
pub use replay::run_replay;

/// A file read for a command: its name as given and its text.
#[derive(Debug)]
pub struct Input {
    pub name: String,
    pub text: String,
}

/// Reads a file, or standard input for `-`. Invalid UTF-8 is reported as S000 by the caller.
pub fn read_input(path: &str) -> Result<Result<Input, (String, usize)>, String> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|content| bytes = content)
    };
    read.map_err(|error| format!("{path}: {error}"))?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Ok(Input { name: path.to_string(), text }),
        Err(error) => Err((path.to_string(), error.utf8_error().valid_up_to())),
    })
}

/// A diagnostic placed in its file: 1-based line and character column of both ends.
#[derive(Debug)]
pub struct Placed<'a> {
    pub diagnostic: &'a Diagnostic,
    pub start: (usize, usize),
    pub end: (usize, usize),
    /// Byte offset of the diagnostic's start in the file.
    pub offset: usize,
}

/// Analyses a file and places every diagnostic in it, in file order.
pub fn analyse(text: &str) -> Vec<AnalysedRecord> {
    analysis::analyse_file_parallel(text)
}

/// Places the diagnostics of analysed records in the file's lines and columns, in file order;
/// with `rules`, the warnings of the optional rule checks among them.
pub fn place<'a>(text: &str, lines: &LineIndex, records: &'a [AnalysedRecord], rules: bool) -> Vec<Placed<'a>> {
    records
        .iter()
        .flat_map(|record| {
            let mut diagnostics: Vec<&Diagnostic> = record.analysis.diagnostics.iter().collect();
            if rules {
                diagnostics.extend(&record.analysis.rule_warnings);
                diagnostics.sort_by_key(|diagnostic| (diagnostic.range.start, diagnostic.code));
            }
            diagnostics.into_iter().map(move |diagnostic| {
                let start = record.range.start + diagnostic.range.start;
                let end = record.range.start + diagnostic.range.end;
                Placed {
                    diagnostic,
                    start: lines.line_column(text, start),
                    end: lines.line_column(text, end),
                    offset: start,
                }
            })
        })
        .collect()
}
