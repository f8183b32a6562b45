//! `ctlpgn check FILE...`: every diagnostic as `path:line:col: severity[code]: message` with a
//! caret excerpt, or a JSON array with `--format json`; exit status 1 when any error. With
//! `--rules` the optional rule checks (R-codes, warnings) are reported too.

use serde_json::json;

use super::arguments::{CheckArguments, ReportFormat};
use super::excerpt::excerpt;
use super::input::{read_input, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::{place_record, reported, Placed, Status};
use crate::analysis::Keep;
use crate::diagnostics::{Code, Severity};
use crate::text::LineIndex;

/// Runs `check`: 0 when no diagnostic is an error, 1 when one is (or a file is not UTF-8),
/// 2 when a file cannot be read (the other files are still checked).
pub fn run(arguments: &CheckArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    let json_output = arguments.format == ReportFormat::Json;
    let mut status = Status::Clean;
    let mut json_items = Vec::new();
    for path in &arguments.files {
        let input = match read_input(path, arguments.limit.max_input_size) {
            Ok(input) => input,
            Err(ReadFailure::NotUtf8 { name, valid_up_to }) => {
                status = status.max(Status::Findings);
                let message = format!("the file is not valid UTF-8 (first bad byte at offset {valid_up_to}); CTL-PGN files are UTF-8");
                if json_output {
                    json_items.push(json!({"path": name, "code": "S000", "name": Code::S000.name(), "severity": "error", "line": 1, "column": 1, "end_line": 1, "end_column": 1, "message": message}));
                } else {
                    out.line(format_args!(
                        "{name}:1:1: error[S000]: {message} [{}]",
                        Code::S000.name()
                    ))?;
                }
                continue;
            }
            Err(failure) => {
                error_line(&format!("ctlpgn check: {failure}"));
                status = Status::Failure;
                continue;
            }
        };
        let records = super::analyse(&input.text, Keep::Findings, arguments.rules);
        // The file's lines are indexed once something is to be placed in them: a clean file
        // needs no index, and indexing it before the analysis held up the cores.
        let lines = std::cell::OnceCell::new();
        for record in &records {
            if reported(record, arguments.rules).next().is_none() {
                continue;
            }
            let lines = lines.get_or_init(|| LineIndex::new(&input.text));
            for item in place_record(&input.text, lines, record, arguments.rules) {
                if item.diagnostic.severity == Severity::Error {
                    status = status.max(Status::Findings);
                }
                if json_output {
                    json_items.push(json_diagnostic(&input.name, &item));
                } else {
                    print_human(out, &input.name, &input.text, lines, &item)?;
                }
            }
        }
    }
    if json_output {
        out.line(format_args!("{}", serde_json::Value::Array(json_items)))?;
    }
    Ok(status)
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

/// The located message, then the source line around it (cut to a window on a long line) with
/// carets under the diagnostic's span.
fn print_human(
    out: &mut Output<'_>,
    path: &str,
    text: &str,
    lines: &LineIndex,
    item: &Placed<'_>,
) -> Result<(), OutputFailed> {
    let diagnostic = item.diagnostic;
    let (line, column) = item.start;
    out.line(format_args!(
        "{path}:{line}:{column}: {}[{}]: {} [{}]",
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message,
        diagnostic.code.name()
    ))?;
    let shown = excerpt(text, lines.line_start(line - 1), item.offset, item.end_offset);
    let gutter = line.to_string().len();
    out.line(format_args!("{:gutter$} |", ""))?;
    out.line(format_args!("{line} | {}", shown.source))?;
    out.line(format_args!("{:gutter$} | {}", "", shown.carets))
}
