//! Diagnostics over the protocol: exact ranges in both position encodings with multi-byte
//! characters before them (`×`, `…`, `🩐`, accented names), the code, name, source and
//! severity of each, pulled diagnostics equal to pushed ones, and clearing on close. The
//! diagnostics are shown under the lines they point at (a snapshot, the same in UTF-16 and
//! UTF-8, pushed or pulled).

use ctlpgn_test_support::annotations::render_lsp_diagnostics;
use ctlpgn_test_support::positions::Encoding;
use serde_json::json;

use crate::client::{pull_client, uri, utf16_client, utf8_client, Client};

/// Two records: the first with letters, the second with FAN figurines, their diagnostics after
/// `×`, `…`, `🩐` and accented names.
const FIXTURE: &str = r#"[Variant "C'escacs"]
[Event "Prova"]
[White "Pérez, Núria"]
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
5. B4-B6, K24-K18
6. E7-E9, I23-I19
7. JB18-C21, KG27-I23
8. ED4-C7, GD26-G27
9. I5-I11, B24-B18
10. JC21×G21, NH22-H16:
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
3. 🩐Z17×K18, E15-E13:
*
"#;

/// The first diagnostics published for the fixture to a client, rendered under its lines
/// (ranges read in the encoding the server announced).
fn published(capabilities: serde_json::Value, encoding: Encoding) -> String {
    let mut client = Client::start(capabilities);
    assert_eq!(client.encoding(), encoding);
    client.open(&uri("errors"), FIXTURE);
    let published = client.published(&uri("errors"));
    assert_eq!(published["version"], 1);
    render_lsp_diagnostics(FIXTURE, &published["diagnostics"], encoding)
}

#[test]
fn ranges_are_exact_in_utf16() {
    insta::assert_snapshot!("published", published(utf16_client(), Encoding::Utf16));
}

#[test]
fn ranges_are_exact_in_utf8() {
    insta::assert_snapshot!("published", published(utf8_client(), Encoding::Utf8));
}

#[test]
fn a_diagnostic_has_the_handbook_code_its_name_the_source_and_a_severity() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("errors"), FIXTURE);
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
    assert_eq!(
        find("T006")["message"],
        "seven-tag roster out of order: Site expected before White [roster-order]"
    );
}

#[test]
fn a_client_that_pulls_gets_the_same_diagnostics_and_none_pushed() {
    let mut client = Client::start(pull_client());
    assert_eq!(
        client.initialized["capabilities"]["diagnosticProvider"]["interFileDependencies"],
        false
    );
    client.open(&uri("errors"), FIXTURE);
    let report = client.about("textDocument/diagnostic", &uri("errors")).expect("a report");
    assert_eq!(report["kind"], "full");
    let pulled = render_lsp_diagnostics(FIXTURE, &report["items"], client.encoding());
    insta::assert_snapshot!("published", pulled);
    assert!(client.pushed_so_far().is_empty());
}

#[test]
fn hints_are_hints_and_closing_a_document_clears_its_diagnostics() {
    let mut client = Client::start(utf16_client());
    let text = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19 2. B4-B6, E19-E17:\n*\n";
    client.open(&uri("hint"), text);
    let published = client.published(&uri("hint"));
    let shown = render_lsp_diagnostics(text, &published["diagnostics"], client.encoding());
    insta::assert_snapshot!(shown, @r#"
    1 | [Variant "C'escacs"]
      | ^^^^^^^^^^^^^^^^^^^^ warning[T007]: Variant alone: a record continues with Event (registered game) or Id (model item) [unexpected-second-tag]
    3 | 1. K4-K6, E21-E19 2. B4-B6, E19-E17:
      |                   ^^ hint[M026]: several move pairs on one line: the canonical layout is one pair per line [several-pairs-on-line]
    "#);
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
    insta::assert_snapshot!(message, @"14901 more findings in this record's movetext are not listed, the first here: at most 100 are listed for each part of a record (syntax, tag section, movetext, comments, rule checks); correct those listed and check again [diagnostics-truncated]");
    assert!(diagnostics.len() <= 2 * 101, "{} diagnostics", diagnostics.len());
}

/// A record written with non-canonical spacing and indentation dots, after accented names,
/// `‐`, `…`, `×` and astral FAN figurines on the same lines.
const LAYOUT: &str = "[Variant \"C'escacs\"]
[Event \"Prova\"]
[Site \"Girona\"]
[Date \"2024-03-01\"]
[Round \"2\"]
[White \"Núñez, Àlex\"]
[Black \"Vidal, Joan\"]
[Result \"*\"]
[Redefine \"FAN\"]

1. K4-K6,E21-E19
(1. …,E21‐E17
.{ Àlex: × … }
..)
2. 🩐H2-Z17 ,  ♟E19-E15
3.🩐Z17×K18, E15-E13:
*
";

#[test]
fn layout_hints_span_the_move_line_to_the_spacing_and_point_at_the_dots_in_both_encodings() {
    let [utf16, utf8] = [(utf16_client(), Encoding::Utf16), (utf8_client(), Encoding::Utf8)].map(
        |(capabilities, encoding)| {
            let mut client = Client::start(capabilities);
            client.open(&uri("layout"), LAYOUT);
            let published = client.published(&uri("layout"));
            let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
            let hints: Vec<serde_json::Value> = diagnostics
                .iter()
                .filter(|d| d["code"] == "M027" || d["code"] == "M029")
                .cloned()
                .collect();
            render_lsp_diagnostics(LAYOUT, &serde_json::Value::Array(hints), encoding)
        },
    );
    assert_eq!(utf16, utf8, "the UTF-16 and UTF-8 clients' ranges");
    insta::assert_snapshot!(utf16, @"
    11 | 1. K4-K6,E21-E19
       | ^^^^^^^^^ hint[M027]: one space after the comma, found none [noncanonical-spacing]
    12 | (1. …,E21‐E17
       |  ^^^^^ hint[M027]: one space after the comma, found none [noncanonical-spacing]
    14 | ..)
       | ^^ hint[M029]: 2 dots for the line closing a variation of depth 1, expected none [indentation-dots-mismatch]
    15 | 2. 🩐H2-Z17 ,  ♟E19-E15
       | ^^^^^^^^^^^ hint[M027]: no space before the comma, found a space [noncanonical-spacing]
       | ^^^^^^^^^^^^^^ hint[M027]: one space after the comma, found 2 spaces [noncanonical-spacing]
    16 | 3.🩐Z17×K18, E15-E13:
       | ^^ hint[M027]: one space after the move number 3., found none [noncanonical-spacing]
    ");
}
