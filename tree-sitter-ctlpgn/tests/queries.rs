//! The highlight and fold queries compile against the grammar, use capture names editors
//! understand, cover every leaf kind, and capture what they should on a small sample.

mod common;

use std::collections::BTreeSet;

use tree_sitter::{Query, QueryCursor, StreamingIterator as _};

fn language() -> tree_sitter::Language {
    tree_sitter_ctlpgn::LANGUAGE.into()
}

fn compile(source: &str, what: &str) -> Query {
    Query::new(&language(), source)
        .unwrap_or_else(|e| panic!("the {what} query does not compile: {e}"))
}

/// Capture names of Neovim's highlight groups (the subset that makes sense here).
const NEOVIM_CAPTURES: &[&str] = &[
    "attribute",
    "comment",
    "constant",
    "constant.builtin",
    "keyword",
    "keyword.directive",
    "keyword.operator",
    "label",
    "number",
    "operator",
    "property",
    "punctuation.bracket",
    "punctuation.delimiter",
    "punctuation.special",
    "spell",
    "string",
    "string.escape",
    "string.special",
    "type",
    "variable.builtin",
];

#[test]
fn the_queries_compile() {
    let highlights = compile(tree_sitter_ctlpgn::HIGHLIGHTS_QUERY, "highlights");
    assert!(highlights.pattern_count() > 0);
    let folds = compile(tree_sitter_ctlpgn::FOLDS_QUERY, "folds");
    assert_eq!(folds.capture_names(), ["fold"]);
}

#[test]
fn highlight_captures_are_standard_names() {
    let highlights = compile(tree_sitter_ctlpgn::HIGHLIGHTS_QUERY, "highlights");
    for name in highlights.capture_names() {
        assert!(NEOVIM_CAPTURES.contains(name), "non-standard capture name @{name}");
    }
}

/// The named, visible, non-structural kinds of the grammar that `query` has no pattern for.
fn kinds_without_pattern(query: &str) -> Vec<String> {
    const STRUCTURAL: &[&str] = &[
        "source_file",
        "record",
        "tag_section",
        "tag",
        "move_line",
        "half_move",
        "variation",
        "stray_close",
    ];
    let language = language();
    let mut kinds = BTreeSet::new();
    for id in 0..language.node_kind_count() {
        let id = u16::try_from(id).expect("a kind id");
        if language.node_kind_is_named(id) && language.node_kind_is_visible(id) {
            if let Some(kind) = language.node_kind_for_id(id) {
                kinds.insert(kind.to_string());
            }
        }
    }
    kinds
        .into_iter()
        .filter(|kind| kind != "ERROR" && !STRUCTURAL.contains(&kind.as_str()))
        .filter(|kind| tree_sitter_ctlpgn::NODE_TYPES.contains(&format!("\"type\": \"{kind}\"")))
        .filter(|kind| !query.contains(&format!("({kind})")))
        .collect()
}

#[test]
fn every_leaf_kind_is_highlighted() {
    let missing = kinds_without_pattern(tree_sitter_ctlpgn::HIGHLIGHTS_QUERY);
    assert!(missing.is_empty(), "kinds without a highlight pattern: {missing:?}");
    // The check itself notices a missing pattern.
    let reduced = tree_sitter_ctlpgn::HIGHLIGHTS_QUERY.replace("(label) @label", "");
    assert_eq!(kinds_without_pattern(&reduced), ["label"]);
}

/// The captures of `query` on `text`, as (capture name, captured text) pairs.
fn captures(query_source: &str, text: &str) -> Vec<(String, String)> {
    let query = compile(query_source, "highlights");
    let mut parser = common::new_parser();
    let tree = parser.parse(text, None).expect("a tree");
    assert!(!tree.root_node().has_error(), "the sample parses: {}", tree.root_node().to_sexp());
    let mut cursor = QueryCursor::new();
    let mut found = Vec::new();
    let mut it = cursor.captures(&query, tree.root_node(), text.as_bytes());
    while let Some((m, index)) = it.next() {
        let capture = m.captures()[*index];
        found.push((
            query.capture_names()[capture.index as usize].to_string(),
            text[capture.node.byte_range()].to_string(),
        ));
    }
    found
}

fn assert_captured(found: &[(String, String)], name: &str, text: &str) {
    assert!(
        found.iter().any(|(n, t)| n == name && t == text),
        "`{text}` is not captured as @{name}; captures: {found:?}"
    );
}

const SAMPLE: &str = "[Variant \"C'escacs\"]
[Event \"The \\\"Open\\\"\"]
1. NE3-F8, E13×☖F16 !
2. KRK-II+^:
($[1] 2. …, B22-B24=D)
.{ @W: see ~K on ~F14, #1@B and $24 }
3-0
";

#[test]
fn highlights_of_a_sample() {
    let found = captures(tree_sitter_ctlpgn::HIGHLIGHTS_QUERY, SAMPLE);
    // `NE3-F8`: the piece is a type, the coordinates constants, the dash an operator.
    assert_captured(&found, "type", "N");
    assert_captured(&found, "constant", "E3");
    assert_captured(&found, "constant", "F8");
    assert_captured(&found, "operator", "-");
    assert_captured(&found, "operator", "×");
    assert_captured(&found, "type", "☖");
    assert_captured(&found, "attribute", "!");
    assert_captured(&found, "attribute", ":");
    assert_captured(&found, "keyword", "KRK-II");
    assert_captured(&found, "keyword.operator", "+^");
    assert_captured(&found, "keyword.operator", "=D");
    assert_captured(&found, "number", "1.");
    assert_captured(&found, "punctuation.special", "…");
    assert_captured(&found, "punctuation.delimiter", ",");
    assert_captured(&found, "punctuation.delimiter", ".");
    assert_captured(&found, "property", "Variant");
    assert_captured(&found, "string", "\"C'escacs\"");
    assert_captured(&found, "string", "\"The \\\"Open\\\"\"");
    assert_captured(&found, "punctuation.bracket", "[");
    assert_captured(&found, "punctuation.bracket", "(");
    assert_captured(&found, "label", "$[1]");
    assert_captured(&found, "keyword", "@W:");
    assert_captured(&found, "type", "~K");
    assert_captured(&found, "constant", "~F14");
    assert_captured(&found, "label", "#1@B");
    assert_captured(&found, "number", "$24");
    assert_captured(&found, "constant.builtin", "3-0");
    assert!(
        found.iter().any(|(n, t)| n == "comment" && t.starts_with(".{ @W:") && t.ends_with('}')),
        "the comment is captured whole: {found:?}"
    );
    // A coordinate is never a type, a piece never a constant.
    assert!(!found.iter().any(|(n, t)| n == "type" && t == "E3"));
    assert!(!found.iter().any(|(n, t)| n == "constant" && t == "N"));
}

#[test]
fn folds_of_a_sample() {
    let text = "[Variant \"C'escacs\"]\n[Event \"x\"]\n1. E7-E13, E21-E15\n(1. F8-F12\n.{ a\n.  b }\n)\n*\n";
    let found = captures(tree_sitter_ctlpgn::FOLDS_QUERY, text);
    let folded: Vec<&str> = found.iter().map(|(_, t)| t.as_str()).collect();
    assert!(folded.contains(&text.trim_end()), "the record folds: {folded:?}");
    assert!(
        folded.contains(&"[Variant \"C'escacs\"]\n[Event \"x\"]"),
        "the tag section folds: {folded:?}"
    );
    assert!(folded.contains(&"(1. F8-F12\n.{ a\n.  b }\n)"), "the variation folds: {folded:?}");
    assert!(folded.contains(&".{ a\n.  b }"), "the comment folds: {folded:?}");
}
