//! The core's diagnostics as protocol diagnostics: the handbook's code (`K003`), source
//! `ctlpgn`, the message followed by the code's kebab-case name in brackets (as the command
//! line prints it), the severity, and the exact range in the negotiated encoding.

use tower_lsp_server::lsp_types::{self, DiagnosticSeverity, NumberOrString};

use super::convert::{self, PositionEncoding};
use super::documents::Document;
use crate::diagnostics::{Diagnostic, Severity};

/// Every diagnostic of a document, in text order; with `rules`, the warnings of the optional
/// rule checks too.
pub fn of_document(
    document: &Document,
    encoding: PositionEncoding,
    rules: bool,
) -> Vec<lsp_types::Diagnostic> {
    document
        .records()
        .iter()
        .flat_map(|record| {
            record.state.shown(rules).map(move |diagnostic| {
                let range = convert::range(
                    document.rope(),
                    record.in_document(diagnostic.range.clone()),
                    encoding,
                );
                encode(diagnostic, range)
            })
        })
        .collect()
}

/// A core diagnostic as the protocol's, at `range`.
pub fn encode(diagnostic: &Diagnostic, range: lsp_types::Range) -> lsp_types::Diagnostic {
    let severity = match diagnostic.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Hint => DiagnosticSeverity::HINT,
    };
    lsp_types::Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(diagnostic.code.as_str().to_string())),
        source: Some("ctlpgn".to_string()),
        message: format!("{} [{}]", diagnostic.message, diagnostic.code.name()),
        ..lsp_types::Diagnostic::default()
    }
}
