//! Hovers over the protocol: a replayed half-move shows the corpus's PDTL after it and the
//! board, in both position encodings; a half-move that failed shows why; a coordinate shows
//! its hex and what stands on it, a tag name its catalogue entry, a comment reference the
//! position after what it names, a PDTL value its board; each after `×`, `…`, accented
//! names or FAN figurines, in UTF-16 and UTF-8 clients. A hover off all of these, past the end
//! of a line, below the text or in an unknown document is empty, never an error. A record's
//! markup goes out as text, to Markdown and plain-text clients alike.
//!
//! Each answer is a snapshot (`snapshots/`): where its range lies in the text, then its
//! Markdown. Every hover is also checked to fit a text client's window, and the PDTLs against
//! the corpus's sidecar and positions worked out by hand.

use ctlpgn_test_support::annotations::render_ranges;
use ctlpgn_test_support::cursor::Marked;
use ctlpgn_test_support::positions::{lsp_range, Encoding};
use serde_json::Value;

use crate::client::{uri, utf16_client, utf8_client, Client};

/// The corpus game g0001 and its sidecar of expected positions.
fn game() -> (String, Value) {
    let text = ctlpgn_test_support::fixtures::testdata_text("corpus/valid/g0001.ctl-pgn");
    let sidecar = ctlpgn_test_support::fixtures::testdata_text("corpus/valid/g0001.expected.json");
    (text, serde_json::from_str(&sidecar).expect("a JSON sidecar"))
}

/// The width of the text board: a text client's hover has no prose line wider, unless a code
/// line (the PDTL) is wider still.
const BOARD_WIDTH: usize = 34;

/// Checks what holds of every hover a text client shows, whatever its wording: it is fitted to
/// its widest code line (paragraphs and list items wrapped), and the PDTL stands whole on the
/// one line of its code block.
fn assert_fits(markdown: &str) {
    let lines: Vec<&str> = markdown.lines().collect();
    if markdown.contains("```text") {
        let mut in_code = false;
        let mut widest = BOARD_WIDTH;
        for line in &lines {
            if line.starts_with("```") {
                in_code = !in_code;
            } else if in_code {
                widest = widest.max(line.chars().count());
            }
        }
        for line in &lines {
            assert!(
                line.chars().count() <= widest,
                "{line:?} is wider than the widest code line:\n{markdown}"
            );
        }
    }
    for (index, line) in lines.iter().enumerate() {
        if line.ends_with("PDTL:") && lines.get(index + 2) == Some(&"```text") {
            assert_eq!(lines.get(index + 4), Some(&"```"), "the PDTL on one line:\n{markdown}");
        }
    }
}

/// The hover at the cursor of `place`, opened as `name`, in Markdown and fitting its window.
fn hover(client: &mut Client, name: &str, place: &Marked) -> Value {
    let hover = client.at_cursor("textDocument/hover", &uri(name), place).expect("a hover answer");
    assert_eq!(hover["contents"]["kind"], "markdown", "{hover}");
    let markdown =
        hover["contents"]["value"].as_str().unwrap_or_else(|| panic!("Markdown contents: {hover}"));
    assert_fits(markdown);
    hover
}

/// A hover as a snapshot shows it: where its range lies in the text, then its Markdown.
fn shown(text: &str, hover: &Value, encoding: Encoding) -> String {
    let range = render_ranges(text, encoding, [(&hover["range"], "the hover's range".to_string())]);
    format!("{range}\n{}", hover["contents"]["value"].as_str().unwrap_or_default())
}

/// A client in each encoding with `text` opened as `name`.
fn clients_with(name: &str, text: &str) -> [Client; 2] {
    [utf16_client(), utf8_client()].map(|capabilities| {
        let mut client = Client::start(capabilities);
        client.open(&uri(name), text);
        client
    })
}

/// The hover at `place` as both clients get it: the same range and Markdown in either
/// encoding's units, shown once.
fn shown_in_both(clients: &mut [Client; 2], name: &str, place: &Marked) -> String {
    let [utf16, utf8] = clients.each_mut().map(|client| {
        let answer = hover(client, name, place);
        shown(&place.text, &answer, client.encoding())
    });
    assert_eq!(utf16, utf8, "the UTF-16 and UTF-8 clients' hovers");
    utf16
}

/// Hovers over ply `ply` (1-based) of g0001, on the separator of its half-move (the
/// coordinates around it have hovers of their own), checks the answer against the corpus's
/// sidecar (the PDTL after it, whose turn it is) and the half-move's range, and shows it.
fn check_ply(ply: usize, capabilities: Value) -> String {
    let (text, expected) = game();
    let ply = &expected["plies"][ply - 1];
    let line = ply["line"].as_u64().expect("a line") as usize - 1;
    let written = ply["move"].as_str().expect("a move");
    let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let start = line_start + text[line_start..].find(written).expect("the move on its line");
    let separator = start + written.find(['-', '×']).expect("a separator");
    let place = Marked { text: text.clone(), range: separator..separator };
    let mut client = Client::start(capabilities);
    client.open(&uri("g0001"), &text);
    let hover = hover(&mut client, "g0001", &place);
    let encoding = client.encoding();
    assert_eq!(hover["range"], lsp_range(&text, start..start + written.len(), encoding));
    let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
    let pdtl = ply["pdtl"].as_str().expect("a PDTL");
    assert!(markdown.contains(&format!("PDTL:\n\n```text\n{pdtl}\n```")), "{markdown}");
    let turn = if ply["turn"] == "w" { "White to move." } else { "Black to move." };
    assert!(markdown.contains(turn), "{markdown}");
    shown(&text, &hover, encoding)
}

#[test]
fn a_half_move_shows_the_position_after_it_in_utf16() {
    // Ply 20, 10. …, H22-H16, stands after a × on its line.
    insta::assert_snapshot!("g0001_ply_20", check_ply(20, utf16_client()));
    insta::assert_snapshot!("g0001_ply_4", check_ply(4, utf16_client()));
}

#[test]
fn a_half_move_shows_the_position_after_it_in_utf8() {
    insta::assert_snapshot!("g0001_ply_20", check_ply(20, utf8_client()));
}

#[test]
fn a_half_move_shows_the_move_in_words_and_marks_its_hexes() {
    let (text, _) = game();
    let mut client = Client::start(utf16_client());
    client.open(&uri("g0001"), &text);
    let place = Marked::within(&text, "2. JF6-B18, $0EE23-D20");
    let answer = hover(&mut client, "g0001", &place);
    insta::assert_snapshot!(shown(&text, &answer, client.encoding()));
}

#[test]
fn a_half_move_that_failed_shows_the_finding_and_the_position_before_it() {
    let (text, _) = game();
    let broken = text.replace("10. JC21×G21, H22-H16", "10. JC21×G21, NH22-H16");
    let mut client = Client::start(utf16_client());
    client.open(&uri("broken"), &broken);
    let place = Marked::within(&broken, "$0NH22");
    let answer = hover(&mut client, "broken", &place);
    insta::assert_snapshot!(shown(&broken, &answer, client.encoding()));
}

#[test]
fn a_hover_off_a_half_move_past_a_line_end_or_below_the_text_is_empty() {
    let (text, _) = game();
    let mut client = Client::start(utf16_client());
    client.open(&uri("g0001"), &text);
    // The bracket of a tag, a blank line.
    for snippet in ["$0[Variant", "[Result \"*\"]\n$0\n"] {
        let place = Marked::within(&text, snippet);
        let hover = client.at_cursor("textDocument/hover", &uri("g0001"), &place);
        assert_eq!(hover, Ok(Value::Null), "at {snippet:?}");
    }
    // Past the end of a line, below the text: positions no text holds.
    for (line, character) in [(18, 500), (18, u32::MAX), (10_000, 0), (u32::MAX, u32::MAX)] {
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

#[test]
fn a_coordinate_of_a_half_move_shows_its_hex_before_and_after_it() {
    let mut clients = clients_with("game", GAME);
    // `F12` stands after two `×` on its line. The half-move, whose turn it is and the PDTL
    // first, then the hex, then the board.
    let place = Marked::within(GAME, "E15×$0F12");
    insta::assert_snapshot!(shown_in_both(&mut clients, "game", &place));
}

#[test]
fn a_coordinate_in_a_comment_shows_the_hex_after_the_half_move_before_the_comment() {
    let mut clients = clients_with("game", GAME);
    let place = Marked::within(GAME, "now $0~F12");
    insta::assert_snapshot!(
        "comment_after_a_half_move",
        shown_in_both(&mut clients, "game", &place)
    );
    let place = Marked::within(GAME, "opens: $0~F8");
    insta::assert_snapshot!("comment_at_the_start", shown_in_both(&mut clients, "game", &place));
}

#[test]
fn a_tag_name_shows_its_meaning_values_and_position() {
    let mut clients = clients_with("game", GAME);
    let place = Marked::within(GAME, "[$0Site");
    insta::assert_snapshot!("tag_site", shown_in_both(&mut clients, "game", &place));
    let place = Marked::within(GAME, "[$0Result");
    insta::assert_snapshot!("tag_result", shown_in_both(&mut clients, "game", &place));
}

#[test]
fn a_comment_reference_shows_what_it_names_and_the_position_after_it() {
    let mut clients = clients_with("game", GAME);
    // `#3@W` stands after `…` on its line.
    let place = Marked::within(GAME, "to $0#3@W");
    let half_move = shown_in_both(&mut clients, "game", &place);
    assert!(half_move.contains(&format!("PDTL:\n\n```text\n{AFTER_WHITE_3}\n```")), "{half_move}");
    insta::assert_snapshot!("reference_to_a_half_move", half_move);
    let place = Marked::within(GAME, "compare $0#3.1");
    let variation = shown_in_both(&mut clients, "game", &place);
    assert!(
        variation.contains(&format!("PDTL:\n\n```text\n{AFTER_VARIATION}\n```")),
        "{variation}"
    );
    insta::assert_snapshot!("reference_to_a_variation", variation);
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
    let mut clients = clients_with("fan", &text);
    // On the `/` after line 24's figurines.
    let place = Marked::within(&text, "$0/23:");
    let shown = shown_in_both(&mut clients, "fan", &place);
    assert!(shown.contains(&format!("PDTL:\n\n```text\n{fan}\n```")), "{shown}");
    insta::assert_snapshot!(shown);
}

#[test]
fn hovers_in_an_unknown_document_or_off_any_token_are_empty() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("game"), GAME);
    let coordinate = Marked::within(GAME, "E15×$0F12");
    assert_eq!(
        client.at_cursor("textDocument/hover", &uri("absent"), &coordinate),
        Ok(Value::Null)
    );
    // The result line, a tag's bracket, the comma between half-moves, a comment's plain text.
    for snippet in ["$0*\n", "$0[Site", "E13×F16$0, E15", "{ Nú$0ria"] {
        let place = Marked::within(GAME, snippet);
        let hover = client.at_cursor("textDocument/hover", &uri("game"), &place);
        assert_eq!(hover, Ok(Value::Null), "at {snippet:?}");
    }
}

/// The whole answer Neovim 0.7 gets (its recorded capabilities) on Black's half-move
/// `2. …, F20-F16` of the opening example: the half-move, the turn and the PDTL on one line
/// first, then the board.
#[test]
fn the_hover_answer_of_a_text_client_leads_with_the_move_the_turn_and_the_pdtl() {
    let params = &ctlpgn_test_support::fixtures::recorded_initialize("neovim-0.7.json")["params"];
    let mut client = Client::start(params["capabilities"].clone());
    let place = Marked::cursor("[Variant \"C'escacs\"]\n[White \"Núria Vidàl\"]\n\n1. E7‐E13, E21‐E15\n2. F8-F12, F20$0-F16\n*\n");
    client.open(&uri("opening"), &place.text);
    let answer = hover(&mut client, "opening", &place);
    insta::assert_snapshot!(shown(&place.text, &answer, client.encoding()));
}

/// A record's markup reaches the editor as text: the PDTL whose turn field is an image goes
/// out to a Markdown client with no live markup, rendering the field as written, and to a
/// client that shows plain text as that rendered text, with no escapes to show.
#[test]
fn record_markup_goes_out_as_text_to_markdown_and_plain_text_clients() {
    use ctlpgn_test_support::markdown::{live_markup, rendered_text};
    let place = Marked::cursor("[Variant \"C'escacs\"]\n[PDTL \"/20:3k3/3:R3/1:1K/ $0![t](https://x/t.png) -- - 0 1\"]\n\n1. RC3-F6+, KF20-E21:\n*\n");
    let plain = serde_json::json!({"textDocument": {"hover": {"contentFormat": ["plaintext"]}}});
    let mut answers = Vec::new();
    for (capabilities, kind) in [(utf16_client(), "markdown"), (plain, "plaintext")] {
        let mut client = Client::start(capabilities);
        client.open(&uri("markup"), &place.text);
        let hover = client.at_cursor("textDocument/hover", &uri("markup"), &place);
        let hover = hover.expect("a hover answer");
        assert_eq!(hover["contents"]["kind"], kind, "{hover}");
        answers.push(hover["contents"]["value"].as_str().expect("contents").to_string());
    }
    let markdown = &answers[0];
    assert_eq!(live_markup(markdown), Vec::<String>::new(), "{markdown}");
    assert!(rendered_text(markdown).contains("turn ![t](https://x/t.png) is not w or b"));
    let plain = &answers[1];
    assert!(plain.contains("turn ![t](https://x/t.png) is not w or b"), "{plain}");
    // The words the Markdown client shows, in order; only the layout of lines and list marks
    // is the plain text's own.
    let words = |text: &str| {
        text.split_whitespace().filter(|word| *word != "-").map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(words(plain), words(&rendered_text(markdown)), "{plain}");
}
