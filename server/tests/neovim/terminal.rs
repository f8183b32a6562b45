//! Neovim in a real terminal, as a person sees it: tmux runs each Neovim with nothing but the
//! docs' `init.lua` (the plugin folder on the runtime path, `require('ctlpgn').setup()`, the
//! binary found on `PATH`), the test types with `send-keys` and reads the screen with
//! `capture-pane`. It looks at what a headless run cannot: the colours a move line shows with
//! nothing built, and the hover's float on the screen, whole in a tall window and cut in a
//! short one, where the move, whose turn it is and the whole PDTL on one row must still show.
//!
//! tmux is required, as Neovim is: CI installs Debian's package, and a missing `tmux` fails
//! the test rather than skipping it.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::{neovims, pdtl_after, repository, WorkFolder, PATIENCE};

/// One tmux server of its own (`-L`), holding one window that runs Neovim; killed when dropped.
struct Terminal {
    socket: String,
    /// The Neovim it runs, named in a failure.
    nvim: String,
}

impl Terminal {
    /// Starts `nvim FILE` in a `columns`×`rows` window, in `work`, with the user's folders in
    /// `work` and the binary under test first on `PATH`.
    fn start(nvim: &Path, work: &Path, file: &str, columns: u16, rows: u16) -> Terminal {
        // One server per terminal, as tests run side by side.
        static TERMINALS: AtomicUsize = AtomicUsize::new(0);
        let number = TERMINALS.fetch_add(1, Ordering::Relaxed);
        let socket = format!("ctlpgn-test-{}-{number}", std::process::id());
        let terminal = Terminal { socket, nvim: nvim.display().to_string() };
        let binary_folder = Path::new(env!("CARGO_BIN_EXE_ctlpgn")).parent().expect("a folder");
        let path = std::env::join_paths(
            std::iter::once(binary_folder.to_path_buf())
                .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
        )
        .expect("a PATH");
        let mut command = terminal.tmux();
        command.args(["new-session", "-d", "-s", "main", "-x", &columns.to_string()]);
        command.args(["-y", &rows.to_string(), "-c"]).arg(work);
        // The server tmux starts here takes its environment from this first command (tmux
        // gives a new window the client's PATH whatever `-e` says).
        command.env("PATH", path);
        for folder in ["CONFIG", "DATA", "STATE", "CACHE"] {
            command.env(format!("XDG_{folder}_HOME"), work.join(folder.to_lowercase()));
        }
        command.env("TERM", "xterm-256color");
        command.arg(nvim).arg(file);
        let output = run(&mut command);
        assert!(output.status.success(), "tmux starts Neovim: {output:?}");
        terminal
    }

    /// A tmux command on this terminal's own server, with no user configuration.
    fn tmux(&self) -> Command {
        let mut command = Command::new("tmux");
        command.args(["-L", &self.socket, "-f", "/dev/null"]);
        command
    }

    /// Types `keys` as tmux key names (`Enter`, `Escape`, `K`).
    fn press(&self, keys: &[&str]) {
        let output = run(self.tmux().args(["send-keys", "-t", "main"]).args(keys));
        assert!(output.status.success(), "tmux sends {keys:?}: {output:?}");
    }

    /// Types `text` as it is, character by character.
    fn type_text(&self, text: &str) {
        let output = run(self.tmux().args(["send-keys", "-t", "main", "-l", text]));
        assert!(output.status.success(), "tmux types {text:?}: {output:?}");
    }

    /// The screen's rows, as text, or with their colours as escape sequences.
    fn screen(&self, colours: bool) -> Vec<String> {
        let mut command = self.tmux();
        command.args(["capture-pane", "-p", "-t", "main"]);
        if colours {
            command.arg("-e");
        }
        let output = run(&mut command);
        assert!(output.status.success(), "tmux captures the screen: {output:?}");
        String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
    }

    /// The screen once `shows` holds of it; fails with the last screen after `PATIENCE`.
    fn wait_for(&self, what: &str, shows: impl Fn(&[String]) -> bool) -> Vec<String> {
        let started = Instant::now();
        loop {
            let screen = self.screen(false);
            if shows(&screen) {
                return screen;
            }
            if started.elapsed() > PATIENCE {
                panic!("{}: the screen never showed {what}:\n{}", self.nvim, screen.join("\n"));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
    }
}

fn run(command: &mut Command) -> Output {
    command.output().unwrap_or_else(|error| {
        panic!("tmux could not be started ({error}); install it (Debian: apt-get install tmux)")
    })
}

/// A work folder holding the docs' `init.lua` and a copy of the e2e record.
fn user_folder(name: &str) -> WorkFolder {
    let work = WorkFolder::new(name);
    let config = work.0.join("config/nvim");
    std::fs::create_dir_all(&config).expect("the config folder");
    let plugin = repository().join("editors/nvim");
    let init =
        format!("vim.opt.runtimepath:append({})\nrequire('ctlpgn').setup()\n", lua_string(&plugin));
    std::fs::write(config.join("init.lua"), init).expect("init.lua");
    std::fs::copy(repository().join("tests/e2e/errors.ctl-pgn"), work.0.join("game.ctl-pgn"))
        .expect("the record is copied");
    work
}

/// A path as a Lua long string, which escapes nothing.
fn lua_string(path: &Path) -> String {
    format!("[==[{}]==]", path.display())
}

/// The foreground colours the visible characters of a captured row are drawn in: the
/// default one (`None`) and those its SGR sequences set (`38;5;N`, `38;2;R;G;B`, `3N`, `9N`),
/// each once.
fn foregrounds(row: &str) -> std::collections::BTreeSet<Option<String>> {
    let mut colours = std::collections::BTreeSet::new();
    let mut current: Option<String> = None;
    let mut rest = row;
    while !rest.is_empty() {
        if let Some(sequence) = rest.strip_prefix("\u{1b}[") {
            let Some((parameters, after)) = sequence.split_once('m') else { break };
            current = foreground_after(current, parameters);
            rest = after;
            continue;
        }
        let character = rest.chars().next().expect("a character");
        if !character.is_whitespace() {
            colours.insert(current.clone());
        }
        rest = &rest[character.len_utf8()..];
    }
    colours
}

/// The foreground colour after an SGR sequence's parameters.
fn foreground_after(mut current: Option<String>, parameters: &str) -> Option<String> {
    let parameters: Vec<&str> = parameters.split(';').collect();
    let mut index = 0;
    while index < parameters.len() {
        let step = match parameters[index] {
            "" | "0" | "39" => {
                current = None;
                1
            }
            "38" | "48" => {
                let step = if parameters.get(index + 1) == Some(&"5") { 3 } else { 5 };
                let end = (index + step).min(parameters.len());
                if parameters[index] == "38" {
                    current = Some(parameters[index..end].join(";"));
                }
                step
            }
            code if code.len() == 2 && (code.starts_with('3') || code.starts_with('9')) => {
                current = Some(code.to_string());
                1
            }
            _ => 1,
        };
        index += step;
    }
    current
}

/// The text of the float above row `pdtl_row`, from the float's left column on (where the
/// PDTL starts), the rows joined and their white space folded: what the float reads before
/// its PDTL, with whatever of the buffer stands right of that column above the float.
fn float_above(screen: &[String], pdtl_row: usize, pdtl: &str) -> String {
    let row = &screen[pdtl_row];
    let column = row[..row.find(pdtl).expect("the PDTL in its row")].chars().count();
    let text: Vec<String> =
        screen[..pdtl_row].iter().map(|row| row.chars().skip(column).collect()).collect();
    text.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Opens the record, waits for the server's diagnostics (their signs), and hovers the
/// half-move `F20‐F16` with `K`; returns the terminal and the screen with the float.
fn hover_in_terminal(nvim: &Path, work: &WorkFolder, rows: u16) -> (Terminal, Vec<String>, String) {
    let terminal = Terminal::start(nvim, &work.0, "game.ctl-pgn", 200, rows);
    // The bad date's sign: the server has attached and answered.
    terminal.wait_for("the diagnostics' signs", |screen| {
        screen.iter().any(|row| row.starts_with("W ") && row.contains("[Date"))
    });
    terminal.type_text("/F20‐F16");
    terminal.press(&["Enter"]);
    terminal.press(&["K"]);
    let pdtl = pdtl_after(&work.0.join("game.ctl-pgn"), "F20‐F16");
    let screen = terminal.wait_for("the hover's PDTL on one row", |screen| {
        screen.iter().any(|row| row.contains(&pdtl))
    });
    (terminal, screen, pdtl)
}

#[test]
fn a_move_line_shows_several_colours_with_nothing_built() {
    for nvim in neovims() {
        let work = user_folder("nvim-terminal-colours");
        let terminal = Terminal::start(&nvim, &work.0, "game.ctl-pgn", 200, 60);
        let screen = terminal.wait_for("the record", |screen| {
            screen.iter().any(|row| row.contains("2. F8‐F12, F20‐F16"))
        });
        // The row of the move line; its colours break up its text in the coloured capture. A
        // line of pawn moves: its number, its coordinates and its separators in three colours.
        let line = screen.iter().position(|row| row.contains("F8‐F12")).expect("the move line");
        let started = Instant::now();
        let colours = loop {
            let row = terminal.screen(true).get(line).cloned().unwrap_or_default();
            let colours = foregrounds(&row).len();
            if colours >= 3 || started.elapsed() > PATIENCE {
                break (colours, row);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert!(
            colours.0 >= 3,
            "{}: the move line shows {} colours: {:?}",
            nvim.display(),
            colours.0,
            colours.1
        );
    }
}

#[test]
fn k_shows_the_move_the_turn_and_the_whole_pdtl_on_one_row() {
    for nvim in neovims() {
        let work = user_folder("nvim-terminal-hover");
        let (_terminal, screen, pdtl) = hover_in_terminal(&nvim, &work, 60);
        let context = format!("{}:\n{}", nvim.display(), screen.join("\n"));
        let pdtl_row = screen.iter().position(|row| row.contains(&pdtl)).expect("the PDTL row");
        // The half-move in words and the turn stand above the PDTL in the float (the buffer
        // holds neither phrase).
        let above = float_above(&screen, pdtl_row, &pdtl);
        assert!(above.contains("F20 to F16"), "the half-move above the PDTL: {context}");
        assert!(above.contains("White to move"), "the turn above the PDTL: {context}");
        // The board follows the PDTL in a tall window (its top line, 28, at least).
        assert!(
            screen[pdtl_row + 1..].iter().any(|row| row.contains("28  ")),
            "the board below the PDTL: {context}"
        );
    }
}

#[test]
fn a_cut_hover_still_shows_the_move_the_turn_and_the_pdtl() {
    for nvim in neovims() {
        let work = user_folder("nvim-terminal-cut");
        // 24 rows: the record's move line stands at row 13, and the float below it has room for
        // a few lines only, far fewer than the board needs.
        let (_terminal, screen, pdtl) = hover_in_terminal(&nvim, &work, 24);
        let context = format!("{}:\n{}", nvim.display(), screen.join("\n"));
        let pdtl_row = screen.iter().position(|row| row.contains(&pdtl)).expect("the PDTL row");
        let above = float_above(&screen, pdtl_row, &pdtl);
        assert!(above.contains("F20 to F16"), "the half-move: {context}");
        assert!(above.contains("White to move"), "the turn: {context}");
    }
}

/// `[Ev`, `CTRL-X CTRL-O`, `CTRL-Y`, then the value typed, as the docs say it is done: the
/// value lands between the quotes on every version (0.7 and 0.10 write the item as plain text,
/// the cursor after it, unless the plugin moves it), and the preview window that 0.7 and 0.10
/// open for the item's documentation is gone once the item is taken.
#[test]
fn a_tag_completed_takes_its_value_between_the_quotes_and_leaves_no_preview_window() {
    for nvim in neovims() {
        let work = user_folder("nvim-terminal-tag");
        std::fs::copy(repository().join("tests/e2e/complete.ctl-pgn"), work.0.join("tags.ctl-pgn"))
            .expect("the record is copied");
        let terminal = Terminal::start(&nvim, &work.0, "tags.ctl-pgn", 120, 30);
        // The missing end mark's sign: the server has attached and answered, as a person
        // waits for before asking it for anything (keys typed earlier reach a Neovim whose
        // 'omnifunc' is not the server's yet).
        terminal.wait_for("the diagnostics' signs", |screen| {
            screen.iter().any(|row| row.starts_with("E ") && row.contains("1. K4-K6, E21-E19"))
        });
        terminal.type_text("o[Ev");
        terminal.press(&["C-x", "C-o"]);
        // The menu's rows, by the item's kind beside it: the diagnostics' virtual text names
        // the tag too (`a record continues with Event`), on the screen before the menu is.
        let menu = terminal.wait_for("the completion menu", |screen| {
            screen.iter().any(|row| row.contains("EventDate") && row.contains("Property"))
        });
        // Each key once the screen shows what the one before did, as a person types.
        terminal.press(&["C-y"]);
        terminal.wait_for("the menu to close", |screen| {
            !screen.iter().any(|row| row.contains("Property"))
        });
        terminal.type_text("Paris");
        terminal.wait_for("the value typed between the quotes", |screen| {
            screen.iter().any(|row| row.contains("[Event \"Paris\"]"))
        });
        terminal.press(&["Escape"]);
        let context = |screen: &[String]| format!("{}:\n{}", nvim.display(), screen.join("\n"));
        let screen = terminal.wait_for("normal mode", |screen| {
            !screen.iter().any(|row| row.contains("-- INSERT --"))
        });
        assert!(
            screen.iter().any(|row| {
                // Past the sign column, before any virtual text.
                let text: String = row.chars().skip(2).collect();
                text.split("  ").next() == Some("[Event \"Paris\"]")
            }),
            "the value between the quotes: {}\nthe menu was:\n{}",
            context(&screen),
            menu.join("\n")
        );
        assert!(
            !screen.iter().any(|row| row.contains("[Scratch]") || row.contains("[Preview]")),
            "no preview window: {}",
            context(&screen)
        );
    }
}
