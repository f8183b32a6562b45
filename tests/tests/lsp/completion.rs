//! Completion over the protocol: tag names after `[`, tag values, the pieces and legal half-moves of
//! the side to move and references in comments, each item carrying its text edit in the negotiated
//! encoding, as a snippet only for clients that take snippets. Each answer is a snapshot, the same
//! for UTF-16 and UTF-8 clients; the place asked about is marked with `$0`.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};
use crate::{completion_items, completions};

const GAME: &str = "[Variant \"C'escacs\"]\n[Event \"Obert de Moià\"]\n[Site \"Moià ESP\"]\n\n1. K4‐K6, E21-E19\n2. JF6-B18, EE23-D20\n{ Núria’s × idea: # }\n3. K6-K8, \n";

/// A client of the given capabilities that also takes snippets.
fn with_snippets(mut capabilities: Value) -> Value {
    capabilities["textDocument"]["completion"] =
        json!({"completionItem": {"snippetSupport": true}});
    capabilities
}

fn item(answer: &Value, label: &str) -> Value {
    completion_items(answer)
        .into_iter()
        .find(|item| item["label"] == label)
        .unwrap_or_else(|| panic!("no {label} in {answer}"))
}

/// The completion at `place` as a UTF-16 and a UTF-8 client get it (with or without snippets),
/// which must show alike: shown once.
fn shown_in_both(place: &Marked, snippets: bool) -> String {
    let [utf16, utf8] = [utf16_client(), utf8_client()].map(|capabilities| {
        let capabilities = if snippets { with_snippets(capabilities) } else { capabilities };
        let mut client = Client::start(capabilities);
        client.open(&uri("completion"), &place.text);
        let answer = client
            .at_cursor("textDocument/completion", &uri("completion"), place)
            .expect("completion");
        completions(&place.text, &answer, client.encoding())
    });
    assert_eq!(utf16, utf8, "the UTF-16 and UTF-8 clients' answers");
    utf16
}

/// The text with a new line `[` inserted after the Site tag, the cursor after it.
fn with_open_tag() -> Marked {
    Marked::cursor(&GAME.replace("[Site \"Moià ESP\"]\n", "[Site \"Moià ESP\"]\n[$0\n"))
}

#[test]
fn a_bracket_in_the_tag_section_offers_the_missing_tags_in_roster_order() {
    // The `[` typed stays: the edits start after it, where the word starts, and the label is
    // what the client filters on. The date first, preselected; no Event or Site, given.
    let place = with_open_tag();
    insta::assert_snapshot!(shown_in_both(&place, true));
    let mut client = Client::start(with_snippets(utf16_client()));
    client.open(&uri("tags"), &place.text);
    let answer =
        client.at_cursor("textDocument/completion", &uri("tags"), &place).expect("completion");
    let date = serde_json::to_string_pretty(&item(&answer, "Date")).expect("JSON");
    insta::assert_snapshot!("the_date_item", date);
}

#[test]
fn clients_without_snippets_get_plain_text() {
    insta::assert_snapshot!(shown_in_both(&with_open_tag(), false));
}

#[test]
fn tag_values_replace_the_text_inside_the_quotes_after_non_ascii_text() {
    let text = GAME.replace("[Site \"Moià ESP\"]\n", "[Site \"Moià ESP\"]\n[Termination \"ti\"]\n");
    let place = Marked::within(&text, "[Termination \"$0ti");
    insta::assert_snapshot!(shown_in_both(&place, false), @r#"
    abandoned · EnumMember · Termination value
        4:15-4:17 "ti" → plain "abandoned"
        ⇒ [Termination "abandoned"]
    rules infraction · EnumMember · Termination value
        4:15-4:17 "ti" → plain "rules infraction"
        ⇒ [Termination "rules infraction"]
    time forfeit · EnumMember · Termination value
        4:15-4:17 "ti" → plain "time forfeit"
        ⇒ [Termination "time forfeit"]
    death · EnumMember · Termination value
        4:15-4:17 "ti" → plain "death"
        ⇒ [Termination "death"]
    emergency · EnumMember · Termination value
        4:15-4:17 "ti" → plain "emergency"
        ⇒ [Termination "emergency"]
    "#);
    // After `ti`, the values that go on with it.
    let place = Marked::within(&text, "[Termination \"ti$0");
    insta::assert_snapshot!(shown_in_both(&place, false), @r#"
    time forfeit · EnumMember · Termination value
        4:15-4:17 "ti" → plain "time forfeit"
        ⇒ [Termination "time forfeit"]
    "#);
}

#[test]
fn the_movetext_offers_the_pieces_of_the_side_to_move_in_both_encodings() {
    // `3. K6-K8, `: Black answers.
    let place = Marked::within(GAME, "3. K6-K8, $0");
    insta::assert_snapshot!("black_to_move", shown_in_both(&place, false));
    // Black's half-move of `1. K4‐K6, E21-E19` starts after a three-byte hyphen.
    let place = Marked::within(GAME, "1. K4‐K6, E$021");
    insta::assert_snapshot!("after_a_three_byte_hyphen", shown_in_both(&place, false));
}

#[test]
fn a_comment_offers_references_to_the_moves_before_it() {
    // The `#` stays; the reference goes on after it.
    let place = Marked::within(GAME, "{ Núria’s × idea: #$0 }");
    insta::assert_snapshot!(shown_in_both(&place, false), @r#"
    #2@B · Reference · 2. …, EE23-D20
        7:20-7:20 "" → plain "2@B" filtered on "2@B"
        ⇒ { Núria’s × idea: #2@B }
    #2@W · Reference · 2. JF6-B18
        7:20-7:20 "" → plain "2@W" filtered on "2@W"
        ⇒ { Núria’s × idea: #2@W }
    #1@B · Reference · 1. …, E21-E19
        7:20-7:20 "" → plain "1@B" filtered on "1@B"
        ⇒ { Núria’s × idea: #1@B }
    #1@W · Reference · 1. K4‐K6
        7:20-7:20 "" → plain "1@W" filtered on "1@W"
        ⇒ { Núria’s × idea: #1@W }
    "#);
}

#[test]
fn places_with_nothing_to_offer_and_unknown_documents_answer_null() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("nothing"), GAME);
    // Inside a move number, in the prose of a comment.
    for snippet in ["1$0. K4‐K6", "{ Nú$0ria"] {
        let place = Marked::within(GAME, snippet);
        let answer = client.at_cursor("textDocument/completion", &uri("nothing"), &place);
        assert_eq!(answer, Ok(Value::Null), "at {snippet:?}");
    }
    // Past the end of the text, a position no text holds.
    assert_eq!(client.at("textDocument/completion", &uri("nothing"), 40, 2), Ok(Value::Null));
    let place = Marked::within(GAME, "3. K6-K8, $0");
    let answer = client.at_cursor("textDocument/completion", &uri("not-open"), &place);
    assert_eq!(answer, Ok(Value::Null));
}

#[test]
fn the_legal_half_moves_are_written_in_the_record_s_figurines_in_both_encodings() {
    let text = "[Variant \"C'escacs\"]\n[Id \"Demo-C05\"]\n[Annotator \"Pérez, Núria\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. ☖E5-E9, ☖E23-E19\n3. ☖\n";
    // After the figurine, three bytes or one UTF-16 unit: only what begins with it.
    let place = Marked::within(text, "3. ☖$0\n");
    insta::assert_snapshot!("after_a_figurine", shown_in_both(&place, false));
    // Before it, at the start of a half-move: the moves in figurines and no letters.
    let place = Marked::within(text, "3. $0☖\n");
    insta::assert_snapshot!("before_a_figurine", shown_in_both(&place, false));
}

/// The server asks to be called as each character after which it has something to offer is
/// typed (`triggerCharacters`): after a move or capture separator, in both spellings, the
/// destinations of the piece, so that an editor completing as the user types (Neovim 0.11's
/// autotrigger) keeps offering them after `JF6-` rather than closing its menu at the `-`.
#[test]
fn every_separator_is_a_trigger_character_after_which_the_destinations_come() {
    let mut client = Client::start(utf16_client());
    let triggers = client.initialized["capabilities"]["completionProvider"]["triggerCharacters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        triggers,
        ["[", "\"", "#", "@", " ", "-", "\u{2010}", "×", "*"].map(Value::from),
        "the trigger characters"
    );
    let record = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. E13";
    // The pawn's moves, then its capture (labels keep the record's own spelling).
    let separators = [("-", "D14"), ("\u{2010}", "D14"), ("×", "F16"), ("*", "F16")];
    for (number, (separator, destination)) in separators.into_iter().enumerate() {
        let place = Marked::cursor(&format!("{record}{separator}$0\n"));
        let name = uri(&format!("after-separator-{number}"));
        client.open(&name, &place.text);
        let answer = client
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": name}, "position": place.position(client.encoding()),
                       "context": {"triggerKind": 2, "triggerCharacter": separator}}),
            )
            .expect("completion");
        let labels: Vec<String> = completion_items(&answer)
            .iter()
            .map(|item| item["label"].as_str().unwrap_or_default().to_string())
            .collect();
        assert!(
            labels.iter().any(|label| label.starts_with("E13") && label.ends_with(destination)),
            "after {separator}: {labels:?}"
        );
    }
}

/// The pieces are an incomplete list: once a piece is typed, a separator follows, and then the
/// destinations are what may be written, which no client can find by filtering the pieces. A
/// client completing as the user types (Neovim 0.11, which ignores trigger characters while its
/// menu is open) asks again because of it. The destinations are complete.
#[test]
fn the_pieces_are_an_incomplete_list_and_the_destinations_a_complete_one() {
    let mut client = Client::start(utf16_client());
    let record = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n3. ";
    for (number, (typed, incomplete)) in [("", true), ("E13-", false)].into_iter().enumerate() {
        let place = Marked::cursor(&format!("{record}{typed}$0\n"));
        let name = uri(&format!("incomplete-{number}"));
        client.open(&name, &place.text);
        let answer =
            client.at_cursor("textDocument/completion", &name, &place).expect("completion");
        assert!(!completion_items(&answer).is_empty(), "{typed:?}: {answer}");
        assert_eq!(answer["isIncomplete"] == true, incomplete, "{typed:?}: {answer}");
    }
}
