//! Nesting costs memory, never stack: records with 100,000 nested variations, 100,000 `(`
//! never closed and 100,000 comments are parsed, lowered, analysed, formatted and converted
//! in threads with a small stack, one record alone and many through the paths that share
//! records out between threads. The code before explicit stacks overflowed at a few hundred
//! levels in these threads (and at about 650 in the 2 MB worker threads of a file's analysis).

use ctlpgn_core::analysis::{self, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::conversion::{minimal_file, reletter_file, LetterTarget};
use ctlpgn_core::diagnostics::Severity;
use ctlpgn_core::format::{self, equivalence, FormatOptions};
use ctlpgn_core::syntax;

/// The stack of the threads these tests run in: the lowering, the walkers and the drops of the
/// old code each used a few hundred bytes to 2 KB per level, so a few hundred levels filled it.
const SMALL_STACK: usize = 256 * 1024;

const DEEP: usize = 100_000;

/// Runs `work` in a thread with [`SMALL_STACK`], where a recursion per level would overflow.
fn in_small_stack<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(work)
        .expect("a thread starts")
        .join()
        .expect("the work does not panic")
}

/// A record whose main line's move 1 has a variation replacing White's half-move, which has
/// one in turn, `depth` levels deep; every tenth variation holds a player comment.
fn nested_record(depth: usize) -> String {
    let mut text = String::from("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n");
    for level in 0..depth {
        text.push_str("(1. K4-K6, E21-E19\n");
        if level % 10 == 0 {
            text.push_str("{@W: #1@W again}\n");
        }
    }
    for _ in 0..depth {
        text.push_str(")\n");
    }
    text.push_str("2. JF6-B18, EE23-D20:\n*\n");
    text
}

/// The errors of every record of a file, as `(record, code)`.
fn errors(records: &[analysis::AnalysedRecord]) -> Vec<(usize, &'static str)> {
    records
        .iter()
        .enumerate()
        .flat_map(|(index, record)| {
            record
                .analysis
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(move |d| (index, d.code.as_str()))
        })
        .collect()
}

#[test]
fn a_record_with_100000_nested_variations_is_analysed_in_a_small_stack() {
    in_small_stack(|| {
        let text = nested_record(DEEP);
        let records =
            analysis::analyse_file(&text, AnalysisOptions::new(Keep::Everything, RuleChecks::Skip));
        assert_eq!(errors(&records), []);
        let analysis = &records[0].analysis;
        // Two half-moves in each variation and four in the main line, all replayed.
        assert_eq!(analysis.played.len(), 2 * DEEP + 4);
        assert_eq!(analysis.played.iter().map(|played| played.depth).max(), Some(DEEP));
    });
}

#[test]
fn a_record_with_100000_nested_variations_lowers_and_drops_as_a_flat_value() {
    in_small_stack(|| {
        let text = nested_record(DEEP);
        let tree = syntax::parse(&mut syntax::new_parser(), &text);
        let record = syntax::lower_record(&tree, &text);
        assert_eq!(record.bodies.len(), DEEP);
        let copy = record.clone();
        assert_eq!(copy, record);
        use std::io::Write;
        write!(std::io::sink(), "{copy:?}").expect("a sink takes everything");
        let deepest = record.walk(&record.items).filter_map(|step| match step {
            syntax::Step::Item(_, depth) => Some(depth),
            syntax::Step::Leave(_) => None,
        });
        assert_eq!(deepest.max(), Some(DEEP));
        drop((copy, record, tree));
    });
}

#[test]
fn a_record_with_100000_nested_variations_is_converted_in_a_small_stack() {
    in_small_stack(|| {
        let text = nested_record(DEEP);
        let minimal = minimal_file(&text).expect("the record converts");
        assert!(!minimal.contains('(') && minimal.contains("2. JF6-B18, EE23-D20:"), "{minimal}");
        let fan = reletter_file(&text, &LetterTarget::Fan).expect("the record converts");
        assert!(fan.contains("[Redefine \"FAN\"]") && fan.len() > text.len());
    });
}

#[test]
fn a_record_with_100000_nested_variations_is_left_as_written_by_the_formatter() {
    in_small_stack(|| {
        // Its canonical layout would carry one dot per level on each line: 5·10^9 dots.
        let text = nested_record(DEEP);
        let options = FormatOptions::default();
        assert_eq!(format::format_text(&text, &options), text);
        assert_eq!(format::format_edits(&text, &options, None), []);
    });
}

#[test]
fn a_record_with_nested_variations_is_laid_out_in_a_small_stack() {
    in_small_stack(|| {
        let depth = format::MAX_LAYOUT_DEPTH;
        let text = nested_record(depth);
        let options = FormatOptions::default();
        let formatted = format::format_text(&text, &options);
        assert_ne!(formatted, text);
        let innermost = format!("\n{}(1. K4-K6, E21-E19)\n", ".".repeat(depth - 1));
        assert!(formatted.contains(&innermost));
        assert_eq!(equivalence::compare_files(&text, &formatted, &options), Ok(()));
        assert_eq!(format::format_text(&formatted, &options), formatted);
    });
}

#[test]
fn many_deeply_nested_records_go_through_the_threads_that_share_a_file_out() {
    in_small_stack(|| {
        // Enough records for every path to share them out between threads (one record alone
        // is done on the calling thread), each deeper than the worker threads' stack allowed.
        let records = 32;
        let text = nested_record(1_000).repeat(records);
        let analysed = analysis::analyse_file_parallel(
            &text,
            AnalysisOptions::new(Keep::Findings, RuleChecks::Judge),
        );
        assert_eq!(analysed.len(), records);
        assert_eq!(errors(&analysed), []);
        let options = FormatOptions::default();
        let formatted = format::format_text(&text, &options);
        assert_eq!(syntax::split_records(&formatted).len(), records);
        assert!(formatted.contains(&format!("\n{}(1. K4-K6, E21-E19)\n", ".".repeat(999))));
        let minimal = minimal_file(&text).expect("every record converts");
        assert_eq!(syntax::split_records(&minimal).len(), records);
        let fan = reletter_file(&text, &LetterTarget::Fan).expect("every record converts");
        assert_eq!(syntax::split_records(&fan).len(), records);
    });
}

#[test]
fn a_record_with_100000_unclosed_variations_is_checked_formatted_and_refused_conversion() {
    in_small_stack(|| {
        let text = format!("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n{}*\n", "(".repeat(DEEP));
        let records = analysis::analyse_file(&text, AnalysisOptions::default());
        assert_eq!(records.len(), 1);
        // Tree-sitter's recovery gives up on so many `(` and reports the record as not read.
        assert!(!errors(&records).is_empty());
        // A record with an unclosed variation is kept as written.
        assert_eq!(format::format_text(&text, &FormatOptions::default()), text);
        assert!(minimal_file(&text).is_err());
        assert!(reletter_file(&text, &LetterTarget::Fan).is_err());
    });
}

#[test]
fn a_record_with_100000_comments_is_checked_formatted_and_converted() {
    in_small_stack(|| {
        let comments = |count: usize| {
            let mut text = String::from("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n");
            for _ in 0..count {
                text.push_str("{ {#1@W ~K6 }\n");
            }
            text.push_str("2. JF6-B18, EE23-D20:\n*\n");
            text
        };
        let text = comments(DEEP);
        let records = analysis::analyse_file(&text, AnalysisOptions::default());
        assert_eq!(errors(&records), []);
        assert_eq!(records[0].analysis.references.len(), DEEP);
        let options = FormatOptions::default();
        let formatted = format::format_text(&text, &options);
        assert_eq!(equivalence::compare_files(&text, &formatted, &options), Ok(()));
        let text = comments(DEEP);
        let fan = reletter_file(&text, &LetterTarget::Fan).expect("the record converts");
        assert!(fan.contains("[Redefine \"FAN\"]") && fan.len() > text.len());
        assert!(!minimal_file(&text).expect("the record converts").contains('{'));
    });
}

#[test]
fn a_line_of_100000_brackets_is_checked_and_formatted_in_time_linear_in_its_length() {
    // The grammar's scanner asked for the column in front of every `[`, which tree-sitter
    // counts from the line's start: 12,800 `[` took 4 s, 100,000 would take minutes.
    in_small_stack(|| {
        for text in
            ["[".repeat(DEEP), format!("[Variant \"C'escacs\"]\n\n{}\n*\n", "[".repeat(DEEP))]
        {
            let started = std::time::Instant::now();
            let records = analysis::analyse_file(
                &text,
                AnalysisOptions::new(Keep::Findings, RuleChecks::Judge),
            );
            assert_eq!(records.len(), 1);
            assert!(!errors(&records).is_empty());
            assert_eq!(format::format_text(&text, &FormatOptions::default()), text);
            // A failure guard only, far above the few hundred milliseconds it takes.
            assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
        }
    });
}

#[test]
fn a_tree_with_100000_nested_parentheses_parses_and_drops_in_a_2_mb_stack() {
    let text = format!("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n{}", "(".repeat(DEEP));
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let mut parser = syntax::new_parser();
            let tree = syntax::parse(&mut parser, &text);
            assert_eq!(tree.root_node().end_byte(), text.len());
            let closed = format!("{text}{}", ")".repeat(DEEP));
            let closed_tree = syntax::parse(&mut parser, &closed);
            drop(tree);
            assert_eq!(closed_tree.root_node().end_byte(), closed.len());
            drop(closed_tree);
        })
        .expect("a thread starts")
        .join()
        .expect("tree-sitter parses and drops a deep tree without recursion");
}
