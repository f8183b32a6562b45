//! Move references resolved in the history of their comment (§12.3): the lines of play of a
//! record as a tree (main line, variations attached to move lines), each comment's place in
//! it, and the resolution algorithm with its errors N013-N015 and the hint N018.

use super::references::MoveReference;
use super::ReferenceTarget;
use crate::diagnostics::Code;
use crate::pieces::Side;
use crate::syntax::{Comment, HalfMoveText, Item, MoveLine, RecordSyntax, Step, Variation};
use crate::text::TextRange;

/// Where a comment stands in the movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
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
pub(super) struct Site<'a> {
    pub comment: &'a Comment,
    line: usize,
    place: Place,
}

impl Site<'_> {
    fn offset(&self) -> usize {
        self.comment.open.range.start
    }
}

/// A move line of a line of play with its written number (`N.` and `1?` give `N` and 1).
#[derive(Debug)]
struct Move<'a> {
    number: u32,
    line: &'a MoveLine,
}

/// Where a variation branches off its parent line of play.
#[derive(Clone, Copy, Debug)]
struct Branch {
    parent: usize,
    /// The parent's move line the variation is attached to, as an index into its moves; `None`
    /// for a variation before any move line (M012).
    attach: Option<usize>,
    /// Whether the variation replaces Black's half-move (`(N. …, Y`): White's `N` of the
    /// parent then belongs to its history.
    black_first: bool,
}

/// The main line or a variation.
#[derive(Debug, Default)]
struct PlayLine<'a> {
    moves: Vec<Move<'a>>,
    /// The variations attached to this line's move lines, in text order (line ids).
    children: Vec<usize>,
    /// `None` for the main line.
    branch: Option<Branch>,
    variation: Option<&'a Variation>,
    /// The number of the move line the variation is attached to.
    attach_number: Option<u32>,
    /// The label `$[n]` when well formed.
    label: Option<u32>,
}

impl PlayLine<'_> {
    /// The range a whole-variation reference designates.
    fn range(&self) -> TextRange {
        TextRange::from(
            self.variation
                .map_or(0..0, |variation| variation.open.range.start..variation.range.end),
        )
    }

    fn closed_before(&self, offset: usize) -> bool {
        self.variation
            .and_then(|variation| variation.close.as_ref())
            .is_some_and(|close| close.range.end <= offset)
    }
}

/// One move line of a history, possibly cut to White's half-move (the parent's move that a
/// Black-first variation keeps).
#[derive(Clone, Copy, Debug)]
struct Entry<'a> {
    number: u32,
    line: &'a MoveLine,
    white: Option<&'a HalfMoveText>,
    black: Option<&'a HalfMoveText>,
}

impl<'a> Entry<'a> {
    fn of(item: &Move<'a>) -> Entry<'a> {
        Entry {
            number: item.number,
            line: item.line,
            white: item.line.white.as_ref(),
            black: item.line.black.as_ref(),
        }
    }

    fn half_move(&self, side: Side) -> Option<&'a HalfMoveText> {
        match side {
            Side::White => self.white,
            Side::Black => self.black,
        }
    }

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

/// The lines of play of a record and the comments among them.
#[derive(Debug)]
pub(super) struct PlayTree<'a> {
    lines: Vec<PlayLine<'a>>,
    sites: Vec<Site<'a>>,
    /// The number of the first main-line move line, for start comments.
    first_number: Option<u32>,
}

impl<'a> PlayTree<'a> {
    /// Builds the tree from all the items of a record.
    pub(super) fn build(text: &'a str, syntax: &'a RecordSyntax) -> PlayTree<'a> {
        let mut tree =
            PlayTree { lines: vec![PlayLine::default()], sites: Vec::new(), first_number: None };
        tree.walk(text, syntax);
        tree.first_number = tree.lines[0].moves.first().map(|first| first.number);
        tree
    }

    /// The comments of the record, in text order.
    pub(super) fn sites(&self) -> &[Site<'a>] {
        &self.sites
    }

    /// Adds the record's lines of play to the tree, walking its items with a stack of the
    /// lines of play they stand in (each with the comments' place there), innermost last.
    fn walk(&mut self, text: &'a str, syntax: &'a RecordSyntax) {
        let mut open = vec![(0, Place::Start)];
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
                    if *place == Place::Start {
                        *place = Place::Play;
                    }
                    let number = move_number(move_line.number.text(text));
                    self.lines[line].moves.push(Move { number, line: move_line });
                }
                Item::Variation(variation) => {
                    if *place == Place::Start {
                        *place = Place::Play;
                    }
                    let attach = self.lines[line].moves.len().checked_sub(1);
                    let black_first = syntax
                        .items_of(variation)
                        .iter()
                        .find_map(|item| {
                            if let Item::MoveLine(first) = item {
                                Some(first.ellipsis.is_some())
                            } else {
                                None
                            }
                        })
                        .unwrap_or(false);
                    let id = self.lines.len();
                    self.lines.push(PlayLine {
                        moves: Vec::new(),
                        children: Vec::new(),
                        branch: Some(Branch { parent: line, attach, black_first }),
                        variation: Some(variation),
                        attach_number: attach.map(|index| self.lines[line].moves[index].number),
                        label: variation
                            .label
                            .as_ref()
                            .and_then(|label| label_number(label.text(text))),
                    });
                    self.lines[line].children.push(id);
                    open.push((id, Place::Play));
                }
                Item::Comment(comment) => self.sites.push(Site { comment, line, place: *place }),
                Item::Result(_) if line == 0 => *place = Place::Final,
                _ => {}
            }
        }
    }

    /// The line of play of a comment and the lines it branches from, innermost first; lazy,
    /// as the search among them stops at the first variation found.
    fn ancestry(&self, line: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(line), |&current| {
            self.lines[current].branch.map(|branch| branch.parent)
        })
    }

    /// The history of a line of play before `offset` (§12.3 rule 1), newest first: its own
    /// moves before `offset`, then the history of its parent before the move line it is
    /// attached to. Lazy, so that a reference found among the newest moves costs no walk of
    /// the whole history: in a record nested 100,000 deep, building every comment's history
    /// took time quadratic in the depth.
    fn history_back(&self, line: usize, offset: usize) -> impl Iterator<Item = Entry<'a>> + '_ {
        // The line and its ancestors up to the first one not attached to a move line, each
        // with the offset its part of the history stops at.
        let chain = std::iter::successors(Some((line, offset)), |&(current, _)| {
            match self.lines[current].branch {
                Some(Branch { parent, attach: Some(attach), .. }) => {
                    Some((parent, self.lines[parent].moves[attach].line.range.start))
                }
                _ => None,
            }
        });
        chain.flat_map(move |(line, offset)| {
            let play_line = &self.lines[line];
            let before = play_line.moves.partition_point(|item| item.line.range.start < offset);
            let own = play_line.moves[..before].iter().rev().map(Entry::of);
            // A Black-first variation keeps White's half-move of the move it replaces.
            let kept = match play_line.branch {
                Some(Branch { parent, attach: Some(attach), black_first: true }) => {
                    let attached = &self.lines[parent].moves[attach];
                    attached
                        .line
                        .white
                        .is_some()
                        .then(|| Entry { black: None, ..Entry::of(attached) })
                }
                _ => None,
            };
            own.chain(kept)
        })
    }

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
        if site.place == Place::Start {
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
                _ if site.place == Place::Final => (Code::N014, format!("reference to {what}, but the main line has no moves")),
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
            if site.place == Place::Final {
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
        let is_before = |item: &&Move<'_>| {
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

/// The number of a move number token: `12.` gives 12, `1?` gives 1.
fn move_number(written: &str) -> u32 {
    written.trim_end_matches(['.', '?']).parse().unwrap_or(u32::MAX)
}

/// The number of a well-formed label `$[n]` (n ≥ 1, no leading zero).
fn label_number(written: &str) -> Option<u32> {
    let digits = written.strip_prefix("$[")?.strip_suffix(']')?;
    if digits.starts_with('0') {
        return None;
    }
    digits.parse().ok().filter(|&n| n >= 1)
}
