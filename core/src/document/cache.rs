//! The parses of the records asked about last: keeping every record's tree, syntax and a
//! position per half-move would cost about 100 times the file's size (measured: 225 MB for
//! a 2 MB file), and a request is about one record.
//!
//! The cache is bounded twice: by entries (the records around the cursor) and by the bytes
//! the parses hold, as `Parsed::estimated_bytes` counts them, so that one large record edited
//! a hundred times cannot fill the memory with its old versions. The parse kept last always
//! stays, whatever its size: it is the one the next request is about. A parse whose record
//! is gone from the document (edited, removed) is dropped at once (`forget`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use super::record::{Parsed, RecordState};

/// How many records keep their parse between requests: enough for the records around the
/// cursor and a few more, a few hundred kilobytes for records of the usual size.
pub const PARSES_KEPT: usize = 32;

/// How many bytes the kept parses may hold together, as `Parsed::estimated_bytes` counts them
/// (the latest parse excepted, which stays whatever its size).
pub const PARSE_BYTES_KEPT: usize = 64 << 20;

/// A kept parse: the record's state, its parse and the bytes the parse holds.
type Entry = (Arc<RecordState>, Arc<Parsed>, usize);

/// The parses of the records asked about last, the latest first, found by their state.
#[derive(Debug)]
pub struct ParseCache {
    parses: Mutex<VecDeque<Entry>>,
    /// How many bytes the parses may hold together: `PARSE_BYTES_KEPT`, smaller in tests.
    bound: usize,
}

impl Default for ParseCache {
    fn default() -> ParseCache {
        ParseCache { parses: Mutex::default(), bound: PARSE_BYTES_KEPT }
    }
}

impl ParseCache {
    /// The parse kept for a record's state, which becomes the latest.
    pub fn get(&self, state: &Arc<RecordState>) -> Option<Arc<Parsed>> {
        let mut parses = self.lock();
        let index = parses.iter().position(|(kept, _, _)| Arc::ptr_eq(kept, state))?;
        let entry = parses.remove(index)?;
        let parsed = entry.1.clone();
        parses.push_front(entry);
        Some(parsed)
    }

    /// Keeps a parse as the latest, forgetting the oldest beyond `PARSES_KEPT` entries or
    /// `PARSE_BYTES_KEPT` bytes.
    pub fn keep(&self, state: Arc<RecordState>, parsed: Arc<Parsed>) {
        let bytes = parsed.estimated_bytes(state.text.len());
        let mut parses = self.lock();
        parses.retain(|(kept, _, _)| !Arc::ptr_eq(kept, &state));
        parses.push_front((state, parsed, bytes));
        parses.truncate(PARSES_KEPT);
        let mut total: usize = parses.iter().map(|(_, _, bytes)| bytes).sum();
        while total > self.bound && parses.len() > 1 {
            total -= parses.pop_back().map_or(0, |(_, _, bytes)| bytes);
        }
    }

    /// The parses kept, the latest first.
    pub fn entries(&self) -> Vec<(Arc<RecordState>, Arc<Parsed>)> {
        self.lock().iter().map(|(state, parsed, _)| (state.clone(), parsed.clone())).collect()
    }

    /// Drops the parse of a state the document no longer holds.
    pub fn forget(&self, state: &Arc<RecordState>) {
        self.lock().retain(|(kept, _, _)| !Arc::ptr_eq(kept, state));
    }

    /// How many parses are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// How many bytes the kept parses hold, as they were counted when kept.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.lock().iter().map(|(_, _, bytes)| bytes).sum()
    }

    /// The states whose parses are kept, the latest first.
    #[cfg(test)]
    pub fn states(&self) -> Vec<Arc<RecordState>> {
        self.lock().iter().map(|(kept, _, _)| kept.clone()).collect()
    }

    /// A request that panicked holding the lock left a list of whole entries: reading on is
    /// safe.
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Entry>> {
        self.parses.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::RuleChecks;

    /// A record's state and parse, and the bytes the parse is counted for.
    fn parse_of(text: &str) -> (Arc<RecordState>, Arc<Parsed>, usize) {
        let parsed = Parsed::new(text, None, RuleChecks::Skip);
        let state = Arc::new(RecordState::new(text.to_string(), &parsed.analysis));
        let bytes = parsed.estimated_bytes(text.len());
        (state, Arc::new(parsed), bytes)
    }

    #[test]
    fn the_parses_kept_stay_within_the_byte_bound_but_the_latest_stays_whatever_its_size() {
        let game = |moves: usize| {
            let pairs = ["1. NG3-H8, NG25-I15", "2. NH8-G3, NI15-G25"];
            let lines: Vec<&str> = (0..moves).map(|index| pairs[index % 2]).collect();
            format!("[Variant \"C'escacs\"]\n\n{}:\n*\n", lines.join("\n"))
        };
        let small = parse_of(&game(2));
        let large = parse_of(&game(400));
        assert!(large.2 > 20 * small.2, "{} against {}", large.2, small.2);
        let second_large = parse_of(&game(401));
        let cache = ParseCache { parses: Mutex::default(), bound: second_large.2 + 2 * small.2 };
        cache.keep(small.0.clone(), small.1.clone());
        cache.keep(large.0.clone(), large.1.clone());
        assert_eq!(cache.len(), 2, "both fit");
        assert!(cache.get(&small.0).is_some(), "asked about, the small parse is the latest");
        cache.keep(second_large.0.clone(), second_large.1.clone());
        let states = cache.states();
        assert_eq!(states.len(), 2, "the oldest, which no longer fits, went");
        assert!(Arc::ptr_eq(&states[0], &second_large.0), "the latest first");
        assert!(Arc::ptr_eq(&states[1], &small.0));
        assert!(cache.bytes() <= cache.bound);
        // A parse larger than the bound alone is kept, alone.
        let tight = ParseCache { parses: Mutex::default(), bound: small.2 };
        tight.keep(small.0.clone(), small.1.clone());
        tight.keep(large.0.clone(), large.1.clone());
        assert_eq!(tight.len(), 1);
        assert!(tight.get(&large.0).is_some());
        // Kept again, a state is not kept twice; forgotten, it is gone.
        cache.keep(small.0.clone(), small.1.clone());
        assert_eq!(cache.states().iter().filter(|state| Arc::ptr_eq(state, &small.0)).count(), 1);
        cache.forget(&small.0);
        assert!(cache.get(&small.0).is_none());
    }
}
