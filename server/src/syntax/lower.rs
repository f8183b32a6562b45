//! Lowering a record's tree-sitter tree into plain values: the analysis works on these, with
//! byte ranges into the record's text, and never walks the tree itself.

use crate::geometry::{valid_coordinate, Hex};
use crate::text::TextRange;

use tree_sitter::{Node, Tree};

use super::node_kind;

/// A token of the text: its byte range in the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Token {
    pub range: TextRange,
}

impl Token {
    pub(crate) fn of(node: Node<'_>) -> Token {
        let range = node.byte_range();
        Token { range: TextRange::new(range.start, range.end) }
    }

    /// The token's text in the record's text.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.range]
    }
}

/// A tag line `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub range: TextRange,
    pub name: Token,
    /// The value token, quotes included; `None` when the tag has no value.
    pub value: Option<Token>,
    /// Whether the tag line holds an error (S002).
    pub malformed: bool,
}

impl Tag {
    /// The value without its quotes and with `\"` and `\\` unescaped.
    pub fn value_text(&self, source: &str) -> Option<String> {
        let raw = self.value.as_ref()?.text(source);
        let inner = raw.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(raw);
        let mut value = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(escaped) = chars.next() {
                    value.push(escaped);
                    continue;
                }
            }
            value.push(c);
        }
        Some(value)
    }

    /// The record's byte range written for `unescaped`, a byte range of [`Tag::value_text`]:
    /// each `\"` or `\\` counts for one byte there but two in the text, so a range found in
    /// the unescaped value (a PDTL problem) is moved past the escapes before it and widened
    /// over those inside it. Ends off a character of the value are moved outwards.
    pub fn value_range_in_text(&self, source: &str, unescaped: TextRange) -> TextRange {
        let Some(token) = self.value.as_ref() else { return self.range };
        let raw = token.text(source);
        let (inner_start, inner) =
            match raw.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) {
                Some(inner) => (token.range.start + 1, inner),
                None => (token.range.start, raw),
            };
        // Walk the text as `value_text` does, keeping each character's place in both.
        let (mut start, mut end) = (None, None);
        let mut value_offset = 0;
        let mut chars = inner.char_indices().peekable();
        while let Some((text_offset, c)) = chars.next() {
            let value_char = match c {
                '\\' => chars.next().map(|(_, escaped)| escaped).unwrap_or(c),
                _ => c,
            };
            let written_end = chars.peek().map_or(inner.len(), |(next, _)| *next);
            let value_end = value_offset + value_char.len_utf8();
            if start.is_none() && unescaped.start < value_end {
                start = Some(inner_start + text_offset);
            }
            if end.is_none() && unescaped.end <= value_offset {
                end = Some(inner_start + text_offset);
            } else if end.is_none() && unescaped.end <= value_end {
                end = Some(inner_start + written_end);
            }
            value_offset = value_end;
        }
        let start = start.unwrap_or(inner_start + inner.len());
        let end = end.unwrap_or(inner_start + inner.len()).max(start);
        TextRange::new(start, end)
    }

    /// Byte range of the value's content, inside the quotes.
    pub fn value_content_range(&self) -> Option<TextRange> {
        let range = self.value.as_ref()?.range;
        Some(TextRange::new(range.start + 1, range.end.saturating_sub(1).max(range.start + 1)))
    }
}

/// The written parts of a half-move, each a token when present.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HalfMoveText {
    pub range: TextRange,
    pub piece: Option<Token>,
    pub origin: Option<Token>,
    pub separator: Option<Token>,
    pub captured: Option<Token>,
    pub destination: Option<Token>,
    pub promotion: Option<Token>,
    pub castling: Option<Token>,
    pub check: Option<Token>,
    pub rating: Option<Token>,
    pub nag: Option<Token>,
    pub indicator: Option<Token>,
    /// Whether an error node lies inside the half-move.
    pub has_error: bool,
    /// The hexes of the origin and the destination where their coordinates are valid, and
    /// whether the parts stand apart ([`HalfMoveText::written_apart`] is `Some`): read with
    /// the syntax (by the reader as it reads the parts), so that the analysis neither reads
    /// every coordinate again nor looks for gaps in every half-move. A coordinate that is
    /// missing or wrong has no hex here; the analysis judges it.
    pub origin_hex: Option<Hex>,
    pub destination_hex: Option<Hex>,
    pub apart: bool,
}

impl HalfMoveText {
    /// Reads what the parts say at once into `origin_hex`, `destination_hex` and `apart`, once
    /// the parts are in place. `may_stand_apart` is false where the caller knows the parts
    /// stand together (the reader reads them so, but for blanks before a check suffix).
    pub(crate) fn read_parts(&mut self, text: &str, may_stand_apart: bool) {
        // Read as bytes: a coordinate is ASCII, and slicing the text as a string would check
        // both ends for character boundaries.
        let hex = |token: &Option<Token>| {
            token.as_ref().and_then(|token| valid_coordinate(&text.as_bytes()[token.range]))
        };
        self.origin_hex = hex(&self.origin);
        self.destination_hex = hex(&self.destination);
        self.apart = may_stand_apart && self.written_apart(text).is_some();
    }

    /// The end of the move itself, before the check suffix and annotations.
    pub fn move_end(&self) -> usize {
        [&self.promotion, &self.destination, &self.castling]
            .into_iter()
            .flatten()
            .map(|token| token.range.end)
            .max()
            .unwrap_or(self.range.end)
    }
}

/// A move line `N. white, black`, `N. …, black` or `N. white`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveLine {
    pub range: TextRange,
    pub indentation: Option<Token>,
    pub number: Token,
    pub white: Option<HalfMoveText>,
    pub ellipsis: Option<Token>,
    pub comma: Option<Token>,
    pub black: Option<HalfMoveText>,
}

/// The kinds of reference inside comments (§12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// `@W`, `@B`
    Player,
    /// `#14`, `#14@B`, `#12.2`, `#14[#12.2]@W`
    Move,
    /// `~F14`
    Hex,
    /// `~K`, `~J[d]`, `~NG25`
    Piece,
    /// `$24`
    Nag,
}

/// A reference inside a comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub kind: ReferenceKind,
    pub range: TextRange,
}

/// A comment `{ … }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub range: TextRange,
    pub indentation: Option<Token>,
    pub open: Token,
    pub marker: Option<Token>,
    pub references: Vec<Reference>,
    /// Whether the comment ends with its `}` (false: N003, it ran to the end of the record).
    pub closed: bool,
}

/// A variation `( … )`. Its items are kept by its record ([`RecordSyntax::items_of`]), not
/// inside it: a record nests variations as deep as its author likes, and a value that held
/// its nested variations would recurse per level when dropped, cloned, compared or printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    pub range: TextRange,
    pub open: Token,
    pub label: Option<Token>,
    /// The `)`; `None` when the variation was never closed (M011).
    pub close: Option<Token>,
    /// Where its items are in [`RecordSyntax::bodies`].
    pub body: usize,
}

/// One item of a record or of a variation, in text order.
// Most items are move lines, so boxing the large variant would cost an allocation per line and
// save nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    Tag(Tag),
    MoveLine(MoveLine),
    Comment(Comment),
    Variation(Variation),
    Result(Token),
    /// A `)` that closes nothing.
    StrayClose(Token),
    /// Text the grammar could not place (an ERROR node).
    Error(Token),
}

impl Item {
    /// The item's byte range in the record.
    pub fn range(&self) -> &TextRange {
        match self {
            Item::Tag(tag) => &tag.range,
            Item::MoveLine(line) => &line.range,
            Item::Comment(comment) => &comment.range,
            Item::Variation(variation) => &variation.range,
            Item::Result(token) | Item::StrayClose(token) | Item::Error(token) => &token.range,
        }
    }
}

/// Where the movetext of a record's items starts: at the first move line, variation, result or
/// stray `)`. Everything before it is the tag section (with any comments among the tags).
pub fn movetext_start(items: &[Item]) -> usize {
    items
        .iter()
        .position(|item| {
            matches!(
                item,
                Item::MoveLine(_) | Item::Variation(_) | Item::Result(_) | Item::StrayClose(_)
            )
        })
        .unwrap_or(items.len())
}

/// A record as values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordSyntax {
    /// The record's own items: tags, the main line's move lines, comments, variations, result.
    pub items: Vec<Item>,
    /// The items of every variation, at the index its `body` gives, in the order of their `(`.
    pub bodies: Vec<Vec<Item>>,
    /// Whether the record's tree holds any error or missing node.
    pub has_error: bool,
    /// Missing tokens the parser inserted (kind and position), besides ERROR items.
    pub missing: Vec<(String, usize)>,
}

impl RecordSyntax {
    /// The items of a variation of this record, in text order.
    pub fn items_of(&self, variation: &Variation) -> &[Item] {
        self.bodies.get(variation.body).map_or(&[], Vec::as_slice)
    }

    /// Whether every comment and variation of the record, at any depth, is closed and no item
    /// is an error: the record's items and every variation's are all its items.
    pub fn all_closed(&self) -> bool {
        std::iter::once(&self.items).chain(&self.bodies).flatten().all(|item| match item {
            Item::Comment(comment) => comment.closed,
            Item::Variation(variation) => variation.close.is_some(),
            Item::Error(_) => false,
            _ => true,
        })
    }

    /// Whether the record reads as its author wrote it: no error or missing node in its tree,
    /// every comment and variation closed. Otherwise the syntax is the parser's best guess.
    pub fn is_clean(&self) -> bool {
        !self.has_error && self.missing.is_empty() && self.all_closed()
    }

    /// A depth-first walk, in text order, over `items` (the record's items or a part of them)
    /// and the items of every variation among them.
    pub fn walk<'a>(&'a self, items: &'a [Item]) -> Walk<'a> {
        Walk { syntax: self, lines: vec![(None, items.iter())], entered: None }
    }
}

/// A step of a [`Walk`].
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// An item, with its nesting depth (0 for the items the walk started with). A variation's
    /// items follow it, then its `Leave`, unless [`Walk::skip_variation`] was called.
    Item(&'a Item, usize),
    /// The end of a variation's items.
    Leave(&'a Variation),
}

/// A depth-first walk over items and their variations with an explicit stack, so that the
/// depth of nesting costs memory, never the thread's stack.
#[derive(Debug)]
pub struct Walk<'a> {
    syntax: &'a RecordSyntax,
    /// The lines of play being walked, innermost last, each with its variation (`None` for the
    /// items the walk started with).
    lines: Vec<(Option<&'a Variation>, std::slice::Iter<'a, Item>)>,
    /// The variation just given, whose items come next.
    entered: Option<&'a Variation>,
}

impl Walk<'_> {
    /// Leaves out the items of the variation just given (and its `Leave`).
    pub fn skip_variation(&mut self) {
        self.entered = None;
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Step<'a>;

    fn next(&mut self) -> Option<Step<'a>> {
        if let Some(variation) = self.entered.take() {
            self.lines.push((Some(variation), self.syntax.items_of(variation).iter()));
        }
        let depth = self.lines.len().checked_sub(1)?;
        let (_, items) = self.lines.last_mut()?;
        match items.next() {
            Some(item) => {
                if let Item::Variation(variation) = item {
                    self.entered = Some(variation);
                }
                Some(Step::Item(item, depth))
            }
            None => {
                let (variation, _) = self.lines.pop()?;
                variation.map(Step::Leave)
            }
        }
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
                    let last = u32::try_from(node.child_count().saturating_sub(1)).ok();
                    let close = last.and_then(|last| node.child(last)).unwrap_or(node);
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
    let mut line = MoveLine {
        range: Token::of(node).range,
        indentation: None,
        number: Token { range: TextRange::new(node.start_byte(), node.start_byte()) },
        white: None,
        ellipsis: None,
        comma: None,
        black: None,
    };
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
                if line.comma.is_none() && line.white.is_none() && line.ellipsis.is_none() =>
            {
                line.white = Some(lower_half_move(child));
            }
            node_kind::HALF_MOVE => line.black = Some(lower_half_move(child)),
            // Text the parser could not place inside the line (`H6-H12 2`, `H6-H1<U+FEFF>2`)
            // belongs to the half-move before it: that half-move is malformed (S004), not
            // silently shorter.
            node_kind::ERROR => {
                if let Some(half_move) = line.black.as_mut().or(line.white.as_mut()) {
                    half_move.range.end = half_move.range.end.max(child.end_byte());
                    half_move.has_error = true;
                }
            }
            _ => {}
        }
    }
    for half_move in [&mut line.white, &mut line.black].into_iter().flatten() {
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
