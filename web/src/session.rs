//! A session of open documents and the requests about them: each request decoded, answered
//! by the core's `ide` layer on the document it names, and encoded. The text is changed only
//! by `change`; `play` and `format` answer edits for the page to apply (and `change` back),
//! as the language server does, so that the editor's undo history holds every change.

use std::collections::BTreeMap;

use ctlpgn_core::analysis::{self, AnalysisOptions, Keep, RuleChecks};
use ctlpgn_core::board::Theme;
use ctlpgn_core::diagnostics::Diagnostic;
use ctlpgn_core::document::{Document, Misplaced, PlacedChange, Placing, RecordView};
use ctlpgn_core::format::{self, FormatOptions};
use ctlpgn_core::ide;
use ctlpgn_core::syntax::Reading;
use ctlpgn_core::text::columns::{self, Columns, LineColumn};
use ctlpgn_core::text::{quoted, TextEdit, TextRange};
use ropey::Rope;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::encode;
use crate::requests::{self, Place, PlaceRange};

/// Why a request is not answered: a code the page can act on, and a message for a person.
#[derive(Debug)]
struct Failure {
    code: &'static str,
    message: String,
}

impl Failure {
    fn new(code: &'static str, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }
}

/// The longest message a refusal carries, in bytes: a message quotes what was sent (a field
/// name in a decoding error), and what was sent may be megabytes.
const LONGEST_MESSAGE: usize = 1_000;

/// An open document, and the first byte that was not UTF-8 in what it was opened with (S000;
/// the text holds U+FFFD there), until the text is changed.
#[derive(Debug)]
struct Open {
    document: Document,
    invalid_utf8: Option<usize>,
}

/// The open documents, by the number `open` gave each.
#[derive(Debug, Default)]
pub struct Session {
    documents: BTreeMap<u32, Open>,
    next: u32,
    format: FormatOptions,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// The answer to a request, `{"method": …, "params": …}`, as JSON: `{"result": …}` or
    /// `{"error": {"code": …, "message": …}}`. Nothing in the request can make it fail
    /// otherwise.
    pub fn call(&mut self, request: &str) -> String {
        let answer = match serde_json::from_str::<Value>(request) {
            Ok(Value::Object(mut request)) => {
                let method = request.get("method").and_then(Value::as_str).unwrap_or_default();
                let method = method.to_string();
                let params = request.remove("params").unwrap_or(Value::Null);
                self.answer(&method, params)
            }
            Ok(_) => Err(Failure::new("invalid-request", "a request is a JSON object")),
            Err(error) => Err(Failure::new("invalid-request", format!("not JSON: {error}"))),
        };
        let answer = match answer {
            Ok(result) => json!({"result": result}),
            Err(mut failure) => {
                if failure.message.len() > LONGEST_MESSAGE {
                    let cut = (0..=LONGEST_MESSAGE)
                        .rev()
                        .find(|&at| failure.message.is_char_boundary(at))
                        .unwrap_or(0);
                    failure.message.truncate(cut);
                    failure.message.push('\u{2026}');
                }
                json!({"error": {"code": failure.code, "message": failure.message}})
            }
        };
        answer.to_string()
    }

    /// The diagnostics of a file's bytes as `ctlpgn check` reports them (`check_bytes`), as
    /// `call`'s answer.
    pub fn check_bytes(bytes: &[u8], rules: bool) -> String {
        json!({"result": check_bytes(bytes, rules)}).to_string()
    }

    /// Opens a document from the bytes of a file: text that is not UTF-8 is opened with U+FFFD
    /// for each bad sequence and reported as S000 until it is changed. The answer is `open`'s.
    pub fn open_bytes(&mut self, bytes: &[u8]) -> String {
        let (text, invalid_utf8) = match std::str::from_utf8(bytes) {
            Ok(text) => (text.to_string(), None),
            Err(error) => (String::from_utf8_lossy(bytes).into_owned(), Some(error.valid_up_to())),
        };
        json!({"result": self.open(&text, invalid_utf8)}).to_string()
    }

    fn answer(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
        match method {
            "open" => {
                let open: requests::Open = decode(params)?;
                Ok(self.open(&open.text, None))
            }
            "close" => {
                let of: requests::OfDocument = decode(params)?;
                Ok(Value::Bool(self.documents.remove(&of.document).is_some()))
            }
            "change" => self.change(decode(params)?),
            "text" => {
                let of: requests::OfDocument = decode(params)?;
                Ok(Value::String(self.open_document(of.document)?.document.rope().to_string()))
            }
            "check" => {
                let check: requests::Check = decode(params)?;
                Ok(check_bytes(check.text.as_bytes(), check.rules))
            }
            "diagnostics" => self.diagnostics(decode(params)?),
            "hover" => self.hover(decode(params)?),
            "completion" => self.completion(decode(params)?),
            "board" => self.board(decode(params)?),
            "lines" => self.lines(decode(params)?),
            "play" => self.play(decode(params)?),
            "format" => self.format(decode(params)?),
            _ => Err(Failure::new("unknown-method", format!("no method `{}`", quoted(method)))),
        }
    }

    fn open(&mut self, text: &str, invalid_utf8: Option<usize>) -> Value {
        self.next += 1;
        let document = Document::new(text, 1);
        self.documents.insert(self.next, Open { document, invalid_utf8 });
        json!({"document": self.next, "version": 1})
    }

    fn open_document(&self, number: u32) -> Result<&Open, Failure> {
        self.documents
            .get(&number)
            .ok_or_else(|| Failure::new("unknown-document", format!("no open document {number}")))
    }

    /// Applies changes in order, each range read in the text the previous one left, and
    /// brings the records they touched up to date; the answer is the new version.
    fn change(&mut self, params: requests::Changes) -> Result<Value, Failure> {
        let open = self.documents.get_mut(&params.document).ok_or_else(|| {
            Failure::new("unknown-document", format!("no open document {}", params.document))
        })?;
        let version = open.document.version().saturating_add(1);
        // A change placed inside a character is refused with its batch, before anything
        // changes: applied at the character's start, it would edit another place than the page
        // meant.
        let placed = params.changes.iter().map(|change| PlacedChange {
            range: change.range.map(|range| [line_column(range.start), line_column(range.end)]),
            text: change.text.as_str(),
        });
        open.document.edit_placed(version, placed, Columns::Utf16, Placing::Exact).map_err(
            |Misplaced { range: [start, end], .. }| {
                Failure::new(
                    "invalid-params",
                    format!(
                        "a change at {}:{}-{}:{} falls inside a character (between the two \
                         halves of a surrogate pair); nothing was changed",
                        start.line, start.column, end.line, end.column
                    ),
                )
            },
        )?;
        open.document.settle();
        open.invalid_utf8 = None;
        Ok(json!({"version": version}))
    }

    fn diagnostics(&self, params: requests::Diagnostics) -> Result<Value, Failure> {
        let open = self.open_document(params.document)?;
        let document = &open.document;
        let rope = document.rope();
        let mut listed: Vec<Value> = Vec::new();
        if let Some(at) = open.invalid_utf8 {
            let mut found = Diagnostic::not_utf8(at);
            found.message.push_str(", and the page shows U+FFFD in place of each bad sequence");
            listed.push(encode::diagnostic(rope, &found, found.range));
        }
        for record in document.records() {
            for found in record.state.reported(params.rules) {
                listed.push(encode::diagnostic(rope, found, record.in_document(found.range)));
            }
        }
        Ok(Value::Array(listed))
    }

    fn hover(&self, params: requests::Hover) -> Result<Value, Failure> {
        let options = ide::hover::HoverOptions { images: params.images };
        let found = self.at(params.document, params.position, |_, view, offset| {
            ide::hover::hover(view, offset, options)
        })?;
        let document = &self.open_document(params.document)?.document;
        Ok(found.flatten().map_or(Value::Null, |found| {
            let contents = if params.markdown {
                found.markdown
            } else {
                ide::markdown::plain(&found.markdown)
            };
            json!({"contents": contents, "range": encode::range(document.rope(), found.range)})
        }))
    }

    fn completion(&self, params: requests::At) -> Result<Value, Failure> {
        let items = self.at(params.document, params.position, |document, view, offset| {
            let items = ide::completion::completion(view, offset).into_iter();
            items.map(|item| encode::completion_item(document.rope(), item)).collect()
        })?;
        Ok(items.map_or(Value::Array(Vec::new()), Value::Array))
    }

    fn board(&self, params: requests::Board) -> Result<Value, Failure> {
        let theme = params.theme.as_deref().and_then(Theme::from_name).unwrap_or_default();
        let options = ide::board::BoardOptions { flip: params.flip, theme, format: self.format };
        let answer = self.at(params.document, params.position, |document, view, offset| {
            let record = document.at(offset).map_or(0, |open| open.index);
            let answer = ide::board::board(view, offset, options);
            encode::board(document.rope(), record, document.version(), answer)
        })?;
        serde_json::to_value(answer)
            .map_err(|error| Failure::new("internal", format!("the board's answer: {error}")))
    }

    /// Every line of play of a record, as `ctlpgn/lines` answers (`ide::lines`).
    fn lines(&self, params: requests::Lines) -> Result<Value, Failure> {
        let document = &self.open_document(params.document)?.document;
        let rope = document.rope();
        let records = document.records();
        let offset = match (params.position, params.record) {
            (Some(place), _) => Some(offset(rope, place)),
            (None, number) => number
                .unwrap_or(1)
                .checked_sub(1)
                .and_then(|index| records.get(index))
                .map(|record| record.range.start),
        };
        let answer = offset.and_then(|offset| document.at(offset)).map(|open| {
            let view = open.view();
            ide::lines::lines(view, document.version(), open.index, records.len(), |range| {
                encode::range(rope, range)
            })
        });
        serde_json::to_value(answer)
            .map_err(|error| Failure::new("internal", format!("the lines' answer: {error}")))
    }

    /// A half-move played at a place read at the request's version: the edits to apply, and
    /// where the half-move then stands. A place read at another version is refused
    /// (`content-modified`): its offsets name other text now.
    fn play(&self, params: requests::Play) -> Result<Value, Failure> {
        let document = &self.open_document(params.document)?.document;
        if params.version != document.version() {
            return Err(Failure::new(
                "content-modified",
                format!(
                    "the place was read at version {} and the document is at version {}: ask \
                     for the board again",
                    params.version,
                    document.version()
                ),
            ));
        }
        let format = self.format;
        let played = self.at(params.document, params.position, |_, view, offset| {
            ide::play::play(view, offset, &params.half_move, &format)
        })?;
        let played = played
            .ok_or_else(|| Failure::new("no-record", "the document holds no record"))?
            .map_err(|refusal| Failure::new("refused", refusal.to_string()))?;
        let rope = document.rope();
        let mut after = rope.clone();
        for edit in played.edits.iter().rev() {
            let start = after.byte_to_char(edit.range.start);
            let end = after.byte_to_char(edit.range.end);
            after.remove(start..end);
            after.insert(start, &edit.new_text);
        }
        Ok(json!({
            "version": document.version(),
            "edits": encode::edits(rope, &played.edits),
            "range": encode::range(&after, played.range),
        }))
    }

    /// The edits that format the document, or the records a range touches.
    fn format(&self, params: requests::Format) -> Result<Value, Failure> {
        let document = &self.open_document(params.document)?.document;
        let rope = document.rope();
        let range = params.range.map(|range| byte_range(rope, range));
        let edits: Vec<TextEdit> = format::format_edits(&rope.to_string(), &self.format, range);
        Ok(encode::edits(rope, &edits))
    }

    /// `work` on the record at a place of an open document; `None` outside every record.
    fn at<T>(
        &self,
        number: u32,
        place: Place,
        work: impl FnOnce(&Document, RecordView<'_>, usize) -> T,
    ) -> Result<Option<T>, Failure> {
        let document = &self.open_document(number)?.document;
        let offset = offset(document.rope(), place);
        Ok(document.at(offset).map(|open| work(document, open.view(), offset)))
    }
}

/// The diagnostics of a file's bytes as `ctlpgn check` reports them (with `rules`, as
/// `--rules`), in the order it prints them: S000 alone for bytes that are not UTF-8, else the
/// command's analysis, which keeps no positions and builds no document, so a page that only
/// validates a record (a club's upload form) pays for the check alone. The text is indexed in
/// lines only when something is found.
fn check_bytes(bytes: &[u8], rules: bool) -> Value {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let found = Diagnostic::not_utf8(error.valid_up_to());
            return json!([encode::diagnostic(&Rope::new(), &found, found.range)]);
        }
    };
    let rule_checks = if rules { RuleChecks::Judge } else { RuleChecks::Skip };
    let options =
        AnalysisOptions { keep: Keep::Findings, rule_checks, reading: Reading::ReaderFirst };
    let mut rope = None;
    let mut listed = Vec::new();
    for record in analysis::analyse_file(text, options) {
        for found in record.analysis.reported(rules) {
            let rope = rope.get_or_insert_with(|| Rope::from_str(text));
            listed.push(encode::diagnostic(rope, found, found.range.shifted(record.range.start)));
        }
    }
    Value::Array(listed)
}

/// A request's parameters as `T`, or why they are not.
fn decode<T: DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params)
        .map_err(|error| Failure::new("invalid-params", format!("invalid parameters: {error}")))
}

fn offset(rope: &Rope, place: Place) -> usize {
    columns::offset(rope, line_column(place), Columns::Utf16)
}

fn line_column(place: Place) -> LineColumn {
    LineColumn { line: place.line, column: place.character }
}

fn byte_range(rope: &Rope, range: PlaceRange) -> TextRange {
    let (start, end) = (offset(rope, range.start), offset(rope, range.end));
    TextRange::new(start.min(end), start.max(end))
}
