//! Reading PDTL field 1, the placement (handbook §9.2): line segments `l:cells` between
//! slashes, with the per-segment codes P002-P008 and the whole-board codes P009 and P010.

use super::Problems;
use crate::geometry::{Hex, HexColour, ALL_HEXES, LAST_LINE};
use crate::identifiers::IdentifierSet;
use crate::pieces::{PieceKind, Side};
use crate::position::Position;
use crate::text::TextRange;

/// How many hexes a transversal line has (§3.1): `m + 1` near the vertices, then 8 on odd
/// lines and 7 on even lines.
fn line_length(line: u8) -> usize {
    let m = line.min(LAST_LINE - line);
    if m >= 7 {
        if line % 2 == 1 {
            8
        } else {
            7
        }
    } else {
        usize::from(m) + 1
    }
}

/// The hexes of a line from column P to column Z: a slice of [`ALL_HEXES`], which lists the
/// lines from 28 down to 0.
pub(super) fn line_hexes(line: u8) -> &'static [Hex] {
    let start: usize = (line + 1..=LAST_LINE).map(line_length).sum();
    &ALL_HEXES[start..start + line_length(line)]
}

/// The column letters of a line, for messages (`T B D F H K X`).
fn column_letters(hexes: &[Hex]) -> String {
    let mut out = String::with_capacity(hexes.len() * 2);
    for (i, hex) in hexes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(hex.column_letter());
    }
    out
}

/// Reads the placement field at `field` of `text` onto the board of `position`. Returns
/// whether the placement is usable, i.e. raised no error.
pub(super) fn read_placement(
    text: &str,
    field: TextRange,
    ids: &IdentifierSet,
    position: &mut Position,
    problems: &mut Problems,
) -> bool {
    let errors_before = problems.error_count();
    let written = &text[field];

    // The inside of the outer slashes; a missing slash is reported at the segment it touches.
    let mut inner = field;
    if written.starts_with('/') {
        inner.start += 1;
    }
    if inner.end > inner.start && text[inner].ends_with('/') {
        inner.end -= 1;
    }
    if inner.is_empty() {
        problems.error(
            super::Code::P002,
            field,
            format!("placement {written} describes no line: write each line with pieces as /l:cells/, e.g. /1:DK/"),
        );
        return false;
    }
    let segments = split_segments(text, inner);
    if !written.starts_with('/') {
        let first = segments.first().cloned().unwrap_or(field);
        problems.error(
            super::Code::P002,
            first,
            "placement must start with /: write /28:…/…/0:…/, each line segment between slashes",
        );
    }
    if inner.end == field.end {
        let last = segments.last().cloned().unwrap_or(field);
        problems.error(
            super::Code::P002,
            last,
            "placement must end with /: every line segment is closed by a slash",
        );
    }

    let mut listed = [false; LAST_LINE as usize + 1];
    let mut previous: Option<u8> = None;
    for segment in segments {
        read_segment(text, segment, ids, &mut listed, &mut previous, position, problems);
    }

    if problems.error_count() > errors_before {
        // Counting Kings and pieces on a board that was only partly read would blame the
        // whole board for what one segment got wrong.
        return false;
    }
    check_board(position, TextRange::new(0, field.end), problems);
    problems.error_count() == errors_before
}

/// The byte ranges of the segments between the slashes of `inner`.
fn split_segments(text: &str, inner: TextRange) -> Vec<TextRange> {
    let mut segments = Vec::with_capacity(20);
    let mut start = inner.start;
    for (offset, byte) in text[inner].bytes().enumerate() {
        if byte == b'/' {
            segments.push(TextRange::new(start, inner.start + offset));
            start = inner.start + offset + 1;
        }
    }
    segments.push(TextRange::new(start, inner.end));
    segments
}

/// Reads one line segment `l:cells`.
fn read_segment(
    text: &str,
    segment: TextRange,
    ids: &IdentifierSet,
    listed: &mut [bool; LAST_LINE as usize + 1],
    previous: &mut Option<u8>,
    position: &mut Position,
    problems: &mut Problems,
) {
    let written = &text[segment];
    if written.is_empty() {
        // An empty range would not show; point at the slash that closes nothing.
        problems.error(
            super::Code::P002,
            TextRange::new(segment.start.saturating_sub(1), segment.start),
            "empty line segment (two slashes in a row): each segment is l: followed by the hexes of line l",
        );
        return;
    }
    let Some((number, cells)) = written
        .split_once(':')
        .filter(|(number, _)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()))
    else {
        problems.error(
            super::Code::P002,
            segment,
            format!("segment {written} has no line number: a segment is l: followed by the hexes of line l, e.g. 8:3P3"),
        );
        return;
    };
    if number.len() > 1 && number.starts_with('0') {
        problems.error(
            super::Code::P003,
            segment,
            format!(
                "line number {number} has a leading zero: write {}",
                leading_zeros_removed(number)
            ),
        );
        return;
    }
    let line = match number.parse::<u8>() {
        Ok(line) if line <= LAST_LINE => line,
        _ => {
            problems.error(
                super::Code::P003,
                segment,
                format!("line {number} does not exist: lines run from 0 to 28"),
            );
            return;
        }
    };
    if listed[usize::from(line)] {
        problems.error(
            super::Code::P004,
            segment,
            format!(
                "line {line} is listed twice: describe each line once (the second one is ignored)"
            ),
        );
        return;
    }
    listed[usize::from(line)] = true;
    if let Some(before) = *previous {
        if line > before {
            problems.warning(
                super::Code::P005,
                segment,
                format!(
                    "line {line} comes after line {before}: lines are listed from 28 down to 0"
                ),
            );
        }
    }
    *previous = Some(line);

    let hexes = line_hexes(line);
    let mut cursor = 0usize;
    let mut any_piece = false;
    let mut unknown: Option<char> = None;
    let mut zero_digit = false;
    let mut adjacent: Option<usize> = None;
    let mut after_digit = false;
    let mut run_start = 0;
    for (offset, ch) in cells.char_indices() {
        if let Some(value) = ch.to_digit(10) {
            if value == 0 {
                zero_digit = true;
            }
            if after_digit {
                adjacent.get_or_insert(run_start);
            } else {
                run_start = offset;
            }
            after_digit = true;
            cursor += value as usize;
            continue;
        }
        after_digit = false;
        match ids.read_placement_char(ch) {
            Some(piece) => {
                if let Some(&hex) = hexes.get(cursor) {
                    position.set(hex, Some(piece));
                }
                any_piece = true;
            }
            None => {
                unknown.get_or_insert(ch);
            }
        }
        cursor += 1;
    }

    if let Some(ch) = unknown {
        problems.error(
            super::Code::P007,
            segment,
            format!("line {line}: {}", ids.placement_char_problem(ch)),
        );
    }
    if cursor != hexes.len() {
        problems.error(
            super::Code::P006,
            segment,
            format!(
                "line {line} is described with {cursor} hexes but has {} ({}): every hex is a piece or counted in a digit",
                hexes.len(),
                column_letters(hexes)
            ),
        );
    }
    let mut style = Vec::new();
    // A segment whose length is wrong already has its error; calling it empty adds nothing.
    if !any_piece && unknown.is_none() && cursor == hexes.len() {
        style.push(format!("line {line} holds no piece: omit lines without pieces"));
    }
    if zero_digit {
        style.push(format!("digit 0 in line {line}: a run of empty hexes is written 1 to 8"));
    }
    if let Some(start) = adjacent {
        let digits: String = cells[start..].chars().take_while(char::is_ascii_digit).collect();
        let sum: u32 = digits.chars().filter_map(|c| c.to_digit(10)).sum();
        style.push(format!("adjacent digits {digits} in line {line}: write one digit per run of empty hexes ({sum})"));
    }
    if !style.is_empty() {
        problems.warning(super::Code::P008, segment, style.join("; "));
    }
}

/// A decimal number without its leading zeros (`08` is `8`, `00` is `0`).
pub(super) fn leading_zeros_removed(number: &str) -> &str {
    match number.trim_start_matches('0') {
        "" => "0",
        rest => rest,
    }
}

/// The plural of a piece name, for counts in messages.
fn plural(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "pawns",
        PieceKind::Elephant => "Elephants",
        PieceKind::Bishop => "Bishops",
        PieceKind::Knight => "Knights",
        PieceKind::Pegasus => "Pegasi",
        PieceKind::Rook => "Rooks",
        PieceKind::Wyvern => "Wyverns",
        PieceKind::Queen => "Queens",
        PieceKind::King => "Kings",
    }
}

/// The whole-board checks (§9.2 step 5): one King per side (P009), at most the starting
/// number of each kind and one Bishop per hex colour (P010).
fn check_board(position: &Position, range: TextRange, problems: &mut Problems) {
    let mut counts = [[0usize; 9]; 2];
    let mut bishops: [[Vec<Hex>; 3]; 2] = Default::default();
    for (hex, piece) in position.pieces() {
        counts[piece.side.index()][piece.kind as usize] += 1;
        if piece.kind == PieceKind::Bishop {
            let colour = HexColour::ALL.iter().position(|&c| c == hex.colour()).unwrap_or(0);
            bishops[piece.side.index()][colour].push(hex);
        }
    }
    for side in [Side::White, Side::Black] {
        let kings = counts[side.index()][PieceKind::King as usize];
        if kings != 1 {
            problems.error(
                super::Code::P009,
                range,
                if kings == 0 {
                    format!(
                        "{} has no King: the placement needs exactly one King per side",
                        side.name()
                    )
                } else {
                    format!(
                        "{} has {kings} Kings: the placement needs exactly one King per side",
                        side.name()
                    )
                },
            );
        }
    }
    for side in [Side::White, Side::Black] {
        for kind in PieceKind::ALL {
            let count = counts[side.index()][kind as usize];
            if kind != PieceKind::King && count > kind.maximum_per_side() {
                problems.error(
                    super::Code::P010,
                    range,
                    format!(
                        "{} has {count} {}: a side has at most {} {}",
                        side.name(),
                        plural(kind),
                        kind.maximum_per_side(),
                        if kind.maximum_per_side() == 1 { kind.name() } else { plural(kind) }
                    ),
                );
            }
        }
        for (colour, hexes) in HexColour::ALL.iter().zip(&bishops[side.index()]) {
            if hexes.len() > 1 {
                let names: Vec<String> = hexes.iter().map(Hex::to_string).collect();
                problems.error(
                    super::Code::P010,
                    range,
                    format!(
                        "{} has {} Bishops on {} hexes ({}): a side's Bishops stand on hexes of different colours",
                        side.name(),
                        hexes.len(),
                        colour.name(),
                        names.join(", ")
                    ),
                );
            }
        }
    }
}

/// Whether a placement respects P009 and P010; for building test positions.
#[cfg(test)]
pub(super) fn board_is_valid(position: &Position) -> bool {
    let mut problems = Problems::default();
    check_board(position, TextRange::empty(0), &mut problems);
    problems.list.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_sliced_from_the_board_order() {
        assert_eq!(column_letters(line_hexes(28)), "F");
        assert_eq!(column_letters(line_hexes(23)), "A C E G I L");
        assert_eq!(column_letters(line_hexes(21)), "P A C E G I L Z");
        assert_eq!(column_letters(line_hexes(8)), "T B D F H K X");
        assert_eq!(column_letters(line_hexes(0)), "F");
        for line in 0..=LAST_LINE {
            assert!(line_hexes(line).iter().all(|hex| hex.line() == line));
        }
        let total: usize = (0..=LAST_LINE).map(|line| line_hexes(line).len()).sum();
        assert_eq!(total, 169);
    }

    use crate::pieces::Piece;

    fn piece(side: Side, kind: PieceKind) -> Option<Piece> {
        Some(Piece::new(side, kind))
    }

    #[test]
    fn a_board_without_a_black_king_is_invalid() {
        let mut position = Position::empty();
        position.set(Hex::from_letter('G', 1).unwrap(), piece(Side::White, PieceKind::King));
        assert!(!board_is_valid(&position));
        position.set(Hex::from_letter('G', 27).unwrap(), piece(Side::Black, PieceKind::King));
        assert!(board_is_valid(&position));
    }
}
