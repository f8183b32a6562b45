//! Tests of the board drawings on positions the corpus games reach: the SVG is well-formed
//! XML, has the 169 hexes in their colours, gives back the position and the marks from its
//! attributes (read back by `ctlpgn_test_support::svg`, as the protocol tests do), turns half
//! a turn when flipped and stays under 40 KB; snapshots of a few boards (`cargo insta review`
//! shows a changed one).
//!
//! The games are embedded with `include_str!`, as in the replay's corpus tests, because the
//! core does no IO, not even in its tests.

use super::{Board, Marks, Theme};
use crate::analysis::{analyse_file, AnalysisOptions, Keep, RuleChecks};
use crate::geometry::{Hex, ALL_HEXES};
use crate::identifiers::IdentifierSet;
use crate::position::Position;
use ctlpgn_test_support::svg::{by_attribute, hex_places, hexes, pieces_drawn};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use crate::test_corpus::GAMES;

/// A position a corpus game reaches, with the half-move that led to it.
#[derive(Clone, Debug)]
struct Reached {
    position: Position,
    last_move: Option<(Hex, Hex)>,
}

/// Every game replayed: for each, the position before the first half-move and after each
/// main-line half-move.
fn replayed() -> &'static Vec<Vec<Reached>> {
    static GAMES_REPLAYED: OnceLock<Vec<Vec<Reached>>> = OnceLock::new();
    GAMES_REPLAYED.get_or_init(|| {
        GAMES
            .iter()
            .map(|text| {
                let records =
                    analyse_file(text, AnalysisOptions::new(Keep::Everything, RuleChecks::Skip));
                let analysis = &records[0].analysis;
                let start = Reached {
                    position: analysis.start.clone().expect("a corpus game starts"),
                    last_move: None,
                };
                let plies = analysis.main_line().map(|played| Reached {
                    position: played.after.clone(),
                    last_move: Some((played.effect.origin, played.effect.destination)),
                });
                std::iter::once(start).chain(plies).collect()
            })
            .collect()
    })
}

/// The board of a reached position, its half-move marked.
fn board<'a>(reached: &'a Reached, ids: &'a IdentifierSet) -> Board<'a> {
    let board = Board::new(&reached.position, ids);
    match reached.last_move {
        Some((origin, destination)) => board.with_move(origin, destination),
        None => board,
    }
}

/// The position after `ply` main-line half-moves of game `number` (1-based, as in the file
/// names).
fn reached(number: usize, ply: usize) -> &'static Reached {
    &replayed()[number - 1][ply]
}

/// The pieces of a position, as [`pieces_drawn`] gives them. The support crate's `pieces_of`
/// takes the library's `Position` as the support crate sees it, another type than this one.
fn pieces_of(position: &Position) -> BTreeSet<(String, String, String)> {
    position
        .pieces()
        .map(|(hex, piece)| {
            (
                hex.to_string(),
                piece.side.letter().to_string(),
                piece.kind.standard_letter().to_string(),
            )
        })
        .collect()
}

/// The largest size a board may have.
const MAX_BYTES: usize = 40 * 1024;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any board of any reached position, either way up, in either theme: well-formed, 169
    /// hexes each once in the colour of its line, the position's pieces and nothing else, the
    /// marks the position and its half-move call for, and under 40 KB.
    #[test]
    fn a_board_shows_its_position_and_marks(game in 0usize..40, fraction in 0.0f64..=1.0, flipped: bool, dark: bool) {
        let plies = &replayed()[game];
        let reached = &plies[((plies.len() - 1) as f64 * fraction) as usize];
        let ids = IdentifierSet::standard();
        let mut board = board(reached, &ids).with_theme(if dark { Theme::Dark } else { Theme::Light });
        if flipped {
            board = board.flip();
        }
        let svg = board.svg();
        prop_assert!(svg.len() <= MAX_BYTES, "{} bytes", svg.len());
        let hexes = hexes(&svg);
        prop_assert_eq!(hexes.len(), 169);
        let expected: Vec<(String, String)> =
            ALL_HEXES.iter().map(|hex| (hex.to_string(), format!("hex {}", hex.colour().name()))).collect();
        prop_assert_eq!(hexes, expected);
        prop_assert_eq!(pieces_drawn(&svg), pieces_of(&reached.position));

        let marks = by_attribute(&svg, "data-mark", "data-hex");
        let expected = Marks::of_position(&reached.position);
        let mut wanted: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if let Some((origin, destination)) = reached.last_move {
            wanted.insert("origin".into(), vec![origin.to_string()]);
            wanted.insert("destination".into(), vec![destination.to_string()]);
        }
        if let Some(king) = expected.check {
            wanted.insert("check".into(), vec![king.to_string()]);
        }
        if !expected.en_passant.is_empty() {
            wanted.insert("en-passant".into(), expected.en_passant.iter().map(Hex::to_string).collect());
        }
        if let Some(pawn) = expected.scornful {
            wanted.insert("scornful".into(), vec![pawn.to_string()]);
        }
        prop_assert_eq!(marks, wanted);
    }

    /// Flipping turns every hex half a turn about F14, and flipping twice gives back the
    /// upright board byte for byte.
    #[test]
    fn flipping_is_a_half_turn_and_twice_is_the_identity(game in 0usize..40, fraction in 0.0f64..=1.0) {
        let plies = &replayed()[game];
        let reached = &plies[((plies.len() - 1) as f64 * fraction) as usize];
        let ids = IdentifierSet::standard();
        let upright = board(reached, &ids);
        let upright_svg = upright.svg();
        let flipped_svg = upright.clone().flip().svg();
        prop_assert_ne!(&upright_svg, &flipped_svg);
        prop_assert_eq!(upright.clone().flip().flip().svg(), upright_svg.clone());
        let (before, after) = (hex_places(&upright_svg), hex_places(&flipped_svg));
        let (cx, cy) = before["F14"];
        prop_assert_eq!(before.len(), 169);
        for (hex, (x, y)) in &before {
            prop_assert_eq!(after[hex], (2 * cx - x, 2 * cy - y), "{}", hex);
        }
        prop_assert_eq!(pieces_drawn(&flipped_svg), pieces_of(&reached.position));
    }
}

#[test]
fn no_board_of_the_corpus_reaches_40_kb() {
    let ids = IdentifierSet::standard();
    let mut largest = (0, String::new());
    for (game, plies) in replayed().iter().enumerate() {
        for (ply, reached) in plies.iter().enumerate() {
            for flipped in [false, true] {
                let mut board = board(reached, &ids).with_theme(Theme::Dark);
                board.flipped = flipped;
                let size = board.svg().len();
                if size > largest.0 {
                    largest = (size, format!("game {} ply {ply}", game + 1));
                }
            }
        }
    }
    // The most pieces a board can hold is the initial 54, so the initial position with every
    // kind of mark bounds every board.
    let initial = Position::initial();
    let mut every_mark = Board::new(&initial, &ids).with_move(hex("E7"), hex("E13"));
    every_mark.marks.check = Some(hex("G1"));
    every_mark.marks.en_passant = vec![hex("E9"), hex("E11")];
    every_mark.marks.scornful = Some(hex("F14"));
    let bound = every_mark.svg().len();
    assert!(largest.0 <= bound, "{largest:?} is larger than the initial position ({bound} bytes)");
    assert!(bound <= MAX_BYTES, "the initial position with every mark takes {bound} bytes");
    // About 24 KB is the design (see `svg`): a board growing towards the limit means a
    // change of drawing that should be looked at, long before the limit fails.
    assert!(bound <= 26 * 1024, "{bound} bytes");
}

fn hex(name: &str) -> Hex {
    crate::geometry::parse_coordinate(name).expect("a hex")
}

#[test]
fn pieces_show_the_records_letters_and_standard_letters_under_fan() {
    let initial = Position::initial();
    let redefined = IdentifierSet::from_redefine("A@J, C@N, T@R").expect("a Redefine value");
    let svg = Board::new(&initial, &redefined).svg();
    assert!(svg.contains("<g id=\"ctlpgn-wJA\" class=\"ctlpgn-piece white\"><circle r=\"10.5\"/><text dy=\".36em\" font-size=\"13px\">A</text></g>"));
    assert!(svg.contains(">T</text>") && svg.contains(">C</text>") && !svg.contains(">J</text>"));
    assert_eq!(pieces_drawn(&svg), pieces_of(&initial));
    let fan = Board::new(&initial, &IdentifierSet::fan()).svg();
    assert!(fan.is_ascii(), "a FAN record's board needs no figurine font");
    assert!(fan.contains(">J</text>") && fan.contains(">V</text>"));
}

#[test]
fn marks_of_a_position_are_its_check_and_special_capture() {
    // C9-C5+^ in game 3 checks the King from close by and opens an en passant capture on C7.
    let check = reached(3, 74);
    let marks = Marks::of_position(&check.position);
    assert_eq!(marks.check.map(|hex| hex.to_string()), Some("D2".to_string()));
    assert_eq!(marks.en_passant, vec![hex("C7")]);
    assert_eq!(marks.scornful, None);
    // E9-D10 in game 1 is a scornful move.
    let scornful = Marks::of_position(&reached(1, 31).position);
    assert_eq!((scornful.check, scornful.scornful), (None, Some(hex("D10"))));
    assert_eq!(Marks::of_position(&Position::initial()), Marks::default());
}

#[test]
fn themes_are_named_and_set_the_default_colours() {
    for theme in Theme::ALL {
        assert_eq!(Theme::from_name(theme.name()), Some(theme));
    }
    let initial = Position::initial();
    let ids = IdentifierSet::standard();
    let light = Board::new(&initial, &ids).svg();
    let dark = Board::new(&initial, &ids).with_theme(Theme::Dark).svg();
    assert!(light.contains("var(--ctlpgn-hex-white,#f4ead5)"));
    assert!(dark.contains("var(--ctlpgn-hex-white,#a59d8c)"));
    for (theme, svg) in [(Theme::Light, &light), (Theme::Dark, &dark)] {
        for (name, colour) in theme.palette() {
            let property = format!("var(--ctlpgn-{name},{colour})");
            assert!(svg.contains(&property), "{} lacks {property}", theme.name());
        }
    }
    assert!(dark.contains("data-theme=\"dark\""));
}

#[test]
fn the_text_board_brackets_the_half_move_and_turns_with_the_board() {
    let ids = IdentifierSet::standard();
    let check = reached(3, 74);
    insta::assert_snapshot!("text_after_a_check", board(check, &ids).text());
    insta::assert_snapshot!("text_flipped", board(check, &ids).flip().text());
}

#[test]
fn svg_of_the_initial_position() {
    let initial = Position::initial();
    insta::assert_snapshot!("svg_initial", Board::new(&initial, &IdentifierSet::standard()).svg());
}

#[test]
fn svg_after_a_check_with_en_passant() {
    let ids = IdentifierSet::standard();
    insta::assert_snapshot!("svg_check_en_passant", board(reached(3, 74), &ids).svg());
}

#[test]
fn svg_flipped_dark_after_a_scornful_move() {
    let ids = IdentifierSet::standard();
    let board = board(reached(1, 31), &ids).flip().with_theme(Theme::Dark);
    insta::assert_snapshot!("svg_flipped_dark_scornful", board.svg());
}
