//! Text as the core handles it: byte ranges, edits of byte ranges, and the line and column
//! arithmetic the handbook writes positions in, and the lines and columns an editor counts
//! (`columns`), which the edges convert with.

pub mod columns;
mod edit;
mod line_index;
mod quote;
mod range;

pub use edit::{apply_edits, apply_edits_within, TextEdit};
pub use line_index::{on_one_line, LineIndex};
pub use quote::{quoted, QUOTED};
pub use range::TextRange;
