//! Comments and references (handbook §12, N001-N019, N002 excepted): the handbook examples and
//! corpus, and the fixtures of `core/tests/fixtures/comments` and `core/tests/fixtures/references`.
//!
//! Each fixture `name.ctl-pgn` has a sidecar `name.expected` that shows everything the comment
//! checks give for it under the lines they point at: each diagnostic (hints included) with its
//! code, range and message, and each resolved move reference with what it refers to (a
//! `half-move`, `move-line` or `variation`), where that starts and its first line. The sidecar
//! may open with notes (`#` lines) on what the fixture holds; `UPDATE_EXPECT=1` rewrites what
//! follows them. Columns count characters (§1).

use std::path::PathBuf;

use ctlpgn_core::analysis::comments::{check_comments, ReferenceTarget, ResolvedReference};
use ctlpgn_core::analysis::AnalysisOptions;
use ctlpgn_core::diagnostics::{Census, Findings, Pass};
use ctlpgn_core::syntax;
use ctlpgn_core::text::LineIndex;
use ctlpgn_test_support::annotations::{diagnostic_label, render, Annotation};
use ctlpgn_test_support::expect::ExpectFiles;
use ctlpgn_test_support::fixtures::{files_with, fixtures_dir, read_text, testdata_dir};

/// What the comment checks give for a file, positions in lines and columns.
#[derive(Debug, Default)]
struct Checked {
    /// `LINE:COL CODE`, sorted by position.
    diagnostics: Vec<String>,
    /// `LINE:COL -> LINE:COL KIND`, in text order.
    resolved: Vec<String>,
    /// The resolved references with their texts: (reference, target kind, target text).
    targets: Vec<(String, &'static str, String)>,
    /// The move references written in the file's comments.
    move_references: usize,
    /// The diagnostics and the resolved references, to be rendered under the lines.
    annotations: Vec<Annotation>,
    /// The codes of the diagnostics.
    codes: Vec<String>,
}

fn kind(target: &ReferenceTarget) -> &'static str {
    match target {
        ReferenceTarget::HalfMove { .. } => "half-move",
        ReferenceTarget::MoveLine { .. } => "move-line",
        ReferenceTarget::Variation { .. } => "variation",
    }
}

fn target_range(target: &ReferenceTarget) -> ctlpgn_core::text::TextRange {
    match target {
        ReferenceTarget::HalfMove { range, .. }
        | ReferenceTarget::MoveLine { range, .. }
        | ReferenceTarget::Variation { range, .. } => *range,
    }
}

/// Runs the comment checks on every record of a file.
fn check(text: &str) -> Checked {
    let lines = LineIndex::new(text);
    let position = |offset: usize| {
        let (line, column) = lines.line_column(text, offset);
        format!("{line}:{column}")
    };
    let mut parser = syntax::new_parser();
    let mut checked = Checked::default();
    let mut found = Vec::new();
    for record in syntax::split_records(text) {
        let record_text = &text[record];
        let tree = syntax::parse(&mut parser, record_text);
        let lowered = syntax::lower_record(&tree, record_text);
        let identifiers = ctlpgn_core::analysis::analyse_syntax(
            record_text,
            &lowered,
            AnalysisOptions::default(),
        )
        .identifiers;
        let mut diagnostics = Findings::new(Pass::Comments);
        let resolved: Vec<ResolvedReference> =
            check_comments(record_text, &lowered, &identifiers, &mut diagnostics);
        for diagnostic in diagnostics.into_diagnostics(&mut Census::default()) {
            let diagnostic = diagnostic.shifted(record.start);
            found.push((diagnostic.range.start, diagnostic.code.as_str().to_string()));
            checked.codes.push(diagnostic.code.as_str().to_string());
            checked.annotations.push(Annotation {
                range: diagnostic.range.start..diagnostic.range.end,
                label: diagnostic_label(&diagnostic),
            });
        }
        for reference in resolved {
            let range = target_range(&reference.target);
            let at = record.start + reference.range.start;
            let target_text = &record_text[range];
            let first_line = target_text.lines().next().unwrap_or("");
            let more = if first_line.len() < target_text.trim_end().len() { "…" } else { "" };
            checked.annotations.push(Annotation {
                range: at..record.start + reference.range.end,
                label: format!(
                    "refers to the {} at {}: {first_line}{more}",
                    kind(&reference.target),
                    position(record.start + range.start)
                ),
            });
            checked.resolved.push(format!(
                "{} -> {} {}",
                position(at),
                position(record.start + range.start),
                kind(&reference.target)
            ));
            checked.targets.push((
                record_text[reference.range].to_string(),
                kind(&reference.target),
                record_text[range].to_string(),
            ));
        }
        checked.move_references += lowered
            .walk(&lowered.items)
            .filter_map(|step| match step {
                syntax::Step::Item(syntax::Item::Comment(comment), _) => Some(comment),
                _ => None,
            })
            .flat_map(|comment| comment.references.iter())
            .filter(|reference| reference.kind == syntax::ReferenceKind::Move)
            .count();
    }
    found.sort();
    checked.diagnostics =
        found.into_iter().map(|(offset, code)| format!("{} {code}", position(offset))).collect();
    checked
}

#[test]
fn valid_examples_give_nothing_and_every_move_reference_resolves() {
    let examples = testdata_dir().join("examples");
    let valid: Vec<PathBuf> = files_with(&examples, ".ctl-pgn")
        .into_iter()
        .filter(|path| {
            path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('0'))
        })
        .collect();
    assert_eq!(valid.len(), 6, "the six valid examples 01-06");
    for path in valid {
        let checked = check(&read_text(&path));
        assert_eq!(checked.diagnostics, Vec::<String>::new(), "{}", path.display());
        assert_eq!(
            checked.resolved.len(),
            checked.move_references,
            "{}: {:?}",
            path.display(),
            checked.resolved
        );
    }
}

#[test]
fn references_of_the_examples_resolve_to_their_targets() {
    let examples = testdata_dir().join("examples");
    let first = check(&read_text(&examples.join("01-registered-game.ctl-pgn")));
    let target = |checked: &Checked, reference: &str| {
        checked
            .targets
            .iter()
            .find(|(written, _, _)| written == reference)
            .map(|(_, kind, text)| (*kind, text.clone()))
            .unwrap_or_else(|| panic!("{reference} is not resolved: {:?}", checked.targets))
    };
    assert_eq!(target(&first, "#3@W"), ("half-move", "E13×F16".to_string()));
    assert_eq!(target(&first, "#5[#5.1]"), ("half-move", "EF20×F16".to_string()));
    assert_eq!(first.resolved, ["19:28 -> 18:4 half-move", "28:30 -> 23:13 half-move"]);

    let second = check(&read_text(&examples.join("02-quick-mate-variations.ctl-pgn")));
    let (kind, text) = target(&second, "#5.2");
    assert_eq!(kind, "variation");
    assert!(text.starts_with("($[2] 5. K4-K10 ??, GL5-H6+^\n"), "{text}");
    assert!(text.ends_with(".7. KH4×GI3)"), "{text}");
    assert_eq!(target(&second, "#7[#5.2]@W"), ("half-move", "KH4×GI3".to_string()));
    assert_eq!(target(&second, "#5@B"), ("half-move", "GL5-H6+^".to_string()));
    assert_eq!(
        target(&second, "#4.1"),
        ("variation", "($[1] 4. GD2-F6\n.{ @W: keeps ~H6 covered }\n)".to_string())
    );
    assert_eq!(target(&second, "#5.1"), ("variation", "($[1] 5. GD2-F6)".to_string()));
    assert_eq!(second.targets.len(), 5);
}

#[test]
fn the_bad_comments_example_gives_the_listed_codes() {
    let examples = testdata_dir().join("examples");
    let checked = check(&read_text(&examples.join("bad-06-comments-references.ctl-pgn")));
    let expected: Vec<String> =
        read_text(&examples.join("bad-06-comments-references.expected.txt"))
            .lines()
            .filter_map(|line| {
                let mut words = line.split_whitespace();
                let position = words.next()?;
                let code = words.find(|word| {
                    word.len() == 4
                        && word.starts_with('N')
                        && word[1..].bytes().all(|b| b.is_ascii_digit())
                })?;
                // N002 (text after `}`) is reported by the movetext walk.
                (code != "N002").then(|| format!("{position} {code}"))
            })
            .collect();
    assert_eq!(expected.len(), 11);
    assert_eq!(checked.diagnostics, expected);
    // `#3.1` (twice) resolves to the closed variation of move 3.
    assert_eq!(checked.resolved, ["14:28 -> 11:1 variation", "18:19 -> 11:1 variation"]);
}

#[test]
fn corpus_games_give_nothing() {
    let games = files_with(&testdata_dir().join("corpus/valid"), ".ctl-pgn");
    assert!(games.len() >= 40, "the valid corpus has 40 games");
    for path in games {
        let checked = check(&read_text(&path));
        assert_eq!(checked.diagnostics, Vec::<String>::new(), "{}", path.display());
    }
}

/// Checks every fixture of a folder against its sidecar; returns the codes they cover.
fn check_fixtures(folder: &str, expected: &mut ExpectFiles) -> Vec<String> {
    let mut codes = Vec::new();
    for path in files_with(&fixtures_dir(folder), ".ctl-pgn") {
        let text = read_text(&path);
        let checked = check(&text);
        expected.check_after_notes(
            &path.with_extension("expected"),
            &render(&text, &checked.annotations),
        );
        codes.extend(checked.codes);
    }
    codes
}

#[test]
fn fixtures_give_their_sidecars_and_cover_every_code() {
    let mut expected = ExpectFiles::new();
    let mut codes = check_fixtures("comments", &mut expected);
    codes.extend(check_fixtures("references", &mut expected));
    expected.finish();
    for number in (1..=19).filter(|&n| n != 2) {
        let code = format!("N{number:03}");
        assert!(codes.contains(&code), "no fixture covers {code}");
    }
}
