//! `ctlpgn check` and `ctlpgn fmt` print the same with the hand-written record reader and with
//! tree-sitter alone (`CTLPGN_READER=tree-sitter`), on every record file of the repository and
//! on white space the two could read differently. The readers themselves are compared record
//! by record in the core (core/tests/reader.rs).

use std::path::Path;

use ctlpgn_test_support::fixtures::record_files;

/// `ctlpgn CMD ARGS` with standard input `input`, reading records as `reader` says.
fn run_with_reader(args: &[&str], input: &str, reader: Option<&str>) -> std::process::Output {
    use std::io::Write;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.args(args);
    match reader {
        Some(value) => command.env("CTLPGN_READER", value),
        None => command.env_remove("CTLPGN_READER"),
    };
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ctlpgn runs");
    let mut stdin = child.stdin.take().expect("a standard input");
    stdin.write_all(input.as_bytes()).expect("ctlpgn reads");
    drop(stdin);
    child.wait_with_output().expect("ctlpgn ends")
}

#[test]
fn a_vertical_tab_reads_alike_both_ways_and_fmt_keeps_a_record_with_a_syntax_error_as_written() {
    // U+000B in a label is text, not white space: a malformed label (M020) both ways. In a move
    // line it is an unexpected token (S001) both ways, and that record is kept as written.
    let label =
        "[Variant \"C'escacs\"]\n[Id \"V1\"]\n\n1.  E7-E13,  E21-E15\n($[\u{B}]  1. G7-G13)\n*\n\n";
    let move_line = "[Variant \"C'escacs\"]\n[Id \"V2\"]\n\n1.\u{B}E7-E13,  E21-E15\n*\n";
    let text = format!("{label}{move_line}");
    let check = |reader| run_with_reader(&["check", "--format", "json", "-"], &text, reader);
    let (fast, tree) = (check(None), check(Some("tree-sitter")));
    assert_eq!(String::from_utf8_lossy(&fast.stdout), String::from_utf8_lossy(&tree.stdout));
    let findings: serde_json::Value = serde_json::from_slice(&fast.stdout).expect("JSON");
    let codes: Vec<&str> = findings
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|finding| finding["code"].as_str())
        .filter(|code| code.starts_with('S') || *code == "M020")
        .collect();
    assert_eq!(codes, ["M020", "S011", "S001"], "{findings}");

    let fmt = |reader| run_with_reader(&["fmt", "-"], &text, reader);
    let (fast, tree) = (fmt(None), fmt(Some("tree-sitter")));
    assert_eq!(fast.stdout, tree.stdout);
    let formatted = String::from_utf8(fast.stdout).expect("UTF-8");
    assert!(formatted.ends_with(move_line), "kept as written: {formatted:?}");
    assert!(formatted.contains("\n1. E7-E13, E21-E15\n($[\u{B}] 1. G7-G13)\n"), "{formatted:?}");
}

// ---- The whole command both ways ----------------------------------------------------------

fn check_json(path: &Path, rules: bool, reader: Option<&str>) -> std::process::Output {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command.arg("check").arg("--format").arg("json");
    if rules {
        command.arg("--rules");
    }
    command.arg(path);
    match reader {
        Some(value) => command.env("CTLPGN_READER", value),
        None => command.env_remove("CTLPGN_READER"),
    };
    command.output().expect("ctlpgn runs")
}

#[test]
fn check_prints_the_same_json_with_the_reader_and_with_tree_sitter_alone() {
    let files = record_files();
    let mut with_findings = 0;
    for path in &files {
        for rules in [false, true] {
            let fast = check_json(path, rules, None);
            let tree = check_json(path, rules, Some("tree-sitter"));
            assert_eq!(
                String::from_utf8_lossy(&fast.stdout),
                String::from_utf8_lossy(&tree.stdout),
                "{} (rules: {rules})",
                path.display()
            );
            assert_eq!(fast.status.code(), tree.status.code(), "{}", path.display());
            with_findings += usize::from(fast.stdout.len() > 2);
        }
    }
    // The comparison covers files with findings, not only clean ones.
    assert!(with_findings > 20, "files with findings: {with_findings}");
}
