//! The handbook's examples: valid files check clean (no error, warning or hint), and every
//! invalid file gives exactly the diagnostics its `.expected.txt` lists (code, line, column).

use ctlpgn_tests::{diagnostics_of, shared_files};

/// The sidecars list every E and W diagnostic of the handbook; the optional rule checks (R)
/// are not listed there.
fn in_scope(code: &str) -> bool {
    !code.starts_with('R')
}

#[test]
fn valid_examples_check_clean() {
    for path in shared_files("spec/examples", ".ctl-pgn") {
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
    for path in shared_files("spec/examples", ".ctl-pgn") {
        let file_name = path.file_name().expect("a name").to_string_lossy().to_string();
        if !file_name.starts_with("bad-") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let sidecar = std::fs::read_to_string(path.with_extension("expected.txt")).expect("the sidecar exists");
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
            .filter(|f| f.severity != ctlpgn::diagnostics::Severity::Hint && in_scope(&f.code))
            .map(|f| format!("{}:{} {}", f.line, f.column, f.code))
            .collect();
        assert_eq!(actual, expected, "{file_name}: all found: {found:#?}");
    }
}
