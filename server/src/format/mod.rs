//! The formatter (handbook §7, §10-§12 layout): lossless, idempotent export layout of records, as minimal edits.
