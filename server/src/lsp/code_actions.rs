//! `textDocument/codeAction`: the quick fixes the core attached to the diagnostics under the
//! cursor (or whose fix changes the text under it), each as a workspace edit the user can undo, and one "fix all" action applying every
//! fix of the document that has no alternative, and the conversions of the record (`conversions`).

use std::collections::HashMap;
use std::ops::Range;

use tower_lsp_server::lsp_types::{
    self, CodeAction, CodeActionContext, CodeActionKind, CodeActionOrCommand,
    CodeActionTriggerKind, TextEdit, Uri, WorkspaceEdit,
};

use super::conversions;
use super::convert::{self, PositionEncoding};
use super::diagnostics;
use super::documents::{Document, Record};
use crate::diagnostics::{Diagnostic, Fix};

/// The kind of the action that applies every unambiguous fix of a document.
pub fn fix_all_kind() -> CodeActionKind {
    CodeActionKind::new("source.fixAll.ctlpgn")
}

/// The quick fixes of the diagnostics that touch `range` (with `rules`, of the optional rule
/// checks' warnings too), then the document-wide fix-all when any fix exists, then the
/// conversions; the context's `only` narrows the kinds as the client asks.
pub fn actions(
    document: &Document,
    uri: &Uri,
    range: lsp_types::Range,
    context: &CodeActionContext,
    rules: bool,
    encoding: PositionEncoding,
) -> Vec<CodeActionOrCommand> {
    let wanted = |kind: &CodeActionKind| wanted(context, kind);
    let bytes = convert::byte_range(document.rope(), range, encoding);
    let mut actions = Vec::new();
    if wanted(&CodeActionKind::QUICKFIX) {
        for record in document
            .records()
            .iter()
            .filter(|record| record.range.start <= bytes.end && bytes.start <= record.range.end)
        {
            for diagnostic in record.state.shown(rules) {
                // A diagnostic anchored at the `[` of a tag line is also found from the text its
                // fix changes (the tag name, say), where the cursor usually is.
                let mut places = std::iter::once(&diagnostic.range).chain(
                    diagnostic
                        .fixes
                        .iter()
                        .flat_map(|fix| fix.edits.iter().map(|edit| &edit.range)),
                );
                if places.any(|place| {
                    let place = record.in_document(place.clone());
                    place.start <= bytes.end && bytes.start <= place.end
                }) {
                    let preferred = diagnostic.fixes.len() == 1;
                    for fix in &diagnostic.fixes {
                        actions.push(quick_fix(
                            document, record, uri, diagnostic, fix, preferred, encoding,
                        ));
                    }
                }
            }
        }
    }
    if wanted(&fix_all_kind()) {
        if let Some(fix_all) = fix_all(document, uri, rules, encoding) {
            actions.push(fix_all);
        }
    }
    actions.extend(conversions::actions(document, uri, range, wanted, encoding));
    actions
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

/// One fix of one diagnostic.
fn quick_fix(
    document: &Document,
    record: &Record,
    uri: &Uri,
    diagnostic: &Diagnostic,
    fix: &Fix,
    preferred: bool,
    encoding: PositionEncoding,
) -> CodeActionOrCommand {
    let rope = document.rope();
    let edits = fix
        .edits
        .iter()
        .map(|edit| (record.in_document(edit.range.clone()), edit.text.clone()))
        .collect();
    let found = convert::range(rope, record.in_document(diagnostic.range.clone()), encoding);
    CodeActionOrCommand::CodeAction(CodeAction {
        title: fix.title.clone(),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostics::encode(diagnostic, found)]),
        edit: Some(workspace_edit(document, uri, edits, encoding)),
        is_preferred: preferred.then_some(true),
        ..CodeAction::default()
    })
}

/// Every fix of the document that is the only one of its diagnostic, skipping any whose
/// edits would overlap an earlier one (two renumberings of one line, say); `None` when there
/// is nothing to fix.
fn fix_all(
    document: &Document,
    uri: &Uri,
    rules: bool,
    encoding: PositionEncoding,
) -> Option<CodeActionOrCommand> {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    for record in document.records() {
        for diagnostic in record.state.shown(rules) {
            let [fix] = diagnostic.fixes.as_slice() else { continue };
            let placed: Vec<(Range<usize>, String)> = fix
                .edits
                .iter()
                .map(|edit| (record.in_document(edit.range.clone()), edit.text.clone()))
                .collect();
            let overlaps = placed.iter().any(|(new, _)| {
                edits
                    .iter()
                    .any(|(old, _)| new.start < old.end && old.start < new.end || new == old)
            });
            if !overlaps {
                edits.extend(placed);
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: "Fix all CTL-PGN problems with an obvious fix".to_string(),
        kind: Some(fix_all_kind()),
        edit: Some(workspace_edit(document, uri, edits, encoding)),
        ..CodeAction::default()
    }))
}

/// Byte-range replacements of a document as a workspace edit in the negotiated encoding.
pub fn workspace_edit(
    document: &Document,
    uri: &Uri,
    edits: Vec<(Range<usize>, String)>,
    encoding: PositionEncoding,
) -> WorkspaceEdit {
    let rope = document.rope();
    let edits = edits
        .into_iter()
        .map(|(range, new_text)| TextEdit {
            range: convert::range(rope, range, encoding),
            new_text,
        })
        .collect();
    WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }
}
