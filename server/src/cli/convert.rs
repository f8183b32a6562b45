//! `ctlpgn convert (--minimal | --letters | --fan | --redefine VALUE) [--in-place] FILE...`:
//! the core's conversions of whole files, written to standard output or back in place; folders
//! are walked for `*.ctl-pgn` files (`walk`). Every
//! file is read and converted before anything is written, so that a record that does not
//! replay leaves standard output empty and every file as it was.

use super::arguments::{ConversionTarget, ConvertArguments};
use super::input::{display_name, read_inputs, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::streams::names_a_stream;
use super::write::replace_file;
use super::{walked_or_said, Status};
use ctlpgn_core::conversion::{minimal_file, reletter_file, LetterTarget, RecordFailure};
use ctlpgn_core::text::LineIndex;

/// Runs `convert`: 0 when done, 1 when a record does not replay or a file is not UTF-8
/// (nothing is then written), 2 on a usage, read or write error.
pub fn run(arguments: &ConvertArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    if arguments.in_place {
        if let Some(stream) = arguments.files.iter().find(|path| names_a_stream(path)) {
            refuse_stream(&display_name(stream));
            return Ok(Status::Failure);
        }
    }
    let Some(files) = walked_or_said("convert", &arguments.files, arguments.no_ignore) else {
        return Ok(Status::Failure);
    };
    let inputs = match read_inputs(&files, arguments.limit.max_input_size) {
        Ok(inputs) => inputs,
        Err(failure) => {
            error_line(&format!("ctlpgn convert: {failure}. Nothing was written."));
            let not_utf8 = matches!(failure, ReadFailure::NotUtf8 { .. });
            return Ok(if not_utf8 { Status::Findings } else { Status::Failure });
        }
    };
    if arguments.in_place {
        if let Some(stream) = inputs.iter().find(|input| input.file.is_none()) {
            refuse_stream(&stream.name);
            return Ok(Status::Failure);
        }
    }
    let mut outputs = Vec::with_capacity(inputs.len());
    let mut refused = false;
    for input in &inputs {
        let converted = match letter_target(&arguments.target) {
            None => minimal_file(&input.text),
            Some(target) => reletter_file(&input.text, target),
        };
        match converted {
            Ok(text) => outputs.push(text),
            Err(failures) => {
                refused = true;
                report_failures(&input.name, &input.text, &failures);
            }
        }
    }
    if refused {
        error_line("ctlpgn convert: a record that does not replay cannot be converted. Nothing was written.");
        return Ok(Status::Findings);
    }
    if arguments.in_place {
        let mut status = Status::Clean;
        for (input, output) in inputs.iter().zip(&outputs) {
            if let Some(file) = input.file.as_ref().filter(|_| *output != input.text) {
                if let Err(message) = replace_file(file, input.text.as_bytes(), output.as_bytes()) {
                    error_line(&format!("ctlpgn convert: {message}"));
                    status = Status::Failure;
                }
            }
        }
        return Ok(status);
    }
    for (index, output) in outputs.iter().enumerate() {
        out.text(output)?;
        // Files written one after the other must not glue a record to the previous line.
        let more = index + 1 < outputs.len();
        if more && !output.is_empty() && !output.ends_with(['\n', '\r']) {
            out.text("\n")?;
        }
    }
    Ok(Status::Clean)
}

/// Says that `--in-place` cannot rewrite a stream, before anything is written.
fn refuse_stream(name: &str) {
    error_line(&format!(
        "ctlpgn convert: --in-place rewrites files; {name} is a stream (standard input, a pipe \
         or a device), which can only be converted to standard output. Nothing was written."
    ));
}

/// The identifiers asked for, or `None` for `--minimal`.
fn letter_target(target: &ConversionTarget) -> Option<&LetterTarget> {
    const STANDARD: &LetterTarget = &LetterTarget::Standard;
    const FAN: &LetterTarget = &LetterTarget::Fan;
    match target {
        ConversionTarget { letters: true, .. } => Some(STANDARD),
        ConversionTarget { fan: true, .. } => Some(FAN),
        ConversionTarget { redefine: Some(target), .. } => Some(target),
        _ => None,
    }
}

/// Prints why each record of a file was refused, at the place the error points at.
fn report_failures(name: &str, text: &str, failures: &[RecordFailure]) {
    let lines = LineIndex::new(text);
    for failure in failures {
        let (line, column) = lines.line_column(text, failure.offset());
        error_line(&format!(
            "ctlpgn convert: {name}:{line}:{column}: record {}: {}",
            failure.index + 1,
            failure.error
        ));
    }
}
