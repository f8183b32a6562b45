//! A text's diagnostics (or any other marks on it) rendered under the source lines they point
//! at, for a test to compare whole: each annotated line with its number, then under it one
//! line per annotation, carets under the characters of its range and a label after them:
//!
//! ```text
//! 10 | 10. JC21×G21, NH22-H16:
//!    |               ^^^^^^^^ error[K003]: H22 holds a pawn, not a Knight … [origin-wrong-piece]
//! ```
//!
//! Lines and columns count as the handbook writes positions (1-based, in characters, the
//! byte-order mark not counted). A range that goes on past its first line has carets to that
//! line's end, then `…` and where it ends (`(to 9:1)`, exclusive); an empty range has one
//! caret under the place and says `(empty)`. Tabs stay tabs under the source so that the
//! carets line up.

use std::ops::Range;

use ctlpgn_core::diagnostics::Diagnostic;
use ctlpgn_core::text::LineIndex;
use serde_json::Value;

use crate::positions::{byte_range, Encoding};

/// A mark on a text: the bytes it points at and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub range: Range<usize>,
    pub label: String,
}

/// The label of a diagnostic, as `ctlpgn check` heads one: `error[K003]: message [name]`.
pub fn diagnostic_label(diagnostic: &Diagnostic) -> String {
    format!(
        "{}[{}]: {} [{}]",
        diagnostic.severity.as_str(),
        diagnostic.code.as_str(),
        diagnostic.message,
        diagnostic.code.name()
    )
}

/// The diagnostics of `text` (their ranges in it) rendered under its lines.
pub fn render_diagnostics(text: &str, diagnostics: &[Diagnostic]) -> String {
    let annotations: Vec<Annotation> = diagnostics
        .iter()
        .map(|diagnostic| Annotation {
            range: diagnostic.range.start..diagnostic.range.end,
            label: diagnostic_label(diagnostic),
        })
        .collect();
    render(text, &annotations)
}

/// Ranges of the protocol in `text` (in `encoding`'s units, as an answer gives them), each with
/// a label, rendered under the lines: how a test shows where an answer points.
pub fn render_ranges<'a>(
    text: &str,
    encoding: Encoding,
    ranges: impl IntoIterator<Item = (&'a Value, String)>,
) -> String {
    let annotations: Vec<Annotation> = ranges
        .into_iter()
        .map(|(range, label)| Annotation { range: byte_range(text, range, encoding), label })
        .collect();
    render(text, &annotations)
}

/// The label of a diagnostic of the protocol as [`diagnostic_label`] writes the core's:
/// `error[K003]: message [name]` (the server's message ends with the name).
pub fn lsp_diagnostic_label(diagnostic: &Value) -> String {
    let severity = match diagnostic["severity"].as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        Some(3) => "information",
        Some(4) => "hint",
        _ => "(no severity)",
    };
    let code = diagnostic["code"].as_str().unwrap_or("(no code)");
    format!("{severity}[{code}]: {}", diagnostic["message"].as_str().unwrap_or(""))
}

/// Diagnostics of the protocol (an array, as published or pulled, ranges in `encoding`'s
/// units) rendered under the lines of `text`.
pub fn render_lsp_diagnostics(text: &str, diagnostics: &Value, encoding: Encoding) -> String {
    let diagnostics = diagnostics.as_array().expect("an array of diagnostics");
    render_ranges(
        text,
        encoding,
        diagnostics
            .iter()
            .map(|diagnostic| (&diagnostic["range"], lsp_diagnostic_label(diagnostic))),
    )
}

/// The annotated lines of `text`, in order, each with its annotations under it in the order
/// of their ranges; nothing when there are none.
pub fn render(text: &str, annotations: &[Annotation]) -> String {
    let lines = LineIndex::new(text);
    let mut sorted: Vec<&Annotation> = annotations.iter().collect();
    sorted.sort_by(|a, b| {
        (a.range.start, a.range.end, &a.label).cmp(&(b.range.start, b.range.end, &b.label))
    });
    let line_of = |offset: usize| lines.line_of(offset.min(text.len()));
    let width = sorted.last().map_or(1, |last| (line_of(last.range.start) + 1).to_string().len());
    let mut out = String::new();
    let mut index = 0;
    while index < sorted.len() {
        let line = line_of(sorted[index].range.start);
        let (start, end) = line_bounds(text, &lines, line);
        out.push_str(&format!("{:>width$} |", line + 1));
        if start < end {
            out.push(' ');
            out.push_str(&text[start..end]);
        }
        out.push('\n');
        while index < sorted.len() && line_of(sorted[index].range.start) == line {
            let annotation = sorted[index];
            out.push_str(&format!("{:width$} | ", ""));
            out.push_str(&under(text, &lines, start, end, annotation));
            out.push('\n');
            index += 1;
        }
    }
    out
}

/// Where the content of a 0-based line starts and ends (before its line break), the file's
/// byte-order mark left out.
fn line_bounds(text: &str, lines: &LineIndex, line: usize) -> (usize, usize) {
    let mut start = lines.line_start(line);
    if start == 0 && text.starts_with('\u{FEFF}') {
        start = '\u{FEFF}'.len_utf8();
    }
    let end = text[start..].find(['\n', '\r']).map_or(text.len(), |at| start + at);
    (start, end)
}

/// The annotation line under a source line whose content is `start..end`.
fn under(
    text: &str,
    lines: &LineIndex,
    start: usize,
    end: usize,
    annotation: &Annotation,
) -> String {
    let from = annotation.range.start.clamp(start, text.len());
    let to = annotation.range.end.min(text.len());
    let mut marks: String =
        text[start..from.min(end)].chars().map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let carets = text[from.min(end)..to.clamp(from.min(end), end)].chars().count().max(1);
    marks.extend(std::iter::repeat_n('^', carets));
    if to > end {
        let (line, column) = lines.line_column(text, to);
        marks.push_str(&format!("… (to {line}:{column})"));
    } else if annotation.range.is_empty() {
        marks.push_str(" (empty)");
    }
    marks.push(' ');
    marks.push_str(&annotation.label);
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str, label: &str) -> Annotation {
        let start = text.find(needle).expect("the needle is in the text");
        Annotation { range: start..start + needle.len(), label: label.to_string() }
    }

    #[test]
    fn carets_count_characters_under_the_line_with_its_number() {
        let text = "[White \"Núria\"]\n\n3. E13×F16 … 🩐D2-E7\n*\n";
        let annotations = [at(text, "🩐D2", "second"), at(text, "×F16", "first")];
        assert_eq!(
            render(text, &annotations),
            "3 | 3. E13×F16 … 🩐D2-E7\n  |       ^^^^ first\n  |              ^^^ second\n"
        );
    }

    #[test]
    fn a_range_past_its_line_says_where_it_ends_and_an_empty_one_says_so() {
        let text = "\u{FEFF}{ open\r\n\tstill open\r\n}\r\n1. E7-E13:\r\n";
        let comment =
            Annotation { range: 3..text.find('}').expect("a brace") + 1, label: "N".into() };
        let before = at(text, "open\r\n\t", "");
        let tab = text.find("still").expect("still");
        let annotations = [
            comment,
            Annotation { range: before.range.start..before.range.start, label: "empty".into() },
            Annotation { range: tab..tab + 5, label: "tab".into() },
        ];
        assert_eq!(
            render(text, &annotations),
            "1 | { open\n  | ^^^^^^… (to 3:2) N\n  |   ^ (empty) empty\n2 | \tstill open\n  | \t^^^^^ tab\n"
        );
    }

    #[test]
    fn nothing_is_rendered_without_annotations_and_line_numbers_share_a_width() {
        assert_eq!(render("1. E7-E13:\n", &[]), "");
        let text = format!("{}x\n", "\n".repeat(11));
        let annotations =
            [at(&text, "x", "eleventh"), Annotation { range: 0..0, label: "first".into() }];
        assert_eq!(
            render(&text, &annotations),
            " 1 |\n   | ^ (empty) first\n12 | x\n   | ^ eleventh\n"
        );
    }
}
