//! Hovers over the protocol: a replayed half-move shows the corpus's PDTL after it and the
//! board, in both position encodings; a half-move that failed shows why; a coordinate shows
//! its hex and what stands on it, a tag name its catalogue entry, a comment reference the
//! position after what it names, a PDTL value its board; each after `×`, `…`, accented
//! names or FAN figurines, in UTF-16 and UTF-8 clients. A hover off all of these, past the end
//! of a line, below the text or in an unknown document is empty, never an error.

use serde_json::Value;

use crate::client::{uri, utf16_client, utf8_client, Client};

/// The corpus game g0001 and its sidecar of expected positions.
fn game() -> (String, Value) {
    let dir = ctlpgn_test_support::fixtures::testdata_dir().join("corpus/valid");
    let text = std::fs::read_to_string(dir.join("g0001.ctl-pgn")).expect("the corpus game g0001");
    let sidecar =
        std::fs::read_to_string(dir.join("g0001.expected.json")).expect("the sidecar of g0001");
    (text, serde_json::from_str(&sidecar).expect("a JSON sidecar"))
}

/// The width of the text board: a text client's hover has no prose line wider, unless a code
/// line (the PDTL) is wider still.
const BOARD_WIDTH: usize = 34;

/// The hover as a reader sees it rendered. A text client's hover is fitted to its widest code
/// line: paragraphs and list items wrapped (a line break inside one reads as a blank), the PDTL
/// whole on the one line of its code block. This checks that no line is wider than the widest
/// code line and that the PDTL's block holds one line, and joins the prose back so that the
/// checks read whole sentences; the PDTL's block reads `PDTL `…``.
fn rendered(markdown: &str) -> String {
    if markdown.contains("```text") {
        let mut in_code = false;
        let mut widest = BOARD_WIDTH;
        for line in markdown.lines() {
            if line.starts_with("```") {
                in_code = !in_code;
            } else if in_code {
                widest = widest.max(line.chars().count());
            }
        }
        for line in markdown.lines() {
            assert!(
                line.chars().count() <= widest,
                "{line:?} is wider than the widest code line:\n{markdown}"
            );
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        if let Some(block) = &mut code {
            if line != "```" {
                block.push(line);
                continue;
            }
            let block = code.take().unwrap_or_default();
            if out.last().is_some_and(|last| last.is_empty())
                && out.len() >= 2
                && out[out.len() - 2].ends_with("PDTL:")
            {
                assert_eq!(block.len(), 1, "the PDTL on one line:\n{markdown}");
                out.pop();
                let turn = out.pop().unwrap_or_default();
                out.push(format!("{} PDTL `{}`", turn.trim_end_matches(" PDTL:"), block[0]));
            } else {
                out.push("```text".to_string());
                out.extend(block.iter().map(|line| line.to_string()));
                out.push("```".to_string());
            }
            continue;
        }
        if line == "```text" {
            code = Some(Vec::new());
            continue;
        }
        let continues = !line.is_empty()
            && !line.starts_with("- ")
            && !line.starts_with("---")
            && out
                .last()
                .is_some_and(|last| !last.is_empty() && last != "```" && !last.starts_with("---"));
        match out.last_mut() {
            Some(last) if continues => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ => out.push(line.to_string()),
        }
    }
    let mut joined = out.join("\n");
    if markdown.ends_with('\n') {
        joined.push('\n');
    }
    joined
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
    // On the separator: the coordinates around it have hovers of their own.
    let separator = written.find(['-', '×']).expect("a separator");
    let separator =
        if utf8 { separator } else { written[..separator].encode_utf16().count() } as u32;
    let hover = client
        .at("textDocument/hover", &uri("g0001"), line, start + separator)
        .expect("a hover answer");
    let markdown = rendered(hover["contents"]["value"].as_str().expect("Markdown contents"));
    assert_eq!(hover["contents"]["kind"], "markdown");
    let pdtl = ply["pdtl"].as_str().expect("a PDTL");
    assert!(markdown.contains(&format!("PDTL `{pdtl}`")), "{markdown}");
    let turn = if ply["turn"] == "w" { "White to move." } else { "Black to move." };
    assert!(markdown.contains(turn), "{markdown}");
    assert!(markdown.contains("```text\n28                "), "{markdown}");
    assert!(markdown.contains("    P T A B C D E F G H I K L X Z\n```"), "{markdown}");
    let length = if utf8 { written.len() } else { written.encode_utf16().count() } as u32;
    assert_eq!(hover["range"]["start"], serde_json::json!({"line": line, "character": start}));
    assert_eq!(
        hover["range"]["end"],
        serde_json::json!({"line": line, "character": start + length})
    );
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
    let hover =
        client.at("textDocument/hover", &uri("g0001"), line, start).expect("a hover answer");
    let markdown = rendered(hover["contents"]["value"].as_str().unwrap_or(""));
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
    let hover =
        client.at("textDocument/hover", &uri("broken"), line, start).expect("a hover answer");
    let markdown = rendered(hover["contents"]["value"].as_str().unwrap_or(""));
    assert!(
        markdown.starts_with(
            "**10. …, NH22-H16** · not replayed\n\n- K003 `origin-wrong-piece`: H22 holds a pawn"
        ),
        "{markdown}"
    );
    assert!(markdown.contains("Last known position, after 10. JC21×G21:"), "{markdown}");
    assert!(markdown.contains("Black to move."), "{markdown}");
}

#[test]
fn a_hover_off_a_half_move_past_a_line_end_or_below_the_text_is_empty() {
    let (text, _) = game();
    let mut client = Client::start(utf16_client());
    client.open(&uri("g0001"), &text);
    // The bracket of a tag, a blank line, past the end of a line, below the text.
    for (line, character) in
        [(0, 0), (8, 0), (18, 500), (18, u32::MAX), (10_000, 0), (u32::MAX, u32::MAX)]
    {
        let hover = client.at("textDocument/hover", &uri("g0001"), line, character);
        assert_eq!(hover, Ok(Value::Null), "at {line}:{character}");
    }
}

/// A game with accented names, `…` and `×` before the positions under test.
const GAME: &str = "\
[Variant \"C'escacs\"]
[Event \"CG\"]
[Site \"Moià (Barcelona), Catalunya ESP\"]
[White \"Pérez, Núria\"]
[Black \"Vidal, Marc\"]
[Result \"*\"]
{ Núria… opens: ~F8 }
1. E7-E13, E21-E15
2. F8-F12, F20-F16
3. E13×F16, E15×F12
{ @B: the answer… to #3@W; now ~F12 }
($[1] 3. …, EE23-E19)
{ compare #3.1 and #3@B }
4. EG5-F8, EG23-F20:
*
";

/// The canonical PDTL after `3. E13×F16`, worked out by hand from the handbook's §9.8.
const AFTER_WHITE_3: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/16:3P3/15:3p4/12:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr - 0 3";

/// The canonical PDTL at the end of the variation `$[1]`, `3. …, EE23-E19`.
const AFTER_VARIATION: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:pp1epp/22:2pjp2/21:4p3/19:3e4/16:3P3/15:3p4/12:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 1 4";

/// The hover at the start of `needle` on a 0-based line of `text` (opened as `name`): its
/// Markdown and its range as `(line, start, end)` in the encoding's units.
fn hover_on(
    client: &mut Client,
    name: &str,
    text: &str,
    line: usize,
    needle: &str,
    utf8: bool,
) -> (String, (u64, u64, u64)) {
    let (line, character) = position_of(text, line, needle, utf8);
    let hover =
        client.at("textDocument/hover", &uri(name), line, character).expect("a hover answer");
    let markdown = rendered(
        hover["contents"]["value"]
            .as_str()
            .unwrap_or_else(|| panic!("a hover on {needle}: {hover}")),
    );
    let range = &hover["range"];
    let number = |value: &Value| value.as_u64().expect("a number");
    (
        markdown,
        (
            number(&range["start"]["line"]),
            number(&range["start"]["character"]),
            number(&range["end"]["character"]),
        ),
    )
}

/// The range `needle` covers on a 0-based line, in the encoding's units.
fn span(text: &str, line: usize, needle: &str, utf8: bool) -> (u64, u64, u64) {
    let (line, start) = position_of(text, line, needle, utf8);
    let length = if utf8 { needle.len() } else { needle.encode_utf16().count() };
    (u64::from(line), u64::from(start), u64::from(start) + length as u64)
}

fn clients() -> [(Value, bool); 2] {
    [(utf16_client(), false), (utf8_client(), true)]
}

#[test]
fn a_coordinate_of_a_half_move_shows_its_hex_before_and_after_it() {
    for (capabilities, utf8) in clients() {
        let mut client = Client::start(capabilities);
        client.open(&uri("game"), GAME);
        // `F12` stands after two `×` on its line.
        let (markdown, range) = hover_on(&mut client, "game", GAME, 9, "F12", utf8);
        assert_eq!(range, span(GAME, 9, "F12", utf8), "utf8: {utf8}");
        // The half-move, whose turn it is and the PDTL first, then the hex, then the board.
        assert!(
            markdown.starts_with("**3. …, E15×F12** · Black pawn E15 takes the pawn on F12\n\nWhite to move. PDTL `/28:v/"),
            "{markdown}"
        );
        assert!(markdown.contains("`\n\n**F12** · column F (the central column, lines 0 to 28) · line 12 · a black hex\n\n- before 3. …, E15×F12: White pawn `P`\n- after it: Black pawn `p`\n\n```text\n28 "), "{markdown}");
    }
}

#[test]
fn a_coordinate_in_a_comment_shows_the_hex_after_the_half_move_before_the_comment() {
    for (capabilities, utf8) in clients() {
        let mut client = Client::start(capabilities);
        client.open(&uri("game"), GAME);
        let (markdown, range) = hover_on(&mut client, "game", GAME, 10, "~F12", utf8);
        assert_eq!(range, span(GAME, 10, "~F12", utf8), "utf8: {utf8}");
        assert!(markdown.starts_with("**F12** · column F"), "{markdown}");
        assert!(
            markdown.contains(
                "After 3. …, E15×F12, the last half-move before this comment: Black pawn `p`."
            ),
            "{markdown}"
        );
        let (start, _) = hover_on(&mut client, "game", GAME, 6, "~F8", utf8);
        assert!(start.contains("At the start of the record: White pawn `P`."), "{start}");
    }
}

#[test]
fn a_tag_name_shows_its_meaning_values_and_position() {
    for (capabilities, utf8) in clients() {
        let mut client = Client::start(capabilities);
        client.open(&uri("game"), GAME);
        let (markdown, range) = hover_on(&mut client, "game", GAME, 2, "Site", utf8);
        assert_eq!(range, (2, 1, 5));
        assert!(
            markdown.starts_with(
                "**Site** · Where the game was played.\n\n**Values:** `City, Region CCC`"
            ),
            "{markdown}"
        );
        assert!(markdown.contains("**Position:** Roster 2: after Event."), "{markdown}");
        let (result, _) = hover_on(&mut client, "game", GAME, 5, "Result", utf8);
        assert!(result.contains("`1-2` Black stalemates White"), "{result}");
    }
}

#[test]
fn a_comment_reference_shows_what_it_names_and_the_position_after_it() {
    for (capabilities, utf8) in clients() {
        let mut client = Client::start(capabilities);
        client.open(&uri("game"), GAME);
        // `#3@W` stands after `…` on its line.
        let (markdown, range) = hover_on(&mut client, "game", GAME, 10, "#3@W", utf8);
        assert_eq!(range, span(GAME, 10, "#3@W", utf8), "utf8: {utf8}");
        assert!(markdown.starts_with("**#3@W** · 3. E13×F16\n\nAfter 3. E13×F16: White pawn E13 takes the pawn on F16.\n\n"), "{markdown}");
        assert!(markdown.contains(&format!("PDTL `{AFTER_WHITE_3}`")), "{markdown}");
        assert!(markdown.contains("Black to move."), "{markdown}");
        let (variation, _) = hover_on(&mut client, "game", GAME, 12, "#3.1", utf8);
        assert!(
            variation.starts_with(
                "**#3.1** · the variation `$[1]` of move 3: ($[1] 3. …, EE23-E19)\n\n"
            ),
            "{variation}"
        );
        assert!(variation.contains(&format!("PDTL `{AFTER_VARIATION}`")), "{variation}");
    }
}

/// The placement and castling fields of a letter PDTL written with FAN figurines.
fn in_figurines(pdtl: &str) -> String {
    let figurine = |c: char| match c {
        'P' => '\u{2659}',
        'p' => '\u{265F}',
        'E' => '\u{2616}',
        'e' => '\u{2617}',
        'J' => '\u{2657}',
        'j' => '\u{265D}',
        'N' => '\u{2658}',
        'n' => '\u{265E}',
        'G' => '\u{1FA50}',
        'g' => '\u{1FA53}',
        'R' => '\u{2656}',
        'r' => '\u{265C}',
        'V' => '\u{1FA4F}',
        'v' => '\u{1FA52}',
        'D' => '\u{2655}',
        'd' => '\u{265B}',
        'K' => '\u{2654}',
        'k' => '\u{265A}',
        other => other,
    };
    let mut fields: Vec<String> = pdtl.split(' ').map(str::to_string).collect();
    for index in [0, 2] {
        fields[index] = fields[index].chars().map(figurine).collect();
    }
    fields.join(" ")
}

#[test]
fn a_pdtl_value_shows_its_board_and_fields() {
    // The position after `1. E7-E13` (handbook §9.8), in figurines.
    let letters = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";
    let fan = in_figurines(letters);
    let text = format!("[Variant \"C'escacs\"]\n[Id \"Demo-X01\"]\n[Annotator \"Pérez, Núria\"]\n[Redefine \"FAN\"]\n[PDTL \"{fan}\"]\n1. …, E21-E15:\n*\n");
    for (capabilities, utf8) in clients() {
        let mut client = Client::start(capabilities);
        client.open(&uri("fan"), &text);
        // On the `/` after line 24's figurines.
        let (markdown, range) = hover_on(&mut client, "fan", &text, 4, "/23:", utf8);
        assert_eq!(range, span(&text, 4, &format!("\"{fan}\""), utf8), "utf8: {utf8}");
        assert!(
            markdown.starts_with(&format!(
                "**PDTL** · the position the record starts from\n\nBlack to move. PDTL `{fan}`\n\n- turn: Black to move\n"
            )),
            "{markdown}"
        );
        assert!(markdown.contains("- castling: White `♖♔♖` (King and both Rooks unmoved); Black `♜♚♜` (King and both Rooks unmoved)\n"), "{markdown}");
        assert!(markdown.contains("- special capture: `E13@9-11`, the piece on E13 may be taken en passant on E9 or E11\n"), "{markdown}");
        assert!(markdown.contains("\n13  ·   ·   ·   ♙   ·   ·   ·   ·\n"), "{markdown}");
        assert!(markdown.contains(&format!("PDTL `{fan}`")), "{markdown}");
    }
}

#[test]
fn hovers_in_an_unknown_document_or_off_any_token_are_empty() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    assert_eq!(client.at("textDocument/hover", &uri("absent"), 9, 4), Ok(Value::Null));
    // The result line, a tag's bracket, the comma between half-moves, a comment's plain text.
    for (line, character) in [(14, 0), (2, 0), (9, 10), (6, 4)] {
        assert_eq!(
            client.at("textDocument/hover", &uri("game"), line, character),
            Ok(Value::Null),
            "at {line}:{character}"
        );
    }
}

/// The whole answer Neovim 0.7 gets (its recorded capabilities) on Black's half-move
/// `2. …, F20-F16` of the opening example: the half-move, the turn and the PDTL on one line
/// first, then the board.
#[test]
fn the_hover_answer_of_a_text_client_leads_with_the_move_the_turn_and_the_pdtl() {
    let params = &ctlpgn_test_support::fixtures::recorded_initialize("neovim-0.7.json")["params"];
    let mut client = Client::start(params["capabilities"].clone());
    let text = "[Variant \"C'escacs\"]\n[White \"Núria Vidàl\"]\n\n1. E7‐E13, E21‐E15\n2. F8-F12, F20-F16\n*\n";
    client.open(&uri("opening"), text);
    let (line, start) = position_of(text, 4, "F20-F16", false);
    let hover = client.at("textDocument/hover", &uri("opening"), line, start + 3).expect("a hover");
    assert_eq!(hover["contents"]["kind"], "markdown");
    let range = &hover["range"];
    let shown = format!(
        "range {}:{}-{}:{}\n\n{}",
        range["start"]["line"],
        range["start"]["character"],
        range["end"]["line"],
        range["end"]["character"],
        hover["contents"]["value"].as_str().unwrap_or_default()
    );
    insta::assert_snapshot!(shown);
}
