//! The hover of a coordinate (handbook §3): its column, its line and the hex's colour, and what
//! stands on the hex at that point of the game.
//!
//! One rule, stated in the hover: in a half-move, the hex before and after that half-move (so
//! the origin shows the piece leaving it, the destination what it took and what arrived), then
//! the half-move's own hover; in a comment (`~F14`, `~gL5`), the position after the last
//! half-move before the comment in its line of play, as comments speak of the game so far.

use super::history;
use super::{half_move, Context, HoverText, Written};
use crate::analysis::Standing;
use crate::geometry::{line_range, parse_coordinate, Hex, HexColour};
use crate::ide::markdown;
use crate::identifiers::IdentifierSet;
use crate::pieces::{Piece, Side};
use crate::position::Position;
use crate::syntax::{Reference, ReferenceKind, Token};

/// The central column, F.
const CENTRE: u8 = 7;

/// The hover of the origin or destination of a written half-move: the half-move's hover with
/// the hex before its board. A text hover keeps the half-move's lines first (what a window cut
/// short must still show); beside an image the hex comes first, above the half-move's hover.
pub(super) fn in_half_move(record: Context<'_>, written: Written<'_>, token: &Token) -> HoverText {
    let coordinate = token.text(record.view.text);
    let mut hex_part = heading(coordinate);
    if let Ok(hex) = parse_coordinate(coordinate) {
        let ids = &record.view.analysis.identifiers;
        let start = written.half_move.range.start;
        let title = history::written_label(record.view.text, written);
        let standing = history::standing(record, start);
        match record.view.analysis.played_at(start) {
            Some(played) => {
                let before = standing.position(record.view.analysis);
                let before = before
                    .map_or_else(|| "unknown".to_string(), |position| occupant(position, hex, ids));
                hex_part.push_str(&format!(
                    "- before {title}: {before}\n- after it: {}\n\n",
                    occupant(&played.after, hex, ids)
                ));
            }
            None => {
                // In bold, as the half-move's own title: a line that starts with the move
                // number would read as an item of a numbered list, and its plain text (the
                // page's hover) would lose the number.
                hex_part.push_str(&format!("**{title}** was not replayed. "));
                hex_part.push_str(&last_known(record, standing, hex));
            }
        }
    }
    let markdown = if record.options.images {
        format!("{hex_part}---\n\n{}", half_move::hover(record, written).markdown)
    } else {
        half_move::with_note(record, written, &hex_part).markdown
    };
    HoverText { range: token.range, markdown }
}

/// What a `~` reference of a comment asks about.
enum Subject {
    /// `~F14`, `~gL5`: a hex.
    Hex(Hex),
    /// `~K`, `~J[d]`: where a piece stands (for a Bishop's selector, on hexes of one colour).
    Piece(Piece, Option<HexColour>),
}

/// The hover of a `~` reference of a comment that names a hex (`~F14`) or a piece (`~gL5`,
/// `~K`, `~J[d]`): the hex as above, or where the piece stands, after the last half-move
/// before the comment.
pub(super) fn in_comment(record: Context<'_>, reference: &Reference) -> Option<HoverText> {
    let range = reference.range;
    let written = record.view.text.get(range.to_range())?;
    let body = written.strip_prefix('~').unwrap_or(written);
    let ids = &record.view.analysis.identifiers;
    let (piece, coordinate) = match reference.kind {
        ReferenceKind::Hex => (None, body),
        _ => {
            let identifier = body.chars().next()?;
            (Some(ids.read_placement_char(identifier)?), &body[identifier.len_utf8()..])
        }
    };
    let (subject, mut markdown) = if !coordinate.is_empty() && !coordinate.starts_with('[') {
        match parse_coordinate(coordinate) {
            Ok(hex) => (Subject::Hex(hex), heading(coordinate)),
            Err(_) => return Some(HoverText { range, markdown: heading(coordinate) }),
        }
    } else {
        let piece = piece?;
        let colour = match coordinate {
            "[d]" => Some(HexColour::Black),
            "[l]" => Some(HexColour::White),
            "[c]" => Some(HexColour::Coloured),
            _ => None,
        };
        (
            Subject::Piece(piece, colour),
            format!(
                "**{}** · the {} {}\n\n",
                markdown::code(written),
                piece.side.name(),
                piece.kind.name()
            ),
        )
    };
    let standing = history::standing(record, range.start);
    let place = match (standing.complete, standing.after) {
        (false, _) => format!(
            "A half-move before this comment could not be replayed; in the last known position, {}",
            history::describe(record, standing)
        ),
        (true, None) => "At the start of the record".to_string(),
        (true, Some(_)) => format!(
            "{}, the last half-move before this comment",
            capitalised(&history::describe(record, standing))
        ),
    };
    match standing.position(record.view.analysis) {
        Some(position) => {
            let what = match subject {
                Subject::Hex(hex) => occupant(position, hex, ids),
                Subject::Piece(piece, colour) => stands_on(position, piece, colour),
            };
            markdown.push_str(&format!("{place}: {what}.\n"));
        }
        None => markdown.push_str("No position is known here.\n"),
    }
    Some(HoverText { range, markdown })
}

/// The first line of a coordinate's hover: the column, the line and the colour of the hex, or
/// why the text is not a hex.
fn heading(coordinate: &str) -> String {
    let hex = match parse_coordinate(coordinate) {
        Ok(hex) => hex,
        Err(error) => {
            return format!(
                "**{}** · not a hex: {} `{}`: {}\n\n",
                markdown::text(coordinate),
                error.code,
                error.code.name(),
                markdown::text(&error.message)
            )
        }
    };
    let column = hex.column();
    let (first, last) = line_range(column);
    let side = match column.cmp(&CENTRE) {
        std::cmp::Ordering::Less => "queenside, ",
        std::cmp::Ordering::Equal => "the central column, ",
        std::cmp::Ordering::Greater => "kingside, ",
    };
    let line = match hex.line() {
        0 => " (White's vertex)",
        14 => " (the midline)",
        28 => " (Black's vertex)",
        _ => "",
    };
    let mut text = format!(
        "**{hex}** · column {} ({side}lines {first} to {last}) · line {}{line} · a {} hex",
        hex.column_letter(),
        hex.line(),
        hex.colour().name()
    );
    for promoting in [Side::White, Side::Black] {
        if hex.is_promotion_hex(promoting) {
            text.push_str(&format!(" · {} promotes here", promoting.name()));
        }
    }
    text.push_str("\n\n");
    text
}

/// What stands on a hex: `White Bishop \`J\`` or `empty`.
fn occupant(position: &Position, hex: Hex, ids: &IdentifierSet) -> String {
    match position.get(hex) {
        Some(piece) => {
            format!("{} {} `{}`", piece.side.name(), piece.kind.name(), ids.placement_char(piece))
        }
        None => "empty".to_string(),
    }
}

/// Where the pieces of one kind and side stand (on hexes of one colour, for a Bishop's selector
/// `[d]`, `[l]` or `[c]`): `on G1`, `on E3, G3`, or that there is none.
fn stands_on(position: &Position, piece: Piece, colour: Option<HexColour>) -> String {
    let hexes: Vec<String> = position
        .pieces()
        .filter(|(hex, found)| {
            *found == piece && colour.is_none_or(|colour| hex.colour() == colour)
        })
        .map(|(hex, _)| hex.to_string())
        .collect();
    if hexes.is_empty() {
        format!("no {} {} on the board", piece.side.name(), piece.kind.name())
    } else {
        format!("on {}", hexes.join(", "))
    }
}

/// The hex in the last position known before a half-move that was not replayed.
fn last_known(record: Context<'_>, standing: Standing<'_>, hex: Hex) -> String {
    match standing.position(record.view.analysis) {
        Some(position) => format!(
            "In the last known position, {}: {}.\n\n",
            history::describe(record, standing),
            occupant(position, hex, &record.view.analysis.identifiers)
        ),
        None => "No position is known before it.\n\n".to_string(),
    }
}

/// One of `history::describe`'s phrases with its first letter in upper case: they open with an
/// ASCII word (`after`, `at`), so Unicode's case tables, which weigh in the WebAssembly
/// module, are not needed.
fn capitalised(phrase: &str) -> String {
    let mut capitalised = phrase.to_string();
    if let Some(first) = capitalised.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    capitalised
}

#[cfg(test)]
mod tests {
    use super::super::tests::{hover_at, hover_with};
    use super::super::HoverOptions;

    const GAME: &str = "[Variant \"C'escacs\"]\n\n1. K4-K6, E21-E19\n{ ~F6 and ~K6 and ~J[d] and ~j }\n2. JF6-B18, EE23-D20:\n{ ~B18 ~F6 ~Y3 }\n*\n";

    #[test]
    fn an_origin_shows_the_half_move_then_its_hex_before_and_after_it_then_the_board() {
        let hover = hover_at(GAME, "F6-B18").expect("a hover");
        assert_eq!(&GAME[hover.range], "F6");
        insta::assert_snapshot!("coordinate_origin", hover.markdown);
    }

    #[test]
    fn beside_an_image_the_hex_comes_first_then_the_half_move() {
        let options = HoverOptions { images: true };
        let hover = hover_with(GAME, "F6-B18", options).expect("a hover");
        // The image's data (the board's SVG, tested where it is drawn) left out.
        let data = "data:image/svg+xml;base64,";
        let start = hover.markdown.find(data).expect("an image") + data.len();
        let end = start + hover.markdown[start..].find(')').expect("the image's end");
        let shown = format!("{}…{}", &hover.markdown[..start], &hover.markdown[end..]);
        insta::assert_snapshot!("coordinate_beside_an_image", shown);
    }

    #[test]
    fn a_destination_shows_what_arrived() {
        let hover = hover_at(GAME, "D20").expect("a hover");
        insta::assert_snapshot!("coordinate_destination", hover.markdown);
    }

    #[test]
    fn a_coordinate_in_a_comment_shows_the_position_after_the_half_move_before_it() {
        let hover = hover_at(GAME, "~F6").expect("a hover");
        assert_eq!(&GAME[hover.range], "~F6");
        insta::assert_snapshot!("coordinate_in_a_comment", hover.markdown);
        let later = hover_at(GAME, "~B18").expect("a hover");
        insta::assert_snapshot!("coordinate_in_a_later_comment", later.markdown);
    }

    #[test]
    fn after_a_half_move_that_failed_a_comment_shows_the_last_known_position() {
        let text = GAME.replace("JF6-B18", "NF6-B18");
        let hover = hover_at(&text, "~B18").expect("a hover");
        insta::assert_snapshot!("coordinate_in_a_comment_after_a_failure", hover.markdown);
        let origin = hover_at(&text, "F6-B18").expect("a hover");
        insta::assert_snapshot!("coordinate_origin_not_replayed", origin.markdown);
        // Its plain text (the web page's hover) keeps the move number.
        let plain = crate::ide::markdown::plain(&origin.markdown);
        assert!(plain.contains("\n2. NF6-B18 was not replayed. "), "{plain}");
    }

    #[test]
    fn a_piece_reference_shows_where_the_piece_stands() {
        let king = hover_at(GAME, "~K6").expect("a hover");
        insta::assert_snapshot!("coordinate_piece_reference", king.markdown);
        // The selector [d] keeps the Bishop on a black (dark) hex: F6, not F4 or F2.
        let bishops = hover_at(GAME, "~J[d]").expect("a hover");
        insta::assert_snapshot!("coordinate_piece_with_a_selector", bishops.markdown);
    }

    #[test]
    fn a_written_coordinate_that_is_no_hex_says_why() {
        let hover = hover_at(GAME, "~Y3").expect("a hover");
        insta::assert_snapshot!("coordinate_no_hex", hover.markdown);
    }
}
