//! Benchmark of `ctlpgn check`'s work on a 2,000-record file made of the corpus games:
//! split, read (the hand-written reader, tree-sitter for what it declines), replay and every
//! diagnostic, on one core and on all cores, and peak memory; the parts apart.
//! Run with `cargo bench -p ctlpgn-core --bench check`.

mod common;

use common::measure;
use ctlpgn_core::analysis::{AnalysisOptions, Keep, RuleChecks};
use ctlpgn_test_support::fixtures::corpus_file;

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let file = corpus_file(2000);
    let bytes = file.len();
    println!(
        "2,000-record file: {:.2} MB, {} cores available",
        bytes as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    let before = peak_memory_kib();
    // What `check` and `check --rules` ask of the analysis.
    let check = AnalysisOptions::new(Keep::Findings, RuleChecks::Skip);
    let check_rules = AnalysisOptions::new(Keep::Findings, RuleChecks::Judge);
    measure("check, one core (parse + replay + diagnostics)", bytes, 7, || {
        ctlpgn_core::analysis::analyse_file(&file, check).len()
    });
    measure("check, all cores", bytes, 7, || {
        ctlpgn_core::analysis::analyse_file_parallel(&file, check).len()
    });
    measure("check, one core, tree-sitter alone (CTLPGN_READER)", bytes, 7, || {
        let reading = ctlpgn_core::syntax::Reading::TreeSitter;
        ctlpgn_core::analysis::analyse_file(&file, AnalysisOptions { reading, ..check }).len()
    });
    measure("check --rules, one core", bytes, 7, || {
        ctlpgn_core::analysis::analyse_file(&file, check_rules).len()
    });
    measure("check --rules, all cores", bytes, 7, || {
        ctlpgn_core::analysis::analyse_file_parallel(&file, check_rules).len()
    });
    if let (Some(before), Some(after)) = (before, peak_memory_kib()) {
        println!(
            "peak resident memory of check: {:.1} MiB (before: {:.1} MiB; file {:.1} MiB)",
            after as f64 / 1024.0,
            before as f64 / 1024.0,
            bytes as f64 / 1048576.0
        );
    }
    let mut parser = ctlpgn_core::syntax::new_parser();
    let ranges = ctlpgn_core::syntax::split_records(&file);
    let accepted =
        ranges.iter().filter(|r| ctlpgn_core::syntax::read_record(&file[**r]).is_some()).count();
    println!("records the hand-written reader accepts: {accepted} of {}", ranges.len());
    measure("hand-written reader only, one core", bytes, 7, || {
        ranges
            .iter()
            .filter_map(|r| ctlpgn_core::syntax::read_record(&file[*r]))
            .map(|record| record.items.len())
            .sum()
    });
    measure("parse only, record by record, one core", bytes, 7, || {
        ranges
            .iter()
            .map(|r| {
                ctlpgn_core::syntax::parse(&mut parser, &file[*r]).root_node().child_count()
                    as usize
            })
            .sum()
    });
    let trees: Vec<_> =
        ranges.iter().map(|r| ctlpgn_core::syntax::parse(&mut parser, &file[*r])).collect();
    measure("analysis of parsed trees only, one core", bytes, 7, || {
        ranges
            .iter()
            .zip(&trees)
            .map(|(r, t)| {
                let options = AnalysisOptions::new(Keep::Everything, RuleChecks::Skip);
                ctlpgn_core::analysis::analyse_syntax(
                    &file[*r],
                    &ctlpgn_core::syntax::lower_record(t, &file[*r]),
                    options,
                )
                .played
                .len()
            })
            .sum()
    });
}
