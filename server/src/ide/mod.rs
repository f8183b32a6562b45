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
