//! `ctlpgn fmt [--check] [--separators S] [--ellipsis S] FILE...`: rewrites files in the
//! canonical layout, in place and only when the layout changes; `-` (or `/dev/stdin`, a pipe, a
//! device) formats the stream to standard output; `--check` writes nothing, lists the files
//! that would change, exits 1; `--diff` shows the changes instead. Folders are walked for
//! `*.ctl-pgn` files (`walk`).

use super::arguments::FmtArguments;
use super::diff::unified_diff;
use super::input::{read_inputs, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::terminal::visible;
use super::write::replace_file;
use super::{walked_or_said, Status};
use ctlpgn_core::format::{format_text_with, FormatOptions};

/// Runs `fmt`: 0 when done (or nothing would change), 1 when `--check` finds files to format
/// or a file is not UTF-8, 2 on a read or write error. Every file is read before any is
/// written.
pub fn run(arguments: &FmtArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    let options = FormatOptions {
        separators: arguments.separators.separators(),
        ellipsis: arguments.ellipsis.ellipsis(),
    };
    let Some(files) = walked_or_said("fmt", &arguments.files, arguments.no_ignore) else {
        return Ok(Status::Failure);
    };
    let inputs = match read_inputs(&files, arguments.limit.max_input_size) {
        Ok(inputs) => inputs,
        Err(failure) => {
            error_line(&format!("ctlpgn fmt: {failure}. Nothing was written."));
            let not_utf8 = matches!(failure, ReadFailure::NotUtf8 { .. });
            return Ok(if not_utf8 { Status::Findings } else { Status::Failure });
        }
    };
    let mut status = Status::Clean;
    for input in inputs {
        let formatted = format_text_with(&input.text, &options, super::reading());
        let changed = formatted != input.text;
        match &input.file {
            _ if arguments.diff => {
                if changed {
                    out.text(&unified_diff(&input.name, &input.text, &formatted))?;
                    status = status.max(Status::Findings);
                }
            }
            _ if arguments.check => {
                if changed {
                    out.line(format_args!("{}", visible(&input.name)))?;
                    status = status.max(Status::Findings);
                }
            }
            None => out.text(&formatted)?,
            Some(file) if changed => {
                let written = replace_file(file, input.text.as_bytes(), formatted.as_bytes());
                if let Err(message) = written {
                    error_line(&format!("ctlpgn fmt: {message}"));
                    status = Status::Failure;
                }
            }
            Some(_) => {}
        }
    }
    Ok(status)
}
