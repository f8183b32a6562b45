//! Dates of `Date`, `EventDate` and `MatchDate` (§10.2, T011): `YYYY-MM-DD` where any digit
//! may be `?`. A date is accepted when some reading of its unknown digits is a calendar day,
//! so `2024-02-29` and `????-02-29` pass while `2023-02-29`, `2020-13-01` and `2024-1?-32` do not.

/// What is wrong with a date value, as the end of a message naming the tag; `None` when fine.
pub(super) fn date_problem(name: &str, value: &str) -> Option<String> {
    let Some(date) = PartialDate::parse(value) else {
        return Some(format!(
            "{name} must be YYYY-MM-DD (? for unknown digits), not {}",
            super::shown(value)
        ));
    };
    if !date.month.readings().any(|month| (1..=12).contains(&month)) {
        return Some(format!("{name} month must be 01 to 12, not {}", date.month.text));
    }
    if !date.day.readings().any(|day| (1..=31).contains(&day)) {
        return Some(format!("{name} day must be 01 to 31, not {}", date.day.text));
    }
    if !date.has_calendar_reading() {
        return Some(format!("{name} {value} is not a calendar date: {}", date.calendar_problem()));
    }
    None
}

/// A date whose digits may be unknown.
#[derive(Debug)]
struct PartialDate<'a> {
    year: Digits<'a>,
    month: Digits<'a>,
    day: Digits<'a>,
}

impl<'a> PartialDate<'a> {
    fn parse(value: &'a str) -> Option<PartialDate<'a>> {
        let mut parts = value.split('-');
        let date = PartialDate {
            year: Digits::parse(parts.next()?, 4)?,
            month: Digits::parse(parts.next()?, 2)?,
            day: Digits::parse(parts.next()?, 2)?,
        };
        parts.next().is_none().then_some(date)
    }

    /// Whether some reading of the unknown digits names a day of the calendar. Only
    /// February 29 depends on the year, so the year's readings are tried for that day alone.
    fn has_calendar_reading(&self) -> bool {
        let some_leap_year = || self.year.readings().any(is_leap_year);
        self.month.readings().filter(|month| (1..=12).contains(month)).any(|month| {
            self.day.readings().any(|day| {
                day >= 1
                    && (day <= days_in_common_year_month(month)
                        || (month == 2 && day == 29 && some_leap_year()))
            })
        })
    }

    /// Why no reading is a calendar day. Every month reading has a 31st day unless the month
    /// is fully known, so the month is named whenever it is known.
    fn calendar_problem(&self) -> String {
        match self.month.known() {
            Some(2) if self.day.known() == Some(29) => match self.year.known() {
                Some(year) => {
                    format!("February 29 exists only in leap years, and {year} is not one")
                }
                None => "February 29 exists only in leap years".to_string(),
            },
            Some(2) => "February has 28 days (29 in leap years)".to_string(),
            Some(month) => format!(
                "{} has {} days",
                MONTH_NAMES[month as usize - 1],
                days_in_common_year_month(month)
            ),
            None => "no month has that day".to_string(),
        }
    }
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A fixed number of decimal digits, each possibly `?`.
#[derive(Debug)]
struct Digits<'a> {
    text: &'a str,
}

impl<'a> Digits<'a> {
    fn parse(text: &'a str, length: usize) -> Option<Digits<'a>> {
        (text.len() == length && text.bytes().all(|b| b.is_ascii_digit() || b == b'?'))
            .then_some(Digits { text })
    }

    /// The number when every digit is known.
    fn known(&self) -> Option<u32> {
        self.text.parse().ok()
    }

    /// Every number the digits may stand for, in increasing order.
    fn readings(&self) -> impl Iterator<Item = u32> + '_ {
        let count = 10u32.pow(self.text.len() as u32);
        (0..count).filter(move |number| {
            self.text.bytes().rev().zip(0u32..).all(|(pattern, place)| {
                pattern == b'?' || u32::from(pattern - b'0') == number / 10u32.pow(place) % 10
            })
        })
    }
}

/// The length of a month outside leap years; February 29 is judged apart.
fn days_in_common_year_month(month: u32) -> u32 {
    match month {
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// `is_multiple_of` needs Rust 1.87, and the workspace still supports 1.85.
#[allow(clippy::manual_is_multiple_of)]
fn is_leap_year(year: u32) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

#[cfg(test)]
mod tests {
    use super::date_problem;

    #[test]
    fn unknown_digits_are_accepted_when_some_reading_is_a_calendar_day() {
        for good in [
            "2024-03-09",
            "????-??-??",
            "201?-??-??",
            "2024-02-29",
            "????-02-29",
            "2000-02-29",
            "2024-1?-3?",
            "2024-??-31",
        ] {
            assert_eq!(date_problem("Date", good), None, "{good}");
        }
    }

    #[test]
    fn shapes_months_days_and_calendar_days_are_checked() {
        let problem = |value| date_problem("Date", value).unwrap_or_default();
        assert_eq!(
            problem("2024/02/03"),
            "Date must be YYYY-MM-DD (? for unknown digits), not 2024/02/03"
        );
        assert_eq!(
            problem("2020.08.15"),
            "Date must be YYYY-MM-DD (? for unknown digits), not 2020.08.15"
        );
        assert_eq!(
            problem("24-02-03"),
            "Date must be YYYY-MM-DD (? for unknown digits), not 24-02-03"
        );
        assert_eq!(
            problem(""),
            "Date must be YYYY-MM-DD (? for unknown digits), not an empty value"
        );
        assert_eq!(problem("2020-13-01"), "Date month must be 01 to 12, not 13");
        assert_eq!(problem("2020-2?-01"), "Date month must be 01 to 12, not 2?");
        assert_eq!(problem("2020-00-01"), "Date month must be 01 to 12, not 00");
        assert_eq!(problem("2020-01-32"), "Date day must be 01 to 31, not 32");
        assert_eq!(problem("2020-01-00"), "Date day must be 01 to 31, not 00");
        assert_eq!(problem("2023-02-29"), "Date 2023-02-29 is not a calendar date: February 29 exists only in leap years, and 2023 is not one");
        assert_eq!(problem("1900-02-29"), "Date 1900-02-29 is not a calendar date: February 29 exists only in leap years, and 1900 is not one");
        assert_eq!(
            problem("2023-04-31"),
            "Date 2023-04-31 is not a calendar date: April has 30 days"
        );
        assert_eq!(
            problem("????-02-3?"),
            "Date ????-02-3? is not a calendar date: February has 28 days (29 in leap years)"
        );
        assert_eq!(
            problem("???1-02-29"),
            "Date ???1-02-29 is not a calendar date: February 29 exists only in leap years"
        );
    }
}
