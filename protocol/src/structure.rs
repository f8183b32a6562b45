//! A document's structure as protocol values: `ide::folding`'s folds as line ranges and
//! `ide::outline`'s symbols as document symbols in the negotiated encoding.

use lsp_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

use super::encoding::PositionEncoding;
use super::to_proto;
use ctlpgn_core::document::Document;
use ctlpgn_core::ide::folding::{self, FoldKind};
use ctlpgn_core::ide::outline::{self, Symbol};

/// The folds of every record that span more than one line.
pub fn folding_ranges(document: &Document) -> Vec<FoldingRange> {
    // Folds are whole lines, which every encoding numbers alike.
    let line = |offset| to_proto::position(document.rope(), offset, PositionEncoding::Utf8).line;
    folding::document_folds(document)
        .into_iter()
        .filter_map(|fold| {
            let (start_line, end_line) = (line(fold.range.start), line(fold.range.end));
            (start_line < end_line).then(|| FoldingRange {
                start_line,
                end_line,
                kind: Some(match fold.kind {
                    FoldKind::Region => FoldingRangeKind::Region,
                    FoldKind::Comment => FoldingRangeKind::Comment,
                }),
                ..FoldingRange::default()
            })
        })
        .collect()
}

/// The outline of a document: one symbol per record, its main-line move lines as children.
pub fn document_symbols(document: &Document, encoding: PositionEncoding) -> Vec<DocumentSymbol> {
    let rope = document.rope();
    // A loop over the two levels the outline has, not a recursion.
    let encode = |symbol: Symbol, children: Option<Vec<DocumentSymbol>>| {
        #[allow(deprecated)] // `deprecated` is a field the protocol still requires to be settable.
        DocumentSymbol {
            name: symbol.name,
            detail: None,
            kind: match symbol.kind {
                outline::SymbolKind::Record => SymbolKind::NAMESPACE,
                outline::SymbolKind::MoveLine => SymbolKind::EVENT,
            },
            tags: None,
            deprecated: None,
            range: to_proto::range(rope, symbol.range, encoding),
            selection_range: to_proto::range(rope, symbol.selection, encoding),
            children,
        }
    };
    outline::symbols(document)
        .into_iter()
        .map(|mut record| {
            let moves = std::mem::take(&mut record.children);
            let moves = moves.into_iter().map(|line| encode(line, None)).collect();
            encode(record, Some(moves))
        })
        .collect()
}
