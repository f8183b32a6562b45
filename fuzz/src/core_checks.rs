//! The checks of `core` mode: one input through everything the command line does with a file,
//! each result held to what the README and the modules promise. The first broken promise is
//! the finding.

use ctlpgn_core::analysis::{
    self, analyse_file, judge_fix, AnalysedRecord, AnalysisOptions, Keep, RuleChecks,
};
use ctlpgn_core::conversion::{self, LetterTarget};
use ctlpgn_core::diagnostics::{Census, Code, Diagnostic, Severity};
use ctlpgn_core::format::{self, EllipsisStyle, FormatOptions, Separators};
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::text::{TextEdit, TextRange};
use ctlpgn_core::{pdtl, syntax};
use ctlpgn_test_support::diagnostics::file_diagnostics;
use ctlpgn_test_support::rng::{hash, Rng};

use crate::finding::{Finding, Skip};

/// The presets of alternative letters the handbook gives as examples.
const PRESETS: [&str; 4] =
    ["A@J, C@N, T@R", "B@J, Q@D, W@V", "L@J, S@N, T@R, W@V", "F@J, C@N, T@R, W@V"];

/// At most this many quick fixes are applied per input (each costs an analysis).
const FIXES_PER_INPUT: usize = 4;

/// Runs every check on `text`; `Ok` holds a summary of what the analysis found (the codes
/// seen), which the fuzzer uses to keep inputs that reach something new.
pub fn check(text: &str, skip: &Skip) -> Result<u64, Finding> {
    let mut rng = Rng::new(hash(text.as_bytes()));
    let judged = analyse_file(text, AnalysisOptions::default());
    let skipped = analyse_file(text, AnalysisOptions::new(Keep::Findings, RuleChecks::Skip));
    check_analyses(text, &judged, &skipped, skip)?;
    if !skip.has("reader") {
        check_reader(text)?;
    }
    if !skip.has("fix") {
        check_fixes(text, &judged, skip)?;
    }
    if !skip.has("format") {
        // One style a input: the default half the time, else a random one.
        let options = if rng.one_in(2) {
            FormatOptions::default()
        } else {
            FormatOptions {
                separators: *rng.pick(&[Separators::Keep, Separators::Unicode, Separators::Ascii]),
                ellipsis: *rng.pick(&[
                    EllipsisStyle::Keep,
                    EllipsisStyle::Unicode,
                    EllipsisStyle::Ascii,
                ]),
            }
        };
        check_format(text, &options, &mut rng, skip)?;
    }
    if !skip.has("convert") {
        check_conversions(text, &judged, &mut rng, skip)?;
    }
    if !skip.has("pdtl") {
        check_positions(text, &mut rng, skip)?;
    }
    let mut codes: Vec<Code> = judged
        .iter()
        .flat_map(|record| record.analysis.diagnostics.iter().chain(&record.analysis.rule_warnings))
        .map(|diagnostic| diagnostic.code)
        .collect();
    codes.sort();
    codes.dedup();
    Ok(hash(format!("{codes:?}").as_bytes()))
}

fn fail(kind: &'static str, message: impl Into<String>) -> Result<(), Finding> {
    Err(Finding { kind, message: message.into() })
}

/// The analysis with the rule checks finds what the one without does, plus rule warnings; every
/// range lies inside its record on character boundaries, and every fix's edits too, disjoint.
fn check_analyses(
    text: &str,
    judged: &[AnalysedRecord],
    skipped: &[AnalysedRecord],
    skip: &Skip,
) -> Result<(), Finding> {
    if judged.len() != skipped.len() {
        return fail("analysis-rules", "the records differ with and without the rule checks");
    }
    for (number, (with, without)) in judged.iter().zip(skipped).enumerate() {
        if !skip.has("analysis-rules") {
            if with.range != without.range
                || with.analysis.diagnostics != without.analysis.diagnostics
            {
                return fail(
                    "analysis-rules",
                    format!("record {}: the diagnostics differ with the rule checks judged:\n{:?}\nvs\n{:?}", number + 1, codes_of(&with.analysis.diagnostics), codes_of(&without.analysis.diagnostics)),
                );
            }
            if !without.analysis.rule_warnings.is_empty() {
                return fail(
                    "analysis-rules",
                    "rule warnings reported with the rule checks skipped",
                );
            }
        }
        if skip.has("analysis-ranges") {
            continue;
        }
        let record = &text[with.range];
        for diagnostic in with.analysis.diagnostics.iter().chain(&with.analysis.rule_warnings) {
            if !on_boundaries(record, diagnostic.range) {
                return fail(
                    "analysis-ranges",
                    format!("record {}: {} has range {:?} in a record of {} bytes, not on character boundaries", number + 1, diagnostic.code, diagnostic.range, record.len()),
                );
            }
            for fix in &diagnostic.fixes {
                let mut ranges: Vec<TextRange> = fix.edits.iter().map(|e| e.range).collect();
                ranges.sort_by_key(|range| range.start);
                let disjoint = ranges.windows(2).all(|pair| pair[0].end <= pair[1].start);
                if !disjoint || !ranges.iter().all(|range| on_boundaries(record, *range)) {
                    return fail(
                        "analysis-ranges",
                        format!("record {}: fix {:?} of {} has edits {ranges:?} that overlap or are off the record's boundaries", number + 1, fix.title, diagnostic.code),
                    );
                }
            }
        }
    }
    Ok(())
}

/// The hand-written reader gives every record the values tree-sitter's tree lowers to, or
/// declines it: the two read white space, control characters and every other character alike.
fn check_reader(text: &str) -> Result<(), Finding> {
    let mut parser = syntax::new_parser();
    for (number, range) in syntax::split_records(text).into_iter().enumerate() {
        let record = &text[range];
        let Some(read) = syntax::read_record(record) else { continue };
        if read != syntax::parse_record_with(&mut parser, record) {
            return fail(
                "reader",
                format!(
                    "record {}: the reader's values differ from the tree's:\n{record:?}",
                    number + 1
                ),
            );
        }
    }
    Ok(())
}

fn codes_of(diagnostics: &[Diagnostic]) -> Vec<(Code, TextRange)> {
    diagnostics.iter().map(|d| (d.code, d.range)).collect()
}

fn on_boundaries(text: &str, range: TextRange) -> bool {
    range.start <= range.end
        && range.end <= text.len()
        && text.is_char_boundary(range.start)
        && text.is_char_boundary(range.end)
}

/// Each quick fix, applied, removes one diagnostic of its code (a renumbering or a result line
/// may clear several) and adds no error, as `tests/tests/fixes.rs` judges them; an error fixed
/// may let the replay go on and find a later one.
fn check_fixes(text: &str, judged: &[AnalysedRecord], skip: &Skip) -> Result<(), Finding> {
    let diagnostics = file_diagnostics(judged);
    // Those past each part's hundred counted too, as the fixed text's census counts them.
    let mut census = Census::default();
    for record in judged {
        census.add(&record.analysis.census());
    }
    for diagnostic in diagnostics.iter().filter(|d| !d.fixes.is_empty()).take(FIXES_PER_INPUT) {
        for fix in &diagnostic.fixes {
            let verdict = judge_fix(text, diagnostic, fix, &census, RuleChecks::Judge);
            let fixed = &fix.applied_to(text);
            if let Some((before, after)) = verdict.keeps_diagnostic {
                if !skip.has("fix-keeps-diagnostic") {
                    return fail(
                        "fix-keeps-diagnostic",
                        format!("a fix of {} leaves the diagnostic\nfix {:?} at {:?} leaves {after} of {before} {}; fixed text:\n{fixed}", diagnostic.code, fix.title, diagnostic.range, diagnostic.code),
                    );
                }
            }
            if let Some((errors, errors_after)) = verdict.adds_errors {
                if !skip.has("fix-adds-error") {
                    return fail(
                        "fix-adds-error",
                        format!("a fix of {} adds errors\nfix {:?} at {:?}: {errors} -> {errors_after} errors; fixed text:\n{fixed}", diagnostic.code, fix.title, diagnostic.range),
                    );
                }
            }
        }
    }
    Ok(())
}

/// Applies disjoint edits in text order.
fn apply_text_edits(text: &str, edits: &[TextEdit]) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for edit in edits {
        if edit.range.start < copied || !on_boundaries(text, edit.range) {
            return Err(format!(
                "edit {:?} overlaps the one before or is off a boundary",
                edit.range
            ));
        }
        out.push_str(&text[copied..edit.range.start]);
        out.push_str(&edit.new_text);
        copied = edit.range.end;
    }
    out.push_str(&text[copied..]);
    Ok(out)
}

/// The formatter is idempotent, keeps what the records say (its own equivalence check), leaves
/// a record that does not parse cleanly byte for byte, and its edits (whole file or a range)
/// lead to the same text.
fn check_format(
    text: &str,
    options: &FormatOptions,
    rng: &mut Rng,
    skip: &Skip,
) -> Result<(), Finding> {
    let once = format::format_text(text, options);
    if !skip.has("format-lossless") {
        let before = syntax::split_records(text);
        let after = syntax::split_records(&once);
        if before.len() != after.len() {
            return fail(
                "format-lossless",
                format!("{options:?}: {} records became {}", before.len(), after.len()),
            );
        }
        let mut parser = syntax::new_parser();
        for (number, (b, a)) in before.iter().zip(&after).enumerate() {
            let record = &text[*b];
            let lowered = syntax::parse_record_with(&mut parser, record);
            if lowered.has_error && record.trim_end() != once[*a].trim_end() {
                return fail(
                    "format-lossless",
                    format!("{options:?}: record {}, which does not parse cleanly, was changed:\n{:?}\nbecame\n{:?}", number + 1, record, &once[*a]),
                );
            }
        }
    }
    if !skip.has("format-idempotent") {
        let twice = format::format_text(&once, options);
        if twice != once {
            return fail(
                "format-idempotent",
                format!(
                    "{options:?}: formatting twice differs from once:\n{once:?}\nthen\n{twice:?}"
                ),
            );
        }
    }
    if !skip.has("format-equivalence") {
        if let Err(message) = format::equivalence::compare_files(text, &once, options) {
            return fail("format-equivalence", format!("{options:?}: {message}:\n{once:?}"));
        }
    }
    if !skip.has("format-edits") {
        let edits = format::format_edits(text, options, None);
        match apply_text_edits(text, &edits) {
            Ok(edited) if edited == once => {}
            Ok(edited) => {
                return fail(
                    "format-edits",
                    format!("{options:?}: the edits give\n{edited:?}\nnot\n{once:?}"),
                )
            }
            Err(message) => return fail("format-edits", format!("{options:?}: {message}")),
        }
        let (a, b) = (crate::mutate::boundary(rng, text), crate::mutate::boundary(rng, text));
        let range = TextRange::new(a.min(b), a.max(b));
        let edits = format::format_edits(text, options, Some(range));
        let lines = format::touched_lines(text, range);
        if let Some(edit) = edits.iter().find(|edit| !lines.contains_range(edit.range)) {
            return fail(
                "format-edits",
                format!(
                    "{options:?}: range {range:?} (lines {lines:?}) answered {edit:?}, outside"
                ),
            );
        }
        match apply_text_edits(text, &edits) {
            Ok(edited) => {
                let rest = format::format_text(&edited, options);
                if rest != once {
                    return fail(
                        "format-edits",
                        format!("{options:?}: formatting the range {range:?} then the whole file gives\n{rest:?}\nnot\n{once:?}"),
                    );
                }
            }
            Err(message) => {
                return fail("format-edits", format!("{options:?}: range {range:?}: {message}"))
            }
        }
    }
    Ok(())
}

/// The first error of a text's analysis, if any.
fn first_error(text: &str) -> Option<String> {
    let options = AnalysisOptions::new(Keep::Findings, RuleChecks::Skip);
    analyse_file(text, options).into_iter().find_map(|record| {
        record.analysis.diagnostics.iter().find(|d| d.severity == Severity::Error).map(|d| {
            format!("{} at {:?}: {}", d.code, d.range.start + record.range.start, d.message)
        })
    })
}

/// Every conversion's output replays without an error; letters → FAN → letters (and → a
/// preset → letters) gives a record in standard letters back byte for byte.
fn check_conversions(
    text: &str,
    judged: &[AnalysedRecord],
    rng: &mut Rng,
    skip: &Skip,
) -> Result<(), Finding> {
    let replays = judged
        .iter()
        .all(|record| record.analysis.diagnostics.iter().all(|d| d.severity != Severity::Error));
    if !replays {
        return Ok(());
    }
    let preset = *rng.pick(&PRESETS);
    let alternative = LetterTarget::redefine(preset).expect("a handbook preset");
    let targets = [
        ("letters", LetterTarget::Standard),
        ("FAN", LetterTarget::Fan),
        ("redefine", alternative.clone()),
    ];
    if !skip.has("convert-output") {
        if let Ok(minimal) = conversion::minimal_file(text) {
            if let Some(error) = first_error(&minimal) {
                return fail(
                    "convert-output",
                    format!("--minimal gives a record with {error}:\n{minimal}"),
                );
            }
        }
        for (name, target) in &targets {
            if let Ok(converted) = conversion::reletter_file(text, target) {
                if let Some(error) = first_error(&converted) {
                    return fail(
                        "convert-output",
                        format!("--{name} gives a record with {error}:\n{converted}"),
                    );
                }
            }
        }
    }
    let standard = !text.contains("Redefine")
        && judged.iter().all(|record| record.analysis.identifiers == IdentifierSet::standard());
    if standard && !skip.has("convert-round-trip") {
        for (name, target) in [("FAN", LetterTarget::Fan), ("redefine", alternative)] {
            let Ok(converted) = conversion::reletter_file(text, &target) else { continue };
            match conversion::reletter_file(&converted, &LetterTarget::Standard) {
                Ok(back) if back == text => {}
                Ok(back) => {
                    return fail(
                        "convert-round-trip",
                        format!(
                            "letters -> {name} -> letters differs:\n{text:?}\nbecame\n{back:?}"
                        ),
                    )
                }
                Err(failures) => {
                    return fail(
                        "convert-round-trip",
                        format!(
                        "letters -> {name} -> letters refused: {}\nthe {name} text:\n{converted}",
                        failures[0].error
                    ),
                    )
                }
            }
        }
    }
    Ok(())
}

/// At a few places of each record: the PDTL printed there reads back without an error, and
/// the continuation record starts from that position and replays.
fn check_positions(text: &str, rng: &mut Rng, skip: &Skip) -> Result<(), Finding> {
    let records = conversion::parse_records(text);
    for record in records.iter().take(3) {
        let record_text = record.text(text);
        for _ in 0..3 {
            let offset = crate::mutate::boundary(rng, record_text);
            let Some(printed) =
                analysis::pdtl_at(record_text, &record.syntax, &record.analysis, offset)
            else {
                continue;
            };
            let reading = pdtl::parse(&printed, &record.analysis.identifiers);
            if let Some(problem) = reading.problems.iter().find(|p| p.severity == Severity::Error) {
                if !skip.has("pdtl-rejected") {
                    return fail(
                        "pdtl-rejected",
                        format!("a printed PDTL reads back with {}\nthe PDTL at offset {offset} of the record at {:?}, {printed:?}: {}", problem.code, record.range, problem.message),
                    );
                }
                continue;
            }
            let replays = record.analysis.diagnostics.iter().all(|d| d.severity != Severity::Error);
            if skip.has("continuation") || !replays {
                continue;
            }
            let Some(continuation) =
                conversion::continuation_at(record_text, &record.syntax, &record.analysis, offset)
            else {
                return fail(
                    "continuation",
                    format!("a PDTL at offset {offset} but no continuation"),
                );
            };
            // The continuation is a whole record, with its result line and no move yet.
            let analysed = analyse_file(
                &continuation,
                AnalysisOptions::new(Keep::Everything, RuleChecks::Skip),
            );
            let [only] = analysed.as_slice() else {
                return fail(
                    "continuation",
                    format!("the continuation is {} records:\n{continuation}", analysed.len()),
                );
            };
            if let Some(error) =
                only.analysis.diagnostics.iter().find(|d| d.severity == Severity::Error)
            {
                return fail(
                    "continuation",
                    format!("the continuation at offset {offset} does not replay: {} {}\n{continuation}", error.code, error.message),
                );
            }
            let start =
                only.analysis.start.as_ref().map(|p| pdtl::print(p, &only.analysis.identifiers));
            if start.as_deref() != Some(printed.as_str()) {
                return fail(
                    "continuation",
                    format!("the continuation at offset {offset} starts from {start:?}, not {printed:?}"),
                );
            }
        }
    }
    Ok(())
}
