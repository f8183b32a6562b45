//! Identifiers of items (§10.5): the coarse shape `Publisher-Key[-Suffix…]` of `Id`, `Model`,
//! `Revisited` and `Example` (T020), and the `AnnotatorId` that an annotator-draft key
//! `A<digits>` requires (T021).

use super::TagLine;
use crate::diagnostics::{Code, Diagnostic, Findings};

/// The hyphens that join the parts of an identifier: ASCII and U+2010.
const HYPHENS: [char; 2] = ['-', '‐'];

/// Whether a value has the shape `^[A-Za-z0-9]+([-‐][A-Za-z0-9?:]+)+$`.
pub(super) fn is_identifier(value: &str) -> bool {
    let mut parts = value.split(HYPHENS);
    let publisher = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    is_non_empty_and_all(publisher, |c| c.is_ascii_alphanumeric())
        && !rest.is_empty()
        && rest.iter().all(|part| {
            is_non_empty_and_all(part, |c| c.is_ascii_alphanumeric() || c == '?' || c == ':')
        })
}

fn is_non_empty_and_all(part: &str, allowed: impl Fn(char) -> bool) -> bool {
    !part.is_empty() && part.chars().all(allowed)
}

/// The digits of an annotator-draft key: the key (the part after the publisher) is `A`
/// followed by a number, and the digits of that number follow it (`Cescacs-A0001-24` gives
/// `0001`). Other keys give `None`, including words that merely start with `A`.
fn annotator_draft_digits(id: &str) -> Option<&str> {
    let key = id.split(HYPHENS).nth(1)?;
    let number = key.strip_prefix('A')?;
    let digits = &number[..number.find(|c: char| !c.is_ascii_digit()).unwrap_or(number.len())];
    (!digits.is_empty()).then_some(digits)
}

/// T021: an `Id` with an annotator-draft key needs an `AnnotatorId` holding the key's digits.
pub(super) fn check_annotator_id(tags: &[TagLine<'_>], diagnostics: &mut Findings) {
    let Some(id) = tags.iter().find(|line| line.name == "Id") else { return };
    let Some(id_value) = id.value.as_deref() else { return };
    let Some(key_digits) = annotator_draft_digits(id_value) else { return };
    match tags.iter().find(|line| line.name == "AnnotatorId") {
        None => diagnostics.push(Diagnostic::new(
            Code::T021,
            id.line_range(),
            format!("Id {id_value} is an annotator's draft: add [AnnotatorId \"{key_digits}\"]"),
        )),
        Some(annotator_id) => {
            let value = annotator_id.value.as_deref().unwrap_or_default();
            if value != key_digits {
                diagnostics.push(Diagnostic::new(
                    Code::T021,
                    annotator_id.line_range(),
                    format!("AnnotatorId must be {key_digits}, the number of the key of Id {id_value}, not {}", super::shown(value)),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{annotator_draft_digits, is_identifier};

    #[test]
    fn identifiers_are_parts_joined_by_hyphens() {
        for good in [
            "Cescacs-X01",
            "Cescacs-X01-V-en",
            "Demo-P03-C?b-16",
            "Cescacs‐A0001‐24",
            "Pub-VS1:2-en",
        ] {
            assert!(is_identifier(good), "{good}");
        }
        for bad in [
            "Cescacs X01",
            "Cescacs",
            "Cescacs-",
            "-X01",
            "Cescacs--X01",
            "Ces?-X01",
            "Cescacs-X01 en",
            "Cescàcs-X01",
            "",
        ] {
            assert!(!is_identifier(bad), "{bad}");
        }
    }

    #[test]
    fn annotator_drafts_have_an_a_key_with_a_number() {
        assert_eq!(annotator_draft_digits("Cescacs-A0001-24"), Some("0001"));
        assert_eq!(annotator_draft_digits("Cescacs‐A12"), Some("12"));
        assert_eq!(annotator_draft_digits("Cescacs-Alpha-1"), None);
        assert_eq!(annotator_draft_digits("Cescacs-X01"), None);
        assert_eq!(annotator_draft_digits("Cescacs"), None);
    }
}
