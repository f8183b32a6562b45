//! `ctlpgn fmt` as a process: files rewritten in place and listed by `--check`, standard input
//! to standard output, invalid UTF-8 and bad options refused with nothing written. The
//! formatter itself is tested in the core (core/tests/format.rs).

use std::path::PathBuf;

use ctlpgn_core::format::{format_text, EllipsisStyle, FormatOptions, Separators};

const MESSY: &str = "[Variant \"C'escacs\"]\n[White  \"Vidàl, Marc\"]\n1.E7-E13,E21-E15 2. F8‐F12 ,F20-F16\n3. E13×F16 :\n*\n";

fn all_options() -> [FormatOptions; 3] {
    [
        FormatOptions::default(),
        FormatOptions { separators: Separators::Unicode, ellipsis: EllipsisStyle::Unicode },
        FormatOptions { separators: Separators::Ascii, ellipsis: EllipsisStyle::Ascii },
    ]
}

/// Runs `ctlpgn fmt` with arguments and standard input: exit status, output, error output.
fn ctlpgn_fmt(arguments: &[&str], input: Option<&[u8]>) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
        .arg("fmt")
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctlpgn runs");
    // A command that exits without reading its input closes the pipe: that is no failure here.
    let _ = child.stdin.take().expect("stdin").write_all(input.unwrap_or_default());
    let output = child.wait_with_output().expect("ctlpgn ends");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).to_string(),
        stderr,
    )
}

fn temporary_folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("ctlpgn-fmt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a temporary folder");
    folder
}

#[test]
fn fmt_rewrites_files_in_place_and_check_lists_them() {
    let folder = temporary_folder("files");
    let messy = folder.join("messy.ctl-pgn");
    let clean = folder.join("clean.ctl-pgn");
    std::fs::write(&messy, MESSY).expect("written");
    let canonical = format_text(MESSY, &FormatOptions::default());
    std::fs::write(&clean, &canonical).expect("written");
    let (messy_name, clean_name) =
        (messy.to_str().expect("a path"), clean.to_str().expect("a path"));
    let clean_modified = std::fs::metadata(&clean).and_then(|m| m.modified()).expect("a time");

    let (status, stdout, _) = ctlpgn_fmt(&["--check", messy_name, clean_name], None);
    assert_eq!((status, stdout.as_str()), (1, format!("{messy_name}\n").as_str()));
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), MESSY, "--check wrote a file");

    let (status, _, _) = ctlpgn_fmt(&[messy_name, clean_name], None);
    assert_eq!(status, 0);
    assert_eq!(std::fs::read_to_string(&messy).expect("read"), canonical);
    assert_eq!(
        std::fs::metadata(&clean).and_then(|m| m.modified()).expect("a time"),
        clean_modified,
        "an unchanged file was rewritten"
    );
    let (status, stdout, _) = ctlpgn_fmt(&["--check", messy_name, clean_name], None);
    assert_eq!((status, stdout.as_str()), (0, ""));

    let (status, _, _) = ctlpgn_fmt(&["--separators", "unicode", messy_name], None);
    assert_eq!(status, 0);
    assert!(std::fs::read_to_string(&messy).expect("read").contains("1. E7‐E13, E21‐E15"));
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn fmt_formats_standard_input_to_standard_output() {
    let (status, stdout, _) = ctlpgn_fmt(&["--separators=ascii", "-"], Some(MESSY.as_bytes()));
    assert_eq!(status, 0);
    assert_eq!(stdout, format_text(MESSY, &all_options()[2]));
}

#[test]
fn fmt_refuses_invalid_utf8_and_bad_options_and_writes_nothing() {
    let folder = temporary_folder("invalid");
    let good = folder.join("good.ctl-pgn");
    let bad = folder.join("bad.ctl-pgn");
    std::fs::write(&good, MESSY).expect("written");
    std::fs::write(&bad, b"[Variant \"C'escacs\"]\n[White \"Vid\xE0l\"]\n").expect("written");
    let (good_name, bad_name) = (good.to_str().expect("a path"), bad.to_str().expect("a path"));
    // A file that is not UTF-8 is a finding (S000), status 1, as in every command.
    let (status, _, stderr) = ctlpgn_fmt(&[good_name, bad_name], None);
    assert_eq!(status, 1);
    assert!(stderr.contains("not valid UTF-8"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&good).expect("read"),
        MESSY,
        "a file was written despite the error"
    );
    let (status, stdout, _) = ctlpgn_fmt(&["-"], Some(b"[Variant \"\xFF\"]\n"));
    assert_eq!((status, stdout.as_str()), (1, ""));
    for arguments in [&["--separators", "fancy", good_name][..], &["--frobnicate", good_name], &[]]
    {
        let (status, _, _) = ctlpgn_fmt(arguments, None);
        assert_eq!(status, 2, "{arguments:?}");
    }
    let _ = std::fs::remove_dir_all(&folder);
}
