//! A comment `{ … }` read as the grammar's external scanner reads it (`scanner.c`): the same
//! marker, text and reference tokens, found by the same steps, so that the references and the
//! marker get exactly the byte ranges the tree gives them. An unclosed comment, or anything
//! that would end it before its `}` (a `[Variant` line), is declined.

use crate::syntax::chars::{is_blank, is_figurine, is_line_end, is_white_space};
use crate::syntax::{Comment, Reference, ReferenceKind, Token};
use crate::text::TextRange;

/// The scanner's view of the text: a lookahead character, the start of the token being
/// scanned (moved by skipped characters) and its marked end.
struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    token_start: usize,
    end: usize,
}

impl Lexer<'_> {
    /// The lookahead character; `'\0'` at the end of the text, as tree-sitter gives it.
    fn look(&self) -> char {
        self.text[self.pos..].chars().next().unwrap_or('\0')
    }

    fn eof(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn advance(&mut self) {
        if let Some(c) = self.text[self.pos..].chars().next() {
            self.pos += c.len_utf8();
        }
    }

    fn skip(&mut self) {
        self.advance();
        self.token_start = self.pos;
    }

    fn mark_end(&mut self) {
        self.end = self.pos;
    }
}

fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
}

fn is_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

/// What one call of the scanner inside a comment gives.
enum Scanned {
    Close,
    Marker,
    Text,
    Reference(ReferenceKind),
}

/// Why a comment is declined: it is not closed by its own `}`.
struct Unsure;

/// Reads the comment whose `{` is at `open` (`indentation` before it, if any) and returns it
/// with the offset after its `}`; `None` when it is not closed by a `}` of its own.
pub(super) fn read_comment(
    text: &str,
    indentation: Option<Token>,
    open: usize,
) -> Option<(Comment, usize)> {
    let mut comment = Comment {
        range: TextRange::new(
            indentation.as_ref().map_or(open, |token| token.range.start),
            open + 1,
        ),
        indentation,
        open: Token { range: TextRange::new(open, open + 1) },
        marker: None,
        references: Vec::new(),
        closed: true,
    };
    let mut lexer = Lexer { text, pos: open + 1, token_start: open + 1, end: open + 1 };
    let mut marker_valid = true;
    loop {
        lexer.token_start = lexer.pos;
        let scanned = scan(&mut lexer, marker_valid).ok()?;
        marker_valid = false;
        let range = TextRange::new(lexer.token_start, lexer.end);
        let start = range.start;
        match scanned {
            Scanned::Close => {
                if range.is_empty() {
                    return None;
                }
                comment.range.end = range.end;
                return Some((comment, range.end));
            }
            Scanned::Marker => comment.marker = Some(Token { range }),
            Scanned::Text => {}
            Scanned::Reference(kind) => comment.references.push(Reference { kind, range }),
        }
        if lexer.end <= start {
            // A token that reads nothing would not move on: not a case the scanner meets.
            return None;
        }
        lexer.pos = lexer.end;
    }
}

/// One call of `scan_comment`.
fn scan(lexer: &mut Lexer<'_>, marker_valid: bool) -> Result<Scanned, Unsure> {
    let first = lexer.look();
    let after_blank = is_white_space(first);
    let mut crossed_line_end = false;
    while is_white_space(lexer.look()) && !lexer.eof() {
        crossed_line_end |= is_line_end(lexer.look());
        lexer.skip();
    }
    let c = lexer.look();
    if lexer.eof() {
        return Err(Unsure);
    }
    if c == '}' {
        lexer.advance();
        lexer.mark_end();
        return Ok(Scanned::Close);
    }
    if crossed_line_end && c == '[' {
        lexer.mark_end();
        if consume_variant_tag_opening(lexer) {
            return Err(Unsure);
        }
        lexer.mark_end();
        return scan_text(lexer);
    }
    if c == '@' {
        lexer.advance();
        let side = lexer.look();
        if side == 'W' || side == 'B' || side == 'N' {
            lexer.advance();
            lexer.mark_end();
            if lexer.look() == ':' && marker_valid {
                lexer.advance();
                lexer.mark_end();
                return Ok(Scanned::Marker);
            }
            if !is_alnum(lexer.look()) {
                return Ok(Scanned::Reference(ReferenceKind::Player));
            }
        }
        lexer.mark_end();
        return scan_text(lexer);
    }
    if c == ':' && !after_blank && marker_valid {
        lexer.advance();
        lexer.mark_end();
        return Ok(Scanned::Marker);
    }
    if c == '#' {
        lexer.advance();
        let next = lexer.look();
        if marker_valid && (next == ':' || next == 'W' || next == 'B') {
            if next != ':' {
                lexer.advance();
            }
            if lexer.look() == ':' {
                lexer.advance();
                lexer.mark_end();
                return Ok(Scanned::Marker);
            }
        } else if next.is_ascii_digit() || next == '.' {
            consume_move_reference(lexer);
            return Ok(Scanned::Reference(ReferenceKind::Move));
        }
        lexer.mark_end();
        return scan_text(lexer);
    }
    if c == '~' {
        lexer.advance();
        let next = lexer.look();
        if is_letter(next) || is_figurine(next) {
            return Ok(Scanned::Reference(consume_tilde_reference(lexer)));
        }
        lexer.mark_end();
        return scan_text(lexer);
    }
    if c == '$' {
        lexer.advance();
        if lexer.look().is_ascii_digit() {
            while lexer.look().is_ascii_digit() {
                lexer.advance();
            }
            lexer.mark_end();
            return Ok(Scanned::Reference(ReferenceKind::Nag));
        }
        lexer.mark_end();
        return scan_text(lexer);
    }
    lexer.advance();
    lexer.mark_end();
    scan_text(lexer)
}

fn consume_variant_tag_opening(lexer: &mut Lexer<'_>) -> bool {
    for expected in "[Variant".chars() {
        if lexer.look() != expected {
            return false;
        }
        lexer.advance();
    }
    !(is_alnum(lexer.look()) || lexer.look() == '_')
}

/// `scan_comment_text`: text up to `}`, the end, or the start of a reference; never ending
/// with blanks.
fn scan_text(lexer: &mut Lexer<'_>) -> Result<Scanned, Unsure> {
    loop {
        let c = lexer.look();
        if lexer.eof() || c == '}' {
            break;
        }
        if is_line_end(c) {
            while is_white_space(lexer.look()) && !lexer.eof() {
                lexer.advance();
            }
            if lexer.look() == '[' && consume_variant_tag_opening(lexer) {
                return Err(Unsure);
            }
            continue;
        }
        if is_blank(c) {
            lexer.advance();
            continue;
        }
        if matches!(c, '@' | '#' | '~' | '$') {
            lexer.advance();
            let next = lexer.look();
            let starts_reference = match c {
                '@' => {
                    if next == 'W' || next == 'B' || next == 'N' {
                        lexer.advance();
                        !is_alnum(lexer.look())
                    } else {
                        false
                    }
                }
                '#' => next.is_ascii_digit() || next == '.',
                '~' => is_letter(next) || is_figurine(next),
                _ => next.is_ascii_digit(),
            };
            if starts_reference {
                break;
            }
            lexer.mark_end();
            continue;
        }
        lexer.advance();
        lexer.mark_end();
    }
    Ok(Scanned::Text)
}

fn continues_move_reference(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '.' | '[' | ']' | '#' | '$' | '@')
}

fn consume_move_reference(lexer: &mut Lexer<'_>) {
    let mut only_digits = true;
    loop {
        let c = lexer.look();
        if c == '.' && !only_digits {
            lexer.mark_end();
            lexer.advance();
            if !continues_move_reference(lexer.look()) {
                return;
            }
        } else if c.is_ascii_digit() || matches!(c, '.' | '[' | ']' | '#' | '$') {
            if !c.is_ascii_digit() {
                only_digits = false;
            }
            lexer.advance();
        } else if c == '@' {
            only_digits = false;
            lexer.advance();
            if matches!(lexer.look(), 'W' | 'B' | 'N') {
                lexer.advance();
            }
        } else {
            break;
        }
    }
    lexer.mark_end();
}

fn consume_tilde_reference(lexer: &mut Lexer<'_>) -> ReferenceKind {
    let first = lexer.look();
    lexer.advance();
    if is_letter(first) && lexer.look().is_ascii_digit() {
        while lexer.look().is_ascii_digit() {
            lexer.advance();
        }
        lexer.mark_end();
        return ReferenceKind::Hex;
    }
    lexer.mark_end();
    if is_letter(lexer.look()) {
        lexer.advance();
        if lexer.look().is_ascii_digit() {
            while lexer.look().is_ascii_digit() {
                lexer.advance();
            }
            lexer.mark_end();
        }
    } else if lexer.look() == '[' {
        lexer.advance();
        for _ in 0..4 {
            if is_white_space(lexer.look()) || lexer.eof() {
                break;
            }
            let c = lexer.look();
            lexer.advance();
            if c == ']' {
                lexer.mark_end();
                break;
            }
        }
    }
    ReferenceKind::Piece
}
