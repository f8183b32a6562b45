//! `ctlpgn convert (--minimal | --letters | --fan | --redefine VALUE) [--in-place] FILE...`:
//! the core's conversions of whole files, written to standard output or back in place. Every
//! file is read and converted before anything is written, so that a record that does not
//! replay leaves standard output empty and every file as it was.

use std::io::Write;

use super::{is_option, read_inputs, Arguments, ReadFailure};
use crate::conversion::{minimal_file, reletter_file, LetterTarget, RecordFailure};
use crate::text::LineIndex;

const USAGE: &str = "usage: ctlpgn convert (--minimal | --letters | --fan | --redefine \"B@J, Q@D, W@V\") [--in-place] FILE... (- reads standard input)";

/// What a file is converted to.
#[derive(Debug)]
enum Conversion {
    /// Minimal CTL-PGN for a minimum reader.
    Minimal,
    /// The same record in other identifiers.
    Identifiers(LetterTarget),
}

/// What the command line asked for.
#[derive(Debug)]
struct Request {
    conversion: Conversion,
    in_place: bool,
    paths: Vec<String>,
}

/// Runs `convert` with the arguments after the subcommand; returns the exit status: 0 when
/// done, 1 when a record does not replay (nothing is then written), 2 on a usage, read or
/// write error.
pub fn run_convert(arguments: &[String]) -> i32 {
    let request = match read_request(arguments) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("ctlpgn convert: {message}\n{USAGE}");
            return 2;
        }
    };
    let inputs = match read_inputs(&request.paths) {
        Ok(inputs) => inputs,
        Err(failure) => {
            eprintln!("ctlpgn convert: {failure}. Nothing was written.");
            return if matches!(failure, ReadFailure::NotUtf8 { .. }) { 1 } else { 2 };
        }
    };
    let mut outputs = Vec::with_capacity(inputs.len());
    let mut refused = false;
    for input in &inputs {
        let converted = match &request.conversion {
            Conversion::Minimal => minimal_file(&input.text),
            Conversion::Identifiers(target) => reletter_file(&input.text, target),
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
        eprintln!("ctlpgn convert: a record that does not replay cannot be converted. Nothing was written.");
        return 1;
    }
    if request.in_place {
        let mut status = 0;
        for (input, output) in inputs.iter().zip(&outputs) {
            if *output != input.text {
                if let Err(error) = std::fs::write(&input.name, output) {
                    eprintln!("ctlpgn convert: {}: {error}", input.name);
                    status = 2;
                }
            }
        }
        return status;
    }
    let mut stdout = std::io::stdout().lock();
    let mut written = Ok(());
    for (index, output) in outputs.iter().enumerate() {
        written = written.and_then(|()| stdout.write_all(output.as_bytes()));
        // Files written one after the other must not glue a record to the previous line.
        let more = index + 1 < outputs.len();
        if more && !output.is_empty() && !output.ends_with(['\n', '\r']) {
            written = written.and_then(|()| stdout.write_all(b"\n"));
        }
    }
    if let Err(error) = written.and_then(|()| stdout.flush()) {
        eprintln!("ctlpgn convert: standard output: {error}");
        return 2;
    }
    0
}

/// Prints why each record of a file was refused, at the place the error points at.
fn report_failures(name: &str, text: &str, failures: &[RecordFailure]) {
    let lines = LineIndex::new(text);
    for failure in failures {
        let (line, column) = lines.line_column(text, failure.offset());
        eprintln!(
            "ctlpgn convert: {name}:{line}:{column}: record {}: {}",
            failure.index + 1,
            failure.error
        );
    }
}

fn read_request(arguments: &[String]) -> Result<Request, String> {
    let mut conversion = None;
    let mut in_place = false;
    let mut paths = Vec::new();
    let mut arguments = Arguments::new(arguments);
    while let Some((flag, inline_value)) = arguments.next_argument() {
        match flag {
            "--minimal" if inline_value.is_none() => choose(Conversion::Minimal, &mut conversion)?,
            "--letters" if inline_value.is_none() => {
                choose(Conversion::Identifiers(LetterTarget::Standard), &mut conversion)?
            }
            "--fan" if inline_value.is_none() => {
                choose(Conversion::Identifiers(LetterTarget::Fan), &mut conversion)?
            }
            "--redefine" => {
                let value = arguments
                    .value(flag, inline_value)
                    .map_err(|_| "--redefine needs a value such as \"B@J, Q@D, W@V\"")?;
                let target = LetterTarget::redefine(value)
                    .map_err(|message| format!("--redefine {value:?}: {message}"))?;
                choose(Conversion::Identifiers(target), &mut conversion)?;
            }
            "--in-place" | "-i" if inline_value.is_none() => in_place = true,
            _ if is_option(flag) => return Err(format!("unknown option {flag}")),
            _ => paths.push(flag.to_string()),
        }
    }
    let conversion = conversion
        .ok_or("say what to convert to: --minimal, --letters, --fan or --redefine VALUE")?;
    if paths.is_empty() {
        return Err("no file given".to_string());
    }
    if in_place && paths.iter().any(|path| path == "-") {
        return Err("--in-place rewrites files; standard input (-) can only be converted to standard output".to_string());
    }
    Ok(Request { conversion, in_place, paths })
}

/// Records the conversion asked for; only one may be.
fn choose(chosen: Conversion, conversion: &mut Option<Conversion>) -> Result<(), String> {
    if conversion.is_some() {
        return Err("choose one of --minimal, --letters, --fan and --redefine".to_string());
    }
    *conversion = Some(chosen);
    Ok(())
}
