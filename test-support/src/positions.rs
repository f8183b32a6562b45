//! The client's own model of LSP positions, written from the protocol and the server's stated
//! policy rather than from its code, so that the two can disagree (the tests and the fuzzer
//! place requests and check answers by it): lines end at `\n`, `\r\n`
//! and `\r`; columns count bytes (UTF-8) or UTF-16 code units; a line past the end is the end
//! of the text, a column past the end of its line is the line's end, and a column inside a
//! character is that character's start.

use std::ops::Range;

use serde_json::{json, Value};

/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// Both, for the tests that run once in each.
    pub const ALL: [Encoding; 2] = [Encoding::Utf16, Encoding::Utf8];

    /// The name the protocol gives it (`positionEncoding`).
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf16 => "utf-16",
        }
    }

    /// The encoding the protocol names so, if it is one of the two.
    pub fn named(name: &str) -> Option<Encoding> {
        Encoding::ALL.into_iter().find(|encoding| encoding.name() == name)
    }

    /// The width of a character in this encoding's units.
    pub fn width(self, ch: char) -> usize {
        match self {
            Encoding::Utf8 => ch.len_utf8(),
            Encoding::Utf16 => ch.len_utf16(),
        }
    }
}

/// Each line's start and the end of its content (before its line break), in bytes.
pub fn lines(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                lines.push((start, at));
                at += 1;
                start = at;
            }
            b'\r' => {
                lines.push((start, at));
                at += if bytes.get(at + 1) == Some(&b'\n') { 2 } else { 1 };
                start = at;
            }
            _ => at += 1,
        }
    }
    lines.push((start, bytes.len()));
    lines
}

/// The byte offset a position means, by the policy above.
pub fn offset(text: &str, line: u64, character: u64, encoding: Encoding) -> usize {
    let lines = lines(text);
    let Some(&(start, end)) = usize::try_from(line).ok().and_then(|line| lines.get(line)) else {
        return text.len();
    };
    let mut units = 0u64;
    for (at, ch) in text[start..end].char_indices() {
        let width = encoding.width(ch) as u64;
        if character < units + width {
            return start + at;
        }
        units += width;
    }
    end
}

/// The position of a byte offset on a character boundary.
pub fn position(text: &str, offset: usize, encoding: Encoding) -> (u64, u64) {
    let lines = lines(text);
    let line = lines.iter().rposition(|&(start, _)| start <= offset).unwrap_or(0);
    let (start, _) = lines[line];
    let units: usize = text[start..offset].chars().map(|ch| encoding.width(ch)).sum();
    (line as u64, units as u64)
}

/// The position of a byte offset as the protocol writes it, `{"line": …, "character": …}`.
pub fn lsp_position(text: &str, offset: usize, encoding: Encoding) -> Value {
    let (line, character) = position(text, offset, encoding);
    json!({"line": line, "character": character})
}

/// The range of bytes as the protocol writes it, `{"start": …, "end": …}`.
pub fn lsp_range(text: &str, range: Range<usize>, encoding: Encoding) -> Value {
    json!({
        "start": lsp_position(text, range.start, encoding),
        "end": lsp_position(text, range.end, encoding),
    })
}

/// The bytes a range of the protocol (`{"start": …, "end": …}`) means, by [`offset`]; a
/// position that is not two numbers reads as the end of the text.
pub fn byte_range(text: &str, range: &Value, encoding: Encoding) -> Range<usize> {
    let at = |position: &Value| {
        let number = |field: &str| position[field].as_u64().unwrap_or(u64::MAX);
        offset(text, number("line"), number("character"), encoding)
    };
    at(&range["start"])..at(&range["end"])
}

/// Whether a position the server sent names a character boundary of the text exactly: its
/// line exists and its column is at most the line's length and not inside a character.
pub fn check_position(
    text: &str,
    lines: &[(usize, usize)],
    line: u64,
    character: u64,
    encoding: Encoding,
) -> Result<usize, String> {
    let Some(&(start, end)) = usize::try_from(line).ok().and_then(|line| lines.get(line)) else {
        return Err(format!("line {line} of a text of {} lines", lines.len()));
    };
    let mut units = 0u64;
    for (at, ch) in text[start..end].char_indices() {
        if units == character {
            return Ok(start + at);
        }
        units += encoding.width(ch) as u64;
        if units > character {
            return Err(format!("{line}:{character} is inside the character {ch:?}"));
        }
    }
    if units == character {
        Ok(end)
    } else {
        Err(format!("{line}:{character} is past the line's end at {units}"))
    }
}
