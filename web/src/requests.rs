//! The parameters of each request, decoded from JSON: places as the browser counts them
//! (0-based lines, columns in UTF-16 code units; the answers write theirs so too), documents
//! by the number `open` gave.

use serde::{Deserialize, Serialize};

/// A place: a 0-based line and a column in UTF-16 code units.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub line: u32,
    pub character: u32,
}

/// A range between two places.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlaceRange {
    pub start: Place,
    pub end: Place,
}

#[derive(Debug, Deserialize)]
pub struct Open {
    pub text: String,
}

/// A text checked as `ctlpgn check` checks a file, without opening it as a document.
#[derive(Debug, Deserialize)]
pub struct Check {
    pub text: String,
    /// The rule checks' warnings too (R-codes), as `check --rules`.
    #[serde(default)]
    pub rules: bool,
}

#[derive(Debug, Deserialize)]
pub struct OfDocument {
    pub document: u32,
}

/// One change of a text: `range` replaced with `text`, or the whole text when `range` is
/// absent (as LSP's `didChange`).
#[derive(Debug, Deserialize)]
pub struct Change {
    pub range: Option<PlaceRange>,
    pub text: String,
}

#[derive(Debug, Deserialize)]
pub struct Changes {
    pub document: u32,
    pub changes: Vec<Change>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostics {
    pub document: u32,
    /// The rule checks' warnings too (R-codes).
    #[serde(default)]
    pub rules: bool,
}

#[derive(Debug, Deserialize)]
pub struct At {
    pub document: u32,
    pub position: Place,
}

#[derive(Debug, Deserialize)]
pub struct Hover {
    pub document: u32,
    pub position: Place,
    /// Markdown (the default), or the plain text the Markdown reads as.
    #[serde(default = "yes")]
    pub markdown: bool,
    /// Boards as SVG images rather than text pictures.
    #[serde(default)]
    pub images: bool,
}

#[derive(Debug, Deserialize)]
pub struct Board {
    pub document: u32,
    pub position: Place,
    #[serde(default)]
    pub flip: bool,
    #[serde(default)]
    pub theme: Option<String>,
}

/// The lines of play of a record: the one at `position`, else the `record`-th (from 1), else
/// the first.
#[derive(Debug, Deserialize)]
pub struct Lines {
    pub document: u32,
    #[serde(default)]
    pub position: Option<Place>,
    #[serde(default)]
    pub record: Option<usize>,
}

/// A half-move played at a place read at `version` of the document.
#[derive(Debug, Deserialize)]
pub struct Play {
    pub document: u32,
    pub version: i32,
    pub position: Place,
    #[serde(rename = "move")]
    pub half_move: String,
}

#[derive(Debug, Deserialize)]
pub struct Format {
    pub document: u32,
    pub range: Option<PlaceRange>,
}

fn yes() -> bool {
    true
}
