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

/// A text with its expected diagnostics written under the lines they point at, carets under
/// the range (counted in characters) and the code after them:
///
/// ```text
/// 10. JC21×G21, NH22-H16:
///               ^^^^^^^^ K003
/// ```
///
/// Returns the text without the annotation lines, and each expected diagnostic as
/// `line:column-line:column CODE` with 0-based columns in the encoding's units (bytes for
/// UTF-8, code units for UTF-16), sorted.
pub fn annotated(fixture: &str, utf8: bool) -> (String, Vec<String>) {
    let mut text = String::new();
    let mut expected = Vec::new();
    let mut last: Option<(usize, &str)> = None;
    let mut line_number = 0;
    for line in fixture.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_start().starts_with('^') {
            let (annotated_number, annotated_line) =
                last.expect("an annotation follows a line of text");
            let first = content.chars().position(|c| c == '^').unwrap_or(0);
            let carets = content.chars().skip(first).take_while(|&c| c == '^').count();
            let code = content.trim().trim_start_matches('^').trim();
            let units = |chars: usize| -> usize {
                annotated_line
                    .chars()
                    .take(chars)
                    .map(|c| if utf8 { c.len_utf8() } else { c.len_utf16() })
                    .sum()
            };
            expected.push(format!(
                "{annotated_number}:{}-{annotated_number}:{} {code}",
                units(first),
                units(first + carets)
            ));
        } else {
            text.push_str(line);
            last = Some((line_number, content));
            line_number += 1;
        }
    }
    expected.sort();
    (text, expected)
}

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

/// Protocol diagnostics as `line:column-line:column CODE`, sorted.
pub fn compact(diagnostics: &serde_json::Value) -> Vec<String> {
    let mut found: Vec<String> = diagnostics
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .map(|d| {
            let range = &d["range"];
            format!(
                "{}:{}-{}:{} {}",
                range["start"]["line"],
                range["start"]["character"],
                range["end"]["line"],
                range["end"]["character"],
                d["code"].as_str().unwrap_or("?")
            )
        })
        .collect();
    found.sort();
    found
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
