//! A file's text cut at the start of each record, the parts together the whole text: what
//! `check --fix` fixes and `--diff` compares one at a time, so that the work on a large file
//! grows with its size and not with its square.

use ctlpgn_core::syntax::split_records;

/// The parts of `text`, each record with the blank lines after it, the first with whatever
/// comes before the first record.
pub fn record_parts(text: &str) -> Vec<&str> {
    let mut cuts: Vec<usize> =
        split_records(text).iter().map(|range| range.start).filter(|&start| start > 0).collect();
    cuts.push(text.len());
    let mut from = 0;
    cuts.into_iter()
        .map(|to| {
            let part = &text[from..to];
            from = to;
            part
        })
        .collect()
}
