//! The census of a text's diagnostics (how many of each code, how many errors) and the verdict
//! on a quick fix it gives: a fix must lower the count of its diagnostic's code and add no
//! error. One definition for the analysis, which offers only fixes that pass on records
//! tree-sitter had to recover, and for the tests and the fuzzer, which judge every fix.

use std::collections::BTreeMap;

use super::{Code, Diagnostic, Severity};

/// How many diagnostics of each code, and how many errors, a text has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    pub codes: BTreeMap<Code, usize>,
    pub errors: usize,
}

impl Census {
    /// The census of some diagnostics.
    pub fn of<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Census {
        let mut census = Census::default();
        for diagnostic in diagnostics {
            census.tally(diagnostic);
        }
        census
    }

    /// Counts one more diagnostic.
    pub fn tally(&mut self, diagnostic: &Diagnostic) {
        *self.codes.entry(diagnostic.code).or_insert(0) += 1;
        self.errors += usize::from(diagnostic.severity == Severity::Error);
    }

    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &Census) {
        for (&code, &count) in &other.codes {
            *self.codes.entry(code).or_insert(0) += count;
        }
        self.errors += other.errors;
    }

    /// How many diagnostics of `code`.
    pub fn count(&self, code: Code) -> usize {
        self.codes.get(&code).copied().unwrap_or(0)
    }
}

/// What a quick fix did to its text, judged by the census before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixVerdict {
    /// `(before, after)` diagnostics of the fixed code when the fix did not lower their
    /// number (a renumbering or a result line may clear several, so fewer is enough).
    pub keeps_diagnostic: Option<(usize, usize)>,
    /// `(before, after)` errors when the fix added some. An error fixed may let the replay go
    /// on and find a later one, so that is not counted against it.
    pub adds_errors: Option<(usize, usize)>,
}

impl FixVerdict {
    /// The verdict on a fix of `diagnostic` that turned a text of census `before` into one
    /// of census `after`.
    pub fn of(diagnostic: &Diagnostic, before: &Census, after: &Census) -> FixVerdict {
        let (code_before, code_after) =
            (before.count(diagnostic.code), after.count(diagnostic.code));
        let replay_went_on = after.errors > 0 && diagnostic.severity == Severity::Error;
        FixVerdict {
            keeps_diagnostic: (code_after >= code_before).then_some((code_before, code_after)),
            adds_errors: (after.errors > before.errors && !replay_went_on)
                .then_some((before.errors, after.errors)),
        }
    }

    /// Whether the fix did what a fix must.
    pub fn helps(&self) -> bool {
        self.keeps_diagnostic.is_none() && self.adds_errors.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::TextRange;

    fn diagnostic(code: Code) -> Diagnostic {
        Diagnostic::new(code, TextRange::new(0, 1), "m")
    }

    #[test]
    fn a_fix_must_lower_its_codes_count_and_add_no_error() {
        let m006 = diagnostic(Code::M006);
        let before = Census::of([&m006, &diagnostic(Code::T001)]);
        let cleared = Census::of([&diagnostic(Code::T001)]);
        assert!(FixVerdict::of(&m006, &before, &cleared).helps());
        let kept = FixVerdict::of(&m006, &before, &before);
        assert_eq!(kept.keeps_diagnostic, Some((1, 1)));
        let hint = diagnostic(Code::N019).with_severity(Severity::Hint);
        let with_hint = Census::of([&hint]);
        let worse = Census::of([&diagnostic(Code::S001), &diagnostic(Code::M006)]);
        let verdict = FixVerdict::of(&hint, &with_hint, &worse);
        assert_eq!(verdict.adds_errors, Some((0, 2)));
        assert!(!verdict.helps());
    }
}
