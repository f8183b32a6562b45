//! `lsp` mode: the real server, in-process, fed random edit streams in the negotiated encoding
//! (positions inside characters and past line ends included, several changes per batch)
//! interleaved with every kind of request it advertises, and with messages that carry a lone
//! surrogate escape (`"\ud83d"`, legal JSON that no text holds). Each answer must come in time,
//! name positions that exist in the text the client holds, and (formatting) give the core's
//! result; a hover holds no live markup; after a message with a lone surrogate the document is
//! unchanged and the next request is answered; at the end of each stream the diagnostics of the
//! edited document must be those of a fresh document with the same text. A stream is saved as
//! JSON lines: a header, then one step a line.
//!
//! Playing on the board too: `ctlpgn/board` anywhere, on records written on one long line
//! among others (its `line` must stay a window of at most 200 half-moves around the place, with
//! the whole line's length and ends); half-moves played from the board's `moves` with the
//! document's version, whose edit the client applies as an editor does; and plays that name an
//! older version, which must be refused with ContentModified (-32801), nothing played.
//!
//! Large records of random bytes too: a record on either side of the 64 KB bound above which
//! the document keeps no tree (`document::LARGE_RECORD`), made of random bytes read as UTF-8,
//! followed by requests at every line of it, every kind among them (a sweep): the reader
//! declines such a record, and the path that then parses it once borrowed the thread's parser
//! twice.

use std::time::Duration;

use ctlpgn_test_support::markdown::live_markup;
use ctlpgn_test_support::positions::{self, Encoding};
use ctlpgn_test_support::rng::Rng;
use serde_json::{json, Value};

use crate::finding::{save, signature, Finding};
use crate::lsp_client::Client;
use crate::mutate::{mutate, piece, MARKUP};
use crate::seeds::Seeds;
use crate::supervise::Reporter;
use crate::{panics, Budget, Options};

const EDITED: &str = "file:///fuzz/edited.ctl-pgn";
const FRESH: &str = "file:///fuzz/fresh.ctl-pgn";

/// Lone surrogate escapes as JavaScript's `JSON.stringify` writes them, alone, reversed, or
/// before what is no low surrogate: JSON allows them, UTF-8 cannot hold them.
const LONE_SURROGATES: [&str; 7] = [
    r"\ud83d",
    r"\udc00",
    r"\udbff",
    r"\udfff",
    r"\udc00\ud83d",
    r"\ud83d\u0041",
    r"\ud83d\\ude00",
];

/// Where a lone surrogate goes in a message written by serde_json: replaced in its JSON text.
const PLACEHOLDER: &str = "\u{F8FF}lone surrogate\u{F8FF}";

/// The most half-moves a `ctlpgn/board` answer lists (the server's `ide::board::LINE_WINDOW`).
const LINE_WINDOW: usize = 200;

/// The protocol's ContentModified: a play at a place read in another version.
const CONTENT_MODIFIED: i64 = -32801;

/// The protocol's InvalidParams: a play refused for its move or its place.
const INVALID_PARAMS: i64 = -32602;

/// The requests of each kind the server advertises, and the board (twice, as the code
/// actions: the editors' boards ask for it at every move of the cursor).
const REQUESTS: [&str; 17] = [
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/documentHighlight",
    "textDocument/documentSymbol",
    "textDocument/foldingRange",
    "textDocument/semanticTokens/full",
    "textDocument/semanticTokens/range",
    "textDocument/formatting",
    "textDocument/rangeFormatting",
    "textDocument/codeAction",
    "textDocument/codeAction",
    "textDocument/diagnostic",
    "workspace/executeCommand",
    "ctlpgn/board",
    "ctlpgn/board",
];

fn finding(kind: &'static str, message: impl Into<String>) -> Finding {
    Finding { kind, message: message.into() }
}

/// One server session running one stream, and the text the client believes it has.
struct Executor {
    client: Option<Client>,
    encoding: Encoding,
    pull: bool,
    format: ctlpgn_core::format::FormatOptions,
    text: String,
    version: i64,
    edits: u64,
    panics: u64,
    code_action_kinds: Vec<Value>,
}

impl Executor {
    fn start(header: &Value, patience: Duration) -> Result<Executor, Finding> {
        let encoding = if header["encoding"] == "utf-8" { Encoding::Utf8 } else { Encoding::Utf16 };
        let pull = header["pull"].as_bool().unwrap_or(false);
        let mut capabilities = json!({});
        if encoding == Encoding::Utf8 {
            capabilities["general"] = json!({"positionEncodings": ["utf-8", "utf-16"]});
        }
        if pull {
            capabilities["textDocument"] = json!({"diagnostic": {"dynamicRegistration": false}});
        }
        let options = header["initializationOptions"].clone();
        let settings = |key: &str| {
            options.pointer(&format!("/format/{key}")).and_then(Value::as_str).unwrap_or("keep")
        };
        let format = ctlpgn_core::format::FormatOptions {
            separators: ctlpgn_core::format::Separators::from_name(settings("separators"))
                .unwrap_or_default(),
            ellipsis: ctlpgn_core::format::EllipsisStyle::from_name(settings("ellipsis"))
                .unwrap_or_default(),
        };
        let panics = panics::count();
        let (client, initialized) = Client::start(capabilities, options, patience)
            .map_err(|message| finding("lsp-timeout", message))?;
        let announced = &initialized["capabilities"]["positionEncoding"];
        if announced != encoding.name() {
            return Err(finding(
                "lsp-encoding",
                format!("{} offered, {announced} announced", encoding.name()),
            ));
        }
        let code_action_kinds = initialized["capabilities"]["codeActionProvider"]
            ["codeActionKinds"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        Ok(Executor {
            client: Some(client),
            encoding,
            pull,
            format,
            text: String::new(),
            version: 0,
            edits: 0,
            panics,
            code_action_kinds,
        })
    }

    fn client(&mut self) -> &mut Client {
        self.client.as_mut().expect("a running client")
    }

    fn check_panics(&mut self, during: &str) -> Result<(), Finding> {
        if let Some(difference) = self.client().take_difference() {
            return Err(finding("lsp-session", difference));
        }
        let now = panics::count();
        if now != self.panics {
            self.panics = now;
            return Err(finding("panic", format!("during {during}: {}", panics::last())));
        }
        Ok(())
    }

    fn step(&mut self, step: &Value) -> Result<(), Finding> {
        if let Some(text) = step["open"].as_str() {
            self.text = text.to_string();
            self.version = 1;
            let document =
                json!({"uri": EDITED, "languageId": "ctl-pgn", "version": 1, "text": text});
            self.client()
                .notify("textDocument/didOpen", json!({"textDocument": document}))
                .map_err(|m| finding("lsp-timeout", m))?;
            return self.check_panics("didOpen");
        }
        if let Some(changes) = step["change"].as_array() {
            for change in changes {
                self.text = apply_change(&self.text, change, self.encoding);
                self.edits += 1;
            }
            self.version += 1;
            let params = json!({"textDocument": {"uri": EDITED, "version": self.version}, "contentChanges": changes});
            self.client()
                .notify("textDocument/didChange", params)
                .map_err(|m| finding("lsp-timeout", m))?;
            return self.check_panics("didChange");
        }
        if let Some(body) = step["raw"].as_str() {
            return self.lone_surrogate(body, step.get("id").filter(|id| !id.is_null()));
        }
        if let Some(play) = step.get("play") {
            return self.play(&play["position"], play["pick"].as_u64().unwrap_or(0));
        }
        if let Some(stale) = step.get("stale_play") {
            return self.stale_play(stale);
        }
        if let Some(sweep) = step.get("sweep") {
            return self.sweep(sweep);
        }
        let method = step["request"].as_str().unwrap_or_default().to_string();
        let params = step["params"].clone();
        let answer = self
            .client()
            .request(&method, params.clone())
            .map_err(|message| finding("lsp-timeout", format!("{method} {params}: {message}")))?;
        self.check_panics(&method)?;
        let result = answer.map_err(|error| {
            finding("lsp-error-response", format!("{method} {params}: {error}"))
        })?;
        self.check_result(&method, &params, &result)
    }

    /// Requests at every line from `from_line` on, each at a place of the line drawn from
    /// `seed` (its start, its end or inside it): a kind of request a line, in turn, and every
    /// kind at the first line, a middle one and the last, so that the sweep stays within the
    /// supervisor's patience (every kind at every line of 64 KB took over 40 s on a loaded
    /// machine).
    fn sweep(&mut self, sweep: &Value) -> Result<(), Finding> {
        let mut rng = Rng::new(sweep["seed"].as_u64().unwrap_or(0));
        let from_line = sweep["from_line"].as_u64().unwrap_or(0) as usize;
        let mut methods = REQUESTS.to_vec();
        methods.dedup();
        let lines = positions::lines(&self.text);
        let swept = lines.len().saturating_sub(from_line);
        let every_kind = [0, swept / 2, swept.saturating_sub(1)];
        for (index, &(start, end)) in lines.iter().skip(from_line).enumerate() {
            let kinds: Vec<&str> = if every_kind.contains(&index) {
                methods.clone()
            } else {
                vec![methods[index % methods.len()]]
            };
            for method in kinds {
                let mut at = start + rng.below(end - start + 1);
                while !self.text.is_char_boundary(at) {
                    at -= 1;
                }
                let (line, character) = positions::position(&self.text, at, self.encoding);
                let position = json!({"line": line, "character": character});
                let request = request_step(&mut rng, self, method, position);
                self.step(&request)?;
            }
        }
        Ok(())
    }

    /// A message with a lone surrogate escape: a request is refused with an error, a
    /// notification changes nothing (the client's text stays as it was, which the checks that
    /// follow hold the server to), and the server keeps serving: the next request is answered.
    fn lone_surrogate(&mut self, body: &str, id: Option<&Value>) -> Result<(), Finding> {
        let answer = self
            .client()
            .send_body(body, id)
            .map_err(|message| finding("lsp-surrogate", format!("{body}: no answer: {message}")))?;
        self.check_panics("a message with a lone surrogate")?;
        if let Some(Ok(result)) = answer {
            return Err(finding("lsp-surrogate", format!("{body}: served, with {result}")));
        }
        let next = json!({"textDocument": {"uri": EDITED}});
        let answer =
            self.client().request("textDocument/foldingRange", next).map_err(|message| {
                finding("lsp-surrogate", format!("{body}: the next request: {message}"))
            })?;
        answer.map_err(|error| {
            finding("lsp-surrogate", format!("{body}: the next request: {error}"))
        })?;
        self.check_panics("the request after a lone surrogate")
    }

    /// A half-move played as a board plays it: the board at `position`, then the `pick`-th of
    /// its `moves` (modulo their count) played with the document's version. The play is
    /// either refused with InvalidParams (a move the server will not write there) or an edit
    /// of this version whose positions exist; the client applies it, as an editor does, and
    /// sends it back as a change.
    fn play(&mut self, position: &Value, pick: u64) -> Result<(), Finding> {
        let board_params = json!({"textDocument": {"uri": EDITED}, "position": position});
        let timeout = |message: String| finding("lsp-timeout", message);
        let board = self.client().request("ctlpgn/board", board_params.clone()).map_err(timeout)?;
        self.check_panics("ctlpgn/board")?;
        let board = board.map_err(|error| {
            finding("lsp-error-response", format!("ctlpgn/board {board_params}: {error}"))
        })?;
        self.check_result("ctlpgn/board", &board_params, &board)?;
        let Some(moves) = board["moves"].as_array().filter(|moves| !moves.is_empty()) else {
            return Ok(());
        };
        let chosen = &moves[(pick % moves.len() as u64) as usize]["text"];
        let params = json!({"textDocument": {"uri": EDITED, "version": self.version}, "position": position, "move": chosen});
        let answer = self.client().request("ctlpgn/play", params.clone()).map_err(timeout)?;
        self.check_panics("ctlpgn/play")?;
        let played = match answer {
            Ok(played) => played,
            Err(error) if error["code"] == INVALID_PARAMS => return Ok(()),
            Err(error) => {
                return Err(finding("lsp-play", format!("ctlpgn/play {params}: {error}")));
            }
        };
        let change = &played["edit"]["documentChanges"][0];
        if change["textDocument"]["version"] != json!(self.version) {
            return Err(finding(
                "lsp-play",
                format!("ctlpgn/play {params}: an edit of another version: {played}"),
            ));
        }
        let lines = positions::lines(&self.text);
        let edits = &change["edits"];
        self.apply_edits(&lines, edits)
            .map_err(|message| finding("lsp-play", format!("ctlpgn/play {params}: {message}")))?;
        let changes: Vec<Value> = edits
            .as_array()
            .into_iter()
            .flatten()
            .rev()
            .map(|edit| json!({"range": edit["range"], "text": edit["newText"]}))
            .collect();
        if changes.is_empty() {
            return Ok(());
        }
        self.step(&json!({"change": changes}))
    }

    /// A play that names a version other than the document's: refused with ContentModified,
    /// whatever its place and move, and nothing played.
    fn stale_play(&mut self, stale: &Value) -> Result<(), Finding> {
        let version = stale["version"].as_i64().unwrap_or(0);
        if version == self.version {
            return Ok(());
        }
        let params = json!({"textDocument": {"uri": EDITED, "version": version}, "position": stale["position"], "move": stale["move"]});
        let answer = self.client().request("ctlpgn/play", params.clone()).map_err(|message| {
            finding("lsp-timeout", format!("ctlpgn/play {params}: {message}"))
        })?;
        self.check_panics("a stale ctlpgn/play")?;
        match answer {
            Err(error) if error["code"] == CONTENT_MODIFIED => Ok(()),
            other => Err(finding(
                "lsp-stale-play",
                format!(
                    "ctlpgn/play {params} at version {}: {other:?} instead of ContentModified",
                    self.version
                ),
            )),
        }
    }

    /// The answer's positions exist in the client's text; formatting gives the core's text;
    /// a hover holds no live markup (an image but the board's, a link, HTML).
    fn check_result(
        &mut self,
        method: &str,
        params: &Value,
        result: &Value,
    ) -> Result<(), Finding> {
        let lines = positions::lines(&self.text);
        let check_ranges = |value: &Value| -> Result<(), String> {
            let mut stack = vec![value];
            while let Some(value) = stack.pop() {
                match value {
                    Value::Array(items) => stack.extend(items),
                    Value::Object(map) => {
                        if let (Some(start), Some(end)) = (map.get("start"), map.get("end")) {
                            if start.get("line").is_some() && end.get("line").is_some() {
                                let a = self.position_of(&lines, start)?;
                                let b = self.position_of(&lines, end)?;
                                if a > b {
                                    return Err(format!("a reversed range {value}"));
                                }
                                continue;
                            }
                        }
                        stack.extend(map.values());
                    }
                    _ => {}
                }
            }
            Ok(())
        };
        check_ranges(result).map_err(|message| {
            finding("lsp-position", format!("{method} {params}: {message} in {result}"))
        })?;
        match method {
            "textDocument/hover" => {
                let markdown = result["contents"]["value"].as_str().unwrap_or_default();
                let live = live_markup(markdown);
                if !live.is_empty() {
                    return Err(finding(
                        "lsp-hover-markup",
                        format!(
                            "{method} {params}: {live:?} in\n{markdown}\ntext:\n{:?}",
                            self.text
                        ),
                    ));
                }
            }
            "textDocument/semanticTokens/full" | "textDocument/semanticTokens/range" => {
                self.check_tokens(&lines, result).map_err(|message| {
                    finding("lsp-position", format!("{method} {params}: {message}"))
                })?;
            }
            "textDocument/foldingRange" => {
                for range in result.as_array().into_iter().flatten() {
                    let (start, end) = (range["startLine"].as_u64(), range["endLine"].as_u64());
                    let fits = matches!((start, end), (Some(s), Some(e)) if s <= e && (e as usize) < lines.len());
                    if !fits {
                        return Err(finding(
                            "lsp-position",
                            format!("folding range {range} in {} lines", lines.len()),
                        ));
                    }
                }
            }
            "textDocument/formatting" | "textDocument/rangeFormatting" => {
                let edited = self
                    .apply_edits(&lines, result)
                    .map_err(|message| finding("lsp-format", format!("{method}: {message}")))?;
                let expected = ctlpgn_core::format::format_text(&self.text, &self.format);
                let got = if method == "textDocument/formatting" {
                    edited.clone()
                } else {
                    ctlpgn_core::format::format_text(&edited, &self.format)
                };
                if got != expected {
                    return Err(finding("lsp-format", format!("{method} {params}: the edits {result} give\n{edited:?}\nthe core formats\n{expected:?}\nfrom\n{:?}", self.text)));
                }
            }
            "ctlpgn/board" if !result.is_null() => {
                check_board_line(result).map_err(|message| {
                    finding("lsp-board", format!("{method} {params}: {message}"))
                })?;
            }
            "textDocument/codeAction" => {
                for action in result.as_array().into_iter().flatten() {
                    let edits = &action["edit"]["changes"][EDITED];
                    if !edits.is_null() {
                        self.apply_edits(&lines, edits).map_err(|message| {
                            finding(
                                "lsp-position",
                                format!("code action {}: {message}", action["title"]),
                            )
                        })?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn position_of(&self, lines: &[(usize, usize)], position: &Value) -> Result<usize, String> {
        let (Some(line), Some(character)) =
            (position["line"].as_u64(), position["character"].as_u64())
        else {
            return Err(format!("a position that is not two numbers: {position}"));
        };
        positions::check_position(&self.text, lines, line, character, self.encoding)
    }

    /// Text edits applied to the client's text; they must not overlap.
    fn apply_edits(&self, lines: &[(usize, usize)], edits: &Value) -> Result<String, String> {
        let mut resolved = Vec::new();
        for edit in edits.as_array().into_iter().flatten() {
            let start = self.position_of(lines, &edit["range"]["start"])?;
            let end = self.position_of(lines, &edit["range"]["end"])?;
            resolved.push((start, end, edit["newText"].as_str().unwrap_or_default()));
        }
        resolved.sort_by_key(|&(start, end, _)| (start, end));
        if resolved.windows(2).any(|pair| pair[0].1 > pair[1].0) {
            return Err(format!("overlapping edits {edits}"));
        }
        let mut text = self.text.clone();
        for &(start, end, new_text) in resolved.iter().rev() {
            text.replace_range(start..end, new_text);
        }
        Ok(text)
    }

    fn check_tokens(&self, lines: &[(usize, usize)], result: &Value) -> Result<(), String> {
        let data: Vec<u64> =
            result["data"].as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
        let (mut line, mut start) = (0u64, 0u64);
        for token in data.chunks(5) {
            let [delta_line, delta_start, length, ..] = token else {
                return Err(format!("{} numbers, not a multiple of 5", data.len()));
            };
            if *delta_line > 0 {
                line += delta_line;
                start = *delta_start;
            } else {
                start += delta_start;
            }
            positions::check_position(&self.text, lines, line, start, self.encoding)
                .and_then(|_| {
                    positions::check_position(
                        &self.text,
                        lines,
                        line,
                        start + length,
                        self.encoding,
                    )
                })
                .map_err(|message| {
                    format!("the token at {line}:{start} of length {length}: {message}")
                })?;
        }
        Ok(())
    }

    /// The server agrees with itself: the diagnostics of the edited document are those of a
    /// fresh one with the same text, pushed and pulled alike.
    fn agree(&mut self) -> Result<(), Finding> {
        let version = self.version;
        let text = self.text.clone();
        let timeout = |message: String| finding("lsp-timeout", message);
        let document = json!({"uri": FRESH, "languageId": "ctl-pgn", "version": 1, "text": text});
        let normal = |value: &Value| value.to_string().replace(FRESH, EDITED);
        let pull = self.pull;
        let client = self.client();
        let pushed = if pull {
            None
        } else {
            let edited = client.published_version(EDITED, version).map_err(timeout)?;
            client
                .notify("textDocument/didOpen", json!({"textDocument": document}))
                .map_err(timeout)?;
            let fresh = client.published_version(FRESH, 1).map_err(timeout)?;
            if normal(&edited) != normal(&fresh) {
                return Err(finding("lsp-incremental", format!("the edited document's published diagnostics differ from a fresh one's:\n{edited}\nfresh:\n{fresh}\ntext:\n{text:?}")));
            }
            Some(edited)
        };
        let client = self.client.as_mut().expect("a running client");
        if pushed.is_none() {
            client
                .notify("textDocument/didOpen", json!({"textDocument": document}))
                .map_err(timeout)?;
        }
        let mut pulled = Vec::new();
        for uri in [EDITED, FRESH] {
            let answer = client
                .request("textDocument/diagnostic", json!({"textDocument": {"uri": uri}}))
                .map_err(timeout)?
                .map_err(|error| finding("lsp-error-response", format!("diagnostic: {error}")))?;
            pulled.push(answer["items"].clone());
        }
        if normal(&pulled[0]) != normal(&pulled[1]) {
            return Err(finding("lsp-incremental", format!("the edited document's pulled diagnostics differ from a fresh one's:\n{}\nfresh:\n{}\ntext:\n{text:?}", pulled[0], pulled[1])));
        }
        if let Some(pushed) = pushed {
            if normal(&pushed) != normal(&pulled[0]) {
                return Err(finding(
                    "lsp-pull-push",
                    format!("pushed:\n{pushed}\npulled:\n{}\ntext:\n{text:?}", pulled[0]),
                ));
            }
        }
        self.check_panics("the final comparison")
    }

    fn finish(mut self) {
        if let Some(client) = self.client.take() {
            client.finish();
        }
    }
}

/// A board answer's move list is bounded: at most [`LINE_WINDOW`] half-moves, numbered from
/// `lineStart` on, with the place's half-move among them, within the whole line's
/// `lineLength`, whose first and last half-moves are given (plies 1 and `lineLength`).
fn check_board_line(board: &Value) -> Result<(), String> {
    let line = board["line"].as_array().ok_or("no line")?;
    let (Some(start), Some(length), Some(ply)) =
        (board["lineStart"].as_u64(), board["lineLength"].as_u64(), board["ply"].as_u64())
    else {
        return Err("no lineStart, lineLength or ply".to_string());
    };
    if line.len() > LINE_WINDOW || line.len() as u64 > length {
        return Err(format!("{} half-moves listed of {length}", line.len()));
    }
    let numbered = line.iter().zip(start..).all(|(half_move, ply)| half_move["ply"] == ply);
    if !numbered || (!line.is_empty() && start + line.len() as u64 - 1 > length) {
        return Err(format!("a window from {start} of {} half-moves, of {length}", line.len()));
    }
    if ply > length || (ply > 0 && !(start..start + line.len() as u64).contains(&ply)) {
        return Err(format!("ply {ply} outside the window from {start} of {length}"));
    }
    let ends = (board["lineFirst"]["ply"].as_u64(), board["lineLast"]["ply"].as_u64());
    let expected = if length == 0 { (None, None) } else { (Some(1), Some(length)) };
    if ends != expected {
        return Err(format!("the line's ends {ends:?} for a length of {length}"));
    }
    Ok(())
}

/// One content change applied to a text as the protocol says (see [`positions`]).
fn apply_change(text: &str, change: &Value, encoding: Encoding) -> String {
    let new_text = change["text"].as_str().unwrap_or_default();
    let Some(range) = change.get("range") else {
        return new_text.to_string();
    };
    let at = |position: &Value| {
        positions::offset(
            text,
            position["line"].as_u64().unwrap_or(0),
            position["character"].as_u64().unwrap_or(0),
            encoding,
        )
    };
    let (a, b) = (at(&range["start"]), at(&range["end"]));
    let mut out = text.to_string();
    out.replace_range(a.min(b)..a.max(b), new_text);
    out
}

/// A position of `text` for an edit or a request: usually a character boundary, sometimes
/// inside a character, past the line's end or past the last line.
fn random_position(rng: &mut Rng, text: &str, encoding: Encoding, near: Option<usize>) -> Value {
    let offset = match near {
        Some(near) if rng.one_in(2) => {
            let mut at = (near + rng.below(12)).saturating_sub(6).min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        }
        _ => crate::mutate::boundary(rng, text),
    };
    let (mut line, mut character) = positions::position(text, offset, encoding);
    match rng.below(20) {
        0 | 1 => character += rng.between(1, 6) as u64,
        2 => line += rng.between(1, 3) as u64,
        3 | 4 => {
            if let Some(ch) = text[offset..].chars().next() {
                if encoding.width(ch) > 1 {
                    character += rng.between(1, encoding.width(ch) - 1) as u64;
                }
            }
        }
        _ => {}
    }
    json!({"line": line, "character": character})
}

fn random_range(rng: &mut Rng, text: &str, encoding: Encoding) -> Value {
    let start = random_position(rng, text, encoding, None);
    let near = positions::offset(
        text,
        start["line"].as_u64().unwrap_or(0),
        start["character"].as_u64().unwrap_or(0),
        encoding,
    );
    let end = if rng.one_in(3) {
        random_position(rng, text, encoding, None)
    } else {
        random_position(rng, text, encoding, Some(near + 10))
    };
    if rng.one_in(8) {
        json!({"start": end, "end": start})
    } else {
        json!({"start": start, "end": end})
    }
}

/// What the step after this one must be.
#[derive(Clone, Copy, Debug, Default)]
enum Next {
    /// Any step.
    #[default]
    Any,
    /// A hover where the last edit was (after markup was inserted there).
    Hover,
    /// Every kind of request at every line from `from_line` on (after a large record).
    Sweep { from_line: usize },
}

/// A hover at the place of the last edit.
fn hover_step(executor: &Executor, last_edit: usize) -> Value {
    let text = &executor.text;
    let mut at = last_edit.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (line, character) = positions::position(text, at, executor.encoding);
    let params = json!({"textDocument": {"uri": EDITED}, "position": {"line": line, "character": character}});
    json!({"request": "textDocument/hover", "params": params})
}

/// A record of random bytes read as UTF-8 (invalid sequences become U+FFFD) added at the end
/// of the text, of a size on either side of the document's `LARGE_RECORD` bound, as a record
/// of its own or, without a `[Variant` line, as the end of the last record; a line break
/// about every kilobyte, so that the sweep that follows stays a thousand requests or so.
fn random_record_step(rng: &mut Rng, executor: &Executor, last_edit: &mut usize) -> Value {
    let text = &executor.text;
    let bound = ctlpgn_core::document::LARGE_RECORD;
    let length = rng.between(bound - 2048, bound + 2048);
    let mut bytes = Vec::with_capacity(length + 8);
    while bytes.len() < length {
        let byte = match rng.below(256) as u8 {
            _ if rng.one_in(1024) => b'\n',
            b'\n' => b' ',
            byte => byte,
        };
        bytes.push(byte);
    }
    let random = String::from_utf8_lossy(&bytes).replace("[Variant", "[Varian");
    let inserted =
        if rng.one_in(2) { format!("\n[Variant \"C'escacs\"]\n{random}") } else { random };
    *last_edit = text.len() + inserted.len() / 2;
    let (line, character) = positions::position(text, text.len(), executor.encoding);
    let end = json!({"line": line, "character": character});
    json!({"change": [{"range": {"start": end, "end": end}, "text": inserted}]})
}

/// The next step of a stream, for the text the client holds.
fn generate_step(
    rng: &mut Rng,
    seeds: &Seeds,
    executor: &Executor,
    last_edit: &mut usize,
    next: &mut Next,
) -> Value {
    let encoding = executor.encoding;
    match std::mem::take(next) {
        Next::Any => {}
        Next::Hover => return hover_step(executor, *last_edit),
        Next::Sweep { from_line } => {
            return json!({"sweep": {"from_line": from_line, "seed": rng.next_u64()}});
        }
    }
    if rng.one_in(5000) {
        let (line, _) = positions::position(&executor.text, executor.text.len(), encoding);
        *next = Next::Sweep { from_line: line as usize };
        return random_record_step(rng, executor, last_edit);
    }
    if rng.one_in(40) {
        return lone_surrogate_step(rng, seeds, executor);
    }
    if rng.one_in(25) {
        *next = Next::Hover;
        return markup_step(rng, executor, last_edit);
    }
    if rng.one_in(60) {
        return long_line_step(rng, executor, last_edit);
    }
    if rng.one_in(12) {
        let position = random_position(rng, &executor.text, encoding, Some(*last_edit));
        return json!({"play": {"position": position, "pick": rng.below(1 << 16)}});
    }
    if rng.one_in(15) {
        // A version the document had before (or never had, at its first).
        let version =
            if executor.version > 1 { rng.between(1, executor.version as usize - 1) } else { 0 };
        let position = random_position(rng, &executor.text, encoding, Some(*last_edit));
        let half_move = *rng.pick(&["K4-K6", "E21-E19", "G7-G9", "NG3-H8", "x"]);
        return json!({"stale_play": {"position": position, "version": version, "move": half_move}});
    }
    if rng.below(100) < 55 {
        let mut text = executor.text.clone();
        let count = if rng.one_in(4) { rng.between(2, 4) } else { 1 };
        let mut changes = Vec::new();
        for _ in 0..count {
            let change = if rng.one_in(60) {
                json!({"text": mutate(rng, seeds, &[])})
            } else {
                let start = random_position(rng, &text, encoding, Some(*last_edit));
                let start_offset = positions::offset(
                    &text,
                    start["line"].as_u64().unwrap_or(0),
                    start["character"].as_u64().unwrap_or(0),
                    encoding,
                );
                let end = match rng.below(3) {
                    0 => start.clone(),
                    _ => random_position(rng, &text, encoding, Some(start_offset + 3)),
                };
                let new_text = match rng.below(3) {
                    0 => String::new(),
                    _ => piece(rng, seeds),
                };
                *last_edit = start_offset;
                let range = if rng.one_in(10) {
                    json!({"start": end, "end": start})
                } else {
                    json!({"start": start, "end": end})
                };
                json!({"range": range, "text": new_text})
            };
            text = apply_change(&text, &change, encoding);
            changes.push(change);
        }
        return json!({"change": changes});
    }
    let method = *rng.pick(&REQUESTS);
    let position = random_position(rng, &executor.text, encoding, Some(*last_edit));
    request_step(rng, executor, method, position)
}

/// A request of `method` at `position` (ranges, where the method takes one, at random).
fn request_step(rng: &mut Rng, executor: &Executor, method: &str, position: Value) -> Value {
    let (text, encoding) = (&executor.text, executor.encoding);
    let document = json!({"uri": EDITED});
    let params = match method {
        "textDocument/references" => {
            json!({"textDocument": document, "position": position, "context": {"includeDeclaration": rng.one_in(2)}})
        }
        "textDocument/documentSymbol"
        | "textDocument/foldingRange"
        | "textDocument/semanticTokens/full"
        | "textDocument/diagnostic" => json!({"textDocument": document}),
        "textDocument/semanticTokens/range" => {
            json!({"textDocument": document, "range": random_range(rng, text, encoding)})
        }
        "textDocument/formatting" => {
            json!({"textDocument": document, "options": {"tabSize": 4, "insertSpaces": true}})
        }
        "textDocument/rangeFormatting" => {
            json!({"textDocument": document, "range": random_range(rng, text, encoding), "options": {"tabSize": 4, "insertSpaces": true}})
        }
        "textDocument/codeAction" => {
            let mut context = json!({"diagnostics": []});
            if rng.one_in(2) && !executor.code_action_kinds.is_empty() {
                context["only"] = json!([rng.pick(&executor.code_action_kinds)]);
            }
            let range = if rng.one_in(2) {
                json!({"start": position, "end": position})
            } else {
                random_range(rng, text, encoding)
            };
            json!({"textDocument": document, "range": range, "context": context})
        }
        "workspace/executeCommand" => {
            json!({"command": "ctlpgn.positionAt", "arguments": [EDITED, position]})
        }
        _ => json!({"textDocument": document, "position": position}),
    };
    json!({"request": method, "params": params})
}

/// A record written on one long line (a Knight of each side out and back, hundreds to
/// thousands of half-moves) added at the end of the text, where the next requests go: its
/// board must list a window of the line, whatever its length.
fn long_line_step(rng: &mut Rng, executor: &Executor, last_edit: &mut usize) -> Value {
    let text = &executor.text;
    let record = ctlpgn_test_support::fixtures::knights_out_and_back(rng.between(150, 2_500), true);
    let inserted = format!("\n{record}");
    *last_edit = text.len() + inserted.len() / 2;
    let (line, character) = positions::position(text, text.len(), executor.encoding);
    let end = json!({"line": line, "character": character});
    json!({"change": [{"range": {"start": end, "end": end}, "text": inserted}]})
}

/// Markdown or HTML inserted where a hover quotes the record (in the `PDTL` value, when there
/// is one, half the time; elsewhere at random), for the hover that follows it.
fn markup_step(rng: &mut Rng, executor: &Executor, last_edit: &mut usize) -> Value {
    let text = &executor.text;
    let markup: Vec<&str> =
        MARKUP.iter().copied().filter(|markup| !markup.starts_with('\u{1b}')).collect();
    let inserted = *rng.pick(&markup);
    let in_pdtl = text.find("[PDTL \"").map(|start| start + "[PDTL \"".len()).and_then(|start| {
        let end = start + text[start..].find('"')?;
        let mut at = start + rng.below(end - start + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        Some(at)
    });
    let at = match in_pdtl {
        Some(at) if rng.one_in(2) => at,
        _ => crate::mutate::boundary(rng, text),
    };
    *last_edit = at + inserted.len() / 2;
    let (line, character) = positions::position(text, at, executor.encoding);
    let position = json!({"line": line, "character": character});
    json!({"change": [{"range": {"start": position, "end": position}, "text": inserted}]})
}

/// A didOpen of the edited document, a didChange of it, or a request on a URI, each carrying a
/// lone surrogate escape, as the JSON text a client would send.
fn lone_surrogate_step(rng: &mut Rng, seeds: &Seeds, executor: &Executor) -> Value {
    let text = &executor.text;
    let mut carrying = text.clone();
    carrying.insert_str(crate::mutate::boundary(rng, text), PLACEHOLDER);
    let version = executor.version + 1;
    let (message, id) = match rng.below(3) {
        0 => {
            let document = json!({"uri": EDITED, "languageId": "ctl-pgn", "version": version, "text": carrying});
            let params = json!({"textDocument": document});
            (json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": params}), None)
        }
        1 => {
            let change = if rng.one_in(4) {
                json!({"text": carrying})
            } else {
                let new_text = format!("{}{PLACEHOLDER}{}", piece(rng, seeds), piece(rng, seeds));
                json!({"range": random_range(rng, text, executor.encoding), "text": new_text})
            };
            let params = json!({"textDocument": {"uri": EDITED, "version": version}, "contentChanges": [change]});
            (json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": params}), None)
        }
        _ => {
            let method = *rng.pick(&REQUESTS[..7]);
            let uri = EDITED.replace("edited", &format!("edited{PLACEHOLDER}"));
            let position = random_position(rng, text, executor.encoding, None);
            let params = json!({"textDocument": {"uri": uri}, "position": position});
            let id = json!(format!("lone-{}", rng.below(1 << 20)));
            (json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}), Some(id))
        }
    };
    let lone = *rng.pick(&LONE_SURROGATES);
    let body = message.to_string().replacen(PLACEHOLDER, lone, 1);
    json!({"raw": body, "id": id})
}

fn random_header(rng: &mut Rng, stream: u64) -> Value {
    // Streams alternate the encoding; a few pull their diagnostics.
    let encoding = if stream & 1 == 0 { "utf-8" } else { "utf-16" };
    let style = ["keep", "unicode", "ascii"];
    json!({
        "encoding": encoding,
        "pull": rng.one_in(5),
        "initializationOptions": {
            "rules": {"enable": rng.one_in(2)},
            "format": {"separators": rng.pick(&style), "ellipsis": rng.pick(&style)},
            "hover": {"images": rng.one_in(2)},
        },
    })
}

fn line(value: &Value) -> Vec<u8> {
    let mut bytes = value.to_string().into_bytes();
    bytes.push(b'\n');
    bytes
}

pub fn run(options: &Options, reporter: &Reporter) -> i32 {
    let Some(seeds) = Seeds::load_or_say() else { return 2 };
    let patience = Duration::from_secs_f64(options.timeout);
    let budget = Budget::new(options);
    let mut rng = Rng::new(options.seed);
    let mut known: std::collections::HashSet<String> = options.known.iter().cloned().collect();
    let (mut edits, mut streams, mut findings) = (0u64, 0u64, 0u64);
    while budget.more(edits) {
        let header = random_header(&mut rng, streams);
        let mut case = line(&header);
        reporter.begin(&case);
        let outcome = (|| -> Result<(), Finding> {
            let mut executor = Executor::start(&header, patience)?;
            let text = if rng.one_in(3) {
                rng.pick(&seeds.inputs).clone()
            } else {
                mutate(&mut rng, &seeds, &[])
            };
            let open = json!({"open": text});
            let result = (|| {
                reporter.append(&line(&open));
                case.extend(line(&open));
                executor.step(&open)?;
                let (mut last_edit, mut next) = (0, Next::Any);
                for _ in 0..rng.between(10, 80) {
                    let step =
                        generate_step(&mut rng, &seeds, &executor, &mut last_edit, &mut next);
                    reporter.append(&line(&step));
                    case.extend(line(&step));
                    executor.step(&step)?;
                }
                executor.agree()
            })();
            edits += executor.edits;
            executor.finish();
            result
        })();
        streams += 1;
        reporter.progress(edits, streams);
        if let Err(found) = outcome {
            let sig = signature(&found);
            if known.insert(sig.clone()) {
                findings += 1;
                let path = save("lsp", found.kind, &case, &found.message);
                eprintln!(
                    "FINDING {}: {}\n  stream saved to {}",
                    found.kind,
                    crate::core_mode::shorten(&found.message),
                    path.display()
                );
                reporter.found(&sig);
                if !options.keep_going {
                    break;
                }
            }
        }
    }
    reporter.progress(edits, streams);
    reporter.done();
    if !reporter.is_supervised() {
        println!(
            "{edits} edits in {streams} streams, {findings} findings in {:.1} s",
            budget.elapsed()
        );
    }
    i32::from(findings > 0)
}

/// A saved stream: its header (the `initialize` and opened text) and its steps; `Err` is the
/// exit status after saying why it cannot be read.
fn load_stream(path: &str) -> Result<(Value, Vec<Value>), i32> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        eprintln!("ctlpgn-fuzz: {path}: {error}");
        2
    })?;
    let mut lines = text.lines().filter_map(|line| serde_json::from_str::<Value>(line).ok());
    let Some(header) = lines.next() else {
        eprintln!("ctlpgn-fuzz: {path}: no stream");
        return Err(2);
    };
    Ok((header, lines.collect()))
}

/// Runs a saved stream again and prints what fails.
pub fn replay(path: &str, options: &Options) -> i32 {
    let (header, steps) = match load_stream(path) {
        Ok(stream) => stream,
        Err(status) => return status,
    };
    match run_stream(&header, &steps, Duration::from_secs_f64(options.timeout)) {
        Ok(edits) => {
            println!("{edits} edits in 1 streams, 0 findings");
            0
        }
        Err(found) => {
            println!("FINDING {}: {}", found.kind, found.message);
            println!("1 streams, 1 findings");
            1
        }
    }
}

/// Runs a stream (header and steps) on a fresh server; the finding, if any.
fn run_stream(header: &Value, steps: &[Value], patience: Duration) -> Result<u64, Finding> {
    let mut executor = Executor::start(header, patience)?;
    let result =
        steps.iter().try_for_each(|step| executor.step(step)).and_then(|()| executor.agree());
    let edits = executor.edits;
    executor.finish();
    result.map(|()| edits)
}

/// Shrinks a saved stream while its finding keeps its signature: steps removed in chunks of
/// halving size, then the opened text shortened line by line; saves and prints the result.
pub fn minimize(path: &str, options: &Options) -> i32 {
    let (header, steps) = match load_stream(path) {
        Ok(stream) => stream,
        Err(status) => return status,
    };
    let (header, steps) = (&header, steps.as_slice());
    let patience = Duration::from_secs_f64(options.timeout);
    let Err(original) = run_stream(header, steps, patience) else {
        println!("the stream passes every check: nothing to minimize");
        return 0;
    };
    let same = |steps: &[Value]| matches!(run_stream(header, steps, patience), Err(found) if signature(&found) == signature(&original));
    let mut steps = steps.to_vec();
    let mut chunk = steps.len().div_ceil(2).max(1);
    loop {
        let mut at = 1;
        while at < steps.len() {
            let end = (at + chunk).min(steps.len());
            let candidate: Vec<Value> = steps[..at].iter().chain(&steps[end..]).cloned().collect();
            if same(&candidate) {
                steps = candidate;
            } else {
                at = end;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    let mut out = line(header);
    for step in &steps {
        out.extend(line(step));
    }
    let found = run_stream(header, &steps, patience).err().unwrap_or(original);
    let saved = save("lsp", found.kind, &out, &found.message);
    println!(
        "{}{}: {}\nsaved to {}",
        String::from_utf8_lossy(&out),
        found.kind,
        crate::core_mode::shorten(&found.message),
        saved.display()
    );
    1
}
