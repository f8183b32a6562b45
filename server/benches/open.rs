//! Benchmark of opening the 2,000-record file in `ctlpgn lsp` run as an editor runs it: a
//! process of its own on standard input and output, so that the client's work (encoding 2 MB
//! of text as JSON, reading the answers) neither shares the server's cores nor counts in its
//! time. Timed from the first byte of the `didOpen` frame, encoded beforehand, to the arrival
//! of the last byte of the document's diagnostics; for a client that shows only diagnostics
//! and for one that declares VS Code's semantic tokens, folds and outline, which the server
//! then derives in the same pass. Run with `cargo bench -p ctlpgn --bench open`.

// Only the file is taken from there: the answers are timed by their arrival, not by `measure`.
#[allow(dead_code)]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use common::corpus_file;
use serde_json::{json, Value};

/// How many times each client opens the file; the first opening of a server also starts its
/// threads and grows its memory, so it is reported apart.
const OPENINGS: usize = 12;

/// How long any answer may take before the benchmark fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `ctlpgn lsp` and the messages it wrote, each with the moment it had wholly
/// arrived, read by a thread of their own.
struct Server {
    child: Child,
    input: ChildStdin,
    messages: Receiver<(Instant, Value)>,
}

impl Server {
    fn start(capabilities: Value) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctlpgn"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ctlpgn starts");
        let output = child.stdout.take().expect("a standard output");
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            while let Some(message) = read_frame(&mut output) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        let input = child.stdin.take().expect("a standard input");
        let mut server = Server { child, input, messages };
        let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities});
        server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}));
        server.wait_for(|message| message["id"] == json!(1));
        server.send(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
        server
    }

    fn send(&mut self, message: &Value) {
        self.input.write_all(&frame(message)).and_then(|()| self.input.flush()).expect("sent");
    }

    /// The arrival of the first message that `wanted` accepts; the others are dropped (the
    /// server's own requests are left unanswered, which it allows).
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Instant {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let (arrival, message) = self.messages.recv_timeout(left).expect("an answer in time");
            if wanted(&message) {
                return arrival;
            }
        }
    }

    fn stop(mut self) {
        self.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
        self.wait_for(|message| message["id"] == json!(2));
        self.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
        self.child.wait().expect("the server exits");
    }
}

fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// One message from the server, with the moment its last byte was read.
fn read_frame(output: &mut impl BufRead) -> Option<(Instant, Value)> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end_matches("\r\n");
        if line.is_empty() {
            break;
        }
        length = line.strip_prefix("Content-Length: ").and_then(|value| value.parse().ok());
    }
    let mut body = vec![0; length?];
    output.read_exact(&mut body).ok()?;
    let arrival = Instant::now();
    Some((arrival, serde_json::from_slice(&body).ok()?))
}

/// Opens the file `OPENINGS` times into one server and prints the first opening's time and
/// the median and best of the others.
fn openings(label: &str, capabilities: Value, text: &str) {
    let mut server = Server::start(capabilities);
    let mut times = Vec::with_capacity(OPENINGS);
    for opening in 0..OPENINGS {
        let uri = format!("file:///bench/opening-{opening}.ctl-pgn");
        let document = json!({"uri": uri, "languageId": "ctl-pgn", "version": 1, "text": text});
        let message = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}});
        let bytes = frame(&message);
        let start = Instant::now();
        server.input.write_all(&bytes).and_then(|()| server.input.flush()).expect("sent");
        let arrival = server.wait_for(|message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == json!(uri)
        });
        times.push(arrival.duration_since(start));
        let close = json!({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}});
        server.send(&close);
    }
    server.stop();
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
