//! `textDocument/codeAction` and `codeAction/resolve`: `ide::actions`' quick fixes, fix-all
//! and conversions encoded as workspace edits in the negotiated encoding.
//!
//! The quick fixes are small and sent with their edits. The fix-all (every fix of the
//! document) and the conversions (a whole record rewritten and replayed to check it) are
//! sent without an edit, with `data` naming the document, its version, the action and the
//! place, and made in `codeAction/resolve` when the user picks one, for a client that says
//! it resolves edits (`codeAction.resolveSupport.properties` holding `edit`); any other client
//! gets them made at once. An action of a version that was edited since is answered with an
//! error, never with edits for a text that is gone.

use std::collections::HashMap;

use crate::error::ResponseError as Error;
use lsp_types::{
    self, CodeAction, CodeActionContext, CodeActionKind, CodeActionOrCommand,
    CodeActionTriggerKind, TextEdit, Uri, WorkspaceEdit,
};
use serde::{Deserialize, Serialize};

use super::encoding::PositionEncoding;
use super::from_proto;
use super::to_proto;
use ctlpgn_core::document::Document;
use ctlpgn_core::ide::actions::{self, Action, ActionKind, Conversion};

/// The kind of the action that applies every unambiguous fix of a document.
pub fn fix_all_kind() -> CodeActionKind {
    CodeActionKind::new("source.fixAll.ctlpgn")
}

/// The kinds of the conversion actions: the rewrites of a whole record are source actions
/// (VS Code's "Source Action…" menu), the new record continuing from the cursor a refactoring.
/// Neither is offered to a request the editor makes by itself (see `wanted`), so that no
/// lightbulb follows the cursor.
pub fn conversion_kinds() -> [CodeActionKind; 2] {
    [CodeActionKind::new("source.convert.ctlpgn"), CodeActionKind::new("refactor.extract.ctlpgn")]
}

/// The protocol kind of an action.
fn protocol_kind(kind: ActionKind) -> CodeActionKind {
    let [rewrite, extract] = conversion_kinds();
    match kind {
        ActionKind::QuickFix => CodeActionKind::QUICKFIX,
        ActionKind::FixAll => fix_all_kind(),
        ActionKind::ConvertRecord => rewrite,
        ActionKind::ContinueInNewRecord => extract,
    }
}

/// What a lazy action keeps for `codeAction/resolve`.
#[derive(Debug, Serialize, Deserialize)]
pub struct Lazy {
    pub uri: Uri,
    /// The version of the document the action was offered for.
    pub version: i32,
    /// `fixAll`, or a conversion's name (`ide::actions::Conversion::name`).
    pub action: String,
    /// The range of the request, whose start is the place of a conversion.
    pub range: lsp_types::Range,
}

const FIX_ALL: &str = "fixAll";

/// The quick fixes of the diagnostics that touch `range` (with `rules`, of the optional rule
/// checks' warnings too), then the document-wide fix-all when any fix exists, then the
/// conversions; the context's `only` narrows the kinds as the client asks. With `lazy`, the
/// fix-all and the conversions come without their edits (see the module's comment).
pub fn actions(
    document: &Document,
    uri: &Uri,
    range: lsp_types::Range,
    context: &CodeActionContext,
    rules: bool,
    encoding: PositionEncoding,
    lazy: bool,
) -> Vec<CodeActionOrCommand> {
    let wanted = |kind: &CodeActionKind| wanted(context, kind);
    let bytes = from_proto::byte_range(document.rope(), range, encoding);
    let mut found = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        found.extend(
            actions::quick_fixes(document, bytes, rules)
                .into_iter()
                .map(|action| encode(document, uri, action, encoding)),
        );
    }
    let lazy_action = |title: &str, kind: ActionKind, action: &str| {
        let data = Lazy {
            uri: uri.clone(),
            version: document.version(),
            action: action.to_string(),
            range,
        };
        CodeActionOrCommand::CodeAction(CodeAction {
            title: title.to_string(),
            kind: Some(protocol_kind(kind)),
            data: serde_json::to_value(data).ok(),
            ..CodeAction::default()
        })
    };
    if wanted(&fix_all_kind()) {
        if lazy {
            if actions::offers_fix_all(document, rules) {
                found.push(lazy_action(actions::FIX_ALL_TITLE, ActionKind::FixAll, FIX_ALL));
            }
        } else if let Some(fix_all) = actions::fix_all(document, rules) {
            found.push(encode(document, uri, fix_all, encoding));
        }
    }
    if conversion_kinds().iter().any(wanted) {
        let offset = bytes.start;
        if lazy {
            for conversion in actions::offered_conversions(document, offset) {
                if wanted(&protocol_kind(conversion.kind())) {
                    found.push(lazy_action(
                        conversion.title(),
                        conversion.kind(),
                        conversion.name(),
                    ));
                }
            }
        } else {
            // Only the conversions asked for are made, and only those that change the text
            // are offered.
            let asked =
                Conversion::ALL.into_iter().filter(|which| wanted(&protocol_kind(which.kind())));
            for which in asked {
                if let Some(action) = actions::conversion(document, offset, which)
                    .filter(|action| !action.edits.is_empty())
                {
                    found.push(encode(document, uri, action, encoding));
                }
            }
        }
    }
    found
}

/// Makes the edit of a lazy action: `Ok` with the action and its edit, or an error when the
/// action's document changed or closed since, or when the action no longer applies.
pub fn resolve(
    document: Option<&Document>,
    mut action: CodeAction,
    rules: bool,
    encoding: PositionEncoding,
) -> Result<CodeAction, Error> {
    let Some(lazy) = action.data.clone().and_then(|data| serde_json::from_value::<Lazy>(data).ok())
    else {
        // Not one of ours, or already made: as it is.
        return Ok(action);
    };
    let modified = |message: &str| Error::content_modified(message);
    let document = document
        .filter(|document| document.version() == lazy.version)
        .ok_or_else(|| modified("the document changed since the action was offered"))?;
    let offset = from_proto::offset(document.rope(), lazy.range.start, encoding);
    let made = if lazy.action == FIX_ALL {
        actions::fix_all(document, rules)
    } else {
        let conversion = Conversion::from_name(&lazy.action)
            .ok_or_else(|| Error::invalid_params(format!("unknown action {}", lazy.action)))?;
        actions::conversion(document, offset, conversion)
    };
    let made =
        made.ok_or_else(|| Error::invalid_params("the action no longer applies to this record"))?;
    action.edit = Some(workspace_edit(document, &lazy.uri, made.edits, encoding));
    Ok(action)
}

/// Whether a request wants actions of `kind`. With no `only`, a request the editor makes by
/// itself as the cursor moves (VS Code's lightbulb: trigger kind `Automatic`) gets the quick
/// fixes alone: the fix-all and the conversions are whole-record work for a menu the user
/// opens, and offering them everywhere would put a lightbulb on every line. A request without
/// a trigger kind (older clients) is the user's.
fn wanted(context: &CodeActionContext, kind: &CodeActionKind) -> bool {
    match &context.only {
        Some(only) => only.iter().any(|asked| kind.as_str().starts_with(asked.as_str())),
        None => {
            context.trigger_kind != Some(CodeActionTriggerKind::AUTOMATIC)
                || *kind == CodeActionKind::QUICKFIX
        }
    }
}

/// An action made, as the protocol's.
fn encode(
    document: &Document,
    uri: &Uri,
    action: Action<'_>,
    encoding: PositionEncoding,
) -> CodeActionOrCommand {
    let found = action.diagnostic.map(|(diagnostic, range)| {
        vec![to_proto::diagnostic(diagnostic, to_proto::range(document.rope(), range, encoding))]
    });
    CodeActionOrCommand::CodeAction(CodeAction {
        title: action.title,
        kind: Some(protocol_kind(action.kind)),
        diagnostics: found,
        edit: Some(workspace_edit(document, uri, action.edits, encoding)),
        is_preferred: action.preferred.then_some(true),
        ..CodeAction::default()
    })
}

/// Byte-range replacements of a document as a workspace edit in the negotiated encoding.
fn workspace_edit(
    document: &Document,
    uri: &Uri,
    edits: Vec<ctlpgn_core::text::TextEdit>,
    encoding: PositionEncoding,
) -> WorkspaceEdit {
    let rope = document.rope();
    let edits = edits
        .into_iter()
        .map(|edit| TextEdit {
            range: to_proto::range(rope, edit.range, encoding),
            new_text: edit.new_text,
        })
        .collect();
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}
