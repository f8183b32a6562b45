//! `ctlpgn lsp` as an editor runs it, a process on standard input and output: malformed input
//! does not end it, a request of its own left unanswered does not hold it, and its exit status
//! is 0 after `shutdown` + `exit` (its input left open, as many clients leave it) and 1 when
//! its input ends first. Everything it writes on standard output is a well-formed frame.

mod process;

use process::Server;
use serde_json::{json, Value};

#[test]
fn the_server_process_survives_malformed_input_and_exits_0_after_shutdown() {
    let mut server = Server::start();
    // A client that says it answers workspace/configuration, and never does.
    server.initialize(json!({"workspace": {"configuration": true}}));
    server.send_raw(b"Content-Length: 9\r\n\r\nnot json!");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32700);
    server.send_raw(b"Content-Length: 2\r\n\r\n[]");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32600);
    server.send_raw(b"Content-Length: nine\r\n\r\n{}");
    assert_eq!(server.response_to(&Value::Null)["error"]["code"], -32700);
    // JSON, but with a lone surrogate no text holds: refused under its id.
    let lone = br#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///\ud83d"},"position":{"line":0,"character":0}}}"#;
    server.send_raw(&[format!("Content-Length: {}\r\n\r\n", lone.len()).as_bytes(), lone].concat());
    assert_eq!(server.response_to(&json!(7))["error"]["code"], -32600);
    let text = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15:\n*\n";
    let document =
        json!({"uri": "file:///game.ctl-pgn", "languageId": "ctl-pgn", "version": 1, "text": text});
    server.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let at = json!({"textDocument": {"uri": "file:///game.ctl-pgn"}, "position": {"line": 2, "character": 4}});
    server.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at.clone()}),
    );
    assert!(server.response_to(&json!(2))["result"]["contents"]["value"].is_string());
    // `Redefine` and `PDTL` on one line made converting the record panic: the answer is an
    // error if it still does, and standard output stays made of frames either way.
    let tags = "[Variant \"C'escacs\"]\n[Id \"Demo-X1\"]\n[Annotator \"Demo\"]\n[Redefine \"FAN\"] [PDTL \"/27:1♚/25:♜2♜/22:1♙5/21:1♙6/19:6♟1/18:5♟1/7:3♙4/4:1☖3/3:♖3/1:1♔/0:🩏/ w -- - 0 40\"]\n\n40. ♔G1-H2:\n*\n";
    let document =
        json!({"uri": "file:///tags.ctl-pgn", "languageId": "ctl-pgn", "version": 1, "text": tags});
    server.send(&json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}));
    let range = json!({"start": {"line": 5, "character": 5}, "end": {"line": 5, "character": 5}});
    let params = json!({"textDocument": {"uri": "file:///tags.ctl-pgn"}, "range": range, "context": {"diagnostics": []}});
    server.send(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction", "params": params}),
    );
    let answer = server.response_to(&json!(4));
    assert!(answer["result"].is_array() || answer["error"]["code"] == -32603, "{answer}");
    server.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": at}));
    assert!(server.response_to(&json!(5))["result"]["contents"]["value"].is_string());
    server.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}));
    assert_eq!(server.response_to(&json!(3))["result"], Value::Null);
    server.send(&json!({"jsonrpc": "2.0", "method": "exit"}));
    // The input stays open: the server exits on `exit` alone.
    assert_eq!(server.status().code(), Some(0));
}

#[test]
fn the_server_process_exits_1_when_its_input_ends_without_shutdown() {
    let mut server = Server::start();
    server.initialize(json!({}));
    drop(server.input.take());
    assert_eq!(server.status().code(), Some(1));
}
