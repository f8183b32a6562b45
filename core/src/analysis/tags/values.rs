//! The value grammars of §10.2: dates (T011), `Round` (T012), `Result` (T013), `TimeControl`
//! (T015), `Lang` (T016), the enumerations (T018) and identifiers (T020). Each issue points at
//! the first character of the value.

use super::{dates, identifier, shown, TagLine};
use crate::analysis::RESULTS;
use crate::diagnostics::{Code, Diagnostic, Findings, Fix};

/// The tags whose value is one of a fixed list (T018).
pub(crate) const ENUMERATIONS: [(&str, &[&str]); 4] = [
    ("Termination", &["abandoned", "rules infraction", "time forfeit", "death", "emergency"]),
    ("Mode", &["OTB", "ICS", "TC", "EM", "BBS"]),
    ("WhiteType", &["human", "program"]),
    ("BlackType", &["human", "program"]),
];

/// Checks the value of every tag that has a value grammar.
pub(super) fn check_values(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    for line in tags {
        let Some(value) = line.value.as_deref() else { continue };
        if let Some((code, message)) = value_problem(line.name, value) {
            let mut diagnostic = Diagnostic::new(code, line.value_range(), message);
            if let Some((title, fixed)) = value_fix(line.name, value) {
                diagnostic = diagnostic.with_fix(Fix::replace(title, line.value_range(), fixed));
            }
            diagnostics.push(diagnostic);
        }
    }
}

/// The code and message for a value its tag's grammar rejects.
fn value_problem(name: &str, value: &str) -> Option<(Code, String)> {
    match name {
        "Date" | "EventDate" | "MatchDate" => dates::date_problem(name, value).map(|message| (Code::T011, message)),
        "Round" => (!is_round(value)).then(|| {
            (Code::T012, format!("Round must be a number or numbers joined by dots (2.1), - or ?, not {}", shown(value)))
        }),
        "Result" => (!RESULTS.contains(&value))
            .then(|| (Code::T013, format!("Result must be {}, not {}", alternatives(&RESULTS), shown(value)))),
        "TimeControl" => (!is_time_control(value)).then(|| {
            (
                Code::T015,
                format!(
                    "TimeControl must be ?, -, moves/seconds (40/9000), seconds (4500), seconds+increment (4500+60) or *seconds (*180), not {}",
                    shown(value)
                ),
            )
        }),
        "Lang" => (!is_language(value)).then(|| {
            (Code::T016, format!("Lang must be a lower-case ISO 639 code of two or three letters (en, cat), not {}", shown(value)))
        }),
        "Id" | "Model" | "Revisited" | "Example" => (!identifier::is_identifier(value)).then(|| {
            (
                Code::T020,
                format!("{name} must be an identifier Publisher-Key[-Suffix…]: letters and digits joined by hyphens, not {}", shown(value)),
            )
        }),
        _ => enumeration_problem(name, value).map(|message| (Code::T018, message)),
    }
}

/// The obvious correction of a rejected value: a PGN date with dots or slashes written with
/// hyphens, an enumerated value in the wrong case.
fn value_fix(name: &str, value: &str) -> Option<(String, String)> {
    let fixed = match name {
        "Date" | "EventDate" | "MatchDate" => value.replace(['.', '/'], "-"),
        _ => {
            let (_, allowed) = ENUMERATIONS.iter().find(|(tag, _)| *tag == name)?;
            allowed.iter().find(|allowed| allowed.eq_ignore_ascii_case(value))?.to_string()
        }
    };
    (fixed != value && value_problem(name, &fixed).is_none())
        .then(|| (format!("Write {fixed}"), fixed))
}

fn enumeration_problem(name: &str, value: &str) -> Option<String> {
    let (_, allowed) = ENUMERATIONS.iter().find(|(tag, _)| *tag == name)?;
    (!allowed.contains(&value))
        .then(|| format!("{name} must be {}, not {}", alternatives(allowed), shown(value)))
}

/// `a, b or c`.
fn alternatives(values: &[&str]) -> String {
    match values {
        [] => String::new(),
        [only] => (*only).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `round = "-" | "‐" | "?" | number , { "." , number }` (`?` by the decision of §15 item 38).
fn is_round(value: &str) -> bool {
    matches!(value, "-" | "‐" | "?") || value.split('.').all(is_number)
}

/// `time_control = "?" | "-" | "‐" | number "/" number | number | number "+" number | "*" number`.
fn is_time_control(value: &str) -> bool {
    if matches!(value, "?" | "-" | "‐") {
        return true;
    }
    if let Some(seconds) = value.strip_prefix('*') {
        return is_number(seconds);
    }
    match value.split_once(['/', '+']) {
        Some((first, second)) => is_number(first) && is_number(second),
        None => is_number(value),
    }
}

/// `lang = 2 * lower_letter | 3 * lower_letter`.
fn is_language(value: &str) -> bool {
    (2..=3).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_lowercase())
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::{alternatives, is_language, is_round, is_time_control, value_problem};
    use crate::diagnostics::Code;

    #[test]
    fn rounds_are_dotted_numbers_or_not_applicable() {
        for good in ["1", "2.1", "10.2.3", "-", "‐", "?"] {
            assert!(is_round(good), "{good}");
        }
        for bad in ["first", "", "2.", ".1", "1..2", "2-1", "1 "] {
            assert!(!is_round(bad), "{bad}");
        }
    }

    #[test]
    fn time_controls_have_the_five_shapes() {
        for good in ["?", "-", "‐", "40/9000", "4500", "4500+60", "*180"] {
            assert!(is_time_control(good), "{good}");
        }
        for bad in ["40/2h", "", "*", "+60", "40/", "4500+60+5", "*180+1", "1:30", "90 min"] {
            assert!(!is_time_control(bad), "{bad}");
        }
    }

    #[test]
    fn languages_are_two_or_three_lower_case_letters() {
        assert!(is_language("en") && is_language("cat"));
        assert!(
            !is_language("English")
                && !is_language("EN")
                && !is_language("e")
                && !is_language("en-GB")
        );
    }

    #[test]
    fn messages_say_what_is_expected() {
        assert_eq!(
            value_problem("Mode", "online"),
            Some((Code::T018, "Mode must be OTB, ICS, TC, EM or BBS, not online".to_string()))
        );
        assert_eq!(value_problem("Result", "1-0").map(|(code, _)| code), Some(Code::T013));
        assert_eq!(value_problem("Event", "anything"), None);
        assert_eq!(alternatives(&["human", "program"]), "human or program");
    }
}
