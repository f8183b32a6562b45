//! The SVG boards the server draws, read back as data through their attributes: the hexes
//! (`class="hex …"`, `data-hex`, `x`, `y`), the pieces (`data-piece`, `data-side`) and the
//! marks (`data-mark`). Each function fails the test on a document that is not well-formed.
//!
//! They take and give strings only, so that the unit tests of `ctlpgn` itself can use them:
//! those see the crate's types under another identity than this crate does.

use std::collections::{BTreeMap, BTreeSet};

use ctlpgn_core::identifiers::IdentifierSet;
use ctlpgn_core::position::Position;

/// A piece as a board shows it: `(hex, side letter, standard letter)`.
pub type PieceShown = (String, String, String);

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).expect("the SVG is well-formed XML")
}

/// The pieces the SVG shows.
pub fn pieces_drawn(svg: &str) -> BTreeSet<PieceShown> {
    parse(svg)
        .descendants()
        .filter(|node| node.has_attribute("data-piece"))
        .map(|node| {
            let get = |name| node.attribute(name).unwrap_or("").to_string();
            (get("data-hex"), get("data-side"), get("data-piece"))
        })
        .collect()
}

/// The value of `name` on the elements that carry `key`, by the element's `key` value.
pub fn by_attribute(svg: &str, key: &str, name: &str) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for node in parse(svg).descendants().filter(|node| node.has_attribute(key)) {
        let value = node.attribute(name).unwrap_or("").to_string();
        found.entry(node.attribute(key).unwrap_or("").to_string()).or_default().push(value);
    }
    found
}

/// The marks of the SVG as `(mark, hex)`: `origin`, `destination`, `check`, `en-passant`,
/// `scornful`.
pub fn marks(svg: &str) -> BTreeSet<(String, String)> {
    by_attribute(svg, "data-mark", "data-hex")
        .into_iter()
        .flat_map(|(mark, hexes)| hexes.into_iter().map(move |hex| (mark.clone(), hex)))
        .collect()
}

/// The hexes of the SVG (elements of class `hex`) with their classes, in document order.
pub fn hexes(svg: &str) -> Vec<(String, String)> {
    parse(svg)
        .descendants()
        .filter(|node| {
            node.attribute("class").is_some_and(|class| class.split(' ').any(|c| c == "hex"))
        })
        .map(|node| {
            (
                node.attribute("data-hex").unwrap_or("").to_string(),
                node.attribute("class").unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Where each hex is drawn: `data-hex` → `(x, y)` of the hex elements.
pub fn hex_places(svg: &str) -> BTreeMap<String, (i32, i32)> {
    parse(svg)
        .descendants()
        .filter(|node| node.attribute("class").is_some_and(|class| class.starts_with("hex ")))
        .map(|node| {
            let number =
                |name| node.attribute(name).and_then(|v| v.parse().ok()).unwrap_or(i32::MIN);
            (node.attribute("data-hex").unwrap_or("").to_string(), (number("x"), number("y")))
        })
        .collect()
}

/// The pieces of a position, as [`pieces_drawn`] gives them.
pub fn pieces_of(position: &Position) -> BTreeSet<PieceShown> {
    position
        .pieces()
        .map(|(hex, piece)| {
            (
                hex.to_string(),
                piece.side.letter().to_string(),
                piece.kind.standard_letter().to_string(),
            )
        })
        .collect()
}

/// The pieces of the position a PDTL names, as [`pieces_drawn`] gives them.
pub fn pieces_named(pdtl: &str) -> BTreeSet<PieceShown> {
    let reading = ctlpgn_core::pdtl::parse(pdtl, &IdentifierSet::standard());
    pieces_of(&reading.position.expect("a readable PDTL"))
}
