//! The manual's page of diagnostic codes (docs/diagnostics.md) is generated here: from the table
//! of codes (`Code::ALL`: name, severity, meaning), the example record of each code
//! (`testdata/diagnostics/<CODE>.ctl-pgn`), what `ctlpgn check` prints for it, and the quick
//! fixes of its diagnostics. Each example must raise its code and no other. The test fails
//! when the page is stale; `UPDATE_EXPECT=1` writes it instead.

use std::fmt::Write as _;
use std::path::PathBuf;

use ctlpgn_core::analysis::RuleChecks;
use ctlpgn_core::diagnostics::{Census, Code, Diagnostic};
use ctlpgn_test_support::diagnostics::diagnostics_in_file;
use ctlpgn_test_support::expect::ExpectFiles;
use ctlpgn_test_support::fixtures::{repository_dir, testdata_dir, testdata_files};

/// The page, from the repository's root.
const PAGE: &str = "docs/diagnostics.md";

/// The codes whose example raises another code too, which it cannot do without: S015 counts
/// the findings of one part of a record past its hundredth, so its example holds more than a
/// hundred of another code (N010).
const WITH_ANOTHER: &[(Code, Code)] = &[(Code::S015, Code::N010)];

/// An example or a printout longer than this is shown cut, with how many lines are left out.
const MOST_LINES: usize = 30;

/// The families of codes, by their letter, as the handbook's §14 names them.
const FAMILIES: &[(&str, &str)] = &[
    ("S", "Syntax (S)"),
    ("C", "Coordinates (C)"),
    ("K", "Coherence (K)"),
    ("R", "Rules (R)"),
    ("M", "Movetext structure (M)"),
    ("T", "Tags (T)"),
    ("P", "PDTL (P)"),
    ("N", "Comments and references (N)"),
];

const INTRO: &str = "\
Every code of the handbook (§14), with the short name printed beside it and the default
severity, in the words `ctlpgn check` prints: error, warning or hint (where the handbook gives
two, the second applies in the case it names). The optional rule checks (R) run with
`ctlpgn check --rules` or the server's `rules.enable` setting. Castling is judged by R003 and
R004 only: whether the King passes or lands on an attacked hex is not checked by the handbook
(§8.6).

Each code's section below holds a small record that raises it and nothing else (the files of
`testdata/diagnostics/`), what `ctlpgn check` prints for that record, and the quick fixes an
editor offers for it, with the lines each one changes.
";

/// A code's example: the file's name and bytes.
struct Example {
    file: String,
    bytes: Vec<u8>,
}

fn example_path(code: Code) -> PathBuf {
    testdata_dir().join("diagnostics").join(format!("{code}.ctl-pgn"))
}

fn example(code: Code) -> Example {
    let path = example_path(code);
    let bytes = std::fs::read(&path).unwrap_or_else(|_| {
        panic!(
            "{code} has no example: add testdata/diagnostics/{code}.ctl-pgn, a small record \
             that raises {code} ({}) and no other code",
            code.name()
        )
    });
    Example { file: format!("{code}.ctl-pgn"), bytes }
}

/// Whether the rule checks must run for the code to be raised.
fn is_rule(code: Code) -> bool {
    code.as_str().starts_with('R')
}

/// The diagnostics of an example in its file, the rule warnings included; none when the file
/// is not UTF-8 (S000 is found by reading it, not by the analysis).
fn diagnostics(example: &Example) -> Vec<Diagnostic> {
    match std::str::from_utf8(&example.bytes) {
        Ok(text) => diagnostics_in_file(text, RuleChecks::Judge),
        Err(_) => Vec::new(),
    }
}

/// The codes an example raises, each once, in order.
fn codes_raised(example: &Example) -> Vec<Code> {
    if std::str::from_utf8(&example.bytes).is_err() {
        return vec![Code::S000];
    }
    Census::of(&diagnostics(example)).codes.into_keys().collect()
}

#[test]
fn every_code_has_an_example_that_raises_it_and_no_other() {
    for &code in Code::ALL {
        let example = example(code);
        let raised = codes_raised(&example);
        let mut expected = vec![code];
        expected
            .extend(WITH_ANOTHER.iter().filter(|(with, _)| *with == code).map(|&(_, other)| other));
        expected.sort();
        assert_eq!(
            raised, expected,
            "testdata/diagnostics/{}: expected to raise {expected:?} only",
            example.file,
        );
    }
    for path in testdata_files("diagnostics", ".ctl-pgn") {
        let name = path.file_stem().expect("a file name").to_string_lossy();
        assert!(
            name.parse::<Code>().is_ok(),
            "{}: the examples are named after the code they raise",
            path.display()
        );
    }
}

#[test]
fn the_page_of_codes_is_generated_from_the_codes_and_their_examples() {
    let mut expected = ExpectFiles::new();
    expected.check(&repository_dir().join(PAGE), &render_page());
    expected.finish();
}

/// The anchor GitHub gives a code's heading, `### K003 `origin-wrong-piece``.
fn anchor(code: Code) -> String {
    format!("{}-{}", code.as_str().to_lowercase(), code.name())
}

fn render_page() -> String {
    let mut page = String::new();
    page.push_str("# Diagnostic codes\n\n");
    page.push_str(
        "<!-- Generated by tests/tests/diagnostics_page.rs from core/src/diagnostics/codes.rs \
         and testdata/diagnostics/: refresh it with\n     \
         UPDATE_EXPECT=1 cargo test -p ctlpgn-tests --test diagnostics_page -->\n\n",
    );
    page.push_str(INTRO);
    page.push_str("\n| Code | Name | Severity | Meaning |\n|---|---|---|---|\n");
    for &code in Code::ALL {
        let _ = writeln!(
            page,
            "| [{code}](#{}) | `{}` | {} | {} |",
            anchor(code),
            code.name(),
            code.handbook_severity(),
            code.meaning()
        );
    }
    page.push('\n');
    for (letter, family) in FAMILIES {
        let _ = write!(page, "## {family}\n\n");
        for &code in Code::ALL.iter().filter(|code| code.as_str().starts_with(letter)) {
            render_code(&mut page, code);
        }
    }
    let end = page.trim_end().len();
    page.truncate(end);
    page.push('\n');
    page
}

fn render_code(page: &mut String, code: Code) {
    let example = example(code);
    let _ = write!(page, "### {code} `{}`\n\n", code.name());
    let severity = capitalised(code.default_severity().as_str());
    let _ = write!(page, "{severity}: {}.", code.meaning());
    match code.handbook_severity() {
        one if one == code.default_severity().as_str() => page.push_str("\n\n"),
        both => {
            let _ = write!(page, " The handbook's severity: {both}.\n\n");
        }
    }
    page.push_str("Example:\n\n");
    code_block(page, "text", &shown_bytes(&example.bytes), "the example");
    if example.bytes.utf8_chunks().any(|chunk| !chunk.invalid().is_empty()) {
        page.push_str(
            "`\\x..` stands for one byte, written in hexadecimal, that is not UTF-8 there.\n\n",
        );
    }
    let rules = if is_rule(code) { " --rules" } else { "" };
    let _ = write!(page, "`ctlpgn check{rules} {}` prints:\n\n", example.file);
    let printed = ctlpgn::cli::check_output(&example.file, &example.bytes, is_rule(code));
    code_block(page, "text", &printed, "what it prints");
    // A code that comes after many others (S015) is shown where the cut left it out.
    let lines: Vec<&str> = printed.lines().collect();
    let own = format!("[{code}]: ");
    if let Some(at) =
        lines.iter().position(|line| line.contains(&own)).filter(|&at| at >= MOST_LINES)
    {
        let end = lines[at + 1..]
            .iter()
            .position(|line| !line.starts_with(' ') && !line.contains(" | "))
            .map_or(lines.len(), |next| at + 1 + next);
        let _ = write!(page, "Its own diagnostic, further on:\n\n");
        code_block(page, "text", &lines[at..end].join("\n"), "its own diagnostic");
    }
    let Ok(text) = std::str::from_utf8(&example.bytes) else {
        return;
    };
    for diagnostic in diagnostics(&example).iter().filter(|d| d.code == code) {
        for fix in &diagnostic.fixes {
            let _ = write!(page, "Quick fix {}:\n\n", code_span(&fix.title));
            code_block(page, "diff", &changed_lines(text, &fix.applied_to(text)), "the change");
        }
    }
}

fn capitalised(word: &str) -> String {
    let mut letters = word.chars();
    letters.next().map(|first| first.to_uppercase().chain(letters).collect()).unwrap_or_default()
}

/// Text shown as code in a line of Markdown, whatever backticks it holds.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if longest > 0 { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// The bytes of a file as text, each byte that is not UTF-8 written `\xHH`.
fn shown_bytes(bytes: &[u8]) -> String {
    let mut shown = String::new();
    for chunk in bytes.utf8_chunks() {
        shown.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(shown, "\\x{byte:02X}");
        }
    }
    shown
}

/// A fenced block of text, cut after [`MOST_LINES`] lines with a note of what was left out.
fn code_block(page: &mut String, language: &str, text: &str, what: &str) {
    assert!(!text.contains("```"), "{what} holds a code fence:\n{text}");
    let lines: Vec<&str> = text.lines().collect();
    let _ = writeln!(page, "```{language}");
    for line in lines.iter().take(MOST_LINES) {
        let _ = writeln!(page, "{line}");
    }
    page.push_str("```\n\n");
    if lines.len() > MOST_LINES {
        let _ = write!(
            page,
            "(The first {MOST_LINES} lines of {what}, which has {} lines.)\n\n",
            lines.len()
        );
    }
}

/// The lines a change replaces (`-`) and the lines it puts in their place (`+`), the lines
/// both texts begin and end with left out.
fn changed_lines(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let same_start = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let same_end = old[same_start..]
        .iter()
        .rev()
        .zip(new[same_start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut diff = String::new();
    for line in &old[same_start..old.len() - same_end] {
        let _ = writeln!(diff, "-{line}");
    }
    for line in &new[same_start..new.len() - same_end] {
        let _ = writeln!(diff, "+{line}");
    }
    diff
}
