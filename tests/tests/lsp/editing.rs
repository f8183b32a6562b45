//! Editing: a burst of incremental changes, sent without waiting as a fast typist's editor
//! sends them, ends with the diagnostics of the final text at the final version, never with
//! a stale result published after a newer one.

use ctlpgn_test_support::positions::{offset, Encoding};
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, Client};

/// One content change: the range it replaces (0-based lines, UTF-16 columns) and the new text.
type Change = ((u32, u32), (u32, u32), String);

/// Applies a change to the client's copy of the text, as the server must.
fn apply(text: &mut String, (start, end, new): &Change) {
    let at = |(line, character): (u32, u32)| {
        offset(text, line.into(), character.into(), Encoding::Utf16)
    };
    let range = at(*start)..at(*end);
    text.replace_range(range, new);
}

fn encode(changes: &[Change]) -> Value {
    changes
        .iter()
        .map(|(start, end, text)| {
            json!({"range": {"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}}, "text": text})
        })
        .collect()
}

/// Typing `typed` one character at a time from a position.
fn typing(typed: &str, (line, mut character): (u32, u32)) -> Vec<Vec<Change>> {
    typed
        .chars()
        .map(|c| {
            let at = (line, character);
            character += c.len_utf16() as u32;
            vec![(at, at, c.to_string())]
        })
        .collect()
}

/// Fifty edits of a real game: a comment typed into the middle, changes of two parts each
/// (whose order matters), the comment deleted, a move broken, a variation and a comment typed.
fn fifty_edits() -> Vec<Vec<Change>> {
    let mut edits = typing("{Nota: × … 🩐 é}\n", (40, 0));
    for _ in 0..10 {
        // Applied in the wrong order, the deletion would take the line's first character.
        edits.push(vec![((45, 0), (45, 0), "9".to_string()), ((45, 0), (45, 1), String::new())]);
    }
    edits.push(vec![((40, 0), (41, 0), String::new())]);
    edits.push(vec![((9, 3), (9, 8), "K4-K5".to_string())]);
    edits.extend(typing("(1. …, E21-E17)\n", (10, 0)));
    edits.extend(typing("{Fi.}\n", (12, 0)));
    edits
}

#[test]
fn fifty_rapid_edits_end_with_the_final_diagnostics_and_nothing_stale() {
    let mut text = ctlpgn_test_support::fixtures::testdata_text("corpus/valid/g0001.ctl-pgn");
    let edits = fifty_edits();
    assert_eq!(edits.len(), 50);
    let mut client = Client::start(utf16_client());
    client.open(&uri("edited"), &text);
    for (version, changes) in (2..).zip(&edits) {
        client.change(&uri("edited"), version, encode(changes));
        for change in changes {
            apply(&mut text, change);
        }
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
    // Line 7,002 is `7001. NG3-H8, NG25-I15`: the Knight goes to I7 instead, one character at
    // a time, so that the next move no longer plays; then a comment is typed on a line of its
    // own after it.
    let mut edits = vec![vec![((7_002, 10), (7_002, 12), String::new())]];
    edits.extend(typing("I7", (7_002, 10)));
    edits.extend(typing("{…}\n", (7_003, 0)));
    for (version, changes) in (2..).zip(&edits) {
        client.change(&large, version, encode(changes));
        for change in changes {
            apply(&mut text, change);
        }
        if version == 4 {
            // The Knight's move now reads `NG3-I7`: its hover says so.
            let hover = client.at("textDocument/hover", &large, 7_002, 7).expect("a hover");
            let words = hover["contents"]["value"].as_str().unwrap_or_default();
            assert!(words.contains("I7"), "{words}");
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
