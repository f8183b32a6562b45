//! Minimal edits from an old text to a new one: the two are compared line by line (Myers'
//! diff), and each run of changed lines becomes one edit, so that an editor keeps its cursor,
//! marks and undo history on every line the formatter left alone.

use std::ops::Range;

use crate::text::{TextEdit, TextRange};

/// Beyond this many differing lines the diff gives up looking for common lines in between and
/// replaces the whole changed middle: the search costs time and memory in proportion to the
/// square of the differences, and so many changes are a rewrite anyway.
const MOST_DIFFERENCES: usize = 512;

/// The edits turning `old` into `new`, with ranges offset by `base`, in text order.
pub(super) fn line_edits(old: &str, new: &str, base: usize) -> Vec<TextEdit> {
    let old_lines = lines_with_ends(old);
    let new_lines = lines_with_ends(new);
    let mut old_starts = Vec::with_capacity(old_lines.len() + 1);
    let mut offset = 0;
    for line in &old_lines {
        old_starts.push(offset);
        offset += line.len();
    }
    old_starts.push(offset);
    changed_runs(&old_lines, &new_lines)
        .into_iter()
        .map(|(old_run, new_run)| TextEdit {
            range: TextRange::new(old_starts[old_run.start], old_starts[old_run.end]).shifted(base),
            new_text: new_lines[new_run].concat(),
        })
        .collect()
}

/// The lines of a text, each with its line end (`\n`, `\r\n` or a lone `\r`).
fn lines_with_ends(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let ends_line = byte == b'\n' || (byte == b'\r' && bytes.get(index + 1) != Some(&b'\n'));
        if ends_line {
            lines.push(&text[start..=index]);
            start = index + 1;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The runs of lines that differ, as (old lines, new lines) index ranges in order.
fn changed_runs(old: &[&str], new: &[&str]) -> Vec<(Range<usize>, Range<usize>)> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let old_middle = &old[prefix..old.len() - suffix];
    let new_middle = &new[prefix..new.len() - suffix];
    if old_middle.is_empty() && new_middle.is_empty() {
        return Vec::new();
    }
    let shift = |(a, b): (Range<usize>, Range<usize>)| {
        (a.start + prefix..a.end + prefix, b.start + prefix..b.end + prefix)
    };
    match common_lines(old_middle, new_middle) {
        Some(common) => runs_between(&common, old_middle.len(), new_middle.len())
            .into_iter()
            .map(shift)
            .collect(),
        None => vec![shift((0..old_middle.len(), 0..new_middle.len()))],
    }
}

/// The gaps between matched lines (pairs of old and new indices, increasing) as runs.
fn runs_between(
    common: &[(usize, usize)],
    old_length: usize,
    new_length: usize,
) -> Vec<(Range<usize>, Range<usize>)> {
    let mut runs = Vec::new();
    let (mut old_at, mut new_at) = (0, 0);
    for &(old_index, new_index) in common.iter().chain(std::iter::once(&(old_length, new_length))) {
        if old_index > old_at || new_index > new_at {
            runs.push((old_at..old_index, new_at..new_index));
        }
        old_at = old_index + 1;
        new_at = new_index + 1;
    }
    runs
}

/// The matched lines of a longest common subsequence, by Myers' greedy algorithm, or `None`
/// past [`MOST_DIFFERENCES`].
fn common_lines(old: &[&str], new: &[&str]) -> Option<Vec<(usize, usize)>> {
    let (n, m) = (old.len() as isize, new.len() as isize);
    let most = (old.len() + new.len()).min(MOST_DIFFERENCES) as isize;
    let offset = most + 1;
    // `furthest[k + offset]`: the furthest old index reached on diagonal k = x − y.
    let mut furthest = vec![0isize; 2 * offset as usize + 1];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    for differences in 0..=most {
        // Only the diagonals −d−1..=d+1 are read back at step d: saving that window rather
        // than the whole frontier keeps the trace's size to the square of the differences.
        let window = (offset - differences - 1) as usize..=(offset + differences + 1) as usize;
        trace.push(furthest[window].to_vec());
        for k in (-differences..=differences).step_by(2) {
            let down = k == -differences
                || (k != differences
                    && furthest[(k - 1 + offset) as usize] < furthest[(k + 1 + offset) as usize]);
            let mut x = if down {
                furthest[(k + 1 + offset) as usize]
            } else {
                furthest[(k - 1 + offset) as usize] + 1
            };
            let mut y = x - k;
            while x < n && y < m && old[x as usize] == new[y as usize] {
                x += 1;
                y += 1;
            }
            furthest[(k + offset) as usize] = x;
            if x >= n && y >= m {
                return Some(backtrack(&trace, old, new, k));
            }
        }
    }
    None
}

/// Walks the saved frontier windows back from the end (on diagonal `k`) and collects the diagonal
/// moves, which are the matched lines.
fn backtrack(
    trace: &[Vec<isize>],
    old: &[&str],
    new: &[&str],
    mut k: isize,
) -> Vec<(usize, usize)> {
    let (mut x, mut y) = (old.len() as isize, new.len() as isize);
    let mut common = Vec::new();
    for (differences, furthest) in trace.iter().enumerate().rev() {
        let differences = differences as isize;
        // Step d's window starts at diagonal −d−1.
        let offset = differences + 1;
        let down = k == -differences
            || (k != differences
                && furthest[(k - 1 + offset) as usize] < furthest[(k + 1 + offset) as usize]);
        let previous_k = if down { k + 1 } else { k - 1 };
        let previous_x =
            if differences == 0 { 0 } else { furthest[(previous_k + offset) as usize] };
        let previous_y = previous_x - previous_k;
        let snake_start_x = if differences == 0 {
            0
        } else if down {
            previous_x
        } else {
            previous_x + 1
        };
        while x > snake_start_x && y > (snake_start_x - k) {
            x -= 1;
            y -= 1;
            common.push((x as usize, y as usize));
        }
        x = previous_x;
        y = previous_y;
        k = previous_k;
    }
    common.reverse();
    common
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{common_lines, line_edits};
    use crate::text::apply_edits as apply;

    /// The length of a longest common subsequence, by the textbook table.
    fn longest_common_length(old: &[&str], new: &[&str]) -> usize {
        let mut table = vec![vec![0; new.len() + 1]; old.len() + 1];
        for i in 0..old.len() {
            for j in 0..new.len() {
                table[i + 1][j + 1] = if old[i] == new[j] {
                    table[i][j] + 1
                } else {
                    table[i][j + 1].max(table[i + 1][j])
                };
            }
        }
        table[old.len()][new.len()]
    }

    proptest! {
        /// Myers' diff keeps a longest run of common lines, as matched pairs that really match
        /// and increase in both texts, and its edits rebuild the new text.
        #[test]
        fn the_diff_keeps_a_longest_common_subsequence(
            old in proptest::collection::vec("[abc]\n", 0..40),
            new in proptest::collection::vec("[abc]\n", 0..40),
        ) {
            let old: Vec<&str> = old.iter().map(String::as_str).collect();
            let new: Vec<&str> = new.iter().map(String::as_str).collect();
            let common = common_lines(&old, &new).expect("within the bound");
            prop_assert_eq!(common.len(), longest_common_length(&old, &new));
            for pair in common.windows(2) {
                prop_assert!(pair[0].0 < pair[1].0 && pair[0].1 < pair[1].1);
            }
            for &(i, j) in &common {
                prop_assert_eq!(old[i], new[j]);
            }
            let (old_text, new_text) = (old.concat(), new.concat());
            prop_assert_eq!(apply(&old_text, &line_edits(&old_text, &new_text, 0)), new_text);
        }
    }

    #[test]
    fn only_changed_lines_are_edited() {
        let old = "a\nb\nc\nd\ne\n";
        let new = "a\nB\nc\nd\nE\nf\n";
        let edits = line_edits(old, new, 0);
        assert_eq!(edits.len(), 2, "{edits:?}");
        assert_eq!(&old[edits[0].range], "b\n");
        assert_eq!(edits[0].new_text, "B\n");
        assert_eq!(&old[edits[1].range], "e\n");
        assert_eq!(edits[1].new_text, "E\nf\n");
        assert_eq!(apply(old, &edits), new);
    }

    #[test]
    fn insertions_deletions_and_line_ends_are_edits() {
        for (old, new) in [
            ("x\ny\n", "x\n\ny\n"),
            ("x\n\n\ny\n", "x\ny\n"),
            ("x\r\ny\r\n", "x\ny\n"),
            ("", "a\n"),
            ("a", "a\n"),
            ("p\nq\nr\ns\n", "s\nr\nq\np\n"),
            ("×\n‐\n…\n", "×\n…\n◇\n"),
        ] {
            assert_eq!(apply(old, &line_edits(old, new, 0)), new, "{old:?} -> {new:?}");
        }
    }
}
