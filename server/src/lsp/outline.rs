//! The outline of a record over byte ranges: what folds (the record, its tag section, its
//! variations, its comments) and how it appears among a document's symbols (named by its
//! players, with its main-line move lines as children).
//!
//! Nothing here knows the protocol: the server turns ranges into lines and protocol values.

use std::ops::Range;

use crate::syntax::{Item, MoveLine, RecordSyntax, Step, Tag};

/// What a fold holds, for editors that fold by kind ("fold all comments").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

/// A foldable byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    pub range: Range<usize>,
    pub kind: FoldKind,
}

/// The foldable parts of a record, outermost first; whether a part spans several lines (and
/// so is worth folding) is for the caller, who knows the lines.
pub fn folds(text: &str, syntax: &RecordSyntax) -> Vec<Fold> {
    let mut folds = vec![Fold { range: 0..text.trim_end().len(), kind: FoldKind::Region }];
    let tags: Vec<&Tag> = syntax
        .items
        .iter()
        .map_while(|item| if let Item::Tag(tag) = item { Some(tag) } else { None })
        .collect();
    if let (Some(first), Some(last)) = (tags.first(), tags.last()) {
        folds.push(Fold { range: first.range.start..last.range.end, kind: FoldKind::Region });
    }
    for step in syntax.walk(&syntax.items) {
        match step {
            Step::Item(Item::Variation(variation), _) => {
                folds.push(Fold { range: variation.range.clone(), kind: FoldKind::Region });
            }
            Step::Item(Item::Comment(comment), _) => {
                folds.push(Fold { range: comment.range.clone(), kind: FoldKind::Comment })
            }
            _ => {}
        }
    }
    folds
}

/// A record as a document symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordOutline {
    /// `White – Black`, else the `Id`, else `Record n`.
    pub name: String,
    /// The record without the blank lines after it.
    pub range: Range<usize>,
    /// The part to select when the symbol is chosen: the first tag line.
    pub selection: Range<usize>,
}

/// The outline of the record numbered `index` (from 0) in its document.
pub fn outline(text: &str, syntax: &RecordSyntax, index: usize) -> RecordOutline {
    let tag = |name: &str| {
        syntax.items.iter().find_map(|item| match item {
            Item::Tag(tag) if tag.name.text(text) == name => {
                tag.value_text(text).filter(|value| !value.trim().is_empty())
            }
            _ => None,
        })
    };
    let name = match (tag("White"), tag("Black"), tag("Id")) {
        (Some(white), Some(black), _) => format!("{white} – {black}"),
        (_, _, Some(id)) => id,
        (white, black, None) if white.is_some() || black.is_some() => {
            format!("{} – {}", white.as_deref().unwrap_or("?"), black.as_deref().unwrap_or("?"))
        }
        _ => format!("Record {}", index + 1),
    };
    let range = 0..text.trim_end().len();
    let selection = match syntax.items.first() {
        Some(Item::Tag(first)) => first.range.clone(),
        _ => 0..text.find(['\n', '\r']).unwrap_or(text.len()).min(range.end),
    };
    RecordOutline { name, range, selection }
}

/// The main-line move lines of a record.
pub fn main_line(syntax: &RecordSyntax) -> impl Iterator<Item = &MoveLine> {
    syntax
        .items
        .iter()
        .filter_map(|item| if let Item::MoveLine(line) = item { Some(line) } else { None })
}

/// The name of a move line: as written, but with single spaces (`12. EE23-D20, K24-K18`).
pub fn move_line_name(text: &str, line: &MoveLine) -> String {
    let mut name = line.number.text(text).to_string();
    if line.ellipsis.is_some() {
        name.push_str(" …");
    }
    if let Some(white) = &line.white {
        name.push(' ');
        name.push_str(&text[white.range.clone()]);
    }
    if let Some(black) = &line.black {
        name.push_str(", ");
        name.push_str(&text[black.range.clone()]);
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax;

    fn parse(text: &str) -> RecordSyntax {
        syntax::lower_record(&syntax::parse(&mut syntax::new_parser(), text))
    }

    const GAME: &str = "[Variant \"C'escacs\"]\n[White \"Pérez\"]\n[Black \"Vidal\"]\n\n1. K4-K6, E21-E19\n(1. …, E21-E17\n2. B4-B6, K24-K18)\n{A comment\non two lines}\n2. JF6-B18, EE23-D20:\n*\n\n";

    #[test]
    fn records_tags_variations_and_comments_fold() {
        let folds: Vec<(String, FoldKind)> = folds(GAME, &parse(GAME))
            .into_iter()
            .map(|fold| (GAME[fold.range].to_string(), fold.kind))
            .collect();
        assert_eq!(folds.len(), 4);
        assert_eq!(folds[0].0, GAME.trim_end());
        assert_eq!(folds[1].0, "[Variant \"C'escacs\"]\n[White \"Pérez\"]\n[Black \"Vidal\"]");
        assert_eq!(folds[2].0, "(1. …, E21-E17\n2. B4-B6, K24-K18)");
        assert_eq!(folds[3], ("{A comment\non two lines}".to_string(), FoldKind::Comment));
    }

    #[test]
    fn a_record_is_named_by_its_players_with_its_main_line_moves() {
        let outline = outline(GAME, &parse(GAME), 0);
        assert_eq!(outline.name, "Pérez – Vidal");
        assert_eq!(&GAME[outline.selection], "[Variant \"C'escacs\"]");
        let record = parse(GAME);
        let moves: Vec<String> =
            main_line(&record).map(|line| move_line_name(GAME, line)).collect();
        assert_eq!(moves, ["1. K4-K6, E21-E19", "2. JF6-B18, EE23-D20:"]);
        let anonymous = "[Variant \"C'escacs\"]\n[Id \"A1\"]\n\n*\n";
        assert_eq!(super::outline(anonymous, &parse(anonymous), 4).name, "A1");
        let bare = "[Variant \"C'escacs\"]\n\n*\n";
        assert_eq!(super::outline(bare, &parse(bare), 4).name, "Record 5");
    }
}
