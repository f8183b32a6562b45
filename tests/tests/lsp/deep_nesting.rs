//! A document nested 100,000 variations deep is served: its diagnostics are published, and
//! hover, folding ranges, document symbols and whole-document semantic tokens are answered.
//! The test client runs the server in threads of 256 KB stacks (a release server's have
//! 2 MB, which the walks of the code before explicit stacks filled at about 1,000 levels).

use ctlpgn_test_support::cursor::Marked;

use crate::client::{uri, utf16_client};

const DEPTH: usize = 100_000;

/// One record whose move 1 has a variation replacing White's half-move, which has one in turn,
/// `DEPTH` levels deep; the coordinate `K4` of the innermost is marked.
fn nested_record() -> Marked {
    let mut text = String::from("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n");
    for level in 0..DEPTH {
        if level == DEPTH - 1 {
            text.push_str("(1. $0K4$0-K6, E21-E19\n");
        } else {
            text.push_str("(1. K4-K6, E21-E19\n");
        }
        if level % 10 == 0 {
            text.push_str("{@W: #1@W again}\n");
        }
    }
    text.push_str(&")\n".repeat(DEPTH));
    text.push_str("2. JF6-B18, EE23-D20:\n*\n");
    Marked::selection(&text)
}

#[test]
fn a_document_with_100000_nested_variations_is_served_in_small_stacks() {
    let nested = nested_record();
    let mut client = crate::client::Client::start(utf16_client());
    let name = uri("deep");
    client.open(&name, &nested.text);
    let published = client.published(&name);
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    assert!(diagnostics.iter().all(|d| d["severity"] != 1), "{diagnostics:?}");

    // The origin of the innermost variation's White half-move `K4-K6`.
    let hover = client.at_cursor("textDocument/hover", &name, &nested).expect("a hover");
    assert_eq!(hover["range"], nested.lsp_range(client.encoding()), "{hover}");
    let heading = hover["contents"]["value"].as_str().and_then(|value| value.lines().next());
    assert_eq!(heading, Some("**1. K4-K6** · White pawn K4 to K6"));

    let folds = client.about("textDocument/foldingRange", &name).expect("folding ranges");
    assert!(folds.as_array().expect("an array").len() > DEPTH);

    let symbols = client.about("textDocument/documentSymbol", &name).expect("symbols");
    assert_eq!(symbols.as_array().expect("an array").len(), 1);

    let tokens = client.about("textDocument/semanticTokens/full", &name).expect("tokens");
    let data = tokens["data"].as_array().expect("token data");
    // Each level's move number and two half-moves' coordinates, at least.
    assert!(data.len() / 5 > 5 * DEPTH, "{} tokens", data.len() / 5);
    assert!(client.finish(true));
}
