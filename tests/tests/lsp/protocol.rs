//! The protocol's edges: the capabilities announced, empty answers about documents that are
//! not open, errors (not crashes) for malformed requests, and the exit status.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{pull_client, uri, utf16_client, Client};

#[test]
fn the_capabilities_follow_the_client() {
    let client = Client::start(utf16_client());
    let capabilities = &client.initialized["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2, "incremental sync");
    assert_eq!(capabilities["textDocumentSync"]["openClose"], true);
    assert_eq!(capabilities["hoverProvider"], true);
    assert_eq!(capabilities["foldingRangeProvider"], true);
    assert_eq!(capabilities["documentSymbolProvider"], true);
    assert_eq!(
        capabilities["diagnosticProvider"],
        Value::Null,
        "a client that does not pull gets pushed diagnostics"
    );
    assert_eq!(client.initialized["serverInfo"]["name"], "ctlpgn");
    let pulling = Client::start(pull_client());
    assert_eq!(pulling.initialized["capabilities"]["diagnosticProvider"]["identifier"], "ctlpgn");
}

#[test]
fn documents_that_are_not_open_get_empty_answers() {
    let mut client = Client::start(utf16_client());
    let unknown = uri("unknown");
    assert_eq!(client.at("textDocument/hover", &unknown, 0, 0), Ok(Value::Null));
    assert_eq!(client.about("textDocument/foldingRange", &unknown), Ok(Value::Null));
    assert_eq!(client.about("textDocument/documentSymbol", &unknown), Ok(Value::Null));
    let report = client.about("textDocument/diagnostic", &unknown).expect("a report");
    assert_eq!(report["items"], json!([]));
    // A change or a close of a document that is not open is ignored.
    client.change(&unknown, 2, json!([{"text": "[Variant \"C'escacs\"]\n"}]));
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": unknown}}));
    assert!(client.pushed_so_far().is_empty());
}

#[test]
fn malformed_requests_are_errors_and_the_server_goes_on() {
    let mut client = Client::start(utf16_client());
    let error =
        client.request("textDocument/hover", json!({"textDocument": 5})).expect_err("an error");
    assert_eq!(error["code"], -32602, "invalid params");
    let error = client.request("textDocument/noSuchRequest", json!({})).expect_err("an error");
    assert_eq!(error["code"], -32601, "method not found");
    client.notify("textDocument/didChange", json!({"garbage": true}));
    client.open(&uri("after"), "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19:\n*\n");
    let published = client.published(&uri("after"));
    assert_eq!(published["version"], 1);
    assert!(published["diagnostics"].is_array());
}

#[test]
fn the_exit_status_says_whether_a_shutdown_came_first() {
    assert!(Client::start(utf16_client()).finish(true));
    assert!(!Client::start(utf16_client()).finish(false));
}

/// A frame with `body` as its JSON, written as is: a lone surrogate escape is legal JSON that
/// no Unicode text (and no string of Rust) can hold.
fn raw_frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn a_lone_surrogate_is_an_invalid_message_and_every_later_message_is_served() {
    let mut client = Client::start(utf16_client());
    let game = uri("surrogate");
    let marked = Marked::cursor("[Variant \"C'escacs\"]\n\n1. K$04-K6, E21-E19:\n*\n");
    client.open(&game, &marked.text);
    assert_eq!(client.published(&game)["version"], 1);
    let hover_before = client.at_cursor("textDocument/hover", &game, &marked).expect("a hover");
    // A didOpen whose text holds one: a warning, and no document.
    let other = uri("other");
    client.send_raw(&raw_frame(&format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{{"uri":"{other}","languageId":"ctl-pgn","version":1,"text":"[Event \"\ud83d\"]\n"}}}}}}"#
    )));
    // A didChange of the open document: a warning, and the document unchanged.
    client.send_raw(&raw_frame(&format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{game}","version":2}},"contentChanges":[{{"text":"\ud83d"}}]}}}}"#
    )));
    // A request whose URI holds one: an error answered under its id.
    client.send_raw(&raw_frame(
        r#"{"jsonrpc":"2.0","id":"lone","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///\udc00.ctl-pgn"},"position":{"line":0,"character":0}}}"#,
    ));
    let error = client.response_to(&json!("lone")).expect_err("an error");
    assert_eq!(error["code"], -32600, "an invalid request: {error}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("lone")), "{error}");

    assert!(client.pushed_so_far().is_empty(), "no diagnostics for either notification");
    let warnings: Vec<String> = client
        .take_notifications()
        .into_iter()
        .filter(|message| message["method"] == "window/logMessage")
        .filter(|message| message["params"]["type"] == 2)
        .map(|message| message["params"]["message"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for (warning, method) in warnings.iter().zip(["textDocument/didOpen", "textDocument/didChange"])
    {
        assert!(warning.contains(method) && warning.contains("surrogate"), "{warning}");
    }
    // Later messages are served, on the document as it was.
    assert_eq!(client.at_cursor("textDocument/hover", &game, &marked), Ok(hover_before));
    assert_eq!(client.at("textDocument/hover", &other, 0, 2), Ok(Value::Null));
    client.change(&game, 3, json!([{"text": "[Variant \"C'escacs\"]\n\n1. K4-K6:\n"}]));
    assert_eq!(client.published(&game)["version"], 3);
}
