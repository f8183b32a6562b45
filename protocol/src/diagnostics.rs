//! `textDocument/diagnostic` and `publishDiagnostics`: a document's problems, with the
//! optional rule checks' when the settings ask for them.

use ctlpgn_core::document::Document;
use lsp_types::{
    Diagnostic, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FullDocumentDiagnosticReport, RelatedFullDocumentDiagnosticReport,
};

use crate::context::Context;
use crate::to_proto;

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
