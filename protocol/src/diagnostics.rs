//! `textDocument/diagnostic` and `publishDiagnostics`: a document's problems, with the
//! optional rule checks' when the settings ask for them.

use ctlpgn_core::document::Document;
use lsp_types::{
    Diagnostic, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
};

use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::documents::Documents;
use crate::to_proto;

/// The parameters of `ctlpgn/checkText`: a file's URI and its text as the client read it.
#[derive(Clone, Debug, Deserialize)]
pub struct CheckTextParams {
    pub uri: lsp_types::Uri,
    pub text: String,
}

/// The answer of `ctlpgn/checkText`: the file's problems as if it were open.
#[derive(Clone, Debug, Serialize)]
pub struct CheckTextReply {
    pub uri: lsp_types::Uri,
    pub diagnostics: Vec<Diagnostic>,
}

/// `ctlpgn/checkText`: the problems of a file the client read but did not open (VS Code for the
/// Web's workspace survey, which reads files through VS Code's file system), with the rule
/// checks and the encoding in force, and nothing kept open.
pub fn check_text(
    documents: &Documents,
    params: CheckTextParams,
    context: &Context,
) -> CheckTextReply {
    let document = documents.unopened(&params.text);
    CheckTextReply { uri: params.uri, diagnostics: diagnostics(&document, context) }
}

/// The problems of a document, as pushed.
pub fn diagnostics(document: &Document, context: &Context) -> Vec<Diagnostic> {
    to_proto::document_diagnostics(document, context.negotiated.encoding, context.settings.rules)
}

/// The answer to a pull of a document's problems: empty for a document that is not open.
pub fn report(document: Option<&Document>, context: &Context) -> DocumentDiagnosticReportResult {
    let items = document.map(|document| diagnostics(document, context)).unwrap_or_default();
    let report = FullDocumentDiagnosticReport { result_id: None, items };
    DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
        related_documents: None,
        full_document_diagnostic_report: report,
    })
    .into()
}
