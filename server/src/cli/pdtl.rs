//! `ctlpgn pdtl FILE (--at LINE:COL | --ply N [--record K]) [--letters]`: the PDTL of the
//! position at a place of a record, ready to paste into a `PDTL` tag or the web board. The
//! place is a line and column of the file (the half-move there, in any line of play), or a
//! ply of a record's main line.

use super::{is_option, read_inputs, Arguments, ReadFailure};
use crate::conversion::{parse_records, position_after_ply, position_at, ParsedRecord};
use crate::diagnostics::Severity;
use crate::identifiers::IdentifierSet;
use crate::pdtl;
use crate::text::LineIndex;

const USAGE: &str = "usage: ctlpgn pdtl FILE (--at LINE:COL | --ply N [--record K]) [--letters] (- reads standard input)";

/// Where the position is taken.
#[derive(Debug)]
enum Place {
    /// A 1-based line and column (in characters) of the file.
    At { line: usize, column: usize },
    /// After the `ply`-th half-move of a record's main line (0: its start); `record` is the
    /// 1-based number given with `--record`.
    Ply { ply: usize, record: Option<usize> },
}

/// What the command line asked for.
#[derive(Debug)]
struct Request {
    path: String,
    place: Place,
    /// Print the standard letters whatever the record's `Redefine`.
    letters: bool,
}

/// Runs `pdtl` with the arguments after the subcommand; returns the exit status: 0 when the
/// PDTL is printed, 1 when the record does not replay, 2 on a usage or read error or a place
/// outside the file.
pub fn run_pdtl(arguments: &[String]) -> i32 {
    let request = match read_request(arguments) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("ctlpgn pdtl: {message}\n{USAGE}");
            return 2;
        }
    };
    let input = match read_inputs(std::slice::from_ref(&request.path)) {
        Ok(mut inputs) => inputs.remove(0),
        Err(failure) => {
            eprintln!("ctlpgn pdtl: {failure}");
            return if matches!(failure, ReadFailure::NotUtf8 { .. }) { 1 } else { 2 };
        }
    };
    let text = &input.text;
    let records = parse_records(text);
    let lines = LineIndex::new(text);
    let found = match request.place {
        Place::At { line, column } => find_at(text, &lines, &records, line, column),
        Place::Ply { ply, record } => find_ply(&records, ply, record),
    };
    let (index, offset) = match found {
        Ok(found) => found,
        Err(message) => {
            eprintln!("ctlpgn pdtl: {}: {message}", input.name);
            return 2;
        }
    };
    let record = &records[index];
    if let Some(error) =
        record.analysis.diagnostics.iter().find(|diagnostic| diagnostic.severity == Severity::Error)
    {
        let (line, column) = lines.line_column(text, record.range.start + error.range.start);
        eprintln!(
            "ctlpgn pdtl: {}:{line}:{column}: record {} does not replay: error[{}]: {} [{}]",
            input.name,
            index + 1,
            error.code,
            error.message,
            error.code.name()
        );
        return 1;
    }
    let position = match (&request.place, offset) {
        (Place::Ply { ply, .. }, _) => position_after_ply(&record.analysis, *ply),
        (Place::At { .. }, Some(offset)) => {
            position_at(record.text(text), &record.syntax, &record.analysis, offset)
        }
        (Place::At { .. }, None) => None,
    };
    let Some(position) = position else {
        eprintln!("ctlpgn pdtl: {}: record {}: no position is known there", input.name, index + 1);
        return 1;
    };
    let identifiers = if request.letters {
        IdentifierSet::standard()
    } else {
        record.analysis.identifiers.clone()
    };
    println!("{}", pdtl::print(position, &identifiers));
    0
}

/// The record holding `LINE:COL` and the offset in it.
fn find_at(
    text: &str,
    lines: &LineIndex,
    records: &[ParsedRecord],
    line: usize,
    column: usize,
) -> Result<(usize, Option<usize>), String> {
    let offset =
        offset_of(text, lines, line, column).ok_or(format!("the file has no line {line}"))?;
    let index = records
        .iter()
        .position(|record| {
            record.range.contains(&offset)
                || (offset == text.len() && record.range.end == text.len())
        })
        .ok_or(format!("{line}:{column} is not inside a record"))?;
    Ok((index, Some(offset - records[index].range.start)))
}

/// The byte offset of a 1-based line and column (in characters, a leading byte-order mark not
/// counted); a column past the end of its line means the line's end.
fn offset_of(text: &str, lines: &LineIndex, line: usize, column: usize) -> Option<usize> {
    if line == 0 || line - 1 > lines.line_of(text.len()) {
        return None;
    }
    let mut start = lines.line_start(line - 1);
    if start == 0 && text.starts_with('\u{FEFF}') {
        start = '\u{FEFF}'.len_utf8();
    }
    let line_text = &text[start..];
    let line_end = line_text.find(['\n', '\r']).unwrap_or(line_text.len());
    let within = line_text[..line_end]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(line_end, |(at, _)| at);
    Some(start + within)
}

/// The record `--ply` speaks of: the one named by `--record`, or the only one.
fn find_ply(
    records: &[ParsedRecord],
    ply: usize,
    record: Option<usize>,
) -> Result<(usize, Option<usize>), String> {
    let index = match record {
        Some(number) if number >= 1 && number <= records.len() => number - 1,
        Some(number) => {
            return Err(format!("there is no record {number}: the file holds {}", records.len()))
        }
        None if records.len() == 1 => 0,
        None if records.is_empty() => return Err("the file holds no record".to_string()),
        None => {
            return Err(format!(
                "the file holds {} records: say which with --record K",
                records.len()
            ))
        }
    };
    let plies = records[index].analysis.main_line().count();
    if ply > plies {
        return Err(format!("record {}'s main line has {plies} half-moves, not {ply}", index + 1));
    }
    Ok((index, None))
}

fn read_request(arguments: &[String]) -> Result<Request, String> {
    let mut path = None;
    let mut at = None;
    let mut ply = None;
    let mut record = None;
    let mut letters = false;
    let mut arguments = Arguments::new(arguments);
    while let Some((flag, inline_value)) = arguments.next_argument() {
        let mut value = || arguments.value(flag, inline_value);
        match flag {
            "--at" => {
                let written = value()?;
                let place = written
                    .split_once(':')
                    .and_then(|(line, column)| {
                        Some((line.parse::<usize>().ok()?, column.parse::<usize>().ok()?))
                    })
                    .filter(|&(line, column)| line >= 1 && column >= 1)
                    .ok_or(format!("--at takes LINE:COL, both from 1, not {written}"))?;
                at = Some(place);
            }
            "--ply" => {
                let written = value()?;
                ply =
                    Some(written.parse::<usize>().map_err(|_| {
                        format!("--ply takes a number of half-moves, not {written}")
                    })?);
            }
            "--record" => {
                let written = value()?;
                record = Some(written.parse::<usize>().map_err(|_| {
                    format!("--record takes a record number from 1, not {written}")
                })?);
            }
            "--letters" if inline_value.is_none() => letters = true,
            _ if is_option(flag) => return Err(format!("unknown option {flag}")),
            _ if path.is_none() => path = Some(flag.to_string()),
            _ => return Err(format!("one file only, not {flag} as well")),
        }
    }
    let path = path.ok_or("no file given")?;
    let place = match (at, ply) {
        (Some((line, column)), None) if record.is_none() => Place::At { line, column },
        (Some(_), None) => {
            return Err("--record goes with --ply; --at names a place in the file".to_string())
        }
        (None, Some(ply)) => Place::Ply { ply, record },
        (Some(_), Some(_)) => return Err("give --at or --ply, not both".to_string()),
        (None, None) => return Err("say where: --at LINE:COL or --ply N".to_string()),
    };
    Ok(Request { path, place, letters })
}
