//! Benchmark of `ctlpgn fmt`'s work on a 2,000-record file made of the shared corpus games: the
//! whole file already canonical, the same file with every record's layout disturbed, and the
//! minimal edits for the disturbed file. The budget is 100 ms for the whole file.
//! Run with `cargo bench -p ctlpgn --bench format`.

use std::time::{Duration, Instant};

use ctlpgn::format::{format_edits, format_text, FormatOptions, Separators};

mod common;

use common::corpus_file;

/// The same records with their layout disturbed: pairs run together, blank lines doubled and the
/// separating spaces gone, so that every record has lines to rewrite.
fn disturbed(file: &str) -> String {
    file.replace(", ", ",").replace("\n\n", "\n\n\n").replace(":\n", " :\n")
}

fn measure(label: &str, bytes: usize, repetitions: usize, mut work: impl FnMut() -> usize) -> Duration {
    let mut times: Vec<Duration> = (0..repetitions)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(work());
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let rate = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{label:<44} median {:>8.2} ms ({:>6.1} MB/s)   best {:>8.2} ms",
        median.as_secs_f64() * 1e3,
        rate(median),
        times[0].as_secs_f64() * 1e3
    );
    median
}

fn main() {
    let file = corpus_file(2000);
    let messy = disturbed(&file);
    let options = FormatOptions::default();
    let unicode = FormatOptions { separators: Separators::Unicode, ..FormatOptions::default() };
    println!("2,000-record file: {:.2} MB", file.len() as f64 / 1e6);
    let canonical = measure("format_text, canonical file", file.len(), 9, || format_text(&file, &options).len());
    measure("format_text, disturbed file", messy.len(), 9, || format_text(&messy, &options).len());
    measure("format_text, disturbed file, unicode", messy.len(), 9, || format_text(&messy, &unicode).len());
    measure("format_edits, disturbed file", messy.len(), 9, || format_edits(&messy, &options, None).len());
    if canonical > Duration::from_millis(100) {
        println!("over the 100 ms budget");
    }
}
