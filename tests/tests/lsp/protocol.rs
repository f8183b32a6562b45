//! The protocol's edges: the capabilities announced, empty answers about documents that are
//! not open, errors (not crashes) for malformed requests, and the exit status.

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
