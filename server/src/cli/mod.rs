//! The command line: `ctlpgn check`, `replay`, `fmt`, `convert`, `pdtl` and `board` print or
//! apply the core's results.
//! Reading files and writing to the terminal happen here, never in the core: arguments are
//! parsed in `arguments`, files read in `input` and written back in `write` (what is a stream
//! rather than a file, in `streams`), and every byte printed goes through `output`, so that each
//! command ends with the same statuses.

mod arguments;
mod attributes;
mod board;
mod check;
mod colour;
mod convert;
mod diff;
mod excerpt;
mod fmt;
mod input;
mod output;
mod parts;
mod pdtl;
mod place;
mod png;
mod replay;
mod streams;
mod terminal;
mod write;

pub use check::check_output;
use output::error_line;

use std::path::PathBuf;

use clap::Parser;

use arguments::{Command, CommandLine};
use ctlpgn_core::analysis::{self, AnalysedRecord, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::diagnostics::Diagnostic;
use ctlpgn_core::syntax::Reading;
use ctlpgn_core::text::LineIndex;
use output::{Output, OutputFailed};

/// How a command ends; the worst outcome of its files wins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// All is well (or the reader of standard output went away).
    #[default]
    Clean = 0,
    /// Findings: an error diagnostic, a file `fmt --check` would change, a conversion
    /// refused, a file that is not UTF-8.
    Findings = 1,
    /// A usage error, or a file or standard output that cannot be read or written.
    Failure = 2,
}

/// Runs the command line of this process; returns the exit status.
pub fn main() -> i32 {
    let command_line = match CommandLine::try_parse() {
        Ok(command_line) => command_line,
        Err(error) => return usage(&error) as i32,
    };
    if let Command::Lsp = command_line.command {
        return crate::lsp::run_stdio();
    }
    let mut out = Output::stdout();
    let status = match run(command_line.command, &mut out).and_then(|status| {
        out.flush()?;
        Ok(status)
    }) {
        Ok(status) => status,
        Err(failure) => failure.status(),
    };
    status as i32
}

/// Prints clap's help, version or error message where it belongs: help and version on
/// standard output (a closed pipe ends quietly there too), errors on standard error.
fn usage(error: &clap::Error) -> Status {
    let message = error.render().to_string();
    if !error.use_stderr() {
        let mut out = Output::stdout();
        return match out.text(&message).and_then(|()| out.flush()) {
            Ok(()) => Status::Clean,
            Err(failure) => failure.status(),
        };
    }
    // Line by line: a line end inside one message line is shown as a character.
    for line in message.trim_end().lines() {
        error_line(line);
    }
    Status::Failure
}

fn run(command: Command, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    match command {
        Command::Lsp => Ok(Status::Clean),
        Command::Check(arguments) => check::run(&arguments, out),
        Command::Fmt(arguments) => fmt::run(&arguments, out),
        Command::Replay(arguments) => replay::run(&arguments, out),
        Command::Convert(arguments) => convert::run(&arguments, out),
        Command::Pdtl(arguments) => pdtl::run(&arguments, out),
        Command::Board(arguments) => board::run(&arguments, out),
    }
}

/// A diagnostic placed in its file: 1-based line and character column of both ends.
#[derive(Debug)]
pub struct Placed<'a> {
    pub diagnostic: &'a Diagnostic,
    pub start: (usize, usize),
    pub end: (usize, usize),
    /// Byte offset of the diagnostic's start in the file.
    pub offset: usize,
    /// Byte offset of the diagnostic's end in the file.
    pub end_offset: usize,
}

/// The files `arguments` name, each folder walked (`walk`), and a message for each thing that
/// makes the command fail: a folder that cannot be walked, and a folder that holds no record
/// file (a clean pass over nothing would hide a mistake, an ignore rule above the folder or a
/// wrong name), with how many files the ignore rules left out.
fn walk_arguments(
    command: &str,
    arguments: &[PathBuf],
    include_ignored: bool,
) -> (Vec<crate::walk::Entry>, Vec<String>) {
    let expanded = crate::walk::expand_entries(arguments, include_ignored);
    let mut messages: Vec<String> =
        expanded.failures.iter().map(|failure| format!("ctlpgn {command}: {failure}")).collect();
    for (folder, left_out) in &expanded.empty {
        let folder = folder.display();
        messages.push(match left_out {
            0 => format!("ctlpgn {command}: {folder}: no .ctl-pgn file found"),
            _ => format!(
                "ctlpgn {command}: {folder}: no .ctl-pgn file found ({} left out by ignore \
                 rules: --no-ignore checks them)",
                check::plural(*left_out, "file")
            ),
        });
    }
    (expanded.entries, messages)
}

/// [`walk_arguments`] for a command that writes nothing unless it can read everything; `None`
/// after saying on standard error what went wrong and that nothing was written.
fn walked_or_said(
    command: &str,
    arguments: &[PathBuf],
    include_ignored: bool,
) -> Option<Vec<crate::walk::Entry>> {
    let (entries, messages) = walk_arguments(command, arguments, include_ignored);
    if messages.is_empty() {
        return Some(entries);
    }
    for message in &messages {
        error_line(message);
    }
    error_line(&format!("ctlpgn {command}: nothing was written."));
    None
}

/// Analyses a file on every core, judging the optional rule checks only with `rules`.
pub fn analyse(text: &str, keep: Keep, rules: bool) -> Vec<AnalysedRecord> {
    let rule_checks = if rules { RuleChecks::Judge } else { RuleChecks::Skip };
    analysis::analyse_file_parallel(text, AnalysisOptions { keep, rule_checks, reading: reading() })
}

/// How records are read: `CTLPGN_READER=tree-sitter` forces tree-sitter for every record (a
/// debug switch, to compare with the hand-written reader); read once, here at the edge.
fn reading() -> Reading {
    static READING: std::sync::OnceLock<Reading> = std::sync::OnceLock::new();
    *READING.get_or_init(|| match std::env::var("CTLPGN_READER").as_deref() {
        Ok("tree-sitter") => Reading::TreeSitter,
        _ => Reading::ReaderFirst,
    })
}

/// Places the diagnostics a record reports (`RecordAnalysis::reported`, in its order) in the
/// file's lines and columns; `start` is the record's offset in the file. It looks at this
/// record alone, so a command placing every record's diagnostics does work linear in the file.
pub fn place_record<'a>(
    text: &str,
    lines: &LineIndex,
    start: usize,
    reported: Vec<&'a Diagnostic>,
) -> Vec<Placed<'a>> {
    let mut columns = ColumnCursor::default();
    reported
        .into_iter()
        .map(|diagnostic| {
            let range = diagnostic.range.shifted(start);
            let placed_start = columns.line_column(text, lines, range.start);
            Placed {
                diagnostic,
                start: placed_start,
                end: columns.line_column_after(text, lines, (range.start, placed_start), range.end),
                offset: range.start,
                end_offset: range.end,
            }
        })
        .collect()
}

/// Lines and columns of offsets asked for mostly in increasing order: the column of the next
/// offset on the same line is counted from the last one, not from the line's start, so that a
/// long line with a diagnostic every few characters costs its length once, not once per
/// diagnostic.
#[derive(Debug, Default)]
struct ColumnCursor {
    /// The last offset placed, and its line and column.
    last: Option<(usize, (usize, usize))>,
}

impl ColumnCursor {
    fn line_column(&mut self, text: &str, lines: &LineIndex, offset: usize) -> (usize, usize) {
        let placed = self
            .last
            .and_then(|last| counted_from(text, lines, last, offset))
            .unwrap_or_else(|| lines.line_column(text, offset));
        self.last = Some((offset, placed));
        placed
    }

    /// The line and column of `end`, counted from `start` (placed at `at`) when both lie on one
    /// line; the cursor stays at `start`, where the next diagnostic most likely begins.
    fn line_column_after(
        &self,
        text: &str,
        lines: &LineIndex,
        (start, at): (usize, (usize, usize)),
        end: usize,
    ) -> (usize, usize) {
        counted_from(text, lines, (start, at), end).unwrap_or_else(|| lines.line_column(text, end))
    }
}

/// The line and column of `offset` counted from an earlier offset placed on the same line, past
/// its start (counting from a line's start is left to the index, which knows to skip the
/// file's byte-order mark); `None` when that cannot be done.
fn counted_from(
    text: &str,
    lines: &LineIndex,
    (from, (line, column)): (usize, (usize, usize)),
    offset: usize,
) -> Option<(usize, usize)> {
    let offset = offset.min(text.len());
    let same_line = lines.line_of(offset) + 1 == line && lines.line_start(line - 1) < from;
    if !same_line || from > offset {
        return None;
    }
    Some((line, column + text.get(from..offset)?.chars().count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_counted_from_the_last_offset_agree_with_the_line_index() {
        let text = "\u{FEFF}[a×b\r\n\u{FEFF}é)))\n\n🩐x)\r";
        let lines = LineIndex::new(text);
        let mut cursor = ColumnCursor::default();
        let offsets: Vec<usize> =
            text.char_indices().map(|(at, _)| at).chain([text.len()]).collect();
        // In order (the common case), backwards, and jumping between lines.
        let orders = [
            offsets.clone(),
            offsets.iter().rev().copied().collect(),
            offsets.iter().step_by(3).chain(offsets.iter().step_by(2)).copied().collect::<Vec<_>>(),
        ];
        for order in orders {
            for &offset in &order {
                assert_eq!(
                    cursor.line_column(text, &lines, offset),
                    lines.line_column(text, offset),
                    "at {offset}"
                );
                let placed = lines.line_column(text, offset);
                for &end in &offsets {
                    assert_eq!(
                        cursor.line_column_after(text, &lines, (offset, placed), end),
                        lines.line_column(text, end)
                    );
                }
            }
        }
    }
}
