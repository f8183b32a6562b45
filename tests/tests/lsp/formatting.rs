//! Formatting over the protocol: the server answers `textDocument/formatting` and
//! `rangeFormatting` with minimal edits in the negotiated encoding, which, applied by the
//! client, give exactly the formatter's output — also after non-ASCII text.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::apply;
use crate::client::{uri, utf16_client, utf8_client, Client};

const MESSY: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Pérez, Núria\"]\n1.   E7‐E13,E21-E15\n2. F8-F12, F20-F16   \n3. E13×F16, E15×F12:\n*\n\n\n[Variant \"C'escacs\"]\n[Id \"Demo-X02\"]\n[Annotator \"Vidàl\"]\n1. 🩐E7-E13,   E21-E15:\n*\n";

#[test]
fn formatting_edits_give_the_formatted_text_in_both_encodings() {
    let expected =
        ctlpgn_core::format::format_text(MESSY, &ctlpgn_core::format::FormatOptions::default());
    assert_ne!(expected, MESSY);
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("messy"), MESSY);
        let edits = client
            .request("textDocument/formatting", json!({"textDocument": {"uri": uri("messy")}, "options": {"tabSize": 4, "insertSpaces": true}}))
            .expect("formatting edits");
        assert!(
            edits.as_array().is_some_and(|e| e.len() > 1),
            "minimal edits, not one replacement: {edits}"
        );
        assert_eq!(apply(MESSY, &edits, utf8), expected, "utf8: {utf8}");
    }
}

#[test]
fn range_formatting_touches_only_the_records_in_the_range() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("messy"), MESSY);
    // A range inside the second record's move line, after the two-unit 🩐.
    let range = Marked::within(MESSY, "1. 🩐E$07$0-E13").lsp_range(client.encoding());
    let edits = client
        .request("textDocument/rangeFormatting", json!({"textDocument": {"uri": uri("messy")}, "range": range, "options": {"tabSize": 4, "insertSpaces": true}}))
        .expect("range formatting edits");
    let formatted = apply(MESSY, &edits, false);
    let first_record_end = MESSY.find("\n\n\n").expect("two records");
    assert_eq!(
        &formatted[..first_record_end],
        &MESSY[..first_record_end],
        "the first record is untouched"
    );
    // The second record formatted.
    insta::assert_snapshot!(formatted[first_record_end..].trim_start(), @r#"
    [Variant "C'escacs"]
    [Id "Demo-X02"]
    [Annotator "Vidàl"]

    1. 🩐E7-E13, E21-E15:
    *
    "#);
}

#[test]
fn formatting_an_unknown_document_gives_nothing() {
    let mut client = Client::start(utf16_client());
    let edits = client.request("textDocument/formatting", json!({"textDocument": {"uri": uri("absent")}, "options": {"tabSize": 4, "insertSpaces": true}}));
    assert_eq!(edits, Ok(Value::Null));
}
