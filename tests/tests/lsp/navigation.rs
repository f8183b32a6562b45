//! Navigation over the protocol: from a comment reference to the half-move or variation it
//! names, and back to every reference naming it, in UTF-16 after non-ASCII text.

use serde_json::{json, Value};

use crate::client::{uri, utf16_client, Client};

const GAME: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Pérez, Núria\"]\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13×F16, E15×F12\n{ @B: the answer to #3@W… as after #3@W }\n($[1] 3. …, EE23-E19)\n{ compare #3.1 }\n4. EG5-F8, EG23-F20:\n*\n";

fn span(location: &Value) -> (u64, u64, u64) {
    let range = &location["range"];
    (
        range["start"]["line"].as_u64().unwrap_or(99),
        range["start"]["character"].as_u64().unwrap_or(99),
        range["end"]["character"].as_u64().unwrap_or(99),
    )
}

#[test]
fn a_move_reference_leads_to_its_half_move_and_back() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    // `#3@W` on line 6 starts at character 20 (after `{ @B: the answer to `).
    let definition =
        client.at("textDocument/definition", &uri("game"), 6, 21).expect("a definition");
    assert_eq!(span(&definition), (5, 3, 10), "E13×F16 on line 5: {definition}");
    let references = client
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri("game")}, "position": {"line": 5, "character": 4}, "context": {"includeDeclaration": false}}),
        )
        .expect("references");
    let found: Vec<_> = references.as_array().expect("locations").iter().map(span).collect();
    // The second `#3@W` stands after `…` (one UTF-16 unit) and ` as after `.
    assert_eq!(found, [(6, 20, 24), (6, 35, 39)]);
}

#[test]
fn a_variation_reference_leads_to_the_variation() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    let definition =
        client.at("textDocument/definition", &uri("game"), 8, 11).expect("a definition");
    assert_eq!(span(&definition).0, 7, "the variation on line 7: {definition}");
    assert_eq!(span(&definition).1, 0);
}

#[test]
fn off_a_reference_there_is_no_definition() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    assert_eq!(client.at("textDocument/definition", &uri("game"), 3, 4), Ok(Value::Null));
    assert_eq!(client.at("textDocument/definition", &uri("absent"), 0, 0), Ok(Value::Null));
}

#[test]
fn a_reference_highlights_its_target_and_the_other_references() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    // From the second `#3@W`, after `…`.
    let highlights =
        client.at("textDocument/documentHighlight", &uri("game"), 6, 36).expect("highlights");
    let found: Vec<_> = highlights
        .as_array()
        .expect("highlights")
        .iter()
        .map(|h| (span(h), h["kind"].as_u64().unwrap_or(0)))
        .collect();
    // The target is text (1), the references reads (2).
    assert_eq!(found, [((5, 3, 10), 1), ((6, 20, 24), 2), ((6, 35, 39), 2)]);
    assert_eq!(client.at("textDocument/documentHighlight", &uri("game"), 1, 3), Ok(Value::Null));
}
