//! The errors a request is answered with, as JSON-RPC writes them: a code the client can act
//! on and a message for a person. Each transport writes them in its own frames.

use std::fmt;

/// JSON-RPC's code for parameters the method cannot take.
pub const INVALID_PARAMS: i64 = -32602;

/// LSP's code for an answer about a version of a document that is no longer the current one.
pub const CONTENT_MODIFIED: i64 = -32801;

/// A request refused: its code and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResponseError {
    pub code: i64,
    pub message: String,
}

impl ResponseError {
    /// The parameters are not ones the method can take.
    pub fn invalid_params(message: impl Into<String>) -> ResponseError {
        ResponseError { code: INVALID_PARAMS, message: message.into() }
    }

    /// The request was about a version of the document that is gone.
    pub fn content_modified(message: impl Into<String>) -> ResponseError {
        ResponseError { code: CONTENT_MODIFIED, message: message.into() }
    }
}

impl fmt::Display for ResponseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}
