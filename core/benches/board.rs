//! Benchmark of drawing one board as SVG (what a hover with a picture, the `ctlpgn/board`
//! request and `ctlpgn board` pay): the initial position, the fullest board, with its marks,
//! and a mid-game position of the corpus. Run with `cargo bench -p ctlpgn-core --bench board`.

mod common;

use common::measure;
use ctlpgn_core::analysis::{analyse_file, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::board::{Board, Theme};
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::position::Position;
use ctlpgn_test_support::fixtures::corpus_file;
use std::time::Instant;

/// How many boards one timed run draws, so that a run lasts long enough to time.
const BOARDS_PER_RUN: usize = 1000;

fn main() {
    let ids = IdentifierSet::standard();
    let initial = Position::initial();
    let game = corpus_file(1);
    let records = analyse_file(&game, AnalysisOptions::new(Keep::Everything, RuleChecks::Skip));
    let played: Vec<_> = records[0].analysis.main_line().collect();
    let middle = played[played.len() / 2];

    let start = Instant::now();
    let size = Board::new(&initial, &ids).svg().len();
    println!("first board (cold): {:.3} ms, {size} bytes", start.elapsed().as_secs_f64() * 1e3);

    let cases: [(&str, Board<'_>); 3] = [
        ("initial position", Board::new(&initial, &ids)),
        (
            "mid-game, half-move marked, flipped, dark",
            Board::new(&middle.after, &ids)
                .with_move(middle.effect.origin, middle.effect.destination)
                .flip()
                .with_theme(Theme::Dark),
        ),
        ("text picture, initial position", Board::new(&initial, &ids)),
    ];
    for (index, (label, board)) in cases.iter().enumerate() {
        let text = index == 2;
        let bytes = if text { board.text().len() } else { board.svg().len() };
        let median = measure(
            &format!("{BOARDS_PER_RUN} boards: {label}"),
            bytes * BOARDS_PER_RUN,
            9,
            || {
                (0..BOARDS_PER_RUN)
                    .map(|_| if text { board.text().len() } else { board.svg().len() })
                    .sum()
            },
        );
        println!(
            "  one board: {:.1} µs, {bytes} bytes",
            median.as_secs_f64() * 1e6 / BOARDS_PER_RUN as f64
        );
    }
}
