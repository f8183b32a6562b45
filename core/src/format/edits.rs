//! Minimal edits from an old text to a new one: the two are compared line by line (lines paired
//! where both texts have said the same so far, then Myers' diff), and each run of changed lines
//! becomes one edit, so that an editor keeps its cursor, marks and undo history on every line
//! the formatter left alone, and a range formatting can take the edits of a few lines alone.

use std::ops::Range;

use crate::text::{TextEdit, TextRange};

/// Beyond this many differing lines the diff gives up looking for common lines in between and
/// replaces the whole changed middle: the search costs time and memory in proportion to the
/// square of the differences, and so many changes are a rewrite anyway.
const MOST_DIFFERENCES: usize = 512;

/// A run of old lines and the run of new lines that replaces it, as line indices.
type Runs = (Range<usize>, Range<usize>);

/// The edits turning `old` into `new`, with ranges offset by `base`, in text order.
///
/// The lines are first paired where the two texts say the same ([`in_step_runs`]), so that
/// each edit alone keeps what the record says; past the place where they part (a spelling the
/// options change, which `said_so_far` does not take as one), Myers' diff pairs the rest.
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
    let (in_step, (old_rest, new_rest)) = in_step_runs(&old_lines, &new_lines);
    let in_step = in_step.into_iter().filter_map(|(old_run, new_run)| {
        without_common_ends(&old_lines, &new_lines, old_run, new_run)
    });
    let rest = changed_runs(&old_lines[old_rest..], &new_lines[new_rest..])
        .into_iter()
        .map(|(a, b)| (a.start + old_rest..a.end + old_rest, b.start + new_rest..b.end + new_rest));
    in_step
        .chain(rest)
        .map(|(old_run, new_run)| TextEdit {
            range: TextRange::new(old_starts[old_run.start], old_starts[old_run.end]).shifted(base),
            new_text: new_lines[new_run].concat(),
        })
        .collect()
}

/// A pair of runs without the lines they begin or end with alike, or `None` when they are
/// alike throughout.
fn without_common_ends(
    old: &[&str],
    new: &[&str],
    mut old_run: Range<usize>,
    mut new_run: Range<usize>,
) -> Option<(Range<usize>, Range<usize>)> {
    while !old_run.is_empty() && !new_run.is_empty() && old[old_run.start] == new[new_run.start] {
        old_run.start += 1;
        new_run.start += 1;
    }
    while !old_run.is_empty() && !new_run.is_empty() && old[old_run.end - 1] == new[new_run.end - 1]
    {
        old_run.end -= 1;
        new_run.end -= 1;
    }
    (!old_run.is_empty() || !new_run.is_empty()).then_some((old_run, new_run))
}

/// The lines cut where the old and the new text have said the same so far, as pairs of runs
/// of old and new lines, and the lines (old, new) from which they no longer say the same (the
/// ends when they agree throughout). The formatter only moves text between lines, so a text
/// laid out afresh is a row of such runs, mostly one old line each, and each of them, alone,
/// keeps what the text says: an editor formatting a few lines (range formatting) can take the
/// edits of those lines without the others. A line that says nothing (a blank line added or
/// removed) goes with the line after it.
///
/// Lines are compared on their text without blanks, with the spellings the formatter's options
/// change taken as one (`‐` and `-`, `×` and `*`, `…` and `...`).
fn in_step_runs(old: &[&str], new: &[&str]) -> (Vec<Runs>, (usize, usize)) {
    let (old_said, old_firsts) = said_so_far(old);
    let (new_said, new_firsts) = said_so_far(new);
    let agreeing = old_said.iter().zip(&new_said).take_while(|(a, b)| a == b).count();
    let mut runs = Vec::new();
    let mut from = (0, 0);
    let (mut a, mut b) = (0, 0);
    while a < old_firsts.len() && b < new_firsts.len() {
        let ((old_count, old_line), (new_count, new_line)) = (old_firsts[a], new_firsts[b]);
        match old_count.cmp(&new_count) {
            std::cmp::Ordering::Less => a += 1,
            std::cmp::Ordering::Greater => b += 1,
            std::cmp::Ordering::Equal if old_count > agreeing => break,
            std::cmp::Ordering::Equal => {
                let cut = (old_line, new_line);
                if cut != from {
                    runs.push((from.0..cut.0, from.1..cut.1));
                    from = cut;
                }
                a += 1;
                b += 1;
            }
        }
    }
    let throughout = agreeing == old_said.len() && agreeing == new_said.len();
    if throughout && from != (old.len(), new.len()) {
        runs.push((from.0..old.len(), from.1..new.len()));
        from = (old.len(), new.len());
    }
    (runs, from)
}

/// What lines say, as one stream of characters without blanks and with the formatter's
/// spellings taken as one, and each line boundary where that stream first reaches a length:
/// (characters said before it, the index of the line it starts), the end included.
fn said_so_far(lines: &[&str]) -> (Vec<char>, Vec<(usize, usize)>) {
    let mut said = Vec::new();
    let mut firsts = vec![(0, 0)];
    for (index, line) in lines.iter().enumerate() {
        for character in line.chars().filter(|c| !c.is_whitespace()) {
            match character {
                '\u{2010}' => said.push('-'),
                '\u{D7}' => said.push('*'),
                '\u{2026}' => said.extend(['.'; 3]),
                other => said.push(other),
            }
        }
        if firsts.last().is_some_and(|&(count, _)| count < said.len()) {
            firsts.push((said.len(), index + 1));
        }
    }
    (said, firsts)
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
fn changed_runs(old: &[&str], new: &[&str]) -> Vec<Runs> {
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
    fn a_run_of_lines_laid_out_afresh_is_cut_where_old_and_new_say_the_same() {
        let old = "[White  \"M\"]\n1.E7-E13,E21-E15 2. F8-F12\n\n\n3. E13×F16 :\n*\n";
        let new = "[White \"M\"]\n\n1. E7-E13, E21-E15\n2. F8‐F12\n3. E13*F16:\n*\n";
        let edits = line_edits(old, new, 0);
        let pairs: Vec<(&str, &str)> =
            edits.iter().map(|edit| (&old[edit.range], edit.new_text.as_str())).collect();
        assert_eq!(
            pairs,
            [
                ("[White  \"M\"]\n", "[White \"M\"]\n"),
                ("1.E7-E13,E21-E15 2. F8-F12\n", "\n1. E7-E13, E21-E15\n2. F8‐F12\n"),
                ("\n\n3. E13×F16 :\n", "3. E13*F16:\n"),
            ],
            "a blank line goes with the line after it; `‐` and `-`, `×` and `*` read as one"
        );
        assert_eq!(apply(old, &edits), new);
        // Where the texts part, the rest is one run.
        let edits = line_edits("a  b\nc\nd \n", "a b\nC\nd\n", 0);
        assert_eq!(edits.len(), 2, "{edits:?}");
        assert_eq!(edits[1].new_text, "C\nd\n");
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
