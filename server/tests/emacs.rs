//! Emacs's eglot as a real client of `ctlpgn lsp`, set up exactly as
//! docs/editors/other-clients.md tells a user: the Emacs Lisp block of that page is what the
//! Emacs here loads. tests/e2e/eglot.el does what the user does (opens a record, reads
//! flymake's diagnostics and the hover eldoc shows, completes with C-M-i, formats the buffer)
//! and this test compares what it saw with what the command line says.
//!
//! Emacs and eglot are required: CI installs Debian's `emacs-nox` and `elpa-eglot` (Emacs
//! 28.2, eglot 1.9, which takes hovers as plain text without `markdown-mode`), and a missing
//! `emacs` fails the test rather than skipping it.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

#[path = "real_client/mod.rs"]
mod real_client;

use real_client::{ctlpgn, pdtl_after, repository, run_with_patience, WorkFolder};

/// The Emacs Lisp a user copies from the docs: the one `elisp` block of the Emacs section.
fn documented_configuration() -> String {
    let page = std::fs::read_to_string(repository().join("docs/editors/other-clients.md"))
        .expect("the page for other clients");
    let section = &page[page.find("## Emacs (eglot)").expect("an Emacs section")..];
    let block =
        &section[section.find("```elisp\n").expect("an elisp block") + "```elisp\n".len()..];
    block[..block.find("```").expect("the block's end")].to_string()
}

/// Runs tests/e2e/eglot.el in `work`, the server under test first on `PATH`; what it saw.
fn run_eglot(work: &Path) -> Value {
    let binary = Path::new(env!("CARGO_BIN_EXE_ctlpgn"));
    let mut path = vec![binary.parent().expect("the binary's folder").to_path_buf()];
    path.extend(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()));
    let output = run_with_patience(
        Command::new("emacs")
            .args(["-Q", "--batch", "-l"])
            .arg(repository().join("tests/e2e/eglot.el"))
            .current_dir(work)
            .env("PATH", std::env::join_paths(path).expect("a PATH"))
            .env("HOME", work),
        "emacs",
        "install Emacs and eglot (Debian: apt-get install emacs-nox elpa-eglot)",
    );
    let observed = std::fs::read_to_string(work.join("observed.json")).unwrap_or_else(|_| {
        panic!(
            "eglot.el wrote nothing\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let observed: Value = serde_json::from_str(&observed).expect("JSON from eglot.el");
    assert_eq!(
        observed["error"],
        "",
        "eglot.el failed; stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    observed
}

#[test]
fn eglot_set_up_as_the_docs_say_shows_diagnostics_hovers_completion_and_formatting() {
    let work = WorkFolder::new("eglot");
    std::fs::write(work.0.join("config.el"), documented_configuration()).expect("config.el");
    for fixture in ["errors.ctl-pgn", "complete.ctl-pgn"] {
        std::fs::copy(repository().join("tests/e2e").join(fixture), work.0.join(fixture))
            .expect("a fixture");
    }
    let observed = run_eglot(&work.0);
    assert_eq!(observed["mode"], "ctlpgn-mode", "{observed}");

    // Flymake lists what `check` finds, with the rule checks the documented settings turn on,
    // at the same lines and columns (characters, after `‐` and `«»`), code and name shown.
    let original = std::fs::read_to_string(work.0.join("errors.ctl-pgn")).expect("the fixture");
    let checked: Value =
        serde_json::from_str(&ctlpgn(&["check", "--rules", "--format", "json", "-"], &original))
            .expect("check's JSON");
    let expected: Vec<(u64, u64, String)> = checked
        .as_array()
        .expect("findings")
        .iter()
        .map(|found| {
            let text = format!(
                "ctlpgn [{}]: {} [{}]",
                found["code"].as_str().unwrap_or(""),
                found["message"].as_str().unwrap_or(""),
                found["name"].as_str().unwrap_or("")
            );
            (found["line"].as_u64().unwrap_or(0), found["column"].as_u64().unwrap_or(0) - 1, text)
        })
        .collect();
    let shown: Vec<(u64, u64, String)> = observed["diagnostics"]
        .as_array()
        .expect("flymake's diagnostics")
        .iter()
        .map(|d| {
            let text = d["text"].as_str().unwrap_or("").to_string();
            (d["line"].as_u64().unwrap_or(0), d["column"].as_u64().unwrap_or(0), text)
        })
        .collect();
    assert!(expected.len() >= 2, "{checked}");
    assert_eq!(shown, expected);

    // The hover comes as plain text (eglot takes no Markdown without markdown-mode): the
    // half-move first, then whose turn, then the PDTL whole on a line of its own, as `ctlpgn
    // pdtl` gives it, and nothing of Markdown's to show.
    assert_eq!(observed["hover_kind"], "plaintext");
    let hover = observed["hover"].as_str().expect("a hover");
    let lines: Vec<&str> = hover.lines().collect();
    assert_eq!(lines[0], "2. F8‐F12 · White pawn F8 to F12 (double step)", "{hover}");
    assert_eq!(lines[2], "Black to move. PDTL:", "{hover}");
    assert_eq!(lines[4], pdtl_after(&work.0.join("errors.ctl-pgn"), "F8‐F12"), "{hover}");
    for mark in ["**", "```", "\\"] {
        assert!(!hover.contains(mark), "{mark} in {hover}");
    }

    // Formatting gives what `ctlpgn fmt` gives with the documented settings.
    let formatted = ctlpgn(&["fmt", "--separators", "unicode", "-"], &original);
    assert_ne!(formatted, original, "the fixture has something to format");
    assert_eq!(observed["formatted"], formatted);

    // Completion with C-M-i: a tag name gives the whole tag; a half-move's prefix that one
    // legal half-move has gives that half-move whole; a prefix that several have leaves the
    // line as typed (the typed part never doubled) and lists them: what completes the word
    // typed, with the half-move it makes beside it.
    assert_eq!(observed["tag"], "[Event \"\"]");
    assert_eq!(observed["unique"], "2. JF6-G9");
    assert_eq!(observed["several"], "2. JF6-");
    let listed = observed["listed"].as_str().expect("the *Completions* buffer");
    for entry in ["G9 White Bishop F6 to G9", "E9 White Bishop F6 to E9"] {
        assert!(listed.contains(entry), "{entry} not in {listed}");
    }
}
