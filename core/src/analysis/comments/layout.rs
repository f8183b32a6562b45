//! The layout and markers of comments (§12.1-§12.2): `{` first on its line (N001), closed
//! comments (N003), legacy markers (N004), and the placement of player comments relative to
//! the move line they comment on (N005-N008) and of unmarked comments (N009). N002 (text after
//! `}`) is reported by the movetext walk, which sees the text the grammar could not place.

use crate::diagnostics::{Code, Diagnostic, Findings, Fix};
use crate::pieces::Side;
use crate::syntax::chars::{is_blank, is_line_end};
use crate::syntax::{Comment, Item, MoveLine, RecordSyntax, Step};
use crate::text::TextRange;

/// What a comment's marker makes of it (§12.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `{:` (or the legacy `{#:`, `{#W:`, `{#B:`): any number per move, no placement rule.
    Automatic,
    /// `@W:` / `@B:` (or the legacy `@N:` for Black).
    Player(Side),
    General,
}

/// The last move line of a line of play and the comments seen since.
#[derive(Debug)]
struct SinceMoveLine<'a> {
    /// The move number as written, borrowed: every move line of a record starts one of these.
    number: &'a str,
    has_white: bool,
    has_black: bool,
    /// `@W:` / `@B:` comments already attached to the move line.
    commented: [bool; 2],
    /// A variation stands between the move line and what follows.
    after_variation: bool,
    /// A comment other than an automatic one stands between the move line and what follows.
    after_comment: bool,
}

impl<'a> SinceMoveLine<'a> {
    fn new(text: &'a str, line: &MoveLine) -> SinceMoveLine<'a> {
        SinceMoveLine {
            number: line.number.text(text).trim_end_matches(['.', '?']),
            has_white: line.white().is_some(),
            has_black: line.black().is_some(),
            commented: [false; 2],
            after_variation: false,
            after_comment: false,
        }
    }
}

/// Checks every comment of a record's items (and of their variations), line of play by line
/// of play: what each line saw since its last move line is kept on a stack, innermost last.
pub(super) fn check_layout(
    text: &str,
    syntax: &RecordSyntax,
    items: &[Item],
    diagnostics: &mut Findings,
) {
    let mut lines: Vec<Option<SinceMoveLine>> = vec![None];
    for step in syntax.walk(items) {
        let Some(since) = lines.last_mut() else { return };
        match step {
            Step::Item(Item::MoveLine(line), _) => *since = Some(SinceMoveLine::new(text, line)),
            Step::Item(Item::Variation(_), _) => {
                if let Some(since) = since {
                    since.after_variation = true;
                }
                lines.push(None);
            }
            Step::Leave(_) => {
                lines.pop();
            }
            // Final comments follow the result line, not a move line.
            Step::Item(Item::Result(_), _) => *since = None,
            Step::Item(Item::Comment(comment), _) => {
                check_comment(text, comment, since.as_mut(), diagnostics)
            }
            Step::Item(Item::Tag(_) | Item::StrayClose(_) | Item::Error(_), _) => {}
        }
    }
}

fn check_comment(
    text: &str,
    comment: &Comment,
    since: Option<&mut SinceMoveLine<'_>>,
    diagnostics: &mut Findings,
) {
    let open = comment.open.range;
    let first_on_line = starts_its_line(text, open.start);
    if !first_on_line {
        diagnostics.push(Diagnostic::new(
            Code::N001,
            open,
            "{ must be the first character of its line (after indentation): a comment starts its own line",
        ));
    }
    if !comment.closed {
        diagnostics.push(Diagnostic::new(
            Code::N003,
            open,
            "comment is never closed: end it with } (it runs to the end of the record)",
        ));
    }
    let marker = comment.marker.as_ref().map(|marker| marker.text(text));
    let kind = match marker {
        None => Kind::General,
        Some(":") => Kind::Automatic,
        Some("@W:") => Kind::Player(Side::White),
        Some("@B:") => Kind::Player(Side::Black),
        Some(legacy @ ("#:" | "#W:" | "#B:")) => {
            // `:` marks an automatic comment only right after the brace, so the fix rewrites both.
            let range = TextRange::new(
                open.start,
                comment.marker.as_ref().map_or(open.end, |m| m.range.end),
            );
            diagnostics.push(
                Diagnostic::new(Code::N004, range, format!("legacy automatic-comment marker {{{legacy} write {{: for an automatic comment"))
                    .with_fix(Fix::replace("Write {:", range, "{:")),
            );
            Kind::Automatic
        }
        Some("@N:") => {
            let mut diagnostic = Diagnostic::new(
                Code::N004,
                TextRange::new(
                    open.start,
                    comment.marker.as_ref().map_or(open.end, |m| m.range.end),
                ),
                "legacy marker @N: for Black's comment: write @B:",
            );
            if let Some(marker) = &comment.marker {
                diagnostic = diagnostic.with_fix(Fix::replace("Write @B:", marker.range, "@B:"));
            }
            diagnostics.push(diagnostic);
            Kind::Player(Side::Black)
        }
        Some(_) => Kind::General,
    };
    match kind {
        Kind::Automatic => {}
        Kind::General => {
            if let Some(since) = since {
                if first_on_line && !since.after_variation && !since.after_comment {
                    diagnostics.push(Diagnostic::new(
                        Code::N009,
                        open,
                        format!(
                            "unmarked comment directly after move {}: use @W: or @B: when it comments on a half-move",
                            since.number
                        ),
                    ));
                }
                since.after_comment = true;
            }
        }
        Kind::Player(side) => check_player_comment(side, open, since, diagnostics),
    }
}

fn check_player_comment(
    side: Side,
    open: TextRange,
    since: Option<&mut SinceMoveLine<'_>>,
    diagnostics: &mut Findings,
) {
    let marker = match side {
        Side::White => "@W:",
        Side::Black => "@B:",
    };
    let Some(since) = since else {
        diagnostics.push(Diagnostic::new(
            Code::N005,
            open,
            format!("{marker} comment without a move line before it: a player comment directly follows the move line it comments on"),
        ));
        return;
    };
    since.after_comment = true;
    if since.after_variation {
        diagnostics.push(Diagnostic::new(
            Code::N005,
            open,
            format!(
                "player comment placed after a variation instead of directly after its move line: move the {marker} comment up, before the variations of move {}",
                since.number
            ),
        ));
        return;
    }
    let has = match side {
        Side::White => since.has_white,
        Side::Black => since.has_black,
    };
    if !has {
        diagnostics.push(Diagnostic::new(
            Code::N006,
            open,
            format!(
                "{marker} comment, but move line {} has no {} half-move to comment on",
                since.number,
                side.name()
            ),
        ));
        return;
    }
    if since.commented[side.index()] {
        diagnostics.push(Diagnostic::new(
            Code::N007,
            open,
            format!(
                "a second {marker} comment for move {}: write one {marker} comment per move line",
                since.number
            ),
        ));
        return;
    }
    since.commented[side.index()] = true;
    if side == Side::White && since.commented[Side::Black.index()] {
        diagnostics.push(Diagnostic::new(
            Code::N008,
            open,
            format!(
                "@W: comment after the @B: comment of move {}: White's comment comes first",
                since.number
            ),
        ));
    }
}

/// Whether only indentation (spaces, tabs, dots) stands between the start of the line and `offset`.
fn starts_its_line(text: &str, offset: usize) -> bool {
    // Back from the brace, as far as the first character that may not stand before it: a line
    // of thousands of comments was searched back to its start for each of them.
    for c in text[..offset].chars().rev() {
        match c {
            c if is_line_end(c) => return true,
            '.' => {}
            c if is_blank(c) => {}
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::starts_its_line;

    /// What starts a line: only blanks, dots (indentation) and byte-order marks between the
    /// line's start and the offset.
    fn by_the_whole_line(text: &str, offset: usize) -> bool {
        let before = &text[..offset];
        let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        before[line_start..].chars().all(|c| matches!(c, ' ' | '\t' | '.' | '\u{FEFF}'))
    }

    proptest! {
        #[test]
        fn a_comment_starts_its_line_as_the_whole_line_says(
            text in proptest::collection::vec(
                prop::sample::select(vec![" ", "\t", ".", "\u{FEFF}", "\n", "\r", "\r\n", "{", "}", "E7", "\u{d7}", "\u{1FA50}"]),
                0..24,
            ).prop_map(|parts| parts.concat())
        ) {
            for offset in (0..=text.len()).filter(|&offset| text.is_char_boundary(offset)) {
                prop_assert_eq!(starts_its_line(&text, offset), by_the_whole_line(&text, offset), "{:?} at {}", text, offset);
            }
        }
    }
}
