//! What the benchmarks share beside the 2,000-record file (`corpus_file` of the test support):
//! the timing of repeated runs.

use std::time::{Duration, Instant};

/// Runs `work` several times and prints the median and the best time with the throughput;
/// returns the median.
pub fn measure(
    label: &str,
    bytes: usize,
    repetitions: usize,
    mut work: impl FnMut() -> usize,
) -> Duration {
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
    median
}
