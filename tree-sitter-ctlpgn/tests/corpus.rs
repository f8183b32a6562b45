//! Runs every case of `test/corpus/*.txt` without the tree-sitter CLI.
//!
//! The corpus files use the format of `tree-sitter test`: a header (a line of `=`, the case
//! name, optional attribute lines such as `:error` or `:skip`, a line of `=`), the input, a
//! line of `-` (the longest such line of the case), then the expected S-expression. The input
//! is everything between the header and the divider minus one trailing line end, exactly as
//! the CLI reads it.
//!
//! The expected tree is compared with `tree.root_node().to_sexp()` after both are normalised
//! the way the CLI does it (comment lines starting with `;` dropped, whitespace runs collapsed
//! to one space, no space before `)`). When the expected tree carries field names
//! (`name: (tag_name)`), they must match exactly; when it carries none, the field names are
//! stripped from the actual tree first, as the CLI does.
//!
//! Set `CTLPGN_UPDATE_CORPUS=1` to rewrite the expected trees from the current parser (with
//! field names, including trees with ERROR and MISSING nodes, which `tree-sitter test
//! --update` refuses to write). Read every rewritten tree before keeping it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One case of a corpus file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Case {
    name: String,
    /// The attribute lines of the header, verbatim (used when rewriting the file).
    attributes_str: String,
    skip: bool,
    /// `:error`: the input must parse with an error; the expected tree is not compared.
    error: bool,
    header_delim_len: usize,
    divider_delim_len: usize,
    input: String,
    /// The expected tree, raw (as written in the file).
    expected_raw: String,
}

/// Splits a line into the run of `c` it starts with (at least three) and the suffix after it.
fn delimiter_line(line: &str, c: char) -> Option<(usize, &str)> {
    let delim_len = line.len() - line.trim_start_matches(c).len();
    if delim_len < 3 {
        return None;
    }
    Some((delim_len, line[delim_len..].trim_end_matches(['\r', '\n'])))
}

fn suffix_matches(first_suffix: Option<&str>, suffix: &str) -> bool {
    match first_suffix {
        None => suffix.is_empty(),
        Some(first) => !suffix.is_empty() && first == suffix,
    }
}

/// Parses the content of a corpus file into its cases, following the CLI's reader.
fn parse_corpus(content: &str) -> Result<Vec<Case>, String> {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let first_suffix = lines.iter().find_map(|line| match delimiter_line(line, '=') {
        Some((_, suffix)) if !suffix.is_empty() => Some(suffix.to_string()),
        _ => None,
    });
    let first_suffix = first_suffix.as_deref();

    // (header, line index where the body starts, line index where the header starts)
    let mut headers: Vec<(Case, usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match parse_header(&lines, first_suffix, i)? {
            Some((case, body_start)) => {
                headers.push((case, body_start, i));
                i = body_start;
            }
            None => i += 1,
        }
    }

    let mut cases = Vec::new();
    for (k, (mut case, body_start, _)) in headers.iter().cloned().enumerate() {
        let body_end = headers.get(k + 1).map_or(lines.len(), |h| h.2);
        let body = &lines[body_start..body_end];
        // The longest divider; for ties the later one (an earlier `---` is input).
        let mut best: Option<(usize, usize)> = None;
        let mut best_len = 0;
        for (j, line) in body.iter().enumerate() {
            if let Some((len, suffix)) = delimiter_line(line, '-') {
                if suffix_matches(first_suffix, suffix) && len + suffix.len() >= best_len {
                    best_len = len + suffix.len();
                    best = Some((len, j));
                }
            }
        }
        let Some((divider_len, divider_line)) = best else {
            return Err(format!("case `{}` has no `---` divider", case.name));
        };
        let mut input: String = body[..divider_line].concat();
        if input.ends_with('\n') {
            input.pop();
        }
        if input.ends_with('\r') {
            input.pop();
        }
        case.input = input;
        case.divider_delim_len = divider_len;
        case.expected_raw = body[divider_line + 1..].concat();
        cases.push(case);
    }
    Ok(cases)
}

/// Reads the header that starts at `lines[start]`, if there is one there.
fn parse_header(
    lines: &[&str],
    first_suffix: Option<&str>,
    start: usize,
) -> Result<Option<(Case, usize)>, String> {
    let Some((header_delim_len, suffix)) = delimiter_line(lines[start], '=') else {
        return Ok(None);
    };
    if !suffix_matches(first_suffix, suffix) {
        return Ok(None);
    }
    let mut name = String::new();
    let mut attributes_str = String::new();
    let (mut seen_marker, mut skip, mut error) = (false, false, false);
    let mut i = start + 1;
    loop {
        let Some(line) = lines.get(i) else {
            return Ok(None); // no closing `===` line
        };
        if let Some((_, closing_suffix)) = delimiter_line(line, '=') {
            if suffix_matches(first_suffix, closing_suffix) {
                break;
            }
        }
        let trimmed = line.trim();
        if trimmed.is_empty() && !seen_marker {
            return Ok(None); // a literal `===` inside a case body
        }
        let head = trimmed.split('(').next().unwrap_or(trimmed);
        match head {
            ":skip" => (seen_marker, skip) = (true, true),
            ":error" => (seen_marker, error) = (true, true),
            ":fail-fast" | ":platform" | ":language" => seen_marker = true,
            ":cst" => {
                return Err(format!(
                    "case `{}`: the `:cst` attribute is not supported by this runner",
                    name.trim_end()
                ))
            }
            _ if !seen_marker => name.push_str(line),
            _ => {}
        }
        if seen_marker {
            attributes_str.push_str(line);
        }
        i += 1;
    }
    let case = Case {
        name: name.trim_end().to_string(),
        attributes_str: attributes_str.trim_end().to_string(),
        skip,
        error: error && !skip,
        header_delim_len,
        divider_delim_len: 0,
        input: String::new(),
        expected_raw: String::new(),
    };
    Ok(Some((case, i + 1)))
}

/// Normalises an S-expression as the CLI does: drops `;` comment lines, collapses whitespace
/// runs to one space, removes the space before `)`.
fn normalize_sexp(raw: &str) -> String {
    let mut result = String::with_capacity(raw.len());
    let mut prev_was_space = false;
    for line in raw.lines() {
        if line.trim_start().starts_with(';') {
            continue;
        }
        for ch in line.chars() {
            if ch.is_whitespace() {
                if !prev_was_space && !result.is_empty() {
                    result.push(' ');
                    prev_was_space = true;
                }
            } else {
                if ch == ')' && prev_was_space {
                    result.pop();
                }
                result.push(ch);
                prev_was_space = false;
            }
        }
        if !result.is_empty() && !prev_was_space {
            result.push(' ');
            prev_was_space = true;
        }
    }
    result.trim_end().to_string()
}

/// Removes the field names (` word: (` becomes ` (`) from a `to_sexp()` string.
fn strip_fields(sexp: &str) -> String {
    let mut result = String::with_capacity(sexp.len());
    let mut remaining = sexp;
    while let Some(pos) = remaining.find(": (") {
        match remaining[..pos].rfind(' ') {
            Some(space)
                if space + 1 < pos
                    && remaining[space + 1..pos]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
            {
                result.push_str(&remaining[..=space]);
                result.push('(');
                remaining = &remaining[pos + 3..];
            }
            _ => {
                result.push_str(&remaining[..pos + 3]);
                remaining = &remaining[pos + 3..];
            }
        }
    }
    result.push_str(remaining);
    result
}

/// Pretty-prints a `to_sexp()` string like the CLI: one node per line, two spaces per level,
/// a field name on the line of its node, `(MISSING …)` and `(UNEXPECTED …)` kept whole.
fn format_sexp(sexp: &str) -> String {
    let chars: Vec<char> = sexp.chars().collect();
    let mut out = String::new();
    let mut depth = 0usize;
    let mut pending_field = false;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            ' ' => i += 1,
            '(' => {
                // Read the node name.
                let start = i;
                let mut j = i + 1;
                while j < chars.len() && !matches!(chars[j], ' ' | '(' | ')') {
                    j += 1;
                }
                let name: String = chars[start + 1..j].iter().collect();
                if !pending_field && !out.is_empty() {
                    out.push('\n');
                    out.push_str(&"  ".repeat(depth));
                }
                pending_field = false;
                if name == "MISSING" || name == "UNEXPECTED" {
                    // Copy up to the matching `)`, minding quoted strings.
                    let mut k = j;
                    let mut quote: Option<char> = None;
                    while k < chars.len() {
                        let c = chars[k];
                        match quote {
                            Some(_) if c == '\\' => k += 1,
                            Some(q) if c == q => quote = None,
                            Some(_) => {}
                            None if c == '"' || c == '\'' => quote = Some(c),
                            None if c == ')' => break,
                            None => {}
                        }
                        k += 1;
                    }
                    let whole: String = chars[start..=k.min(chars.len() - 1)].iter().collect();
                    out.push_str(&whole);
                    i = k + 1;
                } else {
                    out.push('(');
                    out.push_str(&name);
                    depth += 1;
                    i = j;
                }
            }
            ')' => {
                out.push(')');
                depth = depth.saturating_sub(1);
                i += 1;
            }
            _ => {
                // A field name (`name:`) or a stray atom.
                let start = i;
                while i < chars.len() && !matches!(chars[i], ' ' | '(' | ')') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                out.push('\n');
                out.push_str(&"  ".repeat(depth));
                out.push_str(&word);
                if word.ends_with(':') {
                    out.push(' ');
                    pending_field = true;
                }
            }
        }
    }
    out
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test").join("corpus")
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let entries = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus folder {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no corpus file in {}", dir.display());
    files
}

fn new_parser() -> tree_sitter::Parser {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&tree_sitter_ctlpgn::LANGUAGE.into()).expect("the CTL-PGN grammar loads");
    parser
}

/// The outcome of one case: `Ok` or a description of the mismatch.
fn check_case(parser: &mut tree_sitter::Parser, case: &Case) -> Result<(), String> {
    let tree =
        parser.parse(&case.input, None).ok_or_else(|| "the parser returned no tree".to_string())?;
    let root = tree.root_node();
    if case.error {
        return if root.has_error() {
            Ok(())
        } else {
            Err(format!(
                "expected an error (`:error`), got a clean tree:\n{}",
                format_sexp(&root.to_sexp())
            ))
        };
    }
    let expected = normalize_sexp(&case.expected_raw);
    let mut actual = root.to_sexp();
    if !expected.contains(": (") {
        actual = strip_fields(&actual);
    }
    if actual == expected {
        Ok(())
    } else {
        Err(format!("expected:\n{}\n\nactual:\n{}", format_sexp(&expected), format_sexp(&actual)))
    }
}

/// Rewrites a corpus file with the trees of the current parser (CLI layout).
fn update_file(path: &Path, parser: &mut tree_sitter::Parser, cases: &[Case]) {
    let mut out = String::new();
    for (i, case) in cases.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let tree = parser.parse(&case.input, None).expect("a tree");
        let output = if case.error || case.skip {
            case.expected_raw.trim().to_string()
        } else {
            format_sexp(&tree.root_node().to_sexp())
        };
        let equals = "=".repeat(case.header_delim_len);
        let attributes = if case.attributes_str.is_empty() {
            String::new()
        } else {
            format!("{}\n", case.attributes_str)
        };
        let _ = writeln!(
            out,
            "{equals}\n{}\n{attributes}{equals}\n{}\n{}\n\n{}",
            case.name,
            case.input,
            "-".repeat(case.divider_delim_len),
            output
        );
    }
    std::fs::write(path, out).expect("the corpus file is writable");
}

#[test]
fn corpus() {
    let update = std::env::var_os("CTLPGN_UPDATE_CORPUS").is_some_and(|v| v == "1");
    let mut parser = new_parser();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in corpus_files() {
        let file_name = path.file_name().unwrap_or_default().to_string_lossy().to_string();
        let content = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let cases = parse_corpus(&content).unwrap_or_else(|e| panic!("{file_name}: {e}"));
        assert!(!cases.is_empty(), "{file_name} holds no case");
        if update {
            update_file(&path, &mut parser, &cases);
            continue;
        }
        for case in &cases {
            if case.skip {
                continue;
            }
            count += 1;
            if let Err(message) = check_case(&mut parser, case) {
                failures.push(format!("{file_name}: `{}`\n{message}", case.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} corpus cases failed:\n\n{}\n\nfailed cases:\n{}",
        failures.len(),
        failures.join("\n\n"),
        failures
            .iter()
            .map(|f| format!("  {}", f.lines().next().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!("{count} corpus cases passed");
}

// ---- Tests of the runner itself ------------------------------------------------------------

const SAMPLE: &str = "\
==================
First case
==================

[Variant \"C'escacs\"]

---

(source_file
  (record
    (tag_section
      (tag
        name: (tag_name)
        value: (tag_value)))))

=====
Second case, no fields
:error
=====
1. E7-E13 E21-E15
---

(source_file)

==================
Third case, no fields
==================
1. E7-E13
----------
; a comment line
(source_file (record (move_line (move_number)
   (half_move (coordinate) (separator) (coordinate)) ) ))
";

#[test]
fn the_reader_splits_cases_like_the_cli() {
    let cases = parse_corpus(SAMPLE).expect("the sample parses");
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0].name, "First case");
    assert_eq!(cases[0].input, "\n[Variant \"C'escacs\"]\n");
    assert!(!cases[0].error);
    assert_eq!(cases[1].name, "Second case, no fields");
    assert!(cases[1].error);
    assert_eq!(cases[1].attributes_str, ":error");
    assert_eq!(cases[1].input, "1. E7-E13 E21-E15");
    assert_eq!(cases[2].input, "1. E7-E13");
    assert_eq!(cases[2].divider_delim_len, 10);
    assert_eq!(
        normalize_sexp(&cases[2].expected_raw),
        "(source_file (record (move_line (move_number) \
         (half_move (coordinate) (separator) (coordinate)))))"
    );
    let mut parser = new_parser();
    for case in &cases {
        check_case(&mut parser, case).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    }
}

#[test]
fn field_names_are_compared_exactly() {
    let mut parser = new_parser();
    let mut case = parse_corpus(SAMPLE).expect("the sample parses").remove(0);
    // The normalised expectation is exactly `to_sexp()`, field names included.
    let tree = parser.parse(&case.input, None).expect("a tree");
    assert_eq!(normalize_sexp(&case.expected_raw), tree.root_node().to_sexp());
    assert!(check_case(&mut parser, &case).is_ok());
    // A wrong field name fails.
    case.expected_raw = case.expected_raw.replace("value: (tag_value)", "val: (tag_value)");
    assert!(check_case(&mut parser, &case).is_err());
    // A missing field name, when other fields are written, fails too.
    case.expected_raw = case.expected_raw.replace("val: (tag_value)", "(tag_value)");
    assert!(check_case(&mut parser, &case).is_err());
}

#[test]
fn a_wrong_expectation_fails() {
    let mut parser = new_parser();
    let mut case = parse_corpus(SAMPLE).expect("the sample parses").remove(2);
    assert!(check_case(&mut parser, &case).is_ok());
    // `x` read as a piece instead of a separator, say.
    case.expected_raw = case.expected_raw.replace("(separator)", "(piece)");
    let message = check_case(&mut parser, &case).expect_err("the wrong tree is rejected");
    assert!(message.contains("(piece)") && message.contains("(separator)"));
    // A node too many.
    let mut case = parse_corpus(SAMPLE).expect("the sample parses").remove(2);
    case.expected_raw = case.expected_raw.replace("(move_number)", "(move_number) (rating)");
    assert!(check_case(&mut parser, &case).is_err());
    // `:error` on a clean input fails.
    let mut case = parse_corpus(SAMPLE).expect("the sample parses").remove(2);
    case.error = true;
    assert!(check_case(&mut parser, &case).is_err());
}

#[test]
fn format_sexp_matches_the_cli_layout() {
    assert_eq!(
        format_sexp("(a b: (c) (d) e: (f (g (h (MISSING i)))))"),
        "(a\n  b: (c)\n  (d)\n  e: (f\n    (g\n      (h\n        (MISSING i)))))"
    );
    assert_eq!(format_sexp("(source_file (MISSING \")\"))"), "(source_file\n  (MISSING \")\"))");
    assert_eq!(
        format_sexp("(program (ERROR (UNEXPECTED ' ')) (identifier))"),
        "(program\n  (ERROR\n    (UNEXPECTED ' '))\n  (identifier))"
    );
    let sexp = "(a b: (c) (d (MISSING \"]\")) e: (f))";
    assert_eq!(normalize_sexp(&format_sexp(sexp)), sexp);
}
