//! Where a half-move's parts stand apart. The grammar lets blanks, line ends and invisible
//! characters stand between the tokens of a half-move, so that a half-move with a blank inside
//! (`H6 -H12`, `H6-` at the end of a line and `H12` on the next) still lowers into its parts;
//! but a move token holds no blanks (§6.1: "A move token contains no spaces"), and the
//! annotations follow on the move's own line. The analysis reports what this finds (S004) and
//! the formatter keeps such a record as written, since joining the parts would change the
//! user's text into a move the user did not write.

use crate::text::TextRange;

use super::HalfMoveText;

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
        let mut move_parts: Vec<&TextRange> = [
            &self.piece,
            &self.origin,
            &self.separator,
            &self.captured,
            &self.destination,
            &self.promotion,
            &self.castling,
            &self.check,
        ]
        .into_iter()
        .flatten()
        .map(|token| &token.range)
        .collect();
        move_parts.sort_by_key(|range| range.start);
        for pair in move_parts.windows(2) {
            if pair[0].end < pair[1].start {
                return Some(Gap {
                    range: TextRange::new(pair[0].end, pair[1].start),
                    before_annotations: false,
                });
            }
        }
        let mut annotations: Vec<&TextRange> = [&self.rating, &self.nag, &self.indicator]
            .into_iter()
            .flatten()
            .map(|token| &token.range)
            .collect();
        annotations.sort_by_key(|range| range.start);
        let mut previous_end = move_parts.last().map(|range| range.end)?;
        for annotation in annotations {
            let gap = TextRange::new(previous_end, annotation.start);
            if text
                .get(gap.to_range())
                .is_some_and(|between| between.contains(|c| c != ' ' && c != '\t'))
            {
                return Some(Gap { range: gap, before_annotations: true });
            }
            previous_end = annotation.end;
        }
        None
    }
}
