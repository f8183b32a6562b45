//! The handbook's examples: valid files check clean (no error, warning or hint), and every
//! invalid file gives exactly the diagnostics its `.expected.txt` lists (code, line, column).
//! The repository's own examples (`examples/`), the first files a newcomer opens: each is in
//! `ctlpgn fmt`'s form, so that saving it changes nothing; each checks clean but the one made
//! to show mistakes; and the README's run of `ctlpgn check` on that one is what it prints.

use ctlpgn_core::format::{format_text, FormatOptions};
use ctlpgn_test_support::diagnostics::diagnostics_of;
use ctlpgn_test_support::fixtures::{files_with, read_text, repository_dir, testdata_files};

/// The example made to show what `ctlpgn check` finds, which the README's quick tour runs.
const MISTAKES: &str = "examples/mistakes.ctl-pgn";

/// The sidecars list every E and W diagnostic of the handbook; the optional rule checks (R)
/// are not listed there.
fn in_scope(code: &str) -> bool {
    !code.starts_with('R')
}

#[test]
fn valid_examples_check_clean() {
    for path in testdata_files("examples", ".ctl-pgn") {
        let file_name = path.file_name().expect("a name").to_string_lossy().to_string();
        if file_name.starts_with("bad-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let (_, found) = diagnostics_of(&text);
        assert!(found.is_empty(), "{file_name}: {found:#?}");
    }
}

#[test]
fn invalid_examples_give_the_expected_diagnostics() {
    for path in testdata_files("examples", ".ctl-pgn") {
        let file_name = path.file_name().expect("a name").to_string_lossy().to_string();
        if !file_name.starts_with("bad-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let sidecar = std::fs::read_to_string(path.with_extension("expected.txt"))
            .expect("the sidecar exists");
        let expected: Vec<String> = sidecar
            .lines()
            .filter_map(|line| {
                let mut parts = line.split_whitespace();
                let position = parts.next()?;
                let _severity = parts.next()?;
                let code = parts.next()?;
                in_scope(code).then(|| format!("{position} {code}"))
            })
            .collect();
        let (_, found) = diagnostics_of(&text);
        let actual: Vec<String> = found
            .iter()
            .filter(|f| f.severity != ctlpgn_core::diagnostics::Severity::Hint && in_scope(&f.code))
            .map(|f| format!("{}:{} {}", f.line, f.column, f.code))
            .collect();
        assert_eq!(actual, expected, "{file_name}: all found: {found:#?}");
    }
}

/// The optional rule checks (`check --rules`, the server's `rules.enable`) find nothing in the
/// games of the handbook and of the author's engine, which keep the rules; a hand-made en
/// passant that is no longer available is found.
#[test]
fn the_optional_rule_checks_accept_every_valid_game_and_catch_a_stale_en_passant() {
    let valid = testdata_files("examples", ".ctl-pgn")
        .into_iter()
        .filter(|path| {
            !path.file_name().is_some_and(|name| name.to_string_lossy().starts_with("bad-"))
        })
        .chain(testdata_files("corpus/valid", ".ctl-pgn"));
    let mut games = 0;
    for path in valid {
        let text = std::fs::read_to_string(&path).expect("readable");
        let (records, _) = diagnostics_of(&text);
        let warnings: Vec<_> =
            records.iter().flat_map(|record| &record.analysis.rule_warnings).collect();
        assert!(warnings.is_empty(), "{}: {warnings:#?}", path.display());
        games += records.len();
    }
    assert!(games >= 46, "only {games} games were checked");
    let stale = "[Variant \"C'escacs\"]\n[Id \"Demo-R01\"]\n[Annotator \"Núria\"]\n\n1. E7-E13, D22-D16\n2. E13-E15, F20-F18\n3. E15@D18:\n*\n";
    let (records, found) = diagnostics_of(stale);
    assert!(found.is_empty(), "{found:#?}");
    let codes: Vec<&str> =
        records[0].analysis.rule_warnings.iter().map(|w| w.code.as_str()).collect();
    assert_eq!(codes, ["R001"]);
}

#[test]
fn the_repository_s_examples_are_formatted_and_check_clean_but_the_mistakes() {
    let examples = files_with(&repository_dir().join("examples"), ".ctl-pgn");
    let mut clean = 0;
    for path in &examples {
        let name = format!("examples/{}", path.file_name().expect("a name").to_string_lossy());
        let text = read_text(path);
        let formatted = format_text(&text, &FormatOptions::default());
        assert!(formatted == text, "{name} is not as `ctlpgn fmt` writes it:\n{formatted}");
        let (_, found) = diagnostics_of(&text);
        if name == MISTAKES {
            // One of each kind the README names: a broken reference, an incoherent move, a
            // bad coordinate; nothing else.
            let codes: Vec<&str> = found.iter().map(|f| f.code.as_str()).collect();
            assert_eq!(codes, ["N013", "K003", "C003"], "{name}");
        } else {
            assert!(found.is_empty(), "{name}: {found:#?}");
            clean += 1;
        }
    }
    assert!(clean >= 1 && examples.len() == clean + 1, "{examples:?}");
}

/// The README's quick tour shows `ctlpgn check` on the example of mistakes, in a `console`
/// block that opens with the command: the lines after it are exactly what the command prints.
#[test]
fn the_readme_shows_what_check_prints_for_the_mistakes() {
    let readme = read_text(&repository_dir().join("README.md"));
    let command = format!("$ ctlpgn check {MISTAKES}\n");
    let start = readme.find(&format!("```console\n{command}")).unwrap_or_else(|| {
        panic!("README.md has no ```console block that opens with `{}`", command.trim_end())
    });
    let shown = &readme[start + "```console\n".len() + command.len()..];
    let shown = &shown[..shown.find("```").expect("the block closes")];
    let bytes = std::fs::read(repository_dir().join(MISTAKES)).expect("the example");
    let printed = ctlpgn::cli::check_output(MISTAKES, &bytes, false);
    assert_eq!(shown, printed, "README.md's block is not what `ctlpgn check {MISTAKES}` prints");
}
