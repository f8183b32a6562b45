//! Answers too large for tower-lsp's JSON values, which the transport writes itself: the full
//! semantic tokens of a document.
//!
//! tower-lsp turns every result into a `serde_json::Value` before writing it: about 160 bytes
//! per token for the five numbers the token is, so that a 52 MB document's tokens took 3 GB.
//! The request still goes through tower-lsp, under a `$/` method of our own that no client can
//! send (`transport` answers a client's `$/` requests itself), so that it keeps everything
//! tower-lsp gives a request: its place in the order of the messages, `$/cancelRequest`, and
//! `panics::CatchPanics`. Only the result takes another way: the handler writes it as JSON
//! here, under a key the diverted request carries, and answers tower-lsp with the key alone;
//! when that small answer comes out of tower-lsp, the transport writes the JSON kept under the
//! key in its place, byte for byte what tower-lsp would have written. An error answer (a
//! cancellation, a panic, invalid parameters) goes to the client as tower-lsp wrote it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Id, Request, Response};
use tower_lsp_server::lsp_types::SemanticToken;

use ctlpgn_core::parallel;

/// The request whose answer is written here.
pub const TOKENS_FULL: &str = "textDocument/semanticTokens/full";
/// The method `TOKENS_FULL` is passed to tower-lsp under.
pub const DIVERTED_TOKENS_FULL: &str = "$/ctlpgn/semanticTokens/full";
/// The longest answer of tower-lsp's that can be the key of a diverted request: the others
/// are not even parsed.
const LONGEST_KEY_ANSWER: usize = 256;

/// The parameters of a diverted request: the client's, and the key its result is kept under.
#[derive(Debug, Deserialize, Serialize)]
pub struct Diverted<P> {
    pub key: u64,
    pub params: P,
}

/// The method a client sent, for the messages about a request: the client's name of a
/// diverted one.
pub fn client_method(method: &str) -> &str {
    if method == DIVERTED_TOKENS_FULL {
        TOKENS_FULL
    } else {
        method
    }
}

/// The results of the diverted requests of one session, from their diversion to their answer.
#[derive(Debug, Default)]
pub struct RawAnswers {
    last_key: AtomicU64,
    /// The key of each diverted request not yet answered, by request id.
    waiting: Mutex<HashMap<Id, u64>>,
    /// The results kept by the handlers, as JSON, by key.
    results: Mutex<HashMap<u64, Vec<u8>>>,
}

impl RawAnswers {
    /// The request to pass to tower-lsp for a client's `request`: the request itself, or the
    /// diverted one for a request whose answer is written here.
    pub fn divert(&self, request: Request) -> Request {
        if request.method() != TOKENS_FULL {
            return request;
        }
        let Some(id) = request.id().cloned() else {
            return request;
        };
        let (_, _, params) = request.into_parts();
        let key = self.last_key.fetch_add(1, Ordering::Relaxed) + 1;
        let params = Diverted { key, params: params.unwrap_or(Value::Null) };
        let params = serde_json::to_value(params).unwrap_or_default();
        lock(&self.waiting).insert(id.clone(), key);
        Request::build(DIVERTED_TOKENS_FULL).id(id).params(params).finish()
    }

    /// Keeps a diverted request's result (JSON) under its key, for its answer.
    pub fn keep(&self, key: u64, result: Vec<u8>) {
        lock(&self.results).insert(key, result);
    }

    /// The parts of the frame to send the client instead of tower-lsp's message `body`, when
    /// `body` answers a diverted request with the key of a result kept here; `None` for any
    /// other message, which goes to the client as it is.
    pub fn answer(&self, body: &[u8]) -> Option<Vec<Vec<u8>>> {
        if body.len() > LONGEST_KEY_ANSWER || lock(&self.waiting).is_empty() {
            return None;
        }
        let response: Response = serde_json::from_slice(body).ok()?;
        let (id, answer) = response.into_parts();
        let key = lock(&self.waiting).remove(&id)?;
        let result = lock(&self.results).remove(&key);
        answer.ok()?;
        let result = result?;
        // tower-lsp's own layout of a response (`jsonrpc::Response` serialized).
        let start = br#"{"jsonrpc":"2.0","result":"#.to_vec();
        let mut end = br#","id":"#.to_vec();
        serde_json::to_writer(&mut end, &id).ok()?;
        end.push(b'}');
        let length = start.len() + result.len() + end.len();
        let header = format!("Content-Length: {length}\r\n\r\n").into_bytes();
        Some(vec![header, start, result, end])
    }
}

/// The result of `textDocument/semanticTokens/full`, as JSON, written straight from the tokens:
/// `null` for a document that is not open. Written by hand, as serde would write the
/// `SemanticTokensResult` (a test compares the two): a 2 MB document has 3.5 million numbers,
/// and serde's sequence of them took as long as working the tokens out. Runs of tokens are
/// written on every core and joined.
pub fn tokens_result(tokens: Option<Vec<SemanticToken>>) -> Vec<u8> {
    let Some(tokens) = tokens else { return b"null".to_vec() };
    let runs: Vec<&[SemanticToken]> = tokens.chunks(TOKENS_A_RUN).collect();
    let written = parallel::map_chunks(&runs, |runs| runs.iter().map(|run| numbers(run)).collect());
    let mut json = Vec::with_capacity(16 + written.iter().map(Vec::len).sum::<usize>());
    json.extend_from_slice(br#"{"data":["#);
    for run in &written {
        json.extend_from_slice(run);
    }
    // Every number was followed by a comma: the last one is not.
    if json.last() == Some(&b',') {
        json.pop();
    }
    json.extend_from_slice(b"]}");
    json
}

/// Tokens written as one piece of work: tens of kilobytes of JSON, so that a small document's
/// tokens are written on the calling thread and a large one's shared out.
const TOKENS_A_RUN: usize = 4096;

/// The five numbers of each token, each followed by a comma. Most are below 100 (deltas,
/// lengths, types): those are written digit by digit, the others by `itoa`.
fn numbers(tokens: &[SemanticToken]) -> Vec<u8> {
    // About 12 bytes a token in practice.
    let mut json = Vec::with_capacity(tokens.len() * 16);
    let mut digits = itoa::Buffer::new();
    for token in tokens {
        let numbers = [
            token.delta_line,
            token.delta_start,
            token.length,
            token.token_type,
            token.token_modifiers_bitset,
        ];
        for number in numbers {
            match u8::try_from(number) {
                Ok(small @ 0..=9) => json.push(b'0' + small),
                Ok(small @ 10..=99) => {
                    json.extend_from_slice(&[b'0' + small / 10, b'0' + small % 10])
                }
                _ => json.extend_from_slice(digits.format(number).as_bytes()),
            }
            json.push(b',');
        }
    }
    json
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use tower_lsp_server::lsp_types::{SemanticTokens, SemanticTokensResult};

    use super::*;

    fn token(delta_line: u32, delta_start: u32, length: u32) -> SemanticToken {
        SemanticToken { delta_line, delta_start, length, token_type: 3, token_modifiers_bitset: 1 }
    }

    /// What tower-lsp writes for a request's result.
    fn tower_body(id: Id, result: &impl Serialize) -> Vec<u8> {
        let result = serde_json::to_value(result).expect("a value");
        serde_json::to_vec(&Response::from_ok(id, result)).expect("JSON")
    }

    #[test]
    fn a_diverted_answer_is_byte_for_byte_what_tower_lsp_writes() {
        let tokens = vec![token(0, 0, 2), token(1, 4, 10), token(0, 3, u32::MAX)];
        let expected =
            SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data: tokens.clone() });
        for (id, tokens, expected) in [
            (Id::Number(7), Some(tokens.clone()), Some(expected.clone())),
            (Id::String("a\"b".into()), Some(tokens), Some(expected)),
            (Id::Number(8), None, None),
        ] {
            let answers = RawAnswers::default();
            let request = Request::build(TOKENS_FULL)
                .id(id.clone())
                .params(json!({"textDocument": {"uri": "file:///a.ctl-pgn"}}))
                .finish();
            let diverted = answers.divert(request);
            assert_eq!(diverted.method(), DIVERTED_TOKENS_FULL);
            assert_eq!(diverted.id(), Some(&id));
            let (_, _, params) = diverted.into_parts();
            let params: Diverted<Value> =
                serde_json::from_value(params.expect("params")).expect("diverted params");
            assert_eq!(params.params, json!({"textDocument": {"uri": "file:///a.ctl-pgn"}}));
            answers.keep(params.key, tokens_result(tokens));
            let parts = answers.answer(&tower_body(id.clone(), &params.key)).expect("diverted");
            assert_eq!(parts.concat(), crate::lsp::transport::frame(&tower_body(id, &expected)));
            assert!(lock(&answers.waiting).is_empty() && lock(&answers.results).is_empty());
        }
    }

    #[test]
    fn the_tokens_are_written_as_serde_writes_them() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Small numbers mostly, as tokens are, and now and then the largest ones.
            let n = seed as u32;
            if n.is_multiple_of(7) {
                n
            } else {
                n % 1000
            }
        };
        // Runs written on every core, and joined, too.
        for count in [0, 1, 2, 1000, 20 * TOKENS_A_RUN + 3] {
            let tokens: Vec<SemanticToken> = (0..count)
                .map(|_| SemanticToken {
                    delta_line: next(),
                    delta_start: next(),
                    length: next(),
                    token_type: next(),
                    token_modifiers_bitset: next(),
                })
                .collect();
            let result = SemanticTokensResult::Tokens(SemanticTokens {
                result_id: None,
                data: tokens.clone(),
            });
            let serde = serde_json::to_vec(&Some(result)).expect("JSON");
            assert_eq!(
                String::from_utf8_lossy(&tokens_result(Some(tokens))),
                String::from_utf8_lossy(&serde)
            );
        }
        let none: Option<SemanticTokensResult> = None;
        assert_eq!(tokens_result(None), serde_json::to_vec(&none).expect("JSON"));
    }

    #[test]
    fn other_messages_and_error_answers_pass_unchanged() {
        let answers = RawAnswers::default();
        let other = Request::build("textDocument/hover").id(1).finish();
        assert_eq!(answers.divert(other.clone()), other);
        let notification = Request::build(TOKENS_FULL).finish();
        assert_eq!(answers.divert(notification.clone()), notification);
        assert_eq!(answers.answer(&tower_body(Id::Number(1), &1)), None);

        let diverted = answers.divert(Request::build(TOKENS_FULL).id(2).finish());
        let (_, _, params) = diverted.into_parts();
        let key = params.expect("params")["key"].as_u64().expect("a key");
        answers.keep(key, b"null".to_vec());
        let cancelled = Response::from_error(
            Id::Number(2),
            tower_lsp_server::jsonrpc::Error::request_cancelled(),
        );
        let cancelled = serde_json::to_vec(&cancelled).expect("JSON");
        assert_eq!(answers.answer(&cancelled), None, "the error goes through");
        assert!(lock(&answers.waiting).is_empty() && lock(&answers.results).is_empty());
        assert_eq!(client_method(DIVERTED_TOKENS_FULL), TOKENS_FULL);
        assert_eq!(client_method("textDocument/hover"), "textDocument/hover");
    }
}
