//! Tidy checks on the source tree: every file says what it is for, the core stays pure, and
//! the README's code table lists every diagnostic code with its name.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn every_file_opens_with_a_doc_line() {
    let mut files = Vec::new();
    for crate_dir in [
        "server/src",
        "server/tests",
        "tests/src",
        "tests/tests",
        "tests/benches",
        "test-support/src",
        "fuzz/src",
        "tree-sitter-ctlpgn/bindings/rust",
    ] {
        rust_files(&workspace().join(crate_dir), &mut files);
    }
    assert!(files.len() > 10);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert!(text.starts_with("//!"), "{} does not open with a //! line", file.display());
    }
}

#[test]
fn the_core_names_no_protocol_crate_and_does_no_io() {
    let mut files = Vec::new();
    rust_files(&workspace().join("server/src"), &mut files);
    for file in files {
        let relative = file.strip_prefix(workspace().join("server/src")).expect("inside src");
        let edge = relative.starts_with("cli")
            || relative.starts_with("lsp")
            || relative == Path::new("main.rs");
        // Test modules may read the corpus; only the code they test must stay pure.
        if edge || file.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for forbidden in ["tower_lsp", "lsp_types", "tokio", "std::fs", "std::io", "std::net"] {
            assert!(
                !text.contains(forbidden),
                "{} names {forbidden}, but the core is pure",
                file.display()
            );
        }
    }
}

#[test]
fn the_readme_lists_every_code_with_its_name() {
    let readme = std::fs::read_to_string(workspace().join("README.md")).expect("the README exists");
    for code in ctlpgn::diagnostics::Code::ALL {
        let row = format!("| {} | `{}` |", code.as_str(), code.name());
        assert!(readme.contains(&row), "the README's code table lacks the row {row}");
    }
}
