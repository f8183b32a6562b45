//! The open documents by URI, behind one lock, and the client's change events turned into
//! the byte-range changes of the core's `Document` (`crate::document`).
//!
//! A keystroke's re-split and analysis cost well under a millisecond plus the edited
//! record's analysis, so a change is applied at once, under the lock: every request then
//! reads a text, records and findings of one version without waiting. Requests over a whole
//! document work on a snapshot (`Documents::snapshot`), outside the lock.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use tower_lsp_server::lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::encoding::PositionEncoding;
use super::from_proto;
use crate::analysis::RuleChecks;
use crate::document::{Change, Document, Preparations, Prepare};
use crate::text::TextRange;

/// Applies the client's changes to a document in order. Each change's positions refer to the
/// text the previous change left, so they are turned into bytes against a copy of the rope
/// edited alongside (a rope's copy shares its nodes: an edit copies a path, not the text).
pub fn apply(
    document: &mut Document,
    version: i32,
    changes: &[TextDocumentContentChangeEvent],
    encoding: PositionEncoding,
) {
    let mut client_side = document.rope().clone();
    let mut bytes = Vec::with_capacity(changes.len());
    for change in changes {
        let range = match change.range {
            Some(range) => from_proto::byte_range(&client_side, range, encoding),
            None => TextRange::new(0, client_side.len_bytes()),
        };
        if changes.len() > 1 {
            let start = client_side.byte_to_char(range.start);
            client_side.remove(start..client_side.byte_to_char(range.end));
            client_side.insert(start, &change.text);
        }
        bytes.push(Change { range, text: change.text.as_str() });
    }
    document.apply(version, bytes);
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

    /// Applies changes to an open document; `false` when the document is not open.
    pub fn change(
        &self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) -> bool {
        match self.lock().get_mut(uri) {
            Some(document) => {
                apply(document, version, changes, encoding);
                true
            }
            None => false,
        }
    }

    /// Forgets a document; `false` when it was not open.
    pub fn close(&self, uri: &Uri) -> bool {
        self.lock().remove(uri).is_some()
    }

    /// The open documents and their versions.
    pub fn versions(&self) -> Vec<(Uri, i32)> {
        self.lock().iter().map(|(uri, document)| (uri.clone(), document.version())).collect()
    }

    /// A snapshot of an open document, for work that should not hold the lock.
    pub fn snapshot(&self, uri: &Uri) -> Option<Document> {
        self.lock().get(uri).cloned()
    }

    /// Reads an open document under the lock; `None` when it is not open.
    pub fn read<R>(&self, uri: &Uri, read: impl FnOnce(&Document) -> R) -> Option<R> {
        self.lock().get(uri).map(read)
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
    use tower_lsp_server::lsp_types::{Position, Range as LspRange};

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n*\n\n";

    fn edit(line: u32, from: u32, to: u32, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(LspRange::new(Position::new(line, from), Position::new(line, to))),
            range_length: None,
            text: text.to_string(),
        }
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
        assert_eq!(document.rope().to_string(), GAME.replace("K4-K6", "🩐B-K6"));
        let full =
            TextDocumentContentChangeEvent { range: None, range_length: None, text: String::new() };
        apply(&mut document, 3, &[edit(0, 0, 0, "x"), full], PositionEncoding::Utf8);
        assert!(document.records().is_empty());
        assert_eq!(document.version(), 3);
    }
}
