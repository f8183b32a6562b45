//! What follows a place in the tree of lines of play (handbook §11.2), for playing a half-move
//! there: the half-move the place stands after (the one under it, or the last of its history),
//! the half-move written next in that half-move's line of play, and the variations that
//! replace that next half-move. A half-move played at the place is one of these, a new
//! variation beside them, or, when nothing follows, the continuation of the line.

use super::tree::PlayTree;
use crate::pieces::Side;
use crate::syntax::{HalfMoveText, Item, MoveLine, RecordSyntax};

/// A written half-move as a node of the tree: its line of play, the index of its move line
/// among that line's move lines, and its side.
#[derive(Clone, Copy, Debug)]
pub struct Node<'a> {
    /// The line of play (an index into [`PlayTree::lines`]; 0 is the main line).
    pub line: usize,
    /// The move line's index among the line's move lines.
    pub index: usize,
    pub side: Side,
    pub half_move: &'a HalfMoveText,
}

/// What follows a place.
#[derive(Clone, Debug)]
pub struct Followers<'a> {
    /// The line of play a half-move played at the place continues: that of `after`, or the
    /// main line at the record's start.
    pub line: usize,
    /// The half-move the place stands after; `None` at the record's start.
    pub after: Option<Node<'a>>,
    /// The half-move written next in `line` after `after`.
    pub next: Option<Node<'a>>,
    /// The first half-moves of the variations that replace `next`, in text order.
    pub variations: Vec<Node<'a>>,
}

impl<'a> PlayTree<'a> {
    /// What follows byte `offset`: the half-move whose text holds the offset (its end
    /// included) is the one the place stands after, as for the position there
    /// (`position_at`); elsewhere, the last half-move of the history.
    pub fn followers(&self, offset: usize) -> Followers<'a> {
        let innermost = self.line_at(offset);
        let held = self.half_moves(innermost).find(|node| node.half_move.range.touches(offset));
        let after = held.or_else(|| {
            let last = *self.history(offset).half_moves.last()?;
            self.ancestry(innermost).find_map(|line| self.node_of(line, last.line, last.side))
        });
        let line = after.map_or(0, |after| after.line);
        let next = match after {
            None => self.half_moves(0).next(),
            Some(after) => self.half_moves(after.line).skip_while(|node| !node.is(after)).nth(1),
        };
        let variations = next.map_or_else(Vec::new, |next| self.variations_replacing(next));
        Followers { line, after, next, variations }
    }

    /// The written half-moves of a line of play, in order (not those of its variations).
    pub fn half_moves(&self, line: usize) -> impl Iterator<Item = Node<'a>> + '_ {
        self.lines[line].moves.iter().enumerate().flat_map(move |(index, item)| {
            [(Side::White, item.line.white()), (Side::Black, item.line.black())]
                .into_iter()
                .filter_map(move |(side, half_move)| {
                    Some(Node { line, index, side, half_move: half_move? })
                })
        })
    }

    /// The node of `side`'s half-move of `move_line`, when it is one of `line`'s move lines.
    fn node_of(&self, line: usize, move_line: &MoveLine, side: Side) -> Option<Node<'a>> {
        let moves = &self.lines[line].moves;
        let index = moves
            .binary_search_by_key(&move_line.range.start, |item| item.line.range.start)
            .ok()?;
        let half_move = match side {
            Side::White => moves[index].line.white(),
            Side::Black => moves[index].line.black(),
        }?;
        Some(Node { line, index, side, half_move })
    }

    /// The first half-moves of the variations that replace `node` (§11.2): those attached to
    /// its move line that replace its side.
    fn variations_replacing(&self, node: Node<'a>) -> Vec<Node<'a>> {
        self.lines[node.line]
            .children
            .iter()
            .filter(|&&child| {
                self.lines[child].branch.is_some_and(|branch| {
                    branch.attach == Some(node.index) && branch.replaced == node.side
                })
            })
            .filter_map(|&child| self.half_moves(child).next())
            .collect()
    }

    /// The items of a line of play: the record's for the main line, a variation's own.
    pub fn items_of_line(&self, syntax: &'a RecordSyntax, line: usize) -> &'a [Item] {
        match self.lines[line].variation {
            Some(variation) => syntax.items_of(variation),
            None => &syntax.items,
        }
    }

    /// How deep a line of play is nested: 0 for the main line.
    pub fn depth(&self, line: usize) -> usize {
        self.ancestry(line).count() - 1
    }
}

impl Node<'_> {
    /// Whether two nodes are the same half-move.
    fn is(&self, other: Node<'_>) -> bool {
        self.half_move.range == other.half_move.range
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    /// Lines of play two deep: a Black-first and a White-first variation of move 1, one
    /// nested in the first, and a variation of Black's 2.
    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n(1. …, E21-E17\n2. E7-E9\n(2. F8-F10))\n(1. E7-E9, E21-E19)\n2. JF6-B18, EE23-D20\n(2. …, F20-F18)\n{ a comment }\n3. F8-F10:\n*\n";

    /// The texts of what follows the first occurrence of `needle`, shifted by `shift`: the
    /// half-move stood after, the next one and the first half-moves of the variations.
    fn followers(needle: &str, shift: usize) -> (Option<String>, Option<String>, Vec<String>) {
        let record = syntax::parse_record(GAME);
        let tree = PlayTree::build(GAME, &record);
        let offset = GAME.find(needle).expect("the needle is in the text") + shift;
        let found = tree.followers(offset);
        let text = |node: Node<'_>| GAME[node.half_move.range].to_string();
        (
            found.after.map(text),
            found.next.map(text),
            found.variations.into_iter().map(text).collect(),
        )
    }

    fn some(text: &str) -> Option<String> {
        Some(text.to_string())
    }

    #[test]
    fn at_the_start_the_first_half_move_and_its_variations_follow() {
        assert_eq!(followers("[Variant", 1), (None, some("K4-K6"), vec!["E7-E9".to_string()]));
        assert_eq!(followers("1. K4", 0), (None, some("K4-K6"), vec!["E7-E9".to_string()]));
    }

    #[test]
    fn on_a_half_move_the_next_one_and_the_variations_replacing_it_follow() {
        assert_eq!(
            followers("K4-K6", 2),
            (some("K4-K6"), some("E21-E19"), vec!["E21-E17".to_string()])
        );
        assert_eq!(followers("E21-E19\n(", 7), (some("E21-E19"), some("JF6-B18"), vec![]));
        assert_eq!(
            followers("JF6-B18", 0),
            (some("JF6-B18"), some("EE23-D20"), vec!["F20-F18".to_string()])
        );
    }

    #[test]
    fn inside_a_variation_before_its_first_half_move_its_parent_s_place_holds() {
        // After `(` of the Black-first variation: after White's K4-K6 of the main line.
        assert_eq!(
            followers("(1. …, E21-E17", 1),
            (some("K4-K6"), some("E21-E19"), vec!["E21-E17".to_string()])
        );
        // After `(` of the White-first one: at the record's start.
        assert_eq!(followers("(1. E7-E9", 1), (None, some("K4-K6"), vec!["E7-E9".to_string()]));
        // Nested: after White's E7-E9 of the outer variation, its own variation replaces it.
        assert_eq!(
            followers("E21-E17\n", 7),
            (some("E21-E17"), some("E7-E9"), vec!["F8-F10".to_string()])
        );
    }

    #[test]
    fn at_the_end_of_a_line_nothing_follows() {
        assert_eq!(followers("E7-E9\n(2.", 5), (some("E7-E9"), None, vec![]));
        assert_eq!(followers("F8-F10))", 6), (some("F8-F10"), None, vec![]));
        assert_eq!(followers("*\n", 1), (some("F8-F10:"), None, vec![]));
        assert_eq!(followers("{ a comment", 2), (some("EE23-D20"), some("F8-F10:"), vec![]));
    }
}
