//! `ctlpgn replay FILE [--json]`: the main line of every record, ply by ply, with the PDTL after
//! each ply (and in JSON the check it gives), up to the first half-move that stops the replay,
//! and the record's diagnostics.

use serde_json::json;

use super::{place, read_input};
use crate::analysis::Keep;
use crate::notation::Check;
use crate::pdtl;
use crate::text::LineIndex;

/// Runs `replay` with the arguments after the subcommand; returns the exit status.
pub fn run_replay(arguments: &[String]) -> i32 {
    let json_output = arguments.iter().any(|a| a == "--json");
    let paths: Vec<&String> = arguments.iter().filter(|a| a.as_str() != "--json").collect();
    let [path] = paths.as_slice() else {
        eprintln!("usage: ctlpgn replay FILE [--json] (- reads standard input)");
        return 2;
    };
    let input = match read_input(path) {
        Ok(Ok(input)) => input,
        Ok(Err((name, _))) => {
            eprintln!("ctlpgn replay: {name} is not valid UTF-8");
            return 1;
        }
        Err(message) => {
            eprintln!("ctlpgn replay: {message}");
            return 2;
        }
    };
    let text = &input.text;
    let lines = LineIndex::new(text);
    let records = super::analyse(text, Keep::Everything, false);
    let placed = place(text, &lines, &records, false);
    let mut any_error = false;
    for (index, record) in records.iter().enumerate() {
        let mut plies = Vec::new();
        for (ply, half_move) in record.analysis.main_line().enumerate() {
            let start = record.range.start + half_move.range.start;
            let end = record.range.start + half_move.move_end;
            let position = pdtl::print(&half_move.after, &record.analysis.identifiers);
            plies.push((
                ply + 1,
                half_move,
                &text[start..end],
                lines.line_column(text, start).0,
                position,
            ));
        }
        let diagnostics: Vec<_> = placed
            .iter()
            .filter(|p| {
                p.offset >= record.range.start
                    && p.offset < record.range.end.max(record.range.start + 1)
            })
            .collect();
        any_error |= diagnostics
            .iter()
            .any(|p| p.diagnostic.severity == crate::diagnostics::Severity::Error);
        if json_output {
            let object = json!({
                "record": index + 1,
                "plies": plies.iter().map(|(ply, half_move, written, line, position)| json!({
                    "ply": ply,
                    "number": half_move.number,
                    "side": half_move.side.letter().to_string(),
                    "move": written,
                    "line": line,
                    "pdtl": position,
                    "check": crate::replay::check_given(&half_move.after).map(Check::as_str),
                })).collect::<Vec<_>>(),
                "diagnostics": diagnostics.iter().map(|p| json!({
                    "code": p.diagnostic.code.as_str(),
                    "name": p.diagnostic.code.name(),
                    "severity": p.diagnostic.severity.as_str(),
                    "line": p.start.0,
                    "column": p.start.1,
                    "message": p.diagnostic.message,
                })).collect::<Vec<_>>(),
            });
            println!("{object}");
        } else {
            println!("record {}", index + 1);
            for (ply, half_move, written, line, position) in &plies {
                let dots = if half_move.side == crate::pieces::Side::White { "." } else { "…" };
                println!(
                    "  {ply:>4}  {:>3}{dots} {written:<16} line {line:<5} {position}",
                    half_move.number
                );
            }
            for p in &diagnostics {
                println!(
                    "  {}:{}: {}[{}]: {}",
                    p.start.0,
                    p.start.1,
                    p.diagnostic.severity.as_str(),
                    p.diagnostic.code,
                    p.diagnostic.message
                );
            }
        }
    }
    i32::from(any_error)
}
