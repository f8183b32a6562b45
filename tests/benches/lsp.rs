//! The language server's latencies on a 2,000-record file, through its real transport (the
//! in-process client of the protocol tests): opening the file (the first time in the server,
//! and again), a one-character edit until its diagnostics are published, a hover on a
//! half-move (with a text board, and with an SVG image), a completion in the movetext,
//! `ctlpgn/board` on a half-move, the whole-document requests, a half-move played on the board
//! (`ctlpgn/play`, its edit applied, the board after it); and the memory the open
//! document holds, against the aims of the language-server issue (p95 ≤ 10 ms, p95 ≤ 2 ms,
//! ≤ 20× the file size).
//!
//! `cargo bench -p ctlpgn-tests --bench lsp`

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use ctlpgn_test_client::{like_vscode, uri, utf16_client, Client};
use ctlpgn_test_support::fixtures::corpus_file;
use ctlpgn_test_support::rng::Rng;

/// The resident memory of this process in bytes (Linux), or 0 where it cannot be read.
fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kilobytes| kilobytes * 1024)
}

/// Prints the median, the 95th percentile and the maximum of some timings.
fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    let at = |fraction: f64| {
        times[((times.len() - 1) as f64 * fraction).round() as usize].as_secs_f64() * 1e3
    };
    println!(
        "{label:<44} median {:>7.3} ms   p95 {:>7.3} ms   max {:>7.3} ms   ({} runs)",
        at(0.5),
        at(0.95),
        at(1.0),
        times.len()
    );
}

/// Eight openings of `text` into the running server, each until its diagnostics arrive, and
/// closed after.
fn reopenings(client: &mut Client, text: &str, name: &str) -> Vec<Duration> {
    (0..8)
        .map(|round| {
            let again = uri(&format!("{name}{round}"));
            let start = Instant::now();
            client.open(&again, text);
            client.published(&again);
            let took = client.last_arrival - start;
            client.notify("textDocument/didClose", json!({"textDocument": {"uri": again}}));
            took
        })
        .collect()
}

fn main() {
    let text = corpus_file(2000);
    let document = uri("bench");
    // The lines that start a move line (`12. …`), where edits and hovers go.
    let move_lines: Vec<u32> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            line.split_once(". ").is_some_and(|(number, _)| {
                !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .map(|(index, _)| index as u32)
        .collect();
    println!(
        "file: {} records, {:.2} MB, {} move lines",
        2000,
        text.len() as f64 / 1e6,
        move_lines.len()
    );

    // A client that shows semantic tokens, folds and an outline, as VS Code: the server
    // derives them as it reads the records when the file opens.
    let mut client = Client::start(like_vscode(utf16_client()));
    let before = resident_bytes();
    let start = Instant::now();
    client.open(&document, &text);
    client.published(&document);
    println!(
        "{:<44} {:>7.1} ms",
        "open and first diagnostics",
        (client.last_arrival - start).as_secs_f64() * 1e3
    );
    let held = resident_bytes().saturating_sub(before);
    println!(
        "{:<44} {:>7.1} MB   ({:.1}x the file size; resident-set growth, allocator slack included)",
        "memory held by the open document",
        held as f64 / 1e6,
        held as f64 / text.len() as f64
    );
    // The same file opened again into the running server, and closed: the first opening also
    // paid for starting the server's threads and growing its memory the first time.
    report("open again and first diagnostics", reopenings(&mut client, &text, "again"));
    // What VS Code asks for at once when it opens a file.
    let shown = json!({"textDocument": {"uri": uri("again-shown")}});
    let start = Instant::now();
    client.open(&uri("again-shown"), &text);
    client.published(&uri("again-shown"));
    for method in [
        "textDocument/semanticTokens/full",
        "textDocument/foldingRange",
        "textDocument/documentSymbol",
    ] {
        client.request(method, shown.clone()).expect("an answer");
    }
    println!(
        "{:<44} {:>7.1} ms",
        "open, then tokens, folds and outline",
        (client.last_arrival - start).as_secs_f64() * 1e3
    );
    client.notify("textDocument/didClose", json!({"textDocument": shown["textDocument"]}));
    // A client that shows none of them (Neovim 0.7) has nothing derived when it opens.
    let mut plain = Client::start(utf16_client());
    report("open again, a client that shows none", reopenings(&mut plain, &text, "plain"));
    assert!(plain.finish(true), "the plain client's server shut down cleanly");

    // A fixed seed, so that runs are comparable.
    let mut sequence = Rng::new(7);
    let mut edits = Vec::new();
    let mut version = 1;
    for round in 0..400 {
        let line = *sequence.pick(&move_lines);
        // A space typed at the start of a move line, then deleted: each edit changes one record.
        for change in [
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": " "}),
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": ""}),
        ] {
            version += 1;
            let start = Instant::now();
            client.change(&document, version, json!([change]));
            let published = client.published_until(&document, version);
            if round >= 20 {
                edits.push(start.elapsed());
            }
            assert!(published.last().is_some_and(|last| last["version"] == version));
        }
    }
    report("one-character edit -> diagnostics published", edits);

    let mut hovers = Vec::new();
    let mut completions = Vec::new();
    for _ in 0..1000 {
        let line = *sequence.pick(&move_lines);
        let start = Instant::now();
        let hover = client.at("textDocument/hover", &document, line, 5).expect("a hover answer");
        hovers.push(start.elapsed());
        assert!(!hover.is_null(), "a hover on the half-move of line {line}");
        let start = Instant::now();
        client.at("textDocument/completion", &document, line, 4).expect("a completion answer");
        completions.push(start.elapsed());
    }
    report("hover on a half-move", hovers);
    report("completion at the start of a half-move", completions);

    // The board at a half-move, as the editors' board panels ask for it on every cursor move.
    let mut boards = Vec::new();
    for _ in 0..1000 {
        let line = *sequence.pick(&move_lines);
        let params =
            json!({"textDocument": {"uri": document}, "position": {"line": line, "character": 5}});
        let start = Instant::now();
        let answer = client.request("ctlpgn/board", params).expect("a board answer");
        boards.push(start.elapsed());
        assert!(answer["line"].is_array(), "a board at line {line}");
    }
    report("ctlpgn/board on a half-move", boards);

    // The hover of a client that shows images (VS Code): the board as a base64 SVG.
    let images = json!({"hover": {"images": true}});
    let mut image_client = Client::start_with(utf16_client(), images, Value::Null);
    image_client.open(&document, &text);
    image_client.published(&document);
    let mut image_hovers = Vec::new();
    for _ in 0..1000 {
        let line = *sequence.pick(&move_lines);
        let start = Instant::now();
        let hover =
            image_client.at("textDocument/hover", &document, line, 5).expect("a hover answer");
        image_hovers.push(start.elapsed());
        assert!(!hover.is_null(), "a hover on the half-move of line {line}");
    }
    report("hover on a half-move, board as an SVG image", image_hovers);
    assert!(image_client.finish(true), "the image client's server shut down cleanly");

    // Requests over the whole document derive what they need once per record text (kept with
    // the record), on every core: folding and symbols from the hand-written reader, semantic
    // tokens from a tree-sitter parse.
    let whole = [
        (
            "folding ranges (whole document)",
            "textDocument/foldingRange",
            json!({"textDocument": {"uri": document}}),
        ),
        (
            "document symbols (whole document)",
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": document}}),
        ),
        (
            "semantic tokens (whole document)",
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": document}}),
        ),
        (
            "semantic tokens (one screen, 60 lines)",
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": document}, "range": {"start": {"line": 30000, "character": 0}, "end": {"line": 30060, "character": 0}}}),
        ),
        (
            "formatting (whole document)",
            "textDocument/formatting",
            json!({"textDocument": {"uri": document}, "options": {"tabSize": 4, "insertSpaces": true}}),
        ),
    ];
    // Timed until the answer has arrived: decoding 3.5 million numbers of semantic tokens into
    // JSON values costs this client more than the server takes to answer.
    for (label, method, params) in &whole {
        let times = (0..5)
            .map(|_| {
                let start = Instant::now();
                client.request(method, params.clone()).expect("an answer");
                client.last_arrival - start
            })
            .collect();
        report(label, times);
    }
    // What an editor does on every keystroke: an edit of one record, then the whole-document
    // requests again; each record keeps what it derived, so only the edited one is redone.
    for (label, method, params) in &whole[..3] {
        let mut times = Vec::new();
        for _ in 0..10 {
            let line = *sequence.pick(&move_lines);
            version += 1;
            let change = json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": " "});
            client.change(&document, version, json!([change]));
            client.published_until(&document, version);
            let start = Instant::now();
            client.request(method, params.clone()).expect("an answer");
            times.push(client.last_arrival - start);
        }
        report(&format!("after an edit: {label}"), times);
    }

    // A half-move played on the board, as the VS Code panel plays it on a click on a mark:
    // `ctlpgn/play` where the board stands (one of the board's `moves`, at random: most make a
    // variation, some extend a line), its edit sent back as the editor's change, then the board
    // at the half-move played, which the panel follows. The move is in the text once the answer
    // is applied; the panel shows it once the second board has arrived.
    let mut plays = Vec::new();
    let mut clicks = Vec::new();
    for _ in 0..2000 {
        if plays.len() == 300 {
            break;
        }
        let line = move_lines[sequence.below(move_lines.len())];
        let place =
            json!({"textDocument": {"uri": document}, "position": {"line": line, "character": 5}});
        let board = client.request("ctlpgn/board", place.clone()).expect("a board answer");
        let Some(moves) = board["moves"].as_array().filter(|moves| !moves.is_empty()) else {
            continue;
        };
        let mut params = place;
        params["move"] = moves[sequence.below(moves.len())]["text"].clone();
        // The version the board stands in, which the play names.
        params["textDocument"]["version"] = board["version"].clone();
        let start = Instant::now();
        let played = client.request("ctlpgn/play", params).expect("a play answer");
        plays.push(start.elapsed());
        let edits =
            played["edit"]["documentChanges"][0]["edits"].as_array().cloned().unwrap_or_default();
        if !edits.is_empty() {
            // As an editor applies a workspace edit: one change per edit, the last one first.
            let changes = edits
                .iter()
                .rev()
                .map(|edit| json!({"range": edit["range"], "text": edit["newText"]}));
            version += 1;
            client.change(&document, version, Value::Array(changes.collect()));
        }
        let after = json!({"textDocument": {"uri": document}, "position": played["range"]["end"]});
        let board = client.request("ctlpgn/board", after).expect("the board after the move");
        clicks.push(start.elapsed());
        assert!(board["exact"] == true, "the board stands on the half-move played");
    }
    report("ctlpgn/play (the edit of a half-move)", plays);
    report("play, edit applied, board after it", clicks);
    client.finish(true);

    // With the optional rule checks on, every half-move is also judged against the rules of
    // play: checks, checkmates and what each piece can reach.
    let rules = json!({"rules": {"enable": true}});
    let mut client = Client::start_with(utf16_client(), rules.clone(), rules);
    let start = Instant::now();
    client.open(&document, &text);
    client.published(&document);
    println!(
        "{:<44} {:>7.1} ms",
        "open and first diagnostics, rule checks on",
        start.elapsed().as_secs_f64() * 1e3
    );
    client.finish(true);
}
