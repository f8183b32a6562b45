//! Completion over the protocol: tag names after `[`, tag values, the pieces and legal half-moves of
//! the side to move and references in comments, each item carrying its text edit in the negotiated
//! encoding, as a snippet only for clients that take snippets.

use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};

const GAME: &str = "[Variant \"C'escacs\"]\n[Event \"Obert de Moià\"]\n[Site \"Moià ESP\"]\n\n1. K4‐K6, E21-E19\n2. JF6-B18, EE23-D20\n{ Núria’s × idea: # }\n3. K6-K8, \n";

/// A client of the given capabilities that also takes snippets.
fn with_snippets(mut capabilities: Value) -> Value {
    capabilities["textDocument"]["completion"] =
        json!({"completionItem": {"snippetSupport": true}});
    capabilities
}

fn labels(items: &Value) -> Vec<String> {
    items
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label").to_string())
        .collect()
}

fn item<'a>(items: &'a Value, label: &str) -> &'a Value {
    items
        .as_array()
        .expect("a list of items")
        .iter()
        .find(|item| item["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {items}"))
}

/// The text with a new line `[` inserted after the Site tag.
fn with_open_tag() -> String {
    GAME.replace("[Site \"Moià ESP\"]\n", "[Site \"Moià ESP\"]\n[\n")
}

#[test]
fn a_bracket_in_the_tag_section_offers_the_missing_tags_in_roster_order() {
    let mut client = Client::start(with_snippets(utf16_client()));
    client.open(&uri("tags"), &with_open_tag());
    let items = client.at("textDocument/completion", &uri("tags"), 3, 1).expect("completion");
    assert_eq!(labels(&items)[..4], ["Date", "Round", "White", "WhiteNA"]);
    let date = item(&items, "Date");
    assert_eq!(date["preselect"], true);
    assert_eq!(date["insertTextFormat"], 2, "a snippet");
    // The `[` typed stays: the edit starts after it, where the word starts, and the label is
    // what the client filters on.
    assert_eq!(date["textEdit"]["newText"], "Date \"${1:????}-${2:??}-${3:??}\"]$0");
    assert_eq!(
        date["textEdit"]["range"],
        json!({"start": {"line": 3, "character": 1}, "end": {"line": 3, "character": 1}})
    );
    assert_eq!(date.get("filterText"), None);
    assert!(
        date["documentation"]["value"].as_str().is_some_and(|doc| doc.contains("YYYY-MM-DD")),
        "{date}"
    );
    assert!(
        !labels(&items).contains(&"Event".to_string())
            && !labels(&items).contains(&"Site".to_string())
    );
}

#[test]
fn clients_without_snippets_get_plain_text() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("plain"), &with_open_tag());
    let items = client.at("textDocument/completion", &uri("plain"), 3, 1).expect("completion");
    let result = item(&items, "Result");
    assert_eq!(result["insertTextFormat"], 1);
    assert_eq!(result["textEdit"]["newText"], "Result \"\"]");
}

#[test]
fn tag_values_replace_the_text_inside_the_quotes_after_non_ascii_text() {
    let text = GAME.replace("[Site \"Moià ESP\"]\n", "[Site \"Moià ESP\"]\n[Termination \"ti\"]\n");
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("values"), &text);
        let items =
            client.at("textDocument/completion", &uri("values"), 3, 14).expect("completion");
        assert_eq!(
            labels(&items),
            ["abandoned", "rules infraction", "time forfeit", "death", "emergency"],
            "utf8: {utf8}"
        );
        assert_eq!(
            item(&items, "death")["textEdit"]["range"],
            json!({"start": {"line": 3, "character": 14}, "end": {"line": 3, "character": 16}})
        );
        // After `ti`, the values that go on with it.
        let items =
            client.at("textDocument/completion", &uri("values"), 3, 16).expect("completion");
        assert_eq!(labels(&items), ["time forfeit"], "utf8: {utf8}");
    }
}

#[test]
fn the_movetext_offers_the_pieces_of_the_side_to_move_in_both_encodings() {
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("moves"), GAME);
        // Line 7 is `3. K6-K8, `: Black answers.
        let items = client.at("textDocument/completion", &uri("moves"), 7, 10).expect("completion");
        assert_eq!(labels(&items)[..2], ["KG27", "DE27"], "utf8: {utf8}");
        assert!(
            !labels(&items).contains(&"EE23".to_string())
                && labels(&items).contains(&"ED20".to_string())
        );
        assert_eq!(item(&items, "KG27")["detail"], "Black King on G27");
        // Line 4 is `1. K4‐K6, E21-E19`, with a three-byte hyphen: Black's half-move starts
        // after it, at character 10 in UTF-16 and byte 12 in UTF-8.
        let column = if utf8 { 12 } else { 10 };
        let items =
            client.at("textDocument/completion", &uri("moves"), 4, column + 1).expect("completion");
        let pawn = item(&items, "E21");
        assert_eq!(
            pawn["textEdit"]["range"],
            json!({"start": {"line": 4, "character": column}, "end": {"line": 4, "character": column + 1}})
        );
        assert_eq!(pawn["textEdit"]["newText"], "E21");
    }
}

#[test]
fn a_comment_offers_references_to_the_moves_before_it() {
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("comment"), GAME);
        // `{ Núria’s × idea: # }`: the `#` is character 18 in UTF-16, byte 22 in UTF-8.
        let hash = if utf8 { 22 } else { 18 };
        let items =
            client.at("textDocument/completion", &uri("comment"), 6, hash + 1).expect("completion");
        assert_eq!(labels(&items), ["#2@B", "#2@W", "#1@B", "#1@W"], "utf8: {utf8}");
        assert_eq!(item(&items, "#1@W")["detail"], "1. K4‐K6");
        // The `#` stays; the reference goes on after it.
        let reference = item(&items, "#2@B");
        assert_eq!(reference["textEdit"]["range"]["start"]["character"], hash + 1);
        assert_eq!(
            (&reference["textEdit"]["newText"], &reference["filterText"]),
            (&json!("2@B"), &json!("2@B"))
        );
    }
}

#[test]
fn places_with_nothing_to_offer_and_unknown_documents_answer_null() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("nothing"), GAME);
    // Inside a move number, in the prose of a comment, past the end of the text.
    for (line, character) in [(4, 1), (6, 5), (40, 2)] {
        assert_eq!(
            client.at("textDocument/completion", &uri("nothing"), line, character),
            Ok(Value::Null),
            "at {line}:{character}"
        );
    }
    assert_eq!(client.at("textDocument/completion", &uri("not-open"), 0, 0), Ok(Value::Null));
}

#[test]
fn the_legal_half_moves_are_written_in_the_record_s_figurines_in_both_encodings() {
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-C05\"]\n[Annotator \"Pérez, Núria\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. ☖E5-E9, ☖E23-E19\n3. ☖\n";
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("fan"), text);
        // Line 7 is `3. ☖`: the cursor after the figurine, three bytes or one UTF-16 unit.
        let end = if utf8 { 6 } else { 4 };
        let items = client.at("textDocument/completion", &uri("fan"), 7, end).expect("completion");
        let elephant: Vec<&Value> = items
            .as_array()
            .expect("items")
            .iter()
            .filter(|item| item["label"].as_str().is_some_and(|label| label.starts_with("☖E9-")))
            .collect();
        assert!(!elephant.is_empty(), "the Elephant on E9 moves: {:?}", labels(&items));
        for item in elephant {
            assert_eq!(
                item["textEdit"]["range"],
                json!({"start": {"line": 7, "character": 3}, "end": {"line": 7, "character": end}}),
                "utf8: {utf8}"
            );
            assert_eq!(item["textEdit"]["newText"], item["label"]);
            assert!(
                item["detail"]
                    .as_str()
                    .is_some_and(|detail| detail.starts_with("White Elephant E9 to ")),
                "{item}"
            );
        }
        // Only what begins with the figurine typed; at the start of a half-move, the Bishop's
        // moves in figurines and no letters.
        assert!(labels(&items).iter().all(|label| label.starts_with('☖')), "{:?}", labels(&items));
        // Before the figurine, `3. |☖`: the same column in both encodings.
        let items = client.at("textDocument/completion", &uri("fan"), 7, 3).expect("completion");
        assert!(
            labels(&items).iter().any(|label| label.starts_with("♗F6-")),
            "the Bishop in figurines: {:?}",
            labels(&items)
        );
        assert!(
            !labels(&items).iter().any(|label| label.starts_with('J')),
            "no letters in a FAN record"
        );
    }
}
