//! `--diff`: a change shown as a unified diff (`similar`, with three lines of context), the
//! file's name in its header, as `ruff --diff` prints it. The file's name and record text are
//! made visible first (`terminal::visible`), as in every other message: a line end in a name
//! would otherwise split the header. The texts are compared record by record (the formatter and
//! the fixes keep each record's text within its record), so that the time is linear in the
//! file: one diff of a whole 52 MB file took a minute.

use std::fmt::Write as _;

use similar::{group_diff_ops, DiffOp, DiffTag, TextDiff};

use super::parts::record_parts;
use super::terminal::visible;

/// The unified diff from `old` to `new` of the file shown as `name`; empty when they are equal.
/// The same as one diff of the whole texts where records pair, hunks and context across
/// records included: only the search for the changes is done record by record.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let mut ops: Vec<DiffOp> = Vec::new();
    let (mut old_line, mut new_line) = (0, 0);
    for (old_part, new_part) in paired_parts(old, new) {
        if old_part == new_part {
            let len = lines(old_part).len();
            push_op(&mut ops, DiffOp::Equal { old_index: old_line, new_index: new_line, len });
            (old_line, new_line) = (old_line + len, new_line + len);
            continue;
        }
        let diff = TextDiff::from_lines(old_part, new_part);
        for op in diff.ops() {
            push_op(&mut ops, shifted(*op, old_line, new_line));
        }
        old_line += diff.old_slices().len();
        new_line += diff.new_slices().len();
    }
    let (old_lines, new_lines) = (lines(old), lines(new));
    let name = visible(name);
    let mut shown = format!("--- {name}\n+++ {name}\n");
    for group in group_diff_ops(ops, 3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else { continue };
        let old_range = (first.old_range().start, last.old_range().end);
        let new_range = (first.new_range().start, last.new_range().end);
        let _ = writeln!(shown, "@@ -{} +{} @@", Range(old_range), Range(new_range));
        for op in &group {
            let (tag, old_range, new_range) = op.as_tag_tuple();
            if tag == DiffTag::Equal {
                old_lines[old_range].iter().for_each(|line| push_line(&mut shown, ' ', line));
                continue;
            }
            old_lines[old_range].iter().for_each(|line| push_line(&mut shown, '-', line));
            new_lines[new_range].iter().for_each(|line| push_line(&mut shown, '+', line));
        }
    }
    shown
}

/// Adds `op` to `ops`, an unchanged run joined to the one before it, so that the context
/// between two changes is judged by the whole run and not by the records it spans.
fn push_op(ops: &mut Vec<DiffOp>, op: DiffOp) {
    if let (Some(DiffOp::Equal { len, .. }), DiffOp::Equal { len: more, .. }) = (ops.last_mut(), op)
    {
        *len += more;
        return;
    }
    if op.old_range().is_empty() && op.new_range().is_empty() {
        return;
    }
    ops.push(op);
}

/// `op` of a record's diff placed in the whole texts.
fn shifted(op: DiffOp, old_line: usize, new_line: usize) -> DiffOp {
    match op {
        DiffOp::Equal { old_index, new_index, len } => {
            DiffOp::Equal { old_index: old_index + old_line, new_index: new_index + new_line, len }
        }
        DiffOp::Delete { old_index, old_len, new_index } => DiffOp::Delete {
            old_index: old_index + old_line,
            old_len,
            new_index: new_index + new_line,
        },
        DiffOp::Insert { old_index, new_index, new_len } => DiffOp::Insert {
            old_index: old_index + old_line,
            new_index: new_index + new_line,
            new_len,
        },
        DiffOp::Replace { old_index, old_len, new_index, new_len } => DiffOp::Replace {
            old_index: old_index + old_line,
            old_len,
            new_index: new_index + new_line,
            new_len,
        },
    }
}

/// A line of the diff, made visible, with its line end (the text's own `\n`, `\r\n` or `\r`
/// shown as `\n`), and the mark of a last line without one.
fn push_line(shown: &mut String, tag: char, line: &str) {
    shown.push(tag);
    let content = line.trim_end_matches(['\n', '\r']);
    let ended = content.len() < line.len();
    // The line end's own characters (a CR before the LF) stay visible as in the text.
    let end = &line[content.len()..];
    shown.push_str(&visible(content));
    shown.push_str(&visible(end.strip_suffix('\n').unwrap_or(end)));
    shown.push('\n');
    if !ended {
        shown.push_str("\\ No newline at end of file\n");
    }
}

/// A hunk's range of lines, as `diff -u` writes it: `START,LENGTH` from 1, the length left out
/// when it is 1, the line before for an empty range.
struct Range((usize, usize));

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Range((start, end)) = *self;
        match end - start {
            0 => write!(f, "{start},0"),
            1 => write!(f, "{}", start + 1),
            length => write!(f, "{},{length}", start + 1),
        }
    }
}

/// The two texts cut at the starts of their records into parts to compare pairwise: the same
/// number of records pair one for one; otherwise the records equal at both ends pair, and the
/// rest is one part.
fn paired_parts<'a>(old: &'a str, new: &'a str) -> Vec<(&'a str, &'a str)> {
    let (old_parts, new_parts) = (record_parts(old), record_parts(new));
    if old_parts.len() == new_parts.len() {
        return old_parts.into_iter().zip(new_parts).collect();
    }
    let same_start = old_parts.iter().zip(&new_parts).take_while(|(old, new)| old == new).count();
    let most = old_parts.len().min(new_parts.len()) - same_start;
    let same_end = old_parts
        .iter()
        .rev()
        .zip(new_parts.iter().rev())
        .take(most)
        .take_while(|(old, new)| old == new)
        .count();
    let middle = |parts: &[&'a str], text: &'a str| -> &'a str {
        let start: usize = parts[..same_start].iter().map(|part| part.len()).sum();
        let end: usize = parts[parts.len() - same_end..].iter().map(|part| part.len()).sum();
        &text[start..text.len() - end]
    };
    let mut paired: Vec<(&str, &str)> = old_parts[..same_start]
        .iter()
        .copied()
        .zip(new_parts[..same_start].iter().copied())
        .collect();
    paired.push((middle(&old_parts, old), middle(&new_parts, new)));
    paired.extend(
        old_parts[old_parts.len() - same_end..]
            .iter()
            .copied()
            .zip(new_parts[new_parts.len() - same_end..].iter().copied()),
    );
    paired
}

/// The lines of `text` as `similar` reads them: each ends at `\n`, `\r\n` or a lone `\r`,
/// the last one at the end of the text.
fn lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut from = 0;
    for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            continue;
        }
        lines.push(&text[from..=at]);
        from = at + 1;
    }
    if from < text.len() {
        lines.push(&text[from..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Record by record gives what one diff of the whole file gives.
    #[test]
    fn the_diff_by_records_is_the_diff_of_the_whole_file() {
        let record = |moves: &str| format!("[Variant \"C'escacs\"]\n\n1. {moves}\n*\n\n");
        let old: String = (0..20).map(|n| record(&format!("E7-E13 {n}"))).collect();
        let new = old.replace("E7-E13 3\n", "E7-E13  3\n").replace("E7-E13 15", "F8-F12 15");
        for (old, new) in [
            (old.clone(), new.clone()),
            (old.clone(), format!("{new}[Variant \"C'escacs\"]\n1. E7-E13:\n*")),
            (format!("x\r\n{old}y"), format!("x\r\n{new}z")),
        ] {
            let whole = TextDiff::from_lines(&old, &new)
                .unified_diff()
                .context_radius(3)
                .header("a", "a")
                .to_string();
            let whole: String = whole.replace('\r', "␍");
            assert_eq!(unified_diff("a", &old, &new), whole);
        }
    }
}
