//! The open documents: each one's text as a rope, its version, and its records, each record
//! with its text and the findings of its analysis; the tree, the lowered syntax and the
//! replayed positions of a record are derived again when a request needs them.
//!
//! A file can hold thousands of records and a keystroke touches one. A batch of changes is
//! applied to the rope, and only the stretch of text around the bytes it touched is read back
//! from the rope and split into records again; the records before and after it keep their
//! state (the later ones shifted). Inside that stretch records are matched by their text, and
//! only the changed ones are parsed, incrementally from the tree of the record they replace
//! when that one is at hand, and analysed. On a 2,000-record file (2 MB) a keystroke costs
//! well under a millisecond plus the edited record's analysis, so the work is done at once,
//! under the lock: a document's text, records and findings then always describe the same
//! version, and every request reads one consistent state without waiting.
//!
//! Keeping every record's tree, syntax and a position per half-move would cost about 100
//! times the file's size (measured: 225 MB for a 2 MB file). A request is about one record
//! (a hover, a completion, a code action), and parsing and analysing a record again takes a
//! fraction of a millisecond, so only the records asked about last keep their parse, in a
//! small cache; requests over the whole document (folding, symbols, semantic tokens) parse
//! the records again on every core, outside the lock, from a snapshot of the document.

use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};

use ropey::Rope;
use tower_lsp_server::lsp_types::{TextDocumentContentChangeEvent, Uri};
use tree_sitter::{InputEdit, Point};

use super::convert::{self, PositionEncoding};
use crate::analysis::{analyse_syntax, analyse_syntax_with, RecordAnalysis, RuleChecks};
use crate::diagnostics::Diagnostic;
use crate::syntax::{self, RecordSyntax};

/// How many records keep their parse between requests: enough for the records around the
/// cursor and a few more, a few hundred kilobytes.
const PARSES_KEPT: usize = 32;

/// What the server keeps of a record. It never changes once built: a record whose text
/// changes gets a new state.
#[derive(Debug)]
pub struct RecordState {
    /// The record's text, exactly as it stands in the document.
    pub text: String,
    /// The analysis's findings, with byte ranges relative to `text` and their fixes: every
    /// change publishes them.
    pub diagnostics: Vec<Diagnostic>,
    /// The optional rule checks' warnings, shown when the settings ask for them.
    pub rule_warnings: Vec<Diagnostic>,
}

/// Everything derived from one record's text.
#[derive(Debug)]
pub struct Parsed {
    /// The tree of the record's text, parsed on its own (a record parses alone as inside its
    /// file).
    pub tree: tree_sitter::Tree,
    /// `tree` lowered to values; `analysis` was derived from it.
    pub syntax: RecordSyntax,
    /// Diagnostics and replayed positions, with byte ranges relative to the text.
    pub analysis: RecordAnalysis,
}

impl Parsed {
    /// Parses and analyses a record's text; with the text and parse it had before, the parse
    /// is incremental (the edit between the two texts applied to the old tree).
    fn new(
        parser: &mut tree_sitter::Parser,
        text: &str,
        previous: Option<(&str, &Parsed)>,
        rule_checks: RuleChecks,
    ) -> Parsed {
        let tree = parse(parser, text, previous);
        let syntax = syntax::lower_record(&tree);
        // A panic in the analysis is a bug, but one record's bug must not take the editor's
        // server down with it: the record then shows no findings, and the default panic hook
        // has already reported the panic on standard error.
        let analysis = std::panic::catch_unwind(AssertUnwindSafe(|| {
            analyse_syntax_with(text, &syntax, rule_checks)
        }))
        .unwrap_or_else(|_| {
            let mut nothing = analyse_syntax("", &RecordSyntax::default());
            nothing.diagnostics.clear();
            nothing
        });
        Parsed { tree, syntax, analysis }
    }
}

/// The tree of a text, incrementally from a previous text's tree when there is one.
///
/// Tree-sitter's error recovery depends on the subtrees an incremental parse reuses: after
/// deleting the `2` of a line `2. (=)`, the incremental parse read `(=)` as a variation and
/// the fresh one as stray tokens, and the two gave different diagnostics. Only a tree
/// without errors is the same however it was reached, so when the old tree or the new one
/// holds an error the text is parsed afresh: the document must say what a fresh open of
/// the same text says. Records with errors are few and small, and a parse is a fraction of
/// a millisecond.
fn parse(
    parser: &mut tree_sitter::Parser,
    text: &str,
    previous: Option<(&str, &Parsed)>,
) -> tree_sitter::Tree {
    match previous {
        Some((previous_text, previous)) if !previous.tree.root_node().has_error() => {
            let mut old_tree = previous.tree.clone();
            old_tree.edit(&edit_between(previous_text, text));
            match parser.parse(text, Some(&old_tree)) {
                Some(tree) if !tree.root_node().has_error() => tree,
                _ => syntax::parse(parser, text),
            }
        }
        _ => syntax::parse(parser, text),
    }
}

impl RecordState {
    /// The state of a parsed record.
    fn new(text: String, parsed: &Parsed) -> RecordState {
        RecordState {
            text,
            diagnostics: parsed.analysis.diagnostics.clone(),
            rule_warnings: parsed.analysis.rule_warnings.clone(),
        }
    }

    /// The findings the user sees, with their fixes: with `rules`, the optional rule checks'
    /// warnings too.
    pub fn shown(&self, rules: bool) -> impl Iterator<Item = &Diagnostic> {
        let rule_warnings = if rules { self.rule_warnings.as_slice() } else { &[] };
        self.diagnostics.iter().chain(rule_warnings)
    }
}

thread_local! {
    /// One parser per thread: requests and the bulk parses of several threads never share one.
    static PARSER: std::cell::RefCell<tree_sitter::Parser> = std::cell::RefCell::new(syntax::new_parser());
}

/// Runs `work` with this thread's parser.
fn with_parser<T>(work: impl FnOnce(&mut tree_sitter::Parser) -> T) -> T {
    PARSER.with(|parser| work(&mut parser.borrow_mut()))
}

/// The edit that turns `old` into `new`: the run between their common prefix and their
/// common suffix, both cut at character boundaries. A keystroke changes one run, and
/// tree-sitter only needs to know which bytes changed.
fn edit_between(old: &str, new: &str) -> InputEdit {
    let boundary = |offset: usize, from_end: bool| {
        if from_end {
            old.is_char_boundary(old.len() - offset) && new.is_char_boundary(new.len() - offset)
        } else {
            old.is_char_boundary(offset) && new.is_char_boundary(offset)
        }
    };
    let mut prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !boundary(prefix, false) {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix =
        old.bytes().rev().zip(new.bytes().rev()).take(room).take_while(|(a, b)| a == b).count();
    while !boundary(suffix, true) {
        suffix -= 1;
    }
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    }
}

/// The tree-sitter point of a byte offset: rows end at `\n`, columns are bytes.
fn point(text: &str, offset: usize) -> Point {
    let before = &text.as_bytes()[..offset];
    let row_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1);
    Point::new(before.iter().filter(|&&b| b == b'\n').count(), offset - row_start)
}

/// A record of a document.
#[derive(Clone, Debug)]
pub struct Record {
    /// Where `state.text` sits in the document's text.
    pub range: Range<usize>,
    pub state: Arc<RecordState>,
}

impl Record {
    /// A byte range of the record's text as a range of the document's text.
    pub fn in_document(&self, range: Range<usize>) -> Range<usize> {
        self.range.start + range.start..self.range.start + range.end
    }
}

/// An open document.
#[derive(Debug)]
pub struct Document {
    /// The text, as the client's changes left it.
    rope: Rope,
    /// The version the client gave the text.
    version: i32,
    /// The records of the text, in order, as `syntax::split_records` finds them: ranges are
    /// increasing and disjoint, and the text of `records[i].range` is `records[i].state.text`.
    records: Vec<Record>,
    /// The parses of the records asked about last, the latest first.
    parses: Mutex<VecDeque<(Arc<RecordState>, Arc<Parsed>)>>,
    /// Whether the records' analyses judge the optional rule checks: only while the settings
    /// show them, because they cost about as much as the replay.
    rule_checks: RuleChecks,
}

impl Clone for Document {
    /// A snapshot for a request that works outside the lock: the rope and the records are
    /// shared, not copied; the cache of parses starts empty.
    fn clone(&self) -> Document {
        Document {
            rope: self.rope.clone(),
            version: self.version,
            records: self.records.clone(),
            parses: Mutex::default(),
            rule_checks: self.rule_checks,
        }
    }
}

impl Document {
    /// A document opened with `text`, every record analysed, rule checks included.
    #[cfg(test)]
    pub fn new(text: &str, version: i32) -> Document {
        Document::with_rule_checks(text, version, RuleChecks::Judge)
    }

    /// A document opened with `text`, every record analysed with or without the rule checks.
    pub fn with_rule_checks(text: &str, version: i32, rule_checks: RuleChecks) -> Document {
        let mut document = Document {
            rope: Rope::from_str(text),
            version,
            records: Vec::new(),
            parses: Mutex::default(),
            rule_checks,
        };
        document.resplit(0..0, 0, text);
        document.check_records();
        document
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    pub fn version(&self) -> i32 {
        self.version
    }

    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The record holding a byte offset; an offset between two records belongs to the second,
    /// and the end of the text to the last record.
    pub fn record_at(&self, offset: usize) -> Option<&Record> {
        let after = self.records.partition_point(|record| record.range.start <= offset);
        let record = self.records.get(after.checked_sub(1)?)?;
        (offset <= record.range.end).then_some(record)
    }

    /// The parse of a record: from the cache when it was asked about lately, else parsed and
    /// analysed again (and kept in the cache).
    pub fn parsed(&self, record: &Record) -> Arc<Parsed> {
        if let Some(parsed) = self.cached(&record.state) {
            return parsed;
        }
        let parsed = Arc::new(with_parser(|parser| {
            Parsed::new(parser, &record.state.text, None, self.rule_checks)
        }));
        self.keep(record.state.clone(), parsed.clone());
        parsed
    }

    /// `work` applied to every record's tree and syntax, in record order, on every core: the
    /// records are parsed again (the cached ones are not) and each parse is dropped as soon
    /// as `work` has seen it, so that the whole document's trees never live at once.
    pub fn map_syntax<T: Send>(
        &self,
        work: impl Fn(&Record, &tree_sitter::Tree, &RecordSyntax) -> T + Sync,
    ) -> Vec<T> {
        let one = |record: &Record| match self.cached(&record.state) {
            Some(parsed) => work(record, &parsed.tree, &parsed.syntax),
            None => {
                let tree = with_parser(|parser| syntax::parse(parser, &record.state.text));
                work(record, &tree, &syntax::lower_record(&tree))
            }
        };
        in_parallel(&self.records, |part: &[Record]| part.iter().map(one).collect())
    }

    fn cached(&self, state: &Arc<RecordState>) -> Option<Arc<Parsed>> {
        let mut parses = self.parses.lock().unwrap_or_else(PoisonError::into_inner);
        let index = parses.iter().position(|(kept, _)| Arc::ptr_eq(kept, state))?;
        let entry = parses.remove(index)?;
        let parsed = entry.1.clone();
        parses.push_front(entry);
        Some(parsed)
    }

    fn keep(&self, state: Arc<RecordState>, parsed: Arc<Parsed>) {
        let mut parses = self.parses.lock().unwrap_or_else(PoisonError::into_inner);
        parses.push_front((state, parsed));
        parses.truncate(PARSES_KEPT);
    }

    /// Applies the client's changes in order (each one's range refers to the text the previous
    /// one left), then brings the records the changes touched up to date: one re-split and
    /// one analysis per batch, whatever its number of changes.
    pub fn apply(
        &mut self,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
    ) {
        let old_len = self.rope.len_bytes();
        // What the batch left alone: the text before `unchanged_start`, and the last
        // `unchanged_end` bytes. Each change keeps the bytes before its start and after its
        // end, so the smallest of these over the batch holds for the whole batch.
        let (mut unchanged_start, mut unchanged_end) = (old_len, old_len);
        for change in changes {
            let before = self.rope.len_bytes();
            let bytes = match change.range {
                Some(range) => convert::byte_range(&self.rope, range, encoding),
                None => 0..before,
            };
            let start = self.rope.byte_to_char(bytes.start);
            self.rope.remove(start..self.rope.byte_to_char(bytes.end));
            self.rope.insert(start, &change.text);
            unchanged_start = unchanged_start.min(bytes.start);
            unchanged_end = unchanged_end.min(before - bytes.end);
        }
        self.version = version;
        if !changes.is_empty() {
            self.update_records(old_len, unchanged_start, unchanged_end);
        }
    }

    /// Re-splits the text around the bytes a batch of changes touched, and only there.
    ///
    /// Whether a line opens a record depends on the line's first bytes and the byte before it
    /// (`syntax::split_records`). A record that starts after the touched bytes therefore
    /// still starts a record, and so does every later one: they keep their state, shifted.
    /// The record before the one holding the first touched byte is whole and untouched, and
    /// its line still opens it, so the re-split starts there; the record after it may have
    /// had its own `[Variant` line edited. Near the start of the text the re-split starts at
    /// the text's start, where a byte-order mark and a headless record are decided.
    fn update_records(&mut self, old_len: usize, unchanged_start: usize, unchanged_end: usize) {
        let new_len = self.rope.len_bytes();
        let touched_end = old_len - unchanged_end;
        let touched_start = unchanged_start.min(touched_end).min(new_len - unchanged_end);
        let starting_before =
            self.records.partition_point(|record| record.range.start < touched_start);
        let left = starting_before.saturating_sub(2);
        let right =
            self.records.partition_point(|record| record.range.start <= touched_end).max(left);
        let region_start = if left == 0 { 0 } else { self.records[left].range.start };
        let region_old_end = self.records.get(right).map_or(old_len, |record| record.range.start);
        let region_new_end = region_old_end + new_len - old_len;
        let region_text = self.rope.byte_slice(region_start..region_new_end).to_string();
        let after_region = left + self.resplit(left..right, region_start, &region_text);
        for record in &mut self.records[after_region..] {
            record.range =
                record.range.start + new_len - old_len..record.range.end + new_len - old_len;
        }
        self.check_records();
    }

    /// Splits `region_text` (the document's text from `region_start`, and nothing but whole
    /// records) into records and puts them in the place of the old records `replaced`,
    /// reusing every unchanged record's state. A record edited in place is parsed from its
    /// predecessor's tree when that one is cached, and its own parse is cached: the next
    /// request is most likely about it. The ranges of the records after the region are left
    /// for the caller to shift. Returns how many records the region holds now.
    fn resplit(&mut self, replaced: Range<usize>, region_start: usize, region_text: &str) -> usize {
        let ranges = syntax::split_records(region_text);
        let reuse = reuse_unchanged(region_text, &ranges, &self.records[replaced.clone()]);
        let jobs: Vec<Job> = reuse
            .iter()
            .zip(&ranges)
            .filter_map(|(reuse, range)| match reuse {
                Reuse::Same(_) => None,
                Reuse::Edited(previous) => Some((
                    region_text[range.clone()].to_string(),
                    self.cached(previous).map(|parsed| (previous.clone(), parsed)),
                )),
                Reuse::New => Some((region_text[range.clone()].to_string(), None)),
            })
            .collect();
        // A keystroke analyses one record; opening a file, all of them.
        let keep_parses = jobs.len() <= PARSES_KEPT;
        let rule_checks = self.rule_checks;
        let mut analysed = in_parallel(&jobs, |part| {
            part.iter()
                .map(|(text, previous)| {
                    let previous =
                        previous.as_ref().map(|(state, parsed)| (state.text.as_str(), &**parsed));
                    let parsed =
                        with_parser(|parser| Parsed::new(parser, text, previous, rule_checks));
                    let state = Arc::new(RecordState::new(text.clone(), &parsed));
                    (state, keep_parses.then(|| Arc::new(parsed)))
                })
                .collect()
        })
        .into_iter();
        let mut kept = Vec::new();
        let region: Vec<Record> = ranges
            .into_iter()
            .zip(reuse)
            .filter_map(|(range, reuse)| {
                let state = match reuse {
                    Reuse::Same(state) => state,
                    Reuse::Edited(_) | Reuse::New => {
                        let (state, parsed) = analysed.next()?;
                        kept.extend(parsed.map(|parsed| (state.clone(), parsed)));
                        state
                    }
                };
                Some(Record { range: region_start + range.start..region_start + range.end, state })
            })
            .collect();
        let count = region.len();
        self.records.splice(replaced, region);
        for (state, parsed) in kept {
            self.keep(state, parsed);
        }
        count
    }

    /// Asserts the invariant of `records` (in debug builds): in order, disjoint, and each
    /// one's text the text of its range.
    fn check_records(&self) {
        debug_assert!(self.records.windows(2).all(|pair| pair[0].range.end <= pair[1].range.start));
        debug_assert!(
            self.records
                .iter()
                .all(|record| self.rope.byte_slice(record.range.clone())
                    == record.state.text.as_str())
        );
    }
}

/// A record to parse and analyse: its text, and the state and parse of the record it replaces
/// when that one is the base of an incremental parse.
type Job = (String, Option<(Arc<RecordState>, Arc<Parsed>)>);

/// What a new record takes from the old ones.
enum Reuse {
    /// An old record with the same text: its state, as it is.
    Same(Arc<RecordState>),
    /// The old record in its place, whose text changed: the base of an incremental parse.
    Edited(Arc<RecordState>),
    /// Nothing.
    New,
}

/// What each new record takes from the old records, in new-record order.
fn reuse_unchanged(text: &str, ranges: &[Range<usize>], old: &[Record]) -> Vec<Reuse> {
    let same = |new: usize, old: &Record| text[ranges[new].clone()] == old.state.text;
    // The unchanged runs at both ends are found by comparing texts in place, which costs one
    // pass over memory; hashing is left to the few records in between.
    let prefix = (0..ranges.len().min(old.len())).take_while(|&i| same(i, &old[i])).count();
    let suffix = (0..ranges.len().min(old.len()) - prefix)
        .take_while(|&back| same(ranges.len() - 1 - back, &old[old.len() - 1 - back]))
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let by_text: HashMap<&str, &Arc<RecordState>> =
        old_middle.iter().map(|record| (record.state.text.as_str(), &record.state)).collect();
    // When as many records are left on both sides, they are the same records edited in place
    // (one record, for a keystroke), and each old one is the base of its successor's parse.
    let in_place = old_middle.len() == ranges.len() - suffix - prefix;
    (0..ranges.len())
        .map(|i| {
            if i < prefix {
                Reuse::Same(old[i].state.clone())
            } else if i >= ranges.len() - suffix {
                Reuse::Same(old[old.len() - (ranges.len() - i)].state.clone())
            } else if let Some(&state) = by_text.get(&text[ranges[i].clone()]) {
                Reuse::Same(state.clone())
            } else if in_place {
                Reuse::Edited(old_middle[i - prefix].state.clone())
            } else {
                Reuse::New
            }
        })
        .collect()
}

/// `work` applied to contiguous chunks of `items`, one chunk per core when there are many
/// items (records are independent), the results put back in order.
fn in_parallel<I: Sync, T: Send>(items: &[I], work: impl Fn(&[I]) -> Vec<T> + Sync) -> Vec<T> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    if threads <= 1 || items.len() < 16 {
        return work(items);
    }
    let chunk = items.len().div_ceil(threads);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            items.chunks(chunk).map(|part| scope.spawn(move || work(part))).collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The open documents by URI.
#[derive(Debug, Default)]
pub struct Documents {
    open: Mutex<HashMap<Uri, Document>>,
    /// Whether documents are analysed with the optional rule checks (the settings' `rules`).
    judge_rules: std::sync::atomic::AtomicBool,
}

impl Documents {
    /// Opens (or reopens) a document. The analysis runs before the lock is taken, so that
    /// opening a large file does not hold up requests on the other documents.
    pub fn open(&self, uri: Uri, text: &str, version: i32) {
        let mut document = Document::with_rule_checks(text, version, self.rule_checks());
        let mut open = self.lock();
        // The rule checks may have been switched while the document was analysed.
        if document.rule_checks != self.rule_checks() {
            document = Document::with_rule_checks(text, version, self.rule_checks());
        }
        open.insert(uri, document);
    }

    /// Makes a document's text `text` at `version` again, whatever its records hold, after a
    /// change or an opening whose analysis panicked. The text is put in place with no records
    /// first, and only then analysed: when the analysis panics again the text stays right,
    /// and requests get empty answers until the next change.
    pub fn reset(&self, uri: Uri, text: &str, version: i32) {
        let rule_checks = self.rule_checks();
        let unanalysed = Document {
            rope: Rope::from_str(text),
            version,
            records: Vec::new(),
            parses: Mutex::default(),
            rule_checks,
        };
        self.lock().insert(uri.clone(), unanalysed);
        let analysed = Document::with_rule_checks(text, version, rule_checks);
        let mut open = self.lock();
        // Unless a newer change or a switch of the rule checks came in between.
        if let Some(document) = open
            .get_mut(&uri)
            .filter(|document| document.version == version && document.rule_checks == rule_checks)
        {
            *document = analysed;
        }
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
            if document.rule_checks != rule_checks {
                *document = Document::with_rule_checks(
                    &document.rope.to_string(),
                    document.version,
                    rule_checks,
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
                document.apply(version, changes, encoding);
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
        let states = |document: &Document| -> Vec<(Range<usize>, String)> {
            let records = document.records().iter();
            records.map(|record| (record.range.clone(), record.state.text.to_string())).collect()
        };
        let reset = documents.snapshot(&uri).expect("the document stays open");
        assert_eq!(reset.rope().to_string(), text);
        assert_eq!(reset.version(), 7);
        assert_eq!(states(&reset), states(&fresh));
        assert_eq!(states(&reset).len(), 2);
    }

    #[test]
    fn unchanged_records_keep_their_analysis() {
        let text = GAME.repeat(3);
        let mut document = Document::new(&text, 1);
        let before: Vec<_> = document.records().iter().map(|record| record.state.clone()).collect();
        // Line 7 is the move line of the second record.
        document.apply(2, &[edit(7, 3, 5, "B4")], PositionEncoding::Utf16);
        let after = document.records();
        assert_eq!(after.len(), 3);
        assert!(Arc::ptr_eq(&before[0], &after[0].state));
        assert!(!Arc::ptr_eq(&before[1], &after[1].state));
        assert!(Arc::ptr_eq(&before[2], &after[2].state));
        assert!(after[1].state.text.contains("B4-K6"));
        assert_eq!(document.version(), 2);
    }

    #[test]
    fn records_that_move_are_found_by_their_text() {
        let other = GAME.replace("K4-K6", "B4-B6");
        let mut document = Document::new(&format!("{GAME}{other}"), 1);
        let second = document.records()[1].state.clone();
        // Deleting the first record moves the second to the front.
        let lines = GAME.lines().count() as u32;
        let delete = TextDocumentContentChangeEvent {
            range: Some(LspRange::new(Position::new(0, 0), Position::new(lines, 0))),
            range_length: None,
            text: String::new(),
        };
        document.apply(2, &[delete], PositionEncoding::Utf16);
        assert_eq!(document.records().len(), 1);
        assert!(Arc::ptr_eq(&second, &document.records()[0].state));
    }

    #[test]
    fn changes_apply_in_order_and_a_full_change_replaces_the_text() {
        let mut document = Document::new(GAME, 1);
        document.apply(2, &[edit(2, 3, 3, "x"), edit(2, 3, 4, "")], PositionEncoding::Utf8);
        assert_eq!(document.rope().to_string(), GAME);
        let full =
            TextDocumentContentChangeEvent { range: None, range_length: None, text: String::new() };
        document.apply(3, &[full], PositionEncoding::Utf8);
        assert!(document.records().is_empty());
        assert!(document.record_at(0).is_none());
    }

    #[test]
    fn an_incremental_parse_gives_the_fresh_tree() {
        let mut parser = syntax::new_parser();
        let old = Parsed::new(&mut parser, GAME, None, RuleChecks::Judge);
        for new in [
            GAME.replace("K4-K6", "K4×K6…"),
            GAME.replace("E21", "🩐"),
            GAME.replace("1. ", ""),
            format!("{GAME}2. A5-A7"),
        ] {
            let edited = Parsed::new(&mut parser, &new, Some((GAME, &old)), RuleChecks::Judge);
            let fresh = syntax::parse(&mut parser, &new);
            assert_eq!(edited.tree.root_node().to_sexp(), fresh.root_node().to_sexp(), "{new}");
            assert_eq!(
                edited.analysis.diagnostics,
                analyse_syntax(&new, &syntax::lower_record(&fresh)).diagnostics
            );
        }
    }

    #[test]
    fn deleting_the_number_of_a_draw_offer_line_gives_what_a_fresh_open_gives() {
        // Found by fuzzing: `2. (=)` with its `2` deleted parsed incrementally as a variation
        // `(=)` (S001 at the `)`) but afresh as stray tokens (S001 and M006).
        for text in [
            "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. (=)\n*\n",
            "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. (=), E19-E17\n*\n",
        ] {
            let mut document = Document::new(text, 1);
            document.parsed(&document.records()[0].clone());
            document.apply(2, &[edit(3, 0, 1, "")], PositionEncoding::Utf16);
            let edited = document.rope().to_string();
            assert_eq!(edited, text.replace("\n2. (=)", "\n. (=)"));
            let fresh = Document::new(&edited, 2);
            assert_eq!(
                document.records()[0].state.diagnostics,
                fresh.records()[0].state.diagnostics
            );
            let record = document.records()[0].clone();
            assert_eq!(
                document.parsed(&record).tree.root_node().to_sexp(),
                syntax::parse(&mut syntax::new_parser(), &edited).root_node().to_sexp()
            );
        }
    }

    #[test]
    fn parses_are_cached_for_the_records_asked_about_and_the_record_being_edited() {
        let text = GAME.repeat(3);
        let mut document = Document::new(&text, 1);
        let first = document.records()[0].clone();
        let parsed = document.parsed(&first);
        assert!(Arc::ptr_eq(&parsed, &document.parsed(&first)), "asked twice, parsed once");
        document.apply(2, &[edit(7, 3, 5, "B4")], PositionEncoding::Utf16);
        let edited = document.records()[1].clone();
        assert!(document.cached(&edited.state).is_some(), "the edited record keeps its parse");
        assert_eq!(document.parsed(&edited).analysis.diagnostics, edited.state.diagnostics);
        let lines: Vec<usize> =
            document.map_syntax(|record, _, syntax| record.range.start + syntax.items.len());
        assert_eq!(lines.len(), 3);
        for extra in 0..PARSES_KEPT + 5 {
            let more =
                format!("{text}{}", GAME.replace("K4-K6", &format!("K4-K{}", 6 + 2 * (extra % 3))));
            document = Document::new(&more, 1);
            for record in document.records().to_vec() {
                document.parsed(&record);
            }
        }
        assert!(document.parses.lock().map(|parses| parses.len()).unwrap_or(0) <= PARSES_KEPT);
    }

    /// Pieces of text that edits insert: nothing (a pure deletion, such as the one that
    /// turned `2. (=)` into `. (=)`), record starts and pieces of them (a line opens a record
    /// by its first bytes), move lines, annotations and draw offers, comments, non-ASCII
    /// characters, line breaks of every kind, a byte-order mark.
    const PIECES: [&str; 23] = [
        "",
        "",
        "2. (=)\n",
        "(=)",
        "[Variant \"C'escacs\"]\n",
        "\n",
        "\r\n",
        "\r",
        "2. JF6-B18, EE23-D20:",
        "×",
        "…",
        "🩐",
        "{ ~F6 }",
        "(",
        ")",
        "*\n",
        "E",
        "[",
        "[Variant",
        "_",
        " \t",
        "\u{FEFF}",
        "\n[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n",
    ];

    /// A record with draw offers, one of them on a line of its own (S001, M006): edits
    /// around it exercise error recovery, where incremental and fresh parses may differ.
    const DRAW_OFFERS: &str =
        "[Variant \"C'escacs\"]\n\n1. K4-K6 (=), E21-E19\n2. (=)\n3. JF6-B18 !(=):\n*\n";

    /// One change of a batch: where it starts, how many characters it removes, what it
    /// inserts, as indices into the text it applies to and `PIECES`.
    type Change = (usize, usize, usize);

    /// The change `(at, removed, piece)` as the client sends it, against `rope`.
    fn change_of(rope: &Rope, (at, removed, piece): Change) -> TextDocumentContentChangeEvent {
        let text = rope.to_string();
        let boundaries: Vec<usize> =
            (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let start = at % boundaries.len();
        let end = (start + removed).min(boundaries.len() - 1);
        let range = LspRange::new(
            convert::position(rope, boundaries[start], PositionEncoding::Utf8),
            convert::position(rope, boundaries[end], PositionEncoding::Utf8),
        );
        TextDocumentContentChangeEvent {
            range: Some(range),
            range_length: None,
            text: PIECES[piece].to_string(),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

        /// However a document is edited, one change or a batch at a time, its records, texts
        /// and findings are the ones a fresh document of the same text has: re-splitting only
        /// around the edit and reusing unchanged records never keeps a stale one.
        #[test]
        fn an_edited_document_equals_a_fresh_one(
            batches in proptest::collection::vec(proptest::collection::vec((0usize..10_000, 0usize..12, 0usize..PIECES.len()), 1..4), 1..16)
        ) {
            let mut document = Document::new(&format!("{}{DRAW_OFFERS}", GAME.repeat(3)), 1);
            for (index, batch) in batches.into_iter().enumerate() {
                // Each change refers to the text the previous one left, as in a client's batch.
                let mut client_side = document.rope().clone();
                let mut changes = Vec::new();
                for change in batch {
                    let change = change_of(&client_side, change);
                    let bytes = convert::byte_range(&client_side, change.range.unwrap_or_default(), PositionEncoding::Utf8);
                    let start = client_side.byte_to_char(bytes.start);
                    client_side.remove(start..client_side.byte_to_char(bytes.end));
                    client_side.insert(start, &change.text);
                    changes.push(change);
                }
                document.apply(index as i32 + 2, &changes, PositionEncoding::Utf8);
                proptest::prop_assert_eq!(document.rope().to_string(), client_side.to_string());
                let fresh = Document::new(&document.rope().to_string(), 0);
                let summary = |document: &Document| -> Vec<(Range<usize>, String, Vec<Diagnostic>)> {
                    document.records().iter().map(|record| (record.range.clone(), record.state.text.clone(), record.state.diagnostics.clone())).collect()
                };
                proptest::prop_assert_eq!(summary(&document), summary(&fresh));
                for record in document.records() {
                    let parsed = document.parsed(record);
                    let fresh_parse = syntax::parse(&mut syntax::new_parser(), &record.state.text);
                    proptest::prop_assert_eq!(parsed.tree.root_node().to_sexp(), fresh_parse.root_node().to_sexp());
                }
            }
        }
    }
}
