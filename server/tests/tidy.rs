//! Tidy checks on the source tree: every file says what it is for, the core stays pure, the
//! modules inside each module (the crates', `lsp`'s, `ide::hover`'s, …) import one another
//! without a cycle, docs/diagnostics.md lists every
//! diagnostic code with its name, and every node kind the code names is a constant of
//! `syntax::node_kind` that the grammar knows.

use std::collections::{BTreeMap, BTreeSet};

use ctlpgn_test_support::fixtures::{files_under, repository_dir};

#[test]
fn every_file_opens_with_a_doc_line() {
    let mut files = Vec::new();
    for crate_dir in [
        "core/src",
        "protocol/src",
        "server/src",
        "server/tests",
        "tests/src",
        "tests/tests",
        "tests/benches",
        "test-support/src",
        "fuzz/src",
        "tree-sitter-ctlpgn/bindings/rust",
    ] {
        files.extend(files_under(&repository_dir().join(crate_dir), ".rs"));
    }
    assert!(files.len() > 10);
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        assert!(text.starts_with("//!"), "{} does not open with a //! line", file.display());
    }
}

#[test]
fn the_core_names_no_protocol_crate_and_does_no_io() {
    // The compiler keeps the crate free of the edges' dependencies (core/Cargo.toml names
    // none); this keeps it free of the standard library's IO as well.
    let files = files_under(&repository_dir().join("core/src"), ".rs");
    assert!(files.len() > 100, "{}", files.len());
    for file in files {
        // Test modules may read the corpus; only the code they test must stay pure.
        if file.file_name().is_some_and(|name| name == "tests.rs") {
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
fn the_protocol_layer_names_no_transport_and_does_no_io() {
    // The compiler keeps the crate free of tokio and tower-lsp (protocol/Cargo.toml names
    // neither); this keeps it free of the standard library's IO, threads and clock, which a
    // worker in the browser does not have.
    let files = files_under(&repository_dir().join("protocol/src"), ".rs");
    assert!(files.len() > 10, "{}", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for forbidden in [
            "tower_lsp",
            "tokio",
            "std::fs",
            "std::io",
            "std::net",
            "std::thread",
            "Instant",
            "SystemTime",
        ] {
            assert!(
                !text.contains(forbidden),
                "{} names {forbidden}, but the protocol layer does no IO",
                file.display()
            );
        }
    }
}

/// A module of the crate by its path from the crate's root (`["lsp", "to_proto"]`).
type ModulePath = Vec<String>;

/// The length of the raw string (`r"…"`, `r#"…"#`, `br"…"`) that starts `rest`, if one does.
fn raw_string_length(rest: &[char]) -> Option<usize> {
    let r = usize::from(rest.first() == Some(&'b'));
    if rest.get(r) != Some(&'r') {
        return None;
    }
    let hashes = rest[r + 1..].iter().take_while(|&&c| c == '#').count();
    let open = r + 1 + hashes;
    if rest.get(open) != Some(&'"') {
        return None;
    }
    let close: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
    let end = (open + 1..rest.len()).find(|&at| rest[at..].starts_with(&close))?;
    Some(end + close.len())
}

/// The length of the comment, string or character literal that starts `rest`, if one does;
/// `after_word` when `rest` follows a letter, a digit or `_` (a word goes on: no literal).
fn literal_or_comment_length(rest: &[char], after_word: bool) -> Option<usize> {
    let up_to = |from: usize, end: &[char]| {
        (from..rest.len())
            .find(|&at| rest[at..].starts_with(end))
            .map_or(rest.len(), |at| at + end.len())
    };
    match rest {
        ['/', '/', ..] => Some(up_to(2, &['\n'])),
        ['/', '*', ..] => {
            let mut depth = 0;
            let mut at = 0;
            while at < rest.len() {
                if rest[at..].starts_with(&['/', '*']) {
                    depth += 1;
                    at += 2;
                } else if rest[at..].starts_with(&['*', '/']) {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
            Some(at)
        }
        ['"', ..] => {
            let mut at = 1;
            while at < rest.len() && rest[at] != '"' {
                at += if rest[at] == '\\' { 2 } else { 1 };
            }
            Some(at + 1)
        }
        // A character, plain or escaped (`'x'`, `'\''`, `'\u{2026}'`), not a lifetime (`'a`).
        ['\'', '\\', ..] => Some(up_to(3, &['\''])),
        ['\'', _, '\'', ..] => Some(3),
        _ if after_word => None,
        _ => raw_string_length(rest),
    }
}

/// A source file's code with its comments, its string and character literals and its test
/// items (those behind `#[cfg(test)]`) blanked out, so that only what the code names is left.
fn code_without_tests(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut code = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let after_word = at > 0 && (chars[at - 1].is_alphanumeric() || chars[at - 1] == '_');
        match literal_or_comment_length(&chars[at..], after_word) {
            Some(length) => {
                code.push(' ');
                at += length;
            }
            None => {
                code.push(chars[at]);
                at += 1;
            }
        }
    }
    // The test items: a `#[cfg(test)]` and the item after it, up to its `;` or its braces.
    let mut kept = String::with_capacity(code.len());
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        let mut depth = 0;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth == 0 && (c == ';' || c == '}')
            })
            .map_or(rest.len(), |(at, _)| at + 1);
        rest = &rest[end..];
    }
    kept.push_str(rest);
    kept
}

/// The tokens of code without comments and literals: words, `::` and single characters.
fn tokens(code: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut rest = code.trim_start();
    while let Some(first) = rest.chars().next() {
        let length = if first.is_alphanumeric() || first == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len())
        } else if rest.starts_with("::") {
            2
        } else {
            first.len_utf8()
        };
        tokens.push(&rest[..length]);
        rest = rest[length..].trim_start();
    }
    tokens
}

fn is_word(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphanumeric() || c == '_')
}

/// The paths a path of the code at `tokens[*at]` stands for, `{…}` groups spread out
/// (`super::{a, b::{self, C}}` is `super::a`, `super::b` and `super::b::C`), each with the
/// name it brings into scope when it is a `use` (its last segment, or the name after `as`).
fn paths(tokens: &[&str], at: &mut usize, prefix: Vec<String>) -> Vec<(Vec<String>, String)> {
    let mut segments = prefix;
    let mut found = Vec::new();
    while let Some(&token) = tokens.get(*at) {
        if token == "{" {
            *at += 1;
            while tokens.get(*at).is_some_and(|&token| token != "}") {
                found.extend(paths(tokens, at, segments.clone()));
                if tokens.get(*at) == Some(&",") {
                    *at += 1;
                }
            }
            *at += 1;
            return found;
        }
        if token == "*" || !is_word(token) {
            *at += 1;
            return found;
        }
        *at += 1;
        if token != "self" || segments.is_empty() {
            segments.push(token.to_string());
        }
        if tokens.get(*at) == Some(&"::") {
            *at += 1;
            continue;
        }
        let mut name = segments.last().cloned().unwrap_or_default();
        if tokens.get(*at) == Some(&"as") {
            name = tokens.get(*at + 1).map_or(String::new(), |alias| alias.to_string());
            *at += 2;
        }
        found.push((segments, name));
        return found;
    }
    found
}

/// The modules of the core and of its edges (one per source file outside the test modules),
/// each with its code, as one tree: the edges' `lsp` and `cli` beside the core's top-level
/// modules, their `ctlpgn_core::` paths read as `crate::`, so that one graph holds them all.
fn crate_modules() -> BTreeMap<ModulePath, String> {
    let mut modules = BTreeMap::new();
    // Each crate's folder, the module its root stands for in the one tree, and whether it is an
    // edge (a crate with a binary beside its library).
    for (crate_dir, root, edges) in [
        ("core/src", None, false),
        ("protocol/src", Some("protocol"), false),
        ("server/src", None, true),
    ] {
        let source = repository_dir().join(crate_dir);
        for file in files_under(&source, ".rs") {
            let relative = file.strip_prefix(&source).expect("inside src").with_extension("");
            let mut module: ModulePath = root
                .into_iter()
                .map(String::from)
                .chain(relative.components().map(|part| part.as_os_str().to_string_lossy().into()))
                .collect();
            if edges && (module == ["main"] || module == ["lib"]) {
                // The binary is a crate of its own, which names the library as `ctlpgn::`; the
                // edges' root only declares `cli` and `lsp`.
                continue;
            }
            if module.last().is_some_and(|last| last == "mod" || last == "lib") {
                module.pop();
            }
            let mut text = std::fs::read_to_string(&file).expect("readable");
            if let Some(root) = root {
                text = text.replace("crate::", &format!("crate::{root}::"));
            }
            let text = text
                .replace("ctlpgn_protocol::", "crate::protocol::")
                .replace("ctlpgn_core::", "crate::");
            modules.insert(module, text);
        }
    }
    // The files of the modules declared behind `#[cfg(test)]` are tests, not code.
    let mut tests = Vec::new();
    for (module, text) in &modules {
        for declared in text.split("#[cfg(test)]").skip(1) {
            let words: Vec<&str> = declared.split_whitespace().take(2).collect();
            if let ["mod", name] = words[..] {
                if let Some(name) = name.strip_suffix(';') {
                    tests.push([module.clone(), vec![name.to_string()]].concat());
                }
            }
        }
    }
    modules.retain(|module, _| !tests.iter().any(|test| module.starts_with(test)));
    modules.values_mut().for_each(|text| *text = code_without_tests(text));
    modules
}

/// What the code of each module names of the crate's other modules: every path it writes
/// (`crate::…`, `super::…`, `self::…`, or one that starts with a name a `use` brought in),
/// followed through the names the modules bring in with `use` (`crate::analysis::X`, when
/// `analysis` has `pub use line_of_play::X`, names `analysis::line_of_play`), and cut to the
/// longest path that is a module.
fn module_imports() -> BTreeMap<ModulePath, BTreeSet<ModulePath>> {
    let modules = crate_modules();
    let tokens: BTreeMap<&ModulePath, Vec<&str>> =
        modules.iter().map(|(module, code)| (module, tokens(code))).collect();
    // A path as written in `module`, from the crate's root, or `None` for another crate's.
    let absolute = |module: &ModulePath,
                    path: &[String],
                    names: &BTreeMap<ModulePath, BTreeMap<String, ModulePath>>| {
        let mut resolved = module.clone();
        let mut rest = path;
        match path.first().map(String::as_str) {
            Some("crate") => {
                resolved.clear();
                rest = &path[1..];
            }
            Some("self") => rest = &path[1..],
            Some("super") => {
                while rest.first().is_some_and(|segment| segment == "super") {
                    resolved.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                let child = [module.clone(), vec![first.to_string()]].concat();
                if let Some(named) = names.get(module).and_then(|names| names.get(first)) {
                    resolved = named.clone();
                    rest = &path[1..];
                } else if !modules.contains_key(&child) {
                    return None;
                }
            }
            None => return None,
        }
        resolved.extend(rest.iter().cloned());
        Some(resolved)
    };
    // The names each module's `use`s bring in, from the crate's root.
    let mut names: BTreeMap<ModulePath, BTreeMap<String, ModulePath>> = BTreeMap::new();
    for (&module, tokens) in &tokens {
        for at in 0..tokens.len() {
            if tokens[at] == "use" && at.checked_sub(1).is_none_or(|before| tokens[before] != "::")
            {
                let mut after = at + 1;
                for (path, name) in paths(tokens, &mut after, Vec::new()) {
                    if let Some(resolved) = absolute(module, &path, &BTreeMap::new()) {
                        names.entry(module.clone()).or_default().insert(name, resolved);
                    }
                }
            }
        }
    }
    // The module a path names, through the names brought in where it leads.
    let known_length = |path: &[String]| {
        (0..=path.len()).rev().find(|&length| modules.contains_key(&path[..length]))
    };
    let module_of = |mut path: ModulePath| {
        // A chain of names brought in is short; the limit only keeps a loop of them finite.
        for _ in 0..16 {
            let known = known_length(&path).unwrap_or(0);
            let brought = path
                .get(known)
                .and_then(|name| names.get(&path[..known])?.get(name))
                .filter(|target| !path.starts_with(target));
            match brought {
                Some(target) => path = [target.clone(), path[known + 1..].to_vec()].concat(),
                None => break,
            }
        }
        path.truncate(known_length(&path).unwrap_or(0));
        path
    };
    let mut imports: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    for (&module, tokens) in &tokens {
        let named = imports.entry(module.clone()).or_default();
        let mut at = 0;
        while at < tokens.len() {
            let starts_path = is_word(tokens[at])
                && tokens.get(at + 1) == Some(&"::")
                && at.checked_sub(1).is_none_or(|before| tokens[before] != "::");
            if !starts_path {
                at += 1;
                continue;
            }
            for (path, _) in paths(tokens, &mut at, Vec::new()) {
                if let Some(resolved) = absolute(module, &path, &names) {
                    named.insert(module_of(resolved));
                }
            }
        }
        named.remove(module);
    }
    imports
}

/// Within each module, which of its submodules import which (the crate's root holds the
/// top-level modules): `module::a` naming anything inside `module::b` is an import of `b` by
/// `a`, in the graph of `module`.
fn sibling_imports() -> BTreeMap<ModulePath, BTreeMap<String, BTreeSet<String>>> {
    let mut graphs: BTreeMap<ModulePath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (module, named) in module_imports() {
        for (depth, child) in module.iter().enumerate() {
            let graph = graphs.entry(module[..depth].to_vec()).or_default();
            graph.entry(child.clone()).or_default();
        }
        for other in named {
            let shared = module.iter().zip(&other).take_while(|(a, b)| a == b).count();
            if shared < module.len() && shared < other.len() {
                let graph = graphs.entry(module[..shared].to_vec()).or_default();
                graph.entry(module[shared].clone()).or_default().insert(other[shared].clone());
            }
        }
    }
    graphs
}

/// The modules of a graph that import one another in a cycle: modules are taken off while one
/// imports none of those left, or none of those left imports it; what remains are the cycles.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let mut left = graph.clone();
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
    left
}

#[test]
fn the_import_check_reads_paths_as_rust_does() {
    let code = code_without_tests(
        r##"use super::{a, b::{self, C as D}};
// crate::x /* crate::x */
/* crate::x /* nested */ crate::x */
let s = ("crate::y \" crate::y", r#"crate::y " crate::y"#, '"', '\'', b'"', "crate::y");
let c = '"'; crate::v::g(); let d = '"';
#[cfg(test)]
mod tests { use crate::z; }
fn f<'a>(_: &'a str) { crate::w::f() }"##,
    );
    let tokens = tokens(&code);
    let mut found = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        if tokens[at] == "use" || tokens[at] == "crate" {
            at += usize::from(tokens[at] == "use");
            found.extend(paths(&tokens, &mut at, Vec::new()));
        } else {
            at += 1;
        }
    }
    let found: Vec<String> =
        found.into_iter().map(|(path, name)| format!("{} {name}", path.join("::"))).collect();
    let expected = ["super::a a", "super::b b", "super::b::C D", "crate::v::g g", "crate::w::f f"];
    assert_eq!(found, expected);
    let mut graph = BTreeMap::new();
    for (module, named) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        graph.insert(module.to_string(), BTreeSet::from([named.to_string()]));
    }
    assert_eq!(cycles(&graph).keys().collect::<Vec<_>>(), ["a", "b", "c"]);
}

#[test]
fn the_modules_import_one_another_without_a_cycle_and_the_core_imports_no_edge() {
    let graphs = sibling_imports();
    let top = &graphs[&ModulePath::new()];
    assert!(top.len() > 10, "{top:?}");
    for (module, named) in top {
        if !["lsp", "cli", "protocol"].contains(&module.as_str()) {
            for edge in ["lsp", "cli", "protocol"] {
                assert!(!named.contains(edge), "the core module {module} imports {edge}");
            }
        }
    }
    let protocol = &top["protocol"];
    assert!(!protocol.contains("lsp") && !protocol.contains("cli"), "{protocol:?}");
    // The check sees into submodules: `protocol` and `lsp` have graphs of their own.
    assert!(graphs[&vec!["protocol".to_string()]].len() > 10, "{graphs:?}");
    assert!(graphs[&vec!["lsp".to_string()]].len() > 5, "{graphs:?}");
    let mut found = Vec::new();
    for (parent, graph) in &graphs {
        let name = if parent.is_empty() { "crate".to_string() } else { parent.join("::") };
        let left = cycles(graph);
        if !left.is_empty() {
            found.push(format!("in {name}: {left:?}"));
        }
    }
    assert!(found.is_empty(), "these modules import one another in a cycle:\n{}", found.join("\n"));
}

#[test]
fn the_manual_lists_every_code_with_its_name() {
    let page = std::fs::read_to_string(repository_dir().join("docs/diagnostics.md"))
        .expect("the manual's diagnostics page exists");
    for code in ctlpgn_core::diagnostics::Code::ALL {
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
    let path = repository_dir().join("core/src/syntax/node_kind.rs");
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
    let path = repository_dir().join("tree-sitter-ctlpgn/src/node-types.json");
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

    let mut files = files_under(&repository_dir().join("core/src"), ".rs");
    files.extend(files_under(&repository_dir().join("server/src"), ".rs"));
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
