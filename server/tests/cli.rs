//! The `ctlpgn` binary end to end: `check` prints located diagnostics with excerpts and sets
//! the exit status, `--format json` and `replay --json` print what the README promises; every
//! command refuses bad arguments and oversized inputs with status 2 and survives a closed or full
//! standard output. How files are written is `writes.rs`'s.

mod command;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use command::{execute, scratch, unformatted_records};

fn ctlpgn(arguments: &[&str], input: Option<&str>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.args(arguments);
    let output = if let Some(input) = input {
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("ctlpgn runs");
        child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("written");
        child.wait_with_output().expect("ctlpgn ends")
    } else {
        command.output().expect("ctlpgn runs")
    };
    (output.status.code().unwrap_or(-1), String::from_utf8(output.stdout).expect("UTF-8 output"))
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/opening.ctl-pgn")
}

#[test]
fn check_passes_a_clean_game() {
    let (status, output) = ctlpgn(&["check", example().to_str().expect("a path")], None);
    assert_eq!((status, output.as_str()), (0, ""));
}

#[test]
fn check_locates_errors_in_characters_and_exits_with_1() {
    // The accented name and the × before the bad move must not shift the column.
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Vidàl, Núria\"]\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13×F16, E9-E13:\n*\n";
    let (status, output) = ctlpgn(&["check", "-"], Some(text));
    assert_eq!(status, 1);
    let first = output.lines().next().expect("a diagnostic line");
    assert!(first.starts_with("-:6:13: error[K001]: "), "{output}");
    assert!(first.ends_with("[origin-empty]"), "{output}");
    assert!(output.contains("6 | 3. E13×F16, E9-E13:\n  |             ^^^^^^"), "{output}");
}

#[test]
fn check_prints_json_when_asked() {
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Demo\"]\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13xF16:\n*\n";
    let (status, output) = ctlpgn(&["check", "--format", "json", "-"], Some(text));
    assert_eq!(status, 1);
    let diagnostics: serde_json::Value = serde_json::from_str(&output).expect("JSON");
    let first = &diagnostics[0];
    assert_eq!(first["code"], "S005");
    assert_eq!(first["name"], "x-capture-sign");
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(6), Some(7)));
    assert_eq!(diagnostics.as_array().map(Vec::len), Some(1), "{output}");
}

#[test]
fn replay_prints_one_json_object_per_record() {
    let text =
        "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n[Variant \"C'escacs\"]\n1. E9-E13:\n*\n";
    let (status, output) = ctlpgn(&["replay", "-", "--json"], Some(text));
    assert_eq!(status, 1);
    let records: Vec<serde_json::Value> =
        output.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["plies"][1]["pdtl"], "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr E15@17-19 0 2");
    assert_eq!(records[0]["plies"][1]["move"], "E21-E15");
    assert_eq!(records[0]["plies"][1]["side"], "b");
    assert_eq!(records[0]["plies"][1]["check"], serde_json::Value::Null);
    assert_eq!(records[1]["plies"].as_array().map(Vec::len), Some(0));
    let diagnostics = records[1]["diagnostics"].as_array().expect("diagnostics");
    let origin_empty = diagnostics.iter().find(|d| d["code"] == "K001").expect("a K001 for E9-E13");
    assert_eq!(
        (origin_empty["line"].as_u64(), origin_empty["column"].as_u64()),
        (Some(6), Some(4))
    );
}

#[test]
fn check_reports_the_rule_checks_only_with_rules() {
    // A Rook checks from afar, written +^ after a `‐`; the warnings leave the status at 0.
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-X02\"]\n[Annotator \"Vidàl\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3‐F6+^, KF20-E21:\n*\n";
    assert_eq!(ctlpgn(&["check", "-"], Some(text)), (0, String::new()));
    let (status, output) = ctlpgn(&["check", "--rules", "-"], Some(text));
    assert_eq!(status, 0);
    let first = output.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "-:6:10: warning[R008]: +^ but Black's King on F20 is in check from afar by the Rook on F6; write +∞ [check-suffix-inconsistent]"
    );
}

#[test]
fn replay_says_the_check_each_ply_gives() {
    // The suffix written (+^) is not the one the position calls for (+∞): replay says the latter.
    let text = "[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ w -- - 0 1\"]\n\n1. RC3‐F6+^, KF20-E21:\n*\n";
    let (_, output) = ctlpgn(&["replay", "-", "--json"], Some(text));
    let record: serde_json::Value =
        serde_json::from_str(output.lines().next().unwrap_or_default()).expect("JSON line");
    assert_eq!(record["plies"][0]["move"], "RC3‐F6+^", "the move as written");
    assert_eq!(record["plies"][0]["check"], "+∞");
    assert_eq!(record["plies"][1]["check"], serde_json::Value::Null);
}

/// After `JF6-F8`, a Bishop move only the rule checks reject (R009), White has two Bishops on
/// one hex colour: no PDTL may hold that position (P010), so neither `pdtl` nor `replay` prints
/// one, and both say why.
#[test]
fn no_pdtl_is_printed_for_a_position_no_pdtl_may_hold() {
    let text = "[Variant \"C'escacs\"]\n\n1. F8-F10, F20-F18\n2. JF6-F8, E21-E15:\n*\n";
    let (status, output) = ctlpgn(&["replay", "-", "--json"], Some(text));
    assert_eq!(status, 0);
    let record: serde_json::Value =
        serde_json::from_str(output.lines().next().unwrap_or_default()).expect("JSON line");
    assert!(record["plies"][1]["pdtl"].is_string());
    assert_eq!(record["plies"][2]["move"], "JF6-F8");
    assert_eq!(record["plies"][2]["pdtl"], serde_json::Value::Null);
    let (_, output) = ctlpgn(&["replay", "-"], Some(text));
    assert!(output.contains("no PDTL: the position is not one a PDTL may hold (P010"), "{output}");
    let run = execute(&["pdtl", "-", "--ply", "3"], text.as_bytes(), Stdio::piped());
    assert_eq!(run.status, Some(1));
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("record 1: no PDTL: the position is not one a PDTL may hold (P010"),
        "{}",
        run.stderr
    );
}

#[test]
fn bad_arguments_are_usage_errors_with_status_2() {
    let file = example();
    let file = file.to_str().expect("a path");
    for arguments in [
        vec![],
        vec!["check", "--rules=yes", file],
        vec!["check", "--bogus", file],
        vec!["check", "--format", "xml", file],
        vec!["check"],
        vec!["fmt", "--separators", "fancy", file],
        vec!["fmt", "--check", "--check", file],
        vec!["replay", file, file],
        vec!["pdtl", file, "--ply", "3", "--ply", "4"],
        vec!["pdtl", file, "--at", "1:1", "--ply", "4"],
        vec!["pdtl", file, "--record", "1"],
        vec!["convert", "--minimal", "--fan", file],
        vec!["convert", "-i", file],
        vec!["convert", "--fan", "-i", "-"],
        vec!["check", "--max-input-size", "lots", file],
        vec!["sideways"],
    ] {
        let run = execute(&arguments, b"", Stdio::piped());
        assert_eq!(run.status, Some(2), "{arguments:?}: {}", run.stderr);
        assert_eq!(run.stdout, b"", "{arguments:?}");
        assert!(!run.stderr.is_empty(), "{arguments:?} says why");
    }
    let version = execute(&["--version"], b"", Stdio::piped());
    let expected = format!("ctlpgn {}\n", env!("CARGO_PKG_VERSION"));
    assert_eq!((version.status, version.stdout), (Some(0), expected.into_bytes()));
    for command in ["lsp", "check", "fmt", "replay", "convert", "pdtl"] {
        let help = execute(&[command, "--help"], b"", Stdio::piped());
        let text = String::from_utf8(help.stdout).expect("UTF-8 help");
        assert_eq!(help.status, Some(0), "{command} --help");
        assert!(text.contains(&format!("Usage: ctlpgn {command}")), "{text}");
    }
}

/// The words of the paragraph on the exit status, from `opening` up to its last sentence (on
/// a closed standard output), without their punctuation.
fn exit_status_words(text: &str, opening: &str) -> Vec<String> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = text.find(opening).expect("a paragraph on the exit status");
    let words: Vec<&str> = text[start..].split_whitespace().collect();
    let end = words
        .windows(2)
        .position(|pair| pair == ["A", "closed"])
        .expect("the paragraph's last sentence");
    words[..end]
        .iter()
        .map(|word| word.trim_matches(|c: char| "*`:;,.()".contains(c)).to_string())
        .collect()
}

#[test]
fn the_exit_status_paragraph_says_how_every_command_ends() {
    let help = execute(&["--help"], b"", Stdio::piped());
    let help = String::from_utf8(help.stdout).expect("UTF-8 help");
    let listed = &help[help.find("Commands:").expect("the commands")..];
    let commands: Vec<&str> = listed
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|command| !matches!(*command, "lsp" | "help"))
        .collect();
    assert_eq!(commands, ["check", "fmt", "replay", "convert", "pdtl", "board"]);
    let manual = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/commands.md"),
    )
    .expect("the manual's page of commands");
    for (what, text, opening) in [
        ("--help", &help, "Exit status:"),
        ("docs/commands.md", &manual, "Exit status, the same for every command"),
    ] {
        let words = exit_status_words(text, opening);
        for command in &commands {
            assert!(words.iter().any(|word| word == command), "{what} leaves {command} out");
        }
    }
    // What the paragraph says of the commands that read a record which does not replay.
    let broken = "[Variant \"C'escacs\"]\n1. E9-E13:\n*\n";
    for arguments in [
        vec!["check", "-"],
        vec!["replay", "-"],
        vec!["convert", "--minimal", "-"],
        vec!["pdtl", "-", "--ply", "0"],
        vec!["board", "-", "--at", "2:4", "--format", "text"],
    ] {
        let run = execute(&arguments, broken.as_bytes(), Stdio::piped());
        assert_eq!(run.status, Some(1), "{arguments:?}: {}", run.stderr);
    }
    // A place the file does not have is a usage error.
    for arguments in [vec!["pdtl", "-", "--ply", "1"], vec!["board", "-", "--at", "9:1"]] {
        let run = execute(&arguments, broken.as_bytes(), Stdio::piped());
        assert_eq!(run.status, Some(2), "{arguments:?}: {}", run.stderr);
    }
}

/// docs/commands.md's list of the records `fmt` leaves as they are, and what it formats
/// anyway: each record follows two blank lines, which formatting removes.
#[test]
fn fmt_leaves_exactly_the_records_the_manual_names() {
    let tags = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Demo\"]\n\n";
    let kept = [
        ("S001", "1. E7-E13, E21-E15 ]\n2. F8-F12:\n*\n"),
        ("S002", "[Lang en]\n\n1. E7-E13:\n*\n"),
        ("N002", "1. E7-E13, E21-E15\n{ good } F8\n2. F8-F12:\n*\n"),
        ("N003", "1. E7-E13, E21-E15\n2. F8-F12:\n*\n{ open\n"),
        ("M011", "1. E7-E13, E21-E15\n(1. E8-E12\n2. F8-F12:\n*\n"),
        ("S004", "1. E7-E13, E21-E15\n2. H6 -H12:\n*\n"),
        ("U+FEFF", "1. E7-E13, E21-E15\n\u{FEFF}2. F8-F12:\n*\n"),
    ];
    let variant_inside_a_line = format!(
        "{}1. E7-E13, E21-E15\n2. F8-F12:\n*\n",
        tags.replace("[Annotator \"Demo\"]", "[Annotator \"Demo\"] [Variant \"C'escacs\"]")
    );
    let kept = kept
        .map(|(what, movetext)| (what, format!("{tags}{movetext}")))
        .into_iter()
        .chain([("T003", variant_inside_a_line)]);
    for (what, record) in kept {
        let text = format!("\n\n{record}");
        let (status, output) = ctlpgn(&["fmt", "-"], Some(&text));
        assert_eq!((status, output.as_str()), (0, text.as_str()), "{what} is left as it is");
        let (_, found) = ctlpgn(&["check", "--format", "json", "-"], Some(&text));
        assert!(
            what == "U+FEFF" || found.contains(&format!("\"code\":\"{what}\"")),
            "{what}: {found}"
        );
    }
    let formatted = [
        ("S004", "1. E7E13, E21-E15\n2. F8-F12:\n*\n"),
        ("S005", "1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13xF16:\n*\n"),
        ("C003", "1. E7-E13, E21-E15\n2. F8-F13:\n*\n"),
        ("K001", "1. E7-E13, E21-E15\n2. E9-E11:\n*\n"),
        ("M011", "1. E7-E13, E21-E15\n2. F8-F12:\n)\n*\n"),
        ("S011", "1. E7-E13, E21-E15\n2.\n*\n"),
    ];
    for (what, movetext) in formatted {
        let text = format!("\n\n{tags}{movetext}");
        let (status, output) = ctlpgn(&["fmt", "-"], Some(&text));
        assert_eq!(status, 0, "{what}");
        assert!(output.starts_with("[Variant"), "{what} is formatted: {output:?}");
        let (_, found) = ctlpgn(&["check", "--format", "json", "-"], Some(&text));
        assert!(found.contains(&format!("\"code\":\"{what}\"")), "{what}: {found}");
    }
}

#[test]
fn fmt_never_loses_a_byte_order_mark_past_the_start() {
    let folder = scratch("byte-order-mark");
    for text in ["\n\u{FEFF}", "\u{FEFF}\n", "\u{FEFF}\n\u{FEFF}", "\r\u{FEFF}", "\n\n\u{FEFF}\n"] {
        let formatted = execute(&["fmt", "-"], text.as_bytes(), Stdio::piped());
        assert_eq!((formatted.status, formatted.stdout), (Some(0), text.as_bytes().to_vec()));
        let path = folder.join("game.ctl-pgn");
        std::fs::write(&path, text).expect("written");
        let in_place = execute(&["fmt", path.to_str().expect("a path")], b"", Stdio::piped());
        assert_eq!(in_place.status, Some(0), "{}", in_place.stderr);
        assert_eq!(std::fs::read_to_string(&path).expect("readable"), text, "{text:?}");
    }
    std::fs::remove_dir_all(&folder).expect("cleaned");
}

#[test]
fn check_output_per_diagnostic_stays_bounded_on_a_long_line() {
    // A stray `)` is a diagnostic each; the whole line under each made the output quadratic.
    let mut sizes = Vec::new();
    for length in [2_000, 8_000] {
        let text =
            format!("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n{}\n*\n", ")".repeat(length));
        let run = execute(&["check", "-"], text.as_bytes(), Stdio::piped());
        assert_eq!(run.status, Some(1), "{}", run.stderr);
        let output = String::from_utf8(run.stdout).expect("UTF-8");
        // A hundred of one part of the record are listed, and one S015 counts the rest.
        let diagnostics = output.lines().filter(|line| line.starts_with("-:")).count();
        assert!(diagnostics > 100, "{diagnostics} diagnostics for {length} `)`");
        assert!(output.contains("[diagnostics-truncated]"), "{output}");
        assert!(
            output.len() / diagnostics < 400,
            "{} bytes per diagnostic",
            output.len() / diagnostics
        );
        let excerpt = output.lines().find(|line| line.starts_with("3 | ")).expect("an excerpt");
        assert!(excerpt.chars().count() <= 110 && excerpt.ends_with('…'), "{excerpt}");
        sizes.push(output.len());
    }
    assert!(sizes[1] < sizes[0] * 5, "output grows linearly: {sizes:?}");
}

#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    // The reader of standard output is gone before the command writes (it reads its whole
    // input first): the command must stop with status 0 and say nothing, like `rg | head`.
    let file = example();
    let file = file.to_str().expect("a path");
    let text = std::fs::read_to_string(example()).expect("the example");
    let many = text.repeat(200);
    for arguments in [
        vec!["check", "-"],
        vec!["check", "--format", "json", "-"],
        vec!["replay", "-"],
        vec!["replay", "--json", "-"],
        vec!["fmt", "-"],
        vec!["convert", "--minimal", "-"],
        vec!["pdtl", "-", "--ply", "0"],
        vec!["--help"],
        vec!["check", "--help"],
        vec!["--version"],
        vec!["fmt", "--check", file, file],
    ] {
        let input = if arguments == ["pdtl", "-", "--ply", "0"] { &text } else { &many };
        // Unanalysable text still gives `check` plenty to say.
        let input = if arguments[0] == "check" {
            format!("{input}{}", ")".repeat(5_000))
        } else {
            input.clone()
        };
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let run = execute(&arguments, input.as_bytes(), Stdio::from(writer));
        assert_eq!(run.status, Some(0), "{arguments:?}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{arguments:?}");
    }
}

#[test]
fn a_full_disk_on_standard_output_is_one_message_and_status_2() {
    let text = std::fs::read_to_string(example()).expect("the example");
    let many = text.repeat(50);
    for arguments in [
        vec!["check", "-"],
        vec!["replay", "-"],
        vec!["fmt", "-"],
        vec!["convert", "--minimal", "-"],
        vec!["pdtl", "-", "--ply", "0"],
        vec!["--help"],
        vec!["pdtl", "--help"],
        vec!["--version"],
    ] {
        let input = match arguments[0] {
            "pdtl" => text.clone(),
            // Unanalysable text gives `check` plenty to say.
            "check" => format!("{many}{}", ")".repeat(5_000)),
            _ => many.clone(),
        };
        let full = std::fs::File::options().write(true).open("/dev/full").expect("/dev/full");
        let run = execute(&arguments, input.as_bytes(), Stdio::from(full));
        assert_eq!(run.status, Some(2), "{arguments:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{arguments:?}: {}", run.stderr);
        assert!(run.stderr.contains("standard output"), "{}", run.stderr);
    }
}

#[test]
fn inputs_past_the_size_limit_are_refused_without_reading_on() {
    let folder = scratch("size-limit");
    let path = folder.join("big.ctl-pgn");
    std::fs::write(&path, unformatted_records(5_000)).expect("written");
    let path = path.to_str().expect("a path");
    for arguments in [
        vec!["check", "--max-input-size", "4K", path],
        vec!["fmt", path, "--max-input-size", "4096"],
        vec!["replay", path, "--max-input-size", "4K"],
        vec!["convert", "--fan", path, "--max-input-size", "4K"],
        vec!["pdtl", path, "--ply", "0", "--max-input-size", "4K"],
    ] {
        let run = execute(&arguments, b"", Stdio::piped());
        assert_eq!(run.status, Some(2), "{arguments:?}");
        assert!(
            run.stderr.contains(path) && run.stderr.contains("--max-input-size"),
            "{}",
            run.stderr
        );
    }
    // Standard input, and a device that never ends.
    let run = execute(&["check", "--max-input-size", "1K", "-"], &[b' '; 100_000], Stdio::piped());
    assert_eq!(run.status, Some(2));
    assert!(run.stderr.contains("-: larger than 1024 bytes"), "{}", run.stderr);
    let run = execute(&["check", "--max-input-size", "1M", "/dev/zero"], b"", Stdio::piped());
    assert_eq!(run.status, Some(2));
    assert!(run.stderr.contains("/dev/zero"), "{}", run.stderr);
    std::fs::remove_dir_all(&folder).expect("cleaned");
}

/// `board --format png` draws a picture twice the SVG's size, and `-o` writes the file (with
/// the png feature, on by default).
#[cfg(feature = "png")]
#[test]
fn board_draws_a_png_twice_the_size_of_the_svg() {
    let example = example();
    let example = example.to_str().expect("a UTF-8 path");
    let (status, svg) = ctlpgn(&["board", example, "--ply", "3"], None);
    assert_eq!(status, 0);
    let folder = scratch("board-png");
    let png = folder.join("after-ply-3.png");
    let run = execute(
        &["board", example, "--ply", "3", "--format", "png", "-o", png.to_str().expect("path")],
        b"",
        Stdio::piped(),
    );
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let bytes = std::fs::read(&png).expect("the PNG is written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(bytes[16..20].try_into().expect("IHDR width"));
    let svg_width: u32 = svg
        .split("width=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|width| width.parse().ok())
        .expect("the SVG's width");
    assert_eq!(width, 2 * svg_width);
    let _ = std::fs::remove_dir_all(&folder);
}

/// Without the png feature (the VS Code extension's server), `board --format png` says that
/// this build has no PNG, before reading anything, and exits with 2; so does its help. CI runs
/// it: `cargo test -p ctlpgn --no-default-features --test cli board`.
#[cfg(not(feature = "png"))]
#[test]
fn board_without_the_png_feature_says_it_draws_no_png() {
    let example = example();
    let example = example.to_str().expect("a UTF-8 path");
    for file in [example, "no-such-file.ctl-pgn"] {
        let run = execute(&["board", file, "--ply", "3", "--format", "png"], b"", Stdio::piped());
        assert_eq!(run.status, Some(2), "{}", run.stderr);
        assert!(run.stderr.contains("this build of ctlpgn has no PNG"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let (status, help) = ctlpgn(&["board", "--help"], None);
    assert_eq!(status, 0);
    assert!(help.contains("png:  Not in this build of ctlpgn"), "{help}");
    let (status, svg) = ctlpgn(&["board", example, "--ply", "3"], None);
    assert_eq!((status, svg.matches("data-mark=\"destination\"").count()), (0, 1));
}

/// `board` draws the position at a place: the SVG holds the pieces of the position the PDTL
/// names, the text picture is the hover's; a place without a position writes nothing.
#[test]
fn board_draws_the_position_at_a_place_as_svg_png_or_text() {
    let example = example();
    let example = example.to_str().expect("a UTF-8 path");
    let (status, svg) = ctlpgn(&["board", example, "--ply", "3"], None);
    assert_eq!(status, 0);
    let (_, pdtl) = ctlpgn(&["pdtl", example, "--ply", "3"], None);
    let pieces_in_pdtl = pdtl
        .split(' ')
        .next()
        .unwrap_or_default()
        .split('/')
        .filter_map(|segment| segment.split_once(':'))
        .flat_map(|(_, run)| run.chars().filter(|ch| ch.is_ascii_alphabetic()))
        .count();
    assert!(pieces_in_pdtl > 40, "{pdtl}");
    assert_eq!(svg.matches("data-piece=").count(), pieces_in_pdtl);
    assert_eq!(svg.matches("data-mark=\"destination\"").count(), 1, "the half-move is marked");
    let (_, flipped) = ctlpgn(&["board", example, "--ply", "3", "--flip"], None);
    assert_ne!(flipped, svg);
    let (status, text) = ctlpgn(&["board", example, "--ply", "3", "--format", "text"], None);
    assert_eq!(status, 0);
    assert!(text.lines().count() >= 29 && text.contains('·'), "{text}");
    // The picture, then whose turn it is and the PDTL whole on its last line, as `pdtl` prints it.
    assert!(text.ends_with(&format!("\n\nBlack to move. PDTL:\n{pdtl}")), "{text}");
    assert_eq!(pdtl.lines().count(), 1, "{pdtl}");

    let (status, from_pdtl) = ctlpgn(&["board", "--pdtl", pdtl.trim()], None);
    assert_eq!(status, 0);
    assert_eq!(from_pdtl.matches("data-piece=").count(), pieces_in_pdtl);
    // A PDTL in FAN figurines is read as FAN.
    let fan = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/examples/04-fan.ctl-pgn");
    let (_, fan_pdtl) = ctlpgn(&["pdtl", fan.to_str().expect("path"), "--ply", "2"], None);
    assert!(fan_pdtl.contains('♜'), "{fan_pdtl}");
    let (status, from_fan) = ctlpgn(&["board", "--pdtl", fan_pdtl.trim()], None);
    assert_eq!(status, 0);
    assert_eq!(from_fan.matches("data-piece=").count(), pieces_in_pdtl);
    let run = execute(&["board", "--pdtl", "/0:K/ w"], b"", Stdio::piped());
    assert_eq!(run.status, Some(1));
    assert!(
        run.stdout.is_empty() && run.stderr.contains("the PDTL has no position"),
        "{}",
        run.stderr
    );

    // A record that does not replay: nothing is drawn or written.
    let folder = scratch("board");
    let broken = "[Variant \"C'escacs\"]\n\n1. E7-E13, NE21×JF15:\n*\n";
    let out = folder.join("never.svg");
    let run = execute(
        &["board", "-", "--ply", "1", "-o", out.to_str().expect("path")],
        broken.as_bytes(),
        Stdio::piped(),
    );
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("does not replay"), "{}", run.stderr);
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&folder);
}

/// A record whose text would act on a terminal: a label hiding what follows (`ESC [8m`), a
/// comment setting the window title (`ESC ]0;… BEL`), and a line clearing the screen.
const ESCAPES: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Demo\"]\n\n1. E7-E13:\n($[\u{1b}[8m] 1. G7-G13)\n{ \u{1b}]0;pwned\u{7} }\n*\n\u{1b}[2J\n";

/// Whether `output` holds a character that acts on a terminal (a tab only moves).
fn holds_controls(output: &str) -> bool {
    output.chars().any(|c| c.is_control() && c != '\t' && c != '\n')
}

#[test]
fn terminal_output_shows_the_control_characters_of_a_record_visibly() {
    let check = execute(&["check", "-"], ESCAPES.as_bytes(), Stdio::piped());
    let printed = String::from_utf8(check.stdout).expect("UTF-8");
    assert!(!holds_controls(&printed), "{printed:?}");
    assert!(printed.contains("malformed variation label $[␛[8m]"), "{printed}");
    // The carets stay under what they point at, the stand-ins one column each.
    let lines: Vec<&str> = printed.lines().collect();
    let at = lines.iter().position(|line| line.contains("[unexpected-token]")).expect("an S001");
    assert_eq!((lines[at + 2], lines[at + 3]), ("9 | ␛[2J", "  | ^"));
    let tag = lines.iter().position(|line| line.contains("[malformed-tag-line]")).expect("S002");
    assert_eq!((lines[tag + 2], lines[tag + 3]), ("9 | ␛[2J", "  |  ^"));

    let replay = execute(&["replay", "-"], ESCAPES.as_bytes(), Stdio::piped());
    let printed = String::from_utf8(replay.stdout).expect("UTF-8");
    assert!(!holds_controls(&printed) && printed.contains("$[␛[8m]"), "{printed}");

    // Messages on standard error too.
    let pdtl = execute(&["pdtl", "-", "--ply", "1"], ESCAPES.as_bytes(), Stdio::piped());
    assert_eq!(pdtl.status, Some(1));
    assert!(!holds_controls(&pdtl.stderr) && pdtl.stderr.contains("$[␛[8m]"), "{}", pdtl.stderr);

    // JSON escapes by itself, and keeps the text as it is.
    let json = execute(&["check", "--format", "json", "-"], ESCAPES.as_bytes(), Stdio::piped());
    let findings: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert!(findings.to_string().contains("$[\\u001b[8m]"), "{findings}");
}
