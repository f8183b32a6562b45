//! The end of a record (handbook §7.4): the result line, what may follow it, and its agreement
//! with a final checkmate and with the `Result` tag.

use super::movetext::MainLineEnd;
use crate::diagnostics::{Code, Diagnostic, Findings, Fix};
use crate::format::dominant_line_ending;
use crate::pieces::Side;
use crate::syntax::chars::is_white_space;
use crate::syntax::Item;
use crate::text::{on_one_line, TextRange};

/// The six results of §7.4.
pub const RESULTS: [&str; 6] = ["3-0", "2-1", "0-3", "1-2", "1-1", "*"];

/// Checks the result line of the main line's `items` (the movetext).
pub fn check_results(
    text: &str,
    items: &[Item],
    end: &MainLineEnd,
    result_tag: Option<&(String, TextRange)>,
    result_tag_start: Option<usize>,
    diagnostics: &mut Findings,
) {
    let mut result: Option<(&str, TextRange)> = None;
    let mut previous_end: Option<usize> = None;
    // Broken text after the last move (`9.8`) may take in the line a fix would add, so that
    // it would not read as the result: no fix is offered then.
    let mut broken_after_moves = false;
    for item in items {
        match item {
            Item::Result(token) => {
                let value = token.text(text);
                if result.is_some() {
                    diagnostics.push(Diagnostic::new(
                        Code::M008,
                        token.range,
                        "a second result after the result line",
                    ));
                    continue;
                }
                if !RESULTS.contains(&value) {
                    let meant = suggestion(value);
                    let hint =
                        meant.map(|meant| format!(" (did you mean {meant}?)")).unwrap_or_default();
                    let mut diagnostic =
                        Diagnostic::new(Code::M007, token.range, format!("{value} is not a CTL-PGN result: expected 3-0, 2-1, 0-3, 1-2, 1-1 or *{hint}"));
                    if let Some(meant) = meant {
                        diagnostic = diagnostic.with_fix(Fix::replace(
                            format!("Write {meant}"),
                            token.range,
                            meant,
                        ));
                    }
                    diagnostics.push(diagnostic);
                }
                if previous_end.is_some_and(|end| on_one_line(text, end, token.range.start)) {
                    diagnostics.push(Diagnostic::new(
                        Code::M009,
                        token.range,
                        "the result stands on its own line",
                    ));
                }
                result = Some((value, token.range));
            }
            Item::MoveLine(line) if result.is_some() => diagnostics.push(Diagnostic::new(
                Code::M008,
                line.number.range,
                "moves after the result line: only comments may follow it",
            )),
            Item::Variation(variation) if result.is_some() => diagnostics.push(Diagnostic::new(
                Code::M008,
                variation.open.range,
                "a variation after the result line: only comments may follow it",
            )),
            Item::MoveLine(line) => {
                previous_end = Some(line.range.end);
                broken_after_moves =
                    line.half_moves().next().is_none() || line.half_moves().any(|h| h.has_error);
            }
            Item::Variation(variation) => {
                previous_end = Some(variation.range.end);
                // A result line added after a variation never closed would be inside it.
                broken_after_moves = variation.close.is_none();
            }
            Item::Error(_) => broken_after_moves = true,
            _ => {}
        }
    }
    let result_line = result.as_ref().filter(|(value, _)| RESULTS.contains(value));
    let tag = result_tag.filter(|(value, _)| RESULTS.contains(&value.as_str()));
    if result.is_none() {
        let range = end.last.as_ref().map_or(TextRange::empty(0), |(range, _, _)| *range);
        let mut diagnostic = Diagnostic::new(
            Code::M006,
            range,
            "the result line is missing: after the last move write 3-0, 2-1, 0-3, 1-2, 1-1 or *",
        );
        if let Some(movetext_end) = previous_end.filter(|_| !broken_after_moves) {
            // The result the record already implies: a mate's, else the Result tag's, else
            // the unfinished game's `*`.
            let value = match &end.last {
                Some((_, side, true)) => mated_result(*side),
                _ => tag.map_or("*", |(value, _)| value.as_str()),
            };
            let end_of_line =
                |from: usize| text[from..].find(['\n', '\r']).map_or(text.len(), |end| from + end);
            // The result line goes after the last move's line, or after the line a comment
            // starting on it closes on (`E13×F16 { … \n … }`); a comment never closed runs
            // to the end of the record, so the line would be added inside it.
            let mut line_end = Some(end_of_line(movetext_end));
            for item in items {
                let (Some(end), Item::Comment(comment)) = (line_end, item) else { continue };
                if comment.range.start < end && comment.range.end > end {
                    line_end = comment.closed.then(|| end_of_line(comment.range.end));
                }
            }
            if let Some(line_end) = line_end {
                // In the record's own line ending: a bare LF in a CRLF record is a layout
                // `fmt` changes back.
                let eol = dominant_line_ending(text);
                let at_end = line_end == text.len();
                let line =
                    if at_end { format!("{eol}{value}{eol}") } else { format!("{eol}{value}") };
                diagnostic = diagnostic.with_fix(Fix::replace(
                    format!("Add the result line {value}"),
                    TextRange::empty(line_end),
                    line,
                ));
            }
        }
        diagnostics.push(diagnostic);
    }
    if let (Some((line_value, line_range)), Some((tag_value, tag_range)), Some(start)) =
        (result_line, tag, result_tag_start)
    {
        if line_value != tag_value {
            let mut diagnostic = Diagnostic::new(
                Code::T014,
                TextRange::new(start, start + 1),
                format!("the Result tag says {tag_value} but the result line says {line_value}"),
            )
            .with_fix(Fix::replace(
                format!("Set the Result tag to {line_value}"),
                *tag_range,
                *line_value,
            ));
            // A result among other text (`(=3-0`) may no longer be read as one once changed.
            if stands_alone(text, line_range) {
                diagnostic = diagnostic.with_fix(Fix::replace(
                    format!("Change the result line to {tag_value}"),
                    *line_range,
                    tag_value.as_str(),
                ));
            }
            diagnostics.push(diagnostic);
        }
    }
    let decisive =
        result_line.map(|(value, range)| (value.to_string(), *range)).or_else(|| tag.cloned());
    if let (Some((range, side, mate)), Some((value, value_range))) = (&end.last, decisive) {
        let expected = mated_result(*side);
        if *mate && value != expected {
            let anchor = if result_line.is_some() { value_range } else { *range };
            let title = if result_line.is_some() {
                format!("Change the result line to {expected}")
            } else {
                format!("Set the Result tag to {expected}")
            };
            diagnostics.push(
                Diagnostic::new(
                    Code::M018,
                    anchor,
                    format!(
                        "{} mates on the last move, so the result is {expected}, not {value}",
                        side.name()
                    ),
                )
                .with_fix(Fix::replace(title, value_range, expected)),
            );
        }
        let stalemating = match value.as_str() {
            "2-1" => Some(Side::White),
            "1-2" => Some(Side::Black),
            _ => None,
        };
        if let Some(stalemating) = stalemating.filter(|s| s != side) {
            if let Some((_, result_range)) = result_line {
                diagnostics.push(Diagnostic::new(
                    Code::M028,
                    *result_range,
                    format!(
                        "{value} means {} stalemated, but the last half-move is {}'s",
                        stalemating.name(),
                        side.name()
                    ),
                ));
            }
        }
    }
}

/// The result of a game whose last half-move, by `side`, mates.
fn mated_result(side: Side) -> &'static str {
    match side {
        Side::White => "3-0",
        Side::Black => "0-3",
    }
}

/// The obvious fix for common non-CTL results.
/// Whether the text at `range` is alone on its line, but for blanks.
fn stands_alone(text: &str, range: &TextRange) -> bool {
    let line_start = text[..range.start].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    let line_end = text[range.end..].find(['\n', '\r']).map_or(text.len(), |at| range.end + at);
    text[line_start..range.start].trim_matches(is_white_space).is_empty()
        && text[range.end..line_end].trim_matches(is_white_space).is_empty()
}

fn suggestion(value: &str) -> Option<&'static str> {
    let compact: String = value.chars().filter(|&c| !is_white_space(c)).collect();
    let fix = match compact.as_str() {
        "1-0" => Some("3-0"),
        "0-1" => Some("0-3"),
        "1/2-1/2" => Some("1-1"),
        other if RESULTS.contains(&other) => RESULTS.iter().copied().find(|r| *r == other),
        _ => None,
    };
    fix
}

#[cfg(test)]
mod tests {
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::diagnostics::Code;
    use crate::syntax;
    use crate::text::TextRange;

    /// The titles of the fixes of `text`'s M006.
    fn result_line_fixes(text: &str) -> Vec<String> {
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let missing = analysis.diagnostics.iter().find(|d| d.code == Code::M006);
        let missing = missing.unwrap_or_else(|| panic!("M006 in {text:?}"));
        missing.fixes.iter().map(|fix| fix.title.clone()).collect()
    }

    #[test]
    fn the_result_line_is_added_only_after_moves_that_read() {
        let moves = "[Variant \"C'escacs\"]\n\n1. G7-G9, E21-E17\n";
        assert_eq!(result_line_fixes(moves), ["Add the result line *"]);
        // `9.8`: a move number with broken text after it, which would take in the `*` added.
        assert!(result_line_fixes("9.8").is_empty());
    }

    #[test]
    fn no_result_line_is_added_inside_a_variation_never_closed() {
        // Found by the fuzzer: the `*` added went into the variation, M006 stayed.
        assert!(result_line_fixes("({").is_empty());
        let moves = "[Variant \"C'escacs\"]\n\n1. G7-G9, E21-E17\n(1. G7-G8, E21-E19\n";
        assert!(result_line_fixes(moves).is_empty());
        let closed = "[Variant \"C'escacs\"]\n\n1. G7-G9, E21-E17\n(1. G7-G8, E21-E19)\n";
        assert_eq!(result_line_fixes(closed), ["Add the result line *"]);
    }

    #[test]
    fn a_result_line_is_changed_only_where_it_stands_alone() {
        let titles = |text: &str| {
            let record = syntax::parse_record(text);
            let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
            let mismatch = analysis.diagnostics.iter().filter(|d| d.code == Code::T014);
            mismatch.flat_map(|d| d.fixes.iter().map(|fix| fix.title.clone())).collect::<Vec<_>>()
        };
        let record = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6, E21-E19:\n3-0\n";
        assert_eq!(titles(record), ["Set the Result tag to 3-0", "Change the result line to *"]);
        // Found by the fuzzer: `(=*` is not read as `(=3-0` was.
        assert_eq!(titles("[Result\"*\"](=3-0\u{2616}3-0"), ["Set the Result tag to 3-0"]);
    }

    #[test]
    fn no_result_line_is_added_inside_a_comment_never_closed() {
        // Found by the fuzzer: the `*` added at the end of the line went into the comment.
        assert!(result_line_fixes("6.C9C1{").is_empty());
        let after = "[Variant \"C'escacs\"]\n\n1. G7-G9, E21-E17\n{ never closed\n";
        assert_eq!(result_line_fixes(after), ["Add the result line *"]);
    }

    #[test]
    fn a_result_line_goes_after_a_comment_closed_on_a_later_line() {
        // Found by the fuzzer: the `*` added at the end of the move's line went into a comment
        // that started there and closed lines below.
        let text = "[Variant \"C'escacs\"]\n\n1. G7-G9, E21-E17 { one\ntwo }\n{ after }\n";
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let missing = analysis.diagnostics.iter().find(|d| d.code == Code::M006).expect("M006");
        let [fix] = missing.fixes.as_slice() else { panic!("{:?}", missing.fixes) };
        let line_end = text.find("two }").expect("the comment") + "two }".len();
        assert_eq!(fix.edits[0].range, TextRange::empty(line_end));
    }
}
