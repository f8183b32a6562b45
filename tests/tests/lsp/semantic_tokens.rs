//! Semantic tokens over the protocol: a whole record and a range of it, decoded to
//! `(line, character, length, type, modifiers)` with the legend the server announced and
//! compared with the tokens written beside the text, in UTF-16 and UTF-8 clients, after FAN
//! figurines (two UTF-16 units for the Pegasus), `×`, `…` and accented names; a comment over
//! two lines comes as one token per line, its text without the blanks around it.

use ctlpgn_test_support::cursor::Marked;
use serde_json::{json, Value};

use crate::client::{uri, utf16_client, utf8_client, Client};

const GAME: &str = "\
[Variant \"C'escacs\"]
[White \"Pérez, Núria\"]
[Result \"*\"]
[Redefine \"FAN\"]
{ Núria… opens ~F14 }
1. E7-E13, E21-E15
2. \u{1FA50}D2-E7 !?, F20-F16
{ @W: the Pegasus… leaves D2
  and #2@W opens E7 }
3. E13×F16 ◇, ♞G25-H20:
($[1] 3. …, ♞E25-D20)
*
";

/// The expected tokens, in order: on each line, each text is looked for after the previous
/// token of the line.
const EXPECTED: &[(u32, &str, &str, &[&str])] = &[
    (0, "Variant", "property", &[]),
    (0, "\"C'escacs\"", "string", &[]),
    (1, "White", "property", &[]),
    (1, "\"Pérez, Núria\"", "string", &[]),
    (2, "Result", "property", &[]),
    (2, "\"*\"", "string", &[]),
    (3, "Redefine", "property", &[]),
    (3, "\"FAN\"", "string", &[]),
    (4, "{", "comment", &[]),
    (4, "Núria… opens", "comment", &[]),
    (4, "~F14", "variable", &[]),
    (4, "}", "comment", &[]),
    (5, "1.", "number", &[]),
    (5, "E7", "variable", &[]),
    (5, "-", "operator", &[]),
    (5, "E13", "variable", &[]),
    (5, "E21", "variable", &[]),
    (5, "-", "operator", &[]),
    (5, "E15", "variable", &[]),
    (6, "2.", "number", &[]),
    (6, "\u{1FA50}", "type", &[]),
    (6, "D2", "variable", &[]),
    (6, "-", "operator", &[]),
    (6, "E7", "variable", &[]),
    (6, "!?", "decorator", &[]),
    (6, "F20", "variable", &[]),
    (6, "-", "operator", &[]),
    (6, "F16", "variable", &[]),
    (7, "{", "comment", &[]),
    (7, "@W:", "keyword", &[]),
    (7, "the Pegasus… leaves D2", "comment", &[]),
    (8, "  and", "comment", &[]),
    (8, "#2@W", "macro", &[]),
    (8, "opens E7", "comment", &[]),
    (8, "}", "comment", &[]),
    (9, "3.", "number", &[]),
    (9, "E13", "variable", &[]),
    (9, "×", "operator", &["capture"]),
    (9, "F16", "variable", &[]),
    (9, "◇", "decorator", &[]),
    (9, "♞", "type", &[]),
    (9, "G25", "variable", &[]),
    (9, "-", "operator", &[]),
    (9, "H20", "variable", &[]),
    (9, ":", "event", &[]),
    (10, "$[1]", "macro", &["declaration"]),
    (10, "3.", "number", &[]),
    (10, "…", "operator", &[]),
    (10, "♞", "type", &[]),
    (10, "E25", "variable", &[]),
    (10, "-", "operator", &[]),
    (10, "D20", "variable", &[]),
    (11, "*", "enumMember", &[]),
];

/// A decoded token: line, character, length, type and modifiers.
type Token = (u32, u32, u32, String, Vec<String>);

/// The length of a text in the encoding's units.
fn units(text: &str, utf8: bool) -> u32 {
    (if utf8 { text.len() } else { text.encode_utf16().count() }) as u32
}

/// `EXPECTED` placed on the lines of `GAME`, in the encoding's units.
fn expected(utf8: bool) -> Vec<Token> {
    let lines: Vec<&str> = GAME.lines().collect();
    let mut cursor = (u32::MAX, 0);
    EXPECTED
        .iter()
        .map(|&(line, text, token_type, modifiers)| {
            let from = if cursor.0 == line { cursor.1 } else { 0 };
            let content = lines[line as usize];
            let start = from
                + content[from..].find(text).unwrap_or_else(|| panic!("{text:?} on line {line}"));
            cursor = (line, start + text.len());
            let character = units(&content[..start], utf8);
            (
                line,
                character,
                units(text, utf8),
                token_type.to_string(),
                modifiers.iter().map(|m| m.to_string()).collect(),
            )
        })
        .collect()
}

/// Decodes the protocol's relative five-number groups with the announced legend.
fn decode(client: &Client, answer: &Value) -> Vec<Token> {
    let legend = &client.initialized["capabilities"]["semanticTokensProvider"]["legend"];
    let name = |list: &str, index: u64| {
        legend[list][index as usize].as_str().expect("a legend entry").to_string()
    };
    let data: Vec<u64> = answer["data"]
        .as_array()
        .expect("token data")
        .iter()
        .map(|n| n.as_u64().expect("a number"))
        .collect();
    assert_eq!(data.len() % 5, 0, "groups of five");
    let (mut line, mut character) = (0, 0);
    data.chunks(5)
        .map(|group| {
            line += group[0];
            character = if group[0] == 0 { character + group[1] } else { group[1] };
            let modifiers = (0..32)
                .filter(|bit| group[4] & (1 << bit) != 0)
                .map(|bit| name("tokenModifiers", bit))
                .collect();
            (
                line as u32,
                character as u32,
                group[2] as u32,
                name("tokenTypes", group[3]),
                modifiers,
            )
        })
        .collect()
}

fn full(capabilities: Value) -> (Client, Vec<Token>) {
    let mut client = Client::start(capabilities);
    client.open(&uri("fan"), GAME);
    let answer =
        client.about("textDocument/semanticTokens/full", &uri("fan")).expect("semantic tokens");
    let tokens = decode(&client, &answer);
    (client, tokens)
}

#[test]
fn the_tokens_of_a_record_in_utf16() {
    let (_client, tokens) = full(utf16_client());
    assert_eq!(tokens, expected(false));
    // The Pegasus figurine counts two units: `D2` starts at character 5 of `2. 🩐D2-E7`.
    assert!(tokens.contains(&(6, 3, 2, "type".to_string(), vec![])), "{tokens:?}");
    assert!(tokens.contains(&(6, 5, 2, "variable".to_string(), vec![])), "{tokens:?}");
    // `ú` and `…` count one unit each: the comment's text `Núria… opens` is 12 units long, and
    // the text runs from its first to its last non-blank character.
    assert!(tokens.contains(&(4, 2, 12, "comment".to_string(), vec![])), "{tokens:?}");
}

#[test]
fn the_tokens_of_a_record_in_utf8() {
    let (_client, tokens) = full(utf8_client());
    assert_eq!(tokens, expected(true));
    // The Pegasus figurine is four bytes: `D2` starts at byte 7.
    assert!(tokens.contains(&(6, 3, 4, "type".to_string(), vec![])), "{tokens:?}");
    assert!(tokens.contains(&(6, 7, 2, "variable".to_string(), vec![])), "{tokens:?}");
    assert!(
        tokens.contains(&(9, 6, 2, "operator".to_string(), vec!["capture".to_string()])),
        "{tokens:?}"
    );
}

#[test]
fn a_range_gets_the_tokens_it_overlaps() {
    for (capabilities, utf8) in [(utf16_client(), false), (utf8_client(), true)] {
        let mut client = Client::start(capabilities);
        client.open(&uri("fan"), GAME);
        // From the middle of the first line of the two-line comment to the end of move 3.
        let selection = Marked::within(
            GAME,
            "the $0Pegasus… leaves D2\n  and #2@W opens E7 }\n3. E13×F16 ◇, ♞G25-H20:\n$0",
        );
        let range = selection.lsp_range(client.encoding());
        let answer = client
            .request(
                "textDocument/semanticTokens/range",
                json!({"textDocument": {"uri": uri("fan")}, "range": range}),
            )
            .expect("semantic tokens");
        let tokens = decode(&client, &answer);
        let wanted: Vec<Token> =
            expected(utf8).into_iter().filter(|token| (7..=9).contains(&token.0)).collect();
        // The comment's `{` and marker end before the range starts.
        assert_eq!(tokens, wanted[2..], "utf8: {utf8}");
    }
}

#[test]
fn unknown_documents_and_ranges_past_the_end_have_no_tokens() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("fan"), GAME);
    assert_eq!(client.about("textDocument/semanticTokens/full", &uri("absent")), Ok(Value::Null));
    let beyond = json!({"start": {"line": 500, "character": 0}, "end": {"line": u32::MAX, "character": u32::MAX}});
    let answer = client
        .request(
            "textDocument/semanticTokens/range",
            json!({"textDocument": {"uri": uri("fan")}, "range": beyond}),
        )
        .expect("an answer, not an error");
    assert_eq!(answer["data"], json!([]));
    let absent = client.request(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": uri("absent")}, "range": beyond}),
    );
    assert_eq!(absent, Ok(Value::Null));
}

#[test]
fn an_edit_changes_the_tokens() {
    let mut client = Client::start(utf16_client());
    client.open(&uri("fan"), GAME);
    // `E13×F16` becomes `E13-F16`: the separator loses its capture modifier.
    let range = Marked::within(GAME, "E13$0×$0F16").lsp_range(client.encoding());
    client.change(&uri("fan"), 2, json!([{"range": range, "text": "-"}]));
    let answer =
        client.about("textDocument/semanticTokens/full", &uri("fan")).expect("semantic tokens");
    let tokens = decode(&client, &answer);
    assert!(tokens.contains(&(9, 6, 1, "operator".to_string(), vec![])), "{tokens:?}");
    assert_eq!(tokens.len(), EXPECTED.len());
}
