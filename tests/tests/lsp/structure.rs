//! The structure of a two-record file over the protocol: folding ranges (records, tag
//! sections, variations, multi-line comments) and document symbols (each record named by its
//! players or its Id, with its main-line move lines as children).

use ctlpgn_test_support::annotations::render_ranges;
use ctlpgn_test_support::positions::Encoding;
use serde_json::Value;

use crate::client::{uri, utf16_client, Client};

const TWO_RECORDS: &str = r#"[Variant "C'escacs"]
[Event "Prova"]
[Site "Girona"]
[Date "2024-03-01"]
[Round "1"]
[White "Pérez, Núria"]
[Black "Vidal, Joan"]
[Result "*"]

1. K4-K6, E21-E19
(1. …, E21-E17
2. B4-B6, K24-K18)
{A comment
on two lines}
2. JF6-B18, EE23-D20:
*

[Variant "C'escacs"]
[Id "A1"]
[Annotator "Vidal, Joan"]

1. B4-B6, E21-E19:
*
"#;

fn open() -> Client {
    let mut client = Client::start(utf16_client());
    client.open(&uri("two"), TWO_RECORDS);
    client
}

#[test]
fn records_tag_sections_variations_and_comments_fold() {
    let folds = open().about("textDocument/foldingRange", &uri("two")).expect("folding ranges");
    let mut found: Vec<String> = folds
        .as_array()
        .expect("an array")
        .iter()
        .map(|fold| {
            format!(
                "{}-{} {}",
                fold["startLine"],
                fold["endLine"],
                fold["kind"].as_str().unwrap_or("")
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "0-15 region",
            "0-7 region",
            "10-11 region",
            "12-13 comment",
            "17-19 region",
            "17-22 region"
        ]
    );
}

#[test]
fn each_record_is_a_symbol_with_its_main_line_moves() {
    let symbols = open().about("textDocument/documentSymbol", &uri("two")).expect("symbols");
    let outline: Vec<(String, Vec<String>)> = symbols
        .as_array()
        .expect("an array")
        .iter()
        .map(|record| {
            let children = record["children"].as_array().into_iter().flatten();
            (text(&record["name"]), children.map(|child| text(&child["name"])).collect())
        })
        .collect();
    assert_eq!(
        outline,
        [
            (
                "Pérez, Núria – Vidal, Joan".to_string(),
                vec!["1. K4-K6, E21-E19".to_string(), "2. JF6-B18, EE23-D20:".to_string()]
            ),
            ("A1".to_string(), vec!["1. B4-B6, E21-E19:".to_string()]),
        ]
    );
    // The second record's symbol: the record, and its first tag to select.
    let second = &symbols[1];
    let ranges =
        [(&second["range"], "range".into()), (&second["selectionRange"], "selection".into())];
    insta::assert_snapshot!(render_ranges(TWO_RECORDS, Encoding::Utf16, ranges), @r#"
    18 | [Variant "C'escacs"]
       | ^^^^^^^^^^^^^^^^^^^^ selection
       | ^^^^^^^^^^^^^^^^^^^^… (to 23:2) range
    "#);
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_string()
}
