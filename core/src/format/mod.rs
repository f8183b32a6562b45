//! The formatter (handbook §7, §10-§12 layout): lossless, idempotent export layout of records, as minimal edits.
//!
//! Each record is parsed on its own and written back from its lowered syntax: tag lines one per
//! line, a blank line, one move pair per line, comments and variations on their own lines
//! indented with one dot per nesting level, the result line, the final comments, and a blank
//! line before the next record. Only layout and the spelling the options name change; every
//! token keeps its text, so the formatted file reads as the same records ([`equivalence`]
//! states this as a check). A record whose tree holds an error is left exactly as written.

mod edits;
pub mod equivalence;
mod layout;
mod moves;
mod options;
mod piecewise;
mod records;

use crate::syntax::Reading;
use crate::text::{apply_edits, TextEdit, TextRange};

pub use layout::MAX_LAYOUT_DEPTH;
pub use options::{EllipsisStyle, FormatOptions, Separators};
pub use piecewise::touched_lines;
pub use records::dominant_line_ending;

/// The whole file in canonical layout, each record in its own dominant line ending (see
/// `records::span_line_endings`).
pub fn format_text(text: &str, options: &FormatOptions) -> String {
    format_text_with(text, options, Reading::ReaderFirst)
}

/// [`format_text`] with the records read as `reading` says (`CTLPGN_READER=tree-sitter` on
/// the command line): both readings give the same syntax, and so the same output.
pub fn format_text_with(text: &str, options: &FormatOptions, reading: Reading) -> String {
    apply_edits(text, &records::format_records(text, options, reading, |_| true))
}

/// The edits that turn `text` into [`format_text`]'s output, in text order and disjoint, each
/// covering only a run of changed lines.
///
/// With a byte `range`, only what lies within the whole lines the range touches
/// ([`touched_lines`]) is formatted: the records those lines meet are laid out, and of their
/// edits only those inside the lines are kept, when they keep the record equivalent on their
/// own ([`equivalence`]); a record that cannot be formatted piecewise there gets no edit.
pub fn format_edits(
    text: &str,
    options: &FormatOptions,
    range: Option<TextRange>,
) -> Vec<TextEdit> {
    let lines = range.map(|range| piecewise::touched_lines(text, range));
    let touched = |span: TextRange| match lines {
        None => true,
        Some(lines) if lines.is_empty() => {
            span.contains(lines.start) || (lines.start == span.end && span.end == text.len())
        }
        Some(lines) => span.overlaps(lines),
    };
    let formatted = records::format_records(text, options, Reading::ReaderFirst, touched);
    // The line diffs are per record too, so they are shared out between cores the same way.
    crate::parallel::map_chunks(&formatted, |chunk| {
        chunk
            .iter()
            .filter(|record| text[record.range] != record.new_text)
            .flat_map(|record| {
                let edits =
                    edits::line_edits(&text[record.range], &record.new_text, record.range.start);
                match lines {
                    None => edits,
                    Some(lines) => {
                        piecewise::kept_within(text, record.range, edits, lines, options)
                    }
                }
            })
            .collect()
    })
}
