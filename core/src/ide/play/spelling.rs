//! How a record writes what has two spellings (§6.1, §7.2): the hyphen of a move and of a
//! castling token (`-` or `‐`), the capture sign (`×` or `*`) and the ellipsis of a Black-first
//! move line (`…` or `...`). A half-move played into a record is written as the record mostly
//! writes them already; where it writes none yet, as the formatter's settings ask.

use crate::format::{EllipsisStyle, FormatOptions, Separators};
use crate::notation::Spelling;
use crate::syntax::{Item, RecordSyntax, Step};

/// The spellings a record's half-moves and move lines use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordSpelling {
    pub separators: Spelling,
    pub ellipsis: &'static str,
}

/// How often each spelling is written in a record.
#[derive(Default)]
struct Counts {
    ascii_hyphen: usize,
    unicode_hyphen: usize,
    times: usize,
    asterisk: usize,
    unicode_ellipsis: usize,
    ascii_ellipsis: usize,
}

impl RecordSpelling {
    /// The spellings `text` writes most (in every line of play), each one it does not write
    /// taken from `options` (the keyboard's `-` and `×` and the canonical `…` when they keep
    /// what is written).
    pub fn of_record(text: &str, syntax: &RecordSyntax, options: &FormatOptions) -> RecordSpelling {
        let mut counts = Counts::default();
        for step in syntax.walk(&syntax.items) {
            let Step::Item(Item::MoveLine(line), _) = step else { continue };
            if let Some(ellipsis) = &line.ellipsis {
                match ellipsis.text(text) {
                    "\u{2026}" => counts.unicode_ellipsis += 1,
                    "..." => counts.ascii_ellipsis += 1,
                    _ => {}
                }
            }
            for half_move in line.half_moves() {
                let written = half_move
                    .separator
                    .as_ref()
                    .or(half_move.castling.as_ref())
                    .map_or("", |token| token.text(text));
                counts.ascii_hyphen += usize::from(written.contains('-'));
                counts.unicode_hyphen += usize::from(written.contains('\u{2010}'));
                counts.times += usize::from(written == "\u{D7}");
                counts.asterisk += usize::from(written == "*");
            }
        }
        let fallback = match options.separators {
            Separators::Keep => Spelling::KEYBOARD,
            Separators::Unicode => Spelling::UNICODE,
            Separators::Ascii => Spelling::ASCII,
        };
        let most = |first: usize, second: usize, spellings: [&'static str; 2], or| match first
            .cmp(&second)
        {
            std::cmp::Ordering::Greater => spellings[0],
            std::cmp::Ordering::Less => spellings[1],
            std::cmp::Ordering::Equal => or,
        };
        let fallback_ellipsis = match options.ellipsis {
            EllipsisStyle::Ascii => "...",
            EllipsisStyle::Keep | EllipsisStyle::Unicode => "\u{2026}",
        };
        RecordSpelling {
            separators: Spelling {
                hyphen: most(
                    counts.ascii_hyphen,
                    counts.unicode_hyphen,
                    ["-", "\u{2010}"],
                    fallback.hyphen,
                ),
                capture: most(counts.times, counts.asterisk, ["\u{D7}", "*"], fallback.capture),
            },
            ellipsis: most(
                counts.unicode_ellipsis,
                counts.ascii_ellipsis,
                ["\u{2026}", "..."],
                fallback_ellipsis,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    fn spelling(text: &str, options: FormatOptions) -> RecordSpelling {
        RecordSpelling::of_record(text, &syntax::parse_record(text), &options)
    }

    #[test]
    fn a_record_s_own_spellings_come_first() {
        let text = "[Variant \"C'escacs\"]\n\n1. E7\u{2010}E13, F20*E17\n(1. ..., F20\u{2010}F16)\n2. KRK\u{2010}II, E21-E19:\n*\n";
        let ascii =
            FormatOptions { separators: Separators::Ascii, ellipsis: EllipsisStyle::Unicode };
        assert_eq!(
            spelling(text, ascii),
            RecordSpelling {
                separators: Spelling { hyphen: "\u{2010}", capture: "*" },
                ellipsis: "..."
            }
        );
    }

    #[test]
    fn what_a_record_does_not_write_follows_the_settings() {
        let text = "[Variant \"C'escacs\"]\n\n*\n";
        assert_eq!(
            spelling(text, FormatOptions::default()),
            RecordSpelling { separators: Spelling::KEYBOARD, ellipsis: "\u{2026}" }
        );
        let ascii = FormatOptions { separators: Separators::Ascii, ellipsis: EllipsisStyle::Ascii };
        assert_eq!(
            spelling(text, ascii),
            RecordSpelling { separators: Spelling::ASCII, ellipsis: "..." }
        );
        let unicode =
            FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Keep };
        assert_eq!(spelling(text, unicode).separators, Spelling::UNICODE);
    }
}
