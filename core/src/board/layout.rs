//! Where the SVG board puts things: hex centres, the edge labels and the drawing's extent, in
//! whole drawing units, for either orientation.
//!
//! The hexes are flat-topped and stand in vertical columns (handbook §3.1): one step along a
//! column (two lines) is one hex height, and a neighbouring column is half a hex higher or
//! lower, so line `l` sits `l` half-heights above line 0. A regular hexagon 28 units wide is
//! 24.25 units high; drawing it 24 high (1% flatter, which no eye sees) puts every centre and
//! corner on whole units, which keeps the document short and its numbers exact.

use crate::geometry::{line_range, Hex, COLUMNS, LAST_LINE};

/// Half the width of a hex: its corners left and right of the centre.
pub const HALF_WIDTH: i32 = 14;

/// Half the height of a hex, which is also the vertical distance from one line to the next.
pub const HALF_HEIGHT: i32 = 12;

/// Horizontal distance between neighbouring columns (three quarters of a hex's width).
pub const COLUMN_STEP: i32 = 21;

/// How far a label's centre stands off the edge of the hexes it names.
const LABEL_OFFSET: i32 = 13;

/// The highest column index.
const LAST_COLUMN: i32 = COLUMNS.len() as i32 - 1;

/// A point of the drawing; `y` grows downwards, as in SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// The centre of the place `(column, line)`, on the board or not (labels stand off it).
/// White sits at the bottom; `flipped` turns the board half a turn, Black at the bottom.
fn place(column: i32, line: i32, flipped: bool) -> Point {
    let (column, line) =
        if flipped { (LAST_COLUMN - column, line) } else { (column, i32::from(LAST_LINE) - line) };
    Point { x: column * COLUMN_STEP, y: line * HALF_HEIGHT }
}

/// The centre of a hex.
pub fn centre(hex: Hex, flipped: bool) -> Point {
    place(i32::from(hex.column()), i32::from(hex.line()), flipped)
}

/// The corners of the hex around the origin, for an SVG path: flat top and bottom.
pub fn hex_path() -> String {
    let (w, h, half) = (HALF_WIDTH, HALF_HEIGHT, HALF_WIDTH / 2);
    format!("M{w} 0L{half} {h}H-{half}L-{w} 0L-{half}-{h}H{half}Z")
}

/// The drawing's extent: `(x, y, width, height)` of the SVG view box, the board and its labels
/// with a small margin. The same in both orientations, since flipping is a half turn about
/// the central hex F14.
pub fn view_box() -> (i32, i32, i32, i32) {
    let margin = 6;
    let left = -HALF_WIDTH - 2 * LABEL_OFFSET - margin;
    let top = -2 * LABEL_OFFSET - margin;
    let right = LAST_COLUMN * COLUMN_STEP + HALF_WIDTH + 2 * LABEL_OFFSET + margin;
    let bottom = i32::from(LAST_LINE) * HALF_HEIGHT + 2 * LABEL_OFFSET + margin;
    (left, top, right - left, bottom - top)
}

/// What a label on the edge of the board says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelText {
    Line(u8),
    Column(char),
}

/// One label on the edge of the board: its text and where its centre stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    pub text: LabelText,
    pub at: Point,
}

/// The line numbers, left and right of the board, each on the height of its line, and the
/// column letters, under the first and over the last hex of each column, so that a letter
/// sits against the column it names whatever the column's length.
pub fn labels(flipped: bool) -> Vec<Label> {
    let mut labels = Vec::with_capacity(2 * (usize::from(LAST_LINE) + 1 + COLUMNS.len()));
    let left = -HALF_WIDTH - LABEL_OFFSET;
    let right = LAST_COLUMN * COLUMN_STEP + HALF_WIDTH + LABEL_OFFSET;
    for line in 0..=LAST_LINE {
        let y = place(0, i32::from(line), flipped).y;
        for x in [left, right] {
            labels.push(Label { text: LabelText::Line(line), at: Point { x, y } });
        }
    }
    for (column, &letter) in COLUMNS.iter().enumerate() {
        let (first, last) = line_range(column as u8);
        let [a, b] = [first, last].map(|line| place(column as i32, i32::from(line), flipped));
        let (top, bottom) = (a.y.min(b.y), a.y.max(b.y));
        let reach = HALF_HEIGHT + LABEL_OFFSET - 4;
        for y in [top - reach, bottom + reach] {
            labels.push(Label { text: LabelText::Column(letter), at: Point { x: a.x, y } });
        }
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ALL_HEXES;

    #[test]
    fn neighbouring_hexes_touch_and_do_not_overlap() {
        let f14 = centre(Hex::from_letter('F', 14).expect("F14"), false);
        let g15 = centre(Hex::from_letter('G', 15).expect("G15"), false);
        let f16 = centre(Hex::from_letter('F', 16).expect("F16"), false);
        // Along a column: one hex height; to the next column: three quarters of a width and
        // half a height, so the slanted edges meet.
        assert_eq!((f16.x - f14.x, f14.y - f16.y), (0, 2 * HALF_HEIGHT));
        assert_eq!((g15.x - f14.x, f14.y - g15.y), (COLUMN_STEP, HALF_HEIGHT));
        assert_eq!(COLUMN_STEP * 4, 3 * 2 * HALF_WIDTH);
    }

    #[test]
    fn white_is_at_the_bottom_and_flipping_is_a_half_turn_about_f14() {
        let at = |name: char, line, flipped| {
            centre(Hex::from_letter(name, line).expect("a hex"), flipped)
        };
        assert!(at('F', 0, false).y > at('F', 28, false).y);
        assert!(at('P', 7, false).x < at('Z', 7, false).x);
        let middle = at('F', 14, false);
        assert_eq!(middle, at('F', 14, true));
        for hex in ALL_HEXES {
            let (upright, flipped) = (centre(hex, false), centre(hex, true));
            assert_eq!(
                (upright.x + flipped.x, upright.y + flipped.y),
                (2 * middle.x, 2 * middle.y)
            );
        }
    }

    #[test]
    fn every_hex_and_label_lies_inside_the_view_box() {
        let (x, y, width, height) = view_box();
        let inside = |p: Point, dx: i32, dy: i32| {
            p.x - dx >= x && p.x + dx <= x + width && p.y - dy >= y && p.y + dy <= y + height
        };
        for flipped in [false, true] {
            assert!(ALL_HEXES.iter().all(|&hex| inside(
                centre(hex, flipped),
                HALF_WIDTH,
                HALF_HEIGHT
            )));
            assert!(labels(flipped).iter().all(|label| inside(label.at, 7, 6)));
        }
    }
}
