//! The positions hovers show and the shared ways of writing them: where the line of play
//! stands before a half-move or at a comment (asked of `analysis::standing_at`, so that a
//! variation starts where the half-move it replaces did, as everywhere else), a half-move's
//! label, and the board with its PDTL.

use super::{Context, Written, TEXT_BOARD};
use crate::analysis::{self, move_label, standing_at, PlayedHalfMove, Standing};
use crate::board;
use crate::geometry::Hex;
use crate::ide::markdown;
use crate::identifiers::IdentifierSet;
use crate::position::Position;

/// The label of a replayed half-move, with the move as written (without its annotations), as
/// Markdown text: `12. …, EE23-D20`.
pub(super) fn played_label(text: &str, played: &PlayedHalfMove) -> String {
    let written = text.get(played.range.start..played.move_end).unwrap_or("");
    markdown::text(&move_label(&format!("{}.", played.number), played.side, written))
}

/// The label of a written half-move, with the move as written, as Markdown text:
/// `2. JF6-B18`.
pub(super) fn written_label(text: &str, written: Written<'_>) -> String {
    let move_text = text.get(written.half_move.range.start..written.half_move.move_end());
    markdown::text(&move_label(written.number.text(text), written.side, move_text.unwrap_or("")))
}

/// Where the line of play holding `offset` stands there: before the half-move written there,
/// or at the comment.
pub(super) fn standing<'a>(record: Context<'a>, offset: usize) -> Standing<'a> {
    standing_at(record.view.text, record.view.syntax, offset, record.view.analysis)
}

/// Where a standing is, in words: `after 3. …, E15×F12` or `at the start of the record`.
pub(super) fn describe(record: Context<'_>, standing: Standing<'_>) -> String {
    match standing.after {
        Some(played) => format!("after {}", played_label(record.view.text, played)),
        None => "at the start of the record".to_string(),
    }
}

/// How wide the hover's board image is drawn, in CSS pixels: VS Code's hover is at most
/// 250 pixels high at the default window size (and scrolls beyond), and the board is a little
/// taller than wide (this gives 155), so that the title line, the board with the turn beside
/// it, the PDTL line and the scroll bar under that long line fit without scrolling up and
/// down (measured in code-server at 1400×900).
pub(super) const IMAGE_WIDTH: u32 = 150;

/// A position as a hover shows it.
pub(super) struct Shown<'a> {
    pub position: &'a Position,
    /// The hexes of the half-move that led to it (origin, destination), marked on the board.
    pub marked: &'a [Hex],
    /// A sentence said before whose turn it is: the check the half-move gives.
    pub check: Option<String>,
    /// Markdown that goes before the board: what the hover says besides the position.
    pub note: &'a str,
}

/// Appends a position: the board as a text picture, or as an SVG image for a client that
/// shows images, whose turn it is and the PDTL.
///
/// A text hover puts what a reader looks for first, so that a window cut short by the screen
/// still shows it (a Neovim float is as tall as the room under the cursor): the check and whose
/// turn it is, then the PDTL whole on one line of its own code block, which a text client
/// copies as one line (a PDTL broken over lines does not read back), then the note, then the
/// board. Beside an image (VS Code, which scrolls a hover) the turn and the PDTL follow the
/// picture, as its caption.
pub(super) fn write_position(record: Context<'_>, out: &mut String, shown: Shown<'_>) {
    let Shown { position, marked, check, note } = shown;
    let ids = &record.view.analysis.identifiers;
    if let Some(check) = check {
        out.push_str(&check);
        out.push_str(if record.options.images { ".\n\n" } else { ". " });
    }
    if record.options.images {
        out.push_str(note);
        let mut drawing = board::Board::new(position, ids);
        if let [origin, destination] = marked {
            drawing = drawing.with_move(*origin, *destination);
        }
        out.push_str("![C'escacs board, ");
        out.push_str(position.turn.name());
        out.push_str(" to move](");
        out.push_str(&board::svg_data_uri(&drawing.svg_with_width(IMAGE_WIDTH)));
        // The turn beside the image, on its last line: every line counts in VS Code's hover.
        out.push_str(") ");
        write_turn_and_pdtl(position, ids, out, "`", "`\n");
        return;
    }
    write_turn_and_pdtl(position, ids, out, "```text\n", "\n```\n");
    out.push('\n');
    out.push_str(note);
    out.push_str(TEXT_BOARD);
    out.push_str(&board::text::picture(position, ids, marked));
    out.push_str("```\n");
}

/// `White to move. PDTL:`, a blank line and the PDTL between `open` and `close`; or, for
/// a position that the rule checks flagged and that no PDTL may hold (P010), why there is no
/// PDTL rather than one that `check` rejects.
fn write_turn_and_pdtl(
    position: &Position,
    ids: &IdentifierSet,
    out: &mut String,
    open: &str,
    close: &str,
) {
    out.push_str(position.turn.name());
    match analysis::printed_pdtl(position, ids) {
        Ok(pdtl) => {
            out.push_str(" to move. PDTL:\n\n");
            out.push_str(open);
            out.push_str(&pdtl);
            out.push_str(close);
        }
        Err(problem) => {
            out.push_str(" to move.\n\n");
            out.push_str(&problem.sentence());
            out.push('\n');
        }
    }
}
