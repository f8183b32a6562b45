//! TEST-ONLY SCAFFOLDING: a minimal reader of the move strings in the corpus sidecars and in the
//! handbook's examples, so that the replay can be tested before and independently of the real
//! notation reader (which works on the tree-sitter tree and reports S- and C-codes).
//!
//! It understands exactly the engine's output: an optional standard piece letter, a
//! coordinate, `-` `×` `*` `@` `@@`, an optional captured letter, a coordinate, an optional
//! `=X`/`=&`; a forced promotion `T22=N`; a castling token; and it strips the check suffixes
//! `+` `+^` `+∞` `++` `#` and a final `:`. Anything else panics, which is what a test wants.

use crate::castling;
use crate::geometry::{parse_coordinate, Hex};
use crate::notation::{Check, Move, PieceMove, Promotion, Separator};
use crate::pieces::PieceKind;

/// The check suffix of a move string, `^+` read as `+^` (S010).
pub(super) fn check_suffix(text: &str) -> Option<Check> {
    let body = text.trim().trim_end_matches(':');
    [
        ("+\u{221E}", Check::FromAfar),
        ("+^", Check::Adjoining),
        ("^+", Check::Adjoining),
        ("++", Check::Double),
        ("+", Check::Plain),
        ("#", Check::Mate),
    ]
    .into_iter()
    .find_map(|(suffix, check)| body.ends_with(suffix).then_some(check))
}

/// Reads one move string; panics with the text when it is not one the scaffolding knows.
pub(super) fn read(text: &str) -> Move {
    let mut body = text.trim().trim_end_matches(':');
    for suffix in ["+\u{221E}", "+^", "++", "+", "#"] {
        if let Some(stripped) = body.strip_suffix(suffix) {
            body = stripped;
            break;
        }
    }
    let chars: Vec<char> = body.chars().collect();
    if chars.len() > 2 && chars[0] == 'K' && chars[1] == 'R' && !chars[2].is_ascii_digit() {
        let entry =
            castling::lookup(body).unwrap_or_else(|| panic!("not a castling token: {text}"));
        return Move::Castling(entry.token());
    }
    let mut cursor = Cursor { chars: &chars, at: 0, text };
    if !body.contains(['-', '\u{d7}', '*', '@']) {
        let hex = cursor.hex();
        cursor.expect('=');
        let piece = cursor.letter();
        cursor.end();
        return Move::ForcedPromotion { hex, piece };
    }
    let piece = if cursor.two_letters() { cursor.letter() } else { PieceKind::Pawn };
    let origin = cursor.hex();
    let separator = match cursor.next() {
        '-' => Separator::Move,
        '\u{d7}' | '*' => Separator::Capture,
        '@' if cursor.peek() == Some('@') => {
            cursor.next();
            Separator::DoubleAt
        }
        '@' => Separator::At,
        other => panic!("unknown separator {other} in {text}"),
    };
    let captured = cursor.two_letters().then(|| cursor.letter());
    let destination = cursor.hex();
    let promotion = (cursor.peek() == Some('=')).then(|| {
        cursor.next();
        if cursor.peek() == Some('&') {
            cursor.next();
            Promotion::Awaiting
        } else {
            Promotion::To(cursor.letter())
        }
    });
    cursor.end();
    Move::Piece(PieceMove { piece, origin, separator, captured, destination, promotion })
}

/// Reads a whole line of moves written `E7-E13, E21-E15` or `KRK-HIOO, KRK-HIO`.
pub(super) fn read_all(text: &str) -> Vec<Move> {
    text.split([',', ' ']).filter(|part| !part.is_empty()).map(read).collect()
}

struct Cursor<'a> {
    chars: &'a [char],
    at: usize,
    text: &'a str,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> char {
        let c = self.peek().unwrap_or_else(|| panic!("{} ends too early", self.text));
        self.at += 1;
        c
    }

    fn expect(&mut self, expected: char) {
        assert_eq!(self.next(), expected, "in {}", self.text);
    }

    fn end(&self) {
        assert_eq!(self.at, self.chars.len(), "trailing text in {}", self.text);
    }

    /// Whether a piece letter stands here: an upper-case letter followed by another one.
    fn two_letters(&self) -> bool {
        let upper = |i: usize| self.chars.get(i).is_some_and(char::is_ascii_uppercase);
        upper(self.at) && upper(self.at + 1)
    }

    fn letter(&mut self) -> PieceKind {
        let c = self.next();
        PieceKind::from_standard_letter(c)
            .unwrap_or_else(|| panic!("unknown piece letter {c} in {}", self.text))
    }

    fn hex(&mut self) -> Hex {
        let start = self.at;
        self.next();
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let written: String = self.chars[start..self.at].iter().collect();
        parse_coordinate(&written)
            .unwrap_or_else(|e| panic!("{written} in {}: {}", self.text, e.message))
    }
}
