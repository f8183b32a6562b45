//! A record of a document: its place, its immutable state (text and findings), and its parse
//! (tree, lowered syntax, analysis), which is derived again when a request needs it.
//!
//! A record larger than [`LARGE_RECORD`] is read by the hand-written reader at every change
//! and keeps no tree: its tree would hold about 20 bytes per byte of text and take tree-sitter
//! and the lowering about four times the reader's time, for no feature (the tree is only the
//! base of the next incremental parse). Such a record is one a program wrote, a whole game on
//! one line or thousands of moves, rarely typed in.

use std::cell::RefCell;
use std::mem::size_of;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use super::derived::Derived;
use super::incremental;
use super::view::RecordView;
use crate::analysis::{
    analyse_syntax, AnalysisOptions, Keep, PlayedHalfMove, RecordAnalysis, RuleChecks,
};
use crate::diagnostics::{Diagnostic, Fix};
use crate::syntax::{self, RecordSyntax};
use crate::text::{TextEdit, TextRange};

/// What the document keeps of a record. It never changes once built: a record whose text
/// changes gets a new state.
#[derive(Debug)]
pub struct RecordState {
    /// The record's text, exactly as it stands in the document.
    pub text: String,
    /// The analysis's findings, with byte ranges relative to `text` and their fixes: every
    /// change publishes them.
    pub diagnostics: Vec<Diagnostic>,
    /// The optional rule checks' warnings, reported when the settings ask for them.
    pub rule_warnings: Vec<Diagnostic>,
    /// What the editor's features derived from `text` (see `Document::map_derived`).
    pub derived: Derived,
}

impl RecordState {
    /// The state of a record with its analysis.
    pub(super) fn new(text: String, analysis: &RecordAnalysis) -> RecordState {
        RecordState {
            text,
            diagnostics: analysis.diagnostics.clone(),
            rule_warnings: analysis.rule_warnings.clone(),
            derived: Derived::default(),
        }
    }

    /// The state of a record with its analysis's findings, taken from it: the analysis is not
    /// kept (a record read with many others, or a large one).
    pub(super) fn with_findings(text: String, analysis: RecordAnalysis) -> RecordState {
        RecordState {
            text,
            diagnostics: analysis.diagnostics,
            rule_warnings: analysis.rule_warnings,
            derived: Derived::default(),
        }
    }

    /// The findings reported to the user, with their fixes: with `rules`, the optional rule
    /// checks' warnings too, after the other findings (`RecordAnalysis::reported`, the same
    /// findings for a check, puts them in the text's order).
    pub fn reported(&self, rules: bool) -> impl Iterator<Item = &Diagnostic> {
        let rule_warnings = if rules { self.rule_warnings.as_slice() } else { &[] };
        self.diagnostics.iter().chain(rule_warnings)
    }
}

/// The size in bytes above which a record is read by the hand-written reader at every change
/// and keeps no tree (see the module's comment). The corpus's longest game is 6 KB.
pub const LARGE_RECORD: usize = 64 * 1024;

/// Everything derived from one record's text.
#[derive(Debug)]
pub struct Parsed {
    /// The tree of the record's text, parsed on its own (a record parses alone as inside its
    /// file); `None` for a record larger than `LARGE_RECORD` (64 KB).
    pub tree: Option<tree_sitter::Tree>,
    /// The record's syntax: `tree` lowered to values, or the hand-written reader's for a large
    /// record; `analysis` was derived from it.
    pub syntax: RecordSyntax,
    /// Diagnostics and replayed positions, with byte ranges relative to the text.
    pub analysis: RecordAnalysis,
}

/// A record's syntax read by the hand-written reader, or lowered from a tree-sitter parse when
/// the reader declines the record: the same values either way.
pub(super) fn read_syntax(text: &str) -> RecordSyntax {
    read_syntax_telling(text).0
}

/// [`read_syntax`], and whether the hand-written reader read the record.
pub(super) fn read_syntax_telling(text: &str) -> (RecordSyntax, bool) {
    match syntax::read_record(text) {
        Some(read) => (read, true),
        None => (syntax::lower_record(&parse_tree(text, None), text), false),
    }
}

/// A record prepared (see [`super::Prepare`]) as its analysis is made: a panic is a bug, and
/// leaves the record unprepared, to be derived again when asked for.
pub(super) fn prepare_guarded(prepare: super::Prepare, state: &RecordState, syntax: &RecordSyntax) {
    // The panic hook has reported it; the request that derives the value again reports its own.
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| prepare(state, syntax)));
}

/// The analysis of a record's syntax. A panic in the analysis is a bug, but one record's bug
/// must not take the editor's server down with it: the record then shows no findings, and the
/// default panic hook has already reported the panic on standard error.
pub(super) fn analyse_guarded(
    text: &str,
    syntax: &RecordSyntax,
    options: AnalysisOptions,
) -> RecordAnalysis {
    std::panic::catch_unwind(AssertUnwindSafe(|| analyse_syntax(text, syntax, options)))
        .unwrap_or_else(|_| {
            let mut nothing = analyse_syntax("", &RecordSyntax::default(), options);
            nothing.diagnostics.clear();
            nothing
        })
}

impl Parsed {
    /// Parses and analyses a record's text; with the text and parse it had before, the parse
    /// is incremental (the edit between the two texts applied to the old tree). A record larger
    /// than [`LARGE_RECORD`] is read by the hand-written reader instead, and keeps no tree.
    pub(super) fn new(
        text: &str,
        previous: Option<(&str, &Parsed)>,
        rule_checks: RuleChecks,
    ) -> Parsed {
        if text.len() > LARGE_RECORD {
            let syntax = read_syntax(text);
            let options = AnalysisOptions::new(Keep::Everything, rule_checks);
            let analysis = analyse_guarded(text, &syntax, options);
            return Parsed { tree: None, syntax, analysis }.trimmed();
        }
        let previous = previous.and_then(|(text, parsed)| Some((text, parsed.tree.as_ref()?)));
        let tree = parse_tree(text, previous);
        let syntax = syntax::lower_record(&tree, text);
        let options = AnalysisOptions::new(Keep::Everything, rule_checks);
        let analysis = analyse_guarded(text, &syntax, options);
        Parsed { tree: Some(tree), syntax, analysis }.trimmed()
    }

    /// The parse without the room its lists grew into: the positions of a large record are
    /// most of its parse, and a list that doubled as it grew holds up to twice what it needs.
    fn trimmed(mut self) -> Parsed {
        self.analysis.played.shrink_to_fit();
        self
    }

    /// About how many bytes the parse of a text of `text_len` bytes holds, for the cache's
    /// bound: the positions and the findings as they are, the tree and the syntax by the text's
    /// length at rates above those measured on records made of moves alone, the densest there
    /// are (`cargo bench -p ctlpgn-tests --bench documents` prints the bytes a parse takes
    /// beside this estimate).
    pub fn estimated_bytes(&self, text_len: usize) -> usize {
        /// A tree-sitter tree's bytes per byte of text, and the syntax's.
        const TREE_BYTES_PER_BYTE: usize = 24;
        const SYNTAX_BYTES_PER_BYTE: usize = 64;
        let tree = if self.tree.is_some() { TREE_BYTES_PER_BYTE * text_len } else { 0 };
        let analysis = &self.analysis;
        let findings = analysis.diagnostics.iter().chain(&analysis.rule_warnings);
        let findings: usize = findings
            .map(|found| {
                let fixes = found.fixes.iter().map(|fix| {
                    let edits =
                        fix.edits.iter().map(|edit| size_of::<TextEdit>() + edit.new_text.len());
                    size_of::<Fix>() + fix.title.len() + edits.sum::<usize>()
                });
                size_of::<Diagnostic>() + found.message.len() + fixes.sum::<usize>()
            })
            .sum();
        let played = analysis.played.capacity() * size_of::<PlayedHalfMove>();
        tree + SYNTAX_BYTES_PER_BYTE * text_len + played + findings
    }
}

thread_local! {
    /// One parser per thread: requests and the bulk parses of several threads never share one.
    static PARSER: RefCell<tree_sitter::Parser> = RefCell::new(syntax::new_parser());
}

/// The tree of a record's text, with this thread's parser: incrementally from the tree of the
/// text it replaces when there is one (see [`incremental::parse`]).
///
/// The parser is borrowed for tree-sitter's parse alone and given back before anything else
/// runs: no code that could ask for a tree again runs while it is borrowed, so a borrow cannot
/// nest. (It did once: a large record's analysis was made inside the borrow, and the reader
/// declining a large record of random bytes asked for the parser again, a panic on every
/// request about it.)
pub(super) fn parse_tree(
    text: &str,
    previous: Option<(&str, &tree_sitter::Tree)>,
) -> tree_sitter::Tree {
    PARSER.with(|parser| incremental::parse(&mut parser.borrow_mut(), text, previous))
}

/// A record of a document.
#[derive(Clone, Debug)]
pub struct Record {
    /// Where `state.text` sits in the document's text.
    pub range: TextRange,
    pub state: Arc<RecordState>,
}

impl Record {
    /// A byte range of the record's text as a range of the document's text.
    pub fn in_document(&self, range: TextRange) -> TextRange {
        TextRange::new(self.range.start + range.start, self.range.start + range.end)
    }
}

/// A record of a document with its parse, held while a feature looks at it.
#[derive(Clone, Debug)]
pub struct OpenRecord<'a> {
    pub record: &'a Record,
    /// The record's place among the document's records.
    pub index: usize,
    pub parsed: Arc<Parsed>,
}

impl OpenRecord<'_> {
    /// The record as one value: text, syntax, analysis and place.
    pub fn view(&self) -> RecordView<'_> {
        RecordView {
            text: &self.record.state.text,
            start: self.record.range.start,
            syntax: &self.parsed.syntax,
            analysis: &self.parsed.analysis,
        }
    }
}
