//! The diagnostics one pass of a record's analysis finds, at most [`MAX_PER_PASS`] of them:
//! past that a finding is counted, not kept, and the list ends with one S015 saying how many
//! were left out and where the first of them is. A record of a million faults (`9.8`
//! repeated: a move number without a move, out of sequence, on a line with others) is listed
//! in a few hundred diagnostics, and memory and output stay in proportion to those; a pass
//! that would compute something costly for a finding (a quick fix) asks [`Findings::is_full`]
//! first.

use super::{Census, Code, Diagnostic};
use crate::text::TextRange;

/// The most diagnostics one pass keeps for one record.
pub const MAX_PER_PASS: usize = 100;

/// The passes of a record's analysis, each with its own [`MAX_PER_PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// What the parse could not read: malformed tag lines, missing tokens (S001, S002).
    Syntax,
    /// The tag section: the setup tags and every tag's rules (T, P codes).
    Tags,
    /// The movetext walk: half-moves read and replayed, structure and results (S, C, K, M).
    Movetext,
    /// The comments and their references (N codes).
    Comments,
    /// The optional rule checks (R codes).
    Rules,
}

impl Pass {
    /// The part of a record the pass looks at, as a message names it.
    fn part(self) -> &'static str {
        match self {
            Pass::Syntax => "syntax",
            Pass::Tags => "tag section",
            Pass::Movetext => "movetext",
            Pass::Comments => "comments",
            Pass::Rules => "rule checks",
        }
    }
}

/// A pass's diagnostics, kept up to [`MAX_PER_PASS`] and counted past it.
#[derive(Debug)]
pub struct Findings {
    pass: Pass,
    kept: Vec<Diagnostic>,
    /// The diagnostics counted, not kept, by code: a fix judged by the census of a record
    /// counts them too (one M001 fixed of 30,000 leaves a hundred listed).
    left_out: Census,
    /// Where the first diagnostic left out was.
    first_left_out: TextRange,
}

impl Findings {
    pub fn new(pass: Pass) -> Findings {
        Findings {
            pass,
            kept: Vec::new(),
            left_out: Census::default(),
            first_left_out: TextRange::empty(0),
        }
    }

    /// Keeps `diagnostic`, or counts it when the pass has kept its [`MAX_PER_PASS`].
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if self.is_full() {
            if self.left_out.codes.is_empty() {
                self.first_left_out = diagnostic.range;
            }
            self.left_out.tally(&diagnostic);
        } else {
            self.kept.push(diagnostic);
        }
    }

    /// [`Findings::push`] for each diagnostic.
    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        for diagnostic in diagnostics {
            self.push(diagnostic);
        }
    }

    /// Whether a diagnostic pushed now would only be counted: work that serves only the
    /// diagnostic (its quick fix) can be skipped.
    pub fn is_full(&self) -> bool {
        self.kept.len() >= MAX_PER_PASS
    }

    /// The diagnostics kept, then the S015 that counts those left out, if any were; those left
    /// out are added to `left_out`.
    pub fn into_diagnostics(mut self, left_out: &mut Census) -> Vec<Diagnostic> {
        let count: usize = self.left_out.codes.values().sum();
        left_out.add(&self.left_out);
        if count > 0 {
            let part = self.pass.part();
            let more = if count == 1 {
                format!("1 more finding in this record's {part} is not listed, here")
            } else {
                format!(
                    "{count} more findings in this record's {part} are not listed, the first here"
                )
            };
            self.kept.push(Diagnostic::new(
                Code::S015,
                self.first_left_out,
                format!(
                    "{more}: at most {MAX_PER_PASS} are listed for each part of a record (syntax, tag section, movetext, comments, rule checks); correct those listed and check again"
                ),
            ));
        }
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(at: usize) -> Diagnostic {
        Diagnostic::new(Code::M001, TextRange::new(at, at + 2), "move number 9, expected 2")
    }

    #[test]
    fn past_its_maximum_a_pass_counts_its_findings_and_says_where_the_first_left_out_is() {
        let mut findings = Findings::new(Pass::Movetext);
        findings.extend((0..MAX_PER_PASS + 7).map(|n| finding(n * 3)));
        assert!(findings.is_full());
        let mut left_out = Census::default();
        let diagnostics = findings.into_diagnostics(&mut left_out);
        assert_eq!((left_out.count(Code::M001), left_out.errors), (7, 7));
        assert_eq!(diagnostics.len(), MAX_PER_PASS + 1);
        let notice = &diagnostics[MAX_PER_PASS];
        assert_eq!((notice.code, notice.range), (Code::S015, TextRange::new(300, 302)));
        assert!(
            notice.message.starts_with(
                "7 more findings in this record's movetext are not listed, the first here: at \
                 most 100 are listed"
            ),
            "{}",
            notice.message
        );
    }

    #[test]
    fn a_pass_within_its_maximum_lists_everything_and_no_notice() {
        let mut findings = Findings::new(Pass::Comments);
        findings.extend((0..MAX_PER_PASS).map(finding));
        assert!(findings.is_full());
        let mut left_out = Census::default();
        let diagnostics = findings.into_diagnostics(&mut left_out);
        assert_eq!(left_out, Census::default());
        assert_eq!(diagnostics.len(), MAX_PER_PASS);
        assert!(diagnostics.iter().all(|d| d.code == Code::M001));
    }
}
