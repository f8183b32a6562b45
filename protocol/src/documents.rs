//! The open documents by URI, behind one lock, and the client's change events turned into
//! the byte-range changes of the core's `Document` (`ctlpgn_core::document`).
//!
//! A keystroke's re-split and analysis cost well under a millisecond plus the edited
//! record's analysis, so a change is applied at once, under the lock: every request then
//! reads a text, records and findings of one version without waiting. Requests over a whole
//! document work on a snapshot (`Documents::snapshot`), outside the lock.
//!
//! A change that leaves more than [`RECHECK_AT_ONCE`] bytes of records to check again (a
//! record of a megabyte, which takes a tenth of a second) changes the text alone: the records
//! are brought up to date after a pause in the typing ([`RECHECK_PAUSE`], the server's task,
//! see `Documents::settle`), or as soon as a request needs them, so that a request always
//! answers from the latest text and the diagnostics published are always of the latest text.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::encoding::PositionEncoding;
use super::from_proto;
use ctlpgn_core::analysis::RuleChecks;
use ctlpgn_core::document::{Document, PlacedChange, Placing, Preparations, Prepare};

/// Applies the client's changes to a document's text in order, leaving its records for
/// `Document::settle`: each change's positions refer to the text the previous change left, and
/// the core places each in turn (`Document::edit_placed`). A column inside a character is moved
/// to its start: a `didChange` is a notification, which cannot be refused.
pub fn apply(
    document: &mut Document,
    version: i32,
    changes: &[TextDocumentContentChangeEvent],
    encoding: PositionEncoding,
) {
    let placed = changes.iter().map(|change| PlacedChange {
        range: change
            .range
            .map(|range| [from_proto::place(range.start), from_proto::place(range.end)]),
        text: change.text.as_str(),
    });
    // Clamped placing refuses nothing.
    let _ = document.edit_placed(version, placed, encoding.columns(), Placing::Clamped);
}

/// How many bytes of records a change may leave to check again and still have them checked at
/// once, within about 50 ms on one core (the hand-written reader and the analysis go through
/// about 8 MB a second, half that with the rule checks); a larger record is checked after a
/// pause in the typing instead (see the module's comment).
pub const RECHECK_AT_ONCE: usize = 256 * 1024;

/// How long the typing must pause before a record too large to check at every change is
/// checked.
pub const RECHECK_PAUSE: Duration = Duration::from_millis(300);

/// A document closed: how long its text was, and how many documents are left open.
#[derive(Clone, Copy, Debug)]
pub struct Closed {
    pub length: usize,
    pub left_open: usize,
}

/// What became of a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The document is not open.
    NotOpen,
    /// The text and its records are up to date.
    Checked,
    /// The text is, its records wait for a pause ([`Documents::settle`]).
    Later,
}

/// The open documents by URI.
#[derive(Debug, Default)]
pub struct Documents {
    open: Mutex<HashMap<Uri, Document>>,
    /// Whether documents are analysed with the optional rule checks (the settings' `rules`).
    judge_rules: std::sync::atomic::AtomicBool,
    /// What is derived from each record as a document is opened (see `Prepare`): set at
    /// `initialize`, from what the client will ask for.
    prepare: std::sync::OnceLock<Preparations>,
}

impl Documents {
    /// Opens (or reopens) a document. The analysis runs before the lock is taken, so that
    /// opening a large file does not hold up requests on the other documents.
    pub fn open(&self, uri: Uri, text: &str, version: i32) {
        let mut document = Document::read(text, version, self.rule_checks(), self.prepare());
        let mut open = self.lock();
        // The rule checks may have been switched while the document was analysed.
        if document.rule_checks() != self.rule_checks() {
            document = Document::read(text, version, self.rule_checks(), self.prepare());
        }
        open.insert(uri, document);
    }

    /// A document read from `text` with the rule checks and preparations in force, and not
    /// kept: the problems of a file the client read without opening it.
    pub fn unopened(&self, text: &str) -> Document {
        Document::read(text, 0, self.rule_checks(), self.prepare())
    }

    /// Makes a document's text `text` at `version` again, whatever its records hold, after a
    /// change or an opening whose analysis panicked. The text is put in place with no records
    /// first, and only then analysed: when the analysis panics again the text stays right,
    /// and requests get empty answers until the next change.
    pub fn reset(&self, uri: Uri, text: &str, version: i32) {
        let rule_checks = self.rule_checks();
        let unanalysed = Document::unanalysed(text, version, rule_checks, self.prepare());
        self.lock().insert(uri.clone(), unanalysed);
        let analysed = Document::read(text, version, rule_checks, self.prepare());
        let mut open = self.lock();
        // Unless a newer change or a switch of the rule checks came in between.
        if let Some(document) = open.get_mut(&uri).filter(|document| {
            document.version() == version && document.rule_checks() == rule_checks
        }) {
            *document = analysed;
        }
    }

    /// Prepares every document opened from now on with each of `prepare`; the first call
    /// counts.
    pub fn prepare_with(&self, prepare: Vec<Prepare>) {
        let _ = self.prepare.set(prepare.into());
    }

    fn prepare(&self) -> Preparations {
        self.prepare.get().cloned().unwrap_or_default()
    }

    fn rule_checks(&self) -> RuleChecks {
        if self.judge_rules.load(std::sync::atomic::Ordering::SeqCst) {
            RuleChecks::Judge
        } else {
            RuleChecks::Skip
        }
    }

    /// Analyses documents with or without the optional rule checks from now on; the open
    /// documents analysed the other way are analysed again, under the lock, so that no edit
    /// lands in between. It happens when the user switches the setting, not per keystroke.
    pub fn set_judge_rules(&self, judge: bool) {
        self.judge_rules.store(judge, std::sync::atomic::Ordering::SeqCst);
        let rule_checks = self.rule_checks();
        for document in self.lock().values_mut() {
            if document.rule_checks() != rule_checks {
                *document = Document::read(
                    &document.rope().to_string(),
                    document.version(),
                    rule_checks,
                    self.prepare(),
                );
            }
        }
    }

    /// Applies changes to an open document's text, and to its records unless they leave more
    /// than [`RECHECK_AT_ONCE`] bytes to check again.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) -> Changed {
        let mut open = self.lock();
        let Some(document) = open.get_mut(uri) else {
            return Changed::NotOpen;
        };
        apply(document, version, changes, encoding);
        if document.pending_bytes() > RECHECK_AT_ONCE {
            return Changed::Later;
        }
        document.settle();
        Changed::Checked
    }

    /// Brings the records of a document changed at `version` up to date, unless a later
    /// change came (its own task will): on a snapshot, outside the lock, so that requests and
    /// changes go on meanwhile; the result replaces the document only if it is still at that
    /// version with its records behind. Returns whether the document's records now describe
    /// `version`, so that its diagnostics can be published.
    pub fn settle(&self, uri: &Uri, version: i32) -> bool {
        let mut snapshot = match self.lock().get(uri) {
            Some(document) if document.version() == version && document.is_pending() => {
                document.clone()
            }
            Some(document) => return document.version() == version,
            None => return false,
        };
        snapshot.settle();
        let mut open = self.lock();
        let Some(document) = open.get_mut(uri).filter(|document| document.version() == version)
        else {
            return false;
        };
        // A request may have brought it up to date meanwhile, or a switch of the rule checks
        // read it again.
        if document.is_pending() && document.rule_checks() == snapshot.rule_checks() {
            *document = snapshot;
        }
        !document.is_pending()
    }

    /// The text of a document at `version`, as it is, records up to date or not: what a
    /// recovery from a panic starts again from.
    pub fn text(&self, uri: &Uri, version: i32) -> Option<String> {
        let open = self.lock();
        let document = open.get(uri).filter(|document| document.version() == version)?;
        Some(document.rope().to_string())
    }

    /// Forgets a document; `None` when it was not open, else what is left open and how long
    /// the document's text was. The map gives back its room once it is three quarters empty,
    /// so that closing thousands of documents leaves nothing of them.
    pub fn close(&self, uri: &Uri) -> Option<Closed> {
        let mut open = self.lock();
        let closed = open.remove(uri)?;
        if open.len() * 4 < open.capacity() {
            open.shrink_to_fit();
        }
        let left_open = open.len();
        // The document is dropped after the lock is given back.
        drop(open);
        Some(Closed { length: closed.rope().len_bytes(), left_open })
    }

    /// The URIs of the open documents.
    pub fn uris(&self) -> Vec<Uri> {
        self.lock().keys().cloned().collect()
    }

    /// The open documents and their versions.
    pub fn versions(&self) -> Vec<(Uri, i32)> {
        self.lock().iter().map(|(uri, document)| (uri.clone(), document.version())).collect()
    }

    /// A snapshot of an open document, for work that should not hold the lock; its records
    /// are brought up to date first (see [`Documents::read`]).
    pub fn snapshot(&self, uri: &Uri) -> Option<Document> {
        self.read(uri, Document::clone)
    }

    /// Gives an open document the parses a snapshot of it made (see
    /// `Document::keep_parses_of`), of the records it still holds; its records are not brought
    /// up to date for it.
    pub fn keep_parses(&self, uri: &Uri, snapshot: &Document) {
        if let Some(document) = self.lock().get(uri) {
            document.keep_parses_of(snapshot);
        }
    }

    /// Reads an open document under the lock; `None` when it is not open. A document whose
    /// records wait for a pause in the typing is brought up to date first, under the lock: a
    /// request answers from the latest text.
    pub fn read<R>(&self, uri: &Uri, read: impl FnOnce(&Document) -> R) -> Option<R> {
        let mut open = self.lock();
        let document = open.get_mut(uri)?;
        document.settle();
        Some(read(document))
    }

    /// The map of documents. A handler that panicked while holding the lock may have left one
    /// document's records behind its text; the other documents are intact, and conversions
    /// clamp, so serving on beats failing every later request.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uri, Document>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ctlpgn_core::text::TextRange;
    use ctlpgn_test_support::fixtures::knights_out_and_back;
    use lsp_types::{Position, Range as LspRange};

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n*\n\n";

    fn edit(line: u32, from: u32, to: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(LspRange::new(Position::new(line, from), Position::new(line, to))),
            range_length: None,
            text: text.to_string(),
        }
    }

    /// What a document's records are: ranges, texts and findings.
    fn records_of(
        document: &Document,
    ) -> Vec<(TextRange, String, Vec<ctlpgn_core::diagnostics::Diagnostic>)> {
        let records = document.records().iter();
        records
            .map(|record| {
                (record.range, record.state.text.clone(), record.state.diagnostics.clone())
            })
            .collect()
    }

    /// A record too large to check at every change: its changes reach the text at once and the
    /// records later, when the server's task settles that version or a request comes first; a
    /// version a later change overtook is never settled, and what is settled is what a fresh
    /// open of the same text gives.
    #[test]
    fn a_change_too_large_to_check_at_once_waits_for_a_pause_or_a_request() {
        let documents = Documents::default();
        let uri: Uri = "file:///large.ctl-pgn".parse().expect("a URI");
        let text = format!("{}{GAME}", knights_out_and_back(14_000, false));
        assert!(text.len() > RECHECK_AT_ONCE);
        documents.open(uri.clone(), &text, 1);
        let fresh = |version: i32| {
            let text = documents.text(&uri, version).expect("at that version");
            records_of(&Document::new(&text, version))
        };
        // A Knight sent elsewhere in the middle of the game: the next move no longer plays.
        let broken = [edit(7_002, 10, 12, "I7")];
        assert_eq!(documents.change(&uri, 2, &broken, PositionEncoding::Utf16), Changed::Later);
        assert!(!documents.settle(&uri, 1), "version 1 was overtaken");
        assert!(documents.settle(&uri, 2));
        let settled = documents.snapshot(&uri).expect("open");
        assert_eq!(records_of(&settled), fresh(2));
        let found = &settled.records()[0].state.diagnostics;
        assert!(found
            .iter()
            .any(|found| found.severity == ctlpgn_core::diagnostics::Severity::Error));
        // Two more changes: the first one's task finds itself overtaken, a request brings the
        // records up to date with the latest text, and the last task has nothing left to do.
        let back = [edit(7_002, 10, 12, "H8")];
        assert_eq!(documents.change(&uri, 3, &back, PositionEncoding::Utf16), Changed::Later);
        let again = [edit(7_002, 10, 12, "I7")];
        assert_eq!(documents.change(&uri, 4, &again, PositionEncoding::Utf16), Changed::Later);
        assert!(!documents.settle(&uri, 3));
        let read = documents.read(&uri, |document| (document.version(), records_of(document)));
        assert_eq!(read, Some((4, fresh(4))));
        assert!(documents.settle(&uri, 4));
        // A change in the small record after it is checked at once.
        let small = [edit(14_005, 3, 5, "K5")];
        assert_eq!(documents.change(&uri, 5, &small, PositionEncoding::Utf16), Changed::Checked);
        assert_eq!(documents.snapshot(&uri).map(|document| records_of(&document)), Some(fresh(5)));
    }

    #[test]
    fn a_reset_document_has_its_new_text_and_version_analysed_as_if_opened() {
        let documents = Documents::default();
        let uri: Uri = "file:///reset.ctl-pgn".parse().expect("a URI");
        documents.open(uri.clone(), "[Event \"x\"]\n", 1);
        let text = GAME.repeat(2);
        documents.reset(uri.clone(), &text, 7);
        let fresh = Document::new(&text, 7);
        let states = |document: &Document| -> Vec<(TextRange, String)> {
            let records = document.records().iter();
            records.map(|record| (record.range, record.state.text.to_string())).collect()
        };
        let reset = documents.snapshot(&uri).expect("the document stays open");
        assert_eq!(reset.rope().to_string(), text);
        assert_eq!(reset.version(), 7);
        assert_eq!(states(&reset), states(&fresh));
        assert_eq!(states(&reset).len(), 2);
    }

    #[test]
    fn a_batch_of_changes_is_read_in_the_text_each_change_leaves() {
        let mut document = Document::new(GAME, 1);
        // The second change's columns count the `🩐` (two UTF-16 units) the first inserted.
        apply(&mut document, 2, &[edit(2, 3, 3, "🩐"), edit(2, 5, 7, "B")], PositionEncoding::Utf16);
        document.settle();
        assert_eq!(document.rope().to_string(), GAME.replace("K4-K6", "🩐B-K6"));
        let full =
            TextDocumentContentChangeEvent { range: None, range_length: None, text: String::new() };
        apply(&mut document, 3, &[edit(0, 0, 0, "x"), full], PositionEncoding::Utf8);
        document.settle();
        assert!(document.records().is_empty());
        assert_eq!(document.version(), 3);
    }
}
