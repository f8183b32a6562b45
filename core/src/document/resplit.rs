//! Bringing a document's records up to date after an edit: the text around the touched bytes
//! is split again, unchanged records keep their state, and only the others are parsed (from
//! the tree of the record they replace when it is at hand) and analysed.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use super::cache::PARSES_KEPT;
use super::record::{
    analyse_guarded, prepare_guarded, read_syntax_telling, Parsed, Record, RecordState,
    LARGE_RECORD,
};
use super::Document;
use crate::analysis::{AnalysisOptions, Keep};
use crate::parallel;
use crate::syntax;
use crate::text::TextRange;

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

impl Document {
    /// Re-splits the text around the bytes a batch of changes touched, and only there.
    ///
    /// Whether a line opens a record depends on the line's first bytes and the byte before it
    /// (`syntax::split_records`). A record that starts after the touched bytes therefore
    /// still starts a record, and so does every later one: they keep their state, shifted.
    /// The record before the one holding the first touched byte is whole and untouched, and
    /// its line still opens it, so the re-split starts there; the record after it may have
    /// had its own `[Variant` line edited. Near the start of the text the re-split starts at
    /// the text's start, where a byte-order mark and a headless record are decided.
    pub(super) fn update_records(
        &mut self,
        old_len: usize,
        unchanged_start: usize,
        unchanged_end: usize,
    ) {
        let new_len = self.rope.len_bytes();
        let touched_end = old_len - unchanged_end;
        let touched_start = unchanged_start.min(touched_end).min(new_len - unchanged_end);
        let starting_before =
            self.records.partition_point(|record| record.range.start < touched_start);
        let left = starting_before.saturating_sub(2);
        // A record that starts right after a byte-order mark starts there because the mark
        // begins the text, not because a line begins there: an insertion before the mark
        // makes its first line `…\u{FEFF}[Variant`, which opens no record. So a re-split from
        // the text's start takes in the record after the mark too.
        let decided_from =
            if left == 0 { touched_end.max(BYTE_ORDER_MARK.len()) } else { touched_end };
        let right =
            self.records.partition_point(|record| record.range.start <= decided_from).max(left);
        let region_start = if left == 0 { 0 } else { self.records[left].range.start };
        let region_old_end = self.records.get(right).map_or(old_len, |record| record.range.start);
        let region_new_end = region_old_end + new_len - old_len;
        let region_text = self.rope.byte_slice(region_start..region_new_end).to_string();
        let after_region = left + self.resplit(left..right, region_start, &region_text, true);
        for record in &mut self.records[after_region..] {
            record.range = record.range.shifted(new_len).unshifted(old_len);
        }
        self.check_records();
    }

    /// Splits `region_text` (the document's text from `region_start`, and nothing but whole
    /// records) into records and puts them in the place of the old records `replaced`,
    /// reusing every unchanged record's state. After an edit (`edited`), a record edited in
    /// place is parsed from its predecessor's tree when that one is cached, and its own parse
    /// is cached: the next request is most likely about it. The ranges of the records after the
    /// region are left for the caller to shift. Returns how many records the region holds now.
    pub(super) fn resplit(
        &mut self,
        replaced: Range<usize>,
        region_start: usize,
        region_text: &str,
        edited: bool,
    ) -> usize {
        let ranges = syntax::split_records(region_text);
        let reuse = reuse_unchanged(region_text, &ranges, &self.records[replaced.clone()]);
        let jobs: Vec<Job> = reuse
            .iter()
            .zip(&ranges)
            .filter_map(|(reuse, range)| match reuse {
                Reuse::Same(_) => None,
                Reuse::Edited(previous) => Some((
                    region_text[*range].to_string(),
                    self.parses.get(previous).map(|parsed| (previous.clone(), parsed)),
                )),
                Reuse::New => Some((region_text[*range].to_string(), None)),
            })
            .collect();
        // A keystroke analyses one record, whose tree is kept for the requests about it and
        // the next keystroke's incremental parse. Opening a file reads every record by the
        // hand-written reader with no tree kept (a request parses its record when it comes): a
        // parse holds a hundred times its text, and an editor may open thousands of files of a
        // game each. So is a large paste, and a large record, whose parse alone would be that.
        let keep_parses = edited && jobs.len() <= PARSES_KEPT;
        let (rule_checks, prepare) = (self.rule_checks, &self.prepare);
        let mut analysed = parallel::map_chunks(&jobs, |part| {
            part.iter()
                .map(|(text, previous)| {
                    if !keep_parses || text.len() > LARGE_RECORD {
                        // Only the findings are kept, and what `prepare` derives: a feature
                        // parses its record again.
                        let (syntax, read) = read_syntax_telling(text);
                        let options = AnalysisOptions::new(Keep::Findings, rule_checks);
                        let analysis = analyse_guarded(text, &syntax, options);
                        let state = Arc::new(RecordState::with_findings(text.clone(), analysis));
                        if read {
                            for &prepare in prepare.iter() {
                                prepare_guarded(prepare, &state, &syntax);
                            }
                        }
                        return (state, None);
                    }
                    let previous =
                        previous.as_ref().map(|(state, parsed)| (state.text.as_str(), &**parsed));
                    let parsed = Parsed::new(text, previous, rule_checks);
                    let state = Arc::new(RecordState::new(text.clone(), &parsed.analysis));
                    (state, Some(Arc::new(parsed)))
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
                Some(Record { range: range.shifted(region_start), state })
            })
            .collect();
        let count = region.len();
        // The parses of the records the region no longer holds are of no use to anyone.
        let live: HashSet<*const RecordState> =
            region.iter().map(|record| Arc::as_ptr(&record.state)).collect();
        for old in &self.records[replaced.clone()] {
            if !live.contains(&Arc::as_ptr(&old.state)) {
                self.parses.forget(&old.state);
            }
        }
        self.records.splice(replaced, region);
        for (state, parsed) in kept {
            self.parses.keep(state, parsed);
        }
        count
    }

    /// Asserts the invariant of `records` (in debug builds): in order, disjoint, and each
    /// one's text the text of its range.
    pub(super) fn check_records(&self) {
        debug_assert!(self.records.windows(2).all(|pair| pair[0].range.end <= pair[1].range.start));
        debug_assert!(self
            .records
            .iter()
            .all(|record| self.rope.byte_slice(record.range.to_range())
                == record.state.text.as_str()));
    }
}

/// The byte-order mark as it opens a UTF-8 text.
const BYTE_ORDER_MARK: &str = "\u{FEFF}";

/// What each new record takes from the old records, in new-record order.
fn reuse_unchanged(text: &str, ranges: &[TextRange], old: &[Record]) -> Vec<Reuse> {
    let same = |new: usize, old: &Record| text[ranges[new]] == old.state.text;
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
            } else if let Some(&state) = by_text.get(&text[ranges[i]]) {
                Reuse::Same(state.clone())
            } else if in_place {
                Reuse::Edited(old_middle[i - prefix].state.clone())
            } else {
                Reuse::New
            }
        })
        .collect()
}
