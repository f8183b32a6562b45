//! The lines of play of a record as one tree (handbook §11.2): the main line, each variation
//! with the move line it branches from and the half-move it replaces, and where each comment
//! stands among them. The line-of-play queries (history, position, the board at a place) and
//! the resolution of move references (§12.3) both read it, so that they agree on every
//! history; the movetext walk judges the same branching rule ([`replaced_side`]) and starts
//! each variation where the same rule says its history ends ([`played_before`]).

use crate::pieces::Side;
use crate::syntax::{Comment, HalfMoveText, Item, MoveLine, RecordSyntax, Step, Variation};
use crate::text::TextRange;

/// Where a comment stands in the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CommentPlace {
    /// Before the first move line, variation or result: the history is empty.
    Start,
    /// Among the items of a line of play.
    Play,
    /// After the result line: the history is the whole main line.
    Final,
}

/// A comment and its place: the line of play it stands in (its position in the text tells
/// which move lines and variations come before it).
#[derive(Debug)]
pub(crate) struct Site<'a> {
    pub comment: &'a Comment,
    pub line: usize,
    pub place: CommentPlace,
}

impl Site<'_> {
    pub fn offset(&self) -> usize {
        self.comment.open.range.start
    }
}

/// A move line of a line of play with its written number (`N.` and `1?` give `N` and 1).
#[derive(Debug)]
pub(crate) struct NumberedMoveLine<'a> {
    pub number: u32,
    pub line: &'a MoveLine,
}

/// Where a variation branches off its parent line of play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Branch {
    pub parent: usize,
    /// The parent's move line the variation is attached to, as an index into its moves; `None`
    /// for a variation before any move line (M012), which replaces nothing.
    pub attach: Option<usize>,
    /// The side whose half-move the variation replaces: Black's for `(N. …, Y`, White's
    /// otherwise (and for a variation without a move line, which replaces nothing).
    pub replaced: Side,
}

/// The main line or a variation.
#[derive(Debug, Default)]
pub(crate) struct PlayLine<'a> {
    pub moves: Vec<NumberedMoveLine<'a>>,
    /// The variations attached to this line's move lines, in text order (line ids).
    pub children: Vec<usize>,
    /// `None` for the main line.
    pub branch: Option<Branch>,
    pub variation: Option<&'a Variation>,
    /// The number of the move line the variation is attached to.
    pub attach_number: Option<u32>,
    /// The label `$[n]` when well formed.
    pub label: Option<u32>,
}

impl PlayLine<'_> {
    /// The range a whole-variation reference designates: from its `(` to its end.
    pub fn range(&self) -> TextRange {
        self.variation.map_or(TextRange::default(), |variation| {
            TextRange::new(variation.open.range.start, variation.range.end)
        })
    }

    /// Whether the variation's `)` ends at or before `offset`.
    pub fn closed_before(&self, offset: usize) -> bool {
        self.variation
            .and_then(|variation| variation.close.as_ref())
            .is_some_and(|close| close.range.end <= offset)
    }

    /// Whether the line holds `offset`: a variation opened before it and not closed before it
    /// (its `)` included), or the main line.
    fn holds(&self, offset: usize) -> bool {
        self.variation.is_none_or(|variation| {
            variation.range.start < offset
                && variation.close.as_ref().is_none_or(|close| offset < close.range.end)
        })
    }
}

/// One move line of a history, possibly cut to White's half-move (the parent's move that a
/// Black-first variation keeps).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<'a> {
    pub number: u32,
    pub line: &'a MoveLine,
    pub white: Option<&'a HalfMoveText>,
    pub black: Option<&'a HalfMoveText>,
}

impl<'a> Entry<'a> {
    pub fn of(item: &NumberedMoveLine<'a>) -> Entry<'a> {
        Entry {
            number: item.number,
            line: item.line,
            white: item.line.white(),
            black: item.line.black(),
        }
    }

    pub fn half_move(&self, side: Side) -> Option<&'a HalfMoveText> {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }
}

/// The lines of play of a record and the comments among them.
#[derive(Debug)]
pub(crate) struct PlayTree<'a> {
    /// The main line first, then the variations in the order their `(` is written.
    pub lines: Vec<PlayLine<'a>>,
    /// The comments of the record, in text order.
    pub sites: Vec<Site<'a>>,
    /// The number of the first main-line move line, for start comments.
    pub first_number: Option<u32>,
}

impl<'a> PlayTree<'a> {
    /// Builds the tree from all the items of a record.
    pub fn build(text: &'a str, syntax: &'a RecordSyntax) -> PlayTree<'a> {
        let mut tree =
            PlayTree { lines: vec![PlayLine::default()], sites: Vec::new(), first_number: None };
        tree.walk(text, syntax);
        tree.first_number = tree.lines[0].moves.first().map(|first| first.number);
        tree
    }

    /// Adds the record's lines of play to the tree, walking its items with a stack of the
    /// lines of play they stand in (each with the comments' place there), innermost last.
    fn walk(&mut self, text: &'a str, syntax: &'a RecordSyntax) {
        let mut open = vec![(0, CommentPlace::Start)];
        for step in syntax.walk(&syntax.items) {
            let item = match step {
                Step::Item(item, _) => item,
                Step::Leave(_) => {
                    open.pop();
                    continue;
                }
            };
            let Some((line, place)) = open.last_mut() else { return };
            let line = *line;
            match item {
                Item::MoveLine(move_line) => {
                    if *place == CommentPlace::Start {
                        *place = CommentPlace::Play;
                    }
                    let number = move_number(move_line.number.text(text)).unwrap_or(u32::MAX);
                    self.lines[line].moves.push(NumberedMoveLine { number, line: move_line });
                }
                Item::Variation(variation) => {
                    if *place == CommentPlace::Start {
                        *place = CommentPlace::Play;
                    }
                    let attach = self.lines[line].moves.len().checked_sub(1);
                    let replaced = replaced_side(syntax, variation).unwrap_or(Side::White);
                    let id = self.lines.len();
                    self.lines.push(PlayLine {
                        moves: Vec::new(),
                        children: Vec::new(),
                        branch: Some(Branch { parent: line, attach, replaced }),
                        variation: Some(variation),
                        attach_number: attach.map(|index| self.lines[line].moves[index].number),
                        label: variation
                            .label
                            .as_ref()
                            .and_then(|label| label_number(label.text(text))),
                    });
                    self.lines[line].children.push(id);
                    open.push((id, CommentPlace::Play));
                }
                Item::Comment(comment) => self.sites.push(Site { comment, line, place: *place }),
                Item::Result(_) if line == 0 => *place = CommentPlace::Final,
                _ => {}
            }
        }
    }

    /// The innermost line of play holding `offset`: from the main line, into the variation
    /// opened before the offset and not closed before it, and so on inwards.
    pub fn line_at(&self, offset: usize) -> usize {
        let mut line = 0;
        // Sibling variations do not overlap (one never closed runs to the record's end, and
        // nothing follows it), so at most one child holds the offset.
        while let Some(&inner) =
            self.lines[line].children.iter().find(|&&child| self.lines[child].holds(offset))
        {
            line = inner;
        }
        line
    }

    /// The line of play `line` and the lines it branches from, innermost first; lazy, as the
    /// search among them stops at the first variation found.
    pub fn ancestry(&self, line: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(line), |&current| {
            self.lines[current].branch.map(|branch| branch.parent)
        })
    }

    /// The lines the history of `line` before `offset` runs through, innermost first, each
    /// with the offset its part of the history stops at: up the branches, to the main line or
    /// to the first variation that replaces nothing.
    fn history_chain(
        &self,
        line: usize,
        offset: usize,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        std::iter::successors(Some((line, offset)), |&(current, _)| {
            match self.lines[current].branch {
                Some(Branch { parent, attach: Some(attach), .. }) => {
                    Some((parent, self.lines[parent].moves[attach].line.range.start))
                }
                _ => None,
            }
        })
    }

    /// Whether the history of `line` reaches back to the record's start: no variation on the
    /// way up stands where no move line was written to branch from.
    pub fn rooted(&self, line: usize) -> bool {
        self.history_chain(line, 0).last().is_some_and(|(top, _)| top == 0)
    }

    /// The history of a line of play before `offset` (§12.3 rule 1), newest first: its own
    /// move lines that start before `offset`, then the history of its parent before the move
    /// line it is attached to. Lazy, so that a reference found among the newest moves costs no
    /// walk of the whole history: in a record nested 100,000 deep, building every comment's
    /// history took time quadratic in the depth.
    pub fn history_back(&self, line: usize, offset: usize) -> impl Iterator<Item = Entry<'a>> + '_ {
        self.history_chain(line, offset).flat_map(move |(line, offset)| {
            let play_line = &self.lines[line];
            let before = play_line.moves.partition_point(|item| item.line.range.start < offset);
            let own = play_line.moves[..before].iter().rev().map(Entry::of);
            // A variation keeps the half-moves of its move line played before the one it
            // replaces: White's, for a Black-first variation of a move line that has one.
            let kept = match play_line.branch {
                Some(Branch { parent, attach: Some(attach), replaced }) => {
                    let attached = &self.lines[parent].moves[attach];
                    played_before(attached.line, replaced).map(|white| Entry {
                        white: Some(white),
                        black: None,
                        ..Entry::of(attached)
                    })
                }
                _ => None,
            };
            own.chain(kept)
        })
    }
}

/// The side whose half-move a variation replaces (§11.2): Black's when its first move line
/// starts with an ellipsis (`(N. …, Y`), White's otherwise; `None` when it holds no move line.
pub(crate) fn replaced_side(syntax: &RecordSyntax, variation: &Variation) -> Option<Side> {
    first_move_line(syntax, variation).map(side_replaced_by)
}

/// The half-move of the move line a variation is attached to that is played before the one
/// the variation replaces (§11.2), so that the variation starts after it: White's, when it
/// replaces Black's and the move line has one. None otherwise: a variation replacing White's
/// half-move, or Black's of a move line without White's (`N. …, Y`, a PDTL giving Black the
/// move, or the first move line of a Black-first variation), starts where that move line
/// does. The history of a variation ([`PlayTree::history_back`]) and the position the
/// movetext walk starts it from both follow this.
pub(crate) fn played_before(attached: &MoveLine, replaced: Side) -> Option<&HalfMoveText> {
    match replaced {
        Side::White => None,
        Side::Black => attached.white(),
    }
}

/// The side whose half-move a variation replaces, told by its first move line.
fn side_replaced_by(first: &MoveLine) -> Side {
    match first.ellipsis {
        Some(_) => Side::Black,
        None => Side::White,
    }
}

/// The first move line of a variation, which says what it replaces.
fn first_move_line<'a>(syntax: &'a RecordSyntax, variation: &Variation) -> Option<&'a MoveLine> {
    syntax.items_of(variation).iter().find_map(|item| match item {
        Item::MoveLine(line) => Some(line),
        _ => None,
    })
}

/// The number of a move number token: `12.` gives 12, `1?` gives 1; `None` for a number the
/// parser had to invent (empty) or one too large to read.
pub(crate) fn move_number(written: &str) -> Option<u32> {
    written.get(..written.len().saturating_sub(1))?.parse().ok()
}

/// The number of a well-formed label `$[n]` (n ≥ 1, no leading zero).
fn label_number(written: &str) -> Option<u32> {
    let digits = written.strip_prefix("$[")?.strip_suffix(']')?;
    if digits.starts_with('0') {
        return None;
    }
    digits.parse().ok().filter(|&n| n >= 1)
}
