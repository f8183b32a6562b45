//! `ctlpgn board (FILE --at LINE:COL | FILE --ply N [--record K] | --pdtl "…") [--flip]
//! [--format svg|png|text] [--theme light|dark] [-o OUT]`: the board the core draws
//! (`board::Board`) at a place of a record or of a PDTL, for publishers who put diagrams in
//! articles. The half-move that led to the position is marked, as in the editors.
//!
//! The text picture is followed by whose turn it is and the PDTL on a line of its own.
//!
//! PNG is the SVG rasterised by resvg with a system font for the piece letters; the board's
//! colours are CSS custom properties with defaults, which resvg does not read, so they are
//! written out as their defaults first.

use std::path::Path;

use resvg::{tiny_skia, usvg};

use super::arguments::{BoardArguments, BoardFormat, BoardTheme};
use super::output::{error_line, Output, OutputFailed};
use super::place::{locate, Located, Place};
use super::streams::is_standard_output;
use super::write::write_file;
use super::Status;
use crate::analysis::printed_pdtl;
use crate::board::{Board, Theme};
use crate::diagnostics::Severity;
use crate::identifiers::IdentifierSet;
use crate::pdtl;

/// How many pixels a unit of the SVG becomes in a PNG: twice its size, sharp in print.
const PNG_SCALE: f32 = 2.0;

/// Runs `board`: 0 when the board is drawn, 1 when the place has no position (the record does
/// not replay, or the PDTL has an error), 2 on a read or write error or a place outside the
/// file. Nothing is written when there is no position.
pub fn run(arguments: &BoardArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    let located = match (&arguments.pdtl, &arguments.file) {
        (Some(written), _) => from_pdtl(written),
        (None, Some(file)) => {
            // The argument group requires --at, --ply or --pdtl.
            let Some(place) = Place::from_arguments(arguments.at, arguments.ply, arguments.record)
            else {
                return Ok(Status::Failure);
            };
            locate("board", file, arguments.limit.max_input_size, place)
        }
        (None, None) => return Ok(Status::Failure),
    };
    let located = match located {
        Ok(located) => located,
        Err(status) => return Ok(status),
    };
    let mut board = Board::new(&located.position, &located.identifiers);
    if let Some(played) = &located.played {
        board = board.with_move(played.effect.origin, played.effect.destination);
    }
    if arguments.flip {
        board = board.flip();
    }
    board = board.with_theme(match arguments.theme {
        BoardTheme::Light => Theme::Light,
        BoardTheme::Dark => Theme::Dark,
    });
    let drawn = match arguments.format {
        BoardFormat::Svg => board.svg().into_bytes(),
        BoardFormat::Text => with_caption(board.text(), &located).into_bytes(),
        BoardFormat::Png => match png(&board.svg()) {
            Ok(png) => png,
            Err(message) => {
                error_line(&format!("ctlpgn board: {message}; nothing was written"));
                return Ok(Status::Failure);
            }
        },
    };
    match &arguments.output {
        Some(path) if !is_standard_output(path) => Ok(write_to(path, &drawn)),
        _ => {
            out.bytes(&drawn)?;
            Ok(Status::Clean)
        }
    }
}

/// The position of a PDTL written on the command line, in standard letters or in FAN: read in
/// each set, the first that reads without an error; else the standard letters' first error.
fn from_pdtl(written: &str) -> Result<Located, Status> {
    let mut first_error = None;
    for identifiers in [IdentifierSet::standard(), IdentifierSet::fan()] {
        let reading = pdtl::parse(written, &identifiers);
        let error = reading.problems.into_iter().find(|p| p.severity == Severity::Error);
        match (reading.position, error) {
            (Some(position), None) => return Ok(Located { position, identifiers, played: None }),
            (_, error) => {
                first_error = first_error.or(error);
            }
        }
    }
    let why = first_error.map_or_else(
        || "it does not describe a position".to_string(),
        |error| format!("error[{}]: {} [{}]", error.code, error.message, error.code.name()),
    );
    error_line(&format!("ctlpgn board: the PDTL has no position: {why}"));
    Err(Status::Findings)
}

/// The text picture followed by whose turn it is and the PDTL, alone and whole on its line so
/// that it is copied as one (or why no PDTL may hold the position).
fn with_caption(picture: String, located: &Located) -> String {
    let mut text = picture;
    text.push('\n');
    text.push_str(located.position.turn.name());
    match printed_pdtl(&located.position, &located.identifiers) {
        Ok(pdtl) => {
            text.push_str(" to move. PDTL:\n");
            text.push_str(&pdtl);
        }
        Err(problem) => {
            text.push_str(" to move. ");
            text.push_str(&problem.replacen("no PDTL", "No PDTL", 1));
            text.push('.');
        }
    }
    text.push('\n');
    text
}

fn write_to(path: &Path, drawn: &[u8]) -> Status {
    match write_file(path, drawn) {
        Ok(()) => Status::Clean,
        Err(message) => {
            error_line(&format!("ctlpgn board: {message}"));
            Status::Failure
        }
    }
}

/// The board's SVG as a PNG picture.
fn png(svg: &str) -> Result<Vec<u8>, String> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The board asks for `sans-serif`, which fontdb maps to Arial: map it to a sans-serif face
    // this machine has, else to any face at all.
    let family = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans", "Arial"]
        .into_iter()
        .map(str::to_string)
        .find(|wanted| {
            fonts.faces().any(|face| face.families.iter().any(|(name, _)| name == wanted))
        })
        .or_else(|| {
            fonts.faces().find_map(|face| face.families.first().map(|(name, _)| name.clone()))
        });
    let Some(family) = family else {
        return Err("no font was found to draw the piece letters of a PNG board (install one, \
                    such as Debian's fonts-dejavu-core), or ask for --format svg"
            .to_string());
    };
    fonts.set_sans_serif_family(family);
    let tree = usvg::Tree::from_str(&without_custom_properties(svg), &options)
        .map_err(|error| format!("the board's SVG could not be read for the PNG: {error}"))?;
    let size = tree.size().to_int_size().scale_by(PNG_SCALE).ok_or("the board is empty")?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("no room for the PNG picture")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(PNG_SCALE, PNG_SCALE),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|error| format!("the PNG could not be encoded: {error}"))
}

/// `svg` with every `var(--name,default)` replaced by its default: the colours a page could set
/// are the theme's own in a picture.
fn without_custom_properties(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find("var(--") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let (Some(comma), Some(close)) = (after.find(','), after.find(')')) else {
            out.push_str(after);
            return out;
        };
        if comma < close {
            out.push_str(after[comma + 1..close].trim());
        } else {
            out.push_str(&after[..=close]);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::without_custom_properties;

    #[test]
    fn custom_properties_become_their_defaults() {
        let svg = ".hex{fill:var(--ctlpgn-hex-white,#f4ead5);stroke:var(--edge, #5c4631)}";
        assert_eq!(without_custom_properties(svg), ".hex{fill:#f4ead5;stroke:#5c4631}");
        assert_eq!(without_custom_properties("fill:var(--x)"), "fill:var(--x)");
    }
}
