//! A record's text shown on a terminal: every character that would act on the terminal instead
//! of showing (ESC and the escape sequences it starts: a window title, a cleared screen, hidden
//! text; a carriage return, a bell, a backspace), or that shows nothing (a byte-order mark, a
//! zero-width space, a bidirectional override, which reorders what follows), is printed as a
//! visible stand-in. The C0 controls and DEL take their Control Pictures (`␛`, `␍`, `␡`), one
//! column each; the others are written `\u{…}`. A tab stays a tab: it only moves to the next
//! stop, and the excerpt's carets keep it to line up. `--format json` escapes by itself.

use std::borrow::Cow;
use std::fmt::Write as _;

/// How `c` is shown: `None` when it is shown as itself.
fn stand_in(c: char) -> Option<StandIn> {
    match c {
        '\t' => None,
        '\0'..='\u{1F}' => char::from_u32(0x2400 + u32::from(c)).map(StandIn::Picture),
        '\u{7F}' => Some(StandIn::Picture('\u{2421}')),
        '\u{80}'..='\u{9F}'
        | '\u{AD}'
        | '\u{61C}'
        | '\u{180E}'
        | '\u{200B}'..='\u{200F}'
        | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}'
        | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}' => Some(StandIn::Escape(c)),
        _ => None,
    }
}

/// A visible stand-in for a character.
enum StandIn {
    /// Its Control Picture, one column wide.
    Picture(char),
    /// `\u{…}`, its code in hexadecimal.
    Escape(char),
}

/// Pushes `c` as it is shown onto `out`; returns how many characters that took.
pub fn push_shown(out: &mut String, c: char) -> usize {
    match stand_in(c) {
        None => {
            out.push(c);
            1
        }
        Some(StandIn::Picture(picture)) => {
            out.push(picture);
            1
        }
        Some(StandIn::Escape(c)) => {
            let before = out.len();
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            out.len() - before
        }
    }
}

/// How many characters `c` takes once shown.
pub fn shown_width(c: char) -> usize {
    match stand_in(c) {
        Some(StandIn::Escape(c)) => format!("{:x}", u32::from(c)).len() + 4,
        _ => 1,
    }
}

/// `text` as it is shown: itself when it holds nothing to stand in for (a message, a path).
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| stand_in(c).is_some()) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_shown(&mut shown, c);
    }
    Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_and_invisible_characters_are_shown_visibly() {
        let text = "a\u{1b}]0;title\u{7}b\u{1b}[2J\r\u{8}\u{7f}\u{9b}\u{202e}\u{feff}\tc\u{d7}";
        let shown = visible(text);
        assert_eq!(shown, "a␛]0;title␇b␛[2J␍␈␡\\u{9b}\\u{202e}\\u{feff}\tc\u{d7}");
        assert!(!shown.chars().any(|c| c.is_control() && c != '\t'), "{shown:?}");
        for c in text.chars() {
            let mut alone = String::new();
            assert_eq!(push_shown(&mut alone, c), shown_width(c), "{c:?}");
            assert_eq!(alone.chars().count(), shown_width(c), "{c:?}");
        }
        assert!(matches!(visible("E7-E13 × ‐ … ◇ \u{1FA50} Núria"), Cow::Borrowed(_)));
    }
}
