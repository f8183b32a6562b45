//! What the benchmarks share: the 2,000-record file made of the corpus games, and the
//! timing of repeated runs.

use std::time::{Duration, Instant};

/// The valid games of the corpus, repeated until there are `records` of them, one blank
/// line between records.
pub fn corpus_file(records: usize) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus/valid");
    let mut games: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the corpus is needed at {}: {e}", dir.display()))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "ctl-pgn"))
        .collect();
    games.sort();
    let texts: Vec<String> =
        games.iter().map(|path| std::fs::read_to_string(path).expect("readable")).collect();
    let mut file = String::new();
    for i in 0..records {
        file.push_str(&texts[i % texts.len()]);
        file.push('\n');
    }
    file
}

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
