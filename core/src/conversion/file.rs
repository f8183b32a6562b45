//! Conversions of whole files: the file split into records (handbook §2), each record parsed,
//! analysed and converted on its own. A file converts only when every record does, so that a
//! command never writes half a conversion.

use super::{line_ending, minimal_record, reletter_record, ConversionError, LetterTarget};
use crate::analysis::{self, AnalysisOptions, RecordAnalysis};
use crate::parallel;
use crate::syntax::{self, Reading, RecordReader, RecordSyntax};
use crate::text::{apply_edits, TextEdit, TextRange};

/// One record of a file with its syntax and analysis (ranges relative to the record).
#[derive(Debug)]
pub struct ParsedRecord {
    /// The record's byte range in the file.
    pub range: TextRange,
    pub syntax: RecordSyntax,
    pub analysis: RecordAnalysis,
}

impl ParsedRecord {
    /// The record's text in the file.
    pub fn text<'a>(&self, file: &'a str) -> &'a str {
        &file[self.range]
    }
}

/// A record that did not convert.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFailure {
    /// The record's index in the file, 0 for the first.
    pub index: usize,
    /// The record's byte range in the file.
    pub range: TextRange,
    /// Why it did not convert; its range is relative to the record.
    pub error: ConversionError,
}

impl RecordFailure {
    /// The byte offset in the file of the place the error points at.
    pub fn offset(&self) -> usize {
        self.range.start + self.error.range().start
    }
}

/// Splits a file into records and parses and analyses each one.
pub fn parse_records(text: &str) -> Vec<ParsedRecord> {
    let mut reader = RecordReader::new(Reading::ReaderFirst);
    syntax::split_records(text)
        .into_iter()
        .map(|range| parse_record(&mut reader, text, range))
        .collect()
}

/// Reads and analyses the record at `range` of the file: reader-first, as the hand-written
/// reader gives the tree's syntax values for the well-formed records it accepts.
fn parse_record(reader: &mut RecordReader, text: &str, range: TextRange) -> ParsedRecord {
    let record_text = &text[range];
    let syntax = reader.read(record_text);
    let analysis = analysis::analyse_syntax(record_text, &syntax, AnalysisOptions::default());
    ParsedRecord { range, syntax, analysis }
}

/// The file as minimal CTL-PGN: each record's [`minimal_record`], a blank line between two
/// records. What stands before the first record (blank lines, a byte-order mark) goes.
pub fn minimal_file(text: &str) -> Result<String, Vec<RecordFailure>> {
    let ending = line_ending(text);
    let converted = convert_each(text, |record_text, record| {
        minimal_record(record_text, &record.syntax, &record.analysis)
    })?;
    Ok(converted.into_iter().map(|record| record.new_text).collect::<Vec<_>>().join(ending))
}

/// The file with every record's identifiers rewritten to `target` ([`reletter_record`]);
/// the text between and before records stays as it is.
pub fn reletter_file(text: &str, target: &LetterTarget) -> Result<String, Vec<RecordFailure>> {
    let converted = convert_each(text, |record_text, record| {
        reletter_record(record_text, &record.syntax, &record.analysis, target)
    })?;
    Ok(apply_edits(text, &converted))
}

/// Converts every record, or gives every record that failed. Records are independent, so
/// large files are shared out between threads in contiguous chunks, one reader per thread,
/// and put back in file order.
fn convert_each(
    text: &str,
    convert: impl Fn(&str, &ParsedRecord) -> Result<String, ConversionError> + Sync,
) -> Result<Vec<TextEdit>, Vec<RecordFailure>> {
    let ranges: Vec<(usize, TextRange)> =
        syntax::split_records(text).into_iter().enumerate().collect();
    let convert_chunk = |chunk: &[(usize, TextRange)]| {
        let mut reader = RecordReader::new(Reading::ReaderFirst);
        chunk
            .iter()
            .map(|(index, range)| {
                let record = parse_record(&mut reader, text, *range);
                convert(record.text(text), &record)
                    .map(|output| TextEdit::replace(*range, output))
                    .map_err(|error| RecordFailure { index: *index, range: *range, error })
            })
            .collect::<Vec<_>>()
    };
    let results = parallel::map_chunks(&ranges, convert_chunk);
    let mut converted = Vec::with_capacity(results.len());
    let mut failures = Vec::new();
    for result in results {
        match result {
            Ok(output) => converted.push(output),
            Err(failure) => failures.push(failure),
        }
    }
    if failures.is_empty() {
        Ok(converted)
    } else {
        Err(failures)
    }
}
