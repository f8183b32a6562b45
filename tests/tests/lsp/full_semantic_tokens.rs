//! The full semantic tokens of a document, whose answer the transport writes itself instead of
//! tower-lsp: the same numbers as the tokens of a range over the whole document (which tower-lsp
//! answers), after the change sent just before them, `null` for a document that is not open,
//! and an answer to each request even when it is cancelled.

use serde_json::{json, Value};

use crate::client::{like_vscode, uri, utf16_client, utf8_client, Client};

/// Several corpus games and a record with FAN figurines, accents and a comment over two lines,
/// so that the positions count units beyond ASCII.
fn document() -> String {
    let dir = ctlpgn_test_support::fixtures::testdata_dir().join("corpus/valid");
    let mut text = String::new();
    for game in ["g0001", "g0002", "g0003"] {
        let path = dir.join(format!("{game}.ctl-pgn"));
        text.push_str(&std::fs::read_to_string(&path).expect("a corpus game"));
        text.push('\n');
    }
    text.push_str(
        "[Variant \"C'escacs\"]\n[White \"Pérez, Núria\"]\n[Redefine \"FAN\"]\n\n\
         { Núria… opens\n  ~F14 }\n1. E7-E13, E21-E15\n2. \u{1FA50}D2-E7 !?, F20-F16\n*\n",
    );
    text
}

/// The range of a whole text, in either encoding: up to a line after its last.
fn whole(text: &str) -> Value {
    let lines = text.split('\n').count();
    json!({"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}})
}

fn range_tokens(client: &mut Client, name: &str, text: &str) -> Value {
    let params = json!({"textDocument": {"uri": uri(name)}, "range": whole(text)});
    client.request("textDocument/semanticTokens/range", params).expect("range tokens")
}

#[test]
fn full_semantic_tokens_are_the_tokens_of_a_range_over_the_whole_document() {
    let text = document();
    for capabilities in [utf16_client(), utf8_client()] {
        let mut client = Client::start(capabilities);
        client.open(&uri("games"), &text);
        let full = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
        let range = range_tokens(&mut client, "games", &text);
        assert_eq!(full.as_object().map(|object| object.len()), Some(1), "{full}");
        let data = full["data"].as_array().expect("token data");
        assert!(data.len() > 5_000, "tokens of four records: {}", data.len());
        assert_eq!(full, range);
    }
}

#[test]
fn tokens_classified_as_a_document_opens_are_the_tokens_classified_when_asked() {
    // More records than the server keeps parses of, so that they are read in bulk.
    let text = document().repeat(12);
    for capabilities in [utf16_client(), utf8_client()] {
        let mut asked_later = Client::start(capabilities.clone());
        asked_later.open(&uri("games"), &text);
        let later = asked_later.about("textDocument/semanticTokens/full", &uri("games"));
        let mut client = Client::start(like_vscode(capabilities));
        client.open(&uri("games"), &text);
        let full = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
        assert_eq!(Ok(&full), later.as_ref());
        assert_eq!(full, range_tokens(&mut client, "games", &text));
        // An edit classifies its record anew.
        let changed = text.replacen("E7-E13", "E7-E12", 1);
        client.change(&uri("games"), 2, json!([{"text": changed}]));
        let after = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
        assert_eq!(after, range_tokens(&mut client, "games", &changed));
    }
}

#[test]
fn full_semantic_tokens_follow_the_change_sent_before_them() {
    let text = document();
    let mut client = Client::start(utf16_client());
    client.open(&uri("games"), &text);
    let before = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
    // The change is not waited for: the request after it must see it.
    let changed = format!("{{ a comment before every record }}\n{text}");
    client.change(&uri("games"), 2, json!([{"text": changed}]));
    let after = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
    assert_ne!(before, after);
    assert_eq!(after, range_tokens(&mut client, "games", &changed));
}

#[test]
fn full_semantic_tokens_of_a_document_not_open_are_null() {
    let mut client = Client::start(utf16_client());
    let answer = client.about("textDocument/semanticTokens/full", &uri("absent"));
    assert_eq!(answer, Ok(Value::Null));
}

#[test]
fn a_cancelled_full_semantic_tokens_request_is_answered_and_the_session_goes_on() {
    let text = document().repeat(20);
    let mut client = Client::start(utf16_client());
    client.open(&uri("games"), &text);
    for id in ["cancelled 1", "cancelled 2", "cancelled 3"] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": uri("games")}}});
        let cancel = json!({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}});
        let mut frames = Vec::new();
        for message in [request, cancel] {
            let body = message.to_string();
            frames.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            frames.extend_from_slice(body.as_bytes());
        }
        client.send_raw(&frames);
        // Cancelled (-32800), or answered in full when the work was done first.
        match client.response_to(&json!(id)) {
            Err(error) => assert_eq!(error["code"], json!(-32800), "{error}"),
            Ok(answer) => assert!(answer["data"].as_array().is_some_and(|d| d.len() > 5_000)),
        }
    }
    let full = client.about("textDocument/semanticTokens/full", &uri("games")).expect("full");
    assert_eq!(full, range_tokens(&mut client, "games", &text));
}
