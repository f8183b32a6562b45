//! `ctlpgn check PATH...`: every diagnostic as `path:line:col: severity[code]: message` with a
//! caret excerpt, a JSON array with `--format json`, or GitHub Actions' workflow commands with
//! `--format github`; exit status 1 when any error. Folders are walked for `*.ctl-pgn` files
//! (`walk`), the files checked on every core and reported in the order of their paths, then
//! a summary on standard error (`--quiet` leaves it out). With `--rules` the optional rule
//! checks (R-codes, warnings) are reported too; `--statistics` prints a count per code instead
//! of the diagnostics; `--fix` applies the fixes the editor's fix-all applies (each proven by a
//! replay, `analysis::proven_fixes`) and reports what is left, `--diff` shows them instead.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::json;

use super::arguments::{CheckArguments, ReportFormat};
use super::colour::Paint;
use super::diff::unified_diff;
use super::excerpt::excerpt;
use super::input::{read_entry, Input, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::parts::record_parts;
use super::streams::names_a_stream;
use super::terminal::visible;
use super::write::replace_file;
use super::{place_record, Placed, Status};
use crate::walk::Entry;
use ctlpgn_core::analysis::Keep;
use ctlpgn_core::diagnostics::{Code, Diagnostic, Severity};
use ctlpgn_core::document::Document;
use ctlpgn_core::ide::actions::fix_all;
use ctlpgn_core::parallel::map_chunks;
use ctlpgn_core::text::{apply_edits, LineIndex};

/// How the findings of a file are written.
#[derive(Clone, Copy, Debug)]
struct Style {
    format: ReportFormat,
    paint: Paint,
    rules: bool,
}

/// Runs `check`: 0 when no diagnostic is an error, 1 when one is (or a file is not UTF-8),
/// 2 when a file or folder cannot be read or a fix cannot be written (the other files are
/// still checked).
pub fn run(arguments: &CheckArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    if arguments.diff && arguments.format == ReportFormat::Json {
        // Diffs before the array would make standard output something no JSON reader takes.
        error_line(
            "ctlpgn check: --diff prints diffs, which --format json cannot hold; use one or the \
             other (--fix with --format json lists what is left after the fixes)",
        );
        return Ok(Status::Failure);
    }
    let fixing = arguments.fix || arguments.diff;
    if fixing {
        if let Some(stream) = arguments.files.iter().find(|path| names_a_stream(path)) {
            error_line(&format!(
                "ctlpgn check: --fix and --diff work on files; {} is a stream (standard \
                 input, a pipe or a device). Check it without them, or save it to a file.",
                stream.display()
            ));
            return Ok(Status::Failure);
        }
    }
    let (entries, messages) = super::walk_arguments("check", &arguments.files, arguments.no_ignore);
    let mut status = Status::Clean;
    for message in &messages {
        error_line(message);
        status = Status::Failure;
    }
    let style = Style {
        format: arguments.format,
        paint: Paint::for_stdout(arguments.color),
        rules: arguments.rules,
    };
    let mode = match (arguments.diff, arguments.fix) {
        (true, _) => Mode::Diff,
        (false, true) => Mode::Fix,
        (false, false) => Mode::Report,
    };
    let checked = map_chunks(&entries, |part: &[Entry]| {
        part.iter()
            .map(|entry| check_path(entry, arguments.limit.max_input_size, style, mode))
            .collect()
    });
    let mut totals = Totals { failures: messages.len(), ..Totals::default() };
    let mut items = Vec::new();
    for file in checked {
        if !arguments.statistics {
            out.bytes(&file.printed)?;
        }
        if let Some(failure) = &file.failure {
            error_line(failure);
        }
        status = status.max(file.status);
        totals.add(&file);
        items.extend(file.json);
    }
    if arguments.statistics {
        print_statistics(out, &totals, arguments.format)?;
    } else if arguments.format == ReportFormat::Json {
        out.line(format_args!("{}", serde_json::Value::Array(items)))?;
    }
    if !arguments.quiet {
        // After the findings have all gone out: a reader that went away, or a full disk,
        // ends the command with its own message alone.
        out.flush()?;
        error_line(&totals.summary(mode));
    }
    Ok(status)
}

/// What `check` does with the fixes it finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Report the diagnostics, and count the fixable ones.
    Report,
    /// Write the fixes, then report what is left.
    Fix,
    /// Show the fixes as a diff; write nothing.
    Diff,
}

/// One file checked: what to print for it, in order with the others.
#[derive(Debug, Default)]
struct Checked {
    printed: Vec<u8>,
    json: Vec<serde_json::Value>,
    /// A message for standard error: the file could not be read or written.
    failure: Option<String>,
    status: Status,
    /// The diagnostics reported, by severity: errors, warnings, hints.
    counts: [usize; 3],
    /// The diagnostics reported, by code.
    codes: BTreeMap<Code, usize>,
    /// The diagnostics the fix-all would fix (`Mode::Report`), or fixed (`Mode::Fix`) or would
    /// fix (`Mode::Diff`).
    fixable: usize,
    /// Whether the file was read (it counts among the files checked).
    read: bool,
    /// Whether its fixes changed it (written, or shown in the diff).
    changed: bool,
    /// Whether it could not be read or written.
    failed: bool,
}

fn check_path(entry: &Entry, limit: u64, style: Style, mode: Mode) -> Checked {
    let mut checked = Checked::default();
    let mut printed = Vec::new();
    let mut out = Output::new(Box::new(&mut printed));
    let mut report =
        Report { style, json: Vec::new(), status: Status::Clean, tally: Tally::default() };
    // With --diff, standard output holds the diff alone: the diagnostics are counted, not shown.
    let mut sink = std::io::sink();
    let mut counted = Output::new(Box::new(&mut sink));
    let shown = if mode == Mode::Diff { &mut counted } else { &mut out };
    let mut diff = String::new();
    let result = match read_entry(entry, limit) {
        Ok(input) => {
            checked.read = true;
            match mode {
                Mode::Report => {
                    let result = report.file(shown, &input.name, Ok(&input.text));
                    // What --fix would really fix: a fix it refuses (one that adds a problem)
                    // does not count.
                    if report.tally.fixable > 0 {
                        report.tally.fixable = fixed_text(&input.text, style.rules).1;
                    }
                    result
                }
                Mode::Fix | Mode::Diff => match fix(&input, style.rules, mode) {
                    Ok((text, fixed)) => {
                        if mode == Mode::Diff {
                            diff = unified_diff(&input.name, &input.text, &text);
                        }
                        report.tally.fixed = fixed;
                        report.tally.changed = text != input.text;
                        if mode == Mode::Diff && report.tally.changed {
                            // As fmt --diff: something to change is a finding.
                            report.status = Status::Findings;
                        }
                        // --fix reports what is left; --diff counts what the file holds now.
                        let reported = if mode == Mode::Fix { &text } else { &input.text };
                        report.file(shown, &input.name, Ok(reported))
                    }
                    Err(message) => {
                        checked.failure = Some(format!("ctlpgn check: {message}"));
                        report.status = Status::Failure;
                        report.file(shown, &input.name, Ok(&input.text))
                    }
                },
            }
        }
        Err(ReadFailure::NotUtf8 { name, valid_up_to }) => {
            checked.read = true;
            report.file(shown, &name, Err(valid_up_to))
        }
        Err(failure) => {
            checked.failure = Some(format!("ctlpgn check: {failure}"));
            report.status = Status::Failure;
            Ok(())
        }
    };
    // Writing to memory does not fail.
    let _ = result.and_then(|()| out.text(&diff)).and_then(|()| out.flush());
    drop((out, counted));
    checked.printed = printed;
    checked.json = report.json;
    checked.status = checked.status.max(report.status);
    checked.counts = report.tally.counts;
    checked.codes = report.tally.codes;
    checked.fixable = if mode == Mode::Report { report.tally.fixable } else { report.tally.fixed };
    checked.failed = checked.failure.is_some();
    checked.changed = report.tally.changed;
    checked
}

/// The file's text once the fix-all's fixes are made, and how many diagnostics they fixed;
/// written back in `Mode::Fix` by the rules of `fmt` (atomically, never over a file changed
/// since it was read), shown as a diff in `Mode::Diff`; an error (nothing written) counts no
/// fix.
fn fix(input: &Input, rules: bool, mode: Mode) -> Result<(String, usize), String> {
    let (fixed, gone) = fixed_text(&input.text, rules);
    if fixed != input.text && mode == Mode::Fix {
        let file = input.file.as_ref().ok_or_else(|| format!("{}: not a file", input.name))?;
        replace_file(file, input.text.as_bytes(), fixed.as_bytes())?;
    }
    Ok((fixed, gone))
}

/// `text` with the fix-all's fixes made, record by record, and how many of the problems listed
/// they fixed.
fn fixed_text(text: &str, rules: bool) -> (String, usize) {
    let parts = record_parts(text);
    // On every core, as the analysis of a file is: records are independent.
    let fixed_parts = map_chunks(&parts, |chunk: &[&str]| {
        chunk.iter().map(|part| fixed_record(part, rules)).collect()
    });
    let mut fixed = String::with_capacity(text.len());
    let mut gone = 0;
    for (part, part_gone) in fixed_parts {
        fixed.push_str(&part);
        gone += part_gone;
    }
    (fixed, gone)
}

/// One record's text with the fix-all's fixes made, in rounds until a round changes nothing or
/// lists more problems than the one before: the fix-all leaves out a fix that overlaps another
/// (two renumberings of one line), and a renumbering may leave the next one to do. Each round
/// that changes the text changes a line at least, so the rounds are bounded by the record's
/// lines. Returns how many problems fewer it lists.
fn fixed_record(text: &str, rules: bool) -> (Cow<'_, str>, usize) {
    // Each text is analysed once, as the document the fix-all works on, which also counts
    // what it lists.
    let listed = |document: &Document| -> usize {
        document.records().iter().map(|record| record.state.reported(rules).count()).sum()
    };
    let mut document = Document::new(text, 1);
    let (mut fixed, mut left) = (Cow::Borrowed(text), listed(&document));
    let before = left;
    let most_rounds = text.lines().count() + 1;
    for _ in 0..most_rounds {
        let Some(action) = fix_all(&document, rules) else { break };
        let next = apply_edits(&fixed, &action.edits);
        // A round whose fixes together open another record (a Variant tag added, then a tag
        // renamed Variant) would change what the file holds, not mend it.
        if next == *fixed || record_parts(&next).len() != record_parts(text).len() {
            break;
        }
        let next_document = Document::new(&next, 1);
        let next_left = listed(&next_document);
        if next_left > left {
            break;
        }
        (fixed, document, left) = (Cow::Owned(next), next_document, next_left);
    }
    (fixed, before.saturating_sub(left))
}

/// What `ctlpgn check` prints for a file shown as `name` that holds `bytes`, with the rule
/// checks when `rules` (as `--rules`): the same lines as the command, for the manual's
/// examples of each code.
pub fn check_output(name: &str, bytes: &[u8], rules: bool) -> String {
    let mut printed = Vec::new();
    let mut out = Output::new(Box::new(&mut printed));
    let style = Style { format: ReportFormat::Human, paint: Paint::none(), rules };
    let mut report =
        Report { style, json: Vec::new(), status: Status::Clean, tally: Tally::default() };
    let text = std::str::from_utf8(bytes).map_err(|error| error.valid_up_to());
    report
        .file(&mut out, name, text)
        .and_then(|()| out.flush())
        .expect("writing to memory does not fail");
    drop(out);
    String::from_utf8(printed).expect("check prints UTF-8")
}

/// What was found in one file.
#[derive(Debug, Default)]
struct Tally {
    counts: [usize; 3],
    codes: BTreeMap<Code, usize>,
    fixable: usize,
    fixed: usize,
    changed: bool,
}

/// The report `check` is writing for one file: lines, or items of the JSON array.
struct Report {
    style: Style,
    json: Vec<serde_json::Value>,
    status: Status,
    tally: Tally,
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
                self.tally.counts[0] += 1;
                *self.tally.codes.entry(Code::S000).or_default() += 1;
                let message = Diagnostic::not_utf8(valid_up_to).message;
                return match self.style.format {
                    ReportFormat::Json => {
                        self.json.push(json!({"path": name, "code": "S000", "name": Code::S000.name(), "severity": "error", "line": 1, "column": 1, "end_line": 1, "end_column": 1, "message": message}));
                        Ok(())
                    }
                    ReportFormat::Github => out.line(format_args!(
                        "::error file={},line=1,col=1,title={}::{}",
                        github_property(&visible(name)),
                        github_property(&format!("S000 {}", Code::S000.name())),
                        github_message(&message)
                    )),
                    ReportFormat::Human => out.line(format_args!(
                        "{}:1:1: error[S000]: {message} [{}]",
                        visible(name),
                        Code::S000.name()
                    )),
                };
            }
        };
        let rules = self.style.rules;
        let records = super::analyse(text, Keep::Findings, rules);
        // The file's lines are indexed once something is to be placed in them: a clean file
        // needs no index, and indexing it before the analysis held up the cores.
        let lines = std::cell::OnceCell::new();
        for record in &records {
            let reported = record.analysis.reported(rules);
            if reported.is_empty() {
                continue;
            }
            let lines = lines.get_or_init(|| LineIndex::new(text));
            for item in place_record(text, lines, record.range.start, reported) {
                let diagnostic = item.diagnostic;
                if diagnostic.severity == Severity::Error {
                    self.status = self.status.max(Status::Findings);
                }
                self.tally.counts[severity_index(diagnostic.severity)] += 1;
                *self.tally.codes.entry(diagnostic.code).or_default() += 1;
                self.tally.fixable += usize::from(diagnostic.fixes.len() == 1);
                match self.style.format {
                    ReportFormat::Json => self.json.push(json_diagnostic(name, &item)),
                    ReportFormat::Github => print_github(out, name, &item)?,
                    ReportFormat::Human => {
                        print_human(out, name, text, lines, &item, self.style.paint)?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn severity_index(severity: Severity) -> usize {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Hint => 2,
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
    paint: Paint,
) -> Result<(), OutputFailed> {
    let diagnostic = item.diagnostic;
    let (line, column) = item.start;
    let severity = diagnostic.severity;
    out.line(format_args!(
        "{}: {}: {} [{}]",
        paint.bold(&format!("{}:{line}:{column}", visible(path))),
        paint.severity(severity, &format!("{}[{}]", severity.as_str(), diagnostic.code)),
        visible(&diagnostic.message),
        diagnostic.code.name()
    ))?;
    let shown = excerpt(text, lines.line_start(line - 1), item.offset, item.end_offset);
    let gutter = line.to_string().len();
    let bar = paint.dim("|");
    out.line(format_args!("{:gutter$} {bar}", ""))?;
    out.line(format_args!("{} {bar} {}", paint.dim(&line.to_string()), shown.source))?;
    out.line(format_args!("{:gutter$} {bar} {}", "", paint.severity(severity, &shown.carets)))
}

/// A diagnostic as a GitHub Actions workflow command, which the pull request shows on its line.
fn print_github(out: &mut Output<'_>, path: &str, item: &Placed<'_>) -> Result<(), OutputFailed> {
    let diagnostic = item.diagnostic;
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "notice",
    };
    out.line(format_args!(
        "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        github_property(&visible(path)),
        item.start.0,
        item.start.1,
        item.end.0,
        item.end.1,
        github_property(&format!("{} {}", diagnostic.code, diagnostic.code.name())),
        github_message(&diagnostic.message)
    ))
}

/// A workflow command's message, escaped as the runner reads it: `%`, CR and LF.
fn github_message(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: the message's escapes, and `:` and `,` too.
fn github_property(text: &str) -> String {
    github_message(text).replace(':', "%3A").replace(',', "%2C")
}

/// What every file checked adds up to.
#[derive(Debug, Default)]
struct Totals {
    files: usize,
    counts: [usize; 3],
    codes: BTreeMap<Code, usize>,
    fixable: usize,
    changed: usize,
    /// The files and folders that could not be read or written.
    failures: usize,
}

impl Totals {
    fn add(&mut self, file: &Checked) {
        self.files += usize::from(file.read);
        for (total, count) in self.counts.iter_mut().zip(file.counts) {
            *total += count;
        }
        for (&code, &count) in &file.codes {
            *self.codes.entry(code).or_default() += count;
        }
        self.fixable += file.fixable;
        self.changed += usize::from(file.changed && file.fixable > 0);
        self.failures += usize::from(file.failed);
    }

    /// The closing line: what was checked and found, and what `--fix` can do about it.
    fn summary(&self, mode: Mode) -> String {
        let files = plural(self.files, "file");
        let [errors, warnings, hints] = self.counts;
        let fixes = match mode {
            Mode::Report if self.fixable > 0 => {
                format!("; {} fixable with --fix", plural(self.fixable, "problem"))
            }
            Mode::Fix if self.fixable > 0 => format!(
                "; fixed {} in {}",
                plural(self.fixable, "problem"),
                plural(self.changed, "file")
            ),
            Mode::Diff if self.fixable > 0 => format!(
                "; --fix would fix {} in {}",
                plural(self.fixable, "problem"),
                plural(self.changed, "file")
            ),
            _ => String::new(),
        };
        if errors + warnings + hints == 0 && self.failures > 0 {
            // Not "all clean": something was not checked, or a fix not written.
            let failures = plural(self.failures, "failure");
            return format!(
                "ctlpgn check: {files} checked: no problem found; {failures} above{fixes}"
            );
        }
        if errors + warnings + hints == 0 {
            return format!("ctlpgn check: {files} checked: all clean{fixes}");
        }
        format!(
            "ctlpgn check: {files} checked: {}, {}, {}{fixes}",
            plural(errors, "error"),
            plural(warnings, "warning"),
            plural(hints, "hint")
        )
    }
}

pub(super) fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// `--statistics`: one line per code found, the most frequent first.
fn print_statistics(
    out: &mut Output<'_>,
    totals: &Totals,
    format: ReportFormat,
) -> Result<(), OutputFailed> {
    let mut codes: Vec<(&Code, &usize)> = totals.codes.iter().collect();
    codes.sort_by(|(a, count_a), (b, count_b)| count_b.cmp(count_a).then(a.cmp(b)));
    if format == ReportFormat::Json {
        let items: Vec<serde_json::Value> = codes
            .iter()
            .map(
                |(code, count)| json!({"code": code.as_str(), "name": code.name(), "count": count}),
            )
            .collect();
        return out.line(format_args!("{}", serde_json::Value::Array(items)));
    }
    let width = codes.first().map_or(1, |(_, count)| count.to_string().len());
    for (code, count) in codes {
        out.line(format_args!("{count:>width$}  {code}  {}", code.name()))?;
    }
    Ok(())
}
