//! The movetext of a record walked line of play by line of play (handbook §7, §11, §13.1):
//! numbering and structure (M-codes), the replay of every half-move with the coherence checks,
//! and the recovery rules that keep one failure from cascading: a line of play whose position
//! becomes unknown stops being replayed, while its syntax and structure are still checked.
//!
//! The lines of play, where each variation branches and what it replaces, are read from the
//! record's [`PlayTree`], the one the line-of-play queries and reference resolution read; the
//! walk adds only what the tree does not hold: the positions, replayed as it goes.

use std::cell::OnceCell;
use std::collections::HashSet;

use super::check_suffix::check_suffix_diagnostic;
use super::half_move::read_half_move;
use super::line_of_play::{move_number, played_before, Branch, PlayTree};
use super::setup::Setup;
use super::{Keep, PlayedHalfMove, RuleChecks};
use crate::diagnostics::{Code, Diagnostic, Findings, Fix, Pass};
use crate::pieces::Side;
use crate::position::Position;
use crate::replay;
use crate::syntax::chars::is_white_space;
use crate::syntax::{HalfMoveText, Item, MoveLine, RecordSyntax, Step, Token, Variation};
use crate::text::{on_one_line, LineIndex, TextEdit, TextRange};

/// What the main line ended with, for the result checks.
#[derive(Debug, Default)]
pub struct MainLineEnd {
    /// The last written main-line half-move: its range, side and whether it mates.
    pub last: Option<(TextRange, Side, bool)>,
}

/// A line of play's relation to its parent, as the tree tells it ([`Walker::kind`]).
#[derive(Clone, Copy)]
enum LineKind {
    Main,
    /// `parent_number` is the number of the move line the variation is attached to; `None`
    /// for one that replaces nothing (M012), whose numbers repeat nothing.
    Variation {
        parent_number: Option<u32>,
    },
}

/// The positions around the last move line of a line of play, from which a variation
/// attached to it starts (§11.2); the tree says which move line that is, what it holds, and
/// which of its half-moves a variation keeps before the one it replaces ([`played_before`]).
#[derive(Clone, Default)]
struct AttachPoint {
    /// Where the move line starts.
    line_start: Option<Position>,
    /// After White's half-move, when the move line has one.
    after_white: Option<Position>,
}

impl AttachPoint {
    /// The position a variation attached here starts from: after the half-moves of the move
    /// line it keeps (White's, when it replaces Black's and there is one), else where the
    /// move line starts, as its history in the tree says.
    fn start(&self, attached: &MoveLine, replaced: Side) -> Option<Position> {
        match played_before(attached, replaced) {
            Some(_) => self.after_white.clone(),
            None => self.line_start.clone(),
        }
    }
}

/// The fix of a move number out of sequence: it and every number after it in its line of play
/// (variations included, since they repeat their parent's numbers) move by the same amount.
/// None when a number would fall below 1: the numbers after it do not continue its sequence
/// (`2. 67. 8.`), and renumbering them all would only move the break. None too once the
/// record's `budget` of numbers read is spent: each renumbering reads the rest of its line
/// of play, and a record of thousands of breaks (`9.8 9.8 9.8 …`) would cost the square of
/// its size; the diagnostics stay, without a fix.
fn renumbering(
    text: &str,
    syntax: &RecordSyntax,
    line: &MoveLine,
    following: &[Item],
    written: u32,
    expected: u32,
    budget: &mut usize,
) -> Option<Fix> {
    let shift = i64::from(expected) - i64::from(written);
    let later = syntax.walk(following).filter_map(|step| match step {
        Step::Item(Item::MoveLine(line), _) => Some(&line.number),
        _ => None,
    });
    let mut edits = Vec::new();
    for number in std::iter::once(&line.number).chain(later) {
        *budget = budget.checked_sub(1)?;
        let digits = TextRange::new(
            number.range.start,
            number.range.end.saturating_sub(1).max(number.range.start),
        );
        if let Some(old) = text.get(digits.to_range()).and_then(|digits| digits.parse::<i64>().ok())
        {
            if old + shift < 1 {
                return None;
            }
            edits.push(TextEdit::replace(digits, (old + shift).to_string()));
        }
    }
    Some(Fix { title: format!("Renumber the moves from {written} as {expected}"), edits })
}

/// A half-move of a line of play as written, for the checks of its end marks.
struct WrittenHalfMove {
    /// The move and its check suffix.
    range: TextRange,
    /// The end of the whole half-move, annotations included.
    end: usize,
    side: Side,
    /// Whether it carries the end mark `:` (or `#`).
    end_mark: bool,
    mate: bool,
    /// Whether its text does not read as a half-move (S004 and the like).
    broken: bool,
}

/// A move line's number as written, for the checks of the start and the sequence.
struct WrittenNumber<'t> {
    /// The number with its `.` or `?` (`12.`, `1?`).
    text: &'t str,
    range: TextRange,
    /// Whether it is the unknown-start numbering `1?` (or another number before `?`).
    unknown_start: bool,
    /// The number without its `.` or `?`; `None` for a number the parser had to invent,
    /// which is empty and is not judged against the sequence (S001 or S011 says what is wrong
    /// there).
    value: Option<u32>,
}

impl<'t> WrittenNumber<'t> {
    fn of(text: &'t str, line: &MoveLine) -> WrittenNumber<'t> {
        let written = line.number.text(text);
        WrittenNumber {
            text: written,
            range: line.number.range,
            unknown_start: written.ends_with('?'),
            value: move_number(written),
        }
    }
}

/// One line of play being walked: its items, how far the walk is, and what it knows so far.
struct LineWalk<'i> {
    /// The line in the record's [`PlayTree`].
    line: usize,
    items: &'i [Item],
    /// The index of the next item.
    next: usize,
    /// How many of the line's variations were met: the index of the next among its children.
    variations: usize,
    depth: usize,
    position: Option<Position>,
    expected: Option<u32>,
    attach: AttachPoint,
    /// The labels of the variations met, with the number of the move line they attach to.
    labels: HashSet<(u32, u32)>,
    white_only: Option<Token>,
    move_lines: usize,
    previous_end: Option<usize>,
    written: Vec<WrittenHalfMove>,
    mated_at: Option<usize>,
    /// Set at the main line's result line: the moves and variations after it are reported
    /// once, as M008 (`results`), and not walked. They are no part of the game, so M004,
    /// M005 or M010 about them would only repeat the cause.
    after_result: bool,
}

impl<'i> LineWalk<'i> {
    fn new(line: usize, items: &'i [Item], start: Option<Position>, depth: usize) -> LineWalk<'i> {
        LineWalk {
            line,
            items,
            next: 0,
            variations: 0,
            depth,
            position: start,
            expected: None,
            attach: AttachPoint::default(),
            labels: HashSet::new(),
            white_only: None,
            move_lines: 0,
            previous_end: None,
            written: Vec::new(),
            mated_at: None,
            after_result: false,
        }
    }
}

/// Walks the lines of play of one record, collecting diagnostics and replayed half-moves.
pub struct Walker<'a> {
    text: &'a str,
    syntax: &'a RecordSyntax,
    tree: &'a PlayTree<'a>,
    setup: &'a Setup,
    /// The record's lines, indexed only when text the grammar could not place asks where it
    /// stands (see `item`): the other questions of the walk are about neighbouring tokens.
    lines: OnceCell<LineIndex>,
    /// How many more move numbers the renumbering fixes may read (see [`renumbering`]): the
    /// record's length in bytes, at least twice its count of move numbers (each is written
    /// with two bytes or more), so that the fixes of a record cost time linear in its size.
    renumbering_budget: usize,
    pub diagnostics: Findings,
    /// The optional rule checks' warnings (R-codes) about replayed half-moves.
    pub rule_warnings: Findings,
    pub played: Vec<PlayedHalfMove>,
    rule_checks: RuleChecks,
    /// Whether `played` is filled: not when only the findings are kept.
    keep_played: bool,
}

impl<'a> Walker<'a> {
    pub fn new(
        text: &'a str,
        syntax: &'a RecordSyntax,
        tree: &'a PlayTree<'a>,
        setup: &'a Setup,
        rule_checks: RuleChecks,
        keep: Keep,
    ) -> Walker<'a> {
        Walker {
            text,
            syntax,
            tree,
            setup,
            lines: OnceCell::new(),
            renumbering_budget: text.len(),
            diagnostics: Findings::new(Pass::Movetext),
            rule_warnings: Findings::new(Pass::Rules),
            played: Vec::new(),
            rule_checks,
            keep_played: keep == Keep::Everything,
        }
    }

    fn report(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, range, message));
    }

    /// What the line `line` of the tree is: the main line, or a variation with the number of
    /// the move line it is attached to.
    fn kind(&self, line: usize) -> LineKind {
        let play_line = &self.tree.lines[line];
        match play_line.branch {
            None => LineKind::Main,
            Some(_) => LineKind::Variation { parent_number: play_line.attach_number },
        }
    }

    /// Whether two nearby offsets stand on one line: only the bytes between them are read.
    fn same_line(&self, a: usize, b: usize) -> bool {
        on_one_line(self.text, a, b)
    }

    /// Walks the main line from the setup's start and, as they come, its variations, in text
    /// order down the tree of the lines of play: one [`LineWalk`] per line of play being
    /// walked, innermost last, so that only the positions of the lines open at a place are
    /// held.
    pub fn walk_main(&mut self) -> MainLineEnd {
        let setup = self.setup;
        let items = &self.syntax.items[setup.first_movetext_item..];
        let mut lines = vec![LineWalk::new(0, items, setup.start.clone(), 0)];
        loop {
            let Some(line) = lines.last_mut() else { return MainLineEnd::default() };
            let Some(item) = line.items.get(line.next) else {
                let Some(line) = lines.pop() else { return MainLineEnd::default() };
                let end = self.finish(line);
                if lines.is_empty() {
                    return end;
                }
                continue;
            };
            line.next += 1;
            match item {
                Item::Result(_) if matches!(self.kind(line.line), LineKind::Main) => {
                    line.after_result = true
                }
                Item::MoveLine(_) | Item::Variation(_) if line.after_result => {}
                Item::Variation(variation) => {
                    let inner = self.variation(variation, line);
                    line.previous_end = Some(variation.range.end);
                    lines.push(inner);
                }
                _ => self.item(item, line),
            }
        }
    }

    /// Walks one item of a line of play other than a variation. The line's position is worked
    /// on in place: it is hundreds of bytes, and copying it per item was a large part of a
    /// whole-file check.
    fn item(&mut self, item: &Item, walk: &mut LineWalk<'_>) {
        let index = walk.next - 1;
        match item {
            Item::MoveLine(line) => self.move_line(line, index, walk),
            Item::Comment(comment) => {
                walk.previous_end = Some(comment.range.end);
            }
            Item::Error(token) => {
                let items = walk.items;
                let after_comment = index > 0
                    && matches!(&items[index - 1], Item::Comment(c) if c.closed && self.same_line(c.range.end - 1, token.range.start));
                if after_comment {
                    if let Item::Comment(comment) = &items[index - 1] {
                        self.report(
                            Code::N002,
                            TextRange::new(comment.range.end - 1, comment.range.end),
                            "text after } on its line: a comment ends its line",
                        );
                    }
                } else {
                    let text = self.text[token.range].trim_matches(is_white_space);
                    let shown: String = text.chars().take(24).collect();
                    self.report(
                        Code::S001,
                        token.range,
                        format!("unexpected {shown}: expected a move line, comment, variation or result"),
                    );
                    // Many such tokens may follow one move line on a long line: the index
                    // keeps this from reading the text between them again for each.
                    let lines = self.lines.get_or_init(|| LineIndex::new(self.text));
                    if walk
                        .previous_end
                        .is_some_and(|end| lines.line_of(end) == lines.line_of(token.range.start))
                    {
                        walk.position = None;
                    }
                }
            }
            Item::StrayClose(token) => {
                self.report(Code::M011, token.range, ") closes no variation");
            }
            Item::Variation(_) | Item::Tag(_) | Item::Result(_) => {}
        }
    }

    /// Walks a move line, the `index`-th item of its line of play: its number, its layout and
    /// its half-moves, played.
    fn move_line(&mut self, line: &MoveLine, index: usize, walk: &mut LineWalk<'_>) {
        if let Some(number) = walk.white_only.take() {
            self.report(
                Code::M010,
                number.range,
                "a move line with White's half-move alone must be the last of its line of play",
            );
            walk.position = None;
        }
        if let Some(end) = walk.previous_end {
            if self.same_line(end, line.range.start) {
                self.report(
                    Code::M026,
                    line.number.range,
                    "several move pairs on one line: the canonical layout is one pair per line",
                );
            }
        }
        let following = &walk.items[index + 1..];
        let number = self.check_number(line, following, walk);
        // The positions a variation starts from are kept only when a variation follows this
        // move line (before the next one): copying them for every move line was a large part
        // of a whole-file check.
        let attached = following
            .iter()
            .take_while(|item| !matches!(item, Item::MoveLine(_)))
            .any(|item| matches!(item, Item::Variation(_)));
        // Written in place (a variation reads them only after this move line): the two
        // positions are hundreds of bytes each, and moving one into place copied all of it
        // even when there was none.
        match (attached, walk.position.as_ref()) {
            (true, Some(before)) => walk.attach.line_start = Some(before.clone()),
            _ => walk.attach.line_start = None,
        }
        if line.ellipsis.is_some() && walk.move_lines > 0 {
            self.report(
                Code::M022,
                line.number.range,
                "an ellipsis only stands on the first move line of a line of play",
            );
            walk.position = None;
        }
        self.check_completeness(line, &mut walk.position);
        if let Some(white) = line.white() {
            self.play(white, Side::White, number, walk);
        }
        match (attached && line.white().is_some(), walk.position.as_ref()) {
            (true, Some(after)) => walk.attach.after_white = Some(after.clone()),
            _ => walk.attach.after_white = None,
        }
        if line.comma.is_some() && line.black().is_none() {
            walk.position = None;
        }
        if let Some(black) = line.black() {
            self.play(black, Side::Black, number, walk);
        }
        if line.white().is_some() && line.black().is_none() && line.comma.is_none() {
            walk.white_only = Some(line.number);
        }
        walk.move_lines += 1;
        walk.previous_end = Some(line.range.end);
    }

    /// The checks at the end of a line of play, once all its items are walked.
    fn finish(&mut self, state: LineWalk<'_>) -> MainLineEnd {
        let is_main = matches!(self.kind(state.line), LineKind::Main);
        let written = state.written;
        if !is_main {
            for half_move in &written {
                if half_move.end_mark && !half_move.mate {
                    self.diagnostics.push(Diagnostic::new(
                        Code::M025,
                        half_move.range,
                        "the end mark : is not used inside a variation",
                    ));
                }
            }
            return MainLineEnd::default();
        }
        if let Some((last, rest)) = written.split_last() {
            for half_move in rest {
                if half_move.end_mark {
                    self.report(
                        Code::M005,
                        half_move.range,
                        "end mark : or # on a half-move that is not the last of the main line",
                    );
                }
            }
            if !last.end_mark {
                let mut diagnostic = Diagnostic::new(
                    Code::M004,
                    last.range,
                    "the last half-move of the main line ends with : (or # for mate)",
                );
                // The end mark closes the half-move's annotations (§7.1: `EE23-D20 !:`). Not
                // offered on a half-move that does not read (`JF2`), which the parser may no
                // longer take for one with the mark, nor before text that does not read.
                let broken_after = state.items.iter().any(
                    |item| matches!(item, Item::Error(token) if token.range.start >= last.end),
                );
                if !last.broken && !broken_after {
                    diagnostic = diagnostic.with_fix(Fix::replace(
                        "Add the end mark :",
                        TextRange::empty(last.end),
                        ":",
                    ));
                }
                self.diagnostics.push(diagnostic);
            }
        }
        MainLineEnd {
            last: written.last().map(|half_move| (half_move.range, half_move.side, half_move.mate)),
        }
    }

    /// Checks a move line's number against the start (on a line of play's first move line) or
    /// the sequence (on the others); returns the number to use for the line.
    fn check_number(
        &mut self,
        line: &MoveLine,
        following: &[Item],
        walk: &mut LineWalk<'_>,
    ) -> u32 {
        let number = WrittenNumber::of(self.text, line);
        let first = walk.move_lines == 0;
        match self.kind(walk.line) {
            LineKind::Main if first => self.check_main_start(line, &number, &mut walk.position),
            LineKind::Variation { parent_number } if first => {
                self.check_variation_start(&number, parent_number)
            }
            _ => self.check_sequence(line, following, &number, walk.expected),
        }
        // After a wrong number the sequence continues from the number written (§7.2); after
        // one that cannot be read, from the number expected there.
        walk.expected = match number.value {
            Some(value) => Some(value.saturating_add(1)),
            None => walk.expected.map(|expected| expected.saturating_add(1)),
        };
        number.value.unwrap_or(u32::MAX)
    }

    /// The first number of the main line, against the start: `1.` from the initial position,
    /// the side to move and the move number of a PDTL.
    fn check_main_start(
        &mut self,
        line: &MoveLine,
        number: &WrittenNumber<'_>,
        position: &mut Option<Position>,
    ) {
        let (written, range) = (number.text, number.range);
        let value = number.value.unwrap_or(u32::MAX);
        if number.unknown_start && value != 1 {
            self.report(
                Code::M002,
                range,
                format!("{written}: the unknown-start numbering is written 1?"),
            );
        }
        if !self.setup.has_pdtl {
            if value != 1 || number.unknown_start || line.ellipsis.is_some() {
                self.report(
                    Code::M003,
                    range,
                    "without a PDTL tag the game starts from the initial position: the first line is 1. with White's half-move",
                );
                *position = None;
            }
            return;
        }
        let Some(start) = position.as_ref() else { return };
        let black_first = line.ellipsis.is_some();
        if black_first != (start.turn == Side::Black) {
            let message = if start.turn == Side::Black {
                "the PDTL gives Black to move: the first line is written N. …, <Black's half-move>"
            } else {
                "the PDTL gives White to move: the first line must not start with an ellipsis"
            };
            self.report(Code::M003, range, message);
            *position = None;
        } else if let Some(pdtl_number) = start.move_number {
            if number.unknown_start {
                self.report(
                    Code::M019,
                    range,
                    format!("1? although the PDTL gives move number {pdtl_number}: write {pdtl_number}."),
                );
            } else if value != pdtl_number {
                self.report(
                    Code::M024,
                    range,
                    format!(
                        "first move number {value}, but the PDTL gives move number {pdtl_number}"
                    ),
                );
            }
        }
    }

    /// The first number of a variation: it repeats the number of the move line it is attached
    /// to (`parent_number`).
    fn check_variation_start(&mut self, number: &WrittenNumber<'_>, parent_number: Option<u32>) {
        if number.unknown_start {
            self.report_misplaced_unknown_start(number);
        }
        let value = number.value.unwrap_or(u32::MAX);
        if let Some(parent_number) = parent_number.filter(|&parent| parent != value) {
            self.report(
                Code::M015,
                number.range,
                format!("the variation must repeat the move number {parent_number} of the line it follows"),
            );
        }
    }

    /// A number after the first of its line of play: the one `expected` after the line
    /// before, or M001 with the fix that renumbers it and the numbers after it.
    fn check_sequence(
        &mut self,
        line: &MoveLine,
        following: &[Item],
        number: &WrittenNumber<'_>,
        expected: Option<u32>,
    ) {
        if number.unknown_start {
            self.report_misplaced_unknown_start(number);
            return;
        }
        let (Some(expected), Some(value)) = (expected, number.value) else { return };
        if value == expected {
            return;
        }
        let mut diagnostic = Diagnostic::new(
            Code::M001,
            number.range,
            format!("move number {value}, expected {expected}"),
        );
        // A fix for a diagnostic that will only be counted is not computed.
        let fix = (!self.diagnostics.is_full())
            .then(|| {
                renumbering(
                    self.text,
                    self.syntax,
                    line,
                    following,
                    value,
                    expected,
                    &mut self.renumbering_budget,
                )
            })
            .flatten();
        if let Some(fix) = fix {
            diagnostic = diagnostic.with_fix(fix);
        }
        self.diagnostics.push(diagnostic);
    }

    /// M002: `1?` anywhere but on the main line's first move line.
    fn report_misplaced_unknown_start(&mut self, number: &WrittenNumber<'_>) {
        self.report(
            Code::M002,
            number.range,
            format!("{}: 1? is only allowed on the first main-line move line", number.text),
        );
    }

    /// S011 and M014: a move line must hold its half-moves, and a pair is never split.
    fn check_completeness(&mut self, line: &MoveLine, position: &mut Option<Position>) {
        if line.white().is_none() && line.ellipsis.is_none() {
            self.report(
                Code::S011,
                line.number.range,
                "a move number without a half-move after it",
            );
            *position = None;
            return;
        }
        match (&line.comma, line.black()) {
            (Some(comma), None) => {
                // White's half-move is whole and is still replayed (the walk stops after it),
                // so that a user typing Black's reply sees the position it answers.
                self.report(Code::S011, comma.range, "a comma without Black's half-move after it");
            }
            (None, None) if line.ellipsis.is_some() => {
                self.report(
                    Code::S011,
                    line.number.range,
                    "an ellipsis without , and Black's half-move",
                );
                *position = None;
            }
            (Some(comma), Some(black)) if !self.same_line(comma.range.start, black.range.start) => {
                self.report(Code::M014, comma.range, "a move pair is split across lines: Black's half-move goes on the line of the comma");
                // The split half-move is read, but the position is no longer trusted (§13.1).
                *position = None;
            }
            _ => {}
        }
    }

    /// Reads a half-move of the line of play `walk` and plays it on the line's position.
    fn play(&mut self, half_move: &HalfMoveText, side: Side, number: u32, walk: &mut LineWalk<'_>) {
        let is_main = matches!(self.kind(walk.line), LineKind::Main);
        let (depth, position) = (walk.depth, &mut walk.position);
        let read = read_half_move(self.text, half_move, &self.setup.identifiers, side);
        let move_range = TextRange::new(half_move.range.start, half_move.move_end());
        self.diagnostics.extend(read.diagnostics);
        if read.mate {
            if let Some(rating) = &half_move.rating {
                self.diagnostics.push(Diagnostic::new(
                    Code::M021,
                    rating.range,
                    "no rating after a checkmating move",
                ));
            }
        }
        if !is_main {
            if walk.mated_at.is_some() {
                self.report(
                    Code::M023,
                    move_range,
                    "moves after # in a variation: mate ends the variation",
                );
                *position = None;
            }
            if read.mate {
                walk.mated_at = Some(half_move.range.start);
            }
        }
        walk.written.push(WrittenHalfMove {
            range: move_range,
            end: half_move.range.end,
            side,
            end_mark: read.end_mark,
            mate: read.mate,
            broken: half_move.has_error,
        });
        let Some(before) = position.as_ref() else { return };
        if before.turn != side {
            *position = None;
            return;
        }
        let mv = match read.reading {
            None => {
                *position = None;
                return;
            }
            Some(Err((code, message))) => {
                self.report(code, move_range, message);
                *position = None;
                return;
            }
            Some(Ok(mv)) => mv,
        };
        // The rule checks judged on the board before the half-move, so that it can be played
        // in place, with no copy of the position kept to compare.
        let judged_before = (self.rule_checks == RuleChecks::Judge)
            .then(|| (replay::rule_warnings(before, &mv), replay::legality_before(before, &mv)));
        let Some(current) = position.as_mut() else { return };
        let effect = match replay::play_in_place(current, &mv, &self.setup.identifiers) {
            Ok(effect) => effect,
            Err(incoherence) => {
                self.report(incoherence.code, move_range, incoherence.message);
                *position = None;
                return;
            }
        };
        if let Some((rule_warnings, mut legality)) = judged_before {
            for (code, message) in rule_warnings.into_iter().chain(legality.after(current)) {
                self.rule_warnings.push(Diagnostic::new(code, move_range, message));
            }
            if let Some(mismatch) = legality.judge_check_suffix(current, read.check) {
                self.rule_warnings.push(check_suffix_diagnostic(half_move, read.check, mismatch));
            }
        }
        if self.keep_played {
            let check_end =
                half_move.check.as_ref().map_or(half_move.move_end(), |check| check.range.end);
            self.played.push(PlayedHalfMove {
                range: half_move.range,
                move_end: check_end,
                side,
                number,
                depth,
                effect,
                after: current.clone(),
            });
        }
    }

    /// The checks of a variation met in the line of play `parent`, before its items: the
    /// line of play to walk next, with the position it starts from.
    fn variation<'i>(&mut self, variation: &Variation, parent: &mut LineWalk<'i>) -> LineWalk<'i>
    where
        'a: 'i,
    {
        let tree = self.tree;
        // The tree holds a line's variations in the order they are written, as they are met.
        let id = tree.lines[parent.line].children[parent.variations];
        parent.variations += 1;
        let line = &tree.lines[id];
        let depth = parent.depth + 1;
        let items = self.syntax.items_of(variation);
        let open = variation.open.range;
        if variation.close.is_none() {
            self.report(Code::M011, open, "( is never closed: every variation ends with )");
        }
        if items.is_empty() {
            self.report(
                Code::M013,
                open,
                "empty variation: a variation holds at least one move line",
            );
        }
        let Some(Branch { parent: from, attach: Some(index), replaced: side_replaced }) =
            line.branch
        else {
            self.report(
                Code::M012,
                open,
                "a variation before the first move line replaces nothing",
            );
            return LineWalk::new(id, items, None, depth);
        };
        let attached = &tree.lines[from].moves[index];
        let number = attached.number;
        if let Some(label) = &variation.label {
            match line.label {
                None => self.report(
                    Code::M020,
                    open,
                    format!(
                        "malformed variation label {}: write $[n] with n ≥ 1",
                        label.text(self.text)
                    ),
                ),
                Some(n) if !parent.labels.insert((number, n)) => self.report(
                    Code::M017,
                    open,
                    format!("a second variation labelled $[{n}] at move {number}"),
                ),
                Some(_) => {}
            }
        }
        let start = line.moves.first().and_then(|first| {
            let replaced = match side_replaced {
                Side::White => attached.line.white(),
                Side::Black => attached.line.black(),
            };
            if replaced.is_none() {
                self.report(
                    Code::M016,
                    first.line.number.range,
                    format!(
                        "move {number} has no {} half-move for this variation to replace",
                        side_replaced.name()
                    ),
                );
            }
            replaced.and_then(|_| parent.attach.start(attached.line, side_replaced))
        });
        LineWalk::new(id, items, start, depth)
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::{analyse_syntax, AnalysisOptions};
    use crate::diagnostics::Code;
    use crate::syntax;

    /// The titles of the fixes of `text`'s M001s.
    fn renumberings(text: &str) -> Vec<String> {
        let record = syntax::parse_record(text);
        let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
        let sequence = analysis.diagnostics.iter().filter(|d| d.code == Code::M001);
        sequence.flat_map(|d| d.fixes.iter().map(|fix| fix.title.clone())).collect()
    }

    #[test]
    fn moves_are_renumbered_only_when_no_number_falls_below_one() {
        let moves = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n5. K6-K8, E19-E17\n6. K8-K10, E17-E15:\n*\n";
        assert_eq!(renumberings(moves), ["Renumber the moves from 5 as 2"]);
        // Found by the fuzzer: 8 and 9 do not continue 67, and became 1 and 1. The break at 8
        // is renumbered after 67.
        assert_eq!(renumberings("2.67.8.9."), ["Renumber the moves from 8 as 68"]);
    }

    #[test]
    fn the_renumberings_of_a_record_read_no_more_numbers_than_its_length() {
        // Found by hand: every number of `9. … 9. … 9. …` breaks the sequence, and each
        // break's fix renumbered all the lines after it, the square of the record's size.
        let mut text = String::from("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n");
        for _ in 0..3000 {
            text.push_str("9. K4-K6, E21-E19\n");
        }
        text.push_str("*\n");
        let record = syntax::parse_record(&text);
        let analysis = analyse_syntax(&text, &record, AnalysisOptions::default());
        // A hundred are listed, and the others counted (S015).
        assert_eq!(analysis.census().count(Code::M001), 3000);
        let breaks: Vec<_> = analysis.diagnostics.iter().filter(|d| d.code == Code::M001).collect();
        assert!(breaks.len() <= crate::diagnostics::MAX_PER_PASS);
        // The first break is still mended whole: all 3,000 numbers from it.
        assert_eq!(breaks[0].fixes[0].edits.len(), 3000);
        let edits: usize = breaks.iter().flat_map(|d| &d.fixes).map(|fix| fix.edits.len()).sum();
        assert!(edits <= text.len(), "{edits} edits in a record of {} bytes", text.len());
    }

    #[test]
    fn no_end_mark_is_added_before_text_that_does_not_read() {
        let fixes = |text: &str| {
            let record = syntax::parse_record(text);
            let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
            let missing = analysis.diagnostics.iter().filter(|d| d.code == Code::M004);
            missing.flat_map(|d| d.fixes.iter().map(|fix| fix.title.clone())).collect::<Vec<_>>()
        };
        assert_eq!(
            fixes("[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n*\n"),
            ["Add the end mark :"]
        );
        // Found by the fuzzer: `JF2:` is no longer read as a half-move.
        assert_eq!(fixes("7.F0,JF2"), Vec::<String>::new());
    }

    #[test]
    fn a_move_number_that_cannot_be_read_is_not_judged_against_the_sequence() {
        // Found by the fuzzer: `.` read as a move number was "move number 4294967295", with a
        // renumbering that changed nothing.
        for text in [".8..", ".", "1. K4-K6, E21-E19\n."] {
            let record = syntax::parse_record(text);
            let analysis = analyse_syntax(text, &record, AnalysisOptions::default());
            let sequence: Vec<_> =
                analysis.diagnostics.iter().filter(|d| d.code == Code::M001).collect();
            assert!(sequence.is_empty(), "{text:?}: {sequence:?}");
        }
    }
}
