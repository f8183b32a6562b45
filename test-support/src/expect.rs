//! Files that hold what a test must produce (the fixtures' `.expected` sidecars, the generated
//! page of codes), with a bless mode: run with `UPDATE_EXPECT=1`, a test rewrites every such
//! file that differs and passes; without it, a difference fails the test with the diff and the
//! command that rewrites the files. Review the rewritten files with `git diff` before a commit.

use std::path::{Path, PathBuf};

use crate::fixtures::repository_dir;

/// Whether this run rewrites the expected files (`UPDATE_EXPECT` set, and not to `0`).
pub fn blessing() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some_and(|value| !value.is_empty() && value != "0")
}

/// The command that runs this test binary again rewriting its expected files, e.g.
/// `UPDATE_EXPECT=1 cargo test -p ctlpgn-core --test comments`.
pub fn bless_command() -> String {
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "<package>".to_string());
    let binary = std::env::current_exe()
        .ok()
        .and_then(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
        .map(|stem| stem.rsplit_once('-').map_or(stem.clone(), |(name, _)| name.to_string()));
    let target = match binary {
        // The unit tests of a library are named after the crate.
        Some(name) if name == package.replace('-', "_") => "--lib".to_string(),
        Some(name) => format!("--test {name}"),
        None => String::new(),
    };
    format!("UPDATE_EXPECT=1 cargo test -p {package} {target}").trim_end().to_string()
}

/// The expected files a test compares, each difference kept so that one run reports, or
/// rewrites, them all. [`ExpectFiles::finish`] fails the test if any differed; dropping the
/// value without finishing fails it too, so that no comparison is silently lost.
#[derive(Debug)]
#[must_use = "finish() reports the differences"]
pub struct ExpectFiles {
    /// Whether differing files are rewritten rather than reported.
    bless: bool,
    differences: Vec<String>,
    written: Vec<PathBuf>,
    finished: bool,
}

impl ExpectFiles {
    /// Comparisons that rewrite the files when this run is [`blessing`].
    pub fn new() -> ExpectFiles {
        ExpectFiles::with_bless(blessing())
    }

    fn with_bless(bless: bool) -> ExpectFiles {
        ExpectFiles { bless, differences: Vec::new(), written: Vec::new(), finished: false }
    }

    /// Compares `actual` with the file at `path` (a missing file reads as empty); when
    /// blessing, writes it there if it differs.
    pub fn check(&mut self, path: &Path, actual: &str) {
        let expected = std::fs::read_to_string(path).unwrap_or_default();
        self.compare(path, &expected, "", actual);
    }

    /// As [`check`](ExpectFiles::check) for a file that opens with notes a person wrote about
    /// the fixture (its first lines starting with `#`): those are kept when the file is
    /// rewritten, and only what follows them is compared.
    pub fn check_after_notes(&mut self, path: &Path, actual: &str) {
        let written = std::fs::read_to_string(path).unwrap_or_default();
        let notes: usize = written
            .split_inclusive('\n')
            .take_while(|line| line.starts_with('#'))
            .map(str::len)
            .sum();
        let (notes, expected) = written.split_at(notes);
        self.compare(path, expected, notes, actual);
    }

    fn compare(&mut self, path: &Path, expected: &str, notes: &str, actual: &str) {
        if expected == actual {
            return;
        }
        if self.bless {
            std::fs::write(path, format!("{notes}{actual}"))
                .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
            self.written.push(path.to_path_buf());
            return;
        }
        let diff = similar::TextDiff::from_lines(expected, actual)
            .unified_diff()
            .context_radius(2)
            .header(&shown(path), "what the test produced")
            .to_string();
        self.differences.push(diff);
    }

    /// Fails the test when a file differed, with every diff and the command that rewrites
    /// them; reports the files a blessing run rewrote.
    pub fn finish(mut self) {
        self.finished = true;
        for path in &self.written {
            eprintln!("rewrote {}", shown(path));
        }
        if !self.differences.is_empty() {
            panic!(
                "{} expected file(s) differ from what the test produced:\n\n{}\n\nIf the change \
                 is intended, rewrite them with `{}` and review the diff.",
                self.differences.len(),
                self.differences.join("\n"),
                bless_command()
            );
        }
    }
}

impl Default for ExpectFiles {
    fn default() -> ExpectFiles {
        ExpectFiles::new()
    }
}

/// A path as the repository names it, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(repository_dir()).unwrap_or(path).display().to_string()
}

impl Drop for ExpectFiles {
    fn drop(&mut self) {
        if !self.finished && !std::thread::panicking() {
            panic!("ExpectFiles dropped without finish(): its comparisons would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of a scratch folder of its own, removed with the returned guard.
    fn scratch(name: &str, text: &str) -> (PathBuf, Scratch) {
        let dir = std::env::temp_dir().join(format!("ctlpgn-expect-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("a scratch file");
        (path, Scratch(dir))
    }

    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn a_difference_fails_with_its_diff_and_the_command_that_rewrites_it() {
        let (path, _scratch) = scratch("differs.expected", "# a note\nold line\n");
        let mut files = ExpectFiles::with_bless(false);
        files.check_after_notes(&path, "old line\n");
        files.check(&path, "# a note\nnew line\n");
        let failure = std::panic::catch_unwind(move || files.finish()).expect_err("a failure");
        let message = failure.downcast_ref::<String>().expect("a message");
        assert!(message.starts_with("1 expected file(s) differ"), "{message}");
        assert!(message.contains("-old line\n+new line\n"), "{message}");
        assert!(
            message.contains("`UPDATE_EXPECT=1 cargo test -p ctlpgn-test-support --lib`"),
            "{message}"
        );
    }

    #[test]
    fn blessing_rewrites_what_differs_and_keeps_the_notes() {
        let (path, _scratch) = scratch("blessed.expected", "# a note\n# another\nold line\n");
        let mut files = ExpectFiles::with_bless(true);
        files.check_after_notes(&path, "new line\n");
        files.finish();
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "# a note\n# another\nnew line\n"
        );
    }

    #[test]
    fn comparisons_dropped_unfinished_fail() {
        let dropped = std::panic::catch_unwind(|| drop(ExpectFiles::with_bless(false)));
        assert!(dropped.is_err());
    }
}
