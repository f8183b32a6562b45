//! Mutations of a record's text: byte-level ones (insert, delete, flip), and ones that know the
//! format's tokens (lines and words inserted, deleted, duplicated or swapped; the characters
//! and strings the format gives a meaning to; long runs; deep nesting).

use ctlpgn_test_support::rng::Rng;

use crate::seeds::{Seeds, MAX_INPUT};

/// Characters and strings with a meaning in the format, or that trip up positions: separators
/// and their look-alikes, the ellipsis, FAN figurines (astral ones included), brackets, the
/// tags that change how a record is read, a byte-order mark, line ends of every kind.
pub const INTERESTING: &[&str] = &[
    "\u{D7}",
    "\u{2010}",
    "\u{2013}",
    "\u{2026}",
    "\u{25C7}",
    "\u{2654}",
    "\u{2655}",
    "\u{2656}",
    "\u{2657}",
    "\u{2658}",
    "\u{2659}",
    "\u{265A}",
    "\u{265B}",
    "\u{265C}",
    "\u{265D}",
    "\u{265E}",
    "\u{265F}",
    "\u{2616}",
    "\u{2617}",
    "\u{1FA4F}",
    "\u{1FA50}",
    "\u{1FA52}",
    "\u{1FA53}",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "[Variant \"C'escacs\"]\n",
    "[PDTL \"/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1\"]\n",
    "[PDTL \"",
    "[Redefine \"FAN\"]\n",
    "[Redefine \"B@J, Q@D, W@V\"]\n",
    "[Redefine \"A@J, C@N, T@R\"]",
    "\u{FEFF}",
    "\r",
    "\r\n",
    "\n",
    "\n\n",
    "#",
    ":",
    "=&",
    "@",
    "@@",
    "+^",
    "^+",
    "+\u{221E}",
    "++",
    "$",
    "~",
    "!?",
    "(=)",
    "1. ",
    "2. \u{2026}, ",
    "*",
    "3-0",
];

/// Unicode's spaces and the invisible characters that pass for one: to the format they are
/// text, not white space (`ctlpgn_core::syntax::chars`), and the reader and the grammar must agree.
pub const UNICODE_SPACES: &[&str] = &[
    "\u{85}", "\u{A0}", "\u{1680}", "\u{180E}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}",
    "\u{2004}", "\u{2005}", "\u{2006}", "\u{2007}", "\u{2008}", "\u{2009}", "\u{200A}", "\u{200B}",
    "\u{200C}", "\u{200D}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{2060}", "\u{3000}",
];

/// Text that means something to a terminal, Markdown or HTML: a record's text is data, shown
/// escaped in hovers, SVG, terminals.
pub const MARKUP: &[&str] = &[
    "\u{1b}[2J",
    "\u{1b}]0;title\u{7}",
    "\u{1b}[8m",
    "\u{1b}",
    "![t](https://x/t.png)",
    "<img src=x onerror=alert(1)>",
    "[link](javascript:alert(1))",
    "<script>alert(1)</script>",
    "`",
    "```",
    "*",
    "_",
    "# ",
    "|",
    "&amp;",
    "&#96;",
    "\\",
    "<",
    "]]>",
];

/// A C0 control character or DEL: text to the format, but for tab, LF and CR.
fn control(rng: &mut Rng) -> String {
    let code = rng.below(33);
    char::from(if code == 32 { 0x7F } else { code as u8 }).to_string()
}

/// One input mutated by 1 to 8 stacked mutations, at most [`MAX_INPUT`] bytes.
pub fn mutate(rng: &mut Rng, seeds: &Seeds, pool: &[String]) -> String {
    let base = if !pool.is_empty() && rng.one_in(3) {
        rng.pick(pool).clone()
    } else {
        rng.pick(&seeds.inputs).clone()
    };
    let mut text = base;
    let most = if rng.one_in(4) { 8 } else { 3 };
    let count = rng.between(1, most);
    for _ in 0..count {
        text = mutate_once(rng, seeds, text);
    }
    if text.len() > MAX_INPUT {
        let mut cut = MAX_INPUT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// A random character boundary of `text`, its end included.
pub fn boundary(rng: &mut Rng, text: &str) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A random piece of text to insert.
pub fn piece(rng: &mut Rng, seeds: &Seeds) -> String {
    match rng.below(13) {
        0..=3 => rng.pick(INTERESTING).to_string(),
        4..=5 => rng.pick(&seeds.words).clone() + " ",
        6 => rng.pick(&seeds.lines).clone(),
        7 => rng.between(0, 99).to_string(),
        8 => char::from(rng.between(0x20, 0x7e) as u8).to_string(),
        9 => control(rng),
        10 => rng.pick(UNICODE_SPACES).to_string(),
        11 => rng.pick(MARKUP).to_string(),
        _ => {
            let count = rng.between(2, 6);
            (0..count).map(|_| *rng.pick(INTERESTING)).collect()
        }
    }
}

fn mutate_once(rng: &mut Rng, seeds: &Seeds, text: String) -> String {
    match rng.below(40) {
        0..=5 => bytes(rng, text),
        6..=12 => {
            let at = boundary(rng, &text);
            let mut text = text;
            text.insert_str(at, &piece(rng, seeds));
            text
        }
        13..=18 => lines(rng, seeds, text),
        19..=25 => words(rng, seeds, text),
        26..=30 => digits(rng, text),
        31 => {
            // A long run of one piece.
            let at = boundary(rng, &text);
            let piece = piece(rng, seeds);
            let times = rng.between(10, 300).min(MAX_INPUT / 2 / piece.len().max(1)).max(1);
            let mut text = text;
            text.insert_str(at, &piece.repeat(times));
            text
        }
        32 => {
            // Deep nesting of variations or comments.
            let at = boundary(rng, &text);
            let depth = rng.between(20, 1500);
            let (open, close) = *rng.pick(&[
                ("(", ")"),
                ("( 1. E7-E13 ", ")"),
                ("(2. \u{2026}, E21-E19 ", ")"),
                ("{", "}"),
                ("{ (", ") }"),
                ("[", "]"),
            ]);
            let mut nested = open.repeat(depth);
            if rng.one_in(2) {
                nested.push_str(&close.repeat(rng.below(depth + 1)));
            }
            let mut text = text;
            text.insert_str(at, &nested);
            text
        }
        33 | 34 => {
            // Splice: the start of this input and the end of another.
            let other = rng.pick(&seeds.inputs);
            let at = boundary(rng, &text);
            let from = boundary(rng, other);
            let mut text = text;
            text.truncate(at);
            text.push_str(&other[from..]);
            text
        }
        35 => {
            // Two records in one file.
            let other = rng.pick(&seeds.inputs);
            let mut text = text;
            let between: &&str = rng.pick(&["\n", "\n\n", "\r\n\r\n", ""]);
            text.push_str(between);
            text.push_str(other);
            text
        }
        36..=38 => {
            // A range deleted.
            let a = boundary(rng, &text);
            let b = boundary(rng, &text);
            let (start, mut end) = (a.min(b), a.max(b).min(a.min(b) + 64));
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let mut text = text;
            text.replace_range(start..end, "");
            text
        }
        _ => {
            // Line ends changed throughout.
            let ending = *rng.pick(&["\r\n", "\r", "\n"]);
            let normal = text.replace("\r\n", "\n").replace('\r', "\n");
            normal.replace('\n', ending)
        }
    }
}

/// Byte-level: insert, delete or flip bytes; the result is read back as UTF-8, the invalid
/// bytes becoming U+FFFD (a file that is not UTF-8 never reaches the core).
fn bytes(rng: &mut Rng, text: String) -> String {
    let mut bytes = text.into_bytes();
    let at = rng.below(bytes.len() + 1);
    match rng.below(3) {
        0 => bytes.insert(at, rng.below(256) as u8),
        1 => {
            if at < bytes.len() {
                let end = (at + rng.between(1, 4)).min(bytes.len());
                bytes.drain(at..end);
            }
        }
        _ => {
            if at < bytes.len() {
                bytes[at] ^= 1 << rng.below(8);
            }
        }
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    }
}

/// Line-level: insert a seed line, delete, duplicate or swap lines.
fn lines(rng: &mut Rng, seeds: &Seeds, text: String) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    let n = lines.len();
    match rng.below(4) {
        0 => lines.insert(rng.below(n + 1), rng.pick(&seeds.lines).clone()),
        1 if n > 0 => {
            lines.remove(rng.below(n));
        }
        2 if n > 0 => {
            let i = rng.below(n);
            let line = lines[i].clone();
            lines.insert(i, line);
        }
        3 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            lines.swap(i, j);
        }
        _ => {}
    }
    lines.concat()
}

/// Word-level: the text cut at spaces; a word deleted, duplicated, swapped or replaced by a
/// word of the seeds.
fn words(rng: &mut Rng, seeds: &Seeds, text: String) -> String {
    let mut parts: Vec<String> = text.split_inclusive(' ').map(str::to_string).collect();
    let n = parts.len();
    match rng.below(4) {
        0 if n > 0 => {
            parts.remove(rng.below(n));
        }
        1 if n > 0 => {
            let i = rng.below(n);
            let word = parts[i].clone();
            parts.insert(i, word);
        }
        2 if n > 1 => {
            let (i, j) = (rng.below(n), rng.below(n));
            parts.swap(i, j);
        }
        _ => {
            let word = rng.pick(&seeds.words).clone() + " ";
            if n > 0 && rng.one_in(2) {
                let i = rng.below(n);
                parts[i] = word;
            } else {
                parts.insert(rng.below(n + 1), word);
            }
        }
    }
    parts.concat()
}

/// A digit changed: other coordinates, move numbers, tag values.
fn digits(rng: &mut Rng, text: String) -> String {
    let positions: Vec<usize> =
        text.bytes().enumerate().filter(|(_, b)| b.is_ascii_digit()).map(|(i, _)| i).collect();
    if positions.is_empty() {
        return text;
    }
    let at = *rng.pick(&positions);
    let mut bytes = text.into_bytes();
    bytes[at] = b'0' + rng.below(10) as u8;
    String::from_utf8(bytes).unwrap_or_default()
}
