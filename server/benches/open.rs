//! Benchmark of opening the 2,000-record file in `ctlpgn lsp` run as an editor runs it: a
//! process of its own on standard input and output, so that the client's work (encoding 2 MB
//! of text as JSON, reading the answers) neither shares the server's cores nor counts in its
//! time. Timed from the first byte of the `didOpen` frame, encoded beforehand, to the arrival
//! of the last byte of the document's diagnostics; for a client that shows only diagnostics
//! and for one that declares VS Code's semantic tokens, folds and outline, which the server
//! then derives in the same pass. Run with `cargo bench -p ctlpgn --bench open`.

#[path = "../tests/process/mod.rs"]
mod process;

use std::time::{Duration, Instant};

use ctlpgn_test_support::fixtures::corpus_file;
use process::{frame, Server};
use serde_json::{json, Value};

/// How many times each client opens the file; the first opening of a server also starts its
/// threads and grows its memory, so it is reported apart.
const OPENINGS: usize = 12;

/// Opens the file `OPENINGS` times into one server and prints the first opening's time and
/// the median and best of the others.
fn openings(label: &str, capabilities: Value, text: &str) {
    let mut server = Server::start();
    server.initialize(capabilities);
    let mut times = Vec::with_capacity(OPENINGS);
    for opening in 0..OPENINGS {
        let uri = format!("file:///bench/opening-{opening}.ctl-pgn");
        let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
        let message = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}});
        let bytes = frame(&message);
        let start = Instant::now();
        server.send_raw(&bytes);
        let (arrival, _) = server.wait_for(|message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == json!(uri)
        });
        times.push(arrival.duration_since(start));
        let close = json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}});
        server.send(&close);
    }
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    server.response_to(&json!(2));
    server.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    assert_eq!(server.status().code(), Some(0), "the server exits cleanly");
    let first = times[0];
    let mut later = times[1..].to_vec();
    later.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1e3;
    println!(
        "{label:<52} first {:7.1} ms   later: median {:7.1} ms, best {:7.1} ms ({} openings)",
        ms(first),
        ms(later[later.len() / 2]),
        ms(later[0]),
        later.len()
    );
}

fn main() {
    let text = corpus_file(2000);
    println!(
        "2,000-record file: {:.2} MB, {} cores available",
        text.len() as f64 / 1e6,
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    let utf16 = json!({"general": {"positionEncodings": ["utf-16"]}});
    openings("open until diagnostics, a client showing only them", utf16, &text);
    let vscode = json!({
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {
            "semanticTokens": {
                "requests": {"full": {"delta": true}, "range": true},
                "tokenTypes": [], "tokenModifiers": [], "formats": ["relative"]
            },
            "foldingRange": {},
            "documentSymbol": {}
        }
    });
    openings("open until diagnostics, VS Code's capabilities", vscode, &text);
}
