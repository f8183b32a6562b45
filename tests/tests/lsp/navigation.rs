//! Navigation over the protocol: from a comment reference to the half-move or variation it
//! names, and back to every reference naming it, in UTF-16 after non-ASCII text.

use ctlpgn_test_support::annotations::render_ranges;
use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, Client};

const GAME: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Pérez, Núria\"]\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13×F16, E15×F12\n{ @B: the answer to #3@W… as after #3@W }\n($[1] 3. …, EE23-E19)\n{ compare #3.1 }\n4. EG5-F8, EG23-F20:\n*\n";

/// Where the locations or highlights of an answer point, under the lines of `GAME`, each
/// labelled by `label`.
fn shown(client: &Client, answer: &Value, label: impl Fn(&Value) -> String) -> String {
    let items = match answer {
        Value::Array(items) => items.clone(),
        one => vec![one.clone()],
    };
    render_ranges(GAME, client.encoding(), items.iter().map(|item| (&item["range"], label(item))))
}

#[test]
fn a_move_reference_leads_to_its_half_move_and_back() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    let reference = Marked::within(GAME, "the answer to #$03@W");
    let definition = client
        .at_cursor("textDocument/definition", &uri("game"), &reference)
        .expect("a definition");
    insta::assert_snapshot!(shown(&client, &definition, |_| "definition".into()), @r"
    6 | 3. E13×F16, E15×F12
      |    ^^^^^^^ definition
    ");
    let half_move = Marked::within(GAME, "3. E$013×F16");
    let position = half_move.position(client.encoding());
    let references = client
        .request(
            "textDocument/references",
            json!({"textDocument": {"uri": uri("game")}, "position": position, "context": {"includeDeclaration": false}}),
        )
        .expect("references");
    // The second `#3@W` stands after `…`, one UTF-16 unit for three bytes.
    insta::assert_snapshot!(shown(&client, &references, |_| "reference".into()), @r"
    7 | { @B: the answer to #3@W… as after #3@W }
      |                     ^^^^ reference
      |                                    ^^^^ reference
    ");
}

#[test]
fn a_variation_reference_leads_to_the_variation() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    let reference = Marked::within(GAME, "compare #$03.1");
    let definition = client
        .at_cursor("textDocument/definition", &uri("game"), &reference)
        .expect("a definition");
    insta::assert_snapshot!(shown(&client, &definition, |_| "definition".into()), @r"
    8 | ($[1] 3. …, EE23-E19)
      | ^^^^^^^^^^^^^^^^^^^^^ definition
    ");
}

#[test]
fn off_a_reference_there_is_no_definition() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    let half_move = Marked::within(GAME, "1. E$07-E13");
    let definition = client.at_cursor("textDocument/definition", &uri("game"), &half_move);
    assert_eq!(definition, Ok(Value::Null));
    // The place of a reference, in a document that is not open.
    let reference = Marked::within(GAME, "the answer to #$03@W");
    let definition = client.at_cursor("textDocument/definition", &uri("absent"), &reference);
    assert_eq!(definition, Ok(Value::Null));
}

#[test]
fn a_reference_highlights_its_target_and_the_other_references() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    // From the second `#3@W`, after `…`.
    let reference = Marked::within(GAME, "as after #$03@W");
    let highlights = client
        .at_cursor("textDocument/documentHighlight", &uri("game"), &reference)
        .expect("highlights");
    // The target is text (1), the references reads (2).
    let kind = |highlight: &Value| format!("kind {}", highlight["kind"]);
    insta::assert_snapshot!(shown(&client, &highlights, kind), @r"
    6 | 3. E13×F16, E15×F12
      |    ^^^^^^^ kind 1
    7 | { @B: the answer to #3@W… as after #3@W }
      |                     ^^^^ kind 2
      |                                    ^^^^ kind 2
    ");
    let tag = Marked::within(GAME, "[Id$0 \"Demo");
    let highlights = client.at_cursor("textDocument/documentHighlight", &uri("game"), &tag);
    assert_eq!(highlights, Ok(Value::Null));
}
