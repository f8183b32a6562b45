//! The repository's test data, read from inside the repository only: the `testdata` folder
//! (the handbook's examples, the corpus), the core's fixtures (`core/tests/fixtures`), the
//! file of many records the benchmarks use, the large records a program writes, and the
//! `initialize` requests recorded from real editors. A test that needs a file fails when it is
//! missing rather than passing without looking at anything.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The repository's root folder.
pub fn repository_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's `testdata` folder (the handbook's examples, the corpus).
pub fn testdata_dir() -> PathBuf {
    let dir = repository_dir().join("testdata");
    assert!(dir.is_dir(), "the test data folder is missing: expected it at {}", dir.display());
    dir
}

/// The files of a `testdata` sub-folder with an extension, sorted.
pub fn testdata_files(folder: &str, extension: &str) -> Vec<PathBuf> {
    files_with(&testdata_dir().join(folder), extension)
}

/// The files of a folder whose names end with `extension`, sorted; there must be some.
pub fn files_with(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.to_string_lossy().ends_with(extension))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {extension} files in {}", dir.display());
    files
}

/// The files under a folder and its sub-folders, at any depth, whose names end with
/// `extension`, sorted. The folders are walked with a stack of their own, not by recursion.
pub fn files_under(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.to_string_lossy().ends_with(extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text of a file of the `testdata` folder, by its path inside it.
pub fn testdata_text(path: &str) -> String {
    read_text(&testdata_dir().join(path))
}

/// A folder of the core's fixtures, `core/tests/fixtures/<folder>`.
pub fn fixtures_dir(folder: &str) -> PathBuf {
    let dir = repository_dir().join("core/tests/fixtures").join(folder);
    assert!(dir.is_dir(), "the fixtures folder is missing: expected it at {}", dir.display());
    dir
}

/// The text of a file, which must be readable UTF-8.
pub fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The valid games of the corpus, repeated until there are `records` of them, one blank
/// line between records.
pub fn corpus_file(records: usize) -> String {
    let texts: Vec<String> =
        testdata_files("corpus/valid", ".ctl-pgn").iter().map(|path| read_text(path)).collect();
    let mut file = String::new();
    for i in 0..records {
        file.push_str(&texts[i % texts.len()]);
        file.push('\n');
    }
    file
}

/// A record a program wrote rather than a person: a Knight of each side out and back
/// (`1. NG3-H8, NG25-I15`, `2. NH8-G3, NI15-G25`, and again), `pairs` move pairs, all on one
/// line or a pair per line; it replays without an error. Line 2 + k holds pair k + 1 when the
/// pairs are a line each.
pub fn knights_out_and_back(pairs: usize, one_line: bool) -> String {
    knights(one_line, |_, count| count < pairs)
}

/// [`knights_out_and_back`] with as many pairs as make the record at least `bytes` long.
pub fn knights_out_and_back_of(bytes: usize, one_line: bool) -> String {
    knights(one_line, |text, _| text.len() < bytes)
}

/// The record of [`knights_out_and_back`], pairs added while `more` says so.
fn knights(one_line: bool, more: impl Fn(&str, usize) -> bool) -> String {
    let moves = ["NG3-H8, NG25-I15", "NH8-G3, NI15-G25"];
    let mut text = String::from("[Variant \"C'escacs\"]\n\n");
    let mut pairs = 0;
    while more(&text, pairs) {
        if pairs > 0 {
            text.push(if one_line { ' ' } else { '\n' });
        }
        text.push_str(&format!("{}. {}", pairs + 1, moves[pairs % 2]));
        pairs += 1;
    }
    text.push_str(":\n*\n");
    text
}

/// Every `.ctl-pgn` file of the repository: the test data, the examples, the core's fixtures,
/// the end-to-end tests' records and the grammar's.
pub fn record_files() -> Vec<PathBuf> {
    let root = repository_dir();
    ["testdata", "examples", "core/tests/fixtures", "tests", "tree-sitter-ctlpgn/test"]
        .iter()
        .flat_map(|dir| files_under(&root.join(dir), ".ctl-pgn"))
        .collect()
}

/// The files two servers are compared on, request by request (the web module and the protocol
/// layer's session against the native server): the handbook's examples, one example record per
/// diagnostic code, the repository's examples, and a corpus game.
pub fn compared_files() -> Vec<PathBuf> {
    let root = repository_dir();
    let mut files = files_under(&root.join("testdata/examples"), ".ctl-pgn");
    files.extend(files_under(&root.join("testdata/diagnostics"), ".ctl-pgn"));
    files.extend(files_under(&root.join("examples"), ".ctl-pgn"));
    files.extend(files_under(&root.join("testdata/corpus/valid"), ".ctl-pgn").into_iter().take(1));
    assert!(files.len() > 50, "{}", files.len());
    files
}

/// The `initialize` request recorded from an editor (`tests/fixtures/initialize/<name>`, whose
/// README says how each was recorded).
pub fn recorded_initialize(name: &str) -> Value {
    let path = repository_dir().join("tests/fixtures/initialize").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let message: Value = serde_json::from_str(&text).expect("a JSON message");
    assert_eq!(message["method"], "initialize", "{name} holds an initialize request");
    message
}
