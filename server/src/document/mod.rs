//! A document as the editor features see it: its records, each with its text, tree, lowered
//! syntax and analysis, and the mapping between the record's byte offsets and the document's.

mod view;

pub use view::RecordView;
