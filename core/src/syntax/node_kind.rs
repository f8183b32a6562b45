//! The kinds of the grammar's nodes the code names, one constant each, so that a kind is
//! spelled once and the tidy test (`server/tests/tidy.rs`) can check every one against the
//! grammar's `node-types.json`: a kind renamed in the grammar fails that test instead of
//! silently never matching. Named nodes first, then the anonymous ones (punctuation), then
//! tree-sitter's own kind for text it could not place.

// ---- Named nodes --------------------------------------------------------------------------

pub const RECORD: &str = "record";
pub const TAG_SECTION: &str = "tag_section";
pub const TAG: &str = "tag";
pub const TAG_NAME: &str = "tag_name";
pub const TAG_VALUE: &str = "tag_value";
pub const MOVE_LINE: &str = "move_line";
pub const MOVE_NUMBER: &str = "move_number";
pub const ELLIPSIS: &str = "ellipsis";
pub const INDENTATION: &str = "indentation";
pub const HALF_MOVE: &str = "half_move";
pub const PIECE: &str = "piece";
pub const COORDINATE: &str = "coordinate";
pub const SEPARATOR: &str = "separator";
pub const PROMOTION: &str = "promotion";
pub const CASTLING: &str = "castling";
pub const CHECK: &str = "check";
pub const RATING: &str = "rating";
pub const NAG: &str = "nag";
pub const INDICATOR: &str = "indicator";
pub const COMMENT: &str = "comment";
pub const COMMENT_MARKER: &str = "comment_marker";
pub const COMMENT_TEXT: &str = "comment_text";
pub const PLAYER_REFERENCE: &str = "player_reference";
pub const MOVE_REFERENCE: &str = "move_reference";
pub const HEX_REFERENCE: &str = "hex_reference";
pub const PIECE_REFERENCE: &str = "piece_reference";
pub const VARIATION: &str = "variation";
pub const LABEL: &str = "label";
pub const RESULT: &str = "result";
pub const STRAY_CLOSE: &str = "stray_close";

// ---- Anonymous nodes ----------------------------------------------------------------------

pub const COMMA: &str = ",";
pub const OPEN_PAREN: &str = "(";
pub const CLOSE_PAREN: &str = ")";
pub const CLOSE_BRACKET: &str = "]";
pub const OPEN_BRACE: &str = "{";
pub const CLOSE_BRACE: &str = "}";

// ---- tree-sitter's own ----------------------------------------------------------------------

/// Text the parser could not place: no grammar rule, so not in `node-types.json`.
pub const ERROR: &str = "ERROR";
