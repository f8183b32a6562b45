//! The framing in front of tower-lsp: reads the client's frames, answers and skips those that
//! carry no LSP message, and passes the others to tower-lsp through an in-memory pipe; tower-lsp's
//! frames and our answers reach the client whole, one after the other.
//!
//! tower-lsp's own transport ends the session on the first frame it cannot decode, and never
//! answers a `$/` request. Here a frame whose body is not JSON or not UTF-8 is answered with a
//! parse error (-32700, id `null`), a batch, a bare value or an object that is neither a
//! request, a notification nor a response with an invalid request (-32600), a `$/` request
//! with method not found (-32601), and the session goes on. So it does after JSON that does
//! not read into JSON values (a lone surrogate escape, `json_limits`): a request is refused
//! under its id (-32600), a notification ignored with a warning in the client's log. A header
//! block without a valid `Content-Length`, or with one over `MAX_BODY`, is answered with a
//! parse error and the input is read on from the next `Content-Length`: memory never grows past
//! what the client sent.
//! A body that stalls shorter than its `Content-Length` while another frame's header already
//! stands in it is cut there, so that a wrong length costs one message, not the session.
//!
//! The full semantic tokens of a document, too large for tower-lsp's JSON values, are passed to
//! tower-lsp diverted, and their answer written here from the JSON the handler kept
//! (`raw_answers`); so is the text of a document opened, which the handler takes from where the
//! transport kept it (`raw_texts`). The diverted messages go under methods of our own
//! (`OURS`), which a client's messages never reach tower-lsp under.
//!
//! The session ends at the `exit` notification or at the end of the input. tower-lsp is then
//! given `GRACE` to finish the messages it has (the answers to requests sent just before the
//! end, the exit status of a `shutdown` sent together with `exit`), and is dropped after that
//! whatever it is still waiting for.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Id, Request, Response};
use tower_lsp_server::lsp_types::{DidOpenTextDocumentParams, LogMessageParams, MessageType};

use super::json_limits;
use super::raw_answers::{self, RawAnswers};
use super::raw_texts::{self, RawTexts};
use super::sent_capabilities::SentCapabilities;

/// The header that starts every frame; the input is read on from the next one after a
/// malformed frame.
const MARKER: &[u8] = b"Content-Length";
/// The longest header block read; LSP's has one or two short lines.
const MAX_HEADER: usize = 8 * 1024;
/// The longest body accepted: a `Content-Length` over it is refused at once, before anything
/// is allocated for it. Far above any real document (a 2,000-record file is 2 MB).
pub const MAX_BODY: usize = 256 << 20;
/// How long a body shorter than its `Content-Length` may stall before a frame header inside
/// it is taken as the next frame.
const STALL: Duration = Duration::from_secs(1);
/// The start of the methods of the messages diverted to tower-lsp: a client's request under
/// one is answered as any `$/` request (method not found), a client's notification dropped.
pub const OURS: &str = "$/ctlpgn/";
/// How long tower-lsp may take, once the session ends, to finish the messages it has.
const GRACE: Duration = Duration::from_secs(2);
/// The in-memory pipe's buffer between this transport and tower-lsp.
const PIPE: usize = 1 << 16;

/// What the next frame of the input holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A body, exactly as long as its `Content-Length` said.
    Body(Vec<u8>),
    /// A header block that frames nothing: why.
    Malformed(&'static str),
}

/// Reads frames from a stream, from whatever the stream holds: after a malformed header the
/// bytes up to the next `Content-Length` are dropped as they arrive.
#[derive(Debug)]
pub struct FrameReader<R> {
    input: R,
    /// Bytes read and not yet taken.
    buffer: Vec<u8>,
    /// Whether the bytes up to the next `Content-Length` are to be dropped.
    resyncing: bool,
    /// Whether a stalled body is cut at a frame header inside it (`STALL`): for the client's
    /// input; tower-lsp's output is trusted.
    cuts_stalled: bool,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    /// A reader of the client's frames.
    pub fn new(input: R) -> FrameReader<R> {
        FrameReader { input, buffer: Vec::new(), resyncing: false, cuts_stalled: true }
    }

    /// A reader of tower-lsp's frames, which are well-formed.
    fn trusting(input: R) -> FrameReader<R> {
        FrameReader { cuts_stalled: false, ..FrameReader::new(input) }
    }

    /// The next frame; `None` at the end of the input (a frame cut by it included) or when
    /// reading fails.
    pub async fn next(&mut self) -> Option<Frame> {
        loop {
            if self.resyncing {
                match find(&self.buffer, MARKER) {
                    Some(at) => {
                        self.buffer.drain(..at);
                        self.resyncing = false;
                    }
                    None => {
                        // Keep what could be the start of a marker cut by the read.
                        let keep = self.buffer.len().min(MARKER.len() - 1);
                        self.buffer.drain(..self.buffer.len() - keep);
                        self.fill().await?;
                        continue;
                    }
                }
            }
            let blank = self.buffer.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.buffer.drain(..blank);
            let Some((block_end, body_start)) = header_end(&self.buffer) else {
                if self.buffer.len() > MAX_HEADER {
                    self.resync_after(1);
                    return Some(Frame::Malformed("a header block longer than 8 KiB"));
                }
                self.fill().await?;
                continue;
            };
            let length = match content_length(&self.buffer[..block_end]) {
                Ok(length) if length <= MAX_BODY => length,
                Ok(_) => {
                    self.resync_after(body_start);
                    return Some(Frame::Malformed("a Content-Length over 256 MiB"));
                }
                Err(why) => {
                    // A valid header may follow garbage in the same block.
                    self.resync_after(1);
                    return Some(Frame::Malformed(why));
                }
            };
            return self.body(body_start, length).await;
        }
    }

    /// The body of `length` bytes from `start`, once it is all there.
    async fn body(&mut self, start: usize, length: usize) -> Option<Frame> {
        let mut checked = !self.cuts_stalled;
        while self.buffer.len() < start + length {
            if checked {
                self.fill().await?;
                continue;
            }
            match tokio::time::timeout(STALL, self.fill()).await {
                Ok(filled) => filled?,
                Err(_) => {
                    checked = true;
                    if find(&self.buffer[start..], MARKER).is_some() {
                        self.resync_after(start);
                        return Some(Frame::Malformed(
                            "a body shorter than its Content-Length, followed by another frame",
                        ));
                    }
                }
            }
        }
        let body = self.buffer[start..start + length].to_vec();
        self.buffer.drain(..start + length);
        Some(Frame::Body(body))
    }

    /// Puts back the part of a body that is not JSON from its first `Content-Length` on: the
    /// body's length was too long and took in the start of the next frame.
    pub fn put_back_frame_inside(&mut self, body: &[u8]) {
        if let Some(at) = find(body, MARKER) {
            self.buffer.splice(0..0, body[at..].iter().copied());
            self.resyncing = false;
        }
    }

    /// Drops the buffer up to `from` and the bytes after it up to the next marker.
    fn resync_after(&mut self, from: usize) {
        self.buffer.drain(..from.min(self.buffer.len()));
        self.resyncing = true;
    }

    /// Reads more bytes; `None` at the end of the input or on a read error.
    async fn fill(&mut self) -> Option<()> {
        self.buffer.reserve(PIPE);
        match self.input.read_buf(&mut self.buffer).await {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(()),
        }
    }
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

/// The end of the header block at the start of `buffer` and the start of the body after it:
/// the first empty line, `\r\n\r\n` as LSP says, or `\n\n`.
fn header_end(buffer: &[u8]) -> Option<(usize, usize)> {
    // Only the start is searched: the buffer may already hold many frames.
    let buffer = &buffer[..buffer.len().min(MAX_HEADER + 4)];
    let crlf = find(buffer, b"\r\n\r\n").map(|at| (at, at + 4));
    let lf = find(buffer, b"\n\n").map(|at| (at, at + 2));
    match (crlf, lf) {
        (Some(crlf), Some(lf)) => Some(if lf.0 < crlf.0 { lf } else { crlf }),
        (crlf, lf) => crlf.or(lf),
    }
}

/// The `Content-Length` of a header block, or why there is none.
fn content_length(block: &[u8]) -> Result<usize, &'static str> {
    let block = std::str::from_utf8(block).map_err(|_| "a header block that is not UTF-8")?;
    let mut length = None;
    for line in block.lines() {
        let Some((name, value)) = line.split_once(':') else {
            return Err("a header line without a colon");
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
                return Err("a Content-Length that is not a number");
            }
            // A number too long for usize is over MAX_BODY anyway.
            let parsed = value.parse().unwrap_or(usize::MAX);
            if length.is_some_and(|previous| previous != parsed) {
                return Err("two different Content-Length headers");
            }
            length = Some(parsed);
        }
    }
    length.ok_or("a header block without Content-Length")
}

/// What to do with a frame's body.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Pass this body (the message, re-encoded) to tower-lsp.
    Forward(Vec<u8>),
    /// Pass this body to tower-lsp, then end the session: the `exit` notification.
    Exit(Vec<u8>),
    /// Answer the client with this body, and skip the frame.
    Answer(Vec<u8>),
    /// Skip the frame: a notification under one of our own methods.
    Drop,
}

/// Where the transport keeps what it diverts around tower-lsp's JSON values.
#[derive(Debug, Default)]
pub struct Diversions {
    pub answers: Arc<RawAnswers>,
    pub texts: Arc<RawTexts>,
    /// What the `initialize` request declares that tower-lsp's types cannot read.
    pub capabilities: Arc<SentCapabilities>,
}

/// Judges a body: a request, a notification or a response goes on (as written when it is
/// plain, else re-encoded by tower-lsp's own types, so that tower-lsp always decodes it, and
/// diverted by `diversions` when its answer or its text goes around tower-lsp); anything else
/// is answered, or dropped.
pub fn judge(body: &[u8], diversions: &Diversions) -> Verdict {
    diversions.capabilities.read(body);
    as_written(body, &diversions.texts).unwrap_or_else(|| judge_in_full(body, &diversions.answers))
}

/// [`judge`] for any body: read into a JSON value, and re-encoded when it goes on.
fn judge_in_full(body: &[u8], raw: &RawAnswers) -> Verdict {
    let answer = |id: Id, code: ErrorCode, message: String| {
        let error = Error { code, message: message.into(), data: None };
        Verdict::Answer(encode(&Response::from_error(id, error)))
    };
    let Ok(text) = std::str::from_utf8(body) else {
        return answer(Id::Null, ErrorCode::ParseError, "the message is not UTF-8".into());
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) if serde_json::from_str::<IgnoredAny>(text).is_ok() => {
            return beyond_values(text, &error)
        }
        Err(error) => {
            return answer(
                Id::Null,
                ErrorCode::ParseError,
                format!("the message is not JSON: {error}"),
            )
        }
    };
    let object = match &value {
        Value::Object(object) => object,
        Value::Array(_) => {
            let why = "a batch is not an LSP message: send one message per frame";
            return answer(Id::Null, ErrorCode::InvalidRequest, why.into());
        }
        _ => {
            let why = "a bare value is not an LSP message: send a JSON-RPC object";
            return answer(Id::Null, ErrorCode::InvalidRequest, why.into());
        }
    };
    // The id to answer with, when the message has a usable one.
    let id = object.get("id").and_then(|id| serde_json::from_value::<Id>(id.clone()).ok());
    let invalid = |why: &str| {
        answer(id.clone().unwrap_or_default(), ErrorCode::InvalidRequest, why.to_string())
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("the message lacks \"jsonrpc\": \"2.0\"");
    }
    match object.get("method") {
        Some(Value::String(method)) => {
            let is_exit = method == "exit" && !object.contains_key("id");
            let is_dollar_request = method.starts_with("$/") && object.contains_key("id");
            if method.starts_with(OURS) && !is_dollar_request {
                return Verdict::Drop;
            }
            let method = method.clone();
            let Ok(request) = serde_json::from_value::<Request>(value) else {
                return invalid("the request's id or params are not valid JSON-RPC");
            };
            if is_dollar_request {
                let error = Error {
                    code: ErrorCode::MethodNotFound,
                    message: format!("unknown request {method}").into(),
                    data: None,
                };
                let id = request.id().cloned().unwrap_or_default();
                Verdict::Answer(encode(&Response::from_error(id, error)))
            } else if is_exit {
                Verdict::Exit(encode(&request))
            } else {
                Verdict::Forward(encode(&raw.divert(request)))
            }
        }
        Some(_) => invalid("the method is not a string"),
        None if object.contains_key("result") || object.contains_key("error") => {
            match serde_json::from_value::<Response>(value) {
                Ok(response) => Verdict::Forward(encode(&response)),
                Err(_) => invalid("the response is not valid JSON-RPC"),
            }
        }
        None => invalid("the message is neither a request, a notification nor a response"),
    }
}

/// The members of a message that say how to refuse it, read without its other members' values:
/// the id, and the method (a string, or any value `M` when the string is what cannot be read).
#[derive(Deserialize)]
struct Envelope<M> {
    #[serde(default, deserialize_with = "present")]
    id: Option<Id>,
    method: Option<M>,
}

/// The verdict on `text`, JSON that does not read into JSON values (`json_limits`): tower-lsp
/// could not read it, so it is an invalid message. A request is answered with an error under
/// its id, a notification ignored with a warning in the client's log, and a response to the
/// server's own request passed on as an error, so that the handler waiting for it goes on.
fn beyond_values(text: &str, error: &serde_json::Error) -> Verdict {
    let why = format!(
        "the message is JSON, but not JSON this server reads ({error}): strings must hold \
         Unicode text, without a lone surrogate escape; nesting at most 128 deep; numbers \
         within 64-bit floating point"
    );
    let error = |message: String| Error {
        code: ErrorCode::InvalidRequest,
        message: message.into(),
        data: None,
    };
    let (id, method) = match serde_json::from_str::<Envelope<String>>(text) {
        Ok(envelope) => (envelope.id, envelope.method.map(Cow::Owned)),
        Err(_) => match serde_json::from_str::<Envelope<IgnoredAny>>(text) {
            Ok(envelope) => {
                (envelope.id, envelope.method.map(|_| Cow::Borrowed("whose method is no text")))
            }
            // Not an object, or an id that cannot be read: nothing to answer under.
            Err(_) => return Verdict::Answer(encode(&Response::from_error(Id::Null, error(why)))),
        },
    };
    match (id, method) {
        (Some(id), Some(method)) => {
            let message = format!("the request {method} is refused: {why}");
            Verdict::Answer(encode(&Response::from_error(id, error(message))))
        }
        (None, Some(method)) => {
            let message = format!("ctlpgn: the notification {method} is ignored: {why}");
            let params = LogMessageParams { typ: MessageType::WARNING, message };
            Verdict::Answer(encode(
                &Request::build("window/logMessage").params(json!(params)).finish(),
            ))
        }
        (Some(id), None) => {
            let message = format!("the client's response is refused: {why}");
            Verdict::Forward(encode(&Response::from_error(id, error(message))))
        }
        (None, None) => Verdict::Answer(encode(&Response::from_error(Id::Null, error(why)))),
    }
}

/// A request or notification with the members of tower-lsp's `Request` and no other, each of
/// the type tower-lsp reads it as: the JSON-RPC version, the method, the parameters (any JSON,
/// checked but not read into values), the id.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainMessage<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    /// Checked as JSON, read only for a `didOpen`: it goes on as written.
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Id>,
}

/// A plain `didOpen` (see [`PlainMessage`]), read at once into its parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainOpening<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    #[serde(borrow)]
    method: Cow<'a, str>,
    params: DidOpenTextDocumentParams,
}

/// How far into a body `opening` looks for the method `didOpen`: clients write the method
/// before the parameters, and a body that does not is read twice (checked, then its
/// parameters read).
const METHOD_WITHIN: usize = 256;

/// The verdict on a plain `didOpen` whose method comes before its text, read in one pass:
/// its text, the largest thing a client sends, is read once in the whole session.
fn opening(body: &[u8], texts: &RawTexts) -> Option<Verdict> {
    let head = &body[..body.len().min(METHOD_WITHIN)];
    memchr::memmem::find(head, raw_texts::DID_OPEN.as_bytes())?;
    let message: PlainOpening<'_> = serde_json::from_slice(body).ok()?;
    (message.jsonrpc == "2.0" && message.method == raw_texts::DID_OPEN)
        .then(|| Verdict::Forward(encode(&texts.divert(message.params))))
}

/// An id that is present, `null` included, as tower-lsp reads it.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Id>, D::Error> {
    Id::deserialize(deserializer).map(Some)
}

/// The verdict on a plain request or notification (see [`PlainMessage`]) that goes on as the
/// client wrote it, byte for byte: tower-lsp reads it exactly as it would read it re-encoded,
/// and re-encoding cost as much as the rest of the transport on a 2 MB document's
/// `didOpen`, whose text was read into a JSON value, written again, and read once more by
/// tower-lsp. A plain `didOpen` whose parameters read goes on diverted, its text kept in
/// `texts`. `None` for every other message, judged by [`judge`] in full: a member out of
/// place, repeated or unknown, and the messages the transport answers, drops, ends the
/// session on (`exit`) or diverts the answer of.
fn as_written(body: &[u8], texts: &RawTexts) -> Option<Verdict> {
    if let Some(diverted) = opening(body, texts) {
        return Some(diverted);
    }
    if !json_limits::within_values(body) {
        return None;
    }
    let message: PlainMessage<'_> = serde_json::from_slice(body).ok()?;
    let method = message.method.as_ref();
    let kept_here = method == "exit"
        || method == raw_answers::TOKENS_FULL
        || method.starts_with(OURS)
        || (method.starts_with("$/") && message.id.is_some());
    if message.jsonrpc != "2.0" || kept_here {
        return None;
    }
    if method == raw_texts::DID_OPEN && message.id.is_none() {
        let params = message.params.and_then(|params| serde_json::from_str(params.get()).ok());
        if let Some(params) = params {
            return Some(Verdict::Forward(encode(&texts.divert(params))));
        }
    }
    Some(Verdict::Forward(body.to_vec()))
}

/// A message as JSON; tower-lsp's types always serialize.
fn encode(message: &impl serde::Serialize) -> Vec<u8> {
    serde_json::to_vec(message).unwrap_or_default()
}

/// A body with its header.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(body);
    frame
}

/// A spawned task that is aborted when this handle is dropped.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Serves the client on `input` and `output` with `tower`, which serves tower-lsp on the
/// in-memory pipe it is given, until the `exit` notification, the end of the input, or the
/// end of the output. `diversions` keeps what goes around tower-lsp: the answers written here
/// and the texts its handlers take back.
pub async fn run<I, O, F>(
    input: I,
    output: O,
    diversions: Diversions,
    tower: impl FnOnce(
        tokio::io::ReadHalf<tokio::io::DuplexStream>,
        tokio::io::WriteHalf<tokio::io::DuplexStream>,
    ) -> F,
) where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
    F: Future<Output = ()> + Send + 'static,
{
    let (ours, theirs) = tokio::io::duplex(PIPE);
    let (tower_input, tower_output) = tokio::io::split(theirs);
    let (from_tower, mut to_tower) = tokio::io::split(ours);
    let _tower = AbortOnDrop(tokio::spawn(tower(tower_input, tower_output)));

    // Every frame for the client goes through `outgoing`, whole (in parts written one after
    // the other), so that two frames never mix.
    let (outgoing, mut to_client) = mpsc::channel::<Vec<Vec<u8>>>(64);
    let tower_frames = outgoing.clone();
    let answers = diversions.answers.clone();
    let _pump = AbortOnDrop(tokio::spawn(async move {
        let mut frames = FrameReader::trusting(from_tower);
        while let Some(Frame::Body(body)) = frames.next().await {
            let parts = answers.answer(&body).unwrap_or_else(|| vec![frame(&body)]);
            if tower_frames.send(parts).await.is_err() {
                return;
            }
        }
    }));
    // The client's messages are queued for tower-lsp without limit, so that reading never
    // waits for tower-lsp and the end of the session is always seen.
    let (forward, mut forwarded) = mpsc::unbounded_channel::<Vec<u8>>();
    let _forwarder = AbortOnDrop(tokio::spawn(async move {
        while let Some(frame) = forwarded.recv().await {
            if to_tower.write_all(&frame).await.is_err() {
                return;
            }
        }
        let _ = to_tower.shutdown().await;
    }));

    let writing = async move {
        tokio::pin!(output);
        while let Some(parts) = to_client.recv().await {
            for part in parts {
                if output.write_all(&part).await.is_err() {
                    return;
                }
            }
            if output.flush().await.is_err() {
                return;
            }
        }
    };
    let reading = async move {
        let mut frames = FrameReader::new(input);
        while let Some(next) = frames.next().await {
            let verdict = match next {
                Frame::Body(body) => {
                    let verdict = judge(&body, &diversions);
                    let is_json = || serde_json::from_slice::<serde::de::IgnoredAny>(&body).is_ok();
                    if matches!(verdict, Verdict::Answer(_)) && !is_json() {
                        frames.put_back_frame_inside(&body);
                    }
                    verdict
                }
                Frame::Malformed(why) => {
                    let error =
                        Error { code: ErrorCode::ParseError, message: why.into(), data: None };
                    Verdict::Answer(encode(&Response::from_error(Id::Null, error)))
                }
            };
            match verdict {
                Verdict::Forward(body) => {
                    if forward.send(frame(&body)).is_err() {
                        return;
                    }
                }
                Verdict::Exit(body) => {
                    let _ = forward.send(frame(&body));
                    return;
                }
                Verdict::Answer(body) => {
                    if outgoing.send(vec![frame(&body)]).await.is_err() {
                        return;
                    }
                }
                Verdict::Drop => {}
            }
        }
    };
    tokio::pin!(writing);
    tokio::select! {
        () = reading => {}
        // The client no longer reads: nothing left to serve.
        () = &mut writing => return,
    }
    // `reading` dropped its senders: tower-lsp sees the end of its input, and `writing` ends
    // once tower-lsp has ended and its last frames are written.
    let _ = tokio::time::timeout(GRACE, writing).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn frames_of(bytes: &[u8]) -> Vec<Frame> {
        let mut reader = FrameReader::new(bytes);
        let mut frames = Vec::new();
        while let Some(frame) = reader.next().await {
            frames.push(frame);
        }
        frames
    }

    #[tokio::test]
    async fn frames_are_read_whatever_precedes_them() {
        let good = frame(b"{}");
        let mut input = b"garbage line\r\n".to_vec();
        input.extend_from_slice(&good);
        input.extend_from_slice(b"Content-Length: x1\r\n\r\n{\"lost\": true}");
        input.extend_from_slice(&good);
        input.extend_from_slice(b"Content-Type: application/json\r\n\r\n{\"no\": \"length\"}");
        input.extend_from_slice(&good);
        input.extend_from_slice(b"Content-Length: 99999999999999999999999\r\n\r\n{}");
        input.extend_from_slice(&good);
        let frames = frames_of(&input).await;
        let bodies = frames.iter().filter(|frame| **frame == Frame::Body(b"{}".to_vec())).count();
        let malformed = frames.iter().filter(|frame| matches!(frame, Frame::Malformed(_))).count();
        assert_eq!((bodies, malformed), (4, 4), "{frames:?}");
    }

    #[tokio::test]
    async fn a_header_without_an_end_is_refused_without_growing() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(&frame(b"{}"));
        let frames = frames_of(&input).await;
        assert_eq!(
            frames,
            [Frame::Malformed("a header block longer than 8 KiB"), Frame::Body(b"{}".to_vec())]
        );
    }

    /// JSON escapes of every kind, a figurine as a surrogate pair, and an accent as is.
    const ESCAPED: &str = r#"[Variant \"C'escacs\"]\r\n1. E7\u2010E13 \u00d7 \ud83e\ude50 \/ é\t"#;

    #[test]
    fn plain_messages_go_on_as_written_and_read_as_when_re_encoded() {
        let (raw, texts) = (RawAnswers::default(), RawTexts::default());
        let plain = [
            format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"file:///a.ctl-pgn","version":2}},"contentChanges":[{{"text":"{ESCAPED}"}}]}}}}"#
            ),
            r#" { "id" : "x\u0041", "params" : [1, 2.5, null, {}], "method": "a/b", "jsonrpc": "2.0" } "#
                .to_string(),
            r#"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#.to_string(),
            r#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4}}"#.to_string(),
        ];
        for body in plain {
            let Some(Verdict::Forward(written)) = as_written(body.as_bytes(), &texts) else {
                panic!("{body} goes on as written")
            };
            assert_eq!(written, body.as_bytes());
            let Verdict::Forward(re_encoded) = judge_in_full(body.as_bytes(), &raw) else {
                panic!("{body} goes on")
            };
            let read = |bytes: &[u8]| serde_json::from_slice::<Request>(bytes).expect("a request");
            assert_eq!(read(&written), read(&re_encoded), "{body}");
        }
        // Judged in full: a member repeated or unknown, a response, an id tower-lsp does not
        // read, and the messages kept here.
        for body in [
            r#"{"jsonrpc":"2.0","method":"a","method":"b"}"#,
            r#"{"jsonrpc":"2.0","method":"a","extra":1}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":null}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            r#"{"jsonrpc":"1.0","method":"x"}"#,
            r#"{"jsonrpc":"2.0","method":"exit"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"$/x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/semanticTokens/full","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"$/ctlpgn/didOpen","params":{"key":1}}"#,
        ] {
            assert!(as_written(body.as_bytes(), &texts).is_none(), "{body}");
        }
    }

    #[test]
    fn the_diverted_messages_go_under_methods_no_client_message_reaches_tower_lsp_under() {
        for method in [raw_answers::DIVERTED_TOKENS_FULL, raw_texts::DIVERTED_DID_OPEN] {
            assert!(method.starts_with(OURS), "{method}");
        }
    }

    #[test]
    fn an_opening_goes_on_without_its_text_which_its_handler_takes_back_as_tower_lsp_reads_it() {
        let document = format!(
            r#"{{"uri":"file:///a.ctl-pgn","languageId":"ctl-pgn","version":1,"text":"{ESCAPED}"}}"#
        );
        let openings = [
            // As clients write it: read in one pass.
            format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{{"textDocument":{document}}}}}"#
            ),
            // The method after the text: checked, then its parameters read.
            format!(
                r#"{{"params":{{"textDocument":{document}}},"jsonrpc":"2.0","method":"textDocument/didOpen"}}"#
            ),
        ];
        for body in openings {
            // What tower-lsp's handler got before: the message re-encoded, read as a request,
            // its parameters read from the JSON value.
            let Verdict::Forward(re_encoded) =
                judge_in_full(body.as_bytes(), &RawAnswers::default())
            else {
                panic!("{body} goes on")
            };
            let request: Request = serde_json::from_slice(&re_encoded).expect("a request");
            let (_, _, params) = request.into_parts();
            let expected: DidOpenTextDocumentParams =
                serde_json::from_value(params.expect("params")).expect("didOpen parameters");
            assert!(expected.text_document.text.contains("C'escacs\"]\r\n1. E7\u{2010}"));

            let texts = RawTexts::default();
            let Some(Verdict::Forward(diverted)) = as_written(body.as_bytes(), &texts) else {
                panic!("{body} goes on diverted")
            };
            let request: Request = serde_json::from_slice(&diverted).expect("a request");
            assert_eq!((request.method(), request.id()), (raw_texts::DIVERTED_DID_OPEN, None));
            let (_, _, params) = request.into_parts();
            let params = serde_json::from_value(params.expect("params")).expect("diverted");
            assert!(diverted.len() < 200, "the text stays behind: {}", diverted.len());
            assert_eq!(texts.take(params), Some(expected));
        }
        // Not plain: judged in full, and read by tower-lsp as before.
        let with_id = r#"{"jsonrpc":"2.0","id":1,"method":"textDocument/didOpen","params":{}}"#;
        let Some(Verdict::Forward(written)) = as_written(with_id.as_bytes(), &RawTexts::default())
        else {
            panic!("goes on")
        };
        assert_eq!(written, with_id.as_bytes());
    }

    #[test]
    fn bodies_are_judged_by_what_they_hold() {
        let code = |body: &[u8]| match judge(body, &Diversions::default()) {
            Verdict::Answer(answer) => {
                let answer: Value = serde_json::from_slice(&answer).expect("JSON");
                (answer["error"]["code"].as_i64(), answer["id"].clone())
            }
            Verdict::Forward(_) => (None, json!("forward")),
            Verdict::Exit(_) => (None, json!("exit")),
            Verdict::Drop => (None, json!("drop")),
        };
        assert_eq!(code(b"{not json"), (Some(-32700), Value::Null));
        assert_eq!(code(b"\"\xff\xfe\""), (Some(-32700), Value::Null));
        assert_eq!(
            code(b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}]"),
            (Some(-32600), Value::Null)
        );
        assert_eq!(code(b"42"), (Some(-32600), Value::Null));
        assert_eq!(code(b"\"hello\""), (Some(-32600), Value::Null));
        assert_eq!(code(b"{\"jsonrpc\":\"2.0\",\"id\":7}"), (Some(-32600), json!(7)));
        assert_eq!(
            code(b"{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"x\"}"),
            (Some(-32600), json!(7))
        );
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}"),
            (Some(-32600), Value::Null)
        );
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"$/foo\"}"),
            (Some(-32601), json!("a"))
        );
        assert_eq!(code(b"{\"jsonrpc\":\"2.0\",\"method\":\"$/foo\"}"), (None, json!("forward")));
        // The methods of the diverted messages are not a client's to send.
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"method\":\"$/ctlpgn/didOpen\",\"params\":{\"key\":1}}"),
            (None, json!("drop"))
        );
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"$/ctlpgn/semanticTokens/full\"}"),
            (Some(-32601), json!(2))
        );
        assert_eq!(code(b"{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"), (None, json!("exit")));
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}"),
            (None, json!("forward"))
        );
        assert_eq!(
            code(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":\"no\"}"),
            (Some(-32600), json!(3))
        );
    }

    #[test]
    fn json_that_does_not_read_into_values_is_an_invalid_message_never_passed_to_tower_lsp() {
        let judged = |body: &str| judge(body.as_bytes(), &Diversions::default());
        let answered = |body: &str| match judged(body) {
            Verdict::Answer(answer) => serde_json::from_slice::<Value>(&answer).expect("JSON"),
            verdict => panic!("{body} is answered, not {verdict:?}"),
        };
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let beyond = [r#""\ud83d""#, r#""\udc00""#, "1e400", deep.as_str()];
        for value in beyond {
            let request =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"a/b","params":[{value}]}}"#);
            let answer = answered(&request);
            assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(9), &json!(-32600)));
            let message = answer["error"]["message"].as_str().expect("a message");
            assert!(message.starts_with("the request a/b is refused: the message is JSON"));

            let notification = format!(r#"{{"jsonrpc":"2.0","method":"a/c","params":[{value}]}}"#);
            let warning = answered(&notification);
            assert_eq!(warning["method"], "window/logMessage");
            assert_eq!(warning["params"]["type"], 2, "a warning");
            let message = warning["params"]["message"].as_str().expect("a message");
            assert!(message.starts_with("ctlpgn: the notification a/c is ignored"), "{message}");

            // A response to the server's own request: an error for the handler waiting on it.
            let response = format!(r#"{{"jsonrpc":"2.0","id":4,"result":[{value}]}}"#);
            let Verdict::Forward(forwarded) = judged(&response) else { panic!("{response}") };
            let forwarded: Response = serde_json::from_slice(&forwarded).expect("a response");
            let (id, result) = forwarded.into_parts();
            assert_eq!(id, Id::Number(4));
            assert_eq!(result.expect_err("an error").code, ErrorCode::InvalidRequest);
        }
        // The method itself, or the id: answered as well as can be.
        let answer = answered(r#"{"jsonrpc":"2.0","id":1,"method":"\ud83d"}"#);
        assert_eq!((&answer["id"], &answer["error"]["code"]), (&json!(1), &json!(-32600)));
        let answer = answered(r#"{"jsonrpc":"2.0","id":"\ud83d","method":"a"}"#);
        assert_eq!((&answer["id"], &answer["error"]["code"]), (&Value::Null, &json!(-32600)));
    }
}
