//! A file as a sequence of records, each formatted on its own: records are independent
//! (§2), so whole-file, range and incremental formatting all rest on formatting one record.

use super::layout::{is_formattable, lay_out_record};
use super::options::FormatOptions;
use crate::parallel;
use crate::syntax::{self, Reading, RecordReader};
use crate::text::{TextEdit, TextRange};

/// The line ending a text mostly uses: `\r\n` when more lines end with it than with `\n`.
pub fn dominant_line_ending(text: &str) -> &'static str {
    own_line_ending(text).unwrap_or("\n")
}

/// The line ending a text mostly uses, or `None` when it ends no line.
fn own_line_ending(text: &str) -> Option<&'static str> {
    let line_feeds = text.bytes().filter(|&b| b == b'\n').count();
    let carriage_returns = text.as_bytes().windows(2).filter(|pair| pair == b"\r\n").count();
    if line_feeds == 0 {
        None
    } else if carriage_returns * 2 > line_feeds {
        Some("\r\n")
    } else {
        Some("\n")
    }
}

/// The line ending each span is written in: the one its own text mostly uses, or, for a span
/// ending no line (a last record on one line), the one of the nearest span before it that ends
/// some line (`\n` when none does).
///
/// Per record, not per file: formatting a record writes it in one ending, its own dominant one,
/// so no record's ending changes under formatting (an unformattable record comes back as
/// written), whichever records were formatted before. A whole-file ending would: the first pass
/// over CRLF junk followed by an LF record keeps LF, which then tips the file's count, and the
/// second pass turns it all to CRLF; range formatting then whole-file formatting would differ
/// from whole-file formatting alone for the same reason.
fn span_line_endings(text: &str, spans: &[TextRange]) -> Vec<&'static str> {
    let mut inherited = "\n";
    spans
        .iter()
        .map(|span| {
            if let Some(own) = own_line_ending(&text[*span]) {
                inherited = own;
            }
            inherited
        })
        .collect()
}

/// The spans the formatter rewrites: the records of [`syntax::split_records`], the first one
/// stretched back over the blank lines before it (they go), never over a byte-order mark.
pub(super) fn record_spans(text: &str) -> Vec<TextRange> {
    let mut spans = syntax::split_records(text);
    if let Some(first) = spans.first_mut() {
        first.start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    }
    spans
}

/// A record's span's text in canonical layout: its lines in the given ending, then a blank
/// line unless it is the file's last record. A record that is not formattable (a syntax
/// error, an unclosed comment or variation) comes back exactly as written.
///
/// So does a span holding a U+FEFF past the file's leading byte-order mark (which stays outside
/// every span): the grammar skips it as blank, so the layout, written from the tree, would drop
/// it, and a span made of nothing else (`"\n\u{FEFF}"`) would come back empty: the file
/// emptied by `ctlpgn fmt`.
pub(super) fn format_record(
    reader: &mut RecordReader,
    text: &str,
    span: TextRange,
    is_last: bool,
    line_ending: &str,
    options: &FormatOptions,
) -> String {
    let written = &text[span];
    if written.contains('\u{FEFF}') {
        return written.to_string();
    }
    let record = reader.read(written);
    if !is_formattable(written, &record) {
        reader.recycle(record);
        return written.to_string();
    }
    let mut formatted = lay_out_record(written, &record, options);
    reader.recycle(record);
    if !is_last {
        formatted.push('\n');
    }
    if line_ending != "\n" {
        formatted = formatted.replace('\n', line_ending);
    }
    formatted
}

/// Formats the records whose spans `wanted` selects, in file order, each as the edit of its
/// span;
/// large files are shared out between threads in contiguous chunks, one reader per thread.
/// Records are read as `reading` says, reader-first but for a comparison: the hand-written
/// reader gives the same syntax values as the tree for the well-formed records it accepts, and
/// tree-sitter reads the rest.
pub(super) fn format_records(
    text: &str,
    options: &FormatOptions,
    reading: Reading,
    wanted: impl Fn(TextRange) -> bool,
) -> Vec<TextEdit> {
    let spans = record_spans(text);
    let line_endings = span_line_endings(text, &spans);
    let last = spans.len().saturating_sub(1);
    let chosen: Vec<(usize, TextRange)> =
        spans.into_iter().enumerate().filter(|&(_, span)| wanted(span)).collect();
    let format_chunk = |chunk: &[(usize, TextRange)]| {
        let mut reader = RecordReader::new(reading);
        chunk
            .iter()
            .map(|(index, span)| {
                let formatted = format_record(
                    &mut reader,
                    text,
                    *span,
                    *index == last,
                    line_endings[*index],
                    options,
                );
                TextEdit::replace(*span, formatted)
            })
            .collect::<Vec<_>>()
    };
    parallel::map_chunks(&chosen, format_chunk)
}

#[cfg(test)]
mod tests {
    use super::super::equivalence::compare_files;
    use super::super::{format_text, FormatOptions};
    use crate::text::TextRange;

    #[test]
    fn formatting_keeps_a_byte_order_mark_past_the_start() {
        let record = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n";
        let options = FormatOptions::default();
        for text in [
            "\n\u{FEFF}".to_string(),
            "\u{FEFF}\n".to_string(),
            "\u{FEFF}\n\u{FEFF}".to_string(),
            "\r\u{FEFF}".to_string(),
            "\n\n\u{FEFF}\n".to_string(),
            format!("\n\u{FEFF}\n{record}"),
            format!("{record}\n\u{FEFF}"),
            record.replace("E7-E13,", "E7-E13,\u{FEFF}"),
        ] {
            let formatted = format_text(&text, &options);
            assert!(formatted.contains('\u{FEFF}'), "{text:?} became {formatted:?}");
            assert_eq!(
                formatted.matches('\u{FEFF}').count(),
                text.matches('\u{FEFF}').count(),
                "{text:?} became {formatted:?}"
            );
            assert_eq!(compare_files(&text, &formatted, &options), Ok(()), "{text:?}");
        }
    }

    #[test]
    fn each_record_keeps_its_own_line_ending_so_formatting_is_idempotent_and_composes() {
        let lf_record = "[Variant \"C'escacs\"]\n[Event \"e\"]\n\n1. E7-E13, E21-E15\n*\n";
        let crlf_record = lf_record.replace('\n', "\r\n");
        let crlf_junk =
            "[r\"\"]\r\nE\r\ne \r\n\"\r\n\r\n\r\no\r\n[]\r\n\r\n1\r\n \r\nee]\r\n3\r\nG2G\r\n";
        let options = FormatOptions::default();
        for text in [
            format!("{crlf_junk}{lf_record}"),
            format!("{lf_record}\n{crlf_record}"),
            format!("{crlf_record}\r\n{lf_record}"),
            format!("{crlf_record}\r\n[Variant \"C'escacs\"] 1. E7-E13 *"),
        ] {
            let once = format_text(&text, &options);
            assert_eq!(format_text(&once, &options), once, "{text:?}");
            for (start, _) in text.match_indices('[') {
                let mut ranged = text.clone();
                let edits = super::super::format_edits(
                    &text,
                    &options,
                    Some(TextRange::new(start, start + 1)),
                );
                for edit in edits.iter().rev() {
                    ranged.replace_range(edit.range.to_range(), &edit.new_text);
                }
                assert_eq!(format_text(&ranged, &options), once, "{text:?} from {start}");
            }
        }
        let mixed = format_text(&format!("{lf_record}\n{crlf_record}"), &options);
        assert!(mixed.starts_with("[Variant \"C'escacs\"]\n["), "{mixed:?}");
        assert!(mixed.ends_with("*\r\n"), "{mixed:?}");
    }
}
