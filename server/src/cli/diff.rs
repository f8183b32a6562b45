//! `--diff`: a change shown as a unified diff (`similar`, with three lines of context), the
//! file's name in its header, as `ruff --diff` prints it. Record text is made
//! visible first (`terminal::visible`), as in every other message.

use similar::TextDiff;

use super::terminal::visible;

/// The unified diff from `old` to `new` of the file shown as `name`; empty when they are equal.
pub fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::from_lines(old, new);
    let shown = diff.unified_diff().context_radius(3).header(name, name).to_string();
    // Line by line, so that the line ends stay line ends and everything else shows.
    let mut visible_diff = String::with_capacity(shown.len());
    for line in shown.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content, "\n"),
            None => (line, ""),
        };
        visible_diff.push_str(&visible(content));
        visible_diff.push_str(end);
    }
    visible_diff
}
