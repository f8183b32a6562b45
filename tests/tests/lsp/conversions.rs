//! The conversions in the editor: code actions that rewrite the record under the cursor (to
//! FAN, to standard letters, to minimal CTL-PGN) or add a record continuing from the cursor,
//! and the `ctlpgn.positionAt` command; each compared with the core's own conversion.

use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};
use crate::{actions_at, apply, listed};
use ctlpgn_core::conversion::{self, LetterTarget};
use ctlpgn_test_support::cursor::Marked;

/// Two records: the first with comments, a variation and a rating; the second in FAN, after
/// an accented name and figurines.
const FILE: &str = "[Variant \"C'escacs\"]\n[Id \"Demo-C01\"]\n[Annotator \"Pérez, Núria\"]\n\n1. E7-E13, E21-E15\n{ @W: a triple step; ~PE13 faces ~pE15 }\n2. F8-F12 ?!, F20-F16\n(2. …, G21-G15)\n3. E13×F16, E15×F12:\n*\n\n[Variant \"C'escacs\"]\n[Id \"Demo-C02\"]\n[Annotator \"Vidàl, Àngel\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. ♗F6-C15, ♞G25-I21:\n*\n";

fn titled<'a>(actions: &'a [Value], title: &str) -> Option<&'a Value> {
    actions.iter().find(|action| action["title"] == title)
}

/// The byte range of the `index`-th record of `FILE`.
fn record(index: usize) -> ctlpgn_core::text::TextRange {
    ctlpgn_core::syntax::split_records(FILE)[index]
}

#[test]
fn a_record_converts_to_fan_and_back_as_the_core_does() {
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("letters"), FILE);
        let first_move = Marked::within(FILE, "1. $0E7-E13, E21-E15\n{ @W");
        let actions = actions_at(&mut client, "letters", &first_move);
        // Already in letters: no conversion to them. The same in either encoding.
        insta::allow_duplicates! {
            insta::assert_snapshot!(listed(&actions), @r"
            source.convert.ctlpgn: Convert this record to FAN figurines
            source.convert.ctlpgn: Strip this record to minimal CTL-PGN
            refactor.extract.ctlpgn: Continue from here in a new record
            ");
        }
        let to_fan =
            titled(&actions, "Convert this record to FAN figurines").expect("a FAN conversion");
        assert_eq!(to_fan["kind"], "source.convert.ctlpgn");
        let converted = apply(FILE, &to_fan["edit"]["changes"][uri("letters")], utf8);
        let first = &FILE[record(0)];
        let expected_first = conversion::reletter_file(first, &LetterTarget::Fan)
            .expect("the first record converts");
        assert_eq!(converted, FILE.replacen(first, &expected_first, 1), "utf8: {utf8}");
        // The second record, in FAN, converts to letters; its edits lie after `Àngel`.
        let bishop = Marked::within(FILE, "2. $0♗F6-C15");
        let actions = actions_at(&mut client, "letters", &bishop);
        insta::allow_duplicates! {
            insta::assert_snapshot!(listed(&actions), @r"
            source.convert.ctlpgn: Convert this record to standard letters
            source.convert.ctlpgn: Strip this record to minimal CTL-PGN
            refactor.extract.ctlpgn: Continue from here in a new record
            ");
        }
        let to_letters = titled(&actions, "Convert this record to standard letters")
            .expect("a letters conversion");
        let converted = apply(FILE, &to_letters["edit"]["changes"][uri("letters")], utf8);
        let second = &FILE[record(1)];
        assert_eq!(
            converted,
            FILE.replacen(
                second,
                &conversion::reletter_file(second, &LetterTarget::Standard).expect("converts"),
                1
            )
        );
    }
}

#[test]
fn a_record_strips_to_minimal_ctl_pgn_and_keeps_the_next_record() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("minimal"), FILE);
    let actions = actions_at(&mut client, "minimal", &Marked::within(FILE, "2. F$08-F12 ?!"));
    let strip =
        titled(&actions, "Strip this record to minimal CTL-PGN").expect("a minimal conversion");
    let stripped = apply(FILE, &strip["edit"]["changes"][uri("minimal")], false);
    let first = &FILE[record(0)];
    let minimal = conversion::minimal_file(first).expect("the first record converts");
    assert_eq!(stripped, FILE.replacen(first.trim_end(), minimal.trim_end(), 1));
    // No comment, NAG or variation left in the first record; the second one as it was.
    insta::assert_snapshot!(stripped, @r#"
    [Variant "C'escacs"]
    [Id "Demo-C01"]
    [Annotator "Pérez, Núria"]

    1. E7-E13, E21-E15
    2. F8-F12, F20-F16
    3. E13×F16, E15×F12:
    *

    [Variant "C'escacs"]
    [Id "Demo-C02"]
    [Annotator "Vidàl, Àngel"]
    [Redefine "FAN"]

    1. E7-E13, E21-E15
    2. ♗F6-C15, ♞G25-I21:
    *
    "#);
}

#[test]
fn continue_from_here_adds_a_record_starting_at_the_cursor() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("continue"), FILE);
    // On Black's `F20-F16` of move 2: White is to move next, at move 3.
    let black = Marked::within(FILE, "?!, F$020-F16");
    let actions = actions_at(&mut client, "continue", &black);
    let continuation =
        titled(&actions, "Continue from here in a new record").expect("a continuation");
    let edits = &continuation["edit"]["changes"][uri("continue")];
    let inserted = edits[0]["newText"].as_str().expect("the new record");
    let position = black.position(client.encoding());
    let pdtl = client
        .request(
            "workspace/executeCommand",
            json!({"command": "ctlpgn.positionAt", "arguments": [uri("continue"), position]}),
        )
        .expect("a PDTL");
    assert!(
        inserted.contains(&format!("[PDTL \"{}\"]", pdtl.as_str().expect("a string"))),
        "{inserted}"
    );
    // The new record after the first, White to play at move 3 (the PDTL says so), its first
    // move to be written on the blank line before `*`; the next record unchanged. It checks
    // clean as it is: no move line begun without its move, and its result line.
    let after = apply(FILE, edits, false);
    assert_eq!(ctlpgn_core::syntax::split_records(&after).len(), 3);
    client.change(&uri("continue"), 2, json!([{"text": after}]));
    let published = client.published_until(&uri("continue"), 2);
    assert_eq!(published.last().map(|p| &p["diagnostics"]), Some(&json!([])), "{after}");
    insta::assert_snapshot!(after, @r#"
    [Variant "C'escacs"]
    [Id "Demo-C01"]
    [Annotator "Pérez, Núria"]

    1. E7-E13, E21-E15
    { @W: a triple step; ~PE13 faces ~pE15 }
    2. F8-F12 ?!, F20-F16
    (2. …, G21-G15)
    3. E13×F16, E15×F12:
    *

    [Variant "C'escacs"]
    [Id "Demo-C01"]
    [Annotator "Pérez, Núria"]
    [PDTL "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/16:3p3/15:3p4/13:3P4/12:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr F16@18 0 3"]

    *

    [Variant "C'escacs"]
    [Id "Demo-C02"]
    [Annotator "Vidàl, Àngel"]
    [Redefine "FAN"]

    1. E7-E13, E21-E15
    2. ♗F6-C15, ♞G25-I21:
    *
    "#);
}

#[test]
fn the_position_command_gives_the_replay_s_pdtl_in_both_encodings() {
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("position"), FILE);
        // Black's half-move of move 2 in FAN, after two figurines.
        let knight = Marked::within(FILE, "2. ♗F6-C15, ♞$0G25-I21:");
        let position = knight.position(client.encoding());
        let found = client
            .request(
                "workspace/executeCommand",
                json!({"command": "ctlpgn.positionAt", "arguments": [uri("position"), position]}),
            )
            .expect("a PDTL");
        let second = &FILE[record(1)];
        let expected = conversion::parse_records(second)
            .first()
            .and_then(|parsed| {
                ctlpgn_core::analysis::pdtl_at(
                    second,
                    &parsed.syntax,
                    &parsed.analysis,
                    second.find("♞G25").expect("the move") + 1,
                )
            })
            .expect("the core's PDTL");
        assert_eq!(found, json!(expected), "utf8: {utf8}");
        // In the record's figurines, White to move.
        insta::allow_duplicates! { insta::assert_snapshot!(expected, @"/28:🩒/27:♛♚/26:🩓♝🩓/25:♜♞1♜/24:♟☗♝☗♟/23:♟♟☗☗♟♟/22:2♟♝♟2/21:4♟♞2/20:3♟3/15:2♗♟4/13:3♙4/8:3♙3/7:4♙3/6:2♙1♙2/5:♙♙☖☖♙♙/4:♙☖♗☖♙/3:♖♘♘♖/2:🩐♗🩐/1:♕♔/0:🩏/ w ♖♔♖♜♚♜ - 2 3"); }
    }
}

#[test]
fn the_position_command_rejects_bad_arguments_and_answers_null_for_unknown_documents() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("bad"), FILE);
    for arguments in [
        json!([]),
        json!([uri("bad")]),
        json!([42, {"line": 0, "character": 0}]),
        json!([uri("bad"), "here"]),
    ] {
        let answer = client.request(
            "workspace/executeCommand",
            json!({"command": "ctlpgn.positionAt", "arguments": arguments}),
        );
        assert_eq!(answer.expect_err("invalid parameters")["code"], -32602, "{arguments}");
    }
    let unknown = client
        .request("workspace/executeCommand", json!({"command": "ctlpgn.nothing", "arguments": []}));
    assert!(unknown.is_err());
    let not_open = client.request("workspace/executeCommand", json!({"command": "ctlpgn.positionAt", "arguments": [uri("not-open"), {"line": 0, "character": 0}]}));
    assert_eq!(not_open, Ok(Value::Null));
    assert!(client.initialized["capabilities"]["executeCommandProvider"]["commands"]
        .as_array()
        .is_some_and(|c| c.contains(&json!("ctlpgn.positionAt"))));
}
