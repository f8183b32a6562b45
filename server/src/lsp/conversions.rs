//! The conversions in the editor: code actions that rewrite the record under the cursor to
//! standard letters, to FAN or to minimal CTL-PGN, and that start a new record continuing the
//! game from the cursor; and the command that gives the PDTL of the position at the cursor.
//!
//! Each action is an edit the user can undo. A record that does not replay offers none of
//! them: the core refuses to convert what it cannot check.

use tower_lsp_server::lsp_types::{self, CodeAction, CodeActionKind, CodeActionOrCommand, Uri};

use super::code_actions::workspace_edit;
use super::convert::{self, PositionEncoding};
use super::documents::{Document, Record};
use crate::conversion::{self, LetterTarget};

/// The command that answers the PDTL at a position: arguments `[uri, position]`.
pub const POSITION_AT: &str = "ctlpgn.positionAt";

/// The kinds of the conversion actions: the rewrites of a whole record are source actions
/// (VS Code's "Source Action…" menu), the new record continuing from the cursor a refactoring.
/// Neither is offered to a request the editor makes by itself (see `code_actions::actions`),
/// so that no lightbulb follows the cursor.
pub fn kinds() -> [CodeActionKind; 2] {
    [CodeActionKind::new("source.convert.ctlpgn"), CodeActionKind::new("refactor.extract.ctlpgn")]
}

/// The conversion actions of the record holding `range`'s start.
pub fn actions(
    document: &Document,
    uri: &Uri,
    range: lsp_types::Range,
    wanted: impl Fn(&CodeActionKind) -> bool,
    encoding: PositionEncoding,
) -> Vec<CodeActionOrCommand> {
    let offset = convert::offset(document.rope(), range.start, encoding);
    let Some(record) = document.record_at(offset) else { return Vec::new() };
    let parsed = document.parsed(record);
    let (text, syntax, analysis) = (record.state.text.as_str(), &parsed.syntax, &parsed.analysis);
    let [rewrite, extract] = kinds();
    let mut actions = Vec::new();
    if wanted(&rewrite) {
        let letters = [
            (LetterTarget::Standard, "Convert this record to standard letters"),
            (LetterTarget::Fan, "Convert this record to FAN figurines"),
        ];
        for (target, title) in letters {
            if analysis.identifiers == target.identifiers() {
                continue;
            }
            if let Ok(edits) = conversion::reletter_edits(text, syntax, analysis, &target) {
                let edits = edits
                    .into_iter()
                    .map(|edit| (record.in_document(edit.range), edit.new_text))
                    .collect();
                actions.push(action(
                    title,
                    rewrite.clone(),
                    workspace_edit(document, uri, edits, encoding),
                ));
            }
        }
        if let Ok(minimal) = conversion::minimal_record(text, syntax, analysis) {
            // The record keeps the blank lines that follow it; only its content is replaced.
            let content = record.range.start..record.range.start + text.trim_end().len();
            let minimal = minimal.trim_end().to_string();
            if document.rope().byte_slice(content.clone()) != minimal.as_str() {
                let edit = workspace_edit(document, uri, vec![(content, minimal)], encoding);
                actions.push(action("Strip this record to minimal CTL-PGN", rewrite, edit));
            }
        }
    }
    if wanted(&extract) {
        if let Some(continuation) =
            conversion::continuation_at(text, syntax, analysis, offset - record.range.start)
        {
            let edit = workspace_edit(
                document,
                uri,
                vec![insertion_after(document, record, &continuation)],
                encoding,
            );
            actions.push(action("Continue from here in a new record", extract, edit));
        }
    }
    actions
}

/// The insertion of a new record after `record`: a blank line between the two records, and
/// one before the record that follows, if any.
fn insertion_after(
    document: &Document,
    record: &Record,
    new_record: &str,
) -> (std::ops::Range<usize>, String) {
    let text = &record.state.text;
    let separator = if text.ends_with("\n\n") || text.ends_with("\r\n\r\n") {
        ""
    } else if text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    let followed = record.range.end < document.rope().len_bytes();
    let after = if followed { "\n\n" } else { "\n" };
    (record.range.end..record.range.end, format!("{separator}{new_record}{after}"))
}

fn action(
    title: &str,
    kind: CodeActionKind,
    edit: lsp_types::WorkspaceEdit,
) -> CodeActionOrCommand {
    CodeActionOrCommand::CodeAction(CodeAction {
        title: title.to_string(),
        kind: Some(kind),
        edit: Some(edit),
        ..CodeAction::default()
    })
}

/// The PDTL of the position at a place of a document: after the half-move there, or where
/// the line of play stands; `None` when it is not known.
pub fn pdtl_at(
    document: &Document,
    position: lsp_types::Position,
    encoding: PositionEncoding,
) -> Option<String> {
    let offset = convert::offset(document.rope(), position, encoding);
    let record = document.record_at(offset)?;
    let parsed = document.parsed(record);
    conversion::pdtl_at(
        &record.state.text,
        &parsed.syntax,
        &parsed.analysis,
        offset - record.range.start,
    )
}
