//! The place of a file that `pdtl` and `board` take a position from: a line and column (the
//! half-move there, in any line of play) or a ply of a record's main line; the file read, its
//! record found, refused with one message when the record does not replay or the place has no
//! position.

use std::path::Path;

use super::input::{read_input, ReadFailure};
use super::output::error_line;
use super::Status;
use ctlpgn_core::analysis::PlayedHalfMove;
use ctlpgn_core::analysis::{position_after_ply, position_at, NoPosition};
use ctlpgn_core::conversion::{parse_records, ParsedRecord};
use ctlpgn_core::diagnostics::Severity;
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::position::Position;
use ctlpgn_core::text::LineIndex;

/// Where the position is taken.
#[derive(Clone, Copy, Debug)]
pub(super) enum Place {
    /// A 1-based line and column (in characters) of the file.
    At { line: usize, column: usize },
    /// After the `ply`-th half-move of a record's main line (0: its start); `record` is the
    /// 1-based number given with `--record`.
    Ply { ply: usize, record: Option<usize> },
}

impl Place {
    /// The place `--at` or `--ply` (with `--record`) names; `None` when neither is given.
    pub(super) fn from_arguments(
        at: Option<(usize, usize)>,
        ply: Option<usize>,
        record: Option<u64>,
    ) -> Option<Place> {
        match (at, ply) {
            (Some((line, column)), _) => Some(Place::At { line, column }),
            (None, Some(ply)) => Some(Place::Ply {
                ply,
                record: record.map(|record| usize::try_from(record).unwrap_or(usize::MAX)),
            }),
            (None, None) => None,
        }
    }
}

/// The position at a place, with what the record knows of it.
#[derive(Debug)]
pub(super) struct Located {
    pub position: Position,
    pub identifiers: IdentifierSet,
    /// The replayed half-move that led to the position; `None` at the record's start.
    pub played: Option<PlayedHalfMove>,
}

/// The position at `place` of `file`, or the status to end with after saying why not on
/// standard error (`command` names the command in the message): 1 when the record does not
/// replay or the place has no position (or the file is not UTF-8), 2 on a read error or a place
/// outside the file.
pub(super) fn locate(
    command: &str,
    file: &Path,
    max_input_size: u64,
    place: Place,
) -> Result<Located, Status> {
    let input = read_input(file, max_input_size).map_err(|failure| {
        error_line(&format!("ctlpgn {command}: {failure}"));
        if matches!(failure, ReadFailure::NotUtf8 { .. }) {
            Status::Findings
        } else {
            Status::Failure
        }
    })?;
    let text = &input.text;
    let records = parse_records(text);
    let lines = LineIndex::new(text);
    let found = match place {
        Place::At { line, column } => find_at(text, &lines, &records, line, column),
        Place::Ply { ply, record } => find_ply(&records, ply, record),
    };
    let (index, offset) = found.map_err(|message| {
        error_line(&format!("ctlpgn {command}: {}: {message}", input.name));
        Status::Failure
    })?;
    let record = &records[index];
    if let Some(error) =
        record.analysis.diagnostics.iter().find(|diagnostic| diagnostic.severity == Severity::Error)
    {
        let (line, column) = lines.line_column(text, record.range.start + error.range.start);
        error_line(&format!(
            "ctlpgn {command}: {}:{line}:{column}: record {} does not replay: error[{}]: {} [{}]",
            input.name,
            index + 1,
            error.code,
            error.message,
            error.code.name()
        ));
        return Err(Status::Findings);
    }
    let position = match (place, offset) {
        (Place::Ply { ply, .. }, _) => position_after_ply(&record.analysis, ply),
        (Place::At { .. }, Some(offset)) => {
            position_at(record.text(text), &record.syntax, &record.analysis, offset)
        }
        (Place::At { .. }, None) => Err(NoPosition::Unknown),
    };
    let position = position.map_err(|reason| {
        error_line(&format!("ctlpgn {command}: {}: record {}: {reason}", input.name, index + 1));
        Status::Findings
    })?;
    // The half-move whose position this is: the one that holds it (the start holds none).
    let played = record.analysis.played.iter().find(|played| std::ptr::eq(&played.after, position));
    Ok(Located {
        position: position.clone(),
        identifiers: record.analysis.identifiers.clone(),
        played: played.cloned(),
    })
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
            record.range.contains(offset)
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
