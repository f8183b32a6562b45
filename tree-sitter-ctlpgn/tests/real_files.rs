//! Every real game file parses without an ERROR or MISSING node: the engine-generated games
//! (`testdata/corpus/valid`, `testdata/corpus/incoherent`; incoherent games are syntactically
//! sound) and the valid handbook examples (`testdata/examples/0*.ctl-pgn`).

mod common;

use std::path::Path;

/// The first ERROR or MISSING node of a tree in pre-order, as `kind at row:column`: a cursor
/// walk, so that a deeply nested tree costs no stack.
fn first_error(node: tree_sitter::Node<'_>) -> Option<String> {
    let mut cursor = node.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            let p = node.start_position();
            return Some(format!(
                "{} at {}:{} ({})",
                if node.is_missing() { "MISSING" } else { "ERROR" },
                p.row + 1,
                p.column + 1,
                node.to_sexp()
            ));
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return None;
            }
        }
    }
}

fn count_records(root: tree_sitter::Node<'_>) -> usize {
    let mut cursor = root.walk();
    root.children(&mut cursor).filter(|n| n.kind() == "record").count()
}

#[test]
fn real_files_parse_without_errors() {
    let mut parser = common::new_parser();
    let files = common::real_game_files();
    let mut failures = Vec::new();
    for path in &files {
        let text = common::read(path);
        let tree = parser.parse(&text, None).expect("a tree");
        let root = tree.root_node();
        let name = path.strip_prefix(common::testdata_dir()).unwrap_or(path).display().to_string();
        if root.has_error() {
            let at = first_error(root).unwrap_or_else(|| "somewhere".to_string());
            failures.push(format!("{name}: {at}"));
            continue;
        }
        // Each `[Variant` line opens one record; nothing is left outside the records.
        let variant_lines =
            text.lines().filter(|l| l.trim_start().starts_with("[Variant ")).count();
        if count_records(root) != variant_lines {
            failures.push(format!(
                "{name}: {} records for {variant_lines} `[Variant` lines",
                count_records(root)
            ));
        }
        if root.end_byte() != text.len() && !text[root.end_byte()..].trim().is_empty() {
            failures.push(format!("{name}: the tree ends at byte {}", root.end_byte()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} real files do not parse cleanly:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
    eprintln!("{} real files parse cleanly", files.len());
}

#[test]
fn the_three_folders_are_all_read() {
    let files = common::real_game_files();
    for folder in ["valid", "incoherent", "examples"] {
        assert!(
            files.iter().any(|f| f.parent().and_then(Path::file_name).is_some_and(|n| n == folder)),
            "no file read from the `{folder}` folder"
        );
    }
    // The invalid examples (`bad-*`) are not part of this test.
    assert!(files.iter().all(|f| !f
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .starts_with("bad-")));
}
