//! What a folder named on the command line stands for (#43): the ignore files read as ripgrep
//! reads them (a `.gitignore` or the user's global excludes only inside a Git repository, a
//! `.ignore` anywhere), a folder that gives no record file is an error and not a clean pass,
//! and a file named twice (a folder and a file in it, two folders that overlap, a file and a
//! link to it) is read and written once. The user's own git configuration never counts: each
//! run has a home of its own.

mod command;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use command::{names_in, run, scratch, unformatted_records, Run};

/// CLEAN with one error: K9 is not a hex (C003).
const BROKEN: &str = "[Variant \"C'escacs\"]\n[Event \"Club night\"]\n[Site \"?\"]\n[Date \"2026-11-28\"]\n[Round \"1\"]\n[White \"Anna\"]\n[Black \"Biel\"]\n[Result \"*\"]\n\n1. K4-K9, E21-E19:\n*\n";

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder made");
    std::fs::write(path, text).expect("written");
}

/// Runs the binary in `folder` with `home` as the user's home and git configuration: the
/// global excludes are `home/.config/git/ignore`, and nothing of this machine's user counts.
fn ctlpgn_at(folder: &Path, home: &Path, arguments: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctlpgn"));
    command
        .args(arguments)
        .current_dir(folder)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("GIT_CONFIG_SYSTEM", home.join("system-gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1");
    run(&mut command, b"", Stdio::piped())
}

/// Asserts that `run` ended with status 2 and said `said` on standard error.
fn failed_saying(run: &Run, said: &str) {
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains(said), "{said:?} not in {}", run.stderr);
    assert!(!run.stderr.contains("all clean"), "{}", run.stderr);
}

fn home_in(root: &Path) -> PathBuf {
    let home = root.join("home");
    write(&home, ".gitconfig", "");
    home
}

/// A home of dotfiles (`*` then `!.bashrc` in its `.gitignore`, no repository) holding the
/// games: its `.gitignore` is no Git repository's and leaves nothing out; a `.ignore` above
/// does, and then the folder gives no file: status 2 and why, for each command that walks.
#[test]
fn an_ignore_file_above_the_folder_never_makes_a_clean_pass() {
    let root = scratch("walk-dotfiles");
    let home = home_in(&root);
    write(&home, ".gitignore", "*\n!.bashrc\n");
    write(&home, "games/broken.ctl-pgn", BROKEN);
    let checked = ctlpgn_at(&home, &home, &["check", "games"]);
    assert_eq!(checked.status, Some(1), "{}", checked.stderr);
    assert!(
        checked.stderr.ends_with("1 file checked: 1 error, 0 warnings, 0 hints\n"),
        "{}",
        checked.stderr
    );

    write(&home, ".ignore", "*\n");
    for command in ["check", "fmt", "convert"] {
        let mut arguments = vec![command, "games/"];
        if command == "convert" {
            arguments.push("--fan");
        }
        let run = ctlpgn_at(&home, &home, &arguments);
        failed_saying(
            &run,
            &format!(
                "ctlpgn {command}: games/: no .ctl-pgn file found (1 file left out by ignore \
                 rules: --no-ignore checks them)"
            ),
        );
    }
    let all = ctlpgn_at(&home, &home, &["check", "--no-ignore", "games/"]);
    assert_eq!(all.status, Some(1), "{}", all.stderr);
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).expect("a folder");
    let nothing = ctlpgn_at(&root, &home, &["check", "empty"]);
    failed_saying(&nothing, "ctlpgn check: empty: no .ctl-pgn file found\n");
    std::fs::remove_dir_all(&root).expect("removed");
}

/// The user's global excludes (`core.excludesFile`, or `~/.config/git/ignore`) count inside a
/// Git repository, as for git and ripgrep, and nowhere else.
#[test]
fn the_global_excludes_count_inside_a_repository_only() {
    let root = scratch("walk-global");
    let home = home_in(&root);
    write(&home, ".config/git/ignore", "*.ctl-pgn\n");
    write(&root, "loose/games/broken.ctl-pgn", BROKEN);
    let loose = ctlpgn_at(&root.join("loose"), &home, &["check", "games"]);
    assert_eq!(loose.status, Some(1), "{}", loose.stderr);
    write(&root, "repository/games/broken.ctl-pgn", BROKEN);
    std::fs::create_dir_all(root.join("repository/.git")).expect("a repository");
    let inside = ctlpgn_at(&root.join("repository"), &home, &["check", "games"]);
    failed_saying(&inside, "games: no .ctl-pgn file found (1 file left out");
    std::fs::remove_dir_all(&root).expect("removed");
}

/// A file named twice is formatted or fixed once: no false "changed by another program", no
/// `NAME.ctlpgn-new` beside it, status 0.
#[test]
fn a_file_named_twice_is_written_once() {
    let root = scratch("walk-twice");
    let home = home_in(&root);
    let unformatted = unformatted_records(2_000);
    for index in 0..20 {
        write(&root, &format!("games/2024/{index:02}.ctl-pgn"), &unformatted);
    }
    write(&root, "games/a.ctl-pgn", &unformatted);
    std::os::unix::fs::symlink("games/a.ctl-pgn", root.join("link.ctl-pgn")).expect("a link");
    for arguments in [
        vec!["fmt", ".", "./games/a.ctl-pgn"],
        vec!["fmt", "games/", "games/2024/"],
        vec!["fmt", "games/a.ctl-pgn", "link.ctl-pgn"],
        vec!["check", "--fix", "games", "games"],
    ] {
        let mut unformatted_again = vec![root.join("games/a.ctl-pgn")];
        unformatted_again
            .extend((0..20).map(|index| root.join(format!("games/2024/{index:02}.ctl-pgn"))));
        for path in &unformatted_again {
            std::fs::write(path, &unformatted).expect("written");
        }
        let run = ctlpgn_at(&root, &home, &arguments);
        assert_eq!(run.status, Some(0), "{arguments:?}: {}", run.stderr);
        assert!(!run.stderr.contains("changed by another program"), "{}", run.stderr);
        assert_eq!(names_in(&root.join("games")), ["2024", "a.ctl-pgn"], "{arguments:?}");
        assert!(names_in(&root.join("games/2024")).iter().all(|name| !name.contains("ctlpgn-new")));
        if arguments[0] == "fmt" {
            let formatted = std::fs::read_to_string(root.join("games/a.ctl-pgn")).expect("read");
            assert_ne!(formatted, unformatted, "{arguments:?}");
        }
    }
    std::fs::remove_dir_all(&root).expect("removed");
}
