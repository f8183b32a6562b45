//! The board over the protocol: `ctlpgn/board` in the tags, on a half-move, in a variation,
//! in a comment, on a half-move that failed and after the last one, with ranges in UTF-16 and
//! UTF-8 after `×` and `‐`; on a line of thousands of half-moves, a window of them around the
//! place, and no other request held up meanwhile; and the hover's board as an SVG image for a
//! client that asked for images in its `initializationOptions`, as text for the others. Every
//! SVG is read back: its pieces are the position its PDTL names.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};
use ctlpgn_test_support::cursor::Marked;
use ctlpgn_test_support::fixtures::knights_out_and_back;
use ctlpgn_test_support::positions::{lsp_position, lsp_range};
use ctlpgn_test_support::svg::{pieces_drawn, pieces_named};

/// The first ten moves of the corpus game g0001 with a hyphen written as U+2010 (`‐`), a
/// capture (`×`), a variation, a comment and a half-move that cannot be replayed (no Knight
/// on F6).
const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n2. JF6‐B18, EE23-D20\n3. H6-H10, E19-E15\n4. G7-G13, JF22-G19\n5. B4-B6, K24-K18\n6. E7-E9, I23-I19\n7. JB18-C21, KG27-I23\n8. ED4-C7, GD26-G27\n9. I5-I11, B24-B18\n10. JC21×G21, H22-H16\n(10. …, F20-F18)\n{ a comment }\n11. NF6-B18, H16×G13:\n*\n";

/// `ctlpgn/board` at the place `snippet` marks in GAME (see `Marked::within`), in the client's
/// encoding.
fn board_at(client: &mut Client, snippet: &str) -> Value {
    let place = Marked::within(GAME, snippet);
    client.at_cursor("ctlpgn/board", &uri("board"), &place).expect("a board answer")
}

/// Checks that the answer's SVG draws the position its PDTL names.
fn assert_svg_matches_pdtl(answer: &Value) {
    let svg = answer["svg"].as_str().expect("an SVG");
    let pdtl = answer["pdtl"].as_str().expect("a PDTL");
    assert_eq!(pieces_drawn(svg), pieces_named(pdtl), "{pdtl}");
}

/// The labels of the answer's line of play.
fn labels(answer: &Value) -> Vec<&str> {
    answer["line"]
        .as_array()
        .expect("a line")
        .iter()
        .map(|m| m["label"].as_str().unwrap())
        .collect()
}

const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

#[test]
fn in_the_tags_the_board_is_the_starting_position_before_the_main_line() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), GAME);
    let answer = board_at(&mut client, "[$0Variant");
    assert_eq!(answer["pdtl"], INITIAL);
    assert_eq!(answer["ply"], 0);
    assert_eq!(answer["move"], Value::Null);
    assert_eq!(answer["side"], "white");
    assert_eq!(answer["moveNumber"], 1);
    assert_eq!(answer["record"], 1);
    assert_eq!(answer["exact"], true);
    assert_eq!(answer["check"], Value::Null);
    let labels = labels(&answer);
    assert_eq!(labels.len(), 22);
    assert_eq!(labels[..3], ["1. K4-K6", "1. …, E21-E19", "2. JF6‐B18"]);
    assert_eq!(labels[18..], ["10. JC21×G21", "10. …, H22-H16", "11. NF6-B18", "11. …, H16×G13"]);
    insta::assert_snapshot!(
        "the_starting_position_as_text",
        answer["text"].as_str().expect("a text board")
    );
    assert_svg_matches_pdtl(&answer);
}

#[test]
fn on_a_half_move_the_board_is_the_position_after_it_with_utf16_ranges() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), GAME);
    let answer = board_at(&mut client, "JC21×$0G21");
    assert_eq!(answer["ply"], 19);
    assert_eq!(answer["move"], "10. JC21×G21");
    assert_eq!(answer["side"], "black");
    assert_eq!(answer["moveNumber"], 10);
    assert_eq!(answer["exact"], true);
    assert_svg_matches_pdtl(&answer);
    let svg = answer["svg"].as_str().unwrap();
    let document = roxmltree::Document::parse(svg).expect("XML");
    let marked: BTreeSet<(&str, &str)> = document
        .descendants()
        .filter_map(|node| Some((node.attribute("data-mark")?, node.attribute("data-hex")?)))
        .collect();
    assert_eq!(marked, BTreeSet::from([("origin", "C21"), ("destination", "G21")]));
    // `‐` (U+2010: 3 bytes, 1 UTF-16 unit) and `×` (2 bytes, 1 unit) inside the ranges.
    assert_ranges_of_the_line(&client, &answer);
    assert_eq!(answer["line"][2]["move"], "JF6‐B18");
    let on_its_end = board_at(&mut client, "JC21×G21$0");
    assert_eq!(on_its_end["pdtl"], answer["pdtl"]);
}

#[test]
fn ranges_are_in_bytes_for_a_utf8_client() {
    let mut client = Client::start(utf8_client());
    client.open(&uri("board"), GAME);
    let answer = board_at(&mut client, "JC21×$0G21");
    assert_eq!(answer["ply"], 19);
    assert_ranges_of_the_line(&client, &answer);
}

/// The ranges of two half-moves of the answer's line, with `‐` and `×` inside them, in the
/// client's units.
fn assert_ranges_of_the_line(client: &Client, answer: &Value) {
    let encoding = client.encoding();
    let capture = Marked::within(GAME, "$0JC21×G21$0");
    assert_eq!(answer["line"][18]["range"], capture.lsp_range(encoding), "{encoding:?}");
    let bishop = Marked::within(GAME, "$0JF6‐B18$0");
    assert_eq!(answer["line"][2]["range"], bishop.lsp_range(encoding), "{encoding:?}");
}

#[test]
fn in_a_variation_the_line_is_its_history_and_its_own_half_moves() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), GAME);
    let answer = board_at(&mut client, "F$020-F18");
    let labels = labels(&answer);
    assert_eq!(labels.len(), 20);
    assert_eq!(labels[18..], ["10. JC21×G21", "10. …, F20-F18"]);
    assert_eq!(answer["ply"], 20);
    assert_eq!(answer["move"], "10. …, F20-F18");
    assert_eq!(answer["exact"], true);
    assert_svg_matches_pdtl(&answer);
    // At the variation's `(`: still the main line, after 10. …, H22-H16.
    let before = board_at(&mut client, "$0(10.");
    assert_eq!(before["ply"], 20);
    assert_eq!(before["move"], "10. …, H22-H16");
    assert_eq!(before["line"].as_array().unwrap().len(), 22);
}

#[test]
fn in_a_comment_the_board_stands_after_the_half_move_before_it() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), GAME);
    let on_move = board_at(&mut client, "$0H22-H16");
    let answer = board_at(&mut client, "a $0comment");
    assert_eq!(answer["ply"], 20);
    assert_eq!(answer["move"], "10. …, H22-H16");
    assert_eq!(answer["pdtl"], on_move["pdtl"]);
    assert_eq!(answer["line"].as_array().unwrap().len(), 22);
}

#[test]
fn on_a_failed_half_move_the_board_is_the_last_position_known_without_a_pdtl() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), GAME);
    let before = board_at(&mut client, "$0H22-H16");
    let answer = board_at(&mut client, "N$0F6");
    assert_eq!(answer["exact"], false);
    assert_eq!(answer["pdtl"], Value::Null);
    assert_eq!(answer["ply"], 21);
    assert_eq!(answer["move"], "11. NF6-B18");
    assert_eq!(answer["line"][20]["played"], false);
    assert_eq!(answer["line"][19]["played"], true);
    assert_eq!(
        pieces_drawn(answer["svg"].as_str().unwrap()),
        pieces_named(before["pdtl"].as_str().unwrap())
    );
    let later = board_at(&mut client, "$0H16×G13");
    assert_eq!(later["exact"], false);
    assert_eq!(later["pdtl"], Value::Null);
    assert_eq!(later["ply"], 22);
}

#[test]
fn after_the_last_half_move_the_board_stands_after_it() {
    let text = GAME.replace("H22-H16\n", "H22-H16:\n").replace("11. NF6-B18, H16×G13:\n", "");
    let mut client = Client::start(utf16_client());
    client.open(&uri("board"), &text);
    let position = Marked::within(&text, "}\n*$0").position(client.encoding());
    let at_end = json!({"textDocument": {"uri": uri("board")}, "position": position});
    let last = client.request("ctlpgn/board", at_end.clone()).expect("an answer");
    assert_eq!(last["ply"], 20);
    assert_eq!(last["exact"], true);
    assert_eq!(last["move"], "10. …, H22-H16");
    assert_svg_matches_pdtl(&last);
    let mut flip = at_end;
    flip["flip"] = json!(true);
    let flipped = client.request("ctlpgn/board", flip).expect("an answer");
    assert!(flipped["svg"].as_str().unwrap().contains("data-bottom=\"b\""));
    assert_eq!(flipped["pdtl"], last["pdtl"]);
    let unknown = client.request(
        "ctlpgn/board",
        json!({"textDocument": {"uri": uri("nothing")}, "position": position}),
    );
    assert_eq!(unknown, Ok(Value::Null));
}

/// The hover at the place `snippet` marks in GAME, for a client started with `options`.
fn hover(options: Value, snippet: &str) -> String {
    let mut client = Client::start_with(utf16_client(), options, Value::Null);
    client.open(&uri("board"), GAME);
    let place = Marked::within(GAME, snippet);
    let hover = client.at_cursor("textDocument/hover", &uri("board"), &place).expect("a hover");
    hover["contents"]["value"].as_str().expect("Markdown").to_string()
}

/// Decodes standard base64.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let mut out = Vec::new();
    for chunk in text.trim_end_matches('=').as_bytes().chunks(4) {
        let mut group = 0u32;
        for (index, c) in chunk.iter().enumerate() {
            group |= u32::from(value(*c)) << (18 - 6 * index);
        }
        for index in 0..chunk.len().saturating_sub(1) {
            out.push((group >> (16 - 8 * index)) as u8);
        }
    }
    out
}

/// The bytes of a hover's image data, its SVG in base64.
fn image_data(markdown: &str) -> std::ops::Range<usize> {
    let start = markdown.find("](data:image/svg+xml;base64,").expect("an SVG image") + 28;
    let end = start + markdown[start..].find([')', '|']).expect("the image's end");
    start..end
}

/// The SVG of a hover's image and the PDTL the hover names.
fn image_and_pdtl(markdown: &str) -> (String, String) {
    let svg = String::from_utf8(base64_decode(&markdown[image_data(markdown)])).expect("UTF-8 SVG");
    let pdtl_start = markdown.find("PDTL:\n\n`").expect("a PDTL") + 8;
    let pdtl_end = pdtl_start + markdown[pdtl_start..].find('`').expect("the PDTL's end");
    (svg, markdown[pdtl_start..pdtl_end].to_string())
}

#[test]
fn a_client_that_shows_images_gets_the_hover_board_as_an_svg_of_the_position() {
    let images = json!({"hover": {"images": true}});
    for (snippet, name) in
        [("JC21$0×G21", "a_half_move_with_images"), ("F20$0-F18", "a_variation_with_images")]
    {
        let mut markdown = hover(images.clone(), snippet);
        let (svg, pdtl) = image_and_pdtl(&markdown);
        assert_eq!(pieces_drawn(&svg), pieces_named(&pdtl), "{markdown}");
        assert!(svg.contains("width=\"150\""), "{svg}");
        // The image in place of the text board; its data, read above, left out.
        markdown.replace_range(image_data(&markdown), "…");
        insta::assert_snapshot!(name, markdown);
    }
    // In the tags, no board: no image either.
    insta::assert_snapshot!("a_tag_with_images", hover(images, "[V$0ariant"));
    insta::assert_snapshot!("a_half_move_as_text", hover(Value::Null, "JC21$0×G21"));
}

#[test]
fn the_hovers_of_a_reference_and_a_pdtl_tag_show_images_too() {
    let text = format!(
        "[Variant \"C'escacs\"]\n[PDTL \"{INITIAL}\"]\n\n1. K4-K6, E21-E19\n{{ see #1@W }}\n*\n"
    );
    let mut client =
        Client::start_with(utf16_client(), json!({"hover": {"images": true}}), Value::Null);
    client.open(&uri("tags"), &text);
    for snippet in ["/$028:v", "#$01@W"] {
        let place = Marked::within(&text, snippet);
        let hover = client.at_cursor("textDocument/hover", &uri("tags"), &place).expect("a hover");
        let markdown = hover["contents"]["value"].as_str().expect("Markdown");
        let (svg, pdtl) = image_and_pdtl(markdown);
        assert_eq!(pieces_drawn(&svg), pieces_named(&pdtl), "{markdown}");
    }
}

/// A record of `pairs` move pairs all on one line, its hyphens written `‐` (three bytes, one
/// UTF-16 unit), and the byte ranges of its half-moves in order.
fn one_long_line(pairs: usize) -> (String, Vec<std::ops::Range<usize>>) {
    let text = knights_out_and_back(pairs, true).replace('-', "‐");
    let mut ranges = Vec::new();
    let mut at = 0;
    for word in text.split_inclusive([' ', '\n']) {
        let written = word.trim_end_matches([' ', '\n', ',', ':']);
        if written.contains('‐') {
            ranges.push(at..at + written.len());
        }
        at += word.len();
    }
    (text, ranges)
}

#[test]
fn on_a_line_of_thousands_of_half_moves_the_answer_lists_a_window_around_the_place() {
    let (text, ranges) = one_long_line(3_000);
    assert_eq!(ranges.len(), 6_000);
    for client in [utf16_client(), utf8_client()] {
        let mut client = Client::start(client);
        client.open(&uri("long"), &text);
        let encoding = client.encoding();
        let range_of = |ply: usize| lsp_range(&text, ranges[ply - 1].clone(), encoding);
        // In the tags, on a half-move in the middle of the line, after the last one.
        let places: [(usize, usize); 3] =
            [(0, 0), (ranges[3_000].start + 1, 3_001), (text.len(), 6_000)];
        for (at, ply) in places {
            let position = lsp_position(&text, at, encoding);
            let answer = client
                .request(
                    "ctlpgn/board",
                    json!({"textDocument": {"uri": uri("long")}, "position": position}),
                )
                .expect("a board");
            assert_eq!(answer["ply"], ply);
            assert_eq!(answer["lineLength"], 6_000);
            let line = answer["line"].as_array().expect("a line");
            assert_eq!(line.len(), 200, "at most 200 half-moves, whatever the line's length");
            let start = answer["lineStart"].as_u64().expect("the window's first ply") as usize;
            for (index, half_move) in line.iter().enumerate() {
                assert_eq!(half_move["ply"], start + index);
                assert_eq!(half_move["range"], range_of(start + index), "{encoding:?}");
            }
            // The place's half-move and those before and after it are in the window.
            for near in [ply.saturating_sub(1), ply, ply + 1] {
                assert!((1..=6_000).contains(&near) <= (start..start + 200).contains(&near));
            }
            assert_eq!(answer["lineFirst"]["ply"], 1);
            assert_eq!(answer["lineFirst"]["range"], range_of(1));
            assert_eq!(answer["lineLast"]["ply"], 6_000);
            assert_eq!(answer["lineLast"]["label"], "3000. …, NI15‐G25");
            assert_eq!(answer["lineLast"]["range"], range_of(6_000));
        }
    }
}

#[test]
fn a_board_on_a_large_record_holds_up_no_request_on_another_document() {
    let (large, _) = one_long_line(12_000);
    let mut client = Client::start(utf16_client());
    client.open(&uri("large"), &large);
    client.open(&uri("board"), GAME);
    // Both analysed (their diagnostics out) before the requests.
    client.published(&uri("large"));
    client.published(&uri("board"));
    let middle = lsp_position(&large, large.len() / 2, client.encoding());
    let board = json!({"textDocument": {"uri": uri("large")}, "position": middle});
    let board = client.send_request("ctlpgn/board", board);
    let place = Marked::within(GAME, "JC21$0×G21").position(client.encoding());
    let hover = json!({"textDocument": {"uri": uri("board")}, "position": place});
    let hover = client.send_request("textDocument/hover", hover);
    // The board is worked out on a snapshot, on the blocking pool: the hover, sent after it,
    // is answered while it is.
    let arrivals = client.arrivals(&[board.clone(), hover.clone()]);
    let order: Vec<&Value> = arrivals.iter().map(|(id, _)| id).collect();
    assert_eq!(order, [&hover, &board]);
    assert!(arrivals
        .iter()
        .all(|(_, answer)| answer.as_ref().is_ok_and(|answer| !answer.is_null())));
}
