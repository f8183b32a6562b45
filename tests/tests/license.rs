//! One licence for the whole repository: the MIT licence at the root, the same text beside each
//! package that is published on its own (the two crates, the VS Code extension), and every
//! manifest naming MIT, so that a copy of any part carries the notice the licence asks for.

use ctlpgn_test_support::fixtures::{read_text, repository_dir};

/// The folders of the packages that are published apart from the repository, each with its
/// own copy of the licence: `cargo package` and `vsce package` take only their own folder.
const PACKAGES: &[&str] = &["core", "server", "tree-sitter-ctlpgn", "editors/vscode"];

#[test]
fn the_root_licence_is_mit_and_every_package_carries_the_same_text() {
    let root = repository_dir();
    let licence = read_text(&root.join("LICENSE"));
    assert!(licence.starts_with("MIT License\n\nCopyright (c) the ctlpgn authors\n"), "{licence}");
    for package in PACKAGES {
        let copy = read_text(&root.join(package).join("LICENSE"));
        assert_eq!(copy, licence, "{package}/LICENSE differs from the root's LICENSE");
    }
}

#[test]
fn every_manifest_names_the_mit_licence() {
    let root = repository_dir();
    let workspace = read_text(&root.join("Cargo.toml"));
    assert!(workspace.contains("\n[workspace.package]\n"), "the workspace shares package fields");
    assert!(workspace.contains("\nlicense = \"MIT\"\n"), "the workspace's licence is MIT");
    for member in ["core", "server", "web", "tree-sitter-ctlpgn", "tests", "fuzz", "test-support"] {
        let manifest = read_text(&root.join(member).join("Cargo.toml"));
        assert!(
            manifest.contains("\nlicense.workspace = true\n"),
            "{member}/Cargo.toml takes the workspace's licence"
        );
    }
    for manifest in [
        "editors/vscode/package.json",
        "tree-sitter-ctlpgn/package.json",
        "tree-sitter-ctlpgn/tree-sitter.json",
    ] {
        let value: serde_json::Value = serde_json::from_str(&read_text(&root.join(manifest)))
            .unwrap_or_else(|e| panic!("{manifest}: {e}"));
        let licence = value.get("license").or_else(|| value.pointer("/metadata/license"));
        assert_eq!(licence.and_then(|l| l.as_str()), Some("MIT"), "{manifest}");
    }
    // The grammar's crate lists its files: the licence must be among them.
    let grammar = read_text(&root.join("tree-sitter-ctlpgn/Cargo.toml"));
    assert!(grammar.contains("\"LICENSE\""), "tree-sitter-ctlpgn's crate includes its LICENSE");
    assert!(
        read_text(&root.join("README.md")).contains("[MIT](LICENSE)"),
        "the README links the licence"
    );
}
