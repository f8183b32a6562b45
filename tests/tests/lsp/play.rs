//! Playing over the protocol: `ctlpgn/board` offers the `moves` of the side to move in the
//! record's own writing (FAN figurines, astral ones included), and `ctlpgn/play` answers a
//! versioned edit and the range of the half-move once it is applied, in UTF-16 and UTF-8.
//! The client applies the edit as an editor does (incremental changes, from the last), then
//! asks for the board at the range: it stands on the half-move played, in the position after it.
//! A play names the version its place was read in: one read in an older text is refused, even
//! when plays and changes come one after another without waiting for the answers.

use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};
use crate::{apply, offset};
use ctlpgn_test_support::cursor::{mark, Marked};
use ctlpgn_test_support::fixtures::testdata_text;
use ctlpgn_test_support::positions::{lsp_position, Encoding};

/// The LSP position of byte `at` of `text`, in the client's units.
fn position(text: &str, at: usize, utf8: bool) -> Value {
    lsp_position(text, at, if utf8 { Encoding::Utf8 } else { Encoding::Utf16 })
}

/// `method` at byte `at` of the document `name` (whose text is `text`), with `more` params.
fn ask(
    client: &mut Client,
    method: &str,
    name: &str,
    text: &str,
    at: usize,
    utf8: bool,
    more: Value,
) -> Result<Value, Value> {
    let mut params =
        json!({"textDocument": {"uri": uri(name)}, "position": position(text, at, utf8)});
    if let (Some(params), Some(more)) = (params.as_object_mut(), more.as_object()) {
        params.extend(more.clone());
    }
    client.request(method, params)
}

/// A document open in a client, as the client sees it.
struct Open {
    client: Client,
    name: &'static str,
    text: String,
    version: i32,
    utf8: bool,
}

impl Open {
    fn new(name: &'static str, text: &str, utf8: bool) -> Open {
        let mut client = Client::start(if utf8 { utf8_client() } else { utf16_client() });
        client.open(&uri(name), text);
        Open { client, name, text: text.to_string(), version: 1, utf8 }
    }

    fn board(&mut self, at: usize) -> Value {
        ask(&mut self.client, "ctlpgn/board", self.name, &self.text, at, self.utf8, json!({}))
            .expect("a board")
    }

    /// Plays `half_move` at byte `at`, applies the answer's edit as an editor does and
    /// returns the byte range of the half-move in the new text.
    fn play(&mut self, at: usize, half_move: &str) -> std::ops::Range<usize> {
        let reply =
            self.request_play(at, half_move).unwrap_or_else(|error| panic!("{half_move}: {error}"));
        let change = &reply["edit"]["documentChanges"][0];
        assert_eq!(change["textDocument"], json!({"uri": uri(self.name), "version": self.version}));
        let edits = &change["edits"];
        let before = self.text.clone();
        self.text = apply(&before, edits, self.utf8);
        if !edits.as_array().expect("edits").is_empty() {
            // As an editor sends them: one change per edit, the last one first.
            let mut changes: Vec<Value> = edits.as_array().expect("edits").clone();
            changes.reverse();
            let changes: Vec<Value> = changes
                .into_iter()
                .map(|edit| json!({"range": edit["range"], "text": edit["newText"]}))
                .collect();
            self.version += 1;
            self.client.change(&uri(self.name), self.version, Value::Array(changes));
        }
        let range = offset(&self.text, &reply["range"]["start"], self.utf8)
            ..offset(&self.text, &reply["range"]["end"], self.utf8);
        assert_eq!(&self.text[range.clone()], half_move, "{}", self.text);
        range
    }

    fn refusal(&mut self, at: usize, half_move: &str) -> Value {
        self.request_play(at, half_move).expect_err("a refusal")
    }

    fn request_play(&mut self, at: usize, half_move: &str) -> Result<Value, Value> {
        let document = json!({"uri": uri(self.name), "version": self.version});
        let more = json!({"textDocument": document, "move": half_move});
        ask(&mut self.client, "ctlpgn/play", self.name, &self.text, at, self.utf8, more)
    }
}

/// The texts of a board answer's `moves`.
fn texts(answer: &Value) -> Vec<&str> {
    answer["moves"].as_array().map_or_else(Vec::new, |moves| {
        moves.iter().map(|playable| playable["text"].as_str().expect("a text")).collect()
    })
}

#[test]
fn the_board_offers_the_moves_in_the_record_s_figurines() {
    let fan = testdata_text("examples/04-fan.ctl-pgn");
    let mut open = Open::new("fan", &fan, false);
    let answer = open.board(Marked::within(&fan, "~♝ recaptures }$0\n*").offset());
    assert_eq!(answer["side"], "white");
    // The Pegasus in its astral figurine, the Knight in its BMP one.
    insta::assert_snapshot!("white_s_moves_after_the_last_one", moves(&answer));
    // In the tags: the moves of the starting position.
    let answer = open.board(Marked::within(&fan, "[V$0ariant").offset());
    insta::assert_snapshot!("white_s_moves_in_the_tags", moves(&answer));
}

/// The `moves` of a board answer, one a line: the text, then the hexes from and to.
fn moves(answer: &Value) -> String {
    let moves = answer["moves"].as_array().expect("moves");
    moves
        .iter()
        .map(|playable| {
            let hex = |field: &str| playable[field].as_str().unwrap_or("?").to_string();
            format!("{} {}→{}\n", hex("text"), hex("from"), hex("to"))
        })
        .collect()
}

/// The last five lines of `text`, with `range` marked `$0`.
fn last_lines(text: &str, range: std::ops::Range<usize>) -> String {
    let marked = mark(text, range);
    let start = marked.match_indices('\n').rev().nth(5).map_or(0, |(at, _)| at + 1);
    marked[start..].to_string()
}

fn texts_at(open: &mut Open, at: usize) -> Vec<String> {
    texts(&open.board(at)).into_iter().map(str::to_string).collect()
}

#[test]
fn no_moves_are_offered_where_the_position_is_not_known() {
    let broken = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6, NE21-E17:\n*\n";
    let mut open = Open::new("broken", broken, false);
    let after = open.board(Marked::within(broken, "$0*\n").offset());
    assert_eq!(after["exact"], false);
    assert_eq!(after.get("moves"), None, "{after}");
    let before = open.board(Marked::within(broken, "K4-K6$0, NE21").offset());
    assert!(texts(&before).contains(&"E21-E19"));
}

#[test]
fn a_half_move_played_is_written_where_the_handbook_puts_it_in_utf16_and_utf8() {
    let fan = testdata_text("examples/04-fan.ctl-pgn");
    for utf8 in [false, true] {
        let mut open = Open::new("fan", &fan, utf8);
        let end = Marked::within(&fan, "~♝ recaptures }$0\n*").offset();
        let pegasus = texts_at(&mut open, end)
            .into_iter()
            .find(|text| text.starts_with('\u{1FA50}'))
            .expect("a Pegasus move");
        let range = open.play(end, &pegasus);
        // After the last move's comments, before the result; the end mark moved.
        insta::allow_duplicates! {
            insta::assert_snapshot!(last_lines(&open.text, range.clone()), @"
            9. E15@D18, ♗F24×D18
            { @W: en passant: ~♙E15 lands on ~D18 and the pawn on ~D16 is removed }
            { @B: ~♝ recaptures }
            10. $0🩐D2-E5$0:
            *
            ");
        }
        // The board at the range stands on the new half-move.
        let answer = open.board(range.start);
        assert_eq!(answer["move"], format!("10. {pegasus}"));
        assert_eq!(answer["side"], "black");
        assert_eq!(answer["exact"], true);
        // Black answers on the same move line.
        let reply = texts_at(&mut open, range.end)[0].clone();
        let black = open.play(range.end, &reply);
        insta::allow_duplicates! {
            insta::assert_snapshot!(last_lines(&open.text, black), @"
            9. E15@D18, ♗F24×D18
            { @W: en passant: ~♙E15 lands on ~D18 and the pawn on ~D16 is removed }
            { @B: ~♝ recaptures }
            10. 🩐D2-E5, $0🩏F28-E23$0:
            *
            ");
        }
    }
}

#[test]
fn from_an_earlier_move_a_variation_is_written_and_a_move_already_there_is_not() {
    let game = "[Variant \"C'escacs\"]\n[White \"Pérez, Núria\"]\n[Result \"*\"]\n\n1. K4-K6, E21-E19\n2. JF6\u{2010}B18, EE23-D20\n3. H6-H10, E19\u{d7}F16:\n*\n";
    let mut open = Open::new("game", game, false);
    let on_second = Marked::within(game, "JF$06\u{2010}B18").offset();
    // The half-move that follows: nothing written, the range is that half-move.
    let same = open.play(on_second, "EE23-D20");
    assert_eq!(open.text, game);
    assert_eq!(&game[same], "EE23-D20");
    // Another one: a variation after the move line it replaces.
    let other = open.play(on_second, "F20-F18");
    insta::assert_snapshot!(mark(&open.text, other.clone()), @r#"
    [Variant "C'escacs"]
    [White "Pérez, Núria"]
    [Result "*"]

    1. K4-K6, E21-E19
    2. JF6‐B18, EE23-D20
    (2. …, $0F20-F18$0)
    3. H6-H10, E19×F16:
    *
    "#);
    let answer = open.board(other.end);
    assert_eq!(answer["move"], "2. \u{2026}, F20-F18");
    assert_eq!(answer["exact"], true);
    // Played again from the same place: the variation is there now.
    let again = open.play(on_second, "F20-F18");
    assert_eq!(again, other);
}

#[test]
fn an_illegal_half_move_is_refused_with_its_reason() {
    let game = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6:\n*\n";
    let mut open = Open::new("refused", game, false);
    let error = open.refusal(Marked::within(game, "K4-K6$0:").offset(), "E21-E13");
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(error["message"], "`E21-E13` is not a half-move Black may play here");
    let broken = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6, NE21-E17:\n*\n";
    let mut open = Open::new("unknown", broken, false);
    let error = open.refusal(Marked::within(broken, "$0*\n").offset(), "E7-E9");
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(error["message"], "nothing can be played here: no position is known there");
    // A document that is not open: no answer.
    let nowhere = json!({"textDocument": {"uri": uri("nowhere"), "version": 1}, "move": "K4-K6"});
    let unopened = ask(&mut open.client, "ctlpgn/play", "nowhere", broken, 0, false, nowhere);
    assert_eq!(unopened, Ok(Value::Null));
}

/// Two records, the second one's moves after the first one's: where the issue's play of a
/// stale place landed.
const TWO_RECORDS: &str = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6, E21-E19:\n*\n\n[Variant \"C'escacs\"]\n[Result \"*\"]\n\n1. K4-K6, E21-E19\n2. F8-F12, F20-F16:\n*\n";

/// The params of `ctlpgn/play` at an LSP `position` of the document `name`, read in `version`.
fn play_params(name: &str, version: i32, position: &Value, half_move: &str) -> Value {
    json!({"textDocument": {"uri": uri(name), "version": version}, "position": position, "move": half_move})
}

/// The line that opens `lines` comment lines, as a client inserts it at the start of a line.
fn comment_lines(lines: usize) -> String {
    (0..lines).map(|line| format!("{{ comment {line} }}\n")).collect()
}

#[test]
fn a_play_at_a_place_read_in_an_older_version_is_refused_and_writes_nothing() {
    let mut open = Open::new("stale", TWO_RECORDS, false);
    // The board at the end of the second record's move line, in version 1.
    let end = Marked::within(TWO_RECORDS, "F20-F16:$0").offset();
    let board = open.board(end);
    assert_eq!(board["version"], 1);
    assert_eq!(board["record"], 2);
    let place = position(TWO_RECORDS, end, false);
    // Twelve comment lines added to the first record, after its move line: version 2.
    let after_first = Marked::within(TWO_RECORDS, "E21-E19:\n$0*\n\n").offset();
    let inserted = position(TWO_RECORDS, after_first, false);
    let comments = comment_lines(12);
    open.client.change(
        &uri("stale"),
        2,
        json!([{"range": {"start": inserted, "end": inserted}, "text": comments}]),
    );
    // Read in version 2, the old place is in the first record: the play is refused.
    let stale = open.client.request("ctlpgn/play", play_params("stale", 1, &place, "E7-E9"));
    let error = stale.expect_err("a refusal");
    assert_eq!(error["code"], -32801, "{error}");
    assert_eq!(
        error["message"],
        "the document changed since the position was read (version 1, now 2): ask for the board again"
    );
    // Asked again in version 2, the same half-move lands after the second record's moves.
    open.text.insert_str(after_first, &comments);
    open.version = 2;
    let range = open.play(end + comments.len(), "G7-G9");
    insta::assert_snapshot!(last_lines(&open.text, range), @"

    1. K4-K6, E21-E19
    2. F8-F12, F20-F16
    3. $0G7-G9$0:
    *
    ");
    assert!(open.text.starts_with(&format!("{}{comments}*\n", &TWO_RECORDS[..after_first])));
}

#[test]
fn plays_pipelined_with_a_change_are_refused_once_it_is_applied() {
    let mut open = Open::new("pipelined", TWO_RECORDS, false);
    let end = Marked::within(TWO_RECORDS, "F20-F16:$0").offset();
    let place = position(TWO_RECORDS, end, false);
    assert_eq!(open.board(end)["version"], 1);
    // One play read in version 1, a line inserted at the top, then twenty more plays read in
    // version 1 and one read in version 2, all sent before any answer is read.
    let first =
        open.client.send_request("ctlpgn/play", play_params("pipelined", 1, &place, "G7-G9"));
    let top = json!({"line": 0, "character": 0});
    open.client.change(
        &uri("pipelined"),
        2,
        json!([{"range": {"start": top, "end": top}, "text": "{ a note }\n"}]),
    );
    let stale: Vec<Value> = (0..20)
        .map(|_| {
            open.client.send_request("ctlpgn/play", play_params("pipelined", 1, &place, "G7-G9"))
        })
        .collect();
    let moved = json!({"line": place["line"].as_u64().expect("a line") + 1, "character": place["character"]});
    let current =
        open.client.send_request("ctlpgn/play", play_params("pipelined", 2, &moved, "G7-G9"));
    let mut ids = vec![first.clone(), current.clone()];
    ids.extend(stale.iter().cloned());
    let answers = open.client.arrivals(&ids);
    let answer =
        |id: &Value| &answers.iter().find(|(arrived, _)| arrived == id).expect("answered").1;
    // The play sent before the change stands in version 1, the one read after it in version 2.
    for (id, version) in [(&first, 1), (&current, 2)] {
        let played = answer(id).as_ref().unwrap_or_else(|error| panic!("{error}"));
        let change = &played["edit"]["documentChanges"][0];
        assert_eq!(change["textDocument"]["version"], version);
        assert_eq!(change["edits"][0]["newText"], "\n3. G7-G9:");
        let line = played["range"]["start"]["line"].as_u64().expect("a line");
        assert_eq!(line, place["line"].as_u64().expect("a line") + u64::from(version == 2) + 1);
    }
    for id in &stale {
        let error = answer(id).as_ref().expect_err("refused");
        assert_eq!(error["code"], -32801, "{error}");
    }
}

#[test]
fn a_play_without_a_version_or_with_positional_params_is_refused() {
    let mut open = Open::new("unversioned", TWO_RECORDS, false);
    let place = position(TWO_RECORDS, Marked::within(TWO_RECORDS, "F20-F16:$0").offset(), false);
    let unversioned =
        json!({"textDocument": {"uri": uri("unversioned")}, "position": place, "move": "G7-G9"});
    let error = open.client.request("ctlpgn/play", unversioned).expect_err("a refusal");
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(
        error["message"],
        "ctlpgn/play needs textDocument.version: the version of the document its position was \
         read in (the version of the ctlpgn/board answer it plays from)"
    );
    let positional = json!([{"uri": uri("unversioned"), "version": 1}, place, "G7-G9"]);
    let error = open.client.request("ctlpgn/play", positional).expect_err("a refusal");
    assert_eq!(error["code"], -32602, "{error}");
    let board = json!([{"uri": uri("unversioned")}, place]);
    let error = open.client.request("ctlpgn/board", board).expect_err("a refusal");
    assert_eq!(error["code"], -32602, "{error}");
    assert_eq!(
        error["message"],
        "invalid type: sequence, expected the parameters as an object, by name"
    );
}
