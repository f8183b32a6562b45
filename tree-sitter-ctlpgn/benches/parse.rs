//! Parsing speed of the CTL-PGN grammar (a plain binary, `harness = false`).
//!
//! Builds a 2,000-record file from the valid engine games (`testdata/corpus/
//! valid/*.ctl-pgn`, repeated; records separated by a blank line) and measures:
//! (a) a full parse of the whole file as one tree, in MB/s;
//! (b) a full parse record by record (split at lines starting with `[Variant`), in MB/s;
//! (c) the incremental re-parse of the whole-file tree after inserting one character (a `!`
//!     rating) in a move of the middle record, in ms;
//! (d) the re-parse of the single record that contains the edit, in ms.
//!
//! Run with `cargo bench -p tree-sitter-ctlpgn --bench parse`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;

use common::point_at;
use tree_sitter::{InputEdit, Parser, Tree};

const RECORDS: usize = 2_000;

fn valid_games() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("testdata")
        .join("corpus")
        .join("valid");
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {} (the corpus): {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|ext| ext == "ctl-pgn"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .ctl-pgn file in {}", dir.display());
    paths.iter().map(|p| std::fs::read_to_string(p).expect("a UTF-8 game file")).collect()
}

/// Splits a text into records at the lines that start with `[Variant`.
fn split_records(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Variant") {
            starts.push(offset);
        }
        offset += line.len();
    }
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// The 2,000-record file.
fn build_file() -> String {
    let games = valid_games();
    let records: Vec<String> = games
        .iter()
        .flat_map(|g| split_records(g))
        .map(|r| r.trim_end().to_string())
        .filter(|r| r.starts_with("[Variant"))
        .collect();
    assert!(!records.is_empty(), "the valid games hold no record");
    let mut file = String::new();
    for i in 0..RECORDS {
        if i > 0 {
            file.push_str("\n\n");
        }
        file.push_str(&records[i % records.len()]);
    }
    file.push('\n');
    file
}

/// Inserts `!` after the first move line of `record_text` that ends with a coordinate;
/// returns the byte offset of the insertion inside the record.
fn edit_offset(record_text: &str) -> usize {
    let mut offset = 0;
    for line in record_text.split_inclusive('\n') {
        let content = line.trim_end();
        if content.starts_with(|c: char| c.is_ascii_digit())
            && content.ends_with(|c: char| c.is_ascii_digit())
        {
            return offset + content.len();
        }
        offset += line.len();
    }
    panic!("no move line ending with a coordinate in the record");
}

struct Stats {
    min: Duration,
    median: Duration,
}

/// Runs `f` `reps` times (after one warm-up run) and returns the min and median durations.
fn measure<T>(reps: usize, mut f: impl FnMut() -> T) -> Stats {
    black_box(f());
    let mut times: Vec<Duration> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    Stats { min: times[0], median: times[times.len() / 2] }
}

fn mb_per_s(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn new_parser() -> Parser {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_ctlpgn::LANGUAGE.into()).expect("the CTL-PGN grammar loads");
    parser
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is ignored.
    let file = build_file();
    let records = split_records(&file);
    assert_eq!(records.len(), RECORDS);
    let mut parser = new_parser();

    let whole = parser.parse(&file, None).expect("a tree");
    assert!(!whole.root_node().has_error(), "the benchmark file parses cleanly");
    assert_eq!(whole.root_node().named_child_count(), RECORDS);

    println!("CTL-PGN parse benchmark");
    println!(
        "  input: {RECORDS} records, {} bytes ({:.2} MB), {} lines",
        file.len(),
        file.len() as f64 / 1e6,
        file.lines().count()
    );

    // (a) The whole file as one tree.
    let reps = 15;
    let a = measure(reps, || parser.parse(&file, None).expect("a tree"));
    println!(
        "  (a) full parse, whole file:        min {:8.2} ms  median {:8.2} ms  -> {:6.2} MB/s (median; {:.2} MB/s best)",
        ms(a.min),
        ms(a.median),
        mb_per_s(file.len(), a.median),
        mb_per_s(file.len(), a.min)
    );

    // (b) Record by record.
    let b = measure(reps, || {
        let mut trees = Vec::with_capacity(records.len());
        for record in &records {
            trees.push(parser.parse(record, None).expect("a tree"));
        }
        trees
    });
    println!(
        "  (b) full parse, record by record:  min {:8.2} ms  median {:8.2} ms  -> {:6.2} MB/s (median; {:.2} MB/s best)",
        ms(b.min),
        ms(b.median),
        mb_per_s(file.len(), b.median),
        mb_per_s(file.len(), b.min)
    );

    // The edit: one `!` after a move of the middle record.
    let middle = RECORDS / 2;
    let record_start: usize = records[..middle].iter().map(|r| r.len()).sum();
    let record = records[middle];
    let in_record = edit_offset(record);
    let at = record_start + in_record;
    let mut new_file = String::with_capacity(file.len() + 1);
    new_file.push_str(&file[..at]);
    new_file.push('!');
    new_file.push_str(&file[at..]);
    let edit = InputEdit {
        start_byte: at,
        old_end_byte: at,
        new_end_byte: at + 1,
        start_position: point_at(&file, at),
        old_end_position: point_at(&file, at),
        new_end_position: point_at(&new_file, at + 1),
    };
    let edited_tree = || {
        let mut tree: Tree = whole.clone();
        tree.edit(&edit);
        tree
    };

    // Correctness of the incremental result, outside the timing.
    let incremental = parser.parse(&new_file, Some(&edited_tree())).expect("a tree");
    let fresh = parser.parse(&new_file, None).expect("a tree");
    assert_eq!(incremental.root_node().to_sexp(), fresh.root_node().to_sexp());
    assert!(!fresh.root_node().has_error(), "the edited file parses cleanly");
    let changed: Vec<_> = edited_tree().changed_ranges(&incremental).collect();
    let changed_bytes: usize = changed.iter().map(|r| r.end_byte - r.start_byte).sum();
    let changed = format!("{} changed range(s), {changed_bytes} bytes", changed.len());

    // (c) Incremental re-parse of the whole-file tree (the edit of the old tree is outside
    // the timing; it is a cheap clone plus `Tree::edit`).
    let reps = 200;
    let mut prepared: Vec<Tree> = (0..reps + 1).map(|_| edited_tree()).collect();
    let c = measure(reps, || {
        let old = prepared.pop().expect("a prepared tree");
        parser.parse(&new_file, Some(&old)).expect("a tree")
    });
    println!(
        "  (c) incremental re-parse, whole-file tree, 1 char inserted:  min {:.3} ms  median {:.3} ms  ({changed})",
        ms(c.min),
        ms(c.median)
    );

    // (d) The single record that contains the edit.
    let mut new_record = String::with_capacity(record.len() + 1);
    new_record.push_str(&record[..in_record]);
    new_record.push('!');
    new_record.push_str(&record[in_record..]);
    let d = measure(reps, || parser.parse(&new_record, None).expect("a tree"));
    println!(
        "  (d) fresh parse of the edited record ({} bytes):              min {:.3} ms  median {:.3} ms",
        new_record.len(),
        ms(d.min),
        ms(d.median)
    );
    let record_tree = parser.parse(record, None).expect("a tree");
    let record_edit = InputEdit {
        start_byte: in_record,
        old_end_byte: in_record,
        new_end_byte: in_record + 1,
        start_position: point_at(record, in_record),
        old_end_position: point_at(record, in_record),
        new_end_position: point_at(&new_record, in_record + 1),
    };
    let mut prepared: Vec<Tree> = (0..reps + 1)
        .map(|_| {
            let mut t = record_tree.clone();
            t.edit(&record_edit);
            t
        })
        .collect();
    let d2 = measure(reps, || {
        let old = prepared.pop().expect("a prepared tree");
        parser.parse(&new_record, Some(&old)).expect("a tree")
    });
    println!(
        "      incremental re-parse of that record:                     min {:.3} ms  median {:.3} ms",
        ms(d2.min),
        ms(d2.median)
    );
}
