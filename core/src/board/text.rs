//! A monospace picture of a position (handbook §3.1), for hovers: the 29 transversal lines
//! from line 28 at the top to line 0 at the bottom (or the other way round, flipped), each hex
//! drawn under its column, so that the board's hexagon shows.
//!
//! Every column gets two character cells, and a line only holds every other column, so the
//! hexes of a line stand four cells apart and the lines interleave like the board's hexes. A
//! piece is its placement character in the record's identifier set (upper case White, lower
//! case Black, or FAN figurines); an empty hex is `·`; a marked hex is bracketed `[K]`.

use crate::geometry::{Hex, COLUMNS, LAST_LINE};
use crate::identifiers::IdentifierSet;
use crate::position::Position;

/// The mark of an empty hex.
const EMPTY: char = '·';

/// The width of the line numbers on the left edge, with the space after them.
const LABEL_WIDTH: usize = 3;

/// The width of the picture in characters: its widest row, with a bracketed hex in the last
/// column. No line of the picture is wider, whatever the position, marks and orientation.
pub const WIDTH: usize = x_of(COLUMNS.len() - 1, false) + 2;

/// The character column of a board column's hexes; flipped, column Z comes first.
const fn x_of(column: usize, flipped: bool) -> usize {
    let slot = if flipped { COLUMNS.len() - 1 - column } else { column };
    LABEL_WIDTH + 2 * slot + 1
}

/// The picture of `position` with White at the bottom, the hexes of `marked` bracketed; lines
/// end with `\n`.
pub fn picture(position: &Position, ids: &IdentifierSet, marked: &[Hex]) -> String {
    oriented_picture(position, ids, marked, false)
}

/// The picture of `position`, with Black at the bottom when `flipped` (line 0 at the top and
/// column Z on the left, the board turned half a turn as a player sees it from Black's side).
pub fn oriented_picture(
    position: &Position,
    ids: &IdentifierSet,
    marked: &[Hex],
    flipped: bool,
) -> String {
    let width = WIDTH;
    let mut out = String::with_capacity((width + 1) * (usize::from(LAST_LINE) + 2) * 2);
    let lines: Vec<u8> =
        if flipped { (0..=LAST_LINE).collect() } else { (0..=LAST_LINE).rev().collect() };
    for line in lines {
        let mut row = vec![' '; width];
        for (i, digit) in format!("{line:>2}").chars().enumerate() {
            row[i] = digit;
        }
        for hex in (0..COLUMNS.len() as u8).filter_map(|column| Hex::new(column, line)) {
            let x = x_of(usize::from(hex.column()), flipped);
            row[x] = position.get(hex).map_or(EMPTY, |piece| ids.placement_char(piece));
            if marked.contains(&hex) {
                row[x - 1] = '[';
                row[x + 1] = ']';
            }
        }
        push_row(&mut out, &row);
    }
    let mut letters = vec![' '; width];
    for (column, &letter) in COLUMNS.iter().enumerate() {
        letters[x_of(column, flipped)] = letter;
    }
    push_row(&mut out, &letters);
    out
}

fn push_row(out: &mut String, row: &[char]) {
    let end = row.iter().rposition(|&c| c != ' ').map_or(0, |last| last + 1);
    out.extend(&row[..end]);
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The initial position with the hexes of White's first move K4-K6 marked.
    const INITIAL: &str = "\
28                v
27              d   k
26            g   j   g
25          r   n   n   r
24        p   e   j   e   p
23      p   p   e   e   p   p
22    ·   ·   p   j   p   ·   ·
21  ·   ·   ·   p   p   ·   ·   ·
20    ·   ·   ·   p   ·   ·   ·
19  ·   ·   ·   ·   ·   ·   ·   ·
18    ·   ·   ·   ·   ·   ·   ·
17  ·   ·   ·   ·   ·   ·   ·   ·
16    ·   ·   ·   ·   ·   ·   ·
15  ·   ·   ·   ·   ·   ·   ·   ·
14    ·   ·   ·   ·   ·   ·   ·
13  ·   ·   ·   ·   ·   ·   ·   ·
12    ·   ·   ·   ·   ·   ·   ·
11  ·   ·   ·   ·   ·   ·   ·   ·
10    ·   ·   ·   ·   ·   ·   ·
 9  ·   ·   ·   ·   ·   ·   ·   ·
 8    ·   ·   ·   P   ·   ·   ·
 7  ·   ·   ·   P   P   ·   ·   ·
 6    ·   ·   P   J   P  [·]  ·
 5      P   P   E   E   P   P
 4        P   E   J   E  [P]
 3          R   N   N   R
 2            G   J   G
 1              D   K
 0                V
    P T A B C D E F G H I K L X Z
";

    #[test]
    fn the_initial_position_is_drawn_as_a_hexagon() {
        let marked =
            [Hex::from_letter('K', 4), Hex::from_letter('K', 6)].map(|hex| hex.expect("a hex"));
        assert_eq!(picture(&Position::initial(), &IdentifierSet::standard(), &marked), INITIAL);
    }

    #[test]
    fn figurines_stand_for_the_pieces_when_the_record_uses_fan() {
        let picture = picture(&Position::initial(), &IdentifierSet::fan(), &[]);
        assert!(picture.lines().next().is_some_and(|row| row.ends_with('\u{1FA52}')));
        assert!(picture.lines().nth(28).is_some_and(|row| row.ends_with('\u{1FA4F}')));
    }
}
