//! Writing a move line in its canonical form (§7.2): `N. white, black`, the half-moves with no
//! space inside the move token and the annotation group after one space, except a lone `:`,
//! which stays attached to the move (§6.8, §15 item 24).

use super::options::FormatOptions;
use crate::syntax::{HalfMoveText, MoveLine, Token};

/// Appends the move line (without indentation or line end) to `out`.
pub(super) fn write_move_line(
    out: &mut String,
    text: &str,
    line: &MoveLine,
    options: &FormatOptions,
) {
    out.push_str(line.number.text(text));
    if let Some(white) = line.white() {
        out.push(' ');
        write_half_move(out, text, white, options);
    } else if let Some(ellipsis) = &line.ellipsis {
        out.push(' ');
        out.push_str(options.ellipsis.respell(ellipsis.text(text)));
    }
    if line.comma.is_some() {
        out.push(',');
    }
    if let Some(black) = line.black() {
        out.push(' ');
        write_half_move(out, text, black, options);
    }
}

/// Appends a half-move: its move tokens joined (a move token holds no space, §6.1), then the
/// rating or NAG and the game indicator joined into one group.
fn write_half_move(
    out: &mut String,
    text: &str,
    half_move: &HalfMoveText,
    options: &FormatOptions,
) {
    // The fields in the order the grammar reads them, which is their order in the text.
    let written = |token: &Option<Token>| token.as_ref().map_or("", |token| token.text(text));
    out.push_str(written(&half_move.piece));
    out.push_str(written(&half_move.origin));
    out.push_str(options.separators.respell_separator(written(&half_move.separator)));
    out.push_str(written(&half_move.captured));
    out.push_str(written(&half_move.destination));
    out.push_str(written(&half_move.promotion));
    if let Some(castling) = &half_move.castling {
        out.push_str(&options.separators.respell_castling(castling.text(text)));
    }
    out.push_str(written(&half_move.check));
    let rating = half_move.rating.as_ref().or(half_move.nag.as_ref()).map(|token| token.text(text));
    let indicator = half_move.indicator.as_ref().map(|token| token.text(text));
    match (rating, indicator) {
        (None, None) => {}
        (None, Some(":")) => out.push(':'),
        (rating, indicator) => {
            out.push(' ');
            out.push_str(rating.unwrap_or(""));
            out.push_str(indicator.unwrap_or(""));
        }
    }
}
