//! The parses of the records asked about last: keeping every record's tree, syntax and a
//! position per half-move would cost about 100 times the file's size (measured: 225 MB for
//! a 2 MB file), and a request is about one record.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use super::record::{Parsed, RecordState};

/// How many records keep their parse between requests: enough for the records around the
/// cursor and a few more, a few hundred kilobytes.
pub const PARSES_KEPT: usize = 32;

/// The parses of the records asked about last, the latest first, found by their state.
#[derive(Debug, Default)]
pub struct ParseCache {
    parses: Mutex<VecDeque<(Arc<RecordState>, Arc<Parsed>)>>,
}

impl ParseCache {
    /// The parse kept for a record's state, which becomes the latest.
    pub fn get(&self, state: &Arc<RecordState>) -> Option<Arc<Parsed>> {
        let mut parses = self.lock();
        let index = parses.iter().position(|(kept, _)| Arc::ptr_eq(kept, state))?;
        let entry = parses.remove(index)?;
        let parsed = entry.1.clone();
        parses.push_front(entry);
        Some(parsed)
    }

    /// Keeps a parse as the latest, forgetting the oldest beyond `PARSES_KEPT`.
    pub fn keep(&self, state: Arc<RecordState>, parsed: Arc<Parsed>) {
        let mut parses = self.lock();
        parses.push_front((state, parsed));
        parses.truncate(PARSES_KEPT);
    }

    /// How many parses are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// A request that panicked holding the lock left a list of whole entries: reading on is
    /// safe.
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<(Arc<RecordState>, Arc<Parsed>)>> {
        self.parses.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
