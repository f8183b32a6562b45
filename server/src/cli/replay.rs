//! `ctlpgn replay FILE [--json]`: the main line of every record, ply by ply, with the PDTL after
//! each ply (and in JSON the check it gives), up to the first half-move that stops the replay,
//! and the record's diagnostics.
//!
//! Each record is reported from itself alone ([`record_report`] is given one record): picking
//! every record's diagnostics out of the whole file's made the command quadratic in the number
//! of records (100,000 records took 55 s).

use serde_json::json;

use super::arguments::ReplayArguments;
use super::input::{read_input, ReadFailure};
use super::output::{error_line, Output, OutputFailed};
use super::terminal::visible;
use super::{place_record, Placed, Status};
use ctlpgn_core::analysis::{printed_pdtl, NoPdtl};
use ctlpgn_core::analysis::{AnalysedRecord, Keep, PlayedHalfMove};
use ctlpgn_core::diagnostics::Severity;
use ctlpgn_core::notation::Check;
use ctlpgn_core::pieces::Side;
use ctlpgn_core::text::LineIndex;

/// Runs `replay`: 0 when no diagnostic is an error, 1 when one is (or the file is not UTF-8),
/// 2 when the file cannot be read.
pub fn run(arguments: &ReplayArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    let input = match read_input(&arguments.file, arguments.limit.max_input_size) {
        Ok(input) => input,
        Err(failure @ ReadFailure::NotUtf8 { .. }) => {
            error_line(&format!("ctlpgn replay: {failure}"));
            return Ok(Status::Findings);
        }
        Err(failure) => {
            error_line(&format!("ctlpgn replay: {failure}"));
            return Ok(Status::Failure);
        }
    };
    let text = &input.text;
    let lines = LineIndex::new(text);
    let records = super::analyse(text, Keep::Everything, false);
    let mut status = Status::Clean;
    for (index, record) in records.iter().enumerate() {
        let report = record_report(text, &lines, record);
        if report.diagnostics.iter().any(|p| p.diagnostic.severity == Severity::Error) {
            status = Status::Findings;
        }
        if arguments.json {
            print_json(out, index, &report)?;
        } else {
            print_text(out, index, &report)?;
        }
    }
    Ok(status)
}

/// What `replay` says about one record.
#[derive(Debug)]
struct RecordReport<'a> {
    plies: Vec<Ply<'a>>,
    diagnostics: Vec<Placed<'a>>,
}

/// One half-move of the main line, and the position after it.
#[derive(Debug)]
struct Ply<'a> {
    number_in_line: usize,
    half_move: &'a PlayedHalfMove,
    written: &'a str,
    line: usize,
    /// The PDTL after the ply, or why no PDTL may hold that position (after a half-move only
    /// the rule checks flag, P010): we never print a PDTL that `check` rejects.
    pdtl: Result<String, NoPdtl>,
}

/// The report of one record, from its own half-moves and diagnostics.
fn record_report<'a>(
    text: &'a str,
    lines: &LineIndex,
    record: &'a AnalysedRecord,
) -> RecordReport<'a> {
    let plies = record
        .analysis
        .main_line()
        .enumerate()
        .map(|(ply, half_move)| {
            let start = record.range.start + half_move.range.start;
            let end = record.range.start + half_move.move_end;
            Ply {
                number_in_line: ply + 1,
                half_move,
                written: &text[start..end],
                line: lines.line_of(start) + 1,
                pdtl: printed_pdtl(&half_move.after, &record.analysis.identifiers),
            }
        })
        .collect();
    RecordReport {
        plies,
        diagnostics: place_record(text, lines, record.range.start, record.analysis.reported(false)),
    }
}

fn print_json(
    out: &mut Output<'_>,
    index: usize,
    report: &RecordReport<'_>,
) -> Result<(), OutputFailed> {
    let object = json!({
        "record": index + 1,
        "plies": report.plies.iter().map(|ply| json!({
            "ply": ply.number_in_line,
            "number": ply.half_move.number,
            "side": ply.half_move.side.letter().to_string(),
            "move": ply.written,
            "line": ply.line,
            "pdtl": ply.pdtl.as_ref().ok(),
            "check": ctlpgn_core::replay::check_given(&ply.half_move.after).map(Check::as_str),
        })).collect::<Vec<_>>(),
        "diagnostics": report.diagnostics.iter().map(|p| json!({
            "code": p.diagnostic.code.as_str(),
            "name": p.diagnostic.code.name(),
            "severity": p.diagnostic.severity.as_str(),
            "line": p.start.0,
            "column": p.start.1,
            "message": p.diagnostic.message,
        })).collect::<Vec<_>>(),
    });
    out.line(format_args!("{object}"))
}

fn print_text(
    out: &mut Output<'_>,
    index: usize,
    report: &RecordReport<'_>,
) -> Result<(), OutputFailed> {
    out.line(format_args!("record {}", index + 1))?;
    for ply in &report.plies {
        let dots = if ply.half_move.side == Side::White { "." } else { "…" };
        out.line(format_args!(
            "  {:>4}  {:>3}{dots} {:<16} line {:<5} {}",
            ply.number_in_line,
            ply.half_move.number,
            visible(ply.written),
            ply.line,
            visible(&ply.pdtl.as_ref().map_or_else(NoPdtl::to_string, String::clone))
        ))?;
    }
    for p in &report.diagnostics {
        out.line(format_args!(
            "  {}:{}: {}[{}]: {}",
            p.start.0,
            p.start.1,
            p.diagnostic.severity.as_str(),
            p.diagnostic.code,
            visible(&p.diagnostic.message)
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_report_holds_only_that_record() {
        // Each record has an error at its own move; the second record's report must hold the
        // second record's alone, placed in the file's lines.
        let record = "[Variant \"C'escacs\"]\n1. E9-E13:\n*\n\n";
        let text = record.repeat(3);
        let lines = LineIndex::new(&text);
        let records = super::super::analyse(&text, Keep::Everything, false);
        assert_eq!(records.len(), 3);
        let report = record_report(&text, &lines, &records[1]);
        let errors: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|p| p.diagnostic.code.as_str() == "K001")
            .map(|p| p.start)
            .collect();
        assert_eq!(errors, [(6, 4)]);
        assert!(report.diagnostics.iter().all(|p| records[1].range.contains(p.offset)));
    }
}
