//! Board geometry (handbook §3): the 15 columns, which lines exist, hex colours, steps and
//! promotion hexes, and the lenient reading of a written coordinate with the C-codes.

use crate::diagnostics::Code;
use crate::pieces::Side;

/// The column letters from White's left to White's right; the index is the column number.
pub const COLUMNS: [char; 15] =
    ['P', 'T', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'K', 'L', 'X', 'Z'];

/// The number of hexes of the board.
pub const HEX_COUNT: usize = 169;

/// The highest transversal line (Black's vertex).
pub const LAST_LINE: u8 = 28;

/// A hex of the board; only valid hexes can be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    column: u8,
    line: u8,
}

/// The three hex colours; the colour depends only on the line (§3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexColour {
    White,
    Black,
    Coloured,
}

impl HexColour {
    /// All three colours, in the order used for Bishops.
    pub const ALL: [HexColour; 3] = [HexColour::White, HexColour::Black, HexColour::Coloured];

    /// The English word for the colour.
    pub fn name(self) -> &'static str {
        match self {
            HexColour::White => "white",
            HexColour::Black => "black",
            HexColour::Coloured => "coloured",
        }
    }
}

/// Distance of a column from the central column F.
fn distance_from_centre(column: u8) -> u8 {
    (i16::from(column) - 7).unsigned_abs() as u8
}

/// First and last line of a column.
pub fn line_range(column: u8) -> (u8, u8) {
    let d = distance_from_centre(column);
    (d, LAST_LINE - d)
}

/// The index in [`ALL_HEXES`] of each of `side`'s promotion hexes, the last hex of every
/// column in its forward direction (§3.5), from column P to column Z: a board looks for pawns
/// awaiting promotion there before every half-move of the rule checks.
pub fn promotion_indices(side: Side) -> &'static [u8; 15] {
    &PROMOTION_INDICES[side.index()]
}

/// White's and Black's promotion hexes by index, column by column: the ends of each column.
const PROMOTION_INDICES: [[u8; 15]; 2] = {
    let mut indices = [[0; 15]; 2];
    let mut column: usize = 0;
    while column < 15 {
        let from_centre = column.abs_diff(7);
        indices[0][column] = INDEX[column][LAST_LINE as usize - from_centre];
        indices[1][column] = INDEX[column][from_centre];
        column += 1;
    }
    indices
};

/// Whether `(column, line)` is a hex of the board (the validity formula of §3.1).
pub fn is_valid(column: i16, line: i16) -> bool {
    // The index table holds the formula's answer for every column and line in its bounds:
    // the coordinates of every half-move and every step of the rule checks are judged here.
    (0..16).contains(&column)
        && (0..32).contains(&line)
        && INDEX[column as usize][line as usize] != u8::MAX
}

/// Precomputed index of every hex, in PDTL order (line 28 down to 0, columns left to right),
/// so that boards can be plain arrays. The table is 16 columns of 32 lines (the spare ones
/// name no hex), so that a hex's index is read with its column and line masked into range and
/// no bounds check: every board access goes through it.
const fn build_index() -> [[u8; 32]; 16] {
    let mut table = [[u8::MAX; 32]; 16];
    let mut next = 0u8;
    let mut line = 28i16;
    while line >= 0 {
        let mut column = 0i16;
        while column < 15 {
            let d = if column > 7 { column - 7 } else { 7 - column };
            if d <= line && line <= 28 - d && (line - d) % 2 == 0 {
                table[column as usize][line as usize] = next;
                next += 1;
            }
            column += 1;
        }
        line -= 1;
    }
    table
}

const INDEX: [[u8; 32]; 16] = build_index();

const fn build_hexes() -> [Hex; HEX_COUNT] {
    let mut hexes = [Hex { column: 0, line: 0 }; HEX_COUNT];
    let mut column = 0;
    while column < 15 {
        let mut line = 0;
        while line < 29 {
            let index = INDEX[column][line];
            if index != u8::MAX {
                hexes[index as usize] = Hex { column: column as u8, line: line as u8 };
            }
            line += 1;
        }
        column += 1;
    }
    hexes
}

/// Every hex, in PDTL order: line 28 first, and within a line from column P to column Z.
pub const ALL_HEXES: [Hex; HEX_COUNT] = build_hexes();

/// The index a step leads to when it leaves the board, in a [`step_table`].
pub const NO_HEX: u8 = u8::MAX;

/// Where each of the steps `(Δcolumn, Δline)` lands from every hex, by index in [`ALL_HEXES`]
/// ([`NO_HEX`] off the board): worked out once, so that the move generation and the attack
/// tests, which take these steps millions of times, look them up instead of checking the
/// board's bounds each time.
pub const fn step_table<const N: usize>(steps: [(i16, i16); N]) -> [[u8; N]; HEX_COUNT] {
    let mut table = [[NO_HEX; N]; HEX_COUNT];
    let mut index = 0;
    while index < HEX_COUNT {
        let from = ALL_HEXES[index];
        let mut step = 0;
        while step < N {
            let column = from.column as i16 + steps[step].0;
            let line = from.line as i16 + steps[step].1;
            if column >= 0 && column < 15 && line >= 0 && line <= LAST_LINE as i16 {
                table[index][step] = INDEX[column as usize][line as usize];
            }
            step += 1;
        }
        index += 1;
    }
    table
}

impl Hex {
    /// The hex at `(column, line)`, if it is on the board.
    pub fn new(column: u8, line: u8) -> Option<Hex> {
        is_valid(i16::from(column), i16::from(line)).then_some(Hex { column, line })
    }

    /// The hex named by a column letter and a line, if it exists.
    pub fn from_letter(letter: char, line: u8) -> Option<Hex> {
        let column = COLUMNS.iter().position(|&c| c == letter)?;
        Hex::new(column as u8, line)
    }

    /// Column index, 0 (P) to 14 (Z).
    pub fn column(self) -> u8 {
        self.column
    }

    /// Transversal line, 0 to 28.
    pub fn line(self) -> u8 {
        self.line
    }

    /// The column letter.
    pub fn column_letter(self) -> char {
        COLUMNS[usize::from(self.column)]
    }

    /// Position of the hex in [`ALL_HEXES`], for array-backed boards.
    pub fn index(self) -> usize {
        // A hex's column and line are always in range: the masks only spare the bounds checks.
        usize::from(INDEX[usize::from(self.column) & 15][usize::from(self.line) & 31])
    }

    /// The hex `(Δcolumn, Δline)` away, if it is on the board.
    pub fn offset(self, delta_column: i16, delta_line: i16) -> Option<Hex> {
        let column = i16::from(self.column) + delta_column;
        let line = i16::from(self.line) + delta_line;
        is_valid(column, line).then_some(Hex { column: column as u8, line: line as u8 })
    }

    /// The colour of the hex (§3.3).
    pub fn colour(self) -> HexColour {
        match self.line % 3 {
            0 => HexColour::Black,
            1 => HexColour::White,
            _ => HexColour::Coloured,
        }
    }

    /// Whether this hex is the last hex of its column in `side`'s forward direction (§3.5).
    pub fn is_promotion_hex(self, side: Side) -> bool {
        let (first, last) = line_range(self.column);
        match side {
            Side::White => self.line == last,
            Side::Black => self.line == first,
        }
    }
}

impl std::fmt::Display for Hex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.line)
    }
}

/// Why written coordinate text is not a hex: the C-code and a message saying what is expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinateError {
    pub code: Code,
    pub message: String,
}

/// Reads a coordinate written as one letter and digits (the lenient lexical form of §6.1) and
/// validates it: unknown column C001, line above 28 or a leading zero C002, wrong parity C003,
/// off the board C004.
#[inline]
pub fn parse_coordinate(text: &str) -> Result<Hex, CoordinateError> {
    // Nearly every coordinate read is a valid hex, asked for with every half-move: read those
    // from the bytes, and spell out what is wrong only for the rest.
    valid_coordinate(text.as_bytes()).map_or_else(|| judge_coordinate(text), Ok)
}

/// [`parse_coordinate`] letter by letter, saying what is wrong. Out of line: the valid
/// coordinates' path, inlined where coordinates are read, stays short.
#[cold]
#[inline(never)]
fn judge_coordinate(text: &str) -> Result<Hex, CoordinateError> {
    let mut chars = text.chars();
    let letter = chars.next().unwrap_or(' ');
    let digits = chars.as_str();
    let error = |code, message: String| Err(CoordinateError { code, message });
    let Some(column) = COLUMNS.iter().position(|&c| c == letter.to_ascii_uppercase()) else {
        return error(
            Code::C001,
            format!(
                "{letter} is not a column letter: the columns are P T A B C D E F G H I K L X Z"
            ),
        );
    };
    let column = column as u8;
    let (first, last) = line_range(column);
    let parity = if first % 2 == 0 { "even" } else { "odd" };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return error(
            Code::C002,
            format!(
                "{text} is not a coordinate: a column letter is followed by a line number 0-28"
            ),
        );
    }
    if digits.len() > 1 && digits.starts_with('0') {
        return error(Code::C002, format!("{text} has a leading zero: write the line without it"));
    }
    let line: u32 = digits.parse().unwrap_or(u32::MAX);
    if line > u32::from(LAST_LINE) {
        return error(Code::C002, format!("{text} is not a hex: lines run from 0 to 28"));
    }
    let line = line as u8;
    let name = COLUMNS[usize::from(column)];
    if line % 2 != first % 2 {
        return error(
            Code::C003,
            format!("{text} is not a hex: column {name} only has {parity} lines {first}-{last}"),
        );
    }
    if line < first || line > last {
        return error(
            Code::C004,
            format!("{text} is off the board: column {name} has lines {first} to {last}"),
        );
    }
    Ok(Hex { column, line })
}

/// The hex a valid coordinate names (a column letter in either case, a line without a leading
/// zero), or `None` for anything [`parse_coordinate`] would report.
pub fn valid_coordinate(bytes: &[u8]) -> Option<Hex> {
    let (&letter, digits) = bytes.split_first()?;
    let column = *COLUMN_OF_LETTER.get(usize::from(letter))?;
    if column == NO_COLUMN {
        return None;
    }
    let line = match *digits {
        [digit] if digit.is_ascii_digit() => digit - b'0',
        [tens @ b'1'..=b'9', units] if units.is_ascii_digit() => (tens - b'0') * 10 + units - b'0',
        _ => return None,
    };
    Hex::new(column, line)
}

/// Not a column letter, in [`COLUMN_OF_LETTER`].
const NO_COLUMN: u8 = u8::MAX;

/// The column of each ASCII letter in either case ([`NO_COLUMN`] for the others): two
/// coordinates are read with every half-move, and a table spares the search of [`COLUMNS`].
const COLUMN_OF_LETTER: [u8; 128] = {
    let mut table = [NO_COLUMN; 128];
    let mut column = 0;
    while column < COLUMNS.len() {
        let letter = COLUMNS[column] as u8;
        table[letter as usize] = column as u8;
        table[letter.to_ascii_lowercase() as usize] = column as u8;
        column += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_169_hexes_in_pdtl_order() {
        assert_eq!(ALL_HEXES.len(), 169);
        assert_eq!(ALL_HEXES[0].to_string(), "F28");
        assert_eq!(ALL_HEXES[168].to_string(), "F0");
        for (i, hex) in ALL_HEXES.iter().enumerate() {
            assert_eq!(hex.index(), i);
        }
    }

    #[test]
    fn the_hexes_are_those_of_the_validity_formula() {
        let mut valid = 0;
        for column in -3..20 {
            for line in -3..40 {
                let d = (column - 7i16).abs();
                let formula = (0..15).contains(&column)
                    && (0..=28).contains(&line)
                    && d <= line
                    && line <= 28 - d
                    && (line - d) % 2 == 0;
                assert_eq!(is_valid(column, line), formula, "{column},{line}");
                valid += usize::from(formula);
            }
        }
        assert_eq!(valid, HEX_COUNT);
    }

    #[test]
    fn a_step_table_lands_where_the_offset_does() {
        let steps = [(0, 2), (1, -3), (-3, 1), (2, 0), (-1, 5), (0, -4), (7, 7)];
        let table = step_table(steps);
        for (index, hex) in ALL_HEXES.iter().enumerate() {
            for (step, &(column, line)) in steps.iter().enumerate() {
                let landed = (table[index][step] != NO_HEX)
                    .then(|| ALL_HEXES[usize::from(table[index][step])]);
                assert_eq!(landed, hex.offset(column, line), "{hex} by {column},{line}");
            }
        }
    }

    #[test]
    fn a_valid_coordinate_is_read_as_judging_it_would() {
        let letters = ('A'..='Z').chain('a'..='z').chain(['×', ' ', '0']);
        let numbers = (0..1000).map(|n| n.to_string()).chain((0..10).map(|n| format!("0{n}")));
        let numbers: Vec<String> = numbers.chain([String::new(), "1a".into()]).collect();
        let mut valid = 0;
        for letter in letters {
            for number in &numbers {
                let text = format!("{letter}{number}");
                let judged = judge_coordinate(&text).ok();
                assert_eq!(valid_coordinate(text.as_bytes()), judged, "{text}");
                valid += usize::from(judged.is_some());
            }
        }
        // Every hex, in both cases of its letter.
        assert_eq!(valid, 2 * HEX_COUNT);
    }

    #[test]
    fn coordinates_are_judged_with_the_handbook_codes() {
        let code = |text| parse_coordinate(text).map_err(|e| e.code);
        assert_eq!(code("F14").map(|h| h.to_string()), Ok("F14".to_string()));
        assert_eq!(code("J9"), Err(Code::C001));
        assert_eq!(code("F30"), Err(Code::C002));
        assert_eq!(code("F08"), Err(Code::C002));
        assert_eq!(code("E8"), Err(Code::C003));
        assert_eq!(code("F13"), Err(Code::C003));
        assert_eq!(code("P5"), Err(Code::C004));
        assert_eq!(code("A3"), Err(Code::C004));
        assert_eq!(code("Z23"), Err(Code::C004));
        assert_eq!(
            parse_coordinate("F3").unwrap_err().message,
            "F3 is not a hex: column F only has even lines 0-28"
        );
    }

    #[test]
    fn colours_and_promotion_hexes_follow_the_handbook() {
        assert_eq!(Hex::from_letter('F', 14).map(Hex::colour), Some(HexColour::Coloured));
        assert_eq!(Hex::from_letter('F', 0).map(Hex::colour), Some(HexColour::Black));
        assert_eq!(Hex::from_letter('F', 28).map(Hex::colour), Some(HexColour::White));
        assert!(Hex::from_letter('T', 22).is_some_and(|h| h.is_promotion_hex(Side::White)));
        assert!(Hex::from_letter('Z', 7).is_some_and(|h| h.is_promotion_hex(Side::Black)));
        for side in [Side::White, Side::Black] {
            let promotion: Vec<Hex> = promotion_indices(side)
                .iter()
                .map(|&index| ALL_HEXES[usize::from(index)])
                .collect();
            let ends = (0..15).map(|column| {
                let (first, last) = line_range(column);
                Hex::new(column, if side == Side::White { last } else { first })
            });
            assert_eq!(promotion, ends.collect::<Option<Vec<Hex>>>().expect("on the board"));
            let marked = ALL_HEXES.iter().filter(|hex| hex.is_promotion_hex(side));
            assert_eq!(marked.count(), promotion.len());
        }
    }
}
