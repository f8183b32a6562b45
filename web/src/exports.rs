//! The session handed to JavaScript in the wasm32 build, as five plain functions: no glue
//! generator, JSON in and out through the module's memory. JavaScript allocates a buffer
//! (`ctlpgn_alloc`), writes a request into it, calls `ctlpgn_call` (or `ctlpgn_open_bytes` and
//! `ctlpgn_check_bytes` with a file's bytes), which takes the buffer and answers a pointer and a
//! length packed in one `u64` (pointer in the high half); JavaScript reads the answer and frees
//! it (`ctlpgn_free`).
//!
//! Beside it, the language server (`ctlpgn_protocol::session::Session`) for a worker that only
//! passes messages through: `ctlpgn_lsp` takes one JSON-RPC message and answers the JSON array
//! of the messages to send back; `ctlpgn_lsp_settle`, called when a pause after the last change
//! ends, answers the diagnostics a large record's change left waiting.
//!
//! A panic aborts the module (wasm32's panics do not unwind): the page's glue
//! (web/js/core.js) then loads a new instance and opens its documents again.

// Exported functions need `#[no_mangle]`, and memory handed over by JavaScript is taken back
// by pointer: the only unsafe code of the project, confined to this file.
#![allow(unsafe_code)]

use std::cell::RefCell;

use crate::Session;

thread_local! {
    /// Borrowed for one exported call at a time: nothing inside a call calls back into
    /// JavaScript, so no second call can start while it is borrowed.
    static SESSION: RefCell<Session> = RefCell::new(Session::new());
    /// The language server, borrowed as `SESSION` is.
    static LSP: RefCell<ctlpgn_protocol::session::Session> =
        RefCell::new(ctlpgn_protocol::session::Session::new());
}

/// A buffer of `length` bytes for JavaScript to write a request into.
#[no_mangle]
pub extern "C" fn ctlpgn_alloc(length: usize) -> *mut u8 {
    let mut buffer = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(length));
    buffer.as_mut_ptr()
}

/// Frees a buffer of `length` bytes from `ctlpgn_alloc` or an answer.
///
/// # Safety
/// `pointer` and `length` are those of a buffer this module handed out and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn ctlpgn_free(pointer: *mut u8, length: usize) {
    drop(unsafe { Vec::from_raw_parts(pointer, 0, length) });
}

/// Answers the JSON request in the buffer (`Session::call`), which it frees.
///
/// # Safety
/// `pointer` is a buffer of `length` bytes from `ctlpgn_alloc`, all written.
#[no_mangle]
pub unsafe extern "C" fn ctlpgn_call(pointer: *mut u8, length: usize) -> u64 {
    let request = unsafe { Vec::from_raw_parts(pointer, length, length) };
    let answer = match std::str::from_utf8(&request) {
        Ok(request) => SESSION.with(|session| session.borrow_mut().call(request)),
        Err(_) => r#"{"error":{"code":"invalid-request","message":"a request is UTF-8"}}"#.into(),
    };
    hand_over(answer)
}

/// Opens a document from a file's bytes (`Session::open_bytes`), and frees the buffer.
///
/// # Safety
/// As `ctlpgn_call`.
#[no_mangle]
pub unsafe extern "C" fn ctlpgn_open_bytes(pointer: *mut u8, length: usize) -> u64 {
    let bytes = unsafe { Vec::from_raw_parts(pointer, length, length) };
    hand_over(SESSION.with(|session| session.borrow_mut().open_bytes(&bytes)))
}

/// Checks a file's bytes as `ctlpgn check` does (`Session::check_bytes`; `rules` not 0: as
/// `--rules`), and frees the buffer.
///
/// # Safety
/// As `ctlpgn_call`.
#[no_mangle]
pub unsafe extern "C" fn ctlpgn_check_bytes(pointer: *mut u8, length: usize, rules: u32) -> u64 {
    let bytes = unsafe { Vec::from_raw_parts(pointer, length, length) };
    hand_over(Session::check_bytes(&bytes, rules != 0))
}

/// The messages to send for the JSON-RPC message in the buffer, which it frees: a JSON array.
///
/// # Safety
/// As `ctlpgn_call`.
#[no_mangle]
pub unsafe extern "C" fn ctlpgn_lsp(pointer: *mut u8, length: usize) -> u64 {
    let message = unsafe { Vec::from_raw_parts(pointer, length, length) };
    let messages = LSP.with(|session| session.borrow_mut().handle_json(&message));
    hand_over(serde_json::Value::Array(messages).to_string())
}

/// The diagnostics of the documents whose records waited for a pause, as `ctlpgn_lsp` answers.
#[no_mangle]
pub extern "C" fn ctlpgn_lsp_settle() -> u64 {
    let messages = LSP.with(|session| session.borrow_mut().settle());
    hand_over(serde_json::Value::Array(messages).to_string())
}

/// An answer left in memory for JavaScript: its pointer and length in one value.
fn hand_over(answer: String) -> u64 {
    let answer = std::mem::ManuallyDrop::new(answer.into_bytes().into_boxed_slice());
    ((answer.as_ptr() as u64) << 32) | answer.len() as u64
}
