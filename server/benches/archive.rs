//! Benchmark of a whole archive: the 2,000 records of the benchmark file as 2,000 one-game
//! files in 20 folders, against the same records in the one 2 MB file. `ctlpgn check DIR`
//! walks the folders, reads and checks the files on every core; `ctlpgn check FILE` checks
//! the one file's records on every core. Each is timed as a process, on every core and on one
//! (`taskset -c 0`, when the machine has it), best and median of several runs alternated so
//! that a slow minute of a shared host weighs on both. Then the language server's survey of
//! the same tree (`diagnostics.workspace`): a first `workspace/diagnostic` pull, which checks
//! every file, and a second one holding the first one's result ids, which finds every file
//! unchanged. Then the memory of a survey: one 60 MB file of the handbook's diagnostic
//! examples (hundreds of thousands of problems) surveyed, against the same file opened and
//! closed as a document, the server's resident memory after each. Run with
//! `cargo bench -p ctlpgn --bench archive`.

#[path = "../tests/process/mod.rs"]
mod process;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ctlpgn_test_support::fixtures::{read_text, testdata_files};
use process::Server;
use serde_json::{json, Value};

const RECORDS: usize = 2_000;
const FOLDERS: usize = 20;
const RUNS: usize = 11;

fn main() {
    let games: Vec<String> =
        testdata_files("corpus/valid", ".ctl-pgn").iter().map(|path| read_text(path)).collect();
    let root = std::env::temp_dir().join(format!("ctlpgn-bench-archive-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let tree = root.join("archive");
    let mut single = String::new();
    for record in 0..RECORDS {
        let game = &games[record % games.len()];
        let folder = tree.join(format!("club-{:02}", record % FOLDERS));
        std::fs::create_dir_all(&folder).expect("a folder");
        std::fs::write(folder.join(format!("game-{record:04}.ctl-pgn")), game).expect("a game");
        single.push_str(game);
        single.push('\n');
    }
    let file = root.join("all.ctl-pgn");
    std::fs::write(&file, &single).expect("the file");
    println!(
        "{RECORDS} one-game files in {FOLDERS} folders against one file of {:.2} MB; {} cores available",
        single.len() as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    let one_core =
        Command::new("taskset").args(["-c", "0", "true"]).status().is_ok_and(|s| s.success());
    for (label, pinned) in [("every core", false), ("one core", true)] {
        if pinned && !one_core {
            println!("one core: taskset is not there");
            continue;
        }
        let (mut folder_times, mut file_times) = (Vec::new(), Vec::new());
        for _ in 0..RUNS {
            folder_times.push(check(&tree, pinned));
            file_times.push(check(&file, pinned));
        }
        let (folder, file) = (summary(&mut folder_times), summary(&mut file_times));
        println!(
            "{label:<10}  check DIR  best {:6.1} ms  median {:6.1} ms | check FILE  best {:6.1} ms  median {:6.1} ms | DIR / FILE (medians) {:.2}",
            folder.0, folder.1, file.0, file.1, folder.1 / file.1
        );
    }
    survey(&tree);
    survey_memory(&root.join("large"));
    let _ = std::fs::remove_dir_all(&root);
}

/// The size of the file whose survey's memory is measured.
const LARGE_FILE: usize = 60 << 20;

/// The server's resident memory after surveying one large file full of problems, and after the
/// same file was opened and closed as a document.
fn survey_memory(folder: &Path) {
    std::fs::create_dir_all(folder).expect("a folder");
    let examples: Vec<String> = testdata_files("diagnostics", ".ctl-pgn")
        .iter()
        .filter_map(|path| String::from_utf8(std::fs::read(path).ok()?).ok())
        .collect();
    let mut text = String::new();
    while text.len() < LARGE_FILE {
        for example in &examples {
            text.push_str(example);
            text.push('\n');
        }
    }
    let file = folder.join("examples.ctl-pgn");
    std::fs::write(&file, &text).expect("the file");
    let uri = format!("file://{}", file.display());
    let published = |uri: &str| {
        let uri = uri.to_string();
        move |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
        }
    };
    let patience = Duration::from_secs(600);

    let mut surveyed = Server::start();
    let params = json!({
        "processId": null,
        "capabilities": {},
        "initializationOptions": {"diagnostics": {"workspace": true}},
        "workspaceFolders": [{"uri": format!("file://{}", folder.display()), "name": "large"}]
    });
    surveyed.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}));
    surveyed.response_to(&json!(1));
    surveyed.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let (_, report) = surveyed.wait_for_within(patience, published(&uri));
    let listed = report["params"]["diagnostics"].as_array().map_or(0, Vec::len);
    let after_survey = settled_memory(surveyed.pid());

    let mut opened = Server::start();
    opened.initialize(json!({}));
    let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
    opened.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let (_, report) = opened.wait_for_within(patience, published(&uri));
    let all = report["params"]["diagnostics"].as_array().map_or(0, Vec::len);
    let closing = json!({"textDocument": {"uri": uri}});
    opened.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": closing}));
    opened.wait_for_within(patience, published(&uri));
    let after_close = settled_memory(opened.pid());
    println!(
        "one {:.0} MB file of {all} problems: surveyed (listing {listed}): resident {:.0} MB, peak {:.0} MB | opened and closed: resident {:.0} MB, peak {:.0} MB | survey / closed (resident) {:.2}",
        text.len() as f64 / 1e6,
        after_survey.0,
        after_survey.1,
        after_close.0,
        after_close.1,
        after_survey.0 / after_close.0
    );
    surveyed.kill();
    opened.kill();
}

/// A process's resident memory once it has settled (the server gives memory back after it
/// has answered: read until two readings a quarter of a second apart agree within 1%, ten
/// seconds at most), and its peak, in megabytes.
fn settled_memory(pid: u32) -> (f64, f64) {
    let mut last = process::memory(pid);
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(250));
        let now = process::memory(pid);
        let settled = (now.0 - last.0).abs() <= last.0 / 100.0;
        last = now;
        if settled {
            break;
        }
    }
    last
}

/// One `ctlpgn check --quiet PATH`, its status checked: the corpus is clean.
fn check(path: &Path, pinned: bool) -> Duration {
    let binary = env!("CARGO_BIN_EXE_ctlpgn");
    let mut command = if pinned {
        let mut command = Command::new("taskset");
        command.args(["-c", "0", binary]);
        command
    } else {
        Command::new(binary)
    };
    command.args(["check", "--quiet"]).arg(path).stdout(Stdio::null());
    let start = Instant::now();
    let status = command.status().expect("ctlpgn runs");
    let took = start.elapsed();
    assert!(status.success(), "the corpus checks clean: {status}");
    took
}

/// Best and median, in milliseconds.
fn summary(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    (ms(times[0]), ms(times[times.len() / 2]))
}

/// The server's first and second workspace pulls of the tree.
fn survey(tree: &Path) {
    let mut server = Server::start();
    let folder = format!("file://{}", tree.display());
    let params = json!({
        "processId": null,
        "capabilities": {
            "textDocument": {"diagnostic": {}},
            "workspace": {"diagnostics": {"refreshSupport": false}}
        },
        "initializationOptions": {"diagnostics": {"workspace": true}},
        "workspaceFolders": [{"uri": folder, "name": "archive"}]
    });
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}));
    server.response_to(&json!(1));
    server.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    let mut held = Vec::new();
    for (id, label) in
        [(2, "first pull, every file checked"), (3, "second pull, every file unchanged")]
    {
        let previous: Vec<Value> = held.clone();
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "workspace/diagnostic", "params": {"previousResultIds": previous}});
        let start = Instant::now();
        server.send(&request);
        let answer = server.response_to(&json!(id));
        let took = start.elapsed();
        let items = answer["result"]["items"].as_array().cloned().unwrap_or_default();
        println!(
            "server survey, {label:<34} {:7.1} ms ({} files reported)",
            took.as_secs_f64() * 1e3,
            items.len()
        );
        held = items
            .iter()
            .map(|item| json!({"uri": item["uri"], "value": item["resultId"]}))
            .collect();
    }
    server.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"}));
    server.response_to(&json!(9));
    server.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
}
