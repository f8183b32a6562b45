//! Helpers shared by the integration tests and the benchmark: the parser, the real game files,
//! and the tree-sitter point of a byte offset.

#![allow(dead_code)] // Each test crate uses a part of this module.

use std::path::{Path, PathBuf};

/// A parser set to the CTL-PGN language.
pub fn new_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_ctlpgn::LANGUAGE.into()).expect("the CTL-PGN grammar loads");
    parser
}

/// The repository's `testdata` folder (the corpus and the handbook's examples).
/// Panics with a clear message when it is missing: the tests must never pass vacuously.
pub fn testdata_dir() -> PathBuf {
    let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("testdata");
    assert!(testdata.is_dir(), "the test data folder {} is missing", testdata.display());
    testdata
}

/// The `*.ctl-pgn` files of `dir`, sorted; panics if the folder is missing or holds none.
pub fn ctl_pgn_files(dir: &Path, name_prefix: &str) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!("cannot read the folder {}: {e}", dir.display());
    });
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.ends_with(".ctl-pgn") && name.starts_with(name_prefix)
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no `{name_prefix}*.ctl-pgn` file in {}", dir.display());
    files
}

/// Every real game file: the valid and incoherent engine games and the valid handbook
/// examples (`0*.ctl-pgn`).
pub fn real_game_files() -> Vec<PathBuf> {
    let testdata = testdata_dir();
    let mut files = ctl_pgn_files(&testdata.join("corpus").join("valid"), "");
    files.extend(ctl_pgn_files(&testdata.join("corpus").join("incoherent"), ""));
    files.extend(ctl_pgn_files(&testdata.join("examples"), "0"));
    files
}

/// Reads a file as UTF-8 text.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The row/column point of a byte offset (columns count bytes, as in tree-sitter).
pub fn point_at(text: &str, byte: usize) -> tree_sitter::Point {
    let before = &text.as_bytes()[..byte];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    tree_sitter::Point::new(row, byte - line_start)
}
