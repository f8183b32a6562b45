//! A text a client sent, quoted back in a refusal: bounded, so that a megabyte sent is not a
//! megabyte answered.

/// The most characters of a client's text a refusal quotes.
pub const QUOTED: usize = 40;

/// `text` as a refusal quotes it: whole up to [`QUOTED`] characters, else cut there with `…`.
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}\u{2026}", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_at_forty_characters() {
        assert_eq!(quoted("K4-K6"), "K4-K6");
        let long = "é".repeat(1_000);
        assert_eq!(quoted(&long), format!("{}…", "é".repeat(QUOTED)));
    }
}
