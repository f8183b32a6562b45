//! `ctlpgn lsp` as an editor runs it, a process on standard input and output: malformed input
//! does not end it, a request of its own left unanswered does not hold it, and its exit status
//! is 0 after `shutdown` + `exit` (its input left open, as many clients leave it) and 1 when
//! its input ends first. Everything it writes on standard output is a well-formed frame.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any answer, or the exit, may take before the test fails instead of hanging.
const PATIENCE: Duration = Duration::from_secs(20);

/// A running `ctlpgn lsp` and the messages it wrote, read by a thread of their own.
struct Server {
    child: Child,
    input: Option<ChildStdin>,
    messages: Receiver<Value>,
}

impl Server {
    fn start() -> Server {
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
        let input = child.stdin.take();
        Server { child, input, messages }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("the input is open");
        input.write_all(bytes).and_then(|()| input.flush()).expect("the server reads");
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// The next message that is not a request of the server's (those are left unanswered).
    fn response_to(&mut self, id: &Value) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let message = self.messages.recv_timeout(left).expect("an answer in time");
            if message.get("method").is_none() && message["id"] == *id {
                return message;
            }
        }
    }

    /// The exit status, once the process has ended (polled until `PATIENCE`).
    fn status(mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("the process can be waited for") {
                return status;
            }
            assert!(Instant::now() < deadline, "ctlpgn lsp did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One frame of the server's output: `None` at its end. Anything but a frame fails the test.
fn read_frame(output: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).expect("the output is readable") == 0 {
            return None;
        }
        let line = line.trim_end_matches("\r\n");
        if line.is_empty() {
            break;
        }
        let value = line.strip_prefix("Content-Length: ").expect("only Content-Length headers");
        length = Some(value.parse::<usize>().expect("a length"));
    }
    let mut body = vec![0; length.expect("a Content-Length")];
    output.read_exact(&mut body).expect("the whole body");
    Some(serde_json::from_slice(&body).expect("a JSON body"))
}

fn initialize(server: &mut Server, capabilities: Value) {
    let params = json!({"processId": null, "rootUri": null, "capabilities": capabilities});
    server.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}));
    assert!(server.response_to(&json!(1))["result"]["capabilities"].is_object());
    server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
}

#[test]
fn the_server_process_survives_malformed_input_and_exits_0_after_shutdown() {
    let mut server = Server::start();
    // A client that says it answers workspace/configuration, and never does.
    initialize(&mut server, json!({"workspace": {"configuration": true}}));
    server.send_raw(b"Content-Length: 9\r\n\r\nnot json!");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32700);
    server.send_raw(b"Content-Length: 2\r\n\r\n[]");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32600);
    server.send_raw(b"Content-Length: nine\r\n\r\n{}");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32700);
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15:\n*\n";
    let document =
        json!({"uri": "file:///game.ctl-pgn", "languageId": "ctl-pgn", "version": 1, "text": text});
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let at = json!({"textDocument": {"uri": "file:///game.ctl-pgn"}, "position": {"line": 2, "character": 4}});
    server.send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at.clone()}),
    );
    assert!(server.response_to(&json!(2))["result"]["contents"]["value"].is_string());
    // `Redefine` and `PDTL` on one line made converting the record panic: the answer is an
    // error if it still does, and standard output stays made of frames either way.
    let tags = "[Variant \"C'escacs\"]\n[Id \"Demo-X1\"]\n[Annotator \"Demo\"]\n[Redefine \"FAN\"] [PDTL \"/27:1♚/25:♜2♜/22:1♙5/21:1♙6/19:6♟1/18:5♟1/7:3♙4/4:1☖3/3:♖3/1:1♔/0:🩏/ w -- - 0 40\"]\n\n40. ♔G1-H2:\n*\n";
    let document =
        json!({"uri": "file:///tags.ctl-pgn", "languageId": "ctl-pgn", "version": 1, "text": tags});
    server.send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let range = json!({"start": {"line": 5, "character": 5}, "end": {"line": 5, "character": 5}});
    let params = json!({"textDocument": {"uri": "file:///tags.ctl-pgn"}, "range": range, "context": {"diagnostics": []}});
    server.send(
        json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction", "params": params}),
    );
    let answer = server.response_to(&json!(4));
    assert!(answer["result"].is_array() || answer["error"]["code"] == -32603, "{answer}");
    server.send(json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": at}));
    assert!(server.response_to(&json!(5))["result"]["contents"]["value"].is_string());
    server.send(json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    assert_eq!(server.response_to(&json!(3))["result"], Value::Null);
    server.send(json!({"jsonrpc": "2.0", "method": "exit"}));
    // The input stays open: the server exits on `exit` alone.
    assert_eq!(server.status().code(), Some(0));
}

#[test]
fn the_server_process_exits_1_when_its_input_ends_without_shutdown() {
    let mut server = Server::start();
    initialize(&mut server, json!({}));
    drop(server.input.take());
    assert_eq!(server.status().code(), Some(1));
}
