//! The web build answers what the language server answers: every file of the repository's
//! test data and examples opened in a `Session` and in the server (through its real transport,
//! a client that counts UTF-16 as the browser does), and their diagnostics, and at every word
//! of every move line their hovers, completions, boards and the plays the boards offer, and
//! the lines of play of the first two records, compared field by field.

use ctlpgn_test_client::{uri, utf16_client, Client};
use ctlpgn_test_support::fixtures::compared_files;
use ctlpgn_web::Session;
use serde_json::{json, Value};

/// The web session's answer to a request, or its error.
fn call(session: &mut Session, method: &str, params: Value) -> Result<Value, Value> {
    let answer: Value = serde_json::from_str(
        &session.call(&json!({"method": method, "params": params}).to_string()),
    )
    .expect("the session answers JSON");
    match answer.get("error") {
        Some(error) => Err(error.clone()),
        None => Ok(answer["result"].clone()),
    }
}

/// The places asked about: the start of every word of every line that is not a tag, and the
/// end of each such line, as UTF-16 columns.
fn places(text: &str) -> Vec<(u32, u32)> {
    let mut places = Vec::new();
    for (line, content) in text.split('\n').enumerate() {
        let line = u32::try_from(line).expect("a line number");
        if content.starts_with('[') {
            places.push((line, 1));
            continue;
        }
        let mut column = 0u32;
        let mut after_space = true;
        for c in content.chars() {
            if !c.is_whitespace() && after_space {
                places.push((line, column));
            }
            after_space = c.is_whitespace();
            column += u32::try_from(c.len_utf16()).expect("one or two units");
        }
        places.push((line, column));
    }
    places
}

#[test]
fn the_web_session_answers_what_the_language_server_answers() {
    let mut client = Client::start(utf16_client());
    let mut compared = [0usize; 5];
    for path in compared_files() {
        // The file that is not UTF-8 (S000) has a test of its own, below.
        let Ok(text) = String::from_utf8(std::fs::read(&path).expect("readable")) else {
            continue;
        };
        let name = path.display().to_string();
        let document_uri = uri(&format!("same-{}", compared[0]));
        compared[0] += 1;
        client.open(&document_uri, &text);
        let published = client.published(&document_uri);
        let mut session = Session::new();
        let opened = call(&mut session, "open", json!({"text": text})).expect("opened");
        let document = opened["document"].clone();

        // Diagnostics: the server's message carries the code's name in brackets.
        let web = call(&mut session, "diagnostics", json!({"document": document})).expect("listed");
        // `check`, the command line's analysis without a document, lists the same.
        let checked = call(&mut session, "check", json!({"text": text})).expect("checked");
        assert_eq!(checked, web, "{name}: check");
        let web: Vec<Value> = web
            .as_array()
            .expect("a list")
            .iter()
            .map(|found| {
                let severity = match found["severity"].as_str() {
                    Some("error") => 1,
                    Some("warning") => 2,
                    _ => 4,
                };
                let message = format!(
                    "{} [{}]",
                    found["message"].as_str().expect("a message"),
                    found["name"].as_str().expect("a name")
                );
                json!({"range": found["range"], "severity": severity, "code": found["code"],
                       "source": "ctlpgn", "message": message})
            })
            .collect();
        assert_eq!(json!(web), published["diagnostics"], "{name}");

        // The lines of play of the first and the second record: the same answer, the same
        // function.
        for record in [1, 2] {
            let asked = json!({"textDocument": {"uri": document_uri}, "record": record});
            let served = client.request("ctlpgn/lines", asked).expect("the lines");
            let web = call(&mut session, "lines", json!({"document": document, "record": record}))
                .expect("the lines");
            assert_eq!(web, served, "{name}: the lines of record {record}");
        }

        for (line, character) in places(&text) {
            let position = json!({"line": line, "character": character});
            let at = json!({"textDocument": {"uri": document_uri}, "position": position});
            let web_at = json!({"document": document, "position": position});

            let served = client.request("textDocument/hover", at.clone()).expect("a hover");
            let mut hover = web_at.clone();
            hover["markdown"] = json!(served["contents"]["kind"] != "plaintext");
            let web = call(&mut session, "hover", hover).expect("a hover");
            assert_eq!(web["contents"], served["contents"]["value"], "{name} {position}");
            assert_eq!(web["range"], served["range"], "{name} {position}");
            compared[1] += 1;

            let served = client.request("textDocument/completion", at.clone()).expect("items");
            let web = call(&mut session, "completion", web_at.clone()).expect("items");
            // A list the server marks incomplete (the pieces, asked again after a separator)
            // comes as an object holding the items.
            let served = served.get("items").cloned().unwrap_or(served);
            let served: Vec<Value> = served
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .map(|item| json!([item["label"], item["detail"], item["textEdit"]]))
                        .collect()
                })
                .unwrap_or_default();
            let web: Vec<Value> = web
                .as_array()
                .expect("a list")
                .iter()
                .map(|item| {
                    let edit = json!({"range": item["range"], "newText": item["newText"]});
                    json!([item["label"], item["detail"], edit])
                })
                .collect();
            assert_eq!(web, served, "{name} {position}");
            compared[2] += 1;

            let served = client.request("ctlpgn/board", at.clone()).expect("a board");
            let web = call(&mut session, "board", web_at.clone()).expect("a board");
            // Every field the server answers, the web answers alike, and no other.
            for (field, value) in served.as_object().into_iter().flatten() {
                assert_eq!(&web[field], value, "{name} {position}: {field}");
            }
            let fields = |answer: &Value| answer.as_object().map(|object| object.len());
            assert_eq!(fields(&web), fields(&served), "{name} {position}: {web}");
            compared[3] += 1;

            // The first and the last half-move the board offers, played by both.
            let offered = served["moves"].as_array().cloned().unwrap_or_default();
            for playable in [offered.first(), offered.last()].into_iter().flatten() {
                let half_move = &playable["text"];
                let version = web["version"].clone();
                let params = json!({"textDocument": {"uri": document_uri, "version": version},
                                    "position": position, "move": half_move});
                let served = client.request("ctlpgn/play", params);
                let web = call(
                    &mut session,
                    "play",
                    json!({"document": document, "version": version, "position": position,
                           "move": half_move}),
                );
                match (served, web) {
                    (Ok(served), Ok(web)) => {
                        let edits = &served["edit"]["documentChanges"][0]["edits"];
                        assert_eq!(&web["edits"], edits, "{name} {position} {half_move}");
                        assert_eq!(web["range"], served["range"], "{name} {position} {half_move}");
                    }
                    (Err(served), Err(web)) => {
                        assert_eq!(web["message"], served["message"], "{name} {position}");
                    }
                    (served, web) => panic!("{name} {position} {half_move}: {served:?} {web:?}"),
                }
                compared[4] += 1;
            }
        }
        client.notify("textDocument/didClose", json!({"textDocument": {"uri": document_uri}}));
    }
    let [files, hovers, completions, boards, plays] = compared;
    assert!(hovers > 1_000 && completions > 1_000 && boards > 1_000, "{compared:?}");
    assert!(plays > 500, "{files} files, {plays} plays");
}

#[test]
fn bytes_that_are_not_utf8_are_reported_as_s000_until_the_text_changes() {
    let mut session = Session::new();
    let answer: Value =
        serde_json::from_str(&session.open_bytes(b"[Variant \"C'escacs\"]\n[Event \"\xff\"]\n"))
            .expect("JSON");
    let document = answer["result"]["document"].clone();
    let listed = call(&mut session, "diagnostics", json!({"document": document})).expect("a list");
    assert_eq!(listed[0]["code"], "S000", "{listed}");
    assert_eq!(listed[0]["line"], 1);
    let text = call(&mut session, "text", json!({"document": document})).expect("the text");
    assert_eq!(text, "[Variant \"C'escacs\"]\n[Event \"\u{fffd}\"]\n");
    let change = json!({"document": document, "changes": [{"text": "[Variant \"C'escacs\"]\n"}]});
    assert_eq!(call(&mut session, "change", change).expect("changed")["version"], 2);
    let listed = call(&mut session, "diagnostics", json!({"document": document})).expect("a list");
    assert!(listed.as_array().expect("a list").iter().all(|found| found["code"] != "S000"));
}

#[test]
fn a_play_at_a_stale_place_is_refused_and_changes_are_read_in_utf16() {
    let mut session = Session::new();
    let text = "[Variant \"C'escacs\"]\n[Event \"Zoë 🩐\"]\n\n1. K4-K6\n*\n";
    let opened = call(&mut session, "open", json!({"text": text})).expect("opened");
    let document = opened["document"].clone();
    // `🩐` counts two UTF-16 units: the place after it is column 14.
    let change = json!({"document": document, "changes": [
        {"range": {"start": {"line": 1, "character": 14}, "end": {"line": 1, "character": 14}},
         "text": "!"}]});
    assert_eq!(call(&mut session, "change", change).expect("changed")["version"], 2);
    let now = call(&mut session, "text", json!({"document": document})).expect("the text");
    assert_eq!(now, "[Variant \"C'escacs\"]\n[Event \"Zoë 🩐!\"]\n\n1. K4-K6\n*\n");
    let play = json!({"document": document, "version": 1,
                      "position": {"line": 3, "character": 8}, "move": "E21-E19"});
    let refused = call(&mut session, "play", play.clone()).expect_err("a stale place");
    assert_eq!(refused["code"], "content-modified");
    let mut current = play;
    current["version"] = json!(2);
    let played = call(&mut session, "play", current).expect("played");
    assert_eq!(played["edits"][0]["newText"], ", E21-E19:", "{played}");
}

#[test]
fn requests_that_make_no_sense_are_answered_with_an_error() {
    let mut session = Session::new();
    for request in ["", "[]", "{\"method\": 3}", "{\"method\": \"board\", \"params\": {}}",
                    "{\"method\": \"hover\", \"params\": {\"document\": 9, \"position\": {\"line\": 0, \"character\": 0}}}",
                    "{\"method\": \"nothing\"}"] {
        let answer: Value = serde_json::from_str(&session.call(request)).expect("JSON");
        assert!(answer["error"]["code"].is_string(), "{request}: {answer}");
    }
}

#[test]
fn a_refusal_quotes_at_most_a_few_words_of_what_was_sent() {
    let mut session = Session::new();
    let long = "m".repeat(1 << 20);
    for request in [
        json!({"method": long}).to_string(),
        json!({"method": "open", "params": {"text": "", long.clone(): 1}}).to_string(),
        format!("{{\"method\": \"open\", \"params\": {{\"{long}\"}}}}"),
    ] {
        let answer = session.call(&request);
        assert!(answer.len() < 2_000, "an answer of {} bytes", answer.len());
        serde_json::from_str::<Value>(&answer).expect("JSON");
    }
    let unknown: Value =
        serde_json::from_str(&session.call(&json!({"method": long}).to_string())).expect("JSON");
    assert_eq!(unknown["error"]["message"], format!("no method `{}…`", "m".repeat(40)));
}

#[test]
fn a_change_inside_a_character_is_refused_and_changes_nothing() {
    let mut session = Session::new();
    let opened = call(&mut session, "open", json!({"text": "a😀b\n"})).expect("opened");
    let document = opened["document"].clone();
    let at = |character: u32| json!({"line": 0, "character": character});
    // The first change is fine; the second, read in the text the first left, splits the pair.
    let changes = json!({"document": document, "changes": [
        {"range": {"start": at(0), "end": at(0)}, "text": "x"},
        {"range": {"start": at(3), "end": at(3)}, "text": "!"}]});
    let refused = call(&mut session, "change", changes).expect_err("inside the pair");
    assert_eq!(refused["code"], "invalid-params");
    assert_eq!(call(&mut session, "text", json!({"document": document})).expect("text"), "a😀b\n");
    // Either side of the pair is a place.
    let changes = json!({"document": document, "changes": [
        {"range": {"start": at(1), "end": at(3)}, "text": "🩐"}]});
    assert_eq!(call(&mut session, "change", changes).expect("changed")["version"], 2);
    assert_eq!(call(&mut session, "text", json!({"document": document})).expect("text"), "a🩐b\n");
}
