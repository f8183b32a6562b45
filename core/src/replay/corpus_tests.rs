//! The corpus (`testdata/corpus`) replayed ply by ply. The 40 valid games,
//! played by the game author's own engine: after every half-move the canonical PDTL must equal
//! the sidecar's, no optional rule warning may be raised (the games are legal), and the check
//! suffix the engine wrote must be the one the position after the half-move calls for. The 40
//! incoherent copies: every ply before the bad one replays to the sidecar's positions, and the
//! bad one fails with the K-code of its kind.
//!
//! The sidecars are embedded at compile time with `include_str!` rather than read at run time,
//! because the core does no IO, not even in its tests; a missing corpus therefore fails the
//! test build, naming the missing file.

use super::test_notation::{check_suffix, read};
use super::tests::pdtl;
use super::{apply, check_given, check_suffix_warning, legality_warnings, rule_warnings};
use crate::diagnostics::Code;
use crate::notation::Check;
use crate::position::Position;

/// The sidecars of one corpus folder (`valid/gNNNN` or `incoherent/mNNNN`), by number.
macro_rules! corpus {
    ($prefix:literal: $($number:literal)*) => {
        [$(
            (
                $number,
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/corpus/", $prefix, $number, ".expected.json")),
            ),
        )*]
    };
}

const SIDECARS: [(&str, &str); 40] = corpus!("valid/g":
    "0001" "0002" "0003" "0004" "0005" "0006" "0007" "0008" "0009" "0010"
    "0011" "0012" "0013" "0014" "0015" "0016" "0017" "0018" "0019" "0020"
    "0021" "0022" "0023" "0024" "0025" "0026" "0027" "0028" "0029" "0030"
    "0031" "0032" "0033" "0034" "0035" "0036" "0037" "0038" "0039" "0040"
);

const INCOHERENT: [(&str, &str); 40] = corpus!("incoherent/m":
    "0001" "0002" "0003" "0004" "0005" "0006" "0007" "0008" "0009" "0010"
    "0011" "0012" "0013" "0014" "0015" "0016" "0017" "0018" "0019" "0020"
    "0021" "0022" "0023" "0024" "0025" "0026" "0027" "0028" "0029" "0030"
    "0031" "0032" "0033" "0034" "0035" "0036" "0037" "0038" "0039" "0040"
);

/// Replays the `plies` of a sidecar from the initial position, comparing every PDTL; the checks
/// the half-moves give are added to `checks`.
fn replay_plies(name: &str, plies: &[serde_json::Value], checks: &mut Vec<Check>) -> Position {
    let mut position = Position::initial();
    for ply in plies {
        let written = ply["move"].as_str().expect("a move");
        let expected = ply["pdtl"].as_str().expect("a pdtl");
        let mv = read(written);
        let warnings = rule_warnings(&position, &mv);
        assert_eq!(warnings, vec![], "{name} ply {}: {written}", ply["ply"]);
        let after = match apply(&position, &mv) {
            Ok(applied) => applied.position,
            Err(e) => {
                panic!("{name} ply {} {written}: {} {}", ply["ply"], e.code.as_str(), e.message)
            }
        };
        // The engine plays legal moves and writes the check suffix of every check.
        assert_eq!(
            legality_warnings(&position, &mv, &after),
            vec![],
            "{name} ply {}: {written}",
            ply["ply"]
        );
        assert_eq!(
            check_suffix_warning(&after, check_suffix(written)),
            None,
            "{name} ply {}: {written}",
            ply["ply"]
        );
        checks.extend(check_given(&after));
        position = after;
        assert_eq!(pdtl(&position), expected, "{name} ply {}: {written}", ply["ply"]);
    }
    position
}

#[test]
fn every_valid_corpus_game_replays_to_the_expected_positions() {
    let mut plies = 0;
    let mut checks = Vec::new();
    for (number, text) in SIDECARS {
        let game: serde_json::Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("g{number}: {e}"));
        assert_eq!(
            Some(pdtl(&Position::initial()).as_str()),
            game["initial_pdtl"].as_str(),
            "g{number}"
        );
        let moves = game["plies"].as_array().unwrap_or_else(|| panic!("g{number} has plies"));
        assert_eq!(Some(moves.len() as u64), game["ply_count"].as_u64(), "g{number}");
        replay_plies(&format!("g{number}"), moves, &mut checks);
        plies += moves.len();
    }
    assert_eq!(plies, 3287, "every ply of the 40 games was replayed");
    // The engine wrote 179 `+^`, 91 `+∞`, 2 `++` and 7 `#`: every one was found, and matched.
    let count = |check: Check| checks.iter().filter(|&&given| given == check).count();
    let counts = [Check::Adjoining, Check::FromAfar, Check::Double, Check::Mate].map(count);
    assert_eq!(counts, [179, 91, 2, 7], "checks given: adjoining, from afar, double, mate");
}

#[test]
fn every_incoherent_corpus_game_fails_at_its_bad_ply_with_the_expected_code() {
    let mut checked = 0;
    for (number, text) in INCOHERENT {
        let game: serde_json::Value =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("m{number}: {e}"));
        let kind = game["kind"].as_str().expect("a kind");
        // Coordinates are judged by the notation reader (C-codes), before any replay.
        if kind == "invalid_coordinate" {
            continue;
        }
        let name = format!("m{number}");
        let plies = game["plies"].as_array().expect("plies");
        let before = replay_plies(&name, plies, &mut Vec::new());
        assert_eq!(Some(pdtl(&before).as_str()), game["pdtl_before"].as_str(), "{name}");
        let written = game["move"].as_str().expect("the bad move");
        // `x` is the recoverable S005: the half-move is read as if `×` had been written (§13.1).
        let mv = read(&written.replace('x', "\u{d7}"));
        let detail = game["detail"].as_str().unwrap_or_default();
        let expected = match kind {
            "origin_empty" => Some(Code::K001),
            "origin_opponent_piece" => Some(Code::K002),
            "origin_wrong_piece" => Some(Code::K003),
            "noncapture_occupied" => Some(Code::K004),
            "capture_empty" => Some(Code::K005),
            // A letter written for a captured pawn is K009, any other wrong letter K008 (§6.3).
            "capture_wrong_piece" if detail.contains(" holds P,") => Some(Code::K009),
            "capture_wrong_piece" => Some(Code::K008),
            "x_separator" => None,
            other => panic!("{name}: unknown kind {other}"),
        };
        let result = apply(&before, &mv);
        assert_eq!(result.as_ref().err().map(|e| e.code), expected, "{name} {written}: {detail}");
        checked += 1;
    }
    assert_eq!(checked, 35, "every incoherent game but the five with a bad coordinate");
}

#[test]
fn playing_in_place_gives_the_positions_effects_and_errors_of_apply() {
    let ids = crate::identifiers::IdentifierSet::standard();
    let mut plies_played = 0;
    for (number, text) in SIDECARS.iter().chain(INCOHERENT.iter()) {
        let game: serde_json::Value = serde_json::from_str(text).expect("a sidecar");
        let mut moves: Vec<String> = game["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .map(|ply| ply["move"].as_str().expect("a move").to_string())
            .collect();
        // The bad move of an incoherent game, except a bad coordinate (no move to play).
        if let Some(bad) = game["move"].as_str().filter(|_| game["kind"] != "invalid_coordinate") {
            moves.push(bad.replace('x', "\u{d7}"));
        }
        let mut position = Position::initial();
        for written in &moves {
            let mv = read(written);
            let applied = apply(&position, &mv);
            let mut in_place = position.clone();
            let played = super::play_in_place(&mut in_place, &mv, &ids);
            match applied {
                Ok(applied) => {
                    assert_eq!(played.as_ref().ok(), Some(&applied.effect), "{number} {written}");
                    assert_eq!(in_place, applied.position, "{number} {written}");
                    position = applied.position;
                    plies_played += 1;
                }
                Err(error) => {
                    assert_eq!(played.err(), Some(error), "{number} {written}");
                    assert_eq!(in_place, position, "{number} {written}: left as it was");
                    break;
                }
            }
        }
    }
    assert!(plies_played > 3000, "plies played both ways: {plies_played}");
}
