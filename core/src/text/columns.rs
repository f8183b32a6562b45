//! Lines and columns as an editor counts them: 0-based lines, and columns in bytes (UTF-8) or
//! in UTF-16 code units (the protocol's default, and what a browser's strings count), between
//! them and byte offsets of a rope. The edges (the language server, the web build) convert
//! once, where a position comes in or goes out, with these two functions.
//!
//! Lines end at `\n`, `\r\n` and `\r` only, as LSP says, which is why ropey is built without
//! its Unicode line breaks. A UTF-16 column counts a figurine such as `🩐` twice and `×` or `…`
//! once. Every conversion clamps instead of panicking.

use ropey::Rope;

/// How columns are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Columns {
    /// In bytes.
    Utf8,
    /// In UTF-16 code units.
    #[default]
    Utf16,
}

/// A place as an editor names it: a 0-based line and a column counted in some `Columns`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineColumn {
    pub line: u32,
    pub column: u32,
}

/// The line and column of a byte offset; an offset past the end is the end of the text.
pub fn line_column(rope: &Rope, offset: usize, columns: Columns) -> LineColumn {
    let offset = offset.min(rope.len_bytes());
    let line = rope.byte_to_line(offset);
    let line_start = rope.line_to_byte(line);
    let column = match columns {
        Columns::Utf8 => offset - line_start,
        // A record starts its line: no characters to count, which costs four lookups more.
        Columns::Utf16 if offset == line_start => 0,
        Columns::Utf16 => {
            rope.char_to_utf16_cu(rope.byte_to_char(offset))
                - rope.char_to_utf16_cu(rope.byte_to_char(line_start))
        }
    };
    LineColumn { line: saturate(line), column: saturate(column) }
}

/// The byte offset of a line and column, always on a character boundary. A line past the end
/// is the end of the text; a column past the end of its line is the end of the line (before
/// its line break); a column inside a character is the start of that character.
pub fn offset(rope: &Rope, place: LineColumn, columns: Columns) -> usize {
    placed(rope, place, columns).0
}

/// [`offset`], or `None` for a column inside a character: between the two halves of a
/// surrogate pair in UTF-16, inside a character's bytes in UTF-8. A change placed there would
/// be moved to the character's start, editing another place than the one its sender meant.
pub fn exact_offset(rope: &Rope, place: LineColumn, columns: Columns) -> Option<usize> {
    let (offset, exact) = placed(rope, place, columns);
    exact.then_some(offset)
}

/// [`offset`], and whether the column was at a character's start (or clamped to an end).
fn placed(rope: &Rope, place: LineColumn, columns: Columns) -> (usize, bool) {
    let line = place.line as usize;
    if line >= rope.len_lines() {
        return (rope.len_bytes(), true);
    }
    let line_start = rope.line_to_byte(line);
    let line_end = line_start + content_length(rope, line);
    let column = place.column as usize;
    match columns {
        Columns::Utf8 => {
            let byte = line_start.saturating_add(column).min(line_end);
            let start = rope.char_to_byte(rope.byte_to_char(byte));
            (start, start == byte)
        }
        Columns::Utf16 => {
            let start_unit = rope.char_to_utf16_cu(rope.byte_to_char(line_start));
            let end_unit = rope.char_to_utf16_cu(rope.byte_to_char(line_end));
            let unit = start_unit.saturating_add(column).min(end_unit);
            let character = rope.utf16_cu_to_char(unit);
            (rope.char_to_byte(character), rope.char_to_utf16_cu(character) == unit)
        }
    }
}

/// The length in bytes of a line without its line break.
fn content_length(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let length = slice.len_bytes();
    let last = |back: usize| if length >= back { Some(slice.byte(length - back)) } else { None };
    match (last(2), last(1)) {
        (Some(b'\r'), Some(b'\n')) => length - 2,
        (_, Some(b'\n' | b'\r')) => length - 1,
        _ => length,
    }
}

/// A count as a `u32`; documents beyond 4 GiB are not a concern, but a conversion must still
/// not panic.
fn saturate(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_bytes_or_utf16_units_and_come_back_to_the_same_offsets() {
        let text = "[White \"Zoë\"]\r\n1. K4×K6 🩐 ‐ … ◇\rx\n";
        let rope = Rope::from_str(text);
        let figurine = text.find('🩐').expect("in the text");
        let utf16 = line_column(&rope, figurine + 4, Columns::Utf16);
        assert_eq!(utf16, LineColumn { line: 1, column: 11 });
        let utf8 = line_column(&rope, figurine + 4, Columns::Utf8);
        assert_eq!(utf8, LineColumn { line: 1, column: 14 });
        for (at, _) in text.char_indices() {
            // Inside `\r\n` is no place of its own: it is the end of its line.
            if text[..at].ends_with('\r') && text[at..].starts_with('\n') {
                continue;
            }
            for columns in [Columns::Utf8, Columns::Utf16] {
                let place = line_column(&rope, at, columns);
                assert_eq!(offset(&rope, place, columns), at, "{columns:?} {place:?}");
            }
        }
    }

    #[test]
    fn places_outside_the_text_clamp() {
        let rope = Rope::from_str("ab\n🩐c");
        assert_eq!(offset(&rope, LineColumn { line: 9, column: 0 }, Columns::Utf16), 8);
        assert_eq!(offset(&rope, LineColumn { line: 0, column: 99 }, Columns::Utf16), 2);
        // Inside the surrogate pair: the start of the figurine.
        assert_eq!(offset(&rope, LineColumn { line: 1, column: 1 }, Columns::Utf16), 3);
        assert_eq!(line_column(&rope, 99, Columns::Utf8), LineColumn { line: 1, column: 5 });
    }

    #[test]
    fn a_column_inside_a_character_has_no_exact_offset() {
        let rope = Rope::from_str(
            "a😀b
é",
        );
        let at = |line, column, columns| exact_offset(&rope, LineColumn { line, column }, columns);
        assert_eq!(at(0, 1, Columns::Utf16), Some(1));
        assert_eq!(at(0, 2, Columns::Utf16), None, "between the halves of the pair");
        assert_eq!(at(0, 3, Columns::Utf16), Some(5));
        assert_eq!(at(0, 2, Columns::Utf8), None, "inside the emoji's bytes");
        assert_eq!(at(1, 1, Columns::Utf8), None);
        assert_eq!(at(1, 2, Columns::Utf8), Some(9));
        // Past the ends: clamped, as every client may ask.
        assert_eq!(at(0, 99, Columns::Utf16), Some(6));
        assert_eq!(at(7, 0, Columns::Utf8), Some(9));
    }
}
