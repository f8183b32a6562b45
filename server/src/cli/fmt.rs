//! `ctlpgn fmt [--check] [--separators S] [--ellipsis S] FILE...`: rewrites files in the
//! canonical layout, in place and only when the layout changes; `-` formats standard input to
//! standard output; `--check` writes nothing, lists the files that would change, exits 1.

use std::io::Write;

use super::{read_inputs, Arguments};
use crate::format::{format_text, EllipsisStyle, FormatOptions, Separators};

const USAGE: &str = "usage: ctlpgn fmt [--check] [--separators keep|unicode|ascii] [--ellipsis keep|unicode|ascii] FILE... (- reads standard input)";

/// What the command line asked for.
#[derive(Debug)]
struct Request {
    check: bool,
    options: FormatOptions,
    paths: Vec<String>,
}

/// Runs `fmt` with the arguments after the subcommand; returns the exit status: 0 when done (or
/// nothing would change), 1 when `--check` finds files to format, 2 on a usage, read or write
/// error.
pub fn run_fmt(arguments: &[String]) -> i32 {
    let request = match read_request(arguments) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("ctlpgn fmt: {message}\n{USAGE}");
            return 2;
        }
    };
    let inputs = match read_inputs(&request.paths) {
        Ok(inputs) => inputs,
        Err(failure) => {
            eprintln!("ctlpgn fmt: {failure}. Nothing was written.");
            return 2;
        }
    };
    let mut status = 0;
    for input in inputs {
        let formatted = format_text(&input.text, &request.options);
        let changed = formatted != input.text;
        if request.check {
            if changed {
                println!("{}", input.name);
                status = 1;
            }
        } else if input.name == "-" {
            let mut stdout = std::io::stdout().lock();
            if let Err(error) = stdout.write_all(formatted.as_bytes()).and_then(|()| stdout.flush())
            {
                eprintln!("ctlpgn fmt: standard output: {error}");
                status = 2;
            }
        } else if changed {
            if let Err(error) = std::fs::write(&input.name, formatted) {
                eprintln!("ctlpgn fmt: {}: {error}", input.name);
                status = 2;
            }
        }
    }
    status
}

fn read_request(arguments: &[String]) -> Result<Request, String> {
    let mut request =
        Request { check: false, options: FormatOptions::default(), paths: Vec::new() };
    let mut arguments = Arguments::new(arguments);
    while let Some((flag, inline_value)) = arguments.next_argument() {
        match flag {
            "--check" if inline_value.is_none() => request.check = true,
            "--separators" => {
                let name = arguments.value(flag, inline_value)?;
                request.options.separators = Separators::from_name(name)
                    .ok_or(format!("--separators takes keep, unicode or ascii, not {name}"))?;
            }
            "--ellipsis" => {
                let name = arguments.value(flag, inline_value)?;
                request.options.ellipsis = EllipsisStyle::from_name(name)
                    .ok_or(format!("--ellipsis takes keep, unicode or ascii, not {name}"))?;
            }
            _ if flag.starts_with("--") => return Err(format!("unknown option {flag}")),
            _ => request.paths.push(flag.to_string()),
        }
    }
    if request.paths.is_empty() {
        return Err("no file given".to_string());
    }
    Ok(request)
}
