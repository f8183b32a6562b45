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
mod workspace;

use ctlpgn_core::text::LineIndex;
use ctlpgn_test_support::cursor::Marked;
// The in-process client is shared with the fuzzer and the benchmark; the test modules name it
// `crate::client`.
use ctlpgn_test_client as client;
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

/// The items of a completion answer, a list or a `CompletionList`.
pub fn completion_items(answer: &serde_json::Value) -> Vec<serde_json::Value> {
    answer.get("items").unwrap_or(answer).as_array().cloned().unwrap_or_default()
}

/// The protocol's name of a `CompletionItemKind`.
fn completion_kind(kind: &serde_json::Value) -> String {
    const NAMES: [&str; 25] = [
        "Text",
        "Method",
        "Function",
        "Constructor",
        "Field",
        "Variable",
        "Class",
        "Interface",
        "Module",
        "Property",
        "Unit",
        "Value",
        "Enum",
        "Keyword",
        "Snippet",
        "Color",
        "File",
        "Reference",
        "Folder",
        "EnumMember",
        "Constant",
        "Struct",
        "Event",
        "Operator",
        "TypeParameter",
    ];
    let name = kind.as_u64().and_then(|kind| NAMES.get((kind as usize).checked_sub(1)?));
    name.map_or_else(|| format!("kind {kind}"), |name| name.to_string())
}

/// A completion answer as a snapshot shows it, three lines an item: its label (preselected or
/// not), kind and detail; its edit: where it lies (lines and columns in characters, 1-based),
/// the text it replaces, the text it writes (a snippet or plain) and its filter text if any;
/// and the line once the edit is applied as it stands (a snippet not expanded).
pub fn completions(text: &str, answer: &serde_json::Value, encoding: Encoding) -> String {
    let lines = LineIndex::new(text);
    let at = |offset: usize| {
        let (line, column) = lines.line_column(text, offset);
        format!("{line}:{column}")
    };
    let mut out = String::new();
    for item in completion_items(answer) {
        let label = item["label"].as_str().unwrap_or("?");
        let preselected = if item["preselect"] == true { " (preselected)" } else { "" };
        let kind = completion_kind(&item["kind"]);
        let detail = item["detail"].as_str().unwrap_or("");
        out.push_str(&format!("{label}{preselected} · {kind} · {detail}\n"));
        let edit = &item["textEdit"];
        let range = byte_range(text, &edit["range"], encoding);
        let format = if item["insertTextFormat"] == 2 { "snippet" } else { "plain" };
        let new_text = edit["newText"].as_str().unwrap_or("?");
        out.push_str(&format!(
            "    {}-{} {:?} → {format} {new_text:?}",
            at(range.start),
            at(range.end),
            &text[range.clone()],
        ));
        if let Some(filter) = item["filterText"].as_str() {
            out.push_str(&format!(" filtered on {filter:?}"));
        }
        let line_start = text[..range.start].rfind('\n').map_or(0, |newline| newline + 1);
        let line_end = text[range.end..].find('\n').map_or(text.len(), |end| range.end + end);
        let edited = [&text[line_start..range.start], new_text, &text[range.end..line_end]];
        out.push_str(&format!("\n    ⇒ {}\n", edited.concat()));
    }
    out
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
