//! A document as the editor features see it: its text, its version and its records, each
//! record with its text and the findings of its analysis; the tree, the lowered syntax and
//! the replayed positions of a record are derived again when a feature needs them.
//!
//! A file can hold thousands of records and a keystroke touches one. A batch of changes is
//! applied to the rope, and only the stretch of text around the bytes it touched is read back
//! from the rope and split into records again (`resplit`); the records before and after it
//! keep their state (the later ones shifted). Inside that stretch records are matched by
//! their text, and only the changed ones are parsed, incrementally from the tree of the
//! record they replace when that one is at hand (`incremental`), and analysed. On a
//! 2,000-record file (2 MB) a keystroke costs well under a millisecond plus the edited
//! record's analysis, so the editor's server does the work at once: a document's text,
//! records and findings then always describe the same version.
//!
//! A feature is about one record (a hover, a completion, a code action), and parsing and
//! analysing a record again takes a fraction of a millisecond, so only the records asked about
//! last keep their parse (`cache`). Opening a document, and features over the whole document
//! (folding, symbols, semantic tokens), read the records with the hand-written reader on every
//! core; tree-sitter parses only the records the reader declines. What these features derive
//! is kept with each record's state, so a keystroke redoes one record; what the client will
//! ask for as soon as a document is open is derived as the document is read (`Prepare`).

mod cache;
mod derived;
mod incremental;
mod placed_change;
mod record;
mod resplit;
#[cfg(test)]
mod tests;
mod view;

use ropey::Rope;

pub use placed_change::{Misplaced, PlacedChange, Placing};
pub use record::{OpenRecord, Parsed, Record, RecordState, LARGE_RECORD};
pub use view::RecordView;

use crate::analysis::RuleChecks;
use crate::parallel;
use crate::syntax::{self, RecordSyntax};
use crate::text::TextRange;
use cache::ParseCache;
use record::{parse_tree, read_syntax};

/// One change of a document's text: the bytes `range` of the text as the previous change left
/// it are replaced by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change<'a> {
    pub range: TextRange,
    pub text: &'a str,
}

/// Work on a record's syntax while it is at hand, when many records are read at once (a
/// document opened, a large paste): what the client will ask of every record next, kept with
/// the record's state (see [`Document::map_derived`]), so that no record is read again
/// for it. Only the records the hand-written reader accepts are prepared.
pub type Prepare = fn(&RecordState, &RecordSyntax);

/// The preparations of a document's records, shared by its snapshots.
pub type Preparations = std::sync::Arc<[Prepare]>;

/// A document: its text, the version the editor gave it, and its records.
#[derive(Debug)]
pub struct Document {
    /// The text, as the changes left it.
    rope: Rope,
    /// The version the editor gave the text.
    version: i32,
    /// The records of the text, in order, as `syntax::split_records` finds them: ranges are
    /// increasing and disjoint, and the text of `records[i].range` is `records[i].state.text`.
    records: Vec<Record>,
    /// The parses of the records asked about last.
    parses: ParseCache,
    /// Whether the records' analyses judge the optional rule checks: only while the settings
    /// show them, because they cost about as much as the replay.
    rule_checks: RuleChecks,
    /// What is derived from each record read with many others.
    prepare: Preparations,
    /// What the changes applied to the text since the records were last brought up to date
    /// left alone (see [`Document::edit`]); `None` while the records describe the text.
    pending: Option<Pending>,
}

/// What changes applied to the text, and not yet to its records, left alone: the text before
/// `unchanged_start` and the last `unchanged_end` bytes of a text that was `old_len` bytes
/// long when the records last described it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    old_len: usize,
    unchanged_start: usize,
    unchanged_end: usize,
}

impl Clone for Document {
    /// A snapshot for work that should not hold up edits: the rope and the records are
    /// shared, not copied; the cache of parses starts empty.
    fn clone(&self) -> Document {
        Document {
            rope: self.rope.clone(),
            version: self.version,
            records: self.records.clone(),
            parses: ParseCache::default(),
            rule_checks: self.rule_checks,
            prepare: self.prepare.clone(),
            pending: self.pending,
        }
    }
}

/// A value derived from a record's syntax when the reader accepts the record, else from its
/// tree (`parsed`'s, or parsed now).
fn derive_read<T>(
    record: &Record,
    parsed: Option<&Parsed>,
    from_syntax: &impl Fn(&Record, &RecordSyntax) -> T,
    from_tree: &impl Fn(&Record, &tree_sitter::Tree) -> T,
) -> T {
    let text = &record.state.text;
    match (syntax::read_record(text), parsed.and_then(|parsed| parsed.tree.as_ref())) {
        (Some(read), _) => from_syntax(record, &read),
        (None, Some(tree)) => from_tree(record, tree),
        (None, None) => from_tree(record, &parse_tree(text, None)),
    }
}

impl Document {
    /// A document opened with `text`, every record analysed, rule checks included.
    pub fn new(text: &str, version: i32) -> Document {
        Document::read(text, version, RuleChecks::Judge, Preparations::from([]))
    }

    /// A document opened with `text`, every record analysed with or without the rule checks,
    /// and prepared with each of `prepare`.
    pub fn read(
        text: &str,
        version: i32,
        rule_checks: RuleChecks,
        prepare: Preparations,
    ) -> Document {
        let mut document = Document::unanalysed(text, version, rule_checks, prepare);
        document.resplit(0..0, 0, text, false);
        document.check_records();
        document
    }

    /// A document with `text` and no records yet: what stands while an analysis that may
    /// panic runs, so that the text at least is right.
    pub fn unanalysed(
        text: &str,
        version: i32,
        rule_checks: RuleChecks,
        prepare: Preparations,
    ) -> Document {
        Document {
            rope: Rope::from_str(text),
            version,
            records: Vec::new(),
            parses: ParseCache::default(),
            rule_checks,
            prepare,
            pending: None,
        }
    }

    pub fn rope(&self) -> &Rope {
        &self.rope
    }

    pub fn version(&self) -> i32 {
        self.version
    }

    pub fn rule_checks(&self) -> RuleChecks {
        self.rule_checks
    }

    /// The records, as the text was when they were last brought up to date (see
    /// [`Document::edit`]).
    pub fn records(&self) -> &[Record] {
        debug_assert!(self.pending.is_none(), "the records of an edited text are read");
        &self.records
    }

    /// The record holding a byte offset, with its parse; an offset between two records belongs
    /// to the second, and the end of the text to the last record.
    pub fn at(&self, offset: usize) -> Option<OpenRecord<'_>> {
        let index = self.index_at(offset)?;
        let record = &self.records[index];
        Some(OpenRecord { record, index, parsed: self.parsed(record) })
    }

    /// A record of this document with its parse.
    pub fn view<'a>(&'a self, record: &'a Record) -> OpenRecord<'a> {
        let index = self
            .records
            .partition_point(|earlier| earlier.range.start < record.range.start)
            .min(self.records.len().saturating_sub(1));
        OpenRecord { record, index, parsed: self.parsed(record) }
    }

    fn index_at(&self, offset: usize) -> Option<usize> {
        debug_assert!(self.pending.is_none(), "the records of an edited text are read");
        let after = self.records.partition_point(|record| record.range.start <= offset);
        let index = after.checked_sub(1)?;
        (offset <= self.records[index].range.end).then_some(index)
    }

    /// The parse of a record: from the cache when it was asked about lately, else parsed and
    /// analysed again (and kept in the cache).
    pub fn parsed(&self, record: &Record) -> std::sync::Arc<Parsed> {
        if let Some(parsed) = self.parses.get(&record.state) {
            return parsed;
        }
        let parsed = std::sync::Arc::new(Parsed::new(&record.state.text, None, self.rule_checks));
        self.parses.keep(record.state.clone(), parsed.clone());
        parsed
    }

    /// A snapshot (see `Clone`) for a request about the record holding byte `offset`, carrying
    /// that record's parse when it is kept: the request works outside the documents' lock
    /// without parsing the record again, and gives back what it parsed with
    /// [`Document::keep_parses_of`].
    pub fn snapshot_at(&self, offset: usize) -> Document {
        let snapshot = self.clone();
        let state = self.index_at(offset).map(|index| &self.records[index].state);
        if let Some((state, parsed)) =
            state.and_then(|state| Some((state, self.parses.get(state)?)))
        {
            snapshot.parses.keep(state.clone(), parsed);
        }
        snapshot
    }

    /// Keeps the parses `snapshot` holds of records this document still holds, so that the
    /// next request about them finds them; a parse of a record edited or removed meanwhile is
    /// dropped with the snapshot.
    pub fn keep_parses_of(&self, snapshot: &Document) {
        for (state, parsed) in snapshot.parses.entries().into_iter().rev() {
            if self.records.iter().any(|record| std::sync::Arc::ptr_eq(&record.state, &state)) {
                self.parses.keep(state, parsed);
            }
        }
    }

    /// A value derived from every record's syntax, in record order: kept with each record's
    /// state, so that it is computed once per record text. The records that lack it are read
    /// again on every core, by the hand-written reader (tree-sitter for what it declines):
    /// these are whole-document requests, which wait on every record.
    pub fn map_derived<T: std::any::Any + Send + Sync>(
        &self,
        derive: impl Fn(&Record, &RecordSyntax) -> T + Sync,
    ) -> Vec<std::sync::Arc<T>> {
        self.map_kept(|record, parsed| match parsed {
            Some(parsed) => derive(record, &parsed.syntax),
            None => derive(record, &read_syntax(&record.state.text)),
        })
    }

    /// [`Document::map_derived`] from the syntax of every record the hand-written reader
    /// accepts, and from the tree of the others (parsed again by tree-sitter where the
    /// record's parse is not cached): for what is worked out from the tree where the reader
    /// declines a record.
    pub fn map_derived_read<T: std::any::Any + Send + Sync>(
        &self,
        from_syntax: impl Fn(&Record, &RecordSyntax) -> T + Sync,
        from_tree: impl Fn(&Record, &tree_sitter::Tree) -> T + Sync,
    ) -> Vec<std::sync::Arc<T>> {
        self.map_kept(|record, parsed| derive_read(record, parsed, &from_syntax, &from_tree))
    }

    /// [`Document::map_derived_read`] for one record.
    pub fn derived_read<T: std::any::Any + Send + Sync>(
        &self,
        record: &Record,
        from_syntax: impl Fn(&Record, &RecordSyntax) -> T,
        from_tree: impl Fn(&Record, &tree_sitter::Tree) -> T,
    ) -> std::sync::Arc<T> {
        if let Some(kept) = record.state.derived.get::<T>() {
            return kept;
        }
        let parsed = self.parses.get(&record.state);
        record.state.derived.keep(derive_read(record, parsed.as_deref(), &from_syntax, &from_tree))
    }

    /// The value of type `T` kept with each record's state, derived (from the record's cached
    /// parse when there is one) where it is missing, on every core.
    fn map_kept<T: std::any::Any + Send + Sync>(
        &self,
        derive: impl Fn(&Record, Option<&Parsed>) -> T + Sync,
    ) -> Vec<std::sync::Arc<T>> {
        let one = |record: &Record| {
            if let Some(kept) = record.state.derived.get::<T>() {
                return kept;
            }
            let parsed = self.parses.get(&record.state);
            record.state.derived.keep(derive(record, parsed.as_deref()))
        };
        parallel::map_chunks(&self.records, |part: &[Record]| part.iter().map(one).collect())
    }

    /// Applies changes in order (each one's range is a byte range of the text the previous
    /// one left, clamped to it and to character boundaries), then brings the records the
    /// changes touched up to date: one re-split and one analysis per batch, whatever its
    /// number of changes.
    pub fn apply<'a>(&mut self, version: i32, changes: impl IntoIterator<Item = Change<'a>>) {
        self.edit(version, changes);
        self.settle();
    }

    /// Applies changes to the text alone, as [`Document::apply`] does, leaving the records as
    /// they were until [`Document::settle`]: the editor's server re-checks a large record after
    /// a pause in the typing rather than on every keystroke. Until then the records describe
    /// an older text, and nothing may read them; several batches settle as one.
    pub fn edit<'a>(&mut self, version: i32, changes: impl IntoIterator<Item = Change<'a>>) {
        let old_len = self.rope.len_bytes();
        // What the changes left alone: the text before `unchanged_start`, and the last
        // `unchanged_end` bytes. Each change keeps the bytes before its start and after its
        // end, so the smallest of these over the changes holds for all of them, and for the
        // batches edited before since the records were brought up to date.
        let mut pending = self.pending.unwrap_or(Pending {
            old_len,
            unchanged_start: old_len,
            unchanged_end: old_len,
        });
        let mut changed = false;
        for change in changes {
            let before = self.rope.len_bytes();
            let end = self.rope.byte_to_char(change.range.end.min(before));
            let start = self.rope.byte_to_char(change.range.start.min(before)).min(end);
            let bytes = self.rope.char_to_byte(start)..self.rope.char_to_byte(end);
            self.rope.remove(start..end);
            self.rope.insert(start, change.text);
            pending.unchanged_start = pending.unchanged_start.min(bytes.start);
            pending.unchanged_end = pending.unchanged_end.min(before - bytes.end);
            changed = true;
        }
        self.version = version;
        if changed {
            self.pending = Some(pending);
        }
    }

    /// Brings the records up to date with the changes [`Document::edit`] applied to the text.
    pub fn settle(&mut self) {
        if let Some(pending) = self.pending.take() {
            self.update_records(pending.old_len, pending.unchanged_start, pending.unchanged_end);
        }
    }

    /// Whether the text was edited since the records were brought up to date.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// About how many bytes of text [`Document::settle`] would analyse again: the records
    /// the pending changes touched, grown or shrunk by them; 0 when nothing is pending. (The
    /// re-split also reads the record before, whose text it only compares.)
    pub fn pending_bytes(&self) -> usize {
        self.pending.map_or(0, |pending| {
            let touched_end = pending.old_len - pending.unchanged_end;
            let touched_start = pending.unchanged_start.min(touched_end);
            let holding = |offset: usize| {
                let after = self.records.partition_point(|record| record.range.start <= offset);
                self.records.get(after.saturating_sub(1)).map(|record| record.range)
            };
            let first = holding(touched_start).map_or(touched_start, |range| range.start);
            let last = holding(touched_end).map_or(touched_end, |range| range.end);
            let touched = last.max(touched_end) - first.min(touched_start);
            (touched + self.rope.len_bytes()).saturating_sub(pending.old_len)
        })
    }
}
