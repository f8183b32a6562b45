//! `ctlpgn board (FILE --at LINE:COL | FILE --ply N [--record K] | --pdtl "…") [--flip]
//! [--format svg|png|text] [--theme light|dark] [-o OUT]`: the board the core draws
//! (`board::Board`) at a place of a record or of a PDTL, for publishers who put diagrams in
//! articles. The half-move that led to the position is marked, as in the editors.
//!
//! The text picture is followed by whose turn it is and the PDTL on a line of its own.
//!
//! PNG is the SVG rasterised (`png`), in a build with the `png` feature.

use std::path::Path;

use super::arguments::{BoardArguments, BoardFormat, BoardTheme};
use super::output::{error_line, Output, OutputFailed};
use super::place::{locate, Located, Place};
use super::png;
use super::streams::is_standard_output;
use super::write::write_file;
use super::Status;
use ctlpgn_core::analysis::printed_pdtl;
use ctlpgn_core::board::{Board, Theme};
use ctlpgn_core::diagnostics::Severity;
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::pdtl;

/// Runs `board`: 0 when the board is drawn, 1 when the place has no position (the record does
/// not replay, or the PDTL has an error), 2 on a read or write error or a place outside the
/// file. Nothing is written when there is no position.
pub fn run(arguments: &BoardArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    if arguments.format == BoardFormat::Png && !png::BUILT {
        error_line(&format!("ctlpgn board: {}", png::NOT_BUILT));
        return Ok(Status::Failure);
    }
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
        BoardFormat::Png => match png::rasterise(&board.svg()) {
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
            text.push_str(&problem.sentence());
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
