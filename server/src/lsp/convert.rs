//! The position conversions under their former names, for the files that still call them
//! (documents, code actions, conversions, semantic tokens, structure, formatting): they live
//! in `to_proto` and `from_proto` now. Removed once those files call the new modules.

pub use super::from_proto::{byte_range, offset};
pub use super::to_proto::{position, range, PositionEncoding};
