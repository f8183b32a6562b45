//! The command line: `ctlpgn check`, `replay`, `fmt`, `convert` and `pdtl` print or apply the
//! core's results.
//! Reading files and writing to the terminal happen here, never in the core.

mod check;
mod convert;
mod fmt;
mod pdtl;
mod replay;

use std::io::Read;

use crate::analysis::{self, AnalysedRecord, Keep, RuleChecks};
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

/// Why a file could not be read as CTL-PGN text.
#[derive(Debug)]
pub enum ReadFailure {
    /// The bytes are not UTF-8 (S000).
    NotUtf8 { name: String, valid_up_to: usize },
    /// The file could not be read at all.
    Unreadable(String),
}

impl std::fmt::Display for ReadFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadFailure::NotUtf8 { name, valid_up_to } => {
                write!(f, "{name}: the file is not valid UTF-8 (S000, first bad byte at offset {valid_up_to}); CTL-PGN files are UTF-8")
            }
            ReadFailure::Unreadable(message) => f.write_str(message),
        }
    }
}

/// Reads every file a command names before it writes anything, so that an unreadable or
/// non-UTF-8 file leaves all the files as they were.
pub fn read_inputs(paths: &[String]) -> Result<Vec<Input>, ReadFailure> {
    paths
        .iter()
        .map(|path| match read_input(path) {
            Ok(Ok(input)) => Ok(input),
            Ok(Err((name, valid_up_to))) => Err(ReadFailure::NotUtf8 { name, valid_up_to }),
            Err(message) => Err(ReadFailure::Unreadable(message)),
        })
        .collect()
}

/// A command's arguments, one at a time: `--name value` and `--name=value` alike.
#[derive(Debug)]
pub struct Arguments<'a> {
    rest: std::slice::Iter<'a, String>,
}

impl<'a> Arguments<'a> {
    pub fn new(arguments: &'a [String]) -> Arguments<'a> {
        Arguments { rest: arguments.iter() }
    }

    /// The next argument: a flag with the value written after its `=`, or a word (a path)
    /// with none.
    pub fn next_argument(&mut self) -> Option<(&'a str, Option<&'a str>)> {
        let argument = self.rest.next()?;
        Some(match argument.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
            _ => (argument.as_str(), None),
        })
    }

    /// The value of `flag`: the one written after its `=`, else the next argument.
    pub fn value(&mut self, flag: &str, inline: Option<&'a str>) -> Result<&'a str, String> {
        inline
            .or_else(|| self.rest.next().map(String::as_str))
            .ok_or(format!("{flag} needs a value"))
    }
}

/// Whether an argument is an option (`--name`, `-i`) rather than a path (`-` is standard input).
pub fn is_option(argument: &str) -> bool {
    argument.starts_with('-') && argument != "-"
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

/// Analyses a file on every core, judging the optional rule checks only with `rules`.
pub fn analyse(text: &str, keep: Keep, rules: bool) -> Vec<AnalysedRecord> {
    analysis::analyse_file_parallel(
        text,
        keep,
        if rules { RuleChecks::Judge } else { RuleChecks::Skip },
    )
}

/// Places the diagnostics of analysed records in the file's lines and columns, in file order;
/// with `rules`, the warnings of the optional rule checks among them.
pub fn place<'a>(
    text: &str,
    lines: &LineIndex,
    records: &'a [AnalysedRecord],
    rules: bool,
) -> Vec<Placed<'a>> {
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
