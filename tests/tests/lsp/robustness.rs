//! The server survives its client: malformed frames are answered and skipped, a client that
//! never answers the server's requests holds nothing up, the session ends at `exit` or at the
//! end of the input with the status LSP says, and a panic in a request's work becomes that
//! request's error.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, Client};

/// A record and a hover on its first half-move, the request each malformed frame is followed
/// by: the server must still answer it with the hover.
const GAME: &str = "[Variant \"C'escacs\"]\n\n1. E$07-E13, E21-E15:\n*\n";

fn game() -> Marked {
    Marked::cursor(GAME)
}

fn hover_still_answers(client: &mut Client, after: &str) {
    let hover = client.at_cursor("textDocument/hover", &uri("game"), &game()).expect("a hover");
    assert!(hover["contents"]["value"].is_string(), "no hover after {after}: {hover}");
}

/// A frame with `body` and the right length.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}

#[test]
fn malformed_frames_are_answered_and_skipped() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), &game().text);
    let cases: [(&str, Vec<u8>, i64, Value); 10] = [
        ("a body that is not JSON", frame(b"{\"jsonrpc\": \"2.0\", \"id\": "), -32700, Value::Null),
        (
            "a body that is not UTF-8",
            frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\xfe\"}"),
            -32700,
            Value::Null,
        ),
        (
            "a batch",
            frame(br#"[{"jsonrpc":"2.0","id":50,"method":"textDocument/hover","params":{}}]"#),
            -32600,
            Value::Null,
        ),
        ("a bare number", frame(b"42"), -32600, Value::Null),
        ("a bare string", frame(b"\"textDocument/hover\""), -32600, Value::Null),
        ("an object that is no message", frame(br#"{"jsonrpc":"2.0","id":51}"#), -32600, json!(51)),
        (
            "a $/ request",
            frame(br#"{"jsonrpc":"2.0","id":52,"method":"$/foo"}"#),
            -32601,
            json!(52),
        ),
        (
            "a Content-Length that is not a number",
            b"Content-Length: twelve\r\n\r\n{}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            "a header block without Content-Length",
            b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{\"jsonrpc\":\"2.0\"}"
                .to_vec(),
            -32700,
            Value::Null,
        ),
        (
            "an absurd Content-Length",
            b"Content-Length: 18446744073709551616000\r\n\r\n{}".to_vec(),
            -32700,
            Value::Null,
        ),
    ];
    for (what, bytes, code, id) in cases {
        client.send_raw(&bytes);
        let error = client.response_to(&id).expect_err("an error");
        assert_eq!(error["code"], code, "{what}: {error}");
        hover_still_answers(&mut client, what);
    }
    // A `$/` notification is ignored, as LSP says.
    client.notify("$/setTrace", json!({"value": "off"}));
    hover_still_answers(&mut client, "a $/ notification");
    assert!(client.finish(true), "the session ends as usual");
}

#[test]
fn the_servers_own_methods_are_not_a_clients_to_send() {
    let mut client = Client::start(utf16_client());
    // The method and parameters the transport passes an opening on under, keys included: the
    // server drops them, opens nothing and takes no text kept for another opening.
    for key in 0..3 {
        let document =
            json!({"uri": uri("stolen"), "languageId": "ctl-pgn", "version": 1, "text": ""});
        let params = json!({"key": key, "params": {"textDocument": document}});
        client.notify("$/ctlpgn/didOpen", params);
    }
    let tokens = json!({"key": 1, "params": {"textDocument": {"uri": uri("game")}}});
    client.notify("$/ctlpgn/semanticTokens/full", tokens);
    client.open(&uri("game"), &game().text);
    hover_still_answers(&mut client, "the server's own notifications");
    let hover = client.at("textDocument/hover", &uri("stolen"), 0, 0).expect("an answer");
    assert_eq!(hover, Value::Null, "nothing was opened");
    assert!(client.finish(true), "the session ends as usual");
}

#[test]
fn a_content_length_too_long_costs_one_message_not_the_session() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), &game().text);
    // The length runs into the next frame, which then stalls unfinished: the server cuts the
    // body at the next frame's header and reads that frame.
    let position = game().position(client.encoding());
    let hover = json!({"jsonrpc": "2.0", "id": 60, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri("game")}, "position": position}});
    let mut bytes =
        b"Content-Length: 4000\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}".to_vec();
    bytes.extend_from_slice(&frame(hover.to_string().as_bytes()));
    client.send_raw(&bytes);
    let error = client.response_to(&Value::Null).expect_err("an error for the cut frame");
    assert_eq!(error["code"], -32700);
    let answer = client.response_to(&json!(60)).expect("the hover after it");
    assert!(answer["contents"]["value"].is_string(), "{answer}");
}

#[test]
fn a_client_that_never_answers_configuration_holds_nothing_up() {
    let capabilities = json!({"workspace": {"configuration": true, "didChangeConfiguration": {}}});
    let mut client = Client::start(capabilities);
    client.answers_configuration = false;
    client.open(&uri("game"), &game().text);
    assert_eq!(client.published(&uri("game"))["version"], 1);
    // Each of these asks again; none is answered.
    for _ in 0..5 {
        client.notify("workspace/didChangeConfiguration", json!({"settings": null}));
    }
    for _ in 0..8 {
        hover_still_answers(&mut client, "unanswered configuration requests");
    }
    let asked = client
        .requests_received
        .iter()
        .filter(|request| request["method"] == "workspace/configuration")
        .count();
    assert!(asked >= 1, "the server asked for its settings");
    // Settings sent with the notification still apply at once.
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"rules": {"enable": true}}}}),
    );
    assert_eq!(client.published(&uri("game"))["version"], 1, "republished for the rules");
    assert!(client.finish(true), "shutdown and exit end the server");
}

#[test]
fn the_end_of_the_input_ends_the_server_with_status_one() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), &game().text);
    hover_still_answers(&mut client, "opening");
    assert!(!client.close_input(), "no shutdown came first");
}

#[test]
fn the_end_of_the_input_after_a_shutdown_is_status_zero() {
    let mut client = Client::start(utf16_client());
    client.request("shutdown", Value::Null).expect("shutdown succeeds");
    assert!(client.close_input());
}

/// `Redefine` and `PDTL` on one line: converting the record edits both tags' line. The code
/// actions are asked for at the half-move.
const TAGS_ON_ONE_LINE: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X1\"]\n[Annotator \"Demo\"]\n[Redefine \"FAN\"] [PDTL \"/27:1♚/25:♜2♜/22:1♙5/21:1♙6/19:6♟1/18:5♟1/7:3♙4/4:1☖3/3:♖3/1:1♔/0:🩏/ w -- - 0 40\"]\n\n40. ♔$0G1-H2:\n*\n";

#[test]
fn a_code_action_on_tags_sharing_a_line_answers_and_the_server_goes_on() {
    let mut client = Client::start(utf16_client());
    let tags = Marked::cursor(TAGS_ON_ONE_LINE);
    client.open(&uri("tags"), &tags.text);
    client.open(&uri("game"), &game().text);
    let range = tags.lsp_range(client.encoding());
    let answer = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri("tags")}, "range": range, "context": {"diagnostics": []}}),
    );
    if let Err(error) = &answer {
        // The request's work panicked: an internal error naming it, and the panic logged.
        assert_eq!(error["code"], -32603, "{error}");
        assert!(error["message"].as_str().is_some_and(|m| m.contains("textDocument/codeAction")));
        let logged = client.notified("window/logMessage");
        assert_eq!(logged["type"], 1, "an error: {logged}");
    }
    hover_still_answers(&mut client, "the code action");
}
