//! The positions hovers show and the shared ways of writing them: where the line of play
//! stands before a half-move or at a comment (asked of `analysis::standing_at`, so that a
//! variation starts where the half-move it replaces did, as everywhere else), a half-move's
//! label, and the board with its PDTL.

use super::{fit, Context};
use crate::analysis::{self, move_label, standing_at, PlayedHalfMove, Standing};
use crate::board;
use crate::geometry::Hex;
use crate::pdtl;
use crate::position::Position;

/// The label of a replayed half-move, with the move as written (without its annotations):
/// `12. …, EE23-D20`.
pub(super) fn played_label(text: &str, played: &PlayedHalfMove) -> String {
    let written = text.get(played.range.start..played.move_end).unwrap_or("");
    move_label(&format!("{}.", played.number), played.side, written)
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

/// Appends the board (with the half-move from `marked[0]` to `marked[1]` marked), whose turn
/// it is and the PDTL of a position: the board as a text picture, or as an SVG image for a
/// client that shows images.
pub(super) fn write_position(
    record: Context<'_>,
    out: &mut String,
    position: &Position,
    marked: &[Hex],
) {
    let ids = &record.view.analysis.identifiers;
    if record.options.images {
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
    } else {
        out.push_str("```text\n");
        out.push_str(&board::text::picture(position, ids, marked));
        out.push_str("```\n\n");
    }
    out.push_str(position.turn.name());
    // A position that the rule checks flagged may be one no PDTL holds (P010): say so
    // rather than show a PDTL that `check` rejects.
    if let Some(problem) = analysis::pdtl_problem(position, ids) {
        out.push_str(" to move.\n\n");
        out.push_str(&problem.replacen("no PDTL", "No PDTL", 1));
        out.push('\n');
        return;
    }
    // Beside an image the PDTL's name goes with the turn, and the PDTL alone on the next
    // line, which VS Code breaks only at its blanks. Under a text board the PDTL is broken
    // to the board's width (see `fit`).
    if record.options.images {
        out.push_str(" to move. PDTL:\n\n`");
        pdtl::write_pdtl(position, ids, out);
        out.push_str("`\n");
    } else if !record.options.fit {
        out.push_str(" to move.\n\nPDTL `");
        pdtl::write_pdtl(position, ids, out);
        out.push_str("`\n");
    } else {
        out.push_str(" to move.\n\nPDTL:\n\n");
        let mut written = String::new();
        pdtl::write_pdtl(position, ids, &mut written);
        fit::pdtl_block(&written, out);
    }
}
