//! `ctlpgn check FILE...`: every diagnostic as `path:line:col: severity[code]: message` with a
//! caret excerpt, or a JSON array with `--format json`; exit status 1 when any error. With
//! `--rules` the optional rule checks (R-codes, warnings) are reported too.

use serde_json::json;

use super::arguments::{CheckArguments, ReportFormat};
use super::excerpt::excerpt;
use super::input::{read_input, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::terminal::visible;
use super::{place_record, reported, Placed, Status};
use ctlpgn_core::analysis::Keep;
use ctlpgn_core::diagnostics::{Code, Severity};
use ctlpgn_core::text::LineIndex;

/// Runs `check`: 0 when no diagnostic is an error, 1 when one is (or a file is not UTF-8),
/// 2 when a file cannot be read (the other files are still checked).
pub fn run(arguments: &CheckArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    let mut report = Report {
        rules: arguments.rules,
        json: (arguments.format == ReportFormat::Json).then(Vec::new),
        status: Status::Clean,
    };
    for path in &arguments.files {
        match read_input(path, arguments.limit.max_input_size) {
            Ok(input) => report.file(out, &input.name, Ok(&input.text))?,
            Err(ReadFailure::NotUtf8 { name, valid_up_to }) => {
                report.file(out, &name, Err(valid_up_to))?;
            }
            Err(failure) => {
                error_line(&format!("ctlpgn check: {failure}"));
                report.status = Status::Failure;
            }
        }
    }
    if let Some(items) = report.json {
        out.line(format_args!("{}", serde_json::Value::Array(items)))?;
    }
    Ok(report.status)
}

/// What `ctlpgn check` prints for a file shown as `name` that holds `bytes`, with the rule
/// checks when `rules` (as `--rules`): the same lines as the command, for the manual's
/// examples of each code.
pub fn check_output(name: &str, bytes: &[u8], rules: bool) -> String {
    let mut printed = Vec::new();
    let mut out = Output::new(Box::new(&mut printed));
    let mut report = Report { rules, json: None, status: Status::Clean };
    let text = std::str::from_utf8(bytes).map_err(|error| error.valid_up_to());
    report
        .file(&mut out, name, text)
        .and_then(|()| out.flush())
        .expect("writing to memory does not fail");
    drop(out);
    String::from_utf8(printed).expect("check prints UTF-8")
}

/// The report `check` is writing: as lines, or items of a JSON array printed at the end.
struct Report {
    rules: bool,
    json: Option<Vec<serde_json::Value>>,
    status: Status,
}

impl Report {
    /// Reports the diagnostics of one file: its text, or where its first byte that is not
    /// UTF-8 is (S000).
    fn file(
        &mut self,
        out: &mut Output<'_>,
        name: &str,
        text: Result<&str, usize>,
    ) -> Result<(), OutputFailed> {
        let text = match text {
            Ok(text) => text,
            Err(valid_up_to) => {
                self.status = self.status.max(Status::Findings);
                let message = format!("the file is not valid UTF-8 (first bad byte at offset {valid_up_to}); CTL-PGN files are UTF-8");
                if let Some(items) = &mut self.json {
                    items.push(json!({"path": name, "code": "S000", "name": Code::S000.name(), "severity": "error", "line": 1, "column": 1, "end_line": 1, "end_column": 1, "message": message}));
                    return Ok(());
                }
                return out.line(format_args!(
                    "{name}:1:1: error[S000]: {message} [{}]",
                    Code::S000.name()
                ));
            }
        };
        let records = super::analyse(text, Keep::Findings, self.rules);
        // The file's lines are indexed once something is to be placed in them: a clean file
        // needs no index, and indexing it before the analysis held up the cores.
        let lines = std::cell::OnceCell::new();
        for record in &records {
            if reported(record, self.rules).next().is_none() {
                continue;
            }
            let lines = lines.get_or_init(|| LineIndex::new(text));
            for item in place_record(text, lines, record, self.rules) {
                if item.diagnostic.severity == Severity::Error {
                    self.status = self.status.max(Status::Findings);
                }
                match &mut self.json {
                    Some(items) => items.push(json_diagnostic(name, &item)),
                    None => print_human(out, name, text, lines, &item)?,
                }
            }
        }
        Ok(())
    }
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
        "{}:{line}:{column}: {}[{}]: {} [{}]",
        visible(path),
        diagnostic.severity.as_str(),
        diagnostic.code,
        visible(&diagnostic.message),
        diagnostic.code.name()
    ))?;
    let shown = excerpt(text, lines.line_start(line - 1), item.offset, item.end_offset);
    let gutter = line.to_string().len();
    out.line(format_args!("{:gutter$} |", ""))?;
    out.line(format_args!("{line} | {}", shown.source))?;
    out.line(format_args!("{:gutter$} | {}", "", shown.carets))
}
