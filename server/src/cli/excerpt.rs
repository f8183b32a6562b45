//! The source excerpt under a diagnostic of `ctlpgn check`: the line it starts on, cut to a
//! window of at most [`WINDOW`] characters around the caret, with `…` where the line goes on.
//! Echoing whole lines made a 10 kB line of stray `)` (a diagnostic per character) print
//! 151 MB; the window keeps every diagnostic's output bounded, and finding it reads only the
//! characters it shows. The characters that would act on the terminal are shown by their
//! stand-ins (`terminal`), and the carets stay under the characters they point at.

use super::terminal::{push_shown, shown_width};

/// The most characters of the source line an excerpt shows.
pub const WINDOW: usize = 100;

/// How many characters before the caret the window keeps when the line goes on after it.
const BEFORE_CARET: usize = 30;

/// A line of source and the line of carets under it, ready to print after the gutter.
#[derive(Debug, PartialEq, Eq)]
pub struct Excerpt {
    pub source: String,
    pub carets: String,
}

/// The excerpt of the line starting at byte `line_start` for a diagnostic spanning
/// `start..end` (bytes; `end` may lie on a later line, the carets then stop at the line's
/// end). Columns count characters; tabs in the source stay tabs under it so that the carets
/// line up, a leading byte-order mark is not shown, and a character shown by a longer
/// stand-in (`\u{202e}`) has as many spaces or carets under it.
pub fn excerpt(text: &str, line_start: usize, start: usize, end: usize) -> Excerpt {
    let start = start.min(text.len());
    let mut line_start = line_start.min(start);
    if line_start == 0 && text.starts_with('\u{FEFF}') && start >= 3 {
        line_start = 3;
    }
    // Up to a window of characters before the caret, nearest first, and one more to know
    // whether the line was cut.
    let before: Vec<usize> = text[line_start..start]
        .char_indices()
        .rev()
        .map(|(at, _)| line_start + at)
        .take(WINDOW + 1)
        .collect();
    let kept_before = before.len().min(BEFORE_CARET);
    let after_budget = WINDOW - kept_before;
    let rest = &text[start..];
    let mut after_end = start;
    let mut after_count = 0;
    let mut cut_after = false;
    for (at, c) in rest.char_indices() {
        if c == '\n' || c == '\r' {
            break;
        }
        if after_count == after_budget {
            cut_after = true;
            break;
        }
        after_count += 1;
        after_end = start + at + c.len_utf8();
    }
    // The characters before the caret fill what the line after it left of the window.
    let shown_before = before.len().min(WINDOW - after_count);
    let cut_before = before.len() > shown_before;
    let from = if shown_before == 0 { start } else { before[shown_before - 1] };
    let caret_count =
        text[start..after_end.min(end.max(start))].chars().map(shown_width).sum::<usize>().max(1);

    let mut source = String::with_capacity(after_end - from + 8);
    let mut carets = String::with_capacity(WINDOW + 8);
    if cut_before {
        source.push('…');
        carets.push(' ');
    }
    for c in text[from..after_end].chars() {
        push_shown(&mut source, c);
    }
    if cut_after {
        source.push('…');
    }
    for c in text[from..start].chars() {
        match c {
            '\t' => carets.push('\t'),
            _ => carets.extend(std::iter::repeat_n(' ', shown_width(c))),
        }
    }
    carets.extend(std::iter::repeat_n('^', caret_count));
    Excerpt { source, carets }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str) -> Excerpt {
        let start = text.find(needle).expect("the needle is in the text");
        let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
        excerpt(text, line_start, start, start + needle.len())
    }

    #[test]
    fn a_short_line_is_shown_whole_with_carets_under_the_span() {
        let text = "1. E7-E13, E21-E15\n2. E13×F16, E9-E13:\n";
        let shown = at(text, "E9-E13");
        assert_eq!(shown.source, "2. E13×F16, E9-E13:");
        assert_eq!(shown.carets, "            ^^^^^^");
    }

    #[test]
    fn a_long_line_is_cut_around_the_caret_with_ellipses() {
        let line = format!("{}×X{}", "é".repeat(5_000), ")".repeat(5_000));
        let shown = at(&line, "×X");
        assert_eq!(shown.source.chars().count(), WINDOW + 2);
        assert!(shown.source.starts_with("…éé") && shown.source.ends_with("))…"), "{shown:?}");
        let caret_column = shown.carets.find('^').expect("a caret");
        assert_eq!(shown.source.chars().nth(caret_column), Some('×'));
        assert_eq!(shown.carets.trim_start(), "^^");
    }

    #[test]
    fn a_caret_near_the_end_of_a_long_line_shows_more_before_it() {
        let line = format!("{}X)", "(".repeat(10_000));
        let shown = at(&line, "X");
        assert_eq!(shown.source, format!("…{}X)", "(".repeat(WINDOW - 2)));
        assert_eq!(shown.carets, format!("{}^", " ".repeat(WINDOW - 1)));
    }

    #[test]
    fn tabs_are_kept_and_the_byte_order_mark_is_not_shown() {
        let text = "\u{FEFF}\t[Foo \"x\"]\n";
        let shown = at(text, "Foo");
        assert_eq!(shown.source, "\t[Foo \"x\"]");
        assert_eq!(shown.carets, "\t ^^^");
    }

    #[test]
    fn control_characters_are_shown_by_stand_ins_and_the_carets_stay_under_their_span() {
        // A window title, a bidirectional override and a zero-width space before the span,
        // an escape sequence inside it.
        let text = "[Event \"\u{1b}]0;pwned\u{7}\u{202e}x\u{200b}\"] {\u{1b}[2J}\n";
        let shown = at(text, "{\u{1b}[2J}");
        assert_eq!(shown.source, "[Event \"␛]0;pwned␇\\u{202e}x\\u{200b}\"] {␛[2J}");
        assert!(!shown.source.chars().any(|c| c.is_control()), "{:?}", shown.source);
        // The carets (after spaces, one a column) are under the span's characters as shown.
        let under = |shown: &Excerpt| {
            let caret = shown.carets.find('^').expect("a caret");
            let count = shown.carets.len() - caret;
            shown.source.chars().skip(caret).take(count).collect::<String>()
        };
        assert_eq!(under(&shown), "{␛[2J}");
        // A stand-in inside the span is wholly under carets.
        assert_eq!(under(&at(text, "\u{202e}x")), "\\u{202e}x");
    }

    #[test]
    fn a_span_past_the_line_end_stops_at_it() {
        let text = "{ never closed\nmore\n";
        let shown = excerpt(text, 0, 0, text.len());
        assert_eq!(shown.source, "{ never closed");
        assert_eq!(shown.carets, "^".repeat(14));
    }
}
