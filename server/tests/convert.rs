//! The conversions: minimal CTL-PGN, identifiers rewritten to letters, FAN or a `Redefine`
//! preset, and the PDTL at a place of a record. Fixtures with expected outputs (LF and CRLF,
//! figurines, alternative letters); every corpus and handbook example file through round
//! trips, the minimal form's replay and the PDTL of every ply; refusals of records that do not
//! replay; then `ctlpgn convert` and `ctlpgn pdtl` end to end (standard input, in-place
//! rewrites, refusals that leave every file untouched, usage errors).

use std::path::PathBuf;
use std::process::{Command, Stdio};

use ctlpgn_core::analysis::{pdtl_after_ply, pdtl_at};
use ctlpgn_core::conversion::{
    continuation_at, minimal_file, parse_records, reletter_file, LetterTarget, ParsedRecord,
};
use ctlpgn_core::diagnostics::Severity;
use ctlpgn_core::geometry::ALL_HEXES;
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::pdtl;
use ctlpgn_core::pieces::PieceKind;
use ctlpgn_core::syntax::Item;
use ctlpgn_test_support::fixtures;

// ---- Helpers ------------------------------------------------------------------------------

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture_path(name: &str) -> PathBuf {
    manifest().join("tests/fixtures/convert").join(name)
}

fn fixture(name: &str) -> String {
    let path = fixture_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{} is readable: {e}", path.display()))
}

/// Every game of the corpus, every example of the handbook and the repository's example.
fn testdata_files() -> Vec<(PathBuf, String)> {
    let mut files = fixtures::testdata_files("corpus/valid", ".ctl-pgn");
    files.extend(fixtures::testdata_files("corpus/incoherent", ".ctl-pgn"));
    files.extend(fixtures::testdata_files("examples", ".ctl-pgn"));
    files.extend(fixtures::files_with(&fixtures::repository_dir().join("examples"), ".ctl-pgn"));
    assert!(files.len() > 90, "the corpus and examples are needed");
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("UTF-8");
            (path, text)
        })
        .collect()
}

/// Whether every record of a file replays without an error.
fn replays(records: &[ParsedRecord]) -> bool {
    records
        .iter()
        .all(|record| record.analysis.diagnostics.iter().all(|d| d.severity != Severity::Error))
}

/// The files whose records all replay, which every conversion must accept.
fn clean_files() -> Vec<(PathBuf, String)> {
    let clean: Vec<_> =
        testdata_files().into_iter().filter(|(_, text)| replays(&parse_records(text))).collect();
    assert!(
        clean.len() >= 47,
        "40 corpus games, 6 handbook examples and the repository's example replay"
    );
    clean
}

/// For each record, the replayed half-moves as (side, number, depth, position).
fn replayed(text: &str, main_line_only: bool) -> Vec<Vec<(char, u32, usize, String)>> {
    parse_records(text)
        .iter()
        .map(|record| {
            record
                .analysis
                .played
                .iter()
                .filter(|played| !main_line_only || played.depth == 0)
                .map(|played| {
                    (
                        played.side.letter(),
                        played.number,
                        played.depth,
                        pdtl::print(&played.after, &IdentifierSet::standard()),
                    )
                })
                .collect()
        })
        .collect()
}

/// The first error of any record of a converted text, to show when there should be none.
fn first_error(text: &str) -> Option<String> {
    parse_records(text).iter().find_map(|record| {
        record.analysis.diagnostics.iter().find(|d| d.severity == Severity::Error).map(|d| {
            format!("{} {} at {:?}", d.code, d.message, record.range.start + d.range.start)
        })
    })
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn ctlpgn(arguments: &[&str], input: Option<&str>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.args(arguments).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("ctlpgn runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        // A command that stops at its arguments never reads its input; the pipe is then closed.
        let _ = stdin.write_all(input.unwrap_or("").as_bytes());
    }
    let output = child.wait_with_output().expect("ctlpgn ends");
    Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 output"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 errors"),
    }
}

/// A fresh folder for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ctlpgn-convert-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn preset() -> LetterTarget {
    LetterTarget::redefine("B@J, Q@D, W@V").expect("a valid preset")
}

// ---- Fixtures -----------------------------------------------------------------------------

/// (input, command-line flags, expected output): each conversion of each fixture.
const FIXTURES: [(&str, &[&str], &str); 7] = [
    ("annotated.ctl-pgn", &["--minimal"], "annotated.minimal.ctl-pgn"),
    ("annotated.ctl-pgn", &["--fan"], "annotated.fan.ctl-pgn"),
    ("fan.ctl-pgn", &["--letters"], "fan.letters.ctl-pgn"),
    ("fan.ctl-pgn", &["--minimal"], "fan.minimal.ctl-pgn"),
    ("redefined.ctl-pgn", &["--letters"], "redefined.letters.ctl-pgn"),
    ("redefined.ctl-pgn", &["--fan"], "redefined.fan.ctl-pgn"),
    ("redefined.ctl-pgn", &["--redefine", "B@J, Q@D, W@V"], "redefined.redefine.ctl-pgn"),
];

/// The core's conversion that `flags` name.
fn convert(text: &str, flags: &[&str]) -> String {
    let converted = match flags {
        ["--minimal"] => minimal_file(text),
        ["--letters"] => reletter_file(text, &LetterTarget::Standard),
        ["--fan"] => reletter_file(text, &LetterTarget::Fan),
        ["--redefine", value] => {
            reletter_file(text, &LetterTarget::redefine(value).expect("a valid preset"))
        }
        other => panic!("no conversion {other:?}"),
    };
    converted.unwrap_or_else(|failures| panic!("{flags:?} refused: {failures:?}"))
}

#[test]
fn fixtures_convert_to_their_expected_outputs() {
    for (input, flags, expected) in FIXTURES {
        let text = fixture(input);
        let expected_text = fixture(expected);
        assert_eq!(convert(&text, flags), expected_text, "{input} {flags:?}");
        let path = fixture_path(input);
        let mut arguments = vec!["convert"];
        arguments.extend_from_slice(flags);
        arguments.push(path.to_str().expect("a path"));
        let run = ctlpgn(&arguments, None);
        assert_eq!((run.status, run.stderr.as_str()), (0, ""), "{input} {flags:?}");
        assert_eq!(run.stdout, expected_text, "ctlpgn {arguments:?}");
    }
}

#[test]
fn crlf_files_keep_their_line_ends() {
    let crlf = |text: &str| text.replace('\n', "\r\n");
    let text = crlf(&fixture("annotated.ctl-pgn"));
    assert_eq!(convert(&text, &["--fan"]), crlf(&fixture("annotated.fan.ctl-pgn")));
    assert_eq!(convert(&text, &["--minimal"]), crlf(&fixture("annotated.minimal.ctl-pgn")));
    assert_eq!(
        convert(&crlf(&fixture("fan.ctl-pgn")), &["--letters"]),
        crlf(&fixture("fan.letters.ctl-pgn"))
    );
}

#[test]
fn several_records_convert_one_by_one() {
    // A byte-order mark and a blank line before the first record, three records of three
    // identifier sets: relettering keeps everything between the records, the minimal form
    // parts its records with one blank line.
    let records =
        [fixture("annotated.ctl-pgn"), fixture("fan.ctl-pgn"), fixture("redefined.ctl-pgn")];
    let text = format!("\u{FEFF}\n{}\n{}{}", records[0], records[1], records[2]);
    let letters = convert(&text, &["--letters"]);
    let expected = format!(
        "\u{FEFF}\n{}\n{}{}",
        records[0],
        fixture("fan.letters.ctl-pgn"),
        fixture("redefined.letters.ctl-pgn")
    );
    assert_eq!(letters, expected);
    let minimal = convert(&text, &["--minimal"]);
    let minimal_records: Vec<String> =
        records.iter().map(|record| convert(record, &["--minimal"])).collect();
    assert_eq!(minimal, minimal_records.join("\n"));
    assert_eq!(parse_records(&minimal).len(), 3);
}

#[test]
fn a_large_file_converts_in_file_order() {
    // Forty games and more are shared out between threads; the records come back in order.
    let games: Vec<String> = fixtures::testdata_files("corpus/valid", ".ctl-pgn")
        .iter()
        .map(|path| std::fs::read_to_string(path).expect("UTF-8"))
        .collect();
    assert_eq!(games.len(), 40);
    let file = games.concat();
    let fan: Vec<String> = games.iter().map(|game| convert(game, &["--fan"])).collect();
    assert_eq!(convert(&file, &["--fan"]), fan.concat());
    let minimal: Vec<String> = games.iter().map(|game| convert(game, &["--minimal"])).collect();
    assert_eq!(convert(&file, &["--minimal"]), minimal.join("\n"));
    let broken = file.replacen("1. ", "1. P", 1);
    let failures = minimal_file(&broken).expect_err("a pawn letter written is refused");
    assert_eq!(failures.iter().map(|failure| failure.index).collect::<Vec<_>>(), [0]);
}

#[test]
fn the_pdtl_at_places_of_the_fixture_is_the_expected_one() {
    let text = fixture("annotated.ctl-pgn");
    let path = fixture_path("annotated.ctl-pgn");
    let records = parse_records(&text);
    let record = &records[0];
    let expected = fixture("annotated.pdtl.txt");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for row in expected.lines() {
        let (place, pdtl) = row.split_once(' ').expect("LINE:COL PDTL");
        let run = ctlpgn(&["pdtl", path.to_str().expect("a path"), "--at", place], None);
        assert_eq!(
            (run.status, run.stdout.as_str()),
            (0, format!("{pdtl}\n").as_str()),
            "--at {place}: {}",
            run.stderr
        );
        // The same through the core, with the column counted in characters.
        let (line, column) = place.split_once(':').expect("LINE:COL");
        let (line, column): (usize, usize) =
            (line.parse().expect("a line"), column.parse().expect("a column"));
        let line_start: usize = lines[..line - 1].iter().map(|l| l.len()).sum();
        let offset =
            line_start + lines[line - 1].char_indices().nth(column - 1).map_or(0, |(at, _)| at);
        assert_eq!(
            pdtl_at(&text, &record.syntax, &record.analysis, offset).as_deref(),
            Some(pdtl),
            "offset of {place}"
        );
    }
    assert!(expected.lines().count() >= 10);
}

// ---- Every corpus and example file --------------------------------------------------------

#[test]
fn letters_to_fan_and_back_give_the_original_text() {
    let mut standard_files = 0;
    for (path, text) in clean_files() {
        let name = path.display();
        let letters = reletter_file(&text, &LetterTarget::Standard)
            .unwrap_or_else(|f| panic!("{name}: {f:?}"));
        let fan =
            reletter_file(&letters, &LetterTarget::Fan).unwrap_or_else(|f| panic!("{name}: {f:?}"));
        let back = reletter_file(&fan, &LetterTarget::Standard)
            .unwrap_or_else(|f| panic!("{name}: {f:?}"));
        assert_eq!(back, letters, "{name}: letters → FAN → letters");
        let written_in_letters = parse_records(&text)
            .iter()
            .all(|record| record.analysis.identifiers == IdentifierSet::standard());
        if written_in_letters {
            standard_files += 1;
            assert_eq!(letters, text, "{name}: a record in standard letters is already in letters");
        }
        // FAN holds no letter identifier: every move identifier is a figurine.
        for record in parse_records(&fan) {
            assert!(record.analysis.identifiers.is_fan(), "{name}");
        }
    }
    assert!(standard_files >= 45, "{standard_files} files in standard letters");
}

#[test]
fn every_identifier_conversion_replays_every_line_of_play_the_same() {
    for (path, text) in clean_files() {
        let name = path.display();
        let original = replayed(&text, false);
        assert!(original.iter().any(|record| !record.is_empty()), "{name}: nothing replayed");
        let letters = reletter_file(&text, &LetterTarget::Standard)
            .unwrap_or_else(|f| panic!("{name}: {f:?}"));
        for (target, label) in [
            (LetterTarget::Fan, "FAN"),
            (preset(), "B@J, Q@D, W@V"),
            (LetterTarget::Standard, "letters"),
        ] {
            let converted = reletter_file(&text, &target)
                .unwrap_or_else(|f| panic!("{name} to {label}: {f:?}"));
            assert_eq!(first_error(&converted), None, "{name} to {label}");
            assert_eq!(replayed(&converted, false), original, "{name} to {label}");
            let identifiers = target.identifiers();
            for record in parse_records(&converted) {
                assert_eq!(record.analysis.identifiers, identifiers, "{name} to {label}");
            }
            // Back to letters, the same text as a direct conversion to letters.
            let back = reletter_file(&converted, &LetterTarget::Standard)
                .unwrap_or_else(|f| panic!("{name} from {label}: {f:?}"));
            assert_eq!(back, letters, "{name}: {label} → letters");
        }
    }
}

#[test]
fn the_minimal_form_checks_clean_and_replays_the_same_main_line() {
    for (path, text) in clean_files() {
        let name = path.display();
        let minimal = minimal_file(&text).unwrap_or_else(|f| panic!("{name}: {f:?}"));
        assert_eq!(first_error(&minimal), None, "{name}:\n{minimal}");
        assert_eq!(replayed(&minimal, true), replayed(&text, true), "{name}");
        let records = parse_records(&minimal);
        assert_eq!(records.len(), parse_records(&text).len(), "{name}");
        for record in &records {
            assert_eq!(record.analysis.identifiers, IdentifierSet::standard(), "{name}");
            assert!(
                record.analysis.played.iter().all(|played| played.depth == 0),
                "{name}: a variation is left"
            );
            for item in &record.syntax.items {
                match item {
                    Item::Comment(_) | Item::Variation(_) => {
                        panic!("{name}: a comment or variation is left")
                    }
                    Item::Tag(tag) => {
                        assert_ne!(tag.name.text(record.text(&minimal)), "Redefine", "{name}")
                    }
                    Item::MoveLine(line) => {
                        for half_move in line.half_moves() {
                            assert!(
                                half_move.rating.is_none() && half_move.nag.is_none(),
                                "{name}: a rating is left"
                            );
                            let indicator = half_move
                                .indicator
                                .as_ref()
                                .map(|token| token.text(record.text(&minimal)));
                            assert!(
                                matches!(indicator, None | Some(":")),
                                "{name}: indicator {indicator:?}"
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
        // The minimal form is its own minimal form.
        assert_eq!(minimal_file(&minimal).as_deref(), Ok(minimal.as_str()), "{name}");
    }
}

#[test]
fn the_pdtl_at_every_ply_is_the_replays() {
    let mut plies = 0;
    let mut oracle_plies = 0;
    for (path, text) in testdata_files() {
        let name = path.display();
        for record in parse_records(&text) {
            let record_text = record.text(&text);
            for played in &record.analysis.played {
                let expected = pdtl::print(&played.after, &record.analysis.identifiers);
                for offset in [played.range.start, played.move_end, played.range.end] {
                    assert_eq!(
                        pdtl_at(record_text, &record.syntax, &record.analysis, offset).as_deref(),
                        Some(expected.as_str()),
                        "{name}: offset {offset}"
                    );
                }
                plies += 1;
            }
            for (index, played) in record.analysis.main_line().enumerate() {
                assert_eq!(
                    pdtl_after_ply(&record.analysis, index + 1),
                    Some(pdtl::print(&played.after, &record.analysis.identifiers))
                );
            }
        }
        // The corpus sidecars hold the reference engine's positions, ply by ply.
        let sidecar = path.with_extension("").with_extension("expected.json");
        if let Ok(json) = std::fs::read_to_string(&sidecar) {
            let expected: serde_json::Value = serde_json::from_str(&json).expect("JSON");
            let records = parse_records(&text);
            let record = &records[0];
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            for ply in expected["plies"].as_array().expect("plies") {
                let line = usize::try_from(ply["line"].as_u64().expect("a line")).expect("small");
                let written = ply["move"].as_str().expect("a move");
                let line_text = lines[line - 1];
                // White's half-move stands before the comma, Black's after it.
                let part_start =
                    if ply["side"] == "b" { line_text.find(", ").expect("a comma") } else { 0 };
                let offset = lines[..line - 1].iter().map(|l| l.len()).sum::<usize>()
                    + part_start
                    + line_text[part_start..]
                        .find(written)
                        .unwrap_or_else(|| panic!("{name}: {written} on line {line}"));
                let at = pdtl_at(&text, &record.syntax, &record.analysis, offset);
                // The incoherent games' sidecars end with the ply that does not replay.
                if at.is_some() || !path.to_string_lossy().contains("incoherent") {
                    assert_eq!(at.as_deref(), ply["pdtl"].as_str(), "{name}: ply {}", ply["ply"]);
                    oracle_plies += 1;
                }
            }
        }
    }
    assert!(plies > 3000, "{plies} plies");
    assert!(oracle_plies > 3000, "{oracle_plies} plies compared with the corpus");
}

#[test]
fn records_that_do_not_replay_are_refused_at_their_first_error() {
    let mut refused = 0;
    for (path, text) in testdata_files() {
        let records = parse_records(&text);
        if replays(&records) {
            continue;
        }
        let name = path.display();
        let first = records
            .iter()
            .enumerate()
            .find_map(|(index, record)| {
                record
                    .analysis
                    .diagnostics
                    .iter()
                    .find(|d| d.severity == Severity::Error)
                    .map(|d| (index, record.range.start + d.range.start))
            })
            .expect("an error");
        let targets = [LetterTarget::Standard, LetterTarget::Fan, preset()];
        let mut outcomes: Vec<_> =
            targets.iter().map(|target| reletter_file(&text, target).map(|_| ())).collect();
        outcomes.push(minimal_file(&text).map(|_| ()));
        for outcome in outcomes {
            let failures = outcome.expect_err("refused");
            assert_eq!((failures[0].index, failures[0].offset()), first, "{name}");
        }
        // The incoherent games say on which line their bad ply stands.
        let sidecar = path.with_extension("").with_extension("expected.json");
        if path.to_string_lossy().contains("incoherent") {
            let expected: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(sidecar).expect("a sidecar"))
                    .expect("JSON");
            let line = text[..first.1].matches('\n').count() + 1;
            assert_eq!(Some(line as u64), expected["line"].as_u64(), "{name}");
        }
        refused += 1;
    }
    assert!(refused >= 46, "40 incoherent games and 6 bad examples, {refused} refused");
}

// ---- The command line ---------------------------------------------------------------------

#[test]
fn convert_reads_standard_input_and_writes_standard_output() {
    let run = ctlpgn(&["convert", "--fan", "-"], Some(&fixture("annotated.ctl-pgn")));
    assert_eq!((run.status, run.stderr.as_str()), (0, ""));
    assert_eq!(run.stdout, fixture("annotated.fan.ctl-pgn"));
    let run = ctlpgn(&["convert", "--redefine=FAN", "-"], Some(&fixture("annotated.ctl-pgn")));
    assert_eq!(run.stdout, fixture("annotated.fan.ctl-pgn"));
    let run = ctlpgn(&["convert", "--letters", "-"], Some(&fixture("annotated.fan.ctl-pgn")));
    assert_eq!(run.stdout, fixture("annotated.ctl-pgn"));
    // Two files follow each other on standard output.
    let minimal = fixture_path("annotated.minimal.ctl-pgn");
    let run = ctlpgn(
        &["convert", "--minimal", minimal.to_str().expect("a path"), "-"],
        Some(&fixture("fan.ctl-pgn")),
    );
    assert_eq!(
        run.stdout,
        format!("{}{}", fixture("annotated.minimal.ctl-pgn"), fixture("fan.minimal.ctl-pgn"))
    );
}

#[test]
fn convert_in_place_rewrites_the_files() {
    let dir = scratch("in-place");
    let fan = dir.join("game.ctl-pgn");
    let letters = dir.join("letters.ctl-pgn");
    std::fs::write(&fan, fixture("fan.ctl-pgn")).expect("written");
    std::fs::write(&letters, fixture("fan.letters.ctl-pgn")).expect("written");
    let run = ctlpgn(
        &[
            "convert",
            "--letters",
            "-i",
            fan.to_str().expect("a path"),
            letters.to_str().expect("a path"),
        ],
        None,
    );
    assert_eq!((run.status, run.stdout.as_str(), run.stderr.as_str()), (0, "", ""));
    assert_eq!(std::fs::read_to_string(&fan).expect("read"), fixture("fan.letters.ctl-pgn"));
    assert_eq!(std::fs::read_to_string(&letters).expect("read"), fixture("fan.letters.ctl-pgn"));
    let run = ctlpgn(&["convert", "--minimal", "--in-place", fan.to_str().expect("a path")], None);
    assert_eq!(run.status, 0);
    assert_eq!(std::fs::read_to_string(&fan).expect("read"), fixture("fan.minimal.ctl-pgn"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_refuses_a_record_that_does_not_replay_and_touches_nothing() {
    let dir = scratch("refusal");
    let good = dir.join("good.ctl-pgn");
    let bad = dir.join("bad.ctl-pgn");
    let good_text = fixture("annotated.ctl-pgn");
    // The second record's Black pawn on E21 was already played to E15: K001 at 11:11.
    let bad_text = format!("{}\n[Variant \"C'escacs\"]\n[Event \"CG\"]\n\n1. E7-E13, E21-E15\n2. F8-F12, E21-E17:\n*\n", fixture("fan.ctl-pgn"));
    std::fs::write(&good, &good_text).expect("written");
    std::fs::write(&bad, &bad_text).expect("written");
    let bad_line =
        bad_text.lines().position(|line| line.starts_with("2. F8-F12")).expect("the bad line") + 1;
    for flag in ["--minimal", "--letters", "--fan"] {
        for in_place in [true, false] {
            let mut arguments = vec![
                "convert",
                flag,
                good.to_str().expect("a path"),
                bad.to_str().expect("a path"),
            ];
            if in_place {
                arguments.push("--in-place");
            }
            let run = ctlpgn(&arguments, None);
            assert_eq!((run.status, run.stdout.as_str()), (1, ""), "{arguments:?}");
            let location = format!(
                "{}:{bad_line}:12: record 2: the record does not replay: error[K001]:",
                bad.display()
            );
            assert!(run.stderr.contains(&location), "{arguments:?}: {}", run.stderr);
            assert!(
                run.stderr.contains("[origin-empty]")
                    && run.stderr.contains("Nothing was written."),
                "{}",
                run.stderr
            );
            assert_eq!(std::fs::read_to_string(&good).expect("read"), good_text);
            assert_eq!(std::fs::read_to_string(&bad).expect("read"), bad_text);
        }
    }
    let run = ctlpgn(&["convert", "--fan", "-"], Some(&bad_text));
    assert_eq!((run.status, run.stdout.as_str()), (1, ""));
    assert!(run.stderr.contains(&format!("-:{bad_line}:12: record 2:")), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn convert_says_what_is_wrong_with_its_arguments() {
    let path = fixture_path("annotated.ctl-pgn");
    let path = path.to_str().expect("a path");
    for (arguments, message) in [
        (vec!["convert", path], "<--minimal|--letters|--fan|--redefine <LETTERS>>"),
        (vec!["convert", "--fan", "--letters", path], "cannot be used with"),
        (vec!["convert", "--redefine", "H@E", path], "H is never an identifier"),
        (vec!["convert", "--redefine"], "a value is required for '--redefine"),
        (vec!["convert", "--fan"], "<PATH>"),
        (vec!["convert", "--fan", "-i", "-"], "--in-place rewrites files"),
        (vec!["convert", "--fan", "--sideways", path], "unexpected argument '--sideways'"),
        (vec!["convert", "--fan", "no-such-file.ctl-pgn"], "no-such-file.ctl-pgn"),
    ] {
        let run = ctlpgn(&arguments, None);
        assert_eq!((run.status, run.stdout.as_str()), (2, ""), "{arguments:?}");
        assert!(run.stderr.contains(message), "{arguments:?}: {}", run.stderr);
    }
}

#[test]
fn pdtl_prints_the_position_at_a_ply_or_a_place() {
    let text = fixture("fan.ctl-pgn");
    let records = parse_records(&text);
    let analysis = &records[0].analysis;
    // White castled with figurines on ply 5: its King has moved, Black is to move.
    let after_castling = pdtl_after_ply(analysis, 5).expect("ply 5");
    assert!(after_castling.ends_with(" b -\u{265C}\u{265A}\u{265C} - 3 3"), "{after_castling}");
    let run = ctlpgn(&["pdtl", "-", "--ply", "5"], Some(&text));
    assert_eq!((run.status, run.stdout), (0, format!("{after_castling}\n")));
    // --letters prints the standard letters whatever the record's identifiers.
    let run = ctlpgn(&["pdtl", "-", "--ply=0", "--letters"], Some(&text));
    let initial = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";
    assert_eq!(run.stdout, format!("{initial}\n"));
    // A column counts characters: the figurine before it is one column (three bytes).
    let run = ctlpgn(&["pdtl", "-", "--at", "9:13"], Some(&text));
    let black_elephant = pdtl_after_ply(analysis, 4).expect("ply 4");
    assert_eq!((run.status, run.stdout), (0, format!("{black_elephant}\n")));
    // With several records, --ply needs --record.
    let two = format!("{text}\n{}", fixture("annotated.ctl-pgn"));
    let run = ctlpgn(&["pdtl", "-", "--ply", "1"], Some(&two));
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("the file holds 2 records: say which with --record K"),
        "{}",
        run.stderr
    );
    let run = ctlpgn(&["pdtl", "-", "--ply", "1", "--record", "2", "--letters"], Some(&two));
    let first_annotated_ply =
        fixture("annotated.pdtl.txt").lines().find(|row| row.starts_with("11:4 ")).expect("a row")
            [5..]
            .to_string();
    assert_eq!((run.status, run.stdout), (0, format!("{first_annotated_ply}\n")));
}

#[test]
fn pdtl_refuses_a_record_that_does_not_replay_and_bad_places() {
    let broken = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. E9-E11:\n*\n";
    let run = ctlpgn(&["pdtl", "-", "--ply", "1"], Some(broken));
    assert_eq!((run.status, run.stdout.as_str()), (1, ""));
    assert!(run.stderr.contains("-:3:4: record 1 does not replay: error[K001]"), "{}", run.stderr);
    let text = fixture("redefined.ctl-pgn");
    for (arguments, message) in [
        (vec!["pdtl", "-"], "<--at <LINE:COL>|--ply <N>>"),
        (vec!["pdtl", "-", "--at", "0:1"], "expected LINE:COL, both from 1"),
        (vec!["pdtl", "-", "--at", "99:1"], "the file has no line 99"),
        (vec!["pdtl", "-", "--ply", "9"], "main line has 8 half-moves, not 9"),
        (vec!["pdtl", "-", "--ply", "1", "--record", "2"], "there is no record 2"),
        (vec!["pdtl", "-", "--ply", "1", "--at", "1:1"], "cannot be used with"),
    ] {
        let run = ctlpgn(&arguments, Some(&text));
        assert_eq!((run.status, run.stdout.as_str()), (2, ""), "{arguments:?}");
        assert!(run.stderr.contains(message), "{arguments:?}: {}", run.stderr);
    }
}

/// Reads a PDTL as `check` does and gives its error problems.
fn pdtl_errors(value: &str, ids: &IdentifierSet) -> Vec<String> {
    pdtl::parse(value, ids)
        .problems
        .into_iter()
        .filter(|problem| problem.severity == Severity::Error)
        .map(|problem| format!("{}: {}", problem.code, problem.message))
        .collect()
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config { cases: 128, ..Default::default() })]

    /// Every PDTL we print reads back without an error: at a random place of a corpus game,
    /// one of the mover's pieces is sent to a random empty hex (a move a minimum reader
    /// replays, and the rule checks flag), and every PDTL given after it (`pdtl_at`,
    /// `pdtl_after_ply`, the continuation's `PDTL` tag) is one `check` accepts.
    #[test]
    fn every_pdtl_we_print_reads_back_without_an_error(
        game in 0usize..1000,
        ply in 0usize..1000,
        piece in 0usize..64,
        target in 0usize..169,
    ) {
        let games = corpus_games();
        let text = &games[game % games.len()];
        let records = parse_records(text);
        let record = &records[0];
        let record_text = record.text(text);
        let main: Vec<_> = record.analysis.main_line().collect();
        let index = ply % main.len();
        let replaced = main[index];
        let before = match index.checked_sub(1) {
            Some(previous) => &main[previous].after,
            None => record.analysis.start.as_ref().expect("a start"),
        };
        let ids = &record.analysis.identifiers;
        let mover = replaced.side;
        let pieces: Vec<_> = before
            .pieces()
            .filter(|(_, found)| found.side == mover && found.kind != PieceKind::King)
            .collect();
        let (from, moving) = pieces[piece % pieces.len()];
        let empty: Vec<_> =
            ALL_HEXES.iter().filter(|hex| before.get(**hex).is_none()).collect();
        let to = empty[target % empty.len()];
        let letter = if moving.kind == PieceKind::Pawn {
            String::new()
        } else {
            ids.move_identifier(moving.kind).to_string()
        };
        let edited = format!(
            "{}{letter}{from}-{to}:\n*\n",
            &record_text[..replaced.range.start]
        );
        let records = parse_records(&edited);
        let record = &records[0];
        let ids = &record.analysis.identifiers;
        let mut given = Vec::new();
        let places = record.analysis.played.iter().flat_map(|played| [played.range.start, played.range.end]);
        for offset in places.chain([0, edited.len()]) {
            given.extend(pdtl_at(&edited, &record.syntax, &record.analysis, offset));
            if let Some(continuation) =
                continuation_at(&edited, &record.syntax, &record.analysis, offset)
            {
                let value = continuation
                    .split("[PDTL \"")
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .expect("the continuation has a PDTL tag");
                given.push(value.to_string());
            }
        }
        given.extend((0..=index + 1).filter_map(|ply| pdtl_after_ply(&record.analysis, ply)));
        proptest::prop_assert!(!given.is_empty());
        for value in given {
            let errors = pdtl_errors(&value, ids);
            proptest::prop_assert!(errors.is_empty(), "{value}: {errors:?}\n{edited}");
        }
    }
}

/// The games of the corpus that replay, read once.
fn corpus_games() -> &'static [String] {
    static GAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    GAMES.get_or_init(|| {
        fixtures::testdata_files("corpus/valid", ".ctl-pgn")
            .into_iter()
            .map(|path| std::fs::read_to_string(&path).expect("UTF-8"))
            .collect()
    })
}
