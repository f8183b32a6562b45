//! Hovers over the protocol: a replayed half-move shows the corpus's PDTL after it and the
//! board, in both position encodings; a half-move that failed shows why; a hover off any
//! half-move, past the end of a line or below the text is empty, never an error.

use serde_json::Value;

use crate::client::{uri, utf16_client, utf8_client, Client};

/// The corpus game g0001 and its sidecar of expected positions.
fn game() -> (String, Value) {
    let dir = ctlpgn_tests::shared_dir().join("corpus/valid");
    let text = std::fs::read_to_string(dir.join("g0001.ctl-pgn")).expect("the corpus game g0001");
    let sidecar = std::fs::read_to_string(dir.join("g0001.expected.json")).expect("the sidecar of g0001");
    (text, serde_json::from_str(&sidecar).expect("a JSON sidecar"))
}

/// The position of the start of `needle` on a 0-based line, in the encoding's units.
fn position_of(text: &str, line: usize, needle: &str, utf8: bool) -> (u32, u32) {
    let content = text.lines().nth(line).expect("the line exists");
    let before = &content[..content.find(needle).expect("the needle is on the line")];
    let units = if utf8 { before.len() } else { before.encode_utf16().count() };
    (line as u32, units as u32)
}

/// Hovers over ply `ply` (1-based) of g0001 and checks the answer against the sidecar.
fn check_ply(ply: usize, capabilities: Value, utf8: bool) {
    let (text, expected) = game();
    let ply = &expected["plies"][ply - 1];
    let line = ply["line"].as_u64().expect("a line") as usize - 1;
    let written = ply["move"].as_str().expect("a move");
    let (line, start) = position_of(&text, line, written, utf8);
    let mut client = Client::start(capabilities);
    client.open(&uri("g0001"), &text);
    let hover = client.at("textDocument/hover", &uri("g0001"), line, start + 1).expect("a hover answer");
    let markdown = hover["contents"]["value"].as_str().expect("Markdown contents");
    assert_eq!(hover["contents"]["kind"], "markdown");
    let pdtl = ply["pdtl"].as_str().expect("a PDTL");
    assert!(markdown.contains(&format!("PDTL `{pdtl}`")), "{markdown}");
    let turn = if ply["turn"] == "w" { "White to move." } else { "Black to move." };
    assert!(markdown.contains(turn), "{markdown}");
    assert!(markdown.contains("```text\n28                "), "{markdown}");
    assert!(markdown.contains("    P T A B C D E F G H I K L X Z\n```"), "{markdown}");
    let length = if utf8 { written.len() } else { written.encode_utf16().count() } as u32;
    assert_eq!(hover["range"]["start"], serde_json::json!({"line": line, "character": start}));
    assert_eq!(hover["range"]["end"], serde_json::json!({"line": line, "character": start + length}));
}

#[test]
fn a_half_move_shows_the_position_after_it_in_utf16() {
    // Ply 20, 10. …, H22-H16, stands after a × on its line.
    check_ply(20, utf16_client(), false);
    check_ply(4, utf16_client(), false);
}

#[test]
fn a_half_move_shows_the_position_after_it_in_utf8() {
    check_ply(20, utf8_client(), true);
}

#[test]
fn a_half_move_shows_the_move_in_words_and_marks_its_hexes() {
    let (text, _) = game();
    let mut client = Client::start(utf16_client());
    client.open(&uri("g0001"), &text);
    let (line, start) = position_of(&text, 10, "EE23-D20", false);
    let hover = client.at("textDocument/hover", &uri("g0001"), line, start).expect("a hover answer");
    let markdown = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(markdown.starts_with("**2. …, EE23-D20** · Black Elephant E23 to D20\n"), "{markdown}");
    assert!(markdown.contains("\n23      p   p  [·]  e   p   p\n"), "{markdown}");
    assert!(markdown.contains("\n20    ·   ·  [e]  p   ·   ·   ·\n"), "{markdown}");
}

#[test]
fn a_half_move_that_failed_shows_the_finding_and_the_position_before_it() {
    let (text, _) = game();
    let broken = text.replace("10. JC21×G21, H22-H16", "10. JC21×G21, NH22-H16");
    let mut client = Client::start(utf16_client());
    client.open(&uri("broken"), &broken);
    let (line, start) = position_of(&broken, 18, "NH22", false);
    let hover = client.at("textDocument/hover", &uri("broken"), line, start).expect("a hover answer");
    let markdown = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(markdown.starts_with("**10. …, NH22-H16** · not replayed\n\n- K003 `origin-wrong-piece`: H22 holds a pawn"), "{markdown}");
    assert!(markdown.contains("Last known position, after 10. JC21×G21:"), "{markdown}");
    assert!(markdown.contains("Black to move."), "{markdown}");
}

#[test]
fn a_hover_off_a_half_move_past_a_line_end_or_below_the_text_is_empty() {
    let (text, _) = game();
    let mut client = Client::start(utf16_client());
    client.open(&uri("g0001"), &text);
    for (line, character) in [(0, 3), (18, 500), (18, u32::MAX), (10_000, 0), (u32::MAX, u32::MAX)] {
        let hover = client.at("textDocument/hover", &uri("g0001"), line, character);
        assert_eq!(hover, Ok(Value::Null), "at {line}:{character}");
    }
}
