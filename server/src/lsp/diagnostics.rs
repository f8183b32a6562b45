//! The diagnostic encoding under its former name, for the code actions that still call it: it
//! lives in `to_proto` now. Removed once they call `to_proto::diagnostic`.

pub use super::to_proto::diagnostic as encode;
