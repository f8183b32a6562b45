//! The language server: LSP over stdio on tower-lsp-server; decodes requests, calls the core, encodes results.
//!
//! Only this folder knows the protocol. `transport` reads the client's frames and passes the
//! valid ones to tower-lsp, `panics` turns a handler's panic into an error answer: the server
//! outlives malformed input, its own bugs and a client that stops answering. The core works
//! in bytes; `encoding` holds what was negotiated with the client at `initialize`, and
//! `from_proto` and `to_proto` turn positions in the negotiated encoding into bytes and back,
//! and the `ide` layer's values into the protocol's; `documents` keeps the open documents
//! (`ctlpgn_core::document`) by URI and applies the client's changes; `server` holds the handlers,
//! which decode, call `ctlpgn_core::ide` and encode.

mod board;
mod by_name;
mod capabilities;
mod code_actions;
mod commands;
mod documents;
mod encoding;
mod formatting;
mod from_proto;
mod json_limits;
mod memory;
mod panics;
mod play;
mod raw_answers;
mod raw_texts;
mod semantic_tokens;
mod sent_capabilities;
mod server;
mod settings;
mod structure;
mod to_proto;
mod transport;
mod workspace;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::lsp_types::SemanticTokensParams;
use tower_lsp_server::LspService;

/// Serves the protocol on standard input and output until the client exits; returns the exit
/// status: 0 when the client asked for a shutdown first, 1 otherwise (as LSP says), 2 when no
/// runtime could be started.
pub fn run_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            // Not `eprintln!`, which panics when standard error is closed or full: a failure
            // to say it is ignored, the exit status still tells.
            let _ =
                writeln!(std::io::stderr(), "ctlpgn lsp: cannot start the async runtime: {error}");
            return 2;
        }
    };
    let shut_down = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // Neither a handler still at work on the blocking pool nor the thread blocked reading
    // standard input may hold up the exit.
    runtime.shutdown_background();
    if shut_down {
        0
    } else {
        1
    }
}

/// Serves the protocol on any pair of streams (standard input and output, or the in-process
/// pipes of the tests) until the client exits or closes `input`; returns whether the client
/// asked for a shutdown before leaving. It returns promptly whatever the server still waits
/// for (see `transport`).
pub async fn serve(input: impl AsyncRead + Unpin, output: impl AsyncWrite) -> bool {
    let shut_down = Arc::new(AtomicBool::new(false));
    let flag = shut_down.clone();
    let diversions = transport::Diversions::default();
    let (kept, texts) = (diversions.answers.clone(), diversions.texts.clone());
    let sent = diversions.capabilities.clone();
    let (service, socket) =
        LspService::build(move |client| server::Server::new(client, flag, sent.clone()))
            .custom_method("ctlpgn/board", server::Server::board)
            .custom_method("ctlpgn/play", server::Server::play)
            .custom_method(
                raw_answers::DIVERTED_TOKENS_FULL,
                move |server: &server::Server,
                      params: raw_answers::Diverted<SemanticTokensParams>| {
                    let (server, kept) = (server.clone(), kept.clone());
                    async move {
                        let tokens = server.semantic_tokens_full_data(params.params).await;
                        let json =
                            tokio::task::spawn_blocking(|| raw_answers::tokens_result(tokens));
                        if let Some(json) = panics::resume(json.await) {
                            kept.keep(params.key, json);
                        }
                        Ok::<_, tower_lsp_server::jsonrpc::Error>(params.key)
                    }
                },
            )
            .custom_method(
                raw_texts::DIVERTED_DID_OPEN,
                move |server: &server::Server, params: raw_answers::Diverted<_>| {
                    let params = texts.take(params);
                    let server = server.clone();
                    async move {
                        if let Some(params) = params {
                            tower_lsp_server::LanguageServer::did_open(&server, params).await;
                        }
                    }
                },
            )
            .finish();
    let client = service.inner().client();
    let service = panics::CatchPanics::new(service, client);
    transport::run(input, output, diversions, move |tower_input, tower_output| {
        tower_lsp_server::Server::new(tower_input, tower_output, socket).serve(service)
    })
    .await;
    shut_down.load(Ordering::SeqCst)
}
