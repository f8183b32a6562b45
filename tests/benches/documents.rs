//! The memory the server holds for its documents, in-process, as VS Code opens them (semantic
//! tokens, folds and outline derived at once): 2,000 documents of one game each (the corpus's
//! games in turn) opened and closed again, fourteen times over; then records a program wrote
//! (`knights_out_and_back`), 0.25 and 1 MB on one line, each edited again and again (a space
//! typed between two moves in the middle, then deleted), every edit until its diagnostics are
//! published. Two figures after each step: the live heap (the bytes allocated and not freed,
//! counted by this benchmark's allocator: what the server and this client hold) and the
//! resident set (what the system sees, which also counts the memory the C allocator keeps for
//! later after it is freed, and tree-sitter's, which this allocator does not see). Last, the
//! bytes one record's parse takes on the heap, beside what the parse cache counts for it
//! (`Parsed::estimated_bytes`), which must not be less.
//!
//! `cargo bench -p ctlpgn-tests --bench documents`

// A counting allocator is the only way to read the live heap from inside: it wraps the system
// allocator and adds up what is allocated and freed.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

use ctlpgn_core::analysis::RuleChecks;
use ctlpgn_core::document::{Document, Preparations};

use ctlpgn_test_client::{like_vscode, uri, utf16_client, Client};
use ctlpgn_test_support::fixtures::{knights_out_and_back_of, testdata_files};

/// The system allocator, with the bytes allocated and not yet freed.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's guarantees are the system allocator's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: as above.
        let moved = unsafe { System.realloc(pointer, layout, size) };
        if !moved.is_null() {
            LIVE.fetch_add(size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The resident memory of this process in megabytes (Linux), or 0 where it cannot be read.
fn resident() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kilobytes| kilobytes / 1024.0)
}

fn live() -> f64 {
    LIVE.load(Ordering::Relaxed) as f64 / (1024.0 * 1024.0)
}

/// How many documents are open at once.
const DOCUMENTS: usize = 2000;
/// How many times they are all opened and closed.
const CYCLES: usize = 14;

fn main() {
    let games: Vec<String> = testdata_files("corpus/valid", ".ctl-pgn")
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("readable"))
        .collect();
    // `-- parses` measures the parses alone.
    if std::env::args().any(|argument| argument == "parses") {
        parses(&games);
        return;
    }
    let bytes: usize = (0..DOCUMENTS).map(|index| games[index % games.len()].len()).sum();
    let mut client = Client::start(like_vscode(utf16_client()));
    // The server is started and has answered once: what it holds before any document.
    client.open(&uri("warm-up"), &games[0]);
    client.published(&uri("warm-up"));
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri("warm-up")}}));
    client.published(&uri("warm-up"));
    let (live_before, resident_before) = (live(), resident());
    println!(
        "{DOCUMENTS} documents of one game each, {:.1} MB of text; before: live heap {live_before:.1} MB, resident {resident_before:.1} MB",
        bytes as f64 / 1e6
    );
    for cycle in 1..=CYCLES {
        for index in 0..DOCUMENTS {
            client.open(&uri(&format!("game-{index}")), &games[index % games.len()]);
        }
        for index in 0..DOCUMENTS {
            client.published(&uri(&format!("game-{index}")));
        }
        let (live_open, resident_open) = (live(), resident());
        for index in 0..DOCUMENTS {
            let closed = json!({"textDocument": {"uri": uri(&format!("game-{index}"))}});
            client.notify("textDocument/didClose", closed);
        }
        // Closing clears each document's diagnostics: once the last is cleared, all are closed.
        for index in 0..DOCUMENTS {
            client.published(&uri(&format!("game-{index}")));
        }
        let (live_closed, resident_closed) = (live(), resident());
        println!(
            "cycle {cycle:2}: open: live heap {live_open:6.1} MB, resident {resident_open:6.1} MB; closed: live heap {live_closed:6.1} MB ({:+.1}), resident {resident_closed:6.1} MB ({:+.1})",
            live_closed - live_before,
            resident_closed - resident_before,
        );
    }
    edited(&mut client, "0.25 MB on one line", &knights_out_and_back_of(250_000, true), 100);
    edited(&mut client, "1 MB on one line", &knights_out_and_back_of(1_000_000, true), 20);
    assert!(client.finish(true), "the server shut down cleanly");
    parses(&games);
}

/// The bytes one record's parse takes on the heap, beside what the parse cache counts for it.
fn parses(games: &[String]) {
    let longest = games.iter().max_by_key(|game| game.len()).expect("games");
    for (label, text) in [
        ("the corpus's longest game (its tree, in C's heap, not seen)", longest.clone()),
        ("0.25 MB on one line", knights_out_and_back_of(250_000, true)),
        ("0.25 MB, a move pair per line", knights_out_and_back_of(250_000, false)),
    ] {
        let document = Document::read(&text, 1, RuleChecks::Skip, Preparations::from([]));
        let record = document.records()[0].clone();
        let before = LIVE.load(Ordering::Relaxed);
        let parsed = document.parsed(&record);
        let taken = LIVE.load(Ordering::Relaxed) - before;
        let counted = parsed.estimated_bytes(record.state.text.len());
        println!(
            "{label}: a parse of its {} bytes takes {:.2} MB of heap; the cache counts {:.2} MB",
            text.len(),
            taken as f64 / 1e6,
            counted as f64 / 1e6
        );
    }
}

/// Opens `text` and edits it `edits` times, printing the memory after the opening and after
/// each tenth edit, then closes it.
fn edited(client: &mut Client, label: &str, text: &str, edits: i32) {
    let document = uri(&label.replace([' ', '.'], "-"));
    let before = live();
    client.open(&document, text);
    client.published(&document);
    println!(
        "{label}: open: live heap {:+6.1} MB, resident {:6.1} MB",
        live() - before,
        resident()
    );
    let middle = text.len() / 2;
    let at = middle + text[middle..].find(", ").expect("a move pair in the middle") + 2;
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |newline| newline + 1);
    for edit in 1..=edits {
        let (end, typed) = if edit % 2 == 1 { (column, " ") } else { (column + 1, "") };
        let range = json!({"start": {"line": line, "character": column}, "end": {"line": line, "character": end}});
        let version = edit + 1;
        client.change(&document, version, json!([{"range": range, "text": typed}]));
        client.published_until(&document, version);
        if edit % 10 == 0 {
            println!(
                "{label}: after {edit:3} edits: live heap {:+6.1} MB, resident {:6.1} MB",
                live() - before,
                resident()
            );
        }
    }
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": document}}));
    client.published(&document);
    println!(
        "{label}: closed: live heap {:+6.1} MB, resident {:6.1} MB",
        live() - before,
        resident()
    );
}
