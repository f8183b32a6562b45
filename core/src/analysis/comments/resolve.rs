//! Move references resolved in the history of their comment (§12.3), over the record's tree of
//! lines of play (`analysis::line_of_play`): the resolution algorithm with its errors N013-N015
//! and the hint N018.

use super::references::MoveReference;
use super::ReferenceTarget;
use crate::analysis::line_of_play::{CommentPlace, Entry, NumberedMoveLine, PlayTree, Site};
use crate::diagnostics::Code;
use crate::pieces::Side;
use crate::syntax::HalfMoveText;
use crate::text::TextRange;

impl Entry<'_> {
    /// The first and last half-moves, as ordinals `2N` (White) and `2N + 1` (Black).
    fn first_ordinal(&self) -> u64 {
        ordinal(self.number, if self.white.is_some() { Side::White } else { Side::Black })
    }

    fn last_ordinal(&self) -> u64 {
        ordinal(self.number, if self.black.is_some() { Side::Black } else { Side::White })
    }

    /// What `#N` or `#N@S` designates in this move line.
    fn target(&self, side: Option<Side>) -> Option<ReferenceTarget> {
        let half_move = |half_move: &HalfMoveText, side| ReferenceTarget::HalfMove {
            range: half_move.range,
            side,
            number: self.number,
        };
        match side {
            Some(side) => self.half_move(side).map(|found| half_move(found, side)),
            None => Some(match (self.white, self.black) {
                (Some(white), None) => half_move(white, Side::White),
                (None, Some(black)) => half_move(black, Side::Black),
                _ => ReferenceTarget::MoveLine {
                    range: TextRange::new(self.line.number.range.start, self.line.range.end),
                    number: self.number,
                },
            }),
        }
    }
}

fn ordinal(number: u32, side: Side) -> u64 {
    u64::from(number) * 2 + side.index() as u64
}

/// `move 14`, `White's half-move 14`, for messages.
fn describe(number: u32, side: Option<Side>) -> String {
    match side {
        None => format!("move {number}"),
        Some(side) => format!("{}'s half-move {number}", side.name()),
    }
}

/// A resolved move reference.
#[derive(Debug)]
pub(super) struct Resolution {
    pub target: ReferenceTarget,
    /// The N018 message when the reference names a variation the comment stands in.
    pub inside: Option<String>,
}

/// Whether a labelled variation can be referenced from a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Availability {
    /// Its `)` comes before the comment.
    Closed,
    /// The comment stands inside it (N018).
    Inside,
    /// Not closed before the comment (N015).
    Later,
}

/// Reference resolution over the record's lines of play.
impl PlayTree<'_> {
    fn availability(&self, variation: usize, site: &Site<'_>) -> Availability {
        // The comment's line of play descends from the variation exactly when the comment
        // stands in the variation's text (nesting is written): no walk up the ancestry.
        let range = self.lines[variation].range();
        if range.start < site.offset() && site.offset() < range.end {
            Availability::Inside
        } else if self.lines[variation].closed_before(site.offset()) {
            Availability::Closed
        } else {
            Availability::Later
        }
    }

    /// Chooses among the variations labelled `label` attached to move `number` of `lines`
    /// (searched in order): the first that can be referenced, else an N015.
    fn labelled(
        &self,
        lines: impl Iterator<Item = usize>,
        number: u32,
        label: u32,
        site: &Site<'_>,
        inside_of: Option<&str>,
    ) -> Result<(usize, Availability), (Code, String)> {
        let mut unlabelled = false;
        let mut later = None;
        for line in lines {
            for &child in &self.lines[line].children {
                let candidate = &self.lines[child];
                if candidate.attach_number != Some(number) {
                    continue;
                }
                if candidate.label != Some(label) {
                    unlabelled |= candidate.label.is_none();
                    continue;
                }
                match self.availability(child, site) {
                    Availability::Later => later = later.or(Some(child)),
                    available => return Ok((child, available)),
                }
            }
        }
        let within = inside_of.map_or(String::new(), |outer| format!(" inside variation {outer}"));
        if later.is_some() {
            return Err((
                Code::N015,
                format!("variation #{number}.{label}{within} is not closed before this comment: reference a variation after its )"),
            ));
        }
        let hint = if unlabelled {
            format!(" (move {number} only has unlabelled variations: label one $[{label}])")
        } else {
            String::new()
        };
        Err((
            Code::N015,
            format!("there is no labelled variation $[{label}] at move {number}{within}{hint}"),
        ))
    }

    /// Resolves a move reference of a comment (§12.3 rules 2-6).
    pub(super) fn resolve(
        &self,
        site: &Site<'_>,
        written: &MoveReference,
    ) -> Result<Resolution, (Code, String)> {
        match written {
            MoveReference::Variation { number, label } => {
                let (variation, availability) =
                    self.labelled(self.ancestry(site.line), *number, *label, site, None)?;
                let inside = (availability == Availability::Inside).then(|| {
                    format!("#{number}.{label} is the variation this comment stands in: a labelled reference is meant for comments outside it")
                });
                let target = ReferenceTarget::Variation {
                    range: self.lines[variation].range(),
                    number: *number,
                    label: *label,
                };
                Ok(Resolution { target, inside })
            }
            MoveReference::Move { number, path, side } if path.is_empty() => self
                .resolve_in_history(site, *number, *side)
                .map(|target| Resolution { target, inside: None }),
            MoveReference::Move { number, path, side } => {
                self.resolve_in_variation(site, *number, path, *side)
            }
        }
    }

    /// `#N`, `#N@W`, `#N@B` in the history of the comment.
    fn resolve_in_history(
        &self,
        site: &Site<'_>,
        number: u32,
        side: Option<Side>,
    ) -> Result<ReferenceTarget, (Code, String)> {
        let what = describe(number, side);
        if site.place == CommentPlace::Start {
            return Err(match self.first_number {
                Some(first) if number < first => {
                    (Code::N014, format!("reference to {what}, which is before the first move of the record ({first})"))
                }
                _ => (Code::N013, format!("reference to {what} before it has been played: a start comment comes before every move")),
            });
        }
        let found = self
            .history_back(site.line, site.offset())
            .filter(|entry| entry.number == number)
            .find_map(|entry| entry.target(side));
        if let Some(target) = found {
            return Ok(target);
        }
        let last = self.history_back(site.line, site.offset()).next();
        let first = self.history_back(site.line, site.offset()).last();
        let (Some(first), Some(last)) = (first, last) else {
            return Err(match self.first_number {
                Some(first) if number < first => {
                    (Code::N014, format!("reference to {what}, which is before the first move of the record ({first})"))
                }
                _ if site.place == CommentPlace::Final => (Code::N014, format!("reference to {what}, but the main line has no moves")),
                _ => (Code::N013, format!("reference to {what} before it has been played: never reference a later move")),
            });
        };
        let (before_first, after_last) = match side {
            None => (number < first.number, number > last.number),
            Some(side) => (
                ordinal(number, side) < first.first_ordinal(),
                ordinal(number, side) > last.last_ordinal(),
            ),
        };
        Err(if after_last {
            if site.place == CommentPlace::Final {
                (Code::N014, format!("reference to {what}, beyond the end of the main line (its last move is {})", last.number))
            } else {
                (
                    Code::N013,
                    format!("reference to {what}, which is later than this comment: never reference a later move, postpone the comment"),
                )
            }
        } else if before_first {
            let start = describe(
                first.number,
                if side.is_some() && first.white.is_none() { Some(Side::Black) } else { None },
            );
            (Code::N014, format!("reference to {what}, before the history of this line of play, which starts with {start}"))
        } else {
            (
                Code::N014,
                format!("reference to {what}, which is not in the history of this line of play"),
            )
        })
    }

    /// `#N[#A.x…#B.y]@S`: the path resolved from its last element, then inward.
    fn resolve_in_variation(
        &self,
        site: &Site<'_>,
        number: u32,
        path: &[(u32, u32)],
        side: Option<Side>,
    ) -> Result<Resolution, (Code, String)> {
        let mut variation = None;
        // The innermost element naming a variation the comment stands in (N018), as an index
        // into the path (innermost first).
        let mut inside: Option<usize> = None;
        let mut availability = Availability::Closed;
        let mut name = String::new();
        for (index, &(element_number, element_label)) in path.iter().enumerate().rev() {
            let within = variation.map(|_| name.as_str());
            let (found, found_availability) = match variation {
                None => self.labelled(
                    self.ancestry(site.line),
                    element_number,
                    element_label,
                    site,
                    within,
                ),
                Some(outer) => self.labelled(
                    std::iter::once(outer),
                    element_number,
                    element_label,
                    site,
                    within,
                ),
            }?;
            variation = Some(found);
            availability = found_availability;
            name = format!("#{element_number}.{element_label}");
            if availability == Availability::Inside {
                inside = Some(index);
            }
        }
        let Some(variation) = variation else {
            return Err((Code::N019, "empty variation path".to_string()));
        };
        let what = describe(number, side);
        let moves = &self.lines[variation].moves;
        let is_before = |item: &&NumberedMoveLine<'_>| {
            availability != Availability::Inside || item.line.range.start < site.offset()
        };
        let found = moves
            .iter()
            .filter(is_before)
            .filter(|item| item.number == number)
            .rev()
            .find_map(|item| Entry::of(item).target(side));
        let Some(target) = found else {
            if moves
                .iter()
                .any(|item| item.number == number && Entry::of(item).target(side).is_some())
            {
                return Err((
                    Code::N013,
                    format!(
                        "reference to {what} of variation {name}, which is later than this comment"
                    ),
                ));
            }
            let span = match (moves.first(), moves.last()) {
                (Some(first), Some(last)) if first.number != last.number => {
                    format!(" (it holds moves {} to {})", first.number, last.number)
                }
                (Some(first), _) => format!(" (it holds move {})", first.number),
                _ => String::new(),
            };
            return Err((Code::N014, format!("{what} is not in variation {name}{span}")));
        };
        let inside = inside.map(|index| {
            let (inside_number, inside_label) = path[index];
            let shorter = write_move_reference(number, &path[..index], side);
            format!(
                "this comment stands inside variation #{inside_number}.{inside_label}: the shorter {shorter} suffices there"
            )
        });
        Ok(Resolution { target, inside })
    }
}

/// `#16[#14.1]@B`: a move reference as written.
fn write_move_reference(number: u32, path: &[(u32, u32)], side: Option<Side>) -> String {
    let mut written = format!("#{number}");
    if !path.is_empty() {
        written.push('[');
        for (element_number, element_label) in path {
            written.push_str(&format!("#{element_number}.{element_label}"));
        }
        written.push(']');
    }
    if let Some(side) = side {
        written.push_str(if side == Side::White { "@W" } else { "@B" });
    }
    written
}
