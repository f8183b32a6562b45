//! The formatter's choices: how move separators, castling hyphens and ellipses are spelled.
//! Both spellings of each are valid CTL-PGN (§6.1, §7.2), so the default keeps what was written.

/// How the move and capture separators (and the hyphen of castling tokens) are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Separators {
    /// As written.
    #[default]
    Keep,
    /// The preferred characters: `‐` (U+2010) for a move, `×` (U+00D7) for a capture.
    Unicode,
    /// The keyboard characters: `-` for a move, `*` for a capture.
    Ascii,
}

/// How the ellipsis of a Black-first move line (`1. …, RC25-D26`) is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EllipsisStyle {
    /// As written.
    #[default]
    Keep,
    /// `…` (U+2026), the canonical form.
    Unicode,
    /// `...`.
    Ascii,
}

/// Everything the formatter may be asked to change beyond the layout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    pub separators: Separators,
    pub ellipsis: EllipsisStyle,
}

impl Separators {
    /// The style named `keep`, `unicode` or `ascii`.
    pub fn from_name(name: &str) -> Option<Separators> {
        match name {
            "keep" => Some(Separators::Keep),
            "unicode" => Some(Separators::Unicode),
            "ascii" => Some(Separators::Ascii),
            _ => None,
        }
    }

    /// A separator token as this style writes it. Only the two interchangeable pairs change:
    /// `x`, `@`, `@@` and the look-alike dashes have no other spelling the reader would accept
    /// as the same move, so they are left for the checker to report.
    pub fn respell_separator(self, separator: &str) -> &str {
        match (self, separator) {
            (Separators::Unicode, "-") => "\u{2010}",
            (Separators::Unicode, "*") => "\u{D7}",
            (Separators::Ascii, "\u{2010}") => "-",
            (Separators::Ascii, "\u{D7}") => "*",
            _ => separator,
        }
    }

    /// A castling token (`KRK-II`) with its hyphen in this style.
    pub fn respell_castling(self, castling: &str) -> String {
        match self {
            Separators::Keep => castling.to_string(),
            Separators::Unicode => castling.replace('-', "\u{2010}"),
            Separators::Ascii => castling.replace('\u{2010}', "-"),
        }
    }
}

impl EllipsisStyle {
    /// The style named `keep`, `unicode` or `ascii`.
    pub fn from_name(name: &str) -> Option<EllipsisStyle> {
        match name {
            "keep" => Some(EllipsisStyle::Keep),
            "unicode" => Some(EllipsisStyle::Unicode),
            "ascii" => Some(EllipsisStyle::Ascii),
            _ => None,
        }
    }

    /// An ellipsis token as this style writes it.
    pub fn respell(self, ellipsis: &str) -> &str {
        match self {
            EllipsisStyle::Keep => ellipsis,
            EllipsisStyle::Unicode => "\u{2026}",
            EllipsisStyle::Ascii => "...",
        }
    }
}
