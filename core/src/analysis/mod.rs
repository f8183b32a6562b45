//! Analysis of records: one record's text and tree in, its diagnostics and replayed positions
//! out. Records are independent, so a file's analysis is the list of its records' analyses,
//! and a language server can keep the analysis of every record whose text did not change.

mod check_suffix;
pub mod comments;
mod half_move;
mod layout;
pub(crate) mod line_of_play;
mod movetext;
mod proven_fixes;
mod results;
mod setup;
pub mod tags;

pub use comments::{ReferenceTarget, ResolvedReference};
pub use half_move::nag_symbol;
pub use line_of_play::{
    board_at, history_at, lines_of_play, move_label, pdtl_after_ply, pdtl_at, pdtl_problem,
    position_after_ply, position_at, printed_pdtl, standing_at, BoardAt, History, HistoryMove,
    LineHalfMove, LineItem, NoPdtl, NoPosition, PlayLineOf, Standing,
};
pub use proven_fixes::{census_of_text, judge_fix};
pub use results::RESULTS;

use crate::diagnostics::{Census, Code, Diagnostic, Findings, Pass};
use crate::identifiers::IdentifierSet;
use crate::parallel;
use crate::pieces::Side;
use crate::position::Position;
use crate::replay;
use crate::syntax::{self, node_kind, Item, Reading, RecordReader, RecordSyntax};
use crate::text::TextRange;
use line_of_play::PlayTree;

/// Everything the core knows about one record.
#[derive(Debug)]
pub struct RecordAnalysis {
    /// Findings, sorted by position, with byte ranges in the record's text.
    pub diagnostics: Vec<Diagnostic>,
    /// The warnings of the optional rule checks (§14.4, R-codes), sorted by position: kept
    /// apart because a reader asks for them (`check --rules`, the server's `rules.enable`).
    pub rule_warnings: Vec<Diagnostic>,
    /// The diagnostics past the hundred each part of the record lists, counted by code (each
    /// part's S015 says how many): [`RecordAnalysis::census`] counts them with the others.
    pub left_out: Census,
    /// Every replayed half-move, main line and variations, in text order.
    pub played: Vec<PlayedHalfMove>,
    /// The record's identifier set.
    pub identifiers: IdentifierSet,
    /// Every reference inside a comment that names a move or a variation, with its target.
    pub references: Vec<ResolvedReference>,
    /// The position the record starts from (its `PDTL` tag, or the initial position); `None`
    /// when the position tag could not be read.
    pub start: Option<Position>,
}

impl RecordAnalysis {
    /// How many diagnostics of each code, and errors, the record has: those listed, the rule
    /// warnings, and those counted past each part's hundred. A fix is judged by it: fixing one
    /// of thousands leaves a hundred listed.
    pub fn census(&self) -> Census {
        let mut census = Census::of(self.diagnostics.iter().chain(&self.rule_warnings));
        census.add(&self.left_out);
        census
    }

    /// The diagnostics a check reports, in the text's order: with `rules`, the optional rule
    /// checks' warnings among the findings (`ctlpgn check --rules`, the web's `check`).
    pub fn reported(&self, rules: bool) -> Vec<&Diagnostic> {
        let warnings = if rules { &self.rule_warnings[..] } else { &[] };
        let mut reported: Vec<&Diagnostic> = self.diagnostics.iter().chain(warnings).collect();
        if rules {
            reported.sort_by_key(|diagnostic| (diagnostic.range.start, diagnostic.code));
        }
        reported
    }

    /// The replayed half-moves of the main line, in order.
    pub fn main_line(&self) -> impl Iterator<Item = &PlayedHalfMove> {
        self.played.iter().filter(|half_move| half_move.depth == 0)
    }
}

/// A half-move that was replayed, with the position after it.
#[derive(Clone, Debug)]
pub struct PlayedHalfMove {
    /// The half-move token, from its first character to the end of its annotations.
    pub range: TextRange,
    /// The end of the move and its check suffix (the "move as written" of the replay output).
    pub move_end: usize,
    pub side: Side,
    /// The move number as written.
    pub number: u32,
    /// 0 for the main line, the nesting depth for variations.
    pub depth: usize,
    pub after: Position,
    /// What the half-move did (its `describe()` gives the move in words, for hovers).
    pub effect: replay::MoveEffect,
}

/// Whether an analysis judges the optional rule checks (R-codes). Finding checks and
/// checkmates costs about as much as the replay itself, so an analysis whose warnings will not
/// be shown skips them: `check` without `--rules`, and the language server while its
/// `rules.enable` setting is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleChecks {
    Judge,
    Skip,
}

/// What an analysis keeps of each record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The whole analysis, with the position after every half-move.
    Everything,
    /// The findings alone: all `check` prints. The positions are most of an analysis's
    /// memory (about 40 times the record's text), and are dropped as each record is done.
    Findings,
}

/// What an analysis judges and keeps, and how a file's records are read. The default is the
/// whole analysis: rule checks judged, everything kept, the hand-written reader first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// What is kept of each record: with [`Keep::Findings`], `played` and `references` stay
    /// empty and no position is copied for them.
    pub keep: Keep,
    /// Whether the optional rule checks are judged; with [`RuleChecks::Skip`], `rule_warnings`
    /// stays empty.
    pub rule_checks: RuleChecks,
    /// How a file's records are read into syntax values ([`analyse_file`] and
    /// [`analyse_file_parallel`]; [`analyse_syntax`] is given the syntax).
    pub reading: Reading,
}

impl AnalysisOptions {
    /// The options that keep and judge as said, the hand-written reader first.
    pub const fn new(keep: Keep, rule_checks: RuleChecks) -> AnalysisOptions {
        AnalysisOptions { keep, rule_checks, reading: Reading::ReaderFirst }
    }
}

impl Default for AnalysisOptions {
    fn default() -> AnalysisOptions {
        AnalysisOptions::new(Keep::Everything, RuleChecks::Judge)
    }
}

/// Analyses one record from its syntax values, as `options` say. On a record tree-sitter had
/// to recover, only the quick fixes that prove to help are kept (see `proven_fixes`).
pub fn analyse_syntax(
    text: &str,
    record: &RecordSyntax,
    options: AnalysisOptions,
) -> RecordAnalysis {
    let mut analysis = analyse_unproven(text, record, options);
    if proven_fixes::needs_proof(record) {
        proven_fixes::keep_proven_fixes(text, &mut analysis, options.rule_checks);
    }
    analysis
}

/// The analysis proper, its fixes as computed, unproven (what judging a fix compares).
fn analyse_unproven(text: &str, record: &RecordSyntax, options: AnalysisOptions) -> RecordAnalysis {
    let AnalysisOptions { rule_checks, keep, .. } = options;
    // Each pass keeps at most `MAX_PER_PASS` diagnostics, and counts the others (S015).
    let mut syntax = Findings::new(Pass::Syntax);
    check_tags_are_well_formed(text, &record.items, &mut syntax);
    for (kind, offset) in &record.missing {
        if kind != node_kind::CLOSE_PAREN
            && kind != node_kind::CLOSE_BRACKET
            && kind != node_kind::CLOSE_BRACE
        {
            syntax.push(Diagnostic::new(
                Code::S001,
                TextRange::new(*offset, *offset),
                format!("missing {kind}"),
            ));
        }
    }
    let mut tag_section = Findings::new(Pass::Tags);
    let setup = setup::read_setup(text, &record.items, &mut tag_section);
    tags::check_tags(text, &record.items, &mut tag_section);
    let movetext = &record.items[setup.first_movetext_item..];
    let tree = PlayTree::build(text, record);
    let mut walker = movetext::Walker::new(text, record, &tree, &setup, rule_checks, keep);
    let end = walker.walk_main();
    let result_tag_start = record.items.iter().find_map(|item| match item {
        Item::Tag(tag) if tag.name.text(text) == "Result" => Some(tag.range.start),
        _ => None,
    });
    results::check_results(
        text,
        movetext,
        &end,
        setup.result_tag.as_ref(),
        result_tag_start,
        &mut walker.diagnostics,
    );
    // The layout hints come after the findings of the walk, so that a record's errors are
    // listed before its hints when there are more than a part lists.
    layout::check_layout(text, record, movetext, &mut walker.diagnostics);
    let mut comments = Findings::new(Pass::Comments);
    let mut references =
        comments::check_comments_in(text, record, &tree, &setup.identifiers, &mut comments);
    if keep == Keep::Findings {
        references = Vec::new();
    }
    let mut left_out = Census::default();
    let mut diagnostics = syntax.into_diagnostics(&mut left_out);
    for pass in [tag_section, walker.diagnostics, comments] {
        diagnostics.append(&mut pass.into_diagnostics(&mut left_out));
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.code));
    RecordAnalysis {
        diagnostics,
        rule_warnings: walker.rule_warnings.into_diagnostics(&mut left_out),
        left_out,
        played: walker.played,
        identifiers: setup.identifiers,
        references,
        start: setup.start,
    }
}

/// S002: tag lines the grammar could not read completely.
fn check_tags_are_well_formed(text: &str, items: &[Item], diagnostics: &mut Findings) {
    for item in items {
        if let Item::Tag(tag) = item {
            if tag.malformed || tag.value.is_none() || !tag.range.end.le(&text.len()) {
                diagnostics.push(Diagnostic::new(
                    Code::S002,
                    TextRange::new(tag.range.start, tag.range.start + 1),
                    format!("malformed tag line: write [{} \"value\"]", tag.name.text(text)),
                ));
            }
        }
    }
}

/// A record of a file: its byte range and its analysis (ranges relative to the record).
#[derive(Debug)]
pub struct AnalysedRecord {
    pub range: TextRange,
    pub analysis: RecordAnalysis,
}

/// Analyses every record of a file on this thread.
pub fn analyse_file(text: &str, options: AnalysisOptions) -> Vec<AnalysedRecord> {
    analyse_records(text, &syntax::split_records(text), options)
}

/// Analyses every record of a file using every core: records are independent, so they are
/// shared out in contiguous chunks, one record reader per thread, and put back in file order.
pub fn analyse_file_parallel(text: &str, options: AnalysisOptions) -> Vec<AnalysedRecord> {
    let ranges = syntax::split_records(text);
    parallel::map_chunks(&ranges, |part| analyse_records(text, part, options))
}

/// Analyses the records of a file at `ranges`, with one record reader.
fn analyse_records(
    text: &str,
    ranges: &[TextRange],
    options: AnalysisOptions,
) -> Vec<AnalysedRecord> {
    let mut reader = RecordReader::new(options.reading);
    ranges
        .iter()
        .map(|range| {
            let record_text = &text[*range];
            let syntax = reader.read(record_text);
            let analysis = analyse_syntax(record_text, &syntax, options);
            reader.recycle(syntax);
            AnalysedRecord { range: *range, analysis }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::MAX_PER_PASS;

    /// 0.96 MB of `9.8` made 960,002 diagnostics, a gigabyte of memory and 274 MB of `check`
    /// output: each `89.` is a move number without a move (S011), out of sequence (M001), on a
    /// line with others (M026).
    #[test]
    fn a_record_of_thousands_of_faults_lists_a_hundred_per_part_and_counts_the_rest() {
        let text = "9.8".repeat(10_000);
        let records = analyse_file(&text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
        let diagnostics = &records[0].analysis.diagnostics;
        // The tag section's T001 (no Variant tag), and the movetext's first hundred.
        assert_eq!(diagnostics.len(), 1 + MAX_PER_PASS + 1);
        let notices: Vec<&Diagnostic> =
            diagnostics.iter().filter(|d| d.code == Code::S015).collect();
        assert_eq!(notices.len(), 1);
        // 10,000 S011, 9,999 M001 and M026, M003, M006 and the S001 of the last `8`: 30,001.
        assert!(
            notices[0].message.starts_with(
                "29901 more findings in this record's movetext are not listed, the first here"
            ),
            "{}",
            notices[0].message
        );
        // The first left out is where the hundred listed stop.
        let listed_end = diagnostics.iter().filter(|d| d.code != Code::S015).map(|d| d.range.start);
        assert!(listed_end.max() <= Some(notices[0].range.start));
    }

    #[test]
    fn a_part_with_a_hundred_findings_or_fewer_is_listed_whole() {
        let references = |count: usize| {
            let text = format!(
                "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Demo\"]\n\n1. E7-E13:\n{{@W: {}}}\n*\n",
                "~E8 ".repeat(count)
            );
            let records =
                analyse_file(&text, AnalysisOptions::new(Keep::Findings, RuleChecks::Judge));
            records[0].analysis.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        };
        assert_eq!(references(MAX_PER_PASS), vec![Code::N010; MAX_PER_PASS]);
        let past = references(MAX_PER_PASS + 1);
        assert_eq!(past.len(), MAX_PER_PASS + 1);
        assert_eq!(past.iter().filter(|&&code| code == Code::S015).count(), 1);
    }
}
