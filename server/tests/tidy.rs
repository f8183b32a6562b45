//! Tidy checks on the source tree: every file says what it is for, the core stays pure, the
//! crate's modules import one another without a cycle, docs/diagnostics.md lists every
//! diagnostic code with its name, and every node kind the code names is a constant of
//! `syntax::node_kind` that the grammar knows.

use std::collections::{BTreeMap, BTreeSet};
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

/// The crate's top-level modules (`analysis`, `syntax`, `lsp`, …), each with the others its
/// code outside test modules names as `crate::…`.
fn module_imports() -> BTreeMap<String, BTreeSet<String>> {
    let source = workspace().join("server/src");
    let mut files = Vec::new();
    rust_files(&source, &mut files);
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(&source).expect("inside src");
        let first = relative.components().next().expect("a path inside src");
        let module = first.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        let text = std::fs::read_to_string(&file).expect("readable");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        let named = imports.entry(module.clone()).or_default();
        for (at, _) in code.match_indices("crate::") {
            let rest = &code[at + "crate::".len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(0);
            if end > 0 && rest[..end] != module {
                named.insert(rest[..end].to_string());
            }
        }
    }
    imports
}

#[test]
fn the_modules_import_one_another_without_a_cycle_and_the_core_imports_no_edge() {
    let imports = module_imports();
    assert!(imports.len() > 10, "{imports:?}");
    for (module, named) in &imports {
        if !["lsp", "cli", "main"].contains(&module.as_str()) {
            for edge in ["lsp", "cli"] {
                assert!(!named.contains(edge), "the core module {module} imports {edge}");
            }
        }
    }
    // Modules are taken off while one imports none of those left, or none of those left
    // imports it; what remains are the cycles.
    let mut left = imports.clone();
    while let Some(outside) = left
        .iter()
        .find(|(module, named)| {
            named.iter().all(|other| !left.contains_key(other))
                || left.values().all(|others| !others.contains(*module))
        })
        .map(|(module, _)| module.clone())
    {
        left.remove(&outside);
    }
    assert!(left.is_empty(), "these modules import one another in a cycle: {left:?}");
}

#[test]
fn the_manual_lists_every_code_with_its_name() {
    let page = std::fs::read_to_string(workspace().join("docs/diagnostics.md"))
        .expect("the manual's diagnostics page exists");
    for code in ctlpgn::diagnostics::Code::ALL {
        let row = format!(
            "| [{}](#{}-{}) | `{}` |",
            code.as_str(),
            code.as_str().to_lowercase(),
            code.name(),
            code.name()
        );
        assert!(page.contains(&row), "docs/diagnostics.md lacks the row {row}");
    }
}

/// The constants of `syntax/node_kind.rs`: `(name, kind)`.
fn node_kind_constants() -> Vec<(String, String)> {
    let path = workspace().join("server/src/syntax/node_kind.rs");
    let text = std::fs::read_to_string(&path).expect("node_kind.rs exists");
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("pub const ")?;
            let (name, value) = rest.split_once(": &str = \"")?;
            Some((name.to_string(), value.strip_suffix("\";")?.to_string()))
        })
        .collect()
}

/// The kinds of the grammar's `node-types.json`, named and anonymous.
fn grammar_kinds() -> Vec<String> {
    let path = workspace().join("tree-sitter-ctlpgn/src/node-types.json");
    let text = std::fs::read_to_string(&path).expect("the grammar's node-types.json");
    let types: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    types
        .as_array()
        .expect("an array of node types")
        .iter()
        .filter_map(|node_type| Some(node_type["type"].as_str()?.to_string()))
        .collect()
}

#[test]
fn every_node_kind_constant_is_a_kind_of_the_grammar() {
    let kinds = grammar_kinds();
    let constants = node_kind_constants();
    assert!(constants.len() > 30, "only {} constants were read", constants.len());
    for (name, kind) in constants {
        // tree-sitter's own kind for text it could not place has no rule in the grammar.
        let builtin = name == "ERROR" && kind == "ERROR";
        assert!(
            builtin || kinds.contains(&kind),
            "node_kind::{name} = {kind:?} is not a kind of the grammar"
        );
    }
}

/// The places of a file that compare a node's kind with a string literal: `kind() == "…"`
/// with any literal; `kind != "…"` (a kind kept in a variable) and `parent == Some("…")` (the
/// kind of the parent) with a literal that is one of the grammar's `kinds`, since other things
/// have kinds too; and the arms of a `match … .kind() {` that begin with a literal.
fn kinds_compared_with_literals(text: &str, kinds: &[String]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // The brace depth inside a `match` on a kind, counted from its opening line.
    let mut in_match: Option<i64> = None;
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let called = ["kind() ==", "kind() !="]
            .iter()
            .any(|left| code.split(left).skip(1).any(|right| right.trim_start().starts_with('"')));
        let kept = ["kind ==", "kind !=", "parent =="].iter().any(|left| {
            code.split(left).skip(1).any(|right| {
                let right = right.trim_start();
                let literal = right.strip_prefix("Some(").unwrap_or(right).strip_prefix('"');
                let value = literal.and_then(|rest| rest.split('"').next());
                value.is_some_and(|value| kinds.iter().any(|kind| kind == value))
            })
        });
        let compared = called || kept;
        let arm = in_match == Some(1) && code.trim_start().starts_with('"');
        if compared || arm {
            found.push((index + 1, line.trim().to_string()));
        }
        let braces = code.matches('{').count() as i64 - code.matches('}').count() as i64;
        in_match = match in_match {
            None if code.contains("match ") && code.trim_end().ends_with(".kind() {") => Some(1),
            None => None,
            Some(depth) if depth + braces <= 0 => None,
            Some(depth) => Some(depth + braces),
        };
    }
    found
}

#[test]
fn node_kinds_are_compared_only_with_the_node_kind_constants() {
    // The check itself catches each form it looks for.
    let sample = "if child.kind() == \"record\" {}\nlet kind = match node.kind() {\n    \"tag\" | \"x\" => 1,\n    node_kind::TAG => { \"not an arm\" }\n};\nif kind != \")\" {}\nif kind == \"invalid_coordinate\" {}\n";
    let kinds = grammar_kinds();
    let caught: Vec<usize> =
        kinds_compared_with_literals(sample, &kinds).into_iter().map(|(line, _)| line).collect();
    assert_eq!(caught, [1, 3, 6]);

    let mut files = Vec::new();
    rust_files(&workspace().join("server/src"), &mut files);
    let mut offences = Vec::new();
    for file in files {
        if file.ends_with("syntax/node_kind.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        for (line, code) in kinds_compared_with_literals(&text, &kinds) {
            offences.push(format!("{}:{line}: {code}", file.display()));
        }
    }
    assert!(
        offences.is_empty(),
        "node kinds compared with string literals (use syntax::node_kind):\n{}",
        offences.join("\n")
    );
}
