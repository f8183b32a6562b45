//! Where a half-move's parts stand apart. The grammar lets blanks, line ends and invisible
//! characters stand between the tokens of a half-move, so that a half-move with a blank inside
//! (`H6 -H12`, `H6-` at the end of a line and `H12` on the next) still lowers into its parts;
//! but a move token holds no blanks (§6.1: "A move token contains no spaces"), and the
//! annotations follow on the move's own line. The analysis reports what this finds (S004) and
//! the formatter keeps such a record as written, since joining the parts would change the
//! user's text into a move the user did not write.

use crate::syntax::chars::is_space_or_tab;
use crate::text::TextRange;

use super::{HalfMoveText, Token};

/// Text between two parts of a half-move that may not stand there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The bytes between the two parts.
    pub range: TextRange,
    /// Whether the gap lies between the move (with its check suffix) and its annotations,
    /// rather than inside the move token.
    pub before_annotations: bool,
}

impl HalfMoveText {
    /// The first place where the half-move's parts stand apart: inside the move token
    /// (piece, origin, separator, captured piece, destination, promotion, castling, check
    /// suffix) any text at all, before or between its annotations (rating, NAG, game
    /// indicator) anything but spaces and tabs. `None` when the half-move is written whole.
    pub fn written_apart(&self, text: &str) -> Option<Gap> {
        // References, not copies of the ranges: every half-move of every record asks this.
        let move_parts = [
            &self.piece,
            &self.origin,
            &self.separator,
            &self.captured,
            &self.destination,
            &self.promotion,
            &self.castling,
            &self.check,
        ];
        let mut previous_end = match end_of_parts(&move_parts) {
            Ok(end) => end?,
            Err(gap) => return Some(Gap { range: gap, before_annotations: false }),
        };
        let annotations = [&self.rating, &self.nag, &self.indicator];
        if annotations.iter().all(|annotation| annotation.is_none()) {
            return None;
        }
        let mut annotations = annotations.map(|token| token.map(|token| token.range));
        in_text_order(&mut annotations);
        for annotation in annotations.into_iter().flatten() {
            let gap = TextRange::new(previous_end, annotation.start);
            if text
                .get(gap.to_range())
                .is_some_and(|between| between.contains(|c| !is_space_or_tab(c)))
            {
                return Some(Gap { range: gap, before_annotations: true });
            }
            previous_end = annotation.end;
        }
        None
    }
}

/// Where the last of `parts` ends when they stand together (`None` when there are none), or
/// the first gap between two of them, in text order.
fn end_of_parts(parts: &[&Option<Token>; 8]) -> Result<Option<usize>, TextRange> {
    // Almost always the parts are listed in text order and each starts where the one before
    // it ends: one pass tells, without copying or sorting anything.
    let mut end: Option<usize> = None;
    for part in parts.iter().filter_map(|part| part.as_ref()) {
        if end.is_some_and(|end| end != part.range.start) {
            return end_of_parts_in_text_order(parts);
        }
        end = Some(part.range.end);
    }
    Ok(end)
}

/// [`end_of_parts`] for parts that do not simply follow one another as listed: put in text
/// order first (a tree recovered from errors may list them out of it).
fn end_of_parts_in_text_order(parts: &[&Option<Token>; 8]) -> Result<Option<usize>, TextRange> {
    let mut ranges = parts.map(|part| part.map(|token| token.range));
    in_text_order(&mut ranges);
    let mut previous: Option<TextRange> = None;
    for range in ranges.into_iter().flatten() {
        if let Some(before) = previous.filter(|before| before.end < range.start) {
            return Err(TextRange::new(before.end, range.start));
        }
        previous = Some(range);
    }
    Ok(previous.map(|range| range.end))
}

/// Puts the parts in text order, the absent ones first. They are listed in the order a
/// half-move writes them, so they are almost always in order already: checking costs less than
/// sorting, and only a tree recovered from errors may need the sort.
fn in_text_order(parts: &mut [Option<TextRange>]) {
    let mut last_start = 0;
    let mut ordered = true;
    for range in parts.iter().flatten() {
        ordered &= last_start <= range.start;
        last_start = range.start;
    }
    if !ordered {
        parts.sort_unstable_by_key(|range| range.map(|range| range.start));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(start: usize, end: usize) -> Option<Token> {
        Some(Token { range: TextRange::new(start, end) })
    }

    #[test]
    fn the_gap_is_found_whatever_order_the_parts_are_listed_in() {
        // `JF6 -B18`: the parts in the order a half-move writes them.
        let text = "JF6 -B18";
        let written = HalfMoveText {
            range: TextRange::new(0, 8),
            piece: token(0, 1),
            origin: token(1, 3),
            separator: token(4, 5),
            destination: token(5, 8),
            ..HalfMoveText::default()
        };
        let gap = written.written_apart(text).expect("a gap");
        assert_eq!((gap.range, gap.before_annotations), (TextRange::new(3, 4), false));
        // A tree recovered from errors may give the parts out of that order: `B18 JF6`, read
        // as a destination before its origin.
        let recovered = HalfMoveText {
            range: TextRange::new(0, 7),
            origin: token(4, 7),
            destination: token(0, 3),
            ..HalfMoveText::default()
        };
        let gap = recovered.written_apart("B18 JF6").expect("a gap");
        assert_eq!(gap.range, TextRange::new(3, 4));
        let whole = HalfMoveText { separator: token(3, 4), destination: token(4, 7), ..written };
        assert_eq!(whole.written_apart("JF6-B18").map(|gap| gap.range), None);
    }
}
