//! Formatting over the protocol: the server answers `textDocument/formatting` and
//! `rangeFormatting` with minimal edits in the negotiated encoding, which, applied by the
//! client, give exactly the formatter's output — also after non-ASCII text; range formatting
//! edits only the lines asked for.

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
fn range_formatting_edits_the_line_of_the_range_after_a_two_unit_character() {
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
    // The move line formatted, with the blank line after the tags that goes with it.
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

/// A record spaced badly on every line, the second of the file.
const BADLY_SPACED: &str = "[Variant \"C'escacs\"]\n[Event \"e\"]\n\n1. E7-E13, E21-E15:\n*\n\n[Variant   \"C'escacs\"]\n[White  \"Vidàl\"]\n1.E7-E13,E21-E15   2. F8-F12 ,F20-F16\n3. E13×F16 :  {Núria}\n4.    D2-F6\n*\n";

/// The edits that range formatting of `range` answers on [`BADLY_SPACED`], and the text after.
fn range_formatted(client: &mut Client, range: Value) -> (Value, String) {
    let edits = client
        .request("textDocument/rangeFormatting", json!({"textDocument": {"uri": uri("bad")}, "range": range, "options": {"tabSize": 4, "insertSpaces": true}}))
        .expect("range formatting edits");
    let formatted = apply(BADLY_SPACED, &edits, false);
    (edits, formatted)
}

#[test]
fn range_formatting_edits_only_the_lines_asked_for() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("bad"), BADLY_SPACED);
    let line_of = |start: &str| {
        BADLY_SPACED[..BADLY_SPACED.find(start).expect("the line")].matches('\n').count()
    };
    let third = line_of("3. E13");
    // Every edit lies on the lines asked for: Neovim 0.7's `gqq` (an empty range at the line's
    // start), 0.11's (the line's start to its end), and a piece of the line.
    for range in [
        json!({"start": {"line": third, "character": 0}, "end": {"line": third, "character": 0}}),
        json!({"start": {"line": third, "character": 0}, "end": {"line": third, "character": 20}}),
        json!({"start": {"line": third, "character": 4}, "end": {"line": third, "character": 6}}),
    ] {
        let (edits, formatted) = range_formatted(&mut client, range.clone());
        let edits = edits.as_array().expect("edits").clone();
        assert_eq!(edits.len(), 1, "{range}: {edits:?}");
        assert_eq!(edits[0]["range"]["start"]["line"], third);
        assert_eq!(edits[0]["range"]["end"], json!({"line": third + 1, "character": 0}));
        assert_eq!(
            formatted,
            BADLY_SPACED.replace("3. E13×F16 :  {Núria}\n", "3. E13×F16:\n{Núria}\n")
        );
    }
    // Neovim 0.7's `gqj` on the first move line: from its start to the start of the next line,
    // which it asks for too. The blank line after the tags goes with the move line.
    let first = line_of("1.E7");
    let (_, formatted) = range_formatted(
        &mut client,
        json!({"start": {"line": first, "character": 0}, "end": {"line": first + 1, "character": 0}}),
    );
    insta::assert_snapshot!(&formatted[BADLY_SPACED.find("[Variant   ").expect("the record")..], @r#"
    [Variant   "C'escacs"]
    [White  "Vidàl"]

    1. E7-E13, E21-E15
    2. F8-F12, F20-F16
    3. E13×F16:
    {Núria}
    4.    D2-F6
    *
    "#);
}
