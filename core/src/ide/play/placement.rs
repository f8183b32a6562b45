//! Where a half-move played at a place goes in the record's text, and the edits that put it
//! there, laid out as the formatter lays a record out (one move pair per line, one dot per
//! nesting level, a variation's `)` after its last half-move):
//!
//! * the half-move that follows the place, or the first of a variation replacing it, is the
//!   one played: nothing to write (§11.2);
//! * another half-move follows: a new variation `(N. X)` or `(N. …, Y)` after the move line
//!   of the half-move it replaces and the comments and variations already attached to it;
//! * nothing follows: the line of play goes on, Black's half-move after White's on its move
//!   line, a White half-move on a new move line at the end of the line (before the result in
//!   the main line, before the `)` of a variation), the first move line at the record's start.
//!
//! The main line's last half-move carries the end mark `:` (§7.4): a half-move appended to the
//! main line takes it from the one before, and a checkmate makes the result the winner's.

use std::collections::HashMap;

use crate::analysis::line_of_play::{Followers, Node, PlayTree};
use crate::analysis::{PlayedHalfMove, RecordAnalysis};
use crate::geometry::Hex;
use crate::notation::Check;
use crate::pieces::Side;
use crate::position::Position;
use crate::replay::LegalMove;
use crate::syntax::{HalfMoveText, Item, RecordSyntax};
use crate::text::TextRange;

/// What playing a half-move at a place comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    /// The half-move is written there already: its move and check suffix.
    Written(TextRange),
    /// Edits of the record's text, in text order and disjoint; `played` is where the
    /// half-move stands in the text they make.
    Edits {
        edits: Vec<Insertion>,
        played: TextRange,
        /// For a half-move that becomes the main line's last: where the main line ended
        /// before (the last half-move's text, or the record's start when it had none). What
        /// is said about the main line's end (M006: no result line) moves from there to the
        /// half-move played, and is no new error.
        succeeds: Option<TextRange>,
    },
}

/// One replacement of a range of the record's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Insertion {
    pub range: TextRange,
    pub new_text: String,
    /// Where the played half-move stands in `new_text`, for the one edit that writes it.
    played: Option<TextRange>,
}

/// Everything the placement reads.
pub(super) struct Place<'a> {
    pub text: &'a str,
    pub syntax: &'a RecordSyntax,
    pub tree: &'a PlayTree<'a>,
    pub followers: &'a Followers<'a>,
    /// The half-moves that follow, written already.
    pub written: &'a Written<'a>,
    /// The position the half-move is played from.
    pub position: &'a Position,
    /// How the record writes an ellipsis.
    pub ellipsis: &'static str,
    /// The record's line ending.
    pub eol: &'static str,
}

/// The half-moves written already after a place (the next one, and the first of each
/// variation replacing it) that were replayed, by the hexes they move from and to: a half-move
/// played there that is one of them is not written again. Indexed once for all the half-moves
/// a board lists, as a place may be followed by thousands of variations.
pub(super) struct Written<'a> {
    by_hexes: HashMap<(Hex, Hex), Vec<&'a PlayedHalfMove>>,
}

impl<'a> Written<'a> {
    pub fn after(followers: &Followers<'_>, analysis: &'a RecordAnalysis) -> Written<'a> {
        let mut by_hexes: HashMap<(Hex, Hex), Vec<&PlayedHalfMove>> = HashMap::new();
        for node in followers.next.iter().chain(&followers.variations) {
            if let Some(played) = analysis.played_at(node.half_move.range.start) {
                let hexes = (played.effect.origin, played.effect.destination);
                by_hexes.entry(hexes).or_default().push(played);
            }
        }
        Written { by_hexes }
    }

    /// The first of them, in text order, that leads where `legal` does: its move and check
    /// suffix.
    fn find(&self, legal: &LegalMove) -> Option<TextRange> {
        let effect = &legal.applied.effect;
        let same = self.by_hexes.get(&(effect.origin, effect.destination))?;
        let played = same.iter().find(|played| played.after == legal.applied.position)?;
        Some(TextRange::new(played.range.start, played.move_end))
    }
}

impl Place<'_> {
    /// Where `legal`, written `written`, goes; an error saying why when it cannot go there.
    pub fn place(&self, legal: &LegalMove, written: &str) -> Result<Placement, String> {
        let followers = self.followers;
        if let Some(range) = self.written.find(legal) {
            return Ok(Placement::Written(range));
        }
        let mut edits = match followers.next {
            Some(next) => vec![self.variation(next, written)?],
            None => self.append(legal, written)?,
        };
        edits.sort_by_key(|edit| edit.range.start);
        let succeeds = (followers.next.is_none() && followers.line == 0)
            .then(|| followers.after.map_or(TextRange::empty(0), |after| after.half_move.range));
        merge(self.text, edits, succeeds)
    }

    /// A new variation replacing `next`, after its move line and what is attached to it.
    fn variation(&self, next: Node<'_>, written: &str) -> Result<Insertion, String> {
        let number = self.tree.lines[next.line].moves[next.index].number;
        if number == u32::MAX {
            return Err("the move number of the half-move it would replace cannot be read".into());
        }
        let opening = match next.side {
            Side::White => format!("({number}. "),
            Side::Black => format!("({number}. {}, ", self.ellipsis),
        };
        let content = format!("{opening}{written})");
        let items = self.tree.items_of_line(self.syntax, next.line);
        let move_line = &self.tree.lines[next.line].moves[next.index].line.range;
        let own = items
            .iter()
            .position(|item| item.range() == move_line)
            .ok_or("the move line of the half-move it would replace is not in its line of play")?;
        let attached = items[own + 1..]
            .iter()
            .take_while(|item| matches!(item, Item::Comment(_) | Item::Variation(_)))
            .count();
        let played = TextRange::new(opening.len(), opening.len() + written.len());
        Ok(self.after_item(next.line, items, own + attached, &content, played, true))
    }

    /// The half-move at the end of the line of play: after White's on its move line, or on
    /// a new move line; in the main line with the end mark, taken from the half-move before.
    fn append(&self, legal: &LegalMove, written: &str) -> Result<Vec<Insertion>, String> {
        let line = self.followers.line;
        let main = line == 0;
        let mate = legal.check == Some(Check::Mate);
        let mark = if main && !mate { ":" } else { "" };
        let mut edits = Vec::new();
        if let Some(after) = self.followers.after {
            if self.written_check(after.half_move) == Some("#") {
                return Err(
                    "the half-move before it is marked as checkmate (#): nothing may follow it"
                        .into(),
                );
            }
        }
        match self.followers.after {
            Some(after) if after.side == Side::White => {
                // `N. X` becomes `N. X, Y`; the end mark of `X` goes to `Y`.
                let end = after.half_move.range.end;
                edits.push(Insertion {
                    range: TextRange::new(end, end),
                    new_text: format!(", {written}{mark}"),
                    played: Some(TextRange::new(2, 2 + written.len())),
                });
                if let Some(cut) = self.end_mark(after.half_move).filter(|_| main) {
                    edits.push(Insertion { range: cut, new_text: String::new(), played: None });
                }
            }
            Some(after) => {
                let number = self.tree.lines[line].moves[after.index].number;
                let number = number.checked_add(1).filter(|&number| number != u32::MAX);
                let number = number.ok_or("the move number before cannot be read")?;
                let opening = format!("{number}. ");
                let content = format!("{opening}{written}{mark}");
                let played = TextRange::new(opening.len(), opening.len() + written.len());
                let items = self.tree.items_of_line(self.syntax, line);
                let last = last_of_line(items, main).ok_or("the line of play holds no item")?;
                edits.push(self.after_item(line, items, last, &content, played, false));
                if let Some(cut) = self.end_mark(after.half_move).filter(|_| main) {
                    edits.push(Insertion { range: cut, new_text: String::new(), played: None });
                }
            }
            None => edits.push(self.first_move_line(written, mark)?),
        }
        if main && mate {
            edits.extend(self.results_of_mate(legal.applied.effect.side));
        }
        Ok(edits)
    }

    /// The record's first move line, `N. X` or `N. …, Y` (`1?` when the starting position's
    /// move number is unknown, §7.3): before the result line, else after the tags.
    fn first_move_line(&self, written: &str, mark: &str) -> Result<Insertion, String> {
        let number = match self.position.move_number {
            Some(number) => format!("{number}."),
            None => "1?".to_string(),
        };
        let opening = match self.position.turn {
            Side::White => format!("{number} "),
            Side::Black => format!("{number} {}, ", self.ellipsis),
        };
        let content = format!("{opening}{written}{mark}");
        let played = TextRange::new(opening.len(), opening.len() + written.len());
        let items = &self.syntax.items;
        let result = items.iter().position(|item| matches!(item, Item::Result(_)));
        if let Some(result) = result {
            let start = items[result].range().start;
            let line_start = line_start(self.text, start);
            if self.text[line_start..start].trim_matches([' ', '\t']).is_empty() {
                // After the tags a blank line (§10.1 layout), unless one is there already.
                let before = result.checked_sub(1).map(|index| &items[index]);
                let gap = before.map_or("", |item| &self.text[item.range().end..line_start]);
                let blank = matches!(before, Some(Item::Tag(_))) && line_ends(gap) < 2;
                let lead = if blank { self.eol } else { "" };
                return Ok(Insertion {
                    range: TextRange::new(line_start, line_start),
                    new_text: format!("{lead}{content}{}", self.eol),
                    played: Some(played.shifted(lead.len())),
                });
            }
        }
        let last = result.unwrap_or(items.len()).checked_sub(1).ok_or("the record holds no tag")?;
        let blank = if matches!(items[last], Item::Tag(_)) { self.eol } else { "" };
        let content = format!("{blank}{content}");
        Ok(self.after_item(0, items, last, &content, played.shifted(blank.len()), false))
    }

    /// `content` (a move line, or a variation when `variation`) on a line of its own after
    /// `items[last]` of line of play `line`, indented to the line's depth. Before the `)` of a
    /// variation that `items[last]` ends, a move line takes the `)` at its end and a variation
    /// leaves it on a line of its own; anything else after the item on its line moves to the
    /// next line.
    fn after_item(
        &self,
        line: usize,
        items: &[Item],
        last: usize,
        content: &str,
        played: TextRange,
        variation: bool,
    ) -> Insertion {
        let depth = self.tree.depth(line);
        let eol = self.eol;
        let end = items[last].range().end;
        let lead = format!("{eol}{}", dots(depth));
        let played = Some(played.shifted(lead.len()));
        let close = self.tree.lines[line]
            .variation
            .and_then(|variation| variation.close.as_ref())
            .filter(|_| last + 1 == items.len())
            .filter(|close| {
                self.text[end..close.range.start]
                    .chars()
                    .all(|c| matches!(c, ' ' | '\t' | '\r' | '\n' | '.'))
            });
        if let Some(close) = close {
            let tail = if variation { format!("{eol}{}", dots(depth - 1)) } else { String::new() };
            return Insertion {
                range: TextRange::new(end, close.range.start),
                new_text: format!("{lead}{content}{tail}"),
                played,
            };
        }
        let blanks =
            self.text[end..].len() - self.text[end..].trim_start_matches([' ', '\t']).len();
        let rest = &self.text[end + blanks..];
        if rest.is_empty() || rest.starts_with(['\n', '\r']) {
            Insertion {
                range: TextRange::new(end, end),
                new_text: format!("{lead}{content}"),
                played,
            }
        } else {
            Insertion {
                range: TextRange::new(end, end + blanks),
                new_text: format!("{lead}{content}{lead}"),
                played,
            }
        }
    }

    /// The check suffix written on a half-move.
    fn written_check<'t>(&'t self, half_move: &HalfMoveText) -> Option<&'t str> {
        half_move.check.as_ref().map(|check| check.text(self.text))
    }

    /// The range to delete to take the end mark `:` off a half-move: the `:` of its game
    /// indicator (`?!:`, `(=):` keep `?!`, `(=)`), with the blanks before a lone `:`.
    fn end_mark(&self, half_move: &HalfMoveText) -> Option<TextRange> {
        let indicator = half_move.indicator.as_ref()?;
        if !indicator.text(self.text).ends_with(':') {
            return None;
        }
        let colon = TextRange::new(indicator.range.end - 1, indicator.range.end);
        let alone = colon.start == indicator.range.start
            && half_move.rating.is_none()
            && half_move.nag.is_none();
        if !alone {
            return Some(colon);
        }
        let before = &self.text[..colon.start];
        let blanks = before.len() - before.trim_end_matches([' ', '\t']).len();
        Some(TextRange::new(colon.start - blanks, colon.end))
    }

    /// The result line and the `Result` tag made the winner's after a checkmate that ends the
    /// main line (M018, T014), where they say otherwise.
    fn results_of_mate(&self, winner: Side) -> Vec<Insertion> {
        let result = match winner {
            Side::White => "3-0",
            Side::Black => "0-3",
        };
        let mut edits = Vec::new();
        for item in &self.syntax.items {
            match item {
                Item::Result(token) if token.text(self.text) != result => {
                    edits.push(Insertion {
                        range: token.range,
                        new_text: result.into(),
                        played: None,
                    });
                }
                Item::Tag(tag) if tag.name.text(self.text) == "Result" => {
                    let quoted = format!("\"{result}\"");
                    if let Some(value) =
                        tag.value.as_ref().filter(|value| value.text(self.text) != quoted)
                    {
                        edits.push(Insertion {
                            range: value.range,
                            new_text: quoted,
                            played: None,
                        });
                    }
                }
                _ => {}
            }
        }
        edits
    }
}

/// The last item of a line of play that a new move line follows: its last move line,
/// variation or comment (in the main line, before the result); the last tag or comment when
/// it holds no movetext yet.
fn last_of_line(items: &[Item], main: bool) -> Option<usize> {
    let end = if main {
        items.iter().position(|item| matches!(item, Item::Result(_))).unwrap_or(items.len())
    } else {
        items.len()
    };
    items[..end].iter().rposition(|item| {
        matches!(item, Item::MoveLine(_) | Item::Variation(_) | Item::Comment(_) | Item::Tag(_))
    })
}

/// Sorted, disjoint edits with the ones that touch joined into one, and where the played
/// half-move stands in the text they make.
fn merge(
    text: &str,
    edits: Vec<Insertion>,
    succeeds: Option<TextRange>,
) -> Result<Placement, String> {
    let mut merged: Vec<Insertion> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(previous) if previous.range.end > edit.range.start => {
                return Err("the edits of the placement overlap".into());
            }
            Some(previous) if previous.range.end == edit.range.start => {
                let shift = previous.new_text.len();
                previous.new_text.push_str(&edit.new_text);
                previous.range = TextRange::new(previous.range.start, edit.range.end);
                if let Some(played) = edit.played {
                    previous.played = Some(played.shifted(shift));
                }
            }
            _ => merged.push(edit),
        }
    }
    let mut shift: isize = 0;
    let mut played = None;
    for edit in &merged {
        if let Some(inner) = edit.played {
            let start =
                edit.range.start.checked_add_signed(shift).ok_or("a placement before the text")?;
            played = Some(inner.shifted(start));
        }
        shift += edit.new_text.len() as isize - edit.range.len() as isize;
    }
    let played = played.ok_or("no edit writes the half-move")?;
    debug_assert!(merged.iter().all(|edit| text.is_char_boundary(edit.range.start)));
    Ok(Placement::Edits { edits: merged, played, succeeds })
}

/// Where the line holding byte `offset` starts.
fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind(['\n', '\r']).map_or(0, |end| end + 1)
}

/// How many lines a text ends (`\r\n` once).
fn line_ends(text: &str) -> usize {
    text.matches('\n').count() + text.matches('\r').count() - text.matches("\r\n").count()
}

/// The indentation of a line at nesting `depth` (§11.4).
fn dots(depth: usize) -> String {
    ".".repeat(depth)
}
