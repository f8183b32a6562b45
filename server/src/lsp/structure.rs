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
        .map_syntax(|record, _, syntax| {
            outline::folds(&record.state.text, syntax)
                .into_iter()
                .map(|fold| (record.in_document(fold.range), fold.kind))
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
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
    // Each record's outline and main-line move lines, in byte ranges of the document, from one
    // parse of every record.
    let outlines = document.map_syntax(|record, _, syntax| {
        let text = &record.state.text;
        let index =
            document.records().partition_point(|earlier| earlier.range.start < record.range.start);
        let outline = outline::outline(text, syntax, index);
        let moves: Vec<(String, std::ops::Range<usize>)> = outline::main_line(syntax)
            .map(|line| {
                (outline::move_line_name(text, line), record.in_document(line.range.clone()))
            })
            .collect();
        (outline, record.range.start, moves)
    });
    let list_moves =
        outlines.iter().map(|(_, _, moves)| moves.len()).sum::<usize>() <= MOST_MOVE_SYMBOLS;
    outlines
        .into_iter()
        .map(|(outline, record_start, moves)| {
            let moves = if list_moves {
                moves
                    .into_iter()
                    .map(|(name, range)| {
                        symbol(name, SymbolKind::EVENT, range.clone(), range, None)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let in_document = |range: std::ops::Range<usize>| {
                record_start + range.start..record_start + range.end
            };
            symbol(
                outline.name,
                SymbolKind::NAMESPACE,
                in_document(outline.range),
                in_document(outline.selection),
                Some(moves),
            )
        })
        .collect()
}
