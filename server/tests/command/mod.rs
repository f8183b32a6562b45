//! Running the `ctlpgn` binary as a user does, and the scratch folders and texts the command
//! tests share (`cli.rs`, `writes.rs`); each uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a run of the binary gave: status (`None` when a signal ended it) and both outputs.
#[derive(Debug)]
pub struct Run {
    pub status: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs the binary with `input` on standard input (written from a thread, a closed pipe
/// ignored: the binary may stop reading early) and standard output sent to `stdout`.
pub fn execute(arguments: &[&str], input: &[u8], stdout: Stdio) -> Run {
    run(Command::new(env!("CARGO_BIN_EXE_ctlpgn")).args(arguments), input, stdout)
}

/// [`execute`] for a command the caller has set up further (another user, another folder).
pub fn run(command: &mut Command, input: &[u8], stdout: Stdio) -> Run {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctlpgn runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("ctlpgn ends");
    writer.join().expect("the writer ends");
    Run {
        status: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A new, empty folder for one test.
pub fn scratch(test: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("ctlpgn-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("a scratch folder");
    folder
}

/// The names in a folder, sorted.
pub fn names_in(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .expect("readable")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A record the formatter changes (the spacing after the move number), repeated to `size`.
pub fn unformatted_records(size: usize) -> String {
    let record = "[Variant \"C'escacs\"]\n1.  E7-E13, E21-E15\n2.  F8-F12, F20-F16:\n*\n\n";
    record.repeat(size / record.len() + 1)
}
