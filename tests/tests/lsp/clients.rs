//! Real editors' `initialize` requests replayed: the capabilities and initialization options
//! recorded from VS Code (vscode-languageclient 9) and Neovim 0.7 and 0.11 through the
//! shipped extension and plugin, and from Emacs's eglot 1.9 (tests/fixtures/initialize, whose
//! README says how each was recorded), and what the server negotiates with each: the position
//! encoding, pushed or pulled diagnostics, Markdown or plain hovers, snippets in completion,
//! and whether it may ask for the settings.

use std::time::Duration;

use serde_json::{json, Value};

use crate::client::{uri, Client};
use crate::completions;
use ctlpgn_test_support::annotations::render_lsp_diagnostics;
use ctlpgn_test_support::cursor::Marked;
use ctlpgn_test_support::fixtures::recorded_initialize;

/// A record with its one error after a `×`, and a half-move after a `‐` (two and three
/// bytes in UTF-8, one code unit in UTF-16), so that a column in the wrong unit shows.
const GAME: &str = "[Variant \"C'escacs\"]
[Event \"Torneig de Sant Jordi\"]
[Site \"Barcelona, Catalunya ESP\"]
[Date \"2024-05-01\"]
[Round \"-\"]
[White \"Puig, Anna\"]
[Black \"Vidàl, Marc\"]
[Result \"*\"]

1. E7‐E13, E21‐E15
2. F8-F12, F20-F16
3. E13×F16, NE15×F12
4. EG5-F8, EG23-F20:
*
";

/// A record whose tags lack most of the roster, with a `[` just typed on line 2.
const TAGS: &str =
    "[Variant \"C'escacs\"]\n[Event \"Obert de Moià\"]\n[$0\n\n1. E7-E13, E21-E15:\n*\n";

/// What one editor is expected to negotiate.
struct Editor {
    fixture: &'static str,
    encoding: &'static str,
    pulls_diagnostics: bool,
    takes_snippets: bool,
    answers_configuration: bool,
    markdown_hover: bool,
}

const VSCODE: Editor = Editor {
    fixture: "vscode.json",
    encoding: "utf-16",
    pulls_diagnostics: true,
    takes_snippets: true,
    answers_configuration: true,
    markdown_hover: true,
};
const NEOVIM_0_7: Editor = Editor {
    fixture: "neovim-0.7.json",
    encoding: "utf-16",
    pulls_diagnostics: false,
    takes_snippets: false,
    answers_configuration: false,
    markdown_hover: true,
};
const NEOVIM_0_11: Editor = Editor {
    fixture: "neovim-0.11.json",
    encoding: "utf-8",
    pulls_diagnostics: true,
    takes_snippets: true,
    answers_configuration: true,
    markdown_hover: true,
};
/// eglot without yasnippet (no snippets) and without markdown-mode (plain hovers).
const EGLOT: Editor = Editor {
    fixture: "eglot.json",
    encoding: "utf-16",
    pulls_diagnostics: false,
    takes_snippets: false,
    answers_configuration: true,
    markdown_hover: false,
};

/// Starts a server with an editor's recorded capabilities and initialization options; the
/// client answers `workspace/configuration` with the options, as the shipped plugin and
/// extension do (eglot sends none, and answers from `eglot-workspace-configuration`, empty
/// here).
fn start(editor: &Editor) -> Client {
    let params = &recorded_initialize(editor.fixture)["params"];
    let options = params["initializationOptions"].clone();
    let expected = if editor.fixture == EGLOT.fixture {
        json!({})
    } else {
        json!({"rules": {"enable": false}, "format": {"separators": "keep", "ellipsis": "keep"}})
    };
    assert_eq!(options, expected, "{}", editor.fixture);
    Client::start_with(params["capabilities"].clone(), options.clone(), options)
}

/// The diagnostics of a document as the editor gets them: pulled, or pushed after opening.
fn diagnostics(client: &mut Client, editor: &Editor, document: &str) -> Value {
    if editor.pulls_diagnostics {
        let report =
            client.about("textDocument/diagnostic", document).expect("a diagnostic report");
        assert_eq!(report["kind"], "full");
        report["items"].clone()
    } else {
        let published = client.published(document);
        assert_eq!(published["version"], 1);
        published["diagnostics"].clone()
    }
}

fn check(editor: &Editor) {
    let name = editor.fixture;
    let mut client = start(editor);
    let capabilities = client.initialized["capabilities"].clone();
    assert_eq!(capabilities["positionEncoding"], editor.encoding, "{name}: position encoding");
    assert_eq!(
        capabilities["diagnosticProvider"].is_object(),
        editor.pulls_diagnostics,
        "{name}: diagnostics pulled, else pushed"
    );
    assert_eq!(capabilities["textDocumentSync"]["change"], 2, "{name}: incremental sync");
    let commands =
        capabilities["executeCommandProvider"]["commands"].as_array().cloned().unwrap_or_default();
    assert!(
        commands.contains(&json!("ctlpgn.positionAt")),
        "{name}: the copy commands need ctlpgn.positionAt, got {capabilities}"
    );

    let text = GAME;
    let game = uri(&format!("client-{name}"));
    client.open(&game, text);
    // The same diagnostics, with their ranges read in the client's units, for every client.
    let published = diagnostics(&mut client, editor, &game);
    let shown = render_lsp_diagnostics(text, &published, client.encoding());
    insta::assert_snapshot!("diagnostics_of_every_client", shown);
    if editor.pulls_diagnostics {
        assert!(
            client.pushed_so_far().is_empty(),
            "{name}: nothing is pushed to a client that pulls"
        );
    }

    // Hover on the destination of Black's first half-move, `E15` in `E21‐E15`: the hover of
    // the hex, within the half-move's.
    let hex = Marked::within(text, "1. E7‐E13, E21‐$0E15$0");
    let hover = client.at_cursor("textDocument/hover", &game, &hex).expect("a hover");
    assert_eq!(
        hover["contents"]["kind"],
        if editor.markdown_hover { "markdown" } else { "plaintext" },
        "{name}: hovers in Markdown where the client shows it"
    );
    // The same words for every client: as Markdown where the client shows it, else as the
    // text that Markdown reads as, with no marks, escapes or fences to show.
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    let snapshot = if editor.markdown_hover {
        "hover_of_a_markdown_client"
    } else {
        "hover_of_a_plain_text_client"
    };
    insta::assert_snapshot!(snapshot, shown);
    assert_eq!(
        hover["range"],
        hex.lsp_range(client.encoding()),
        "{name}: the hover's range, the hex E15, in {} units",
        editor.encoding
    );

    let tags = uri(&format!("tags-{name}"));
    let bracket = Marked::cursor(TAGS);
    client.open(&tags, &bracket.text);
    let items = client.at_cursor("textDocument/completion", &tags, &bracket).expect("completion");
    let shown = completions(&bracket.text, &items, client.encoding());
    // The same items for every client, as snippets only where the client takes them.
    let name = if editor.takes_snippets { "snippets" } else { "plain_text" };
    insta::assert_snapshot!(format!("completion_in_{name}"), shown);

    // The server asks after `initialized`, so the request may still be on its way: wait for
    // it (the bound only fails the test), or for the server to say it will not ask.
    let asked_settings = if editor.answers_configuration {
        client.received_request("workspace/configuration", Duration::from_secs(30))
    } else {
        loop {
            let logged = client.notified("window/logMessage");
            if logged["message"]
                .as_str()
                .is_some_and(|text| text.contains("answers no workspace/configuration"))
            {
                break;
            }
        }
        client.received_request("workspace/configuration", Duration::ZERO)
    };
    assert_eq!(
        asked_settings, editor.answers_configuration,
        "{name}: workspace/configuration only to a client that declares it"
    );
}

#[test]
fn vscode_pulls_diagnostics_and_counts_utf16() {
    check(&VSCODE);
}

#[test]
fn neovim_0_7_gets_pushed_diagnostics_in_utf16_and_no_snippets() {
    check(&NEOVIM_0_7);
}

#[test]
fn neovim_0_11_pulls_diagnostics_and_counts_utf8() {
    check(&NEOVIM_0_11);
}

#[test]
fn eglot_gets_pushed_diagnostics_in_utf16_plain_hovers_and_no_snippets() {
    check(&EGLOT);
}
