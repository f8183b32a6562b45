//! Playing on the board over every record of the handbook's examples and of the diagnostics'
//! example files (`testdata/examples`, `testdata/diagnostics`), broken ones included: at every
//! half-move, and in the tags, every half-move the board lists is one that playing there
//! writes, where it says, and the record written has no error of a code it did not have; in a
//! record without errors, every legal half-move is listed.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use ctlpgn_core::analysis::{analyse_syntax, position_at, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::diagnostics::{Census, Severity};
use ctlpgn_core::document::{Document, RecordView};
use ctlpgn_core::format::FormatOptions;
use ctlpgn_core::ide::play::{play, playable_moves};
use ctlpgn_core::replay::legal_moves;
use ctlpgn_core::syntax::{self, Item, Step};
use ctlpgn_core::text::apply_edits;
use ctlpgn_test_support::fixtures::testdata_files;

/// The places a board is asked about in a record: in its first tag, and at the start of each
/// of its half-moves in every line of play (the end of a half-move stands where its start
/// does, on it).
fn places(view: RecordView<'_>) -> Vec<usize> {
    let mut places = vec![view.start + 1];
    for step in view.syntax.walk(&view.syntax.items) {
        let Step::Item(Item::MoveLine(line), _) = step else { continue };
        places.extend(line.half_moves().map(|half_move| view.start + half_move.range.start));
    }
    places
}

/// The errors of a record's text, counted by code.
fn errors(text: &str) -> Census {
    let record = syntax::parse_record(text);
    let analysis =
        analyse_syntax(text, &record, AnalysisOptions::new(Keep::Findings, RuleChecks::Skip));
    Census::of(analysis.diagnostics.iter().filter(|d| d.severity == Severity::Error))
}

/// What goes wrong playing on the file at `path`, and how many half-moves were played.
fn failures(path: &PathBuf) -> (Vec<String>, usize) {
    let name = path.file_name().expect("a name").to_string_lossy().to_string();
    // S000's example is not UTF-8: no editor opens it.
    let Ok(text) = String::from_utf8(std::fs::read(path).expect("readable")) else {
        return (Vec::new(), 0);
    };
    let options = FormatOptions::default();
    let document = Document::read(&text, 1, RuleChecks::Judge, [].into());
    let (mut failures, mut played) = (Vec::new(), 0);
    for record in document.records() {
        let open = document.view(record);
        let view = open.view();
        let before = errors(view.text);
        for offset in places(view) {
            let Ok(moves) = playable_moves(view, offset, &options) else { continue };
            // In a record without errors every legal half-move is written somewhere.
            if before.errors == 0 {
                let inside = offset - view.start;
                let position = position_at(view.text, view.syntax, view.analysis, inside);
                let legal = position.map_or(0, |position| legal_moves(position).len());
                if moves.len() != legal {
                    failures.push(format!("{name} at {offset}: {} of {legal} listed", moves.len()));
                }
            }
            let mut judged = false;
            for listed in moves {
                let done = match play(view, offset, &listed.text, &options) {
                    Ok(done) => done,
                    Err(refusal) => {
                        failures.push(format!(
                            "{name} at {offset}: {} refused: {refusal}",
                            listed.text
                        ));
                        continue;
                    }
                };
                played += 1;
                if done.edits.is_empty() {
                    // Written there already, as the record spells it.
                    continue;
                }
                let after = apply_edits(&text, &done.edits);
                if after.get(done.range.start..done.range.end) != Some(listed.text.as_str()) {
                    failures.push(format!("{name} at {offset}: {} not at its range", listed.text));
                }
                // An analysis of its own for the first half-move written at each place: the
                // half-moves of a place are placed alike.
                if !judged {
                    judged = true;
                    let added: Vec<_> = errors(&done.record)
                        .codes
                        .into_iter()
                        .filter(|&(code, count)| count > before.count(code))
                        .collect();
                    if !added.is_empty() {
                        failures
                            .push(format!("{name} at {offset}: {} adds {added:?}", listed.text));
                    }
                }
            }
        }
    }
    (failures, played)
}

#[test]
fn every_half_move_the_board_lists_is_played_on_every_example_and_diagnostics_file() {
    let files: Vec<PathBuf> = testdata_files("examples", ".ctl-pgn")
        .into_iter()
        .chain(testdata_files("diagnostics", ".ctl-pgn"))
        .collect();
    // Each half-move played is proven on an analysis of its record: the cores take the
    // files one at a time.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut results = Vec::new();
                    while let Some(path) = files.get(next.fetch_add(1, Ordering::Relaxed)) {
                        results.push(failures(path));
                    }
                    results
                })
            })
            .collect();
        workers.into_iter().flat_map(|worker| worker.join().expect("no panic")).collect()
    });
    let played: usize = results.iter().map(|(_, played)| played).sum();
    let failures: Vec<&String> = results.iter().flat_map(|(failures, _)| failures).collect();
    // The diagnostics' files hold records where nothing can be written; the others are played.
    assert!(played > 10_000, "only {played} half-moves played");
    assert!(
        failures.is_empty(),
        "{} failures:\n{:#?}",
        failures.len(),
        &failures[..failures.len().min(40)]
    );
}
