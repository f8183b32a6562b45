//! The language server tested in-process, through its real transport: documents are opened,
//! edited and questioned by a small client, and the answers are compared with data written
//! beside the text they describe.

mod board;
mod clients;
mod code_actions;
mod completion;
mod completion_clients;
mod conversions;
mod deep_nesting;
mod diagnostics;
mod editing;
mod formatting;
mod full_semantic_tokens;
mod hover;
mod navigation;
mod play;
mod protocol;
mod robustness;
mod semantic_tokens;
mod settings;
mod structure;

use ctlpgn_test_support::cursor::Marked;
// The in-process client is shared with the fuzzer and the benchmark; the test modules name it
// `crate::client`.
use ctlpgn_test_support::lsp as client;
use ctlpgn_test_support::positions::{self, byte_range, Encoding};

/// The code actions at the cursor (or selection) of a marked fixture opened as document
/// `name`, with no diagnostics in the context.
pub fn actions_at(
    client: &mut client::Client,
    name: &str,
    marked: &Marked,
) -> Vec<serde_json::Value> {
    let range = marked.lsp_range(client.encoding());
    let params = serde_json::json!({"textDocument": {"uri": client::uri(name)}, "range": range, "context": {"diagnostics": []}});
    client
        .request("textDocument/codeAction", params)
        .expect("code actions")
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// The actions offered, one a line: kind, title, and whether they are preferred.
pub fn listed(actions: &[serde_json::Value]) -> String {
    actions
        .iter()
        .map(|action| {
            let preferred = if action["isPreferred"] == true { " (preferred)" } else { "" };
            let kind = action["kind"].as_str().unwrap_or("?");
            format!("{kind}: {}{preferred}\n", action["title"].as_str().unwrap_or("?"))
        })
        .collect()
}

/// The encoding a test's `utf8` flag names.
fn encoding(utf8: bool) -> Encoding {
    if utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

/// Turns a position in the encoding's units into a byte offset of `text`.
pub fn offset(text: &str, position: &serde_json::Value, utf8: bool) -> usize {
    let number = |field: &str| position[field].as_u64().expect("a number");
    positions::offset(text, number("line"), number("character"), encoding(utf8))
}

/// Applies LSP text edits the way an editor does: from the last to the first.
pub fn apply(text: &str, edits: &serde_json::Value, utf8: bool) -> String {
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .expect("an array of edits")
        .iter()
        .map(|edit| {
            let range = byte_range(text, &edit["range"], encoding(utf8));
            (range.start, range.end, edit["newText"].as_str().expect("text").to_string())
        })
        .collect();
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.0));
    let mut result = text.to_string();
    for (start, end, new_text) in edits {
        result.replace_range(start..end, &new_text);
    }
    result
}
