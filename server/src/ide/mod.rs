//! The editor's features as plain values: functions of a document (or one record's view) and
//! byte offsets or ranges, knowing nothing of the protocol; `lsp/` decodes, calls and encodes.

pub mod actions;
pub mod folding;
pub mod outline;
pub mod semantic;
