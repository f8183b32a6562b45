//! The `ctlpgn` binary end to end: `check` prints located diagnostics with excerpts and sets
//! the exit status, `--format json` and `replay --json` print what the README promises.

use std::path::PathBuf;
use std::process::Command;

fn ctlpgn(arguments: &[&str], input: Option<&str>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.args(arguments);
    let output = if let Some(input) = input {
        use std::io::Write;
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
