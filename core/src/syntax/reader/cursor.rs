//! A place in a record's text for the reader: bytes for the ASCII that most of a record is,
//! characters where the grammar names a non-ASCII one.

use crate::syntax::chars::{is_line_end_byte, is_space_or_tab_byte};

/// The reader's place in the record's text.
pub(super) struct Cursor<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Cursor<'a> {
        Cursor { text, bytes: text.as_bytes(), pos: 0 }
    }

    /// The byte at `pos`, if any.
    pub(super) fn byte_at(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos).copied()
    }

    pub(super) fn byte(&self) -> Option<u8> {
        self.byte_at(self.pos)
    }

    /// The character at `pos`, if any.
    pub(super) fn char_at(&self, pos: usize) -> Option<char> {
        match self.bytes.get(pos) {
            Some(&b) if b.is_ascii() => Some(b as char),
            Some(_) => self.text.get(pos..).and_then(|rest| rest.chars().next()),
            None => None,
        }
    }

    /// Skips blanks (spaces and tabs); tells whether any was skipped.
    pub(super) fn skip_blanks(&mut self) -> bool {
        let start = self.pos;
        while self.byte().is_some_and(is_space_or_tab_byte) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// Skips blanks and line ends; tells whether a line end was crossed.
    pub(super) fn skip_spaces(&mut self) -> bool {
        let mut crossed = false;
        while let Some(b) = self.byte() {
            if is_line_end_byte(b) {
                crossed = true;
            } else if !is_space_or_tab_byte(b) {
                break;
            }
            self.pos += 1;
        }
        crossed
    }

    /// Consumes ASCII digits; returns how many.
    pub(super) fn digits(&mut self) -> usize {
        let start = self.pos;
        while self.byte().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        self.pos - start
    }
}
