//! What JSON allows and serde_json's values do not hold: a `\u` escape of a lone surrogate
//! (`"\ud83d"`, which JavaScript's `JSON.stringify` writes for a lone surrogate, and which no
//! Unicode text holds), nesting deeper than serde_json's 128 levels, a number past `f64`.
//!
//! tower-lsp reads every message into JSON values and ends the session on one it cannot read.
//! The transport passes a message on as written only when [`within_values`] finds none of
//! these in it; any other message is read into values first, and refused there when it cannot
//! be (`transport::judge`). The scan is cautious: what it cannot vouch for cheaply (any
//! exponent, a long run of digits) is left to that full reading, which decides.

/// The deepest nesting passed on as written; serde_json reads 128 levels.
const MAX_DEPTH: usize = 100;
/// The longest run of digits passed on as written; `f64` ends near `1.8e308`.
const MAX_DIGITS: usize = 300;

/// Whether `body`, which serde_json has already checked to be JSON, reads into JSON values for
/// certain: every `\u` escape of a surrogate is one of a pair, nesting is at most `MAX_DEPTH`
/// deep, and no number has an exponent or more than `MAX_DIGITS` digits.
pub fn within_values(body: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut digits = 0usize;
    let mut at = 0;
    while let Some(&byte) = body.get(at) {
        at += 1;
        match byte {
            b'"' => match string_end(body, at) {
                Some(end) => at = end,
                None => return false,
            },
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b'0'..=b'9' | b'.' => {
                digits += 1;
                if digits > MAX_DIGITS {
                    return false;
                }
                continue;
            }
            // An exponent: outside strings, an `e` after a digit is nothing else.
            b'e' | b'E' if digits > 0 => return false,
            _ => {}
        }
        digits = 0;
    }
    true
}

/// The end (past its closing quote) of the string whose content starts at `from`; `None` when
/// it holds a `\u` escape of a lone surrogate.
fn string_end(body: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        at += memchr::memchr2(b'"', b'\\', body.get(at..)?)?;
        if body[at] == b'"' {
            return Some(at + 1);
        }
        // An escape: `\` and one character, or `\u` and four hexadecimal digits.
        if body.get(at + 1) != Some(&b'u') {
            at += 2;
            continue;
        }
        match escaped_unit(body, at)? {
            0xD800..=0xDBFF => match escaped_unit(body, at + 6)? {
                0xDC00..=0xDFFF => at += 12,
                _ => return None,
            },
            0xDC00..=0xDFFF => return None,
            _ => at += 6,
        }
    }
}

/// The UTF-16 code unit of the `\uXXXX` escape at `at`; `None` when none stands there.
fn escaped_unit(body: &[u8], at: usize) -> Option<u16> {
    let escape = body.get(at..at + 6)?;
    if !escape.starts_with(b"\\u") {
        return None;
    }
    u16::from_str_radix(std::str::from_utf8(&escape[2..]).ok()?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether serde_json reads `body` into a JSON value.
    fn reads(body: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(body).is_ok()
    }

    #[test]
    fn what_the_scan_passes_serde_json_reads_into_values() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        let passed = [
            r#"{"text":"[Event \"x\"]\n\\u\\ud83d \ud83e\ude50 \u00d7 é","n":[1,2.5,-3,true,false,null]}"#
                .to_string(),
            r#""\\ud83d""#.to_string(),
            deep(MAX_DEPTH),
            format!("[\"{}\"]", "[".repeat(1000)),
            "9".repeat(MAX_DIGITS),
        ];
        for body in &passed {
            assert!(within_values(body.as_bytes()), "{body}");
            assert!(reads(body), "{body}");
        }
        // The values serde_json cannot hold, each refused by the scan; and what it leaves to
        // the full reading although serde_json reads it (an exponent).
        let refused = [
            (r#"{"text":"\ud83d"}"#.to_string(), false),
            (r#"{"text":"\udc00 and more"}"#.to_string(), false),
            (r#"["\ud83d\u0041"]"#.to_string(), false),
            (r#"["\ud83d\\ude50"]"#.to_string(), false),
            (r#"["end \ud83d"]"#.to_string(), false),
            (deep(129), false),
            ("9".repeat(400), false),
            (format!("{}.5", "9".repeat(400)), false),
            ("1e400".to_string(), false),
            ("[1.5E3]".to_string(), true),
        ];
        for (body, read) in &refused {
            assert!(!within_values(body.as_bytes()), "{body}");
            assert_eq!(reads(body), *read, "{body}");
        }
    }
}
