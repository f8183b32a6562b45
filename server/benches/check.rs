//! Benchmark of `ctlpgn check`'s work on a 2,000-record file made of the shared corpus games:
//! split, parse, replay and every diagnostic, on one core and on all cores, and peak memory.
//! Run with `cargo bench -p ctlpgn --bench check`.

use std::time::{Duration, Instant};

mod common;

use common::corpus_file;

fn measure(label: &str, bytes: usize, repetitions: usize, mut work: impl FnMut() -> usize) {
    let mut times: Vec<Duration> = (0..repetitions)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(work());
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let best = times[0];
    let rate = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e6;
    println!(
        "{label:<44} median {:>8.2} ms ({:>6.1} MB/s)   best {:>8.2} ms ({:>6.1} MB/s)",
        median.as_secs_f64() * 1e3,
        rate(median),
        best.as_secs_f64() * 1e3,
        rate(best)
    );
}

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let file = corpus_file(2000);
    let bytes = file.len();
    println!("2,000-record file: {:.2} MB, {} cores available", bytes as f64 / 1e6, std::thread::available_parallelism().map_or(1, usize::from));
    let before = peak_memory_kib();
    measure("check, one core (parse + replay + diagnostics)", bytes, 7, || {
        ctlpgn::analysis::analyse_file(&file).len()
    });
    measure("check, all cores", bytes, 7, || ctlpgn::analysis::analyse_file_parallel(&file).len());
    if let (Some(before), Some(after)) = (before, peak_memory_kib()) {
        println!(
            "peak resident memory of check: {:.1} MiB (before: {:.1} MiB; file {:.1} MiB)",
            after as f64 / 1024.0,
            before as f64 / 1024.0,
            bytes as f64 / 1048576.0
        );
    }
    let mut parser = ctlpgn::syntax::new_parser();
    let ranges = ctlpgn::syntax::split_records(&file);
    measure("parse only, record by record, one core", bytes, 7, || {
        ranges.iter().map(|r| ctlpgn::syntax::parse(&mut parser, &file[r.clone()]).root_node().child_count()).sum()
    });
    let trees: Vec<_> = ranges.iter().map(|r| ctlpgn::syntax::parse(&mut parser, &file[r.clone()])).collect();
    measure("analysis of parsed trees only, one core", bytes, 7, || {
        ranges.iter().zip(&trees).map(|(r, t)| ctlpgn::analysis::analyse_tree(&file[r.clone()], t).played.len()).sum()
    });
}
