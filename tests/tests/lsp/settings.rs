//! Settings over the protocol: `initializationOptions`, `workspace/configuration` and
//! `didChangeConfiguration` switch the optional rule checks and choose the formatter's
//! spellings, and switching the rule checks publishes every open document again.

use serde_json::{json, Value};

use crate::apply;
use crate::client::{uri, utf16_client, Client};

/// `3. E15@D18` takes en passant although Black's last half-move was not the triple step
/// that allowed it: R001, a rule warning, and nothing else.
const RULE_BROKEN: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-R01\"]\n[Annotator \"Pérez, Núria\"]\n\n1. E7-E13, D22-D16\n2. E13-E15, F20-F18\n3. E15@D18:\n*\n";

fn codes(published: &Value) -> Vec<String> {
    let diagnostics = published["diagnostics"].as_array().expect("an array of diagnostics");
    diagnostics.iter().map(|d| d["code"].as_str().unwrap_or("?").to_string()).collect()
}

fn configurable_client() -> Value {
    json!({"workspace": {"configuration": true}})
}

#[test]
fn rule_checks_are_off_by_default_and_on_from_initialization_options() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("rules-off"), RULE_BROKEN);
    assert_eq!(codes(&client.published(&uri("rules-off"))), Vec::<String>::new());
    let mut client =
        Client::start_with(utf16_client(), json!({"rules": {"enable": true}}), Value::Null);
    client.open(&uri("rules-on"), RULE_BROKEN);
    assert_eq!(codes(&client.published(&uri("rules-on"))), ["R001"]);
}

#[test]
fn the_server_asks_for_its_section_and_republishes_when_the_rules_are_switched() {
    let mut client =
        Client::start_with(configurable_client(), Value::Null, json!({"rules": {"enable": true}}));
    client.open(&uri("pulled"), RULE_BROKEN);
    // The first publication may come before the settings arrive; the last one has them.
    let mut published = client.published(&uri("pulled"));
    while codes(&published).is_empty() {
        published = client.published(&uri("pulled"));
    }
    assert_eq!(codes(&published), ["R001"]);
    let asked = &client.requests_received[0];
    assert_eq!(asked["method"], "workspace/configuration");
    assert_eq!(asked["params"]["items"][0]["section"], "ctlpgn");
    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"ctlpgn": {"rules": {"enable": false}}}}),
    );
    assert_eq!(codes(&client.published(&uri("pulled"))), Vec::<String>::new());
    client.settings = json!({"rules": {"enable": true}});
    client.notify("workspace/didChangeConfiguration", json!({"settings": null}));
    assert_eq!(codes(&client.published(&uri("pulled"))), ["R001"]);
}

/// The JSON blocks of docs/editors/other-clients.md, in order, parsed as a client that copies
/// them reads them.
fn documented_json() -> Vec<Value> {
    let page = ctlpgn_test_support::fixtures::read_text(
        &ctlpgn_test_support::fixtures::repository_dir().join("docs/editors/other-clients.md"),
    );
    page.split("```json\n")
        .skip(1)
        .map(|block| {
            let json = &block[..block.find("```").expect("the block closes")];
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}:\n{json}"))
        })
        .collect()
}

#[test]
fn the_settings_shown_for_other_clients_work_as_written() {
    let blocks = documented_json();
    let [defaults, notification] = blocks.as_slice() else {
        panic!("other-clients.md shows the settings and a didChangeConfiguration: {blocks:?}");
    };
    let mut client = Client::start_with(utf16_client(), defaults.clone(), Value::Null);
    client.open(&uri("documented"), RULE_BROKEN);
    assert_eq!(codes(&client.published(&uri("documented"))), Vec::<String>::new());
    let method = notification["method"].as_str().expect("a method");
    assert_eq!(method, "workspace/didChangeConfiguration");
    client.notify(method, notification["params"].clone());
    assert_eq!(codes(&client.published(&uri("documented"))), ["R001"]);
}

#[test]
fn formatting_follows_the_separator_setting() {
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-F01\"]\n[Annotator \"Vidàl\"]\n\n1. E7-E13, E21-E15\n2. E13*F16:\n*\n";
    let mut client = Client::start_with(
        utf16_client(),
        json!({"format": {"separators": "unicode"}}),
        Value::Null,
    );
    client.open(&uri("separators"), text);
    let edits = client
        .request("textDocument/formatting", json!({"textDocument": {"uri": uri("separators")}, "options": {"tabSize": 4, "insertSpaces": true}}))
        .expect("formatting edits");
    // The separators written as the handbook's Unicode: `‐` and `×`.
    insta::assert_snapshot!(apply(text, &edits, false), @r#"
    [Variant "C'escacs"]
    [Id "Demo-F01"]
    [Annotator "Vidàl"]

    1. E7‐E13, E21‐E15
    2. E13×F16:
    *
    "#);
}
