//! Lowering a record's tree-sitter tree into the syntax model (`super::model`): the analysis
//! works on those values, with byte ranges into the record's text, and never walks the tree.

use crate::text::TextRange;

use tree_sitter::{Node, Tree};

use super::node_kind;
use super::{
    Comment, HalfMoveText, Item, MoveLine, RecordSyntax, Reference, ReferenceKind, SpareHalfMoves,
    Tag, Token, Variation,
};

impl Token {
    /// The token of a tree node: its byte range.
    pub(crate) fn of(node: Node<'_>) -> Token {
        let range = node.byte_range();
        Token { range: TextRange::new(range.start, range.end) }
    }
}

/// Lowers the tree of one record's text, `text` (the parts of its half-moves are read from
/// it). A tree holding several records (a stray `[Variant` mid-line is impossible, but a
/// headless prefix is not) yields their items in order.
pub fn lower_record(tree: &Tree, text: &str) -> RecordSyntax {
    let root = tree.root_node();
    let mut record = RecordSyntax { has_error: root.has_error(), ..RecordSyntax::default() };
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        if child.kind() == node_kind::RECORD {
            lower_items(child, text, &mut record);
        } else if child.is_error() {
            record.items.push(Item::Error(Token::of(child)));
        }
    }
    record
}

/// Lowers the items of a record node, descending into its tag section and its variations
/// with one tree cursor and a stack of the bodies being filled (`None`: the record's items).
fn lower_items(record_node: Node<'_>, text: &str, record: &mut RecordSyntax) {
    let mut cursor = record_node.walk();
    let mut bodies: Vec<Option<usize>> = vec![None];
    if !cursor.goto_first_child() {
        return;
    }
    loop {
        let node = cursor.node();
        let body = bodies.last().copied().flatten();
        let mut descend = None;
        if node.is_missing() {
            record.missing.push((node.kind().to_string(), node.start_byte()));
        } else {
            let item = match node.kind() {
                node_kind::TAG_SECTION => {
                    descend = Some(body);
                    None
                }
                node_kind::TAG => Some(Item::Tag(lower_tag(node))),
                node_kind::MOVE_LINE => {
                    Some(Item::MoveLine(lower_move_line(node, text, &mut record.missing)))
                }
                node_kind::COMMENT => Some(Item::Comment(lower_comment(node))),
                node_kind::VARIATION => {
                    let variation = lower_variation(node, record.bodies.len());
                    record.bodies.push(Vec::new());
                    descend = Some(Some(variation.body));
                    Some(Item::Variation(variation))
                }
                node_kind::RESULT => Some(Item::Result(Token::of(node))),
                node_kind::STRAY_CLOSE => {
                    let last = node.child_count().saturating_sub(1);
                    let close = node.child(last).unwrap_or(node);
                    Some(Item::StrayClose(Token::of(close)))
                }
                node_kind::ERROR => Some(Item::Error(Token::of(node))),
                _ => None,
            };
            if let Some(item) = item {
                match body {
                    Some(body) => record.bodies[body].push(item),
                    None => record.items.push(item),
                }
            }
        }
        if let Some(body) = descend {
            if cursor.goto_first_child() {
                bodies.push(body);
                continue;
            }
        }
        while !cursor.goto_next_sibling() {
            if bodies.len() == 1 || !cursor.goto_parent() {
                return;
            }
            bodies.pop();
        }
    }
}

fn field<'t>(node: Node<'t>, name: &str) -> Option<Token> {
    node.child_by_field_name(name).filter(|n| !n.is_missing()).map(Token::of)
}

fn lower_tag(node: Node<'_>) -> Tag {
    Tag {
        range: Token::of(node).range,
        name: field(node, "name")
            .unwrap_or(Token { range: TextRange::new(node.start_byte(), node.start_byte()) }),
        value: field(node, "value"),
        malformed: node.has_error(),
    }
}

/// The field ids of a half-move's parts, looked up once: finding a field by name compares
/// strings on every call, which showed in profiles of whole-file checks.
struct HalfMoveFields {
    ids: [u16; 11],
}

const HALF_MOVE_FIELDS: [&str; 11] = [
    "piece",
    "origin",
    "separator",
    "captured",
    "destination",
    "promotion",
    "castling",
    "check",
    "rating",
    "nag",
    "indicator",
];

fn half_move_fields() -> &'static HalfMoveFields {
    static FIELDS: std::sync::OnceLock<HalfMoveFields> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_ctlpgn::LANGUAGE.into();
        let ids =
            HALF_MOVE_FIELDS.map(|name| language.field_id_for_name(name).map_or(0, |id| id.get()));
        HalfMoveFields { ids }
    })
}

fn lower_half_move(node: Node<'_>) -> HalfMoveText {
    let fields = half_move_fields();
    let mut half_move = HalfMoveText {
        range: Token::of(node).range,
        has_error: node.has_error(),
        ..HalfMoveText::default()
    };
    let mut cursor = node.walk();
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            if let Some(field) = cursor.field_id().filter(|_| !child.is_missing()) {
                let slot = match fields.ids.iter().position(|&id| id == field.get()) {
                    Some(0) => &mut half_move.piece,
                    Some(1) => &mut half_move.origin,
                    Some(2) => &mut half_move.separator,
                    Some(3) => &mut half_move.captured,
                    Some(4) => &mut half_move.destination,
                    Some(5) => &mut half_move.promotion,
                    Some(6) => &mut half_move.castling,
                    Some(7) => &mut half_move.check,
                    Some(8) => &mut half_move.rating,
                    Some(9) => &mut half_move.nag,
                    Some(10) => &mut half_move.indicator,
                    _ => {
                        if !cursor.goto_next_sibling() {
                            break;
                        }
                        continue;
                    }
                };
                *slot = Some(Token::of(child));
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    half_move
}

fn lower_move_line(node: Node<'_>, text: &str, missing: &mut Vec<(String, usize)>) -> MoveLine {
    let mut line = MoveLine::default();
    line.range = Token::of(node).range;
    line.number = Token { range: TextRange::new(node.start_byte(), node.start_byte()) };
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.is_missing() {
            missing.push((child.kind().to_string(), child.start_byte()));
            continue;
        }
        match child.kind() {
            node_kind::INDENTATION => line.indentation = Some(Token::of(child)),
            node_kind::MOVE_NUMBER => line.number = Token::of(child),
            node_kind::ELLIPSIS => line.ellipsis = Some(Token::of(child)),
            node_kind::COMMA => line.comma = Some(Token::of(child)),
            node_kind::HALF_MOVE
                if line.comma.is_none() && line.white().is_none() && line.ellipsis.is_none() =>
            {
                line.set_white(lower_half_move(child), &mut SpareHalfMoves::default());
            }
            node_kind::HALF_MOVE => {
                line.set_black(lower_half_move(child), &mut SpareHalfMoves::default());
            }
            // Text the parser could not place inside the line (`H6-H12 2`, `H6-H1<U+FEFF>2`)
            // belongs to the half-move before it: that half-move is malformed (S004), not
            // silently shorter.
            node_kind::ERROR => {
                let last = if line.black().is_some() { line.black_mut() } else { line.white_mut() };
                if let Some(half_move) = last {
                    half_move.range.end = half_move.range.end.max(child.end_byte());
                    half_move.has_error = true;
                }
            }
            _ => {}
        }
    }
    for half_move in line.half_moves_mut() {
        half_move.read_parts(text, true);
    }
    line
}

fn lower_comment(node: Node<'_>) -> Comment {
    let mut comment = Comment {
        range: Token::of(node).range,
        indentation: None,
        open: Token { range: TextRange::new(node.start_byte(), node.start_byte()) },
        marker: None,
        references: Vec::new(),
        closed: false,
    };
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let kind = match child.kind() {
            node_kind::INDENTATION => {
                comment.indentation = Some(Token::of(child));
                continue;
            }
            node_kind::OPEN_BRACE => {
                comment.open = Token::of(child);
                continue;
            }
            node_kind::CLOSE_BRACE => {
                comment.closed = child.end_byte() > child.start_byte();
                continue;
            }
            node_kind::COMMENT_MARKER => {
                comment.marker = Some(Token::of(child));
                continue;
            }
            node_kind::PLAYER_REFERENCE => ReferenceKind::Player,
            node_kind::MOVE_REFERENCE => ReferenceKind::Move,
            node_kind::HEX_REFERENCE => ReferenceKind::Hex,
            node_kind::PIECE_REFERENCE => ReferenceKind::Piece,
            node_kind::NAG => ReferenceKind::Nag,
            _ => continue,
        };
        comment.references.push(Reference { kind, range: Token::of(child).range });
    }
    comment
}

/// A variation's own tokens; [`lower_items`] lowers its items into body `body`.
fn lower_variation(node: Node<'_>, body: usize) -> Variation {
    let mut variation = Variation {
        range: Token::of(node).range,
        open: Token { range: TextRange::new(node.start_byte(), node.start_byte()) },
        label: field(node, "label"),
        close: None,
        body,
    };
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            node_kind::OPEN_PAREN => variation.open = Token::of(child),
            node_kind::CLOSE_PAREN if !child.is_missing() => {
                variation.close = Some(Token::of(child))
            }
            _ => {}
        }
    }
    variation
}
