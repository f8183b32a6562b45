//! Move lines and half-moves, read token by token as the grammar's lexer reads them (the
//! longest token the parser can take at each place), declining wherever the tree would hold
//! an error or the reading is not certain: blanks inside a half-move, a line end inside a
//! move line, a NAG in the movetext, anything after a half-move that could still belong to it.

use super::cursor::Cursor;
use crate::syntax::chars::{
    is_figurine, is_space_or_tab_byte, is_white_space, is_white_space_byte,
};
use crate::syntax::{HalfMoveText, MoveLine, SpareHalfMoves, Token};
use crate::text::TextRange;

fn token(range: TextRange) -> Option<Token> {
    Some(Token { range })
}

/// Reads a move line whose number starts at the cursor (after its `indentation`, if any) into
/// `line`, an empty move line already in its place among the record's items: building it here
/// to return it was copied at each step up. Its half-moves' box comes from `spares`.
pub(super) fn read_move_line(
    cursor: &mut Cursor<'_>,
    indentation: Option<Token>,
    line: &mut MoveLine,
    spares: &mut SpareHalfMoves,
) -> Option<()> {
    let start = indentation.as_ref().map_or(cursor.pos, |t| t.range.start);
    let number_start = cursor.pos;
    if cursor.digits() == 0 || !matches!(cursor.byte(), Some(b'.' | b'?')) {
        return None;
    }
    cursor.pos += 1;
    line.number = Token { range: TextRange::new(number_start, cursor.pos) };
    // The number stands alone or is followed by a blank (`1.E7` and `1..` are left to the
    // tree: the first is rare, the second could be indentation).
    if cursor.byte().is_some_and(|b| !is_white_space_byte(b)) {
        return None;
    }
    line.range = TextRange::new(start, cursor.pos);
    line.indentation = indentation;
    let after_number = cursor.pos;
    let crossed = cursor.skip_spaces();
    if let Some(ellipsis) = ellipsis_at(cursor) {
        if crossed {
            return None;
        }
        cursor.pos = ellipsis.end;
        line.ellipsis = token(ellipsis);
    } else if starts_half_move(cursor) {
        if crossed {
            return None;
        }
        read_half_move(cursor, line.set_white(HalfMoveText::default(), spares))?;
    } else if cursor.byte() == Some(b'.') {
        return None;
    } else {
        cursor.pos = after_number;
        return Some(());
    }
    line.range.end = cursor.pos;
    let after_first = cursor.pos;
    let crossed = cursor.skip_spaces();
    if cursor.byte() != Some(b',') {
        cursor.pos = after_first;
        return Some(());
    }
    if crossed {
        return None;
    }
    line.comma = token(TextRange::new(cursor.pos, cursor.pos + 1));
    cursor.pos += 1;
    line.range.end = cursor.pos;
    let after_comma = cursor.pos;
    let crossed = cursor.skip_spaces();
    if starts_half_move(cursor) {
        if crossed {
            return None;
        }
        read_half_move(cursor, line.set_black(HalfMoveText::default(), spares))?;
        line.range.end = cursor.pos;
    } else {
        cursor.pos = after_comma;
    }
    Some(())
}

/// `…` or `...` at the cursor, unless more dots follow (then it could be indentation).
fn ellipsis_at(cursor: &Cursor<'_>) -> Option<TextRange> {
    let rest = &cursor.bytes[cursor.pos..];
    // `…` is three bytes in UTF-8, as long as `...`.
    if !rest.starts_with("…".as_bytes()) && !rest.starts_with(b"...") {
        return None;
    }
    let len = 3;
    let mut after = cursor.pos + len;
    while cursor.byte_at(after).is_some_and(is_space_or_tab_byte) {
        after += 1;
    }
    if cursor.byte_at(after) == Some(b'.') {
        return None;
    }
    Some(TextRange::new(cursor.pos, cursor.pos + len))
}

fn starts_half_move(cursor: &Cursor<'_>) -> bool {
    cursor.char_at(cursor.pos).is_some_and(|c| c.is_ascii_alphabetic() || is_figurine(c))
}

/// A piece identifier at `pos` that is not the start of a coordinate: a letter not followed by
/// a digit, or a figurine. Returns its end.
fn piece_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    let c = cursor.char_at(pos)?;
    if c.is_ascii_alphabetic() {
        if cursor.byte_at(pos + 1).is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        return Some(pos + 1);
    }
    is_figurine(c).then(|| pos + c.len_utf8())
}

/// A coordinate `[A-Za-z][0-9]+` at `pos`; returns its end.
fn coordinate_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    if !cursor.byte_at(pos)?.is_ascii_alphabetic() {
        return None;
    }
    let mut end = pos + 1;
    while cursor.byte_at(end).is_some_and(|b| b.is_ascii_digit()) {
        end += 1;
    }
    (end > pos + 1).then_some(end)
}

/// A castling token at `pos` (`KRK-II`, `♔♖♔-II`); returns its end.
fn castling_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    let mut at = pos;
    let mut take = |accept: &dyn Fn(char) -> bool| -> bool {
        match cursor.char_at(at) {
            Some(c) if accept(c) => {
                at += c.len_utf8();
                true
            }
            _ => false,
        }
    };
    let ok = take(&|c| matches!(c, 'K' | '\u{2654}' | '\u{265A}'))
        && take(&|c| c.is_ascii_uppercase() || matches!(c, '\u{2656}' | '\u{265C}'))
        && take(&|c| {
            c.is_ascii_uppercase()
                || matches!(
                    c,
                    '\u{2654}' | '\u{2655}' | '\u{2656}' | '\u{265A}' | '\u{265B}' | '\u{265C}'
                )
        })
        && take(&|c| matches!(c, '-' | '\u{2010}' | '\u{2011}' | '\u{2013}' | '\u{2212}'))
        && take(&|c| c.is_ascii_uppercase());
    if !ok {
        return None;
    }
    while cursor.byte_at(at).is_some_and(|b| b.is_ascii_uppercase()) {
        at += 1;
    }
    Some(at)
}

/// A separator at `pos`; returns its end. `x` before a digit is left to the tree (the
/// separator's precedence against the coordinate `x5` is not worth being sure of).
fn separator_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    let c = cursor.char_at(pos)?;
    match c {
        '@' if cursor.byte_at(pos + 1) == Some(b'@') => Some(pos + 2),
        '-' | '*' | '@' => Some(pos + 1),
        'x' if !cursor.byte_at(pos + 1).is_some_and(|b| b.is_ascii_digit()) => Some(pos + 1),
        '\u{2010}' | '\u{00D7}' | '\u{2013}' | '\u{2011}' | '\u{2212}' => Some(pos + c.len_utf8()),
        _ => None,
    }
}

/// A promotion `=X` or `=&` at `pos`; returns its end.
fn promotion_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    if cursor.byte_at(pos) != Some(b'=') {
        return None;
    }
    let c = cursor.char_at(pos + 1)?;
    (c == '&' || c.is_ascii_alphabetic() || is_figurine(c)).then(|| pos + 1 + c.len_utf8())
}

/// A check suffix at `pos` (the longest of `+ +∞ +^ ++ # ^+`); returns its end.
fn check_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    match cursor.byte_at(pos)? {
        b'#' => Some(pos + 1),
        b'^' => (cursor.byte_at(pos + 1) == Some(b'+')).then_some(pos + 2),
        b'+' => match cursor.char_at(pos + 1) {
            Some('^' | '+') => Some(pos + 2),
            Some('\u{221E}') => Some(pos + 1 + '\u{221E}'.len_utf8()),
            _ => Some(pos + 1),
        },
        _ => None,
    }
}

fn is_rating_char(c: char) -> bool {
    matches!(c, '?' | '!' | '\u{25C7}')
}

/// A rating `[?!◇]+` at `pos`; returns its end.
fn rating_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    let mut end = pos;
    while let Some(c) = cursor.char_at(end).filter(|&c| is_rating_char(c)) {
        end += c.len_utf8();
    }
    (end > pos).then_some(end)
}

/// An indicator `:` or `(=`, `(=)`, `(=:`, `(=):` at `pos`; returns its end.
fn indicator_at(cursor: &Cursor<'_>, pos: usize) -> Option<usize> {
    match cursor.byte_at(pos)? {
        b':' => Some(pos + 1),
        b'(' if cursor.byte_at(pos + 1) == Some(b'=') => {
            let mut end = pos + 2;
            if cursor.byte_at(end) == Some(b')') {
                end += 1;
            }
            if cursor.byte_at(end) == Some(b':') {
                end += 1;
            }
            Some(end)
        }
        _ => None,
    }
}

/// Reads a half-move at the cursor into `half_move`, an empty one in its place in the move
/// line; the cursor ends after its last token.
fn read_half_move(cursor: &mut Cursor<'_>, half_move: &mut HalfMoveText) -> Option<()> {
    let start = cursor.pos;
    half_move.range = TextRange::empty(start);
    let mut at = start;
    if let Some(end) = castling_at(cursor, at) {
        half_move.castling = token(TextRange::new(at, end));
        at = end;
    } else if let Some(end) = coordinate_at(cursor, at) {
        if let Some(promotion) = promotion_at(cursor, end) {
            half_move.destination = token(TextRange::new(at, end));
            half_move.promotion = token(TextRange::new(end, promotion));
            at = promotion;
        } else {
            half_move.origin = token(TextRange::new(at, end));
            at = read_rest_of_move(cursor, end, half_move)?;
        }
    } else {
        let end = piece_at(cursor, at)?;
        half_move.piece = token(TextRange::new(at, end));
        let origin = coordinate_at(cursor, end)?;
        half_move.origin = token(TextRange::new(end, origin));
        at = read_rest_of_move(cursor, origin, half_move)?;
    }
    let mut end = at;
    cursor.pos = at;
    let blanks_before_check = cursor.skip_blanks();
    if let Some(check) = check_at(cursor, cursor.pos) {
        half_move.check = token(TextRange::new(cursor.pos, check));
        end = check;
        cursor.pos = check;
        cursor.skip_blanks();
    }
    if let Some(rating) = rating_at(cursor, cursor.pos) {
        half_move.rating = token(TextRange::new(cursor.pos, rating));
        end = rating;
        cursor.pos = rating;
        cursor.skip_blanks();
    }
    if let Some(indicator) = indicator_at(cursor, cursor.pos) {
        half_move.indicator = token(TextRange::new(cursor.pos, indicator));
        end = indicator;
    }
    cursor.pos = end;
    half_move.range.end = end;
    // The parts were read each where the one before ended, and the annotations after blanks
    // only: a check suffix after blanks is all that can stand apart.
    half_move.read_parts(cursor.text, blanks_before_check && half_move.check.is_some());
    // What follows must end the half-move for certain: a blank or line end, `,`, `{`, `(` or
    // `)`, or the end of the record; and after blanks nothing the half-move could still take.
    match cursor.char_at(end) {
        None | Some(',' | '{' | ')') => {}
        Some(c) if is_white_space(c) => {}
        Some('(') if cursor.byte_at(end + 1) != Some(b'=') => {}
        Some(_) => return None,
    }
    let mut probe = Cursor { text: cursor.text, bytes: cursor.bytes, pos: end };
    probe.skip_spaces();
    match probe.char_at(probe.pos) {
        Some(c) if is_rating_char(c) || matches!(c, '+' | '#' | '^' | ':' | '=' | '$') => None,
        Some('(') if probe.byte_at(probe.pos + 1) == Some(b'=') => None,
        _ => Some(()),
    }
}

/// After the origin at `at`: an optional separator and captured piece, the destination and an
/// optional promotion. Returns the end of the move.
fn read_rest_of_move(
    cursor: &Cursor<'_>,
    mut at: usize,
    half_move: &mut HalfMoveText,
) -> Option<usize> {
    if let Some(end) = separator_at(cursor, at) {
        half_move.separator = token(TextRange::new(at, end));
        at = end;
    } else if cursor.byte_at(at) == Some(b'x') {
        // `x` before a digit: the lexer takes the separator (its precedence) where a
        // coordinate `x9` would be longer; the record holds an error then.
        return None;
    }
    if let Some(end) = piece_at(cursor, at) {
        half_move.captured = token(TextRange::new(at, end));
        at = end;
    }
    let end = coordinate_at(cursor, at)?;
    half_move.destination = token(TextRange::new(at, end));
    at = end;
    if let Some(end) = promotion_at(cursor, at) {
        half_move.promotion = token(TextRange::new(at, end));
        at = end;
    }
    Some(at)
}
