//! `ctlpgn pdtl FILE (--at LINE:COL | --ply N [--record K]) [--letters]`: the PDTL of the
//! position at a place of a record, ready to paste into a `PDTL` tag or the web board. The
//! place is a line and column of the file (the half-move there, in any line of play), or a
//! ply of a record's main line.

use super::arguments::PdtlArguments;
use super::output::{Output, OutputFailed};
use super::place::{locate, Place};
use super::Status;
use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::pdtl;

/// Runs `pdtl`: 0 when the PDTL is printed, 1 when the record does not replay (or the file is
/// not UTF-8), 2 on a read error or a place outside the file.
pub fn run(arguments: &PdtlArguments, out: &mut Output<'_>) -> Result<Status, OutputFailed> {
    // The argument group requires one of the two.
    let Some(place) = Place::from_arguments(arguments.at, arguments.ply, arguments.record) else {
        return Ok(Status::Failure);
    };
    let located = match locate("pdtl", &arguments.file, arguments.limit.max_input_size, place) {
        Ok(located) => located,
        Err(status) => return Ok(status),
    };
    let identifiers =
        if arguments.letters { IdentifierSet::standard() } else { located.identifiers };
    out.line(format_args!("{}", pdtl::print(&located.position, &identifiers)))?;
    Ok(Status::Clean)
}
