//! A document's structure as protocol values: the folding ranges and the document symbols of
//! its records, from the byte-range outline of each record.

use tower_lsp_server::lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

use super::convert::{self, PositionEncoding};
use super::documents::Document;
use super::outline::{self, FoldKind};

/// The folds of every record that span more than one line.
pub fn folding_ranges(document: &Document) -> Vec<FoldingRange> {
    // Folds are whole lines, which every encoding numbers alike.
    let line = |offset| convert::position(document.rope(), offset, PositionEncoding::Utf8).line;
    document
        .records()
        .iter()
        .flat_map(|record| {
            let state = &record.state;
            outline::folds(&state.text, &state.syntax).into_iter().map(move |fold| (record.in_document(fold.range), fold.kind))
        })
        .filter_map(|(range, kind)| {
            let (start_line, end_line) = (line(range.start), line(range.end));
            (start_line < end_line).then(|| FoldingRange {
                start_line,
                end_line,
                kind: Some(match kind {
                    FoldKind::Region => FoldingRangeKind::Region,
                    FoldKind::Comment => FoldingRangeKind::Comment,
                }),
                ..FoldingRange::default()
            })
        })
        .collect()
}

/// Beyond this many main-line move lines in a document, records are listed without their
/// moves: the outline of a 2,000-game file would otherwise hold 120,000 entries (18 MB of
/// JSON, seconds per request), and editors ask for it again after every change.
const MOST_MOVE_SYMBOLS: usize = 5_000;

/// One symbol per record, with its main-line move lines as children unless the document holds
/// too many of them to list.
pub fn document_symbols(document: &Document, encoding: PositionEncoding) -> Vec<DocumentSymbol> {
    let rope = document.rope();
    let symbol = |name: String, kind, range, selection, children| {
        #[allow(deprecated)] // `deprecated` is a field the protocol still requires to be settable.
        DocumentSymbol {
            name,
            detail: None,
            kind,
            tags: None,
            deprecated: None,
            range: convert::range(rope, range, encoding),
            selection_range: convert::range(rope, selection, encoding),
            children,
        }
    };
    let move_lines: usize = document.records().iter().map(|record| outline::main_line(&record.state.syntax).count()).sum();
    let list_moves = move_lines <= MOST_MOVE_SYMBOLS;
    document
        .records()
        .iter()
        .enumerate()
        .map(|(index, record)| {
            let (text, syntax) = (&record.state.text, &record.state.syntax);
            let outline = outline::outline(text, syntax, index);
            let moves = outline::main_line(syntax)
                .filter(|_| list_moves)
                .map(|line| {
                    let range = record.in_document(line.range.clone());
                    symbol(outline::move_line_name(text, line), SymbolKind::EVENT, range.clone(), range, None)
                })
                .collect();
            let (range, selection) = (record.in_document(outline.range), record.in_document(outline.selection));
            symbol(outline.name, SymbolKind::NAMESPACE, range, selection, Some(moves))
        })
        .collect()
}

