//! PDTL, the position description by transversal lines (handbook §9): parsing with the P-codes and canonical printing.
//!
//! [`parse`] never fails: it returns every problem it finds, each anchored as §14 says (P001,
//! P009 and P010 at the start of the value, P002-P008 at the offending line segment, the
//! other codes at the offending field), and the position unless an error made it unusable.
//! Fields are read independently so that one bad field does not hide the problems of the
//! others; the checks that compare fields (P013, P015) run only when the fields they compare
//! were read without error, so that one mistake is not reported twice.
//!
//! Decisions beyond the handbook: spaces before the first or after the last field are
//! tolerated like runs of spaces between fields; the whole-board checks P009/P010 are skipped
//! when a line segment had an error (the board is then incomplete); several unknown characters
//! in one segment give one P007; a segment with no cell (`8:`) is P006 (it describes 0 hexes).

mod castling_field;
mod placement;
mod print;
mod special_field;
#[cfg(test)]
mod tests;

pub use print::{
    castling_text, print, write_castling, write_castling_part, write_pdtl, write_placement,
    write_special,
};

use crate::diagnostics::{Code, Severity};
use crate::identifiers::IdentifierSet;
use crate::pieces::Side;
use crate::position::Position;
use crate::text::TextRange;

/// One P-code finding inside a PDTL value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlProblem {
    pub code: Code,
    pub severity: Severity,
    /// Byte range inside the PDTL text that was parsed.
    pub range: TextRange,
    pub message: String,
}

/// The result of reading a PDTL: the position unless an error made it unusable, and every
/// problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlReading {
    /// `None` exactly when a problem has [`Severity::Error`].
    pub position: Option<Position>,
    pub problems: Vec<PdtlProblem>,
}

/// The problems found so far; the field readers add to it.
#[derive(Debug, Default)]
struct Problems {
    list: Vec<PdtlProblem>,
}

impl Problems {
    fn push(
        &mut self,
        code: Code,
        severity: Severity,
        range: TextRange,
        message: impl Into<String>,
    ) {
        self.list.push(PdtlProblem { code, severity, range, message: message.into() });
    }

    fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.push(code, Severity::Error, range, message);
    }

    fn warning(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.push(code, Severity::Warning, range, message);
    }

    fn error_count(&self) -> usize {
        self.list.iter().filter(|problem| problem.severity == Severity::Error).count()
    }
}

/// The byte ranges of the fields: maximal runs of characters other than a space.
fn split_fields(text: &str) -> Vec<TextRange> {
    let mut fields = Vec::with_capacity(6);
    let mut start = None;
    for (offset, byte) in text.bytes().enumerate() {
        match (byte == b' ', start) {
            (true, Some(begin)) => {
                fields.push(TextRange::new(begin, offset));
                start = None;
            }
            (false, None) => start = Some(offset),
            _ => {}
        }
    }
    if let Some(begin) = start {
        fields.push(TextRange::new(begin, text.len()));
    }
    fields
}

/// Reads a PDTL value with the identifiers of `ids` (§9.7): the position and every P-code
/// problem, with ranges inside `text`.
pub fn parse(text: &str, ids: &IdentifierSet) -> PdtlReading {
    let mut problems = Problems::default();
    let fields = split_fields(text);
    check_field_count(text, fields.len(), &mut problems);

    let mut position = Position::empty();
    let placement_ok = match fields.first() {
        Some(field) => placement::read_placement(text, *field, ids, &mut position, &mut problems),
        None => false,
    };
    let turn = fields.get(1).and_then(|field| read_turn(text, *field, &mut problems));
    let castling = fields.get(2).and_then(|field| {
        castling_field::read_castling(text, *field, ids, &mut problems).map(|read| (read, *field))
    });
    let special = fields.get(3).and_then(|field| {
        special_field::read_special(text, *field, &mut problems).map(|read| (read, *field))
    });
    let halfmove_clock = match fields.get(4) {
        Some(field) => read_halfmove_clock(text, *field, &mut problems),
        None => Some(0),
    };
    let move_number = match fields.get(5) {
        Some(field) => read_move_number(text, *field, &mut problems),
        None => Some(None),
    };

    if placement_ok {
        if let Some((castling, range)) = &castling {
            castling_field::check_castling(&position, castling, *range, ids, &mut problems);
        }
    }
    if let (true, Some(turn), Some((special, range))) = (placement_ok, turn, &special) {
        position.turn = turn;
        if let Some(message) = special_field::special_problem(&position, special) {
            problems.error(
                Code::P015,
                *range,
                format!("special-capture field {}: {message}", &text[*range]),
            );
        }
    }

    let usable = problems.error_count() == 0;
    let position = match (usable, turn, castling, special, halfmove_clock, move_number) {
        (
            true,
            Some(turn),
            Some((castling, _)),
            Some((special, _)),
            Some(halfmove_clock),
            Some(move_number),
        ) => {
            position.turn = turn;
            position.castling = castling.rights;
            position.special = special.to_special();
            position.halfmove_clock = halfmove_clock;
            position.move_number = move_number;
            Some(position)
        }
        _ => None,
    };
    PdtlReading { position, problems: problems.list }
}

/// P001 (§9.6): fields 1-4 are mandatory, 5-6 may be left out (a warning), more is an error.
fn check_field_count(text: &str, count: usize, problems: &mut Problems) {
    let range = TextRange::new(0, text.len());
    match count {
        6 => {}
        5 => problems.warning(Code::P001, range, "PDTL has only 5 fields (move number missing)"),
        4 => problems.warning(Code::P001, range, "PDTL has only 4 fields (halfmove clock and move number missing)"),
        0 => problems.error(
            Code::P001,
            range,
            "PDTL is empty: expected 6 fields (placement, turn, castling, special-capture field, halfmove clock, move number)",
        ),
        1..=3 => problems.error(
            Code::P001,
            range,
            format!(
                "PDTL has only {count} field{}: placement, turn, castling and special-capture field are required, 6 fields in all",
                if count == 1 { "" } else { "s" }
            ),
        ),
        _ => problems.error(
            Code::P001,
            range,
            format!(
                "PDTL has {count} fields: expected 6 (placement, turn, castling, special-capture field, halfmove clock, move number)"
            ),
        ),
    }
}

/// Field 2 (§9.3): `w` or `b`.
fn read_turn(text: &str, field: TextRange, problems: &mut Problems) -> Option<Side> {
    match &text[field] {
        "w" => Some(Side::White),
        "b" => Some(Side::Black),
        other => {
            problems.error(
                Code::P011,
                field,
                format!("turn {other} is not w or b: write w (White to move) or b (Black to move)"),
            );
            None
        }
    }
}

/// Whether a field is a lone hyphen, `-` or `‐`.
fn is_lone_hyphen(written: &str) -> bool {
    matches!(written, "-" | "\u{2010}")
}

/// Field 5 (§9.6): a non-negative integer; the implementation's `-` is read as 0 with a warning.
fn read_halfmove_clock(text: &str, field: TextRange, problems: &mut Problems) -> Option<u32> {
    let written = &text[field];
    if is_lone_hyphen(written) {
        problems.warning(
            Code::P016,
            field,
            "legacy halfmove clock -: write 0 when it is unknown (read as 0)",
        );
        return Some(0);
    }
    if !written.bytes().all(|b| b.is_ascii_digit()) {
        problems.error(
            Code::P016,
            field,
            format!("halfmove clock {written} is not a non-negative integer: write the half-moves since the last pawn move or capture (0 if unknown)"),
        );
        return None;
    }
    match written.parse::<u32>() {
        Ok(clock) => Some(clock),
        Err(_) => {
            problems.error(Code::P016, field, format!("halfmove clock {written} is too large"));
            None
        }
    }
}

/// Field 6 (§9.6): a positive integer or `?` (unknown); the implementation's `-` is read as
/// unknown with a warning.
fn read_move_number(text: &str, field: TextRange, problems: &mut Problems) -> Option<Option<u32>> {
    let written = &text[field];
    if written == "?" {
        return Some(None);
    }
    if is_lone_hyphen(written) {
        problems.warning(
            Code::P017,
            field,
            "legacy move number -: write ? for an unknown move number (read as unknown)",
        );
        return Some(None);
    }
    let why = if !written.bytes().all(|b| b.is_ascii_digit()) {
        format!("move number {written} is not a positive integer or ?")
    } else if written.bytes().all(|b| b == b'0') {
        format!("move number {written}: moves are numbered from 1 (write ? when unknown)")
    } else if written.starts_with('0') {
        format!(
            "move number {written} has a leading zero: write {}",
            placement::leading_zeros_removed(written)
        )
    } else {
        match written.parse::<u32>() {
            Ok(number) => return Some(Some(number)),
            Err(_) => format!("move number {written} is too large"),
        }
    };
    problems.error(Code::P017, field, why);
    None
}

/// Why the special-capture field of a position does not fit its board and turn (the P015
/// test of §9.5), or `None` when it fits. For positions built outside a PDTL.
pub fn special_capture_problem(position: &Position) -> Option<String> {
    special_field::special_problem(
        position,
        &special_field::WrittenSpecial::from_special(&position.special),
    )
}
