//! The language server's native transport: LSP over stdio on tower-lsp-server and tokio.
//!
//! What the protocol says (the negotiated encoding, the settings, the open documents and every
//! answer) is the protocol layer's, the `ctlpgn-protocol` crate, which does no IO; this folder
//! reads and writes the client's frames and schedules the work. `transport` reads the frames
//! and passes the valid ones to tower-lsp, `panics` turns a handler's panic into an error
//! answer: the server outlives malformed input, its own bugs and a client that stops
//! answering. `server` holds the handlers, which hand each message to the protocol layer (on
//! the blocking pool for the long ones, after a pause for a large record); `workspace` reads
//! the record files under the workspace folders, and `paths` the files URIs name.

mod json_limits;
mod memory;
mod panics;
mod paths;
mod raw_answers;
mod raw_texts;
mod sent_capabilities;
mod server;
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
            .custom_method("ctlpgn/lines", server::Server::lines)
            .custom_method("ctlpgn/checkText", server::Server::check_text)
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
