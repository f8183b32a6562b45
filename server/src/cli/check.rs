//! `ctlpgn check FILE...`: every diagnostic as `path:line:col: severity[code]: message` with a
//! caret excerpt, or a JSON array with `--format json`; exit status 1 when any error. With
//! `--rules` the optional rule checks (R-codes, warnings) are reported too.

use serde_json::json;

use super::{place, read_input, Placed};
use crate::analysis::Keep;
use crate::diagnostics::{Code, Severity};
use crate::text::LineIndex;

/// Runs `check` with the arguments after the subcommand; returns the exit status.
pub fn run_check(arguments: &[String]) -> i32 {
    let mut json_output = false;
    let mut rules = false;
    let mut paths = Vec::new();
    let mut iter = arguments.iter();
    while let Some(argument) = iter.next() {
        match argument.as_str() {
            "--format" => match iter.next().map(String::as_str) {
                Some("json") => json_output = true,
                Some("human") => json_output = false,
                other => {
                    eprintln!(
                        "ctlpgn check: --format takes json or human, not {}",
                        other.unwrap_or("nothing")
                    );
                    return 2;
                }
            },
            "--format=json" => json_output = true,
            "--rules" => rules = true,
            _ => paths.push(argument.clone()),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: ctlpgn check [--format json] [--rules] FILE... (- reads standard input)");
        return 2;
    }
    let mut any_error = false;
    let mut json_items = Vec::new();
    for path in &paths {
        let input = match read_input(path) {
            Err(message) => {
                eprintln!("ctlpgn check: {message}");
                return 2;
            }
            Ok(Err((name, valid_up_to))) => {
                any_error = true;
                let message = format!("the file is not valid UTF-8 (first bad byte at offset {valid_up_to}); CTL-PGN files are UTF-8");
                if json_output {
                    json_items.push(json!({"path": name, "code": "S000", "name": Code::S000.name(), "severity": "error", "line": 1, "column": 1, "end_line": 1, "end_column": 1, "message": message}));
                } else {
                    println!("{name}:1:1: error[S000]: {message} [{}]", Code::S000.name());
                }
                continue;
            }
            Ok(Ok(input)) => input,
        };
        let lines = LineIndex::new(&input.text);
        let records = super::analyse(&input.text, Keep::Findings, rules);
        let placed = place(&input.text, &lines, &records, rules);
        for item in &placed {
            any_error |= item.diagnostic.severity == Severity::Error;
            if json_output {
                json_items.push(json_diagnostic(&input.name, item));
            } else {
                print_human(&input.name, &input.text, &lines, item);
            }
        }
    }
    if json_output {
        println!("{}", serde_json::Value::Array(json_items));
    }
    i32::from(any_error)
}

fn json_diagnostic(path: &str, item: &Placed<'_>) -> serde_json::Value {
    let diagnostic = item.diagnostic;
    json!({
        "path": path,
        "code": diagnostic.code.as_str(),
        "name": diagnostic.code.name(),
        "severity": diagnostic.severity.as_str(),
        "line": item.start.0,
        "column": item.start.1,
        "end_line": item.end.0,
        "end_column": item.end.1,
        "message": diagnostic.message,
    })
}

fn print_human(path: &str, text: &str, lines: &LineIndex, item: &Placed<'_>) {
    let diagnostic = item.diagnostic;
    let (line, column) = item.start;
    println!(
        "{path}:{line}:{column}: {}[{}]: {} [{}]",
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message,
        diagnostic.code.name()
    );
    let start = lines.line_start(line - 1);
    let end = lines.line_start(line).max(start);
    let source_line = text[start..end.min(text.len())].trim_end_matches(['\n', '\r']);
    let width = if item.end.0 == line { item.end.1.saturating_sub(column).max(1) } else { 1 };
    let gutter = line.to_string().len();
    println!("{:gutter$} |", "");
    println!("{line} | {source_line}");
    let indent: String =
        source_line.chars().take(column - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    println!("{:gutter$} | {indent}{}", "", "^".repeat(width));
}
