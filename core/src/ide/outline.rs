//! The outline of a document over byte ranges: each record as a symbol named by its players,
//! with its main-line move lines as children.

use crate::document::{Document, RecordState};
use crate::syntax::{Item, MoveLine, RecordSyntax};
use crate::text::TextRange;

/// A record as a document symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordOutline {
    /// `White – Black`, else the `Id`, else `Record n`.
    pub name: String,
    /// The record without the blank lines after it.
    pub range: TextRange,
    /// The part to select when the symbol is chosen: the first tag line.
    pub selection: TextRange,
}

/// The outline of the record numbered `index` (from 0) in its document.
pub fn outline(text: &str, syntax: &RecordSyntax, index: usize) -> RecordOutline {
    let (named, range, selection) = record_outline(text, syntax);
    RecordOutline { name: named.unwrap_or_else(|| unnamed(index)), range, selection }
}

/// The name of a record named by neither its players nor its `Id`.
fn unnamed(index: usize) -> String {
    format!("Record {}", index + 1)
}

/// A record's name from its tags (`None` when it has to be named by its place), its range
/// and its selection.
fn record_outline(text: &str, syntax: &RecordSyntax) -> (Option<String>, TextRange, TextRange) {
    let tag = |name: &str| {
        syntax.items.iter().find_map(|item| match item {
            Item::Tag(tag) if tag.name.text(text) == name => {
                tag.value_text(text).filter(|value| !value.trim().is_empty())
            }
            _ => None,
        })
    };
    let named = match (tag("White"), tag("Black"), tag("Id")) {
        (Some(white), Some(black), _) => Some(format!("{white} – {black}")),
        (_, _, Some(id)) => Some(id),
        (white, black, None) if white.is_some() || black.is_some() => Some(format!(
            "{} – {}",
            white.as_deref().unwrap_or("?"),
            black.as_deref().unwrap_or("?")
        )),
        _ => None,
    };
    let range = TextRange::new(0, text.trim_end().len());
    let selection = match syntax.items.first() {
        Some(Item::Tag(first)) => first.range,
        _ => TextRange::new(0, text.find(['\n', '\r']).unwrap_or(text.len()).min(range.end)),
    };
    (named, range, selection)
}

/// The main-line move lines of a record.
pub fn main_line(syntax: &RecordSyntax) -> impl Iterator<Item = &MoveLine> {
    syntax
        .items
        .iter()
        .filter_map(|item| if let Item::MoveLine(line) = item { Some(line) } else { None })
}

/// Where the parts of a move line's name are written in the record's text: kept for each
/// main-line move line, so that a name is made only when the outline lists it (a document
/// with more than `MOST_MOVE_SYMBOLS` move lines lists none).
#[derive(Debug)]
struct MoveLineParts {
    range: TextRange,
    number: TextRange,
    ellipsis: bool,
    white: Option<TextRange>,
    black: Option<TextRange>,
}

impl MoveLineParts {
    fn of(line: &MoveLine) -> MoveLineParts {
        MoveLineParts {
            range: line.range,
            number: line.number.range,
            ellipsis: line.ellipsis.is_some(),
            white: line.white().map(|white| white.range),
            black: line.black().map(|black| black.range),
        }
    }

    /// The move line's name: as written, but with single spaces (`12. EE23-D20, K24-K18`).
    fn name(&self, text: &str) -> String {
        let mut name = text[self.number].to_string();
        if self.ellipsis {
            name.push_str(" …");
        }
        if let Some(white) = self.white {
            name.push(' ');
            name.push_str(&text[white]);
        }
        if let Some(black) = self.black {
            name.push_str(", ");
            name.push_str(&text[black]);
        }
        name
    }
}

/// Beyond this many main-line move lines in a document, records are listed without their
/// moves: the outline of a 2,000-game file would otherwise hold 120,000 entries (18 MB of
/// JSON, seconds per request), and editors ask for it again after every change.
const MOST_MOVE_SYMBOLS: usize = 5_000;

/// What a symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Record,
    MoveLine,
}

/// An entry of a document's outline, with byte ranges of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub range: TextRange,
    /// The part to select when the symbol is chosen.
    pub selection: TextRange,
    pub children: Vec<Symbol>,
}

/// A record's outline, derived once per record text (kept with the record's state): its
/// name unless it is named by its place, and its move lines, in byte ranges of the record.
#[derive(Debug)]
struct RecordSymbols {
    named: Option<String>,
    range: TextRange,
    selection: TextRange,
    moves: Vec<MoveLineParts>,
}

fn record_symbols(text: &str, syntax: &RecordSyntax) -> RecordSymbols {
    let (named, range, selection) = record_outline(text, syntax);
    let moves = main_line(syntax).map(MoveLineParts::of).collect();
    RecordSymbols { named, range, selection, moves }
}

/// Derives a record's outline as the record is read with the others of its document (see
/// [`crate::document::Prepare`]), for a client that shows outlines: it asks as soon as a
/// document is open.
pub fn prepare(state: &RecordState, syntax: &RecordSyntax) {
    state.derived.keep(record_symbols(&state.text, syntax));
}

/// One symbol per record, with its main-line move lines as children unless the document holds
/// too many of them to list (`MOST_MOVE_SYMBOLS`). Each record's outline is derived once per
/// text: after a keystroke, the edited record alone is parsed again.
pub fn symbols(document: &Document) -> Vec<Symbol> {
    let derived = document.map_derived(|record, syntax| record_symbols(&record.state.text, syntax));
    let list_moves =
        derived.iter().map(|symbols| symbols.moves.len()).sum::<usize>() <= MOST_MOVE_SYMBOLS;
    document
        .records()
        .iter()
        .zip(derived)
        .enumerate()
        .map(|(index, (record, symbols))| {
            let children = if list_moves {
                let moves = symbols.moves.iter();
                moves
                    .map(|parts| {
                        let range = record.in_document(parts.range);
                        Symbol {
                            name: parts.name(&record.state.text),
                            kind: SymbolKind::MoveLine,
                            selection: range,
                            range,
                            children: Vec::new(),
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Symbol {
                name: symbols.named.clone().unwrap_or_else(|| unnamed(index)),
                kind: SymbolKind::Record,
                range: record.in_document(symbols.range),
                selection: record.in_document(symbols.selection),
                children,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    use crate::ide::tests::GAME;

    #[test]
    fn a_record_is_named_by_its_players_with_its_main_line_moves() {
        let outline = outline(GAME, &syntax::parse_record(GAME), 0);
        assert_eq!(outline.name, "Pérez – Vidal");
        assert_eq!(&GAME[outline.selection], "[Variant \"C'escacs\"]");
        let record = syntax::parse_record(GAME);
        let moves: Vec<String> =
            main_line(&record).map(|line| MoveLineParts::of(line).name(GAME)).collect();
        assert_eq!(moves, ["1. K4-K6, E21-E19", "2. JF6-B18, EE23-D20:"]);
        let anonymous = "[Variant \"C'escacs\"]\n[Id \"A1\"]\n\n*\n";
        assert_eq!(super::outline(anonymous, &syntax::parse_record(anonymous), 4).name, "A1");
        let bare = "[Variant \"C'escacs\"]\n\n*\n";
        assert_eq!(super::outline(bare, &syntax::parse_record(bare), 4).name, "Record 5");
    }
}
