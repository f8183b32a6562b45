//! A whole archive at a time: `check` and `fmt` on folder trees the tests make (nested folders,
//! an ignored folder, other files, a symbolic link loop, a file that cannot be read), the
//! summary and the success line, colours, GitHub annotations, `--statistics`, and `--fix` on
//! corpus games with fixable problems put in (each file fixed back to the game it was, files
//! without them untouched), `--diff` writing nothing.

mod command;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;

use command::{execute, scratch, Run};
use ctlpgn_test_support::fixtures::{read_text, testdata_files};

fn ctlpgn(arguments: &[&str]) -> Run {
    execute(arguments, b"", Stdio::piped())
}

fn stdout(run: &Run) -> String {
    String::from_utf8(run.stdout.clone()).expect("UTF-8 output")
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder made");
    std::fs::write(path, text).expect("written");
}

const CLEAN: &str = "[Variant \"C'escacs\"]\n[Event \"Club night\"]\n[Site \"?\"]\n[Date \"2026-11-28\"]\n[Round \"1\"]\n[White \"Anna\"]\n[Black \"Biel\"]\n[Result \"*\"]\n\n1. K4-K6, E21-E19:\n*\n";
/// CLEAN with one error: K9 is not a hex (C003).
const BROKEN: &str = "[Variant \"C'escacs\"]\n[Event \"Club night\"]\n[Site \"?\"]\n[Date \"2026-11-28\"]\n[Round \"1\"]\n[White \"Anna\"]\n[Black \"Biel\"]\n[Result \"*\"]\n\n1. K4-K9, E21-E19:\n*\n";

#[test]
fn a_folder_is_walked_in_path_order_past_what_is_ignored_and_what_cannot_be_read() {
    let root = scratch("archive-walk");
    write(&root, "b/deep/late.ctl-pgn", BROKEN);
    write(&root, "a.ctl-pgn", BROKEN);
    write(&root, "b/early.ctl-pgn", CLEAN);
    write(&root, "notes.txt", BROKEN);
    write(&root, "ignored/skipped.ctl-pgn", BROKEN);
    // A .gitignore counts inside a Git repository only.
    write(&root, ".gitignore", "ignored/\n");
    std::fs::create_dir_all(root.join(".git")).expect("a repository");
    write(&root, "huge.ctl-pgn", &CLEAN.repeat(100));
    #[cfg(unix)]
    std::os::unix::fs::symlink(&root, root.join("b/loop")).expect("a link loop");
    let folder = root.to_str().expect("a UTF-8 path");
    let run = ctlpgn(&["check", "--max-input-size", "1K", folder]);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    let located: Vec<String> = stdout(&run)
        .lines()
        .filter(|line| line.contains("error["))
        .map(|line| line.split(':').next().expect("a path").replace(folder, ""))
        .collect();
    assert_eq!(located, ["/a.ctl-pgn", "/b/deep/late.ctl-pgn"], "{}", stdout(&run));
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(stderr.len(), 2, "{}", run.stderr);
    assert!(stderr[0].contains("huge.ctl-pgn: larger than 1024 bytes"), "{}", run.stderr);
    assert_eq!(stderr[1], "ctlpgn check: 3 files checked: 2 errors, 0 warnings, 0 hints");

    let all = ctlpgn(&["check", "--no-ignore", "--quiet", folder]);
    assert!(stdout(&all).contains("skipped.ctl-pgn"), "{}", stdout(&all));
    assert_eq!(all.stderr, "", "--quiet");

    // fmt walks the same files, and --diff shows without writing.
    write(&root, "b/early.ctl-pgn", &CLEAN.replace("1. ", "1.  "));
    let diff = ctlpgn(&["fmt", "--diff", folder]);
    assert_eq!(diff.status, Some(1), "{}", diff.stderr);
    assert!(
        stdout(&diff).contains("-1.  K4-K6, E21-E19:\n+1. K4-K6, E21-E19:\n"),
        "{}",
        stdout(&diff)
    );
    assert_eq!(read_text(&root.join("b/early.ctl-pgn")), CLEAN.replace("1. ", "1.  "));
    let formatted = ctlpgn(&["fmt", folder]);
    assert_eq!(formatted.status, Some(0), "{}", formatted.stderr);
    assert_eq!(read_text(&root.join("b/early.ctl-pgn")), CLEAN);
    std::fs::remove_dir_all(&root).expect("removed");
}

#[test]
fn a_clean_file_says_so_and_findings_are_summed_up() {
    let root = scratch("archive-summary");
    write(&root, "clean.ctl-pgn", CLEAN);
    let clean = root.join("clean.ctl-pgn");
    let run = ctlpgn(&["check", clean.to_str().expect("UTF-8")]);
    assert_eq!(run.status, Some(0));
    assert_eq!(stdout(&run), "");
    assert_eq!(run.stderr, "ctlpgn check: 1 file checked: all clean\n");
    let quiet = ctlpgn(&["check", "-q", clean.to_str().expect("UTF-8")]);
    assert_eq!(quiet.stderr, "");
    std::fs::remove_dir_all(&root).expect("removed");
}

#[test]
fn colours_come_only_when_asked_or_on_a_terminal() {
    let root = scratch("archive-colour");
    write(&root, "broken.ctl-pgn", BROKEN);
    let file = root.join("broken.ctl-pgn");
    let file = file.to_str().expect("UTF-8");
    let always = stdout(&ctlpgn(&["check", "--color", "always", file]));
    assert!(always.contains("\u{1b}[1;31merror[C003]\u{1b}[0m"), "{always:?}");
    for plain in [vec!["check", "--color", "never", file], vec!["check", file]] {
        let printed = stdout(&ctlpgn(&plain));
        assert!(!printed.contains('\u{1b}'), "{plain:?}: {printed:?}");
        assert!(printed.contains("error[C003]"), "{printed}");
    }
    std::fs::remove_dir_all(&root).expect("removed");
}

#[test]
fn github_annotations_escape_what_the_runner_reads() {
    let root = scratch("archive-github");
    write(&root, "a,b:c.ctl-pgn", BROKEN);
    let run = ctlpgn(&["check", "--format", "github", root.to_str().expect("UTF-8")]);
    assert_eq!(run.status, Some(1));
    let printed = stdout(&run);
    let line = printed.lines().next().expect("an annotation");
    assert!(line.starts_with("::error file="), "{line}");
    assert!(line.contains("a%2Cb%3Ac.ctl-pgn,line=10,col=7,endLine=10,endColumn=9,title=C003 wrong-line-parity::K9 is not a hex"), "{line}");
    std::fs::remove_dir_all(&root).expect("removed");
}

#[test]
fn statistics_count_each_code() {
    let root = scratch("archive-statistics");
    write(&root, "one.ctl-pgn", BROKEN);
    write(&root, "two.ctl-pgn", BROKEN);
    let run = ctlpgn(&["check", "--statistics", root.to_str().expect("UTF-8")]);
    let printed = stdout(&run);
    let lines: Vec<&str> = printed.lines().collect();
    assert_eq!(lines.len(), 1, "{printed}");
    assert_eq!(lines[0], "2  C003  wrong-line-parity", "{printed}");
    std::fs::remove_dir_all(&root).expect("removed");
}

/// A corpus game with fixable problems put in, chosen by `seed`: a capture sign written `x`,
/// two spaces after a move number, a move number one too high. `None` when the game has no
/// place for the one chosen.
fn with_problems(game: &str, seed: usize) -> Option<String> {
    match seed % 3 {
        0 => {
            let at = game.match_indices('×').nth(seed % 4)?.0;
            Some(format!("{}x{}", &game[..at], &game[at + '×'.len_utf8()..]))
        }
        1 => {
            let number = 2 + seed % 5;
            let line = format!("\n{number}. ");
            game.contains(&line).then(|| game.replacen(&line, &format!("\n{number}.  "), 1))
        }
        _ => {
            let number = 3 + seed % 4;
            let line = format!("\n{number}. ");
            game.contains(&line).then(|| game.replacen(&line, &format!("\n{}. ", number + 1), 1))
        }
    }
}

#[test]
fn fix_mends_what_the_fix_all_mends_and_leaves_the_other_files_as_they_were() {
    let root = scratch("archive-fix");
    let games: Vec<(String, String)> = testdata_files("corpus/valid", "ctl-pgn")
        .into_iter()
        .take(24)
        .map(|path| {
            let name = path.file_name().expect("a name").to_string_lossy().into_owned();
            (name, read_text(&path))
        })
        .collect();
    let mut broken = 0;
    for (seed, (name, game)) in games.iter().enumerate() {
        let text = if seed % 4 == 3 { None } else { with_problems(game, seed) };
        broken += usize::from(text.is_some());
        write(&root, &format!("games/{name}"), text.as_deref().unwrap_or(game));
    }
    assert!(broken > 12, "{broken}");
    let folder = root.join("games");
    let folder = folder.to_str().expect("UTF-8");
    let before: Vec<(String, Vec<u8>)> = games
        .iter()
        .map(|(name, _)| {
            (name.clone(), std::fs::read(root.join("games").join(name)).expect("read"))
        })
        .collect();

    let diff = ctlpgn(&["check", "--diff", folder]);
    assert_eq!(diff.status, Some(1), "{}", diff.stderr);
    for (name, bytes) in &before {
        assert_eq!(&std::fs::read(root.join("games").join(name)).expect("read"), bytes, "{name}");
    }
    let fixed = ctlpgn(&["check", "--fix", folder]);
    assert_eq!(fixed.status, Some(0), "{}\n{}", stdout(&fixed), fixed.stderr);
    // A number one too high is two problems (it, and the next one's); each file is fixed.
    let summary = format!("{} files checked: all clean; fixed ", games.len());
    assert!(fixed.stderr.contains(&summary), "{}", fixed.stderr);
    assert!(fixed.stderr.ends_with(&format!(" problems in {broken} files\n")), "{}", fixed.stderr);
    for ((name, game), (_, bytes)) in games.iter().zip(&before) {
        let now = read_text(&root.join("games").join(name));
        // Each fix writes back what the engine's game said; the other files are untouched.
        assert_eq!(&now, game, "{name}");
        if bytes == game.as_bytes() {
            let metadata = std::fs::metadata(root.join("games").join(name)).expect("there");
            assert_eq!(metadata.len() as usize, bytes.len(), "{name}");
        }
    }
    std::fs::remove_dir_all(&root).expect("removed");
}

#[test]
fn the_readme_shows_the_lines_check_writes_on_standard_error() {
    let readme = read_text(&ctlpgn_test_support::fixtures::repository_dir().join("README.md"));
    let examples = ctlpgn_test_support::fixtures::repository_dir().join("examples");
    for (example, shown) in [("opening.ctl-pgn", "`"), ("mistakes.ctl-pgn", "```console\n")] {
        let run = ctlpgn(&["check", examples.join(example).to_str().expect("UTF-8")]);
        let line = run.stderr.trim_end();
        assert!(readme.contains(&format!("{shown}{line}")), "README.md lacks {line:?}");
    }
}

/// The hooks of `.pre-commit-hooks.yaml`, run as pre-commit runs a `language: system` hook:
/// the entry, then the files staged that match `files`. The check hook fails on the broken
/// file and says where; the format hook rewrites the file it formats and no other.
#[test]
fn the_pre_commit_hooks_run_as_pre_commit_runs_them() {
    let hooks =
        read_text(&ctlpgn_test_support::fixtures::repository_dir().join(".pre-commit-hooks.yaml"));
    let entry = |id: &str| -> Vec<String> {
        let hook = hooks.split("- id: ").find(|hook| hook.starts_with(id)).expect("the hook");
        assert!(hook.contains("language: system"), "{id}: the ctlpgn on PATH");
        assert!(hook.contains("files: \\.ctl-pgn$"), "{id}: record files only");
        let line =
            hook.lines().find_map(|line| line.trim().strip_prefix("entry: ")).expect("an entry");
        let words: Vec<String> = line.split_whitespace().map(String::from).collect();
        assert_eq!(words[0], "ctlpgn", "{id} runs ctlpgn");
        words[1..].to_vec()
    };
    let root = scratch("pre-commit");
    write(&root, "broken.ctl-pgn", BROKEN);
    write(&root, "spaced.ctl-pgn", &CLEAN.replace("1. K4-K6", "1.  K4-K6"));
    write(&root, "clean.ctl-pgn", CLEAN);
    let files: Vec<String> = ["broken.ctl-pgn", "clean.ctl-pgn", "spaced.ctl-pgn"]
        .iter()
        .map(|name| root.join(name).to_str().expect("UTF-8").to_string())
        .collect();
    let run_hook = |id: &str, files: &[String]| {
        let mut arguments = entry(id);
        arguments.extend(files.iter().cloned());
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        ctlpgn(&arguments)
    };
    let checked = run_hook("ctlpgn-check", &files);
    assert_eq!(checked.status, Some(1), "{}", checked.stderr);
    assert!(stdout(&checked).contains("broken.ctl-pgn:10:7: error[C003]"), "{}", stdout(&checked));
    assert_eq!(checked.stderr, "", "--quiet: no summary in the hook's output");
    let formatted = run_hook("ctlpgn-fmt", &files[1..]);
    assert_eq!(formatted.status, Some(0), "{}", formatted.stderr);
    assert_eq!(read_text(&root.join("spaced.ctl-pgn")), CLEAN, "formatted in place");
    assert_eq!(read_text(&root.join("clean.ctl-pgn")), CLEAN);
    std::fs::remove_dir_all(&root).expect("removed");
}

/// `convert` walks folders as `check` and `fmt` do: each record file under the folder has its
/// letters turned into figurines in place, an ignored one is left as it was.
#[test]
fn convert_walks_a_folder_and_leaves_what_is_ignored() {
    let root = scratch("archive-convert");
    let with_letters = CLEAN.replace("1. K4-K6, E21-E19:", "1. NG3-H8, NG25-I15:");
    write(&root, "games/a.ctl-pgn", &with_letters);
    write(&root, "games/deeper/b.ctl-pgn", &with_letters);
    write(&root, "games/drafts/c.ctl-pgn", &with_letters);
    write(&root, "games/.ignore", "drafts/\n");
    let games = root.join("games");
    let run = ctlpgn(&["convert", "--fan", "--in-place", games.to_str().expect("UTF-8")]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    let figurines = read_text(&games.join("a.ctl-pgn"));
    assert_ne!(figurines, with_letters, "converted");
    assert_eq!(read_text(&games.join("deeper/b.ctl-pgn")), figurines);
    assert_eq!(read_text(&games.join("drafts/c.ctl-pgn")), with_letters, "ignored");
    std::fs::remove_dir_all(&root).expect("removed");
}

/// The record files of `testdata/diagnostics`, copied into `folder`.
fn diagnostics_files(folder: &Path) -> usize {
    let files = testdata_files("diagnostics", "ctl-pgn");
    for path in &files {
        let name = path.file_name().expect("a name");
        std::fs::copy(path, folder.join(name)).expect("copied");
    }
    files.len()
}

/// `--diff` counts what the files hold as a plain check does, and fails on an error with
/// nothing to fix; its diffs and JSON are never mixed on standard output; a folder that could
/// not be walked is never "all clean".
#[test]
fn diff_sums_up_what_check_sums_up() {
    let root = scratch("archive-diff-summary");
    let count = diagnostics_files(&root);
    let folder = root.to_str().expect("UTF-8");
    let plain = ctlpgn(&["check", folder]);
    let totals = |stderr: &str| -> String {
        let last = stderr.lines().last().expect("a summary").to_string();
        last.split("; ").next().expect("the counts").to_string()
    };
    assert!(totals(&plain.stderr).starts_with(&format!("ctlpgn check: {count} files checked: ")));
    let diff = ctlpgn(&["check", "--diff", folder]);
    assert_eq!(diff.status, Some(1), "{}", diff.stderr);
    assert_eq!(totals(&diff.stderr), totals(&plain.stderr));
    assert!(stdout(&diff).starts_with("--- "), "only diffs: {}", stdout(&diff));

    let k001 = root.join("K001.ctl-pgn");
    let one = ctlpgn(&["check", "--diff", k001.to_str().expect("UTF-8")]);
    assert_eq!(one.status, Some(1), "an error, nothing to fix: {}", one.stderr);
    assert_eq!(one.stderr, "ctlpgn check: 1 file checked: 1 error, 0 warnings, 0 hints\n");
    assert_eq!(stdout(&one), "");

    let json = ctlpgn(&["check", "--diff", "--format", "json", folder]);
    assert_eq!(json.status, Some(2), "{}", json.stderr);
    assert_eq!(stdout(&json), "");
    assert!(json.stderr.contains("--format json"), "{}", json.stderr);

    let looped = root.join("looped");
    std::fs::create_dir(&looped).expect("a folder");
    std::os::unix::fs::symlink(&looped, looped.join("again")).expect("a link loop");
    let run = ctlpgn(&["check", looped.to_str().expect("UTF-8")]);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(!run.stderr.contains("all clean"), "{}", run.stderr);
    std::fs::remove_dir_all(&root).expect("removed");
}

/// What `check` says `--fix` fixes is what `--fix` then fixes, in one run: a record whose move
/// lines are all numbered 1 comes out clean, and a fix `--fix` refuses (T004's would add a
/// T019) is not counted; nothing written is nothing fixed.
#[test]
fn fix_fixes_in_one_run_what_check_counts_and_no_more() {
    let root = scratch("archive-fix-counts");
    let game = read_text(&testdata_files("corpus/valid", "ctl-pgn")[0]);
    let mut number = 0;
    let ones: String = game
        .split_inclusive('\n')
        .map(|line| match line.split_once(". ") {
            Some((digits, rest)) if digits.bytes().all(|b| b.is_ascii_digit()) => {
                number += 1;
                format!("1. {rest}")
            }
            _ => line.to_string(),
        })
        .collect();
    assert!(number > 20, "{number} move lines");
    write(&root, "ones.ctl-pgn", &ones);
    let ones_path = root.join("ones.ctl-pgn");
    let ones_path = ones_path.to_str().expect("UTF-8");
    let counted = ctlpgn(&["check", ones_path]);
    let fixable = format!("{} problems fixable with --fix\n", number - 1);
    assert!(counted.stderr.ends_with(&fixable), "{}", counted.stderr);
    let fixed = ctlpgn(&["check", "--fix", ones_path]);
    assert_eq!(fixed.status, Some(0), "{}", fixed.stderr);
    let summary = format!("all clean; fixed {} problems in 1 file\n", number - 1);
    assert!(fixed.stderr.ends_with(&summary), "{}", fixed.stderr);
    assert_eq!(read_text(&root.join("ones.ctl-pgn")), game);

    std::fs::copy(
        ctlpgn_test_support::fixtures::testdata_dir().join("diagnostics/T004.ctl-pgn"),
        root.join("T004.ctl-pgn"),
    )
    .expect("copied");
    let t004 = root.join("T004.ctl-pgn");
    let t004 = t004.to_str().expect("UTF-8");
    let counted = ctlpgn(&["check", t004]);
    assert!(!counted.stderr.contains("fixable"), "{}", counted.stderr);

    write(&root, "read-only.ctl-pgn", &ones);
    let read_only = root.join("read-only.ctl-pgn");
    std::fs::set_permissions(&read_only, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let refused = ctlpgn(&["check", "--fix", read_only.to_str().expect("UTF-8")]);
    assert_eq!(refused.status, Some(2), "{}", refused.stderr);
    assert!(!refused.stderr.contains("fixed"), "{}", refused.stderr);
    std::fs::remove_dir_all(&root).expect("removed");
}

/// A file's name is shown with stand-ins wherever `check` and `fmt` print it for a person: an
/// escape sequence in it does not reach the terminal, a line end in it does not split a line.
#[test]
fn file_names_never_reach_the_terminal_raw() {
    let root = scratch("archive-names");
    let names = ["\u{1b}]0;PWNED\u{7}\u{1b}[31m red.ctl-pgn", "two\nlines.ctl-pgn"];
    for name in names {
        write(&root, &format!("names/{name}"), &CLEAN.replace("1. ", "1.  "));
    }
    write(&root, "\u{1b}[31mbroken.ctl-pgn", BROKEN);
    write(&root, "\u{1b}[31mnot-utf8.ctl-pgn", "");
    std::fs::write(root.join("\u{1b}[31mnot-utf8.ctl-pgn"), b"\xff").expect("written");
    let folder = root.to_str().expect("UTF-8");
    let names = root.join("names");
    let names = names.to_str().expect("UTF-8");
    for arguments in [
        vec!["fmt", "--check", names],
        vec!["fmt", "--diff", names],
        vec!["check", folder],
        vec!["check", "--diff", folder],
        vec!["check", "--format", "github", folder],
    ] {
        let run = ctlpgn(&arguments);
        let printed = stdout(&run);
        assert!(
            !printed.contains('\u{1b}') && !printed.contains('\u{7}'),
            "{arguments:?}: {printed:?}"
        );
        assert!(!run.stderr.contains('\u{1b}'), "{arguments:?}: {:?}", run.stderr);
        assert!(
            !printed.lines().any(|line| line.starts_with("lines.ctl-pgn")),
            "{arguments:?}: {printed:?}"
        );
    }
    let listed = stdout(&ctlpgn(&["fmt", "--check", names]));
    assert_eq!(listed.lines().count(), 2, "{listed:?}");
    assert!(listed.contains("two␊lines.ctl-pgn\n"), "{listed:?}");
    std::fs::remove_dir_all(&root).expect("removed");
}
