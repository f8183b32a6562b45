//! Diagnostics over the protocol: exact ranges in both position encodings with multi-byte
//! characters before them (`×`, `…`, `🩐`, accented names), the code, name, source and
//! severity of each, pulled diagnostics equal to pushed ones, and clearing on close.

use serde_json::json;

use crate::client::{pull_client, uri, utf16_client, utf8_client, Client};
use crate::{annotated, compact};

/// Two records: the first with letters, the second with FAN figurines. Carets count characters.
const FIXTURE: &str = r#"[Variant "C'escacs"]
[Event "Prova"]
[White "Pérez, Núria"]
^^^^^^^^^^^^^^^^^^^^^^ T006
[Site "Girona"]
[Date "2024-03-01"]
[Round "1"]
[Black "Vidal, Joan"]
[Result "*"]

1. K4-K6, E21-E19
2. JF6-B18, EE23-D20
3. H6-H10, E19-E15
4. G7-G13, JF22-G19
(4. …, NE15-E13)
       ^^^^^^^^ K003
5. B4-B6, K24-K18
6. E7-E9, I23-I19
7. JB18-C21, KG27-I23
8. ED4-C7, GD26-G27
9. I5-I11, B24-B18
10. JC21×G21, NH22-H16:
              ^^^^^^^^ K003
*

[Variant "C'escacs"]
[Event "Prova"]
[Site "Girona"]
[Date "2024-03-01"]
[Round "2"]
[White "Núñez, Àlex"]
[Black "Vidal, Joan"]
[Result "*"]
[Redefine "FAN"]

1. K4-K6, E21-E19
2. 🩐H2-Z17, ♟E19-E15
            ^ S013
3. 🩐Z17×K18, E15-E13:
   ^^^^^^^^ K005
*
"#;

/// Opens the fixture with a client and compares the first diagnostics published for it.
fn check(fixture: &str, capabilities: serde_json::Value, utf8: bool) {
    let (text, expected) = annotated(fixture, utf8);
    let mut client = Client::start(capabilities);
    let encoding = if utf8 { "utf-8" } else { "utf-16" };
    assert_eq!(client.initialized["capabilities"]["positionEncoding"], encoding);
    client.open(&uri("errors"), &text);
    let published = client.published(&uri("errors"));
    assert_eq!(published["version"], 1);
    assert_eq!(compact(&published["diagnostics"]), expected);
}

#[test]
fn ranges_are_exact_in_utf16() {
    check(FIXTURE, utf16_client(), false);
}

#[test]
fn ranges_are_exact_in_utf8() {
    check(FIXTURE, utf8_client(), true);
}

#[test]
fn a_diagnostic_has_the_handbook_code_its_name_the_source_and_a_severity() {
    let (text, _) = annotated(FIXTURE, false);
    let mut client = Client::start(utf16_client());
    client.open(&uri("errors"), &text);
    let published = client.published(&uri("errors"));
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    let find = |code: &str| {
        diagnostics.iter().find(|d| d["code"] == code).unwrap_or_else(|| panic!("no {code}"))
    };
    let k003 = find("K003");
    assert_eq!(k003["source"], "ctlpgn");
    assert_eq!(k003["severity"], 1);
    assert_eq!(k003["message"], "E15 holds a pawn, not a Knight (a pawn move is written without a letter) [origin-wrong-piece]");
    assert_eq!(find("T006")["severity"], 2);
    assert!(find("T006")["message"].as_str().is_some_and(|m| m.ends_with(" [roster-order]")));
}

#[test]
fn a_client_that_pulls_gets_the_same_diagnostics_and_none_pushed() {
    let (text, expected) = annotated(FIXTURE, false);
    let mut client = Client::start(pull_client());
    assert_eq!(
        client.initialized["capabilities"]["diagnosticProvider"]["interFileDependencies"],
        false
    );
    client.open(&uri("errors"), &text);
    let report = client.about("textDocument/diagnostic", &uri("errors")).expect("a report");
    assert_eq!(report["kind"], "full");
    assert_eq!(compact(&report["items"]), expected);
    assert!(client.pushed_so_far().is_empty());
}

#[test]
fn hints_are_hints_and_closing_a_document_clears_its_diagnostics() {
    let mut client = Client::start(utf16_client());
    let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19 2. B4-B6, E19-E17:\n*\n";
    client.open(&uri("hint"), text);
    let published = client.published(&uri("hint"));
    assert_eq!(
        compact(&published["diagnostics"]).iter().filter(|d| d.ends_with("M026")).count(),
        1
    );
    let m026 = published["diagnostics"]
        .as_array()
        .and_then(|all| all.iter().find(|d| d["code"] == "M026"))
        .cloned();
    assert_eq!(m026.map(|d| d["severity"].clone()), Some(json!(4)));
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": uri("hint")}}));
    let cleared = client.published(&uri("hint"));
    assert_eq!(cleared["diagnostics"], json!([]));
}

#[test]
fn a_document_of_thousands_of_faults_publishes_a_hundred_per_part_and_one_that_counts_the_rest() {
    let mut client = Client::start(utf16_client());
    let doc = uri("faults");
    // Each `89.`: a move number without a move, out of sequence, on a line with others.
    client.open(&doc, &format!("[Variant \"C'escacs\"]\n[Id \"X\"]\n{}", "9.8".repeat(5_000)));
    let published = client.published(&doc);
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    let counted: Vec<&serde_json::Value> =
        diagnostics.iter().filter(|d| d["code"] == "S015").collect();
    assert_eq!(counted.len(), 1, "{published}");
    let message = counted[0]["message"].as_str().expect("a message");
    assert!(message.contains("more findings in this record's movetext"), "{message}");
    assert!(diagnostics.len() <= 2 * 101, "{} diagnostics", diagnostics.len());
}
