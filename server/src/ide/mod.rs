//! The editor's features as plain values: functions of a document (or one record's
//! `RecordView`) and byte offsets or ranges of the document, returning byte ranges of the
//! document. The protocol edge (`lsp`) decodes positions, calls these and encodes their
//! answers; nothing here knows the protocol.

pub mod actions;
pub mod board;
pub mod completion;
pub mod folding;
pub mod hover;
pub mod navigation;
pub mod outline;
pub mod semantic;

#[cfg(test)]
mod robustness_tests;

#[cfg(test)]
mod tests {
    /// A record with tags, a variation and a comment on two lines: what the outline and the
    /// folds are tried on.
    pub const GAME: &str = "[Variant \"C'escacs\"]\n[White \"Pérez\"]\n[Black \"Vidal\"]\n\n1. K4-K6, E21-E19\n(1. …, E21-E17\n2. B4-B6, K24-K18)\n{A comment\non two lines}\n2. JF6-B18, EE23-D20:\n*\n\n";
}
