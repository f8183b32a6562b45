//! Neovim as a real client of `ctlpgn lsp`: a headless Neovim loads the shipped plugin
//! (editors/nvim) as a user's init.lua does, and tests/e2e/neovim.lua presses the keys a user
//! presses: K for the hover, ]d and <C-W>d for diagnostics, <C-x><C-o><C-y> for completion,
//! y and q in the board window; it runs :checkhealth ctlpgn, :help ctlpgn and
//! :CtlpgnInstallParser, reads the colours of a move line with nothing built, edits and writes
//! with format on save. This test compares what it observed with what the server and the
//! command line say.
//!
//! The `terminal` module runs each Neovim in tmux, a real terminal, and reads the screen as a
//! person sees it (colours, the hover's float, cut or whole).
//!
//! Neovim is required: CI installs Debian's package, and a missing `nvim` fails the test
//! rather than skipping it. `CTLPGN_TEST_NVIM` may name other Neovim binaries to drive
//! instead, separated as in `PATH` (0.11 takes the `vim.lsp.config` path of the plugin,
//! Debian 12's 0.7 and Debian 13's 0.10 the `vim.lsp.start_client` one); CI drives all three.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "real_client/mod.rs"]
mod real_client;
#[path = "neovim/terminal.rs"]
mod terminal;

use real_client::{ctlpgn, pdtl_after, repository, WorkFolder, PATIENCE};

/// Runs Neovim to its end, killing it after `PATIENCE`.
fn run_with_patience(command: &mut Command, what: &str) -> Output {
    real_client::run_with_patience(command, what, "install Neovim (Debian: apt-get install neovim)")
}

/// The Neovim binaries to drive.
fn neovims() -> Vec<PathBuf> {
    match std::env::var_os("CTLPGN_TEST_NVIM") {
        Some(list) if !list.is_empty() => std::env::split_paths(&list).collect(),
        _ => vec![PathBuf::from("nvim")],
    }
}

/// The PDTL a text hover shows: the one line of the code block after `PDTL:`.
fn pdtl_of_hover(markdown: &str) -> Option<&str> {
    let opening = "PDTL:\n\n```text\n";
    let after = &markdown[markdown.find(opening)? + opening.len()..];
    after.split_once("\n```\n").map(|(pdtl, _)| pdtl)
}

/// The half-moves of the main line of `text` (a record) that `ctlpgn replay` replays; none
/// when `text` holds no record (a step that typed nothing fails on its own assertion).
fn replayed_moves(folder: &Path, text: &str) -> Vec<String> {
    let file = folder.join("replayed.ctl-pgn");
    std::fs::write(&file, text).expect("the record is written");
    let output = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
        .arg("replay")
        .arg("--json")
        .arg(&file)
        .output()
        .expect("ctlpgn replay runs");
    let first_line = output.stdout.split(|&b| b == b'\n').next().unwrap_or_default();
    if first_line.is_empty() {
        return Vec::new();
    }
    let record: Value = serde_json::from_slice(first_line).expect("a JSON record");
    strings(
        &record["plies"]
            .as_array()
            .map_or(Value::Null, |plies| plies.iter().map(|ply| ply["move"].clone()).collect()),
    )
    .into_iter()
    .map(str::to_string)
    .collect()
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Runs `script` in a headless Neovim in `work` with the plugin and the server under test;
/// returns the JSON the script wrote to `observations.json`.
fn run_script(nvim: &Path, script: &str, work: &Path) -> Value {
    let observations = work.join("observations.json");
    let output = run_with_patience(
        Command::new(nvim)
            .args([
                "--headless",
                "--clean",
                "-u",
                "NONE",
                "-c",
                "lua dofile(os.getenv('CTLPGN_E2E_SCRIPT'))",
            ])
            .env("CTLPGN_E2E_SCRIPT", repository().join("tests/e2e").join(script))
            .env("CTLPGN_SERVER", env!("CARGO_BIN_EXE_ctlpgn"))
            .env("CTLPGN_E2E_PLUGIN", repository().join("editors/nvim"))
            .env("CTLPGN_E2E_WORK", work)
            .env("CTLPGN_E2E_OUT", &observations)
            // Neovim's own folders in the work folder: :CtlpgnInstallParser builds into the
            // data folder, and nothing is written to the user's.
            .env("XDG_DATA_HOME", work.join("data"))
            .env("XDG_STATE_HOME", work.join("state"))
            .env("XDG_CACHE_HOME", work.join("cache"))
            .env("XDG_CONFIG_HOME", work.join("config"))
            .current_dir(work),
        &format!("{}", nvim.display()),
    );
    let text = std::fs::read_to_string(&observations).unwrap_or_else(|error| {
        panic!(
            "{} wrote no observations ({error}); status {}\nstdout: {}\nstderr: {}",
            nvim.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    serde_json::from_str(&text).expect("the observations are JSON")
}

/// Drives one Neovim through the script and returns its observations.
fn observe(nvim: &Path) -> Value {
    let work = WorkFolder::new("nvim-e2e");
    for fixture in ["errors.ctl-pgn", "tags.ctl-pgn", "complete.ctl-pgn"] {
        std::fs::copy(repository().join("tests/e2e").join(fixture), work.0.join(fixture))
            .expect("the fixture is copied");
    }
    let mut observed = run_script(nvim, "neovim.lua", &work.0);
    observed["expected_pdtl"] = Value::from(pdtl_after(&work.0.join("errors.ctl-pgn"), "F20‐F16"));
    let typed = observed["typed"]["text"].as_str().unwrap_or("").to_string();
    observed["typed_replayed"] = Value::from(replayed_moves(&work.0, &typed));
    observed["data"] = Value::from(work.0.join("data").display().to_string());
    observed
}

#[test]
fn neovim_attaches_the_server_and_shows_what_it_finds() {
    let fixture = std::fs::read_to_string(repository().join("tests/e2e/errors.ctl-pgn"))
        .expect("the fixture");
    for nvim in neovims() {
        let observed = observe(&nvim);
        let version = observed["nvim"].as_str().unwrap_or("?").to_string();
        let context = format!("Neovim {version} ({})", nvim.display());
        // Steps that failed are reported with the assertion about what they should have shown,
        // and all together at the end.
        let errors = &observed["errors"];
        assert_eq!(
            observed["filetype"], "ctlpgn",
            "{context}: the ftdetect file sets the filetype"
        );

        // Neovim 0.11 offers UTF-8 positions first and the server takes them, as on 0.10, where
        // the plugin offers them (0.10 counts UTF-16 columns wrong past a multi-byte
        // character); 0.7 offers none and both sides count UTF-16 code units.
        let minor = version.split('.').nth(1).and_then(|minor| minor.parse::<u32>().ok());
        assert_eq!(
            observed["encoding"],
            if minor.is_some_and(|minor| minor >= 10) { "utf-8" } else { "utf-16" },
            "{context}: the position encoding"
        );

        // Lines are 0-based, columns count characters: the K003 comes after a `×` (two UTF-8
        // bytes, one UTF-16 unit), so a column in the wrong unit would show here.
        assert_eq!(
            strings(&observed["diagnostics"]),
            ["12:12-12:20 K003", "3:7-3:17 T011"],
            "{context}: diagnostics of the opened file"
        );
        assert_eq!(
            strings(&observed["diagnostics_after_insert"]),
            ["13:12-13:20 K003", "3:7-3:17 T011"],
            "{context}: the error follows its line down"
        );
        assert_eq!(
            strings(&observed["diagnostics_after_fix"]),
            ["3:7-3:17 T011"],
            "{context}: the fixed error is gone"
        );

        let hover = observed["hover"]["markdown"]
            .as_str()
            .unwrap_or_else(|| panic!("{context}: a hover, got {}; {errors}", observed["hover"]));
        assert!(
            hover.contains("2. …, F20‐F16"),
            "{context}: the hover names the half-move under the cursor:\n{hover}"
        );
        let pdtl = observed["expected_pdtl"].as_str().unwrap_or("?");
        assert_eq!(
            pdtl_of_hover(hover),
            Some(pdtl),
            "{context}: the hover's PDTL is the one after the half-move"
        );
        // What `K` shows: the half-move, whose turn it is and the PDTL whole on one line,
        // before anything else, so that a float cut short by the screen still shows them.
        let float = strings(&observed["hover"]["float"]);
        let first_lines = &float[..float.len().min(8)];
        assert!(
            float.first().is_some_and(|line| line.contains("2. …, F20‐F16")),
            "{context}: K shows the half-move first: {float:?}; {errors}"
        );
        assert!(
            first_lines.contains(&"White to move. PDTL:") && first_lines.contains(&pdtl),
            "{context}: the first lines of K's float hold the turn and the PDTL: {first_lines:?}"
        );
        // `K K gg 4j yy` (0.7) or `K K gg 5j yy` (0.10 and later), as the docs give them,
        // copy the PDTL's line.
        assert_eq!(
            observed["hover"]["yanked"],
            format!("{pdtl}\n").as_str(),
            "{context}: the docs' keys copy the PDTL from the float; {errors}"
        );
        assert_eq!(
            observed["copied"], observed["expected_pdtl"],
            "{context}: :CtlpgnCopyPosition copies that PDTL; {errors}"
        );

        // :CtlpgnBoard: the half-move, the turn, the PDTL on its own line, the board and the
        // keys, beside the buffer and as wide as the board; `y` copies the PDTL; it follows
        // the cursor and closes with `q`.
        let board = &observed["board"];
        let first = board["first"]
            .as_str()
            .unwrap_or_else(|| panic!("{context}: a board window, got {board}; {errors}"));
        let head = format!("2. …, F20‐F16\nWhite to move.\n\nPDTL:\n{pdtl}\n\n28 ");
        assert!(
            first.starts_with(&head),
            "{context}: the board window starts with\n{head}\n{first}"
        );
        assert!(
            first.ends_with(
                "\n    P T A B C D E F G H I K L X Z\n\nm play a move · y copy the PDTL · q close"
            ),
            "{context}: the board, then the window's keys:\n{first}"
        );
        assert_eq!(board["yanked"], pdtl, "{context}: y in the board window copies the PDTL");
        assert_eq!(board["wrap"], true, "{context}: the window wraps the PDTL rather than cut it");
        let width = board["width"].as_u64().unwrap_or(0);
        assert!(
            (36..=40).contains(&width),
            "{context}: the window is as wide as the board: {width}"
        );
        assert_eq!(board["current_is_source"], true, "{context}: the cursor stays in the buffer");
        let moved = board["moved"].as_str().unwrap_or("");
        assert!(
            moved.starts_with("3. E13×F16\n"),
            "{context}: the board follows the cursor:\n{moved}"
        );
        assert_eq!(
            board["windows_after"], board["windows_before"],
            "{context}: q closes the board"
        );
        assert_eq!(board["wiped"], true, "{context}: the board's buffer goes with its window");

        // The edits Neovim made, seen from its side.
        let mut lines: Vec<&str> = fixture.lines().collect();
        lines.insert(10, "{ Comentari afegit: «×» }");
        let fixed = lines.join("\n").replace("NE15×F12", "E15×F12") + "\n";
        assert_eq!(
            observed["before_save"],
            fixed.as_str(),
            "{context}: the buffer after the edits"
        );
        // Format on save applies the server's edits with the `separators = "unicode"` setting
        // given to setup; the result is what the command line makes of the same text.
        let formatted = ctlpgn(&["fmt", "--separators", "unicode", "-"], &fixed);
        assert_ne!(formatted, fixed, "the fixture leaves the formatter something to do");
        assert_eq!(
            observed["after_save"],
            formatted.as_str(),
            "{context}: the buffer after :write"
        );
        assert_eq!(observed["saved_file"], formatted.as_str(), "{context}: the file written");

        let labels = strings(&observed["completion"]["labels"]);
        assert!(
            labels.contains(&"Variant"),
            "{context}: completion after `[` offers Variant, got {labels:?} {}; {errors}",
            observed["completion"]
        );
        assert!(
            labels.iter().all(|label| label
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')),
            "{context}: completion after `[` offers tag names, got {labels:?}"
        );

        // Tree-sitter, with the queries shipped in editors/nvim/queries.
        assert_eq!(observed["highlighter"], true, "{context}: the tree-sitter highlighter runs");
        let captures = serde_json::json!({
            "Event": ["property"],
            "{ Obertura": ["comment", "punctuation.bracket"],
            "3.": ["number"],
            "×F16": ["operator"],
        });
        assert_eq!(observed["captures"], captures, "{context}: highlight captures");
        // The record holds everything; the tag section, the two-line comment and the
        // variation are folds inside it.
        let folds = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 2, 2, 1, 1];
        assert_eq!(
            observed["folds"],
            serde_json::json!(folds),
            "{context}: fold levels of the lines"
        );
        // The keys and options of an LSP buffer: set by the plugin on 0.7, by Neovim on 0.11.
        let buffer = &observed["buffer"];
        assert_eq!(buffer["omnifunc"], "v:lua.vim.lsp.omnifunc", "{context}: {buffer}");
        assert_eq!(buffer["tagfunc"], "v:lua.vim.lsp.tagfunc", "{context}: {buffer}");
        assert_eq!(buffer["formatexpr"], "v:lua.vim.lsp.formatexpr()", "{context}: {buffer}");
        for key in ["K", "]d", "[d", "<C-W>d", "grr", "gra", "gO"] {
            assert_eq!(buffer["keys"][key], true, "{context}: {key} is mapped: {buffer}");
        }
        // ]d from the top goes to the first diagnostic (the bad date, line 4 from 1); <C-W>d
        // shows the one under the cursor with its code, on 0.7 as on 0.11.
        assert_eq!(observed["next_diagnostic"], serde_json::json!([4, 7]), "{context}; {errors}");
        let float = strings(&observed["diagnostic_float"]);
        assert!(
            float.iter().any(|line| line.contains("[origin-wrong-piece] [K003]")),
            "{context}: the diagnostic float shows the code: {float:?}"
        );
        // Virtual text (on by default on 0.7, off on 0.11) starts with the code.
        for text in strings(&observed["virtual_text"]) {
            assert!(
                text.contains("K003: ") || text.contains("T011: "),
                "{context}: virtual text with its code: {text:?}"
            );
        }

        // Colours with nothing built: the syntax file (and on 0.11 the semantic tokens) give
        // the move line `3. E13×F16, NE15×F12` several colours.
        let colours: std::collections::BTreeSet<&str> = strings(&observed["colours"])
            .into_iter()
            .filter_map(|shown| shown.rsplit_once(' ').map(|(_, colour)| colour))
            .collect();
        assert!(
            colours.len() >= 3,
            "{context}: a move line in {colours:?}; {}",
            observed["colours"]
        );
        assert_eq!(buffer["syntax"], "ctlpgn", "{context}: syntax/ctlpgn.vim colours the buffer");

        // :checkhealth ctlpgn finds the binary of the plugin's version and reports no error.
        let health = strings(&observed["health"]);
        assert!(
            health.iter().all(|line| !line.contains("ERROR")),
            "{context}: :checkhealth ctlpgn:\n{}",
            health.join("\n")
        );
        for expected in [
            "found ",
            "version 0.1.0, the version this plugin is written for",
            "serves 1 buffer(s)",
        ] {
            assert!(
                health.iter().any(|line| line.contains("OK") && line.contains(expected)),
                "{context}: :checkhealth ctlpgn says {expected:?}:\n{}",
                health.join("\n")
            );
        }
        // The settings in force: the running client's, as setup() gave them.
        for expected in [
            "rule checks (R001-R009): off (client ",
            "\"separators\": \"unicode\"",
            "format on save: on (timeout 2000 ms)",
        ] {
            assert!(
                health.iter().any(|line| line.contains(expected)),
                "{context}: :checkhealth ctlpgn says {expected:?}:\n{}",
                health.join("\n")
            );
        }
        // :help ctlpgn opens the plugin's help at its tag.
        let help = &observed["help"];
        assert_eq!(help["buftype"], "help", "{context}: {help}; {errors}");
        assert_eq!(help["file"], "ctlpgn.txt", "{context}: {help}");
        assert!(
            help["line"].as_str().is_some_and(|line| line.contains("*ctlpgn*")),
            "{context}: {help}"
        );

        // :CtlpgnInstallParser built the parser into the data folder, tree-sitter took over
        // from the syntax file.
        let parser = observed["parser"].as_str().unwrap_or("");
        let data = observed["data"].as_str().unwrap_or("?");
        assert!(
            parser.starts_with(data) && parser.ends_with("/site/parser/ctlpgn.so"),
            "{context}: the parser in the data folder: {parser:?}; {errors}"
        );
        assert_eq!(observed["syntax_with_parser"], "", "{context}: the syntax file gives way");

        // Completion with the keys: `[Ev` <C-x><C-o><C-y> gives a whole tag; `2. JF6-` one
        // whole half-move, which replays.
        let typed = &observed["typed"];
        assert_eq!(typed["tag"], "[Event \"\"]", "{context}: {typed}; {errors}");
        // On every version the cursor stands between the quotes, where the value is typed, and
        // no preview window is left open (0.7 and 0.10 open one for an item's documentation).
        assert_eq!(typed["tag_cursor"], "[Event \"|\"]", "{context}: {typed}; {errors}");
        assert_eq!(typed["tag_preview"], false, "{context}: {typed}; {errors}");
        assert_eq!(typed["move_preview"], false, "{context}: {typed}; {errors}");
        assert!(
            typed["move_cursor"].as_str().is_some_and(|line| line.ends_with('|')),
            "{context}: the cursor after the half-move: {typed}; {errors}"
        );
        // 0.11 offers the destinations as `JF6-` is typed, with no key pressed.
        if minor.is_some_and(|minor| minor >= 11) {
            let offered = strings(&typed["autotriggered"]);
            assert!(
                !offered.is_empty(),
                "{context}: the destinations after JF6-: {typed}; {errors}"
            );
        }
        let line = typed["move"].as_str().unwrap_or("");
        let written = line.strip_prefix("2. ").unwrap_or("");
        assert!(
            written.starts_with("JF6-") && !written[4..].contains("JF6"),
            "{context}: one half-move: {line:?}; {errors}"
        );
        assert!(
            strings(&observed["typed_replayed"]).contains(&written),
            "{context}: {written} is a legal half-move: {}",
            observed["typed_replayed"]
        );
        assert_eq!(errors, &Value::Null, "{context}: steps failed");
    }
}

/// The plugin says which version of the binary it is written for: the workspace's.
#[test]
fn the_plugin_expects_the_binary_of_its_own_version() {
    let init = std::fs::read_to_string(repository().join("editors/nvim/lua/ctlpgn/init.lua"))
        .expect("the plugin");
    let expected = format!("M.version = '{}'", env!("CARGO_PKG_VERSION"));
    assert!(init.contains(&expected), "editors/nvim/lua/ctlpgn/init.lua must say {expected}");
}

/// The help tags Neovim reads for `:help ctlpgn` are committed with the help file, so that a
/// user who only puts the folder on the runtime path has them; they are what `:helptags`
/// makes of the help file now.
#[test]
fn the_help_tags_are_those_of_the_help_file() {
    let doc = repository().join("editors/nvim/doc");
    let work = WorkFolder::new("nvim-helptags");
    std::fs::copy(doc.join("ctlpgn.txt"), work.0.join("ctlpgn.txt"))
        .expect("the help file is copied");
    for nvim in neovims() {
        let output = run_with_patience(
            Command::new(&nvim)
                .args(["--headless", "--clean", "-u", "NONE", "-c"])
                .arg(format!("helptags {}", work.0.display()))
                .args(["-c", "qall!"]),
            "helptags",
        );
        assert!(output.status.success(), "{}: {output:?}", nvim.display());
        let made = std::fs::read_to_string(work.0.join("tags")).expect("the tags made");
        let committed = std::fs::read_to_string(doc.join("tags")).expect("editors/nvim/doc/tags");
        assert!(
            made == committed,
            "editors/nvim/doc/tags is stale: run :helptags editors/nvim/doc"
        );
    }
}

/// The queries Neovim loads are copies of the grammar's, so that the plugin folder works on
/// its own; this keeps the copies from drifting.
/// Neovim 0.11's `vim.lsp.enable('ctlpgn')` alone, with the plugin folder on the runtime path,
/// starts the server from `lsp/ctlpgn.lua`; on an older Neovim that file still loads and gives
/// the command and filetypes.
/// A record whose separators are `‐` (U+2010), with an accented annotator: what
/// tests/e2e/neovim-play.lua plays in.
const PLAY: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-P01\"]\n[Annotator \"Vidàl, Àngel\"]\n[Result \"*\"]\n\n1. K4‐K6, E21‐E19\n2. E7‐E9:\n*\n";

#[test]
fn neovim_plays_the_half_move_chosen_with_ctlpgnplay_and_with_m_in_the_board() {
    for nvim in neovims() {
        let work = WorkFolder::new("nvim-play");
        std::fs::write(work.0.join("play.ctl-pgn"), PLAY).expect("the fixture is written");
        let observed = run_script(&nvim, "neovim-play.lua", &work.0);
        let context = format!("Neovim {} ({})", observed["nvim"], nvim.display());
        let errors = &observed["errors"];
        // The list: every half-move Black may play, in the record's writing, with the checks.
        let lists = observed["lists"].as_array().cloned().unwrap_or_default();
        assert_eq!(lists.len(), 3, "{context}: three lists shown; {errors}");
        assert_eq!(lists[0]["prompt"], "Black plays: ", "{context}");
        let offered = strings(&lists[0]["items"]);
        assert!(offered.contains(&"E19‐E17"), "{context}: {offered:?}");
        assert!(offered.iter().all(|text| !text.contains('-')), "{context}: {offered:?}");
        // :CtlpgnPlay at the end of the main line: on White's move line, with the end mark.
        let played = PLAY.replace("2. E7‐E9:", "2. E7‐E9, E19‐E17:");
        assert_eq!(observed["played"], played.as_str(), "{context}: {errors}");
        assert_eq!(
            observed["cursor"],
            serde_json::json!([7, 17]),
            "{context}: the cursor after it"
        );
        assert_eq!(observed["undone"], true, "{context}: one u takes it back; {errors}");
        // A line added while the list was open: the play of the place read before is refused,
        // and the buffer holds the line alone.
        let edited = PLAY.replace("*\"]\n\n", "*\"]\n{ a note }\n\n");
        assert_eq!(observed["edited_while_choosing"], edited.as_str(), "{context}: {errors}");
        assert_eq!(
            observed["refusal"],
            "ctlpgn: the buffer changed while the half-move was chosen: nothing was played; play again",
            "{context}"
        );
        // `m` in the board window, from White's first move: a variation.
        assert_eq!(
            observed["board_keys"], "m play a move · y copy the PDTL · q close",
            "{context}: the board window lists m"
        );
        let variation = PLAY.replace("E21‐E19\n", "E21‐E19\n(1. …, E21‐E17)\n");
        assert_eq!(observed["variation"], variation.as_str(), "{context}: {errors}");
        // The board window shows the position after it, without the cursor going back.
        assert_eq!(
            observed["board_after_m"],
            serde_json::json!(["1. …, E21‐E17", "White to move."]),
            "{context}: {errors}"
        );
        assert_eq!(observed["focus_in_board"], true, "{context}");
        // The record as played is one that `ctlpgn check` accepts.
        let checked = ctlpgn(&["check", "-"], observed["variation"].as_str().unwrap_or(""));
        assert_eq!(checked, "", "{context}: ctlpgn check accepts the record");
    }
}

/// A work folder holding a copy of tests/e2e/errors.ctl-pgn.
fn with_errors_fixture(name: &str) -> WorkFolder {
    let work = WorkFolder::new(name);
    std::fs::copy(repository().join("tests/e2e/errors.ctl-pgn"), work.0.join("errors.ctl-pgn"))
        .expect("the fixture is copied");
    work
}

#[test]
fn vim_lsp_enable_alone_starts_the_server_from_the_plugins_lsp_folder() {
    for nvim in neovims() {
        let work = with_errors_fixture("nvim-enable");
        let rules = std::fs::read_to_string(repository().join("testdata/diagnostics/R008.ctl-pgn"))
            .expect("R008's example")
            .replace("1. H6-H12, I23-I19", "1.  H6-H12,   I23-I19");
        std::fs::write(work.0.join("rules.ctl-pgn"), &rules).expect("the record is written");
        let observed = run_script(&nvim, "neovim-enable.lua", &work.0);
        let context = format!("{}: {observed}", nvim.display());
        assert!(observed.get("error").is_none(), "{context}");
        assert_eq!(observed["config"]["cmd"], serde_json::json!(["ctlpgn", "lsp"]), "{context}");
        assert_eq!(observed["config"]["filetypes"], serde_json::json!(["ctlpgn"]), "{context}");
        if observed["enable"] == true {
            assert_eq!(observed["filetype"], "ctlpgn", "{context}");
            assert_eq!(observed["attached"], true, "{context}");
            // The fixture's bad date is among the diagnostics the server published.
            assert!(strings(&observed["codes"]).contains(&"T011"), "{context}");
            // The plugin's completion, without setup().
            assert_eq!(observed["completion"], true, "{context}");
            assert!(
                observed["completeopt"].as_str().is_some_and(|value| value.contains("noinsert")),
                "{context}"
            );
            // The rule checks the user's vim.lsp.config turned on run, saving does not format,
            // and :checkhealth ctlpgn says both, from the running client's settings.
            assert!(strings(&observed["rule_codes"]).contains(&"R008"), "{context}");
            assert_eq!(observed["formatted_on_save"], false, "{context}");
            assert_eq!(std::fs::read_to_string(work.0.join("rules.ctl-pgn")).ok(), Some(rules));
            let health = strings(&observed["health"]);
            assert!(
                health.iter().all(|line| !line.contains("ERROR")),
                "{}: :checkhealth ctlpgn finds the running client's binary:\n{}",
                nvim.display(),
                health.join("\n")
            );
            for expected in [
                "rule checks (R001-R009): on (client ",
                "\"rules\": {\"enable\": true}",
                "format on save: off: setup() was not called",
            ] {
                assert!(
                    health.iter().any(|line| line.contains(expected)),
                    "{}: :checkhealth ctlpgn says {expected:?}:\n{}",
                    nvim.display(),
                    health.join("\n")
                );
            }
            assert!(
                health.iter().all(|line| !line.contains("rule checks (R001-R009): off")
                    && !line.contains("format on save: on")),
                "{}: :checkhealth ctlpgn:\n{}",
                nvim.display(),
                health.join("\n")
            );
        }
    }
}

#[test]
fn the_plugin_queries_are_the_grammars() {
    for query in ["highlights.scm", "folds.scm"] {
        let grammar =
            std::fs::read_to_string(repository().join("tree-sitter-ctlpgn/queries").join(query))
                .expect("the grammar's query");
        let plugin =
            std::fs::read_to_string(repository().join("editors/nvim/queries/ctlpgn").join(query))
                .expect("the plugin's query");
        assert!(plugin == grammar, "editors/nvim/queries/ctlpgn/{query} differs from tree-sitter-ctlpgn/queries/{query}: copy it again");
    }
}

/// With the server's `diagnostics.workspace` on, the quickfix list of
/// `vim.diagnostic.setqflist()` holds the problems of a record file no buffer was opened for,
/// each at its line with its code's name.
#[test]
fn neovim_lists_the_problems_of_a_file_never_opened_with_the_workspace_setting() {
    for nvim in neovims() {
        let work = with_errors_fixture("nvim-workspace");
        // A club's repository: Neovim 0.11 takes the folder holding `.git` as the workspace.
        std::fs::create_dir_all(work.0.join(".git")).expect("a repository");
        let archive = work.0.join("archive/2025");
        std::fs::create_dir_all(&archive).expect("a folder");
        std::fs::copy(
            repository().join("examples/mistakes.ctl-pgn"),
            archive.join("never-opened.ctl-pgn"),
        )
        .expect("the example is copied");
        let observed = run_script(&nvim, "neovim-workspace.lua", &work.0);
        let context = format!("{}: {observed}", nvim.display());
        assert!(observed.get("errors").is_none(), "{context}");
        assert_eq!(observed["loaded"], false, "never loaded: {context}");
        let lines = strings(&observed["quickfix"]);
        let of_the_file: Vec<&str> =
            lines.iter().copied().filter(|line| line.contains("never-opened.ctl-pgn")).collect();
        // The quickfix text is the message, which ends with the code's name.
        for (line, code) in [
            ("|12 col 21", "[reference-to-later-move]"),
            ("|13 col 12", "[origin-wrong-piece]"),
            ("|15 col 8", "[wrong-line-parity]"),
        ] {
            assert!(
                of_the_file.iter().any(|shown| shown.contains(line) && shown.contains(code)),
                "{code} at {line}: {context}"
            );
        }
    }
}
