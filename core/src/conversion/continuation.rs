//! A new record that continues the game from a place of a record (handbook §7.3, §10): the
//! record's tags that still describe the game, a `PDTL` tag with the position there, and the
//! result line of a game in progress, `*` (§7.4). It has no move yet, so that it checks clean
//! as it is written: a move line begun (`15. `) would be an incomplete move line (S011), and a
//! record without a result line misses it (M006). The first half-move goes on the blank line
//! before `*`, where the board's play writes it too.

use super::redefine_tag::POSITION_TAG_NAMES;
use crate::analysis::{position_at, RecordAnalysis};
use crate::pdtl;
use crate::syntax::{movetext_start, Item, RecordSyntax, Tag};

/// Tags that describe how the record's game ended, not the continuation: the continuation
/// ends where its own moves do.
const ENDING_TAGS: [&str; 1] = ["Termination"];

/// The text of a new record continuing the game from the position of [`position_at`]:
/// `[Variant "C'escacs"]`, the record's other tags in their order with `[Result "*"]` (the
/// continuation is unfinished) and without `Termination`, its `Redefine` tag if any, then
/// `[PDTL "…"]` with the position in the record's identifiers (its turn and move number say
/// how the first move line is to be numbered, §7.3), a blank line for that first move line,
/// and the result line `*`. Its lines end as the record's mostly do, the last one too. `None`
/// when the position is not known.
pub fn continuation_at(
    text: &str,
    syntax: &RecordSyntax,
    analysis: &RecordAnalysis,
    offset: usize,
) -> Option<String> {
    let position = position_at(text, syntax, analysis, offset).ok()?;
    let ending = super::line_ending(text);
    let tags: Vec<&Tag> = syntax.items[..movetext_start(&syntax.items)]
        .iter()
        .filter_map(|item| if let Item::Tag(tag) = item { Some(tag) } else { None })
        .filter(|tag| tag.value.is_some())
        .collect();
    let mut out = String::with_capacity(512);
    let mut line = |content: &str| {
        out.push_str(content);
        out.push_str(ending);
    };
    line("[Variant \"C'escacs\"]");
    let mut redefine = None;
    for tag in &tags {
        let name = tag.name.text(text);
        let value = tag.value.as_ref().map_or("\"\"", |value| value.text(text));
        match name {
            "Variant" => {}
            "Redefine" => redefine = redefine.or(Some(value)),
            "Result" => line("[Result \"*\"]"),
            _ if POSITION_TAG_NAMES.contains(&name) || ENDING_TAGS.contains(&name) => {}
            _ => line(&format!("[{name} {value}]")),
        }
    }
    // The PDTL is printed in the record's identifiers, so the Redefine that names them comes
    // along, immediately before it (§10.3 item 5).
    if let Some(value) =
        redefine.filter(|_| analysis.identifiers != crate::identifiers::IdentifierSet::standard())
    {
        line(&format!("[Redefine {value}]"));
    }
    line(&format!("[PDTL \"{}\"]", pdtl::print(position, &analysis.identifiers)));
    line("");
    line("*");
    Some(out)
}
