//! `walk` mode: the command line's walk of folders and its writes, run as a user runs them. Each
//! case makes a home folder of dotfiles (its `.gitignore` holding `*`, no repository) with a
//! tree of games under it (records of the seeds, mutated), sometimes a Git repository around
//! them and global excludes of `*`, sometimes an `.ignore` of `*` above them; names them in
//! overlapping ways (a folder and a file in it, two folders one inside the other, a file and a
//! link to it); swaps a file for a link to a secret file outside the folder while `check`
//! runs; then runs `check --fix` and `fmt --check` on what was fixed. The promises: no stray
//! `NAME.ctlpgn-new` or temporary file, no false "changed by another program", a folder that
//! gives nothing is an error and never a clean pass, the secret never shown, and what
//! `--fix` wrote is in `fmt`'s layout (`fix-layout`). The `ctlpgn` binary is the one beside the
//! fuzzer (`cargo build --release -p ctlpgn -p ctlpgn-fuzz`), or `CTLPGN_BIN`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use ctlpgn_test_support::rng::Rng;

use crate::finding::{save, signature, Finding};
use crate::mutate::mutate;
use crate::seeds::Seeds;
use crate::{Budget, Options};

/// What the secret file outside the folder holds: it must never be printed.
const SECRET: &str = "SECRET-OUTSIDE-THE-FOLDER";

/// One case: the files made (path and text, under the case's folder) and the arguments given.
#[derive(Debug)]
struct Case {
    files: Vec<(String, String)>,
    ignore_above: bool,
    repository: bool,
    arguments: Vec<String>,
    swap: Option<String>,
}

impl Case {
    /// The case as the text saved with a finding.
    fn described(&self) -> String {
        let mut text = format!(
            "arguments: {:?}\nignore above: {}\nrepository with global excludes *: {}\nswapped for a link: {:?}\n",
            self.arguments, self.ignore_above, self.repository, self.swap
        );
        for (path, content) in &self.files {
            text.push_str(&format!("=== {path}\n{content}\n"));
        }
        text
    }
}

pub fn run(options: &Options) -> i32 {
    let Some(seeds) = Seeds::load_or_say() else { return 2 };
    let Some(binary) = binary() else {
        eprintln!(
            "ctlpgn-fuzz walk: no ctlpgn binary beside the fuzzer; build it (cargo build --release \
             -p ctlpgn -p ctlpgn-fuzz) or set CTLPGN_BIN"
        );
        return 2;
    };
    let budget = Budget::new(options);
    let mut rng = Rng::new(options.seed);
    let root = std::env::temp_dir().join(format!("ctlpgn-fuzz-walk-{}", std::process::id()));
    let (mut cases, mut findings) = (0u64, 0u64);
    let mut known = std::collections::HashSet::new();
    while budget.more(cases) {
        let case = make_case(&mut rng, &seeds);
        let _ = std::fs::remove_dir_all(&root);
        let outcome = run_case(&binary, &root, &case)
            .and_then(|found| found.map_or(Ok(()), Err))
            .map_err(|finding| (!options.skip.has(finding.kind)).then_some(finding));
        if let Err(Some(finding)) = outcome {
            if known.insert(signature(&finding)) {
                findings += 1;
                let path =
                    save("walk", finding.kind, case.described().as_bytes(), &finding.message);
                eprintln!(
                    "FINDING {}: {}\n  case saved to {}",
                    finding.kind,
                    finding.message,
                    path.display()
                );
                if !options.keep_going {
                    cases += 1;
                    break;
                }
            }
        }
        cases += 1;
    }
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "{cases} cases, {findings} findings in {:.1} s, seed {}",
        budget.elapsed(),
        options.seed
    );
    i32::from(findings > 0)
}

/// The `ctlpgn` binary to run.
fn binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CTLPGN_BIN") {
        return Some(PathBuf::from(path));
    }
    let beside = std::env::current_exe().ok()?.with_file_name("ctlpgn");
    beside.is_file().then_some(beside)
}

fn make_case(rng: &mut Rng, seeds: &Seeds) -> Case {
    let folders = ["games", "games/2024", "games/2024/club", "games/drafts"];
    let mut files = Vec::new();
    for index in 0..rng.between(1, 6) {
        let folder = rng.pick(&folders);
        let text =
            if rng.one_in(2) { rng.pick(&seeds.inputs).clone() } else { mutate(rng, seeds, &[]) };
        files.push((format!("{folder}/g{index}.ctl-pgn"), text));
    }
    let mut arguments: Vec<String> = Vec::new();
    for _ in 0..rng.between(1, 4) {
        let argument = match rng.below(5) {
            0 => "games".to_string(),
            1 => "games/".to_string(),
            2 => format!("./{}", rng.pick(&files).0),
            3 => "link.ctl-pgn".to_string(),
            _ => rng.pick(&folders).to_string(),
        };
        arguments.push(argument);
    }
    Case {
        ignore_above: rng.one_in(6),
        repository: rng.one_in(6),
        swap: rng.one_in(3).then(|| rng.pick(&files).0.clone()),
        files,
        arguments,
    }
}

/// Runs one case: `Err` when the case could not be set up or `check` could not run (a
/// finding of its own kind), `Ok(Some)` for a broken promise.
fn run_case(binary: &Path, root: &Path, case: &Case) -> Result<Option<Finding>, Finding> {
    let setup = |error: std::io::Error| Finding { kind: "walk-setup", message: error.to_string() };
    let home = root.join("home");
    std::fs::create_dir_all(home.join("games/2024/club")).map_err(setup)?;
    std::fs::create_dir_all(home.join("games/drafts")).map_err(setup)?;
    std::fs::write(home.join(".gitignore"), "*\n!.bashrc\n").map_err(setup)?;
    std::fs::write(home.join(".gitconfig"), "").map_err(setup)?;
    if case.ignore_above {
        std::fs::write(home.join(".ignore"), "*\n").map_err(setup)?;
    }
    if case.repository {
        std::fs::create_dir_all(home.join("games/.git")).map_err(setup)?;
        std::fs::create_dir_all(home.join(".config/git")).map_err(setup)?;
        std::fs::write(home.join(".config/git/ignore"), "*\n").map_err(setup)?;
    }
    for (path, text) in &case.files {
        std::fs::write(home.join(path), text).map_err(setup)?;
    }
    std::fs::write(root.join("secret"), SECRET).map_err(setup)?;
    std::os::unix::fs::symlink(home.join(&case.files[0].0), home.join("link.ctl-pgn"))
        .map_err(setup)?;
    let command = |arguments: &[String]| {
        let mut command = Command::new(binary);
        command
            .args(arguments)
            .current_dir(&home)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    };
    let mut check: Vec<String> = vec!["check".into(), "--fix".into()];
    check.extend(case.arguments.iter().cloned());
    let child = command(&check).spawn().map_err(setup)?;
    // The swap races the walk on purpose: whenever it lands, the secret must not show.
    if let Some(swapped) = &case.swap {
        let aside = home.join("games/.swap");
        std::os::unix::fs::symlink(root.join("secret"), &aside).map_err(setup)?;
        std::fs::rename(&aside, home.join(swapped)).map_err(setup)?;
    }
    let output = child.wait_with_output().map_err(setup)?;
    Ok(judge(&home, case, &output).or_else(|| fix_layout(&home, case, &command)))
}

/// The promises `check --fix` keeps, judged from its output and the files it left.
fn judge(home: &Path, case: &Case, output: &Output) -> Option<Finding> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let status = output.status.code();
    let broken = |kind: &'static str, what: &str| {
        Some(Finding { kind, message: format!("{what} (status {status:?})\n{stderr}") })
    };
    // A link named on the command line is followed on purpose: only a swap the walk alone
    // reached is judged.
    let walked_only = case.swap.as_ref().is_none_or(|swapped| !named_directly(case, swapped));
    if walked_only && (stdout.contains(SECRET) || stderr.contains(SECRET)) {
        return broken("walk-secret-shown", "the file a swapped link points to was printed");
    }
    if stderr.contains("changed by another program") && case.swap.is_none() {
        return broken("walk-false-change", "a file no other program touched was called changed");
    }
    if let Some(stray) = strays(home).filter(|_| walked_only) {
        return broken("walk-stray-file", &format!("{} was left", stray.display()));
    }
    let folder_named = case.arguments.iter().any(|argument| !argument.ends_with(".ctl-pgn"));
    let nothing_found = stderr.contains("no .ctl-pgn file found");
    if (case.ignore_above || case.repository) && folder_named && !nothing_found {
        return broken("walk-empty-pass", "a folder the ignore rules empty was not an error");
    }
    if nothing_found && status != Some(2) {
        return broken("walk-status", "a folder that gave nothing did not end with status 2");
    }
    if stderr.contains("0 files checked") && stderr.contains("all clean") {
        return broken("walk-empty-pass", "nothing checked, and called all clean");
    }
    None
}

/// Whether the file at `path` is named on the command line, or through the link to the first
/// file.
fn named_directly(case: &Case, path: &str) -> bool {
    case.arguments.iter().any(|argument| argument.trim_start_matches("./") == path)
        || (path == case.files[0].0
            && case.arguments.iter().any(|argument| argument == "link.ctl-pgn"))
}

/// `NAME.ctlpgn-new` or a temporary file left anywhere under `folder`.
fn strays(folder: &Path) -> Option<PathBuf> {
    for entry in std::fs::read_dir(folder).ok()?.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.contains(".ctlpgn-new") || (name.starts_with(".ctlpgn-") && name.ends_with(".tmp"))
        {
            return Some(path);
        }
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) && name != ".git" {
            if let Some(stray) = strays(&path) {
                return Some(stray);
            }
        }
    }
    None
}

/// After `check --fix`, each file it could reach (no ignore rule, no swap) is checked with
/// `fmt --check`: a fix writes the handbook's layout. Only files `fmt` already left as they
/// were before the fixes count, so that the finding is the fix's.
fn fix_layout(home: &Path, case: &Case, command: &dyn Fn(&[String]) -> Command) -> Option<Finding> {
    if case.ignore_above || case.repository || case.swap.is_some() {
        return None;
    }
    for (path, original) in &case.files {
        let now = std::fs::read_to_string(home.join(path)).ok()?;
        if now == *original {
            continue;
        }
        let formatted_before = ctlpgn_core::format::format_text(
            original,
            &ctlpgn_core::format::FormatOptions::default(),
        ) == *original;
        if !formatted_before {
            continue;
        }
        let output = command(&["fmt".into(), "--diff".into(), path.clone()]).output().ok()?;
        if output.status.code() == Some(1) {
            return Some(Finding {
                kind: "fix-layout",
                message: format!(
                    "check --fix left {path} out of fmt's layout\n{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                ),
            });
        }
    }
    None
}
