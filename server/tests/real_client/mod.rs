//! What the tests that drive a real editor (Neovim, Emacs) share: the repository's folder, a
//! work folder per run, running the editor to its end with a bound that is only a guard
//! against a hang, and the command line's answers to compare the editor's with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long one editor run may take before it is killed and the test fails.
pub const PATIENCE: Duration = Duration::from_secs(180);

/// The repository's root folder.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the server crate is in the repository")
        .to_path_buf()
}

/// A fresh folder under cargo's temporary folder for one run; removed when dropped.
pub struct WorkFolder(pub PathBuf);

impl WorkFolder {
    /// A folder of its own for each call, even of one test with one name: an editor killed at
    /// the end of one run may still be writing its state while the next run starts (a Neovim
    /// that was killed has been seen writing its shada file into its removed folder).
    pub fn new(name: &str) -> WorkFolder {
        static FOLDERS: AtomicUsize = AtomicUsize::new(0);
        let number = FOLDERS.fetch_add(1, Ordering::Relaxed);
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{name}-{}-{number}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a work folder");
        WorkFolder(path)
    }
}

impl Drop for WorkFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs an editor's `command` to its end, killing it after `PATIENCE`; `install` says how to
/// get the editor when it cannot be started (a missing editor fails the test, never skips it).
pub fn run_with_patience(command: &mut Command, what: &str, install: &str) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{what} could not be started ({error}); {install}"));
    let started = Instant::now();
    loop {
        if child.try_wait().expect("the child can be waited for").is_some() {
            return child.wait_with_output().expect("the output of the child");
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let output = child.wait_with_output().expect("the output of the killed child");
            panic!(
                "{what} did not finish within {PATIENCE:?}\nstdout: {}\nstderr: {}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The canonical PDTL after the half-move written `written` in the main line of `file`.
pub fn pdtl_after(file: &Path, written: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
        .arg("replay")
        .arg("--json")
        .arg(file)
        .output()
        .expect("ctlpgn replay runs");
    let record: Value =
        serde_json::from_slice(output.stdout.split(|&b| b == b'\n').next().unwrap_or_default())
            .expect("a JSON record");
    let plies = record["plies"].as_array().expect("the plies of the record");
    let ply = plies
        .iter()
        .find(|ply| ply["move"] == written)
        .unwrap_or_else(|| panic!("{written} is replayed"));
    ply["pdtl"].as_str().expect("a PDTL").to_string()
}

/// Runs the ctlpgn binary with `input` on standard input; returns standard output.
pub fn ctlpgn(args: &[&str], input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ctlpgn runs");
    child
        .stdin
        .take()
        .expect("a standard input")
        .write_all(input.as_bytes())
        .expect("ctlpgn reads its input");
    let output = child.wait_with_output().expect("ctlpgn finishes");
    String::from_utf8(output.stdout).expect("UTF-8 output")
}
