//! Editing: a burst of incremental changes, sent without waiting as a fast typist's editor
//! sends them, ends with the diagnostics of the final text at the final version, never with
//! a stale result published after a newer one.

use std::ops::Range;

use ctlpgn_test_support::cursor::Marked;
use ctlpgn_test_support::positions::{lsp_range, Encoding};
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, Client};

/// One content change: the bytes it replaces, of the text as the changes before it left it,
/// and the new text.
type Change = (Range<usize>, String);

/// The edits a test sends, each written where a snippet marks it (`Marked::within`) in the
/// text as the edits before it leave it, rather than at a line and a character counted by hand.
struct Script {
    text: String,
    edits: Vec<Vec<Change>>,
}

impl Script {
    fn new(text: &str) -> Script {
        Script { text: text.to_string(), edits: Vec::new() }
    }

    /// The byte offset `snippet` marks in the text as it stands.
    fn at(&self, snippet: &str) -> usize {
        Marked::within(&self.text, snippet).offset()
    }

    /// One edit of `changes`, applied in order.
    fn edit(&mut self, changes: Vec<Change>) {
        for change in &changes {
            apply(&mut self.text, change);
        }
        self.edits.push(changes);
    }

    /// Typing `typed` one character at a time, one edit each, where `snippet` marks.
    fn typing(&mut self, snippet: &str, typed: &str) {
        let mut at = self.at(snippet);
        for c in typed.chars() {
            self.edit(vec![(at..at, c.to_string())]);
            at += c.len_utf8();
        }
    }
}

fn apply(text: &mut String, (range, new): &Change) {
    text.replace_range(range.clone(), new);
}

/// Sends one edit as a `didChange` in UTF-16 units, and applies it to the client's copy of the
/// text, each change placed in the text as the changes before it left it, as the server must.
fn send(client: &mut Client, document: &str, version: i32, text: &mut String, edit: &[Change]) {
    let mut changes = Vec::new();
    for change in edit {
        let range = lsp_range(text, change.0.clone(), Encoding::Utf16);
        changes.push(json!({"range": range, "text": change.1}));
        apply(text, change);
    }
    client.change(document, version, Value::Array(changes));
}

/// Fifty edits of a real game: a comment typed into the middle, changes of two parts each
/// (whose order matters), the comment deleted, a move broken, a variation and a comment typed.
fn fifty_edits(text: &str) -> Vec<Vec<Change>> {
    let mut script = Script::new(text);
    script.typing("\n$032. EH4×GH6", "{Nota: × … 🩐 é}\n");
    for _ in 0..10 {
        // Applied in the wrong order, the deletion would take the line's first character.
        let at = script.at("\n$036. RI3-I23");
        script.edit(vec![(at..at, "9".to_string()), (at..at + 1, String::new())]);
    }
    let comment = script.at("\n$0{Nota:");
    let after = script.at("é}\n$032. EH4");
    script.edit(vec![(comment..after, String::new())]);
    let first = script.at("1. $0K4-K6,");
    script.edit(vec![(first..first + "K4-K6".len(), "K4-K5".to_string())]);
    script.typing("\n$02. JF6-B18", "(1. …, E21-E17)\n");
    script.typing("\n$03. H6-H10", "{Fi.}\n");
    script.edits
}

#[test]
fn fifty_rapid_edits_end_with_the_final_diagnostics_and_nothing_stale() {
    let mut text = ctlpgn_test_support::fixtures::testdata_text("corpus/valid/g0001.ctl-pgn");
    let edits = fifty_edits(&text);
    assert_eq!(edits.len(), 50);
    let mut client = Client::start(utf16_client());
    client.open(&uri("edited"), &text);
    for (version, edit) in (2..).zip(&edits) {
        send(&mut client, &uri("edited"), version, &mut text, edit);
    }
    let published = client.published_until(&uri("edited"), 51);
    let versions: Vec<i64> = published.iter().map(|p| p["version"].as_i64().unwrap_or(0)).collect();
    assert!(
        versions.windows(2).all(|pair| pair[0] < pair[1]),
        "versions out of order: {versions:?}"
    );
    assert!(client.pushed_so_far().is_empty(), "something was published after the final version");

    // The same text opened afresh gives the same diagnostics.
    client.open(&uri("fresh"), &text);
    let fresh = client.published(&uri("fresh"));
    let last = published.last().expect("the final diagnostics");
    assert_eq!(last["diagnostics"], fresh["diagnostics"]);
    let codes: Vec<&str> = last["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["code"].as_str())
        .collect();
    assert!(codes.contains(&"C003"), "the broken move is reported: {codes:?}");
}

/// A record too large to check at every keystroke (a program's output: a Knight of each side
/// out and back, 14,000 times, about 280 KB) is checked once the typing pauses: a burst of
/// changes ends with the diagnostics of the final version, none of an older one after them; a
/// request in the middle of the burst answers from the text as it is then.
#[test]
fn typing_into_a_record_too_large_to_check_per_keystroke_ends_with_the_final_diagnostics() {
    let mut text = ctlpgn_test_support::fixtures::knights_out_and_back(14_000, false);
    let mut client = Client::start(utf16_client());
    let large = uri("large");
    client.open(&large, &text);
    assert_eq!(client.published(&large)["version"], 1);
    // The Knight of `7001. NG3-H8, NG25-I15` goes to I7 instead, one character at a time, so
    // that the next move no longer plays; then a comment is typed on a line of its own after it.
    let mut script = Script::new(&text);
    let knight = script.at("\n7001. NG3-$0H8");
    script.edit(vec![(knight..knight + 2, String::new())]);
    script.typing("\n7001. NG3-$0, NG25", "I7");
    script.typing("NG25-I15\n$07002. ", "{…}\n");
    let edits = script.edits;
    for (version, edit) in (2..).zip(&edits) {
        send(&mut client, &large, version, &mut text, edit);
        if version == 4 {
            // The Knight's move now reads `NG3-I7`: its hover says so.
            let place = Marked::within(&text, "\n7001. N$0G3-I7,");
            let hover = client.at_cursor("textDocument/hover", &large, &place).expect("a hover");
            let words = hover["contents"]["value"].as_str().unwrap_or_default();
            insta::assert_snapshot!(words.lines().next().unwrap_or_default(), @"**7001. NG3-I7** · White Knight G3 to I7");
        }
    }
    let last = 1 + edits.len() as i32;
    let published = client.published_until(&large, last);
    let versions: Vec<i64> = published.iter().map(|p| p["version"].as_i64().unwrap_or(0)).collect();
    assert!(versions.windows(2).all(|pair| pair[0] < pair[1]), "out of order: {versions:?}");
    assert!(client.pushed_so_far().is_empty(), "something was published after the final version");
    client.open(&uri("fresh"), &text);
    let fresh = client.published(&uri("fresh"));
    let final_diagnostics = &published.last().expect("the final diagnostics")["diagnostics"];
    assert_eq!(final_diagnostics, &fresh["diagnostics"]);
    let lines: Vec<i64> = final_diagnostics
        .as_array()
        .into_iter()
        .flatten()
        .filter(|found| found["severity"] == 1)
        .filter_map(|found| found["range"]["start"]["line"].as_i64())
        .collect();
    assert_eq!(lines, [7_004], "the next move no longer plays");
}
