//! Benchmark of `ctlpgn fmt`'s work on a 2,000-record file made of the corpus games: the
//! whole file already canonical, the same file with every record's layout disturbed, and the
//! minimal edits for the disturbed file. The budget is 100 ms for the whole file.
//! Run with `cargo bench -p ctlpgn-core --bench format`.

use std::time::Duration;

use ctlpgn_core::format::{format_edits, format_text, FormatOptions, Separators};

mod common;

use common::measure;
use ctlpgn_test_support::fixtures::corpus_file;

/// The same records with their layout disturbed: pairs run together, blank lines doubled and the
/// separating spaces gone, so that every record has lines to rewrite.
fn disturbed(file: &str) -> String {
    file.replace(", ", ",").replace("\n\n", "\n\n\n").replace(":\n", " :\n")
}

fn main() {
    let file = corpus_file(2000);
    let messy = disturbed(&file);
    let options = FormatOptions::default();
    let unicode = FormatOptions { separators: Separators::Unicode, ..FormatOptions::default() };
    println!("2,000-record file: {:.2} MB", file.len() as f64 / 1e6);
    let canonical = measure("format_text, canonical file", file.len(), 9, || {
        format_text(&file, &options).len()
    });
    measure("format_text, disturbed file", messy.len(), 9, || format_text(&messy, &options).len());
    measure("format_text, disturbed file, unicode", messy.len(), 9, || {
        format_text(&messy, &unicode).len()
    });
    measure("format_edits, disturbed file", messy.len(), 9, || {
        format_edits(&messy, &options, None).len()
    });
    if canonical > Duration::from_millis(100) {
        println!("over the 100 ms budget");
    }
}
