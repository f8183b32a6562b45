//! What `check --fix` writes is in `fmt`'s layout (#43 A8): on every record of
//! `testdata/diagnostics` laid out by `fmt` first, in LF and in CRLF, `check --fix` then
//! `fmt --check` lists no file. The S008 fix writes the rating one space after its move as the
//! handbook does (§6.8), and the M006 and T001 fixes write the record's own line ending.

mod command;

use std::process::Stdio;

use command::{execute, scratch, Run};
use ctlpgn_test_support::fixtures::testdata_files;

fn ctlpgn(arguments: &[&str]) -> Run {
    execute(arguments, b"", Stdio::piped())
}

#[test]
fn check_fix_then_fmt_check_lists_nothing_in_lf_and_crlf() {
    for (ending, eol) in [("lf", "\n"), ("crlf", "\r\n")] {
        let root = scratch(&format!("fix-layout-{ending}"));
        let mut count = 0;
        for path in testdata_files("diagnostics", "ctl-pgn") {
            // S000's file is not UTF-8, which fmt refuses for the whole run.
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let text = text.replace("\r\n", "\n").replace('\n', eol);
            std::fs::write(root.join(path.file_name().expect("a name")), text).expect("written");
            count += 1;
        }
        assert!(count > 100, "{count} records");
        let folder = root.to_str().expect("UTF-8");
        let laid_out = ctlpgn(&["fmt", folder]);
        assert_eq!(laid_out.status, Some(0), "{ending}: {}", laid_out.stderr);
        let fixed = ctlpgn(&["check", "--fix", folder]);
        assert!(fixed.stderr.contains("; fixed "), "{ending}: {}", fixed.stderr);
        let checked = ctlpgn(&["fmt", "--diff", folder]);
        let diff = String::from_utf8_lossy(&checked.stdout);
        assert_eq!(
            checked.status,
            Some(0),
            "{ending}: check --fix left these out of fmt's layout:\n{diff}"
        );
        std::fs::remove_dir_all(&root).expect("removed");
    }
}

/// Two fixes that together would open a second record (T001's Variant tag added before a
/// misspelt `[ariant` tag, and T004's renaming of it to Variant; found by the fuzzer's `walk`
/// mode) are not made: the file keeps its one record, and its layout.
#[test]
fn fixes_that_would_open_another_record_are_not_made() {
    let root = scratch("fix-one-record");
    let text = "[ariant \"C'escacs\"]\n[Round \"14\"]\n[Site \"?\"]\n";
    let path = root.join("game.ctl-pgn");
    std::fs::write(&path, text).expect("written");
    let path = path.to_str().expect("UTF-8");
    let fixed = ctlpgn(&["check", "--fix", path]);
    assert_eq!(fixed.status, Some(1), "{}", fixed.stderr);
    assert!(!fixed.stderr.contains("fixed"), "{}", fixed.stderr);
    let laid_out = ctlpgn(&["fmt", "--check", path]);
    assert_eq!(laid_out.status, Some(0), "{:?}", String::from_utf8_lossy(&laid_out.stdout));
    assert_eq!(std::fs::read_to_string(path).expect("read"), text);
    std::fs::remove_dir_all(&root).expect("removed");
}
