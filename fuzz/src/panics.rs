//! Panics anywhere in the process (the fuzzer's thread, the language server's tasks and
//! blocking threads, whose panics the server may swallow) are counted and their message
//! kept, so that each one becomes a finding.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

static COUNT: AtomicU64 = AtomicU64::new(0);
static LAST: Mutex<String> = Mutex::new(String::new());

/// Replaces the default hook (which prints) with one that records.
pub fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place =
            info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        let thread = std::thread::current().name().unwrap_or("unnamed").to_string();
        if let Ok(mut last) = LAST.lock() {
            *last = format!("panicked at {place} (thread {thread}): {message}");
        }
        COUNT.fetch_add(1, Ordering::SeqCst);
    }));
}

/// How many panics happened so far.
pub fn count() -> u64 {
    COUNT.load(Ordering::SeqCst)
}

/// The last panic's place and message.
pub fn last() -> String {
    LAST.lock().map(|last| last.clone()).unwrap_or_default()
}
