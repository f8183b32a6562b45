//! The character classes of CTL-PGN's syntax, one definition for the hand-written reader and
//! the analysis, written the same in the grammar (`grammar.js`'s `SPACE_OR_TAB`, `LINE_END`,
//! `BYTE_ORDER_MARK` and `FIGURINE`, and `scanner.c`'s `is_blank` and `is_newline`).
//!
//! White space is what the handbook names (§1, §7.1): spaces and tabs, and line ends (LF, and
//! CR alone or before LF); the byte-order mark, which the handbook ignores at the start of a
//! file, is skipped like a blank wherever it stands. Every other character is text, control
//! characters (U+000B, U+000C, ESC…) and Unicode spaces (U+00A0, U+2028…) included: Rust's
//! `char::is_whitespace` and `u8::is_ascii_whitespace`, and a regular expression's `\s`, each
//! take in some of them, and are not used on a record's text.
//! (NUL is text as well, but tree-sitter's generated lexer takes it into no token, so the tree
//! holds an error wherever one stands; the reader declines a record that holds one.)
//! `core/tests/reader.rs` drives tree-sitter with every C0 control and every Unicode space
//! in every place white space may stand, and checks that the grammar reads them as these
//! classes say.

/// The byte-order mark, which the grammar skips as a blank wherever it stands.
pub const BYTE_ORDER_MARK: char = '\u{FEFF}';

/// A space or a tab: the blanks of the handbook, and of the tokens that hold some (indentation
/// `. .`, a result `3 - 0`).
pub fn is_space_or_tab(c: char) -> bool {
    matches!(c, ' ' | '\t')
}

/// [`is_space_or_tab`] for a byte of the text.
pub fn is_space_or_tab_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// A line end: LF, or CR (alone, or before LF as part of the line end).
pub fn is_line_end(c: char) -> bool {
    matches!(c, '\n' | '\r')
}

/// [`is_line_end`] for a byte of the text.
pub fn is_line_end_byte(b: u8) -> bool {
    matches!(b, b'\n' | b'\r')
}

/// A blank between tokens on a line: a space, a tab or the byte-order mark.
pub fn is_blank(c: char) -> bool {
    is_space_or_tab(c) || c == BYTE_ORDER_MARK
}

/// White space: a blank or a line end, what the grammar skips between any two tokens.
pub fn is_white_space(c: char) -> bool {
    is_blank(c) || is_line_end(c)
}

/// [`is_white_space`] for a byte of the text: the byte-order mark is not one byte, so this is
/// a space, a tab or a line end.
pub fn is_white_space_byte(b: u8) -> bool {
    is_space_or_tab_byte(b) || is_line_end_byte(b)
}

/// A FAN figurine the grammar takes as a piece: the chess pieces (U+2654-U+265F), the shogi
/// elephants (U+2616, U+2617), and the Pegasus and Wyvern of the Chess Symbols block
/// (U+1FA4F-U+1FA53).
pub fn is_figurine(c: char) -> bool {
    matches!(c, '\u{2654}'..='\u{265F}' | '\u{2616}' | '\u{2617}' | '\u{1FA4F}'..='\u{1FA53}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_is_the_handbooks_and_no_control_or_unicode_space_beside() {
        let all = || (0..=0x10FFFF).filter_map(char::from_u32);
        let white: Vec<char> = all().filter(|&c| is_white_space(c)).collect();
        assert_eq!(white, ['\t', '\n', '\r', ' ', BYTE_ORDER_MARK]);
        let blank: Vec<char> = all().filter(|&c| is_blank(c)).collect();
        assert_eq!(blank, ['\t', ' ', BYTE_ORDER_MARK]);
        for b in 0..=u8::MAX {
            assert_eq!(is_white_space_byte(b), b.is_ascii() && is_white_space(b.into()), "{b}");
        }
    }
}
