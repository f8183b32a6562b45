//! A panic in the work of one message ends that message, not the session: every message goes
//! to the server through `CatchPanics`, which answers a request whose handler panicked with an
//! internal error (-32603) naming the request, and tells the client what panicked in a
//! `window/logMessage`. A panic is a bug; the editor's session must outlive it.
//!
//! Work that a handler runs on the blocking pool comes back to it as a `JoinError`; the
//! handler resumes the panic there (`resume`), so that it meets the same fate. The panic hook
//! is Rust's default one, which writes to standard error: standard output is the protocol's.

use std::any::Any;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use tower_lsp_server::jsonrpc::{Error, ErrorCode, Request, Response};
use tower_lsp_server::lsp_types::MessageType;
use tower_lsp_server::Client;
use tower_service::Service;

/// Runs `work`; a panic becomes its message.
pub fn catch<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|payload| message(payload.as_ref()))
}

/// The message a panic was raised with.
pub fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(message) = payload.downcast_ref::<&str>() {
        (*message).to_string()
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The result of work run on the blocking pool: its value, or `None` when it was cancelled.
/// A panic of the work goes on in the caller, where `CatchPanics` turns it into an answer.
pub fn resume<T>(joined: Result<T, tokio::task::JoinError>) -> Option<T> {
    match joined {
        Ok(value) => Some(value),
        Err(error) if error.is_panic() => std::panic::resume_unwind(error.into_panic()),
        Err(_) => None,
    }
}

/// The error a request whose handler panicked is answered with.
pub fn internal_error(method: &str, panic: &str) -> Error {
    Error {
        code: ErrorCode::InternalError,
        message: format!("ctlpgn failed on {method}: {panic}").into(),
        data: None,
    }
}

/// A service that passes every message to `inner` and turns a panic of its handler into an
/// answer and a logged error.
#[derive(Debug)]
pub struct CatchPanics<S> {
    inner: S,
    client: Client,
}

impl<S> CatchPanics<S> {
    /// `client` is where panics are logged.
    pub fn new(inner: S, client: Client) -> CatchPanics<S> {
        CatchPanics { inner, client }
    }
}

type Answer<E> = Pin<Box<dyn Future<Output = Result<Option<Response>, E>> + Send>>;

impl<S> Service<Request> for CatchPanics<S>
where
    S: Service<Request, Response = Option<Response>>,
    S::Future: Unpin + Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future = Answer<S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Answer<S::Error> {
        let method = super::raw_answers::client_method(request.method()).to_string();
        let id = request.id().cloned();
        let client = self.client.clone();
        let handling = catch(|| self.inner.call(request));
        Box::pin(async move {
            let handled = match handling {
                Ok(handling) => Caught(handling).await,
                Err(panic) => Err(panic),
            };
            match handled {
                Ok(answer) => answer,
                Err(panic) => {
                    let logged = format!("ctlpgn: {method} panicked: {panic}");
                    client.log_message(MessageType::ERROR, logged).await;
                    Ok(id.map(|id| Response::from_error(id, internal_error(&method, &panic))))
                }
            }
        })
    }
}

/// A future whose panic, in any poll, becomes its output's error.
struct Caught<F>(F);

impl<F: Future + Unpin> Future for Caught<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.0;
        match catch(|| Pin::new(inner).poll(cx)) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::future::{ready, Ready};

    use tower_lsp_server::jsonrpc::Id;
    use tower_lsp_server::LspService;

    use super::*;

    #[test]
    fn a_panic_is_caught_with_its_message() {
        assert_eq!(catch(|| 2 + 2), Ok(4));
        assert_eq!(catch(|| -> u8 { panic!("the record broke") }), Err("the record broke".into()));
        let number = 7;
        assert_eq!(
            catch(|| -> u8 { panic!("record {number} broke") }),
            Err("record 7 broke".into())
        );
    }

    /// A service whose every handler panics, while polled or while called.
    struct Panicking {
        in_call: bool,
    }

    impl Service<Request> for Panicking {
        type Response = Option<Response>;
        type Error = std::convert::Infallible;
        type Future = Pin<Box<dyn Future<Output = Result<Option<Response>, Self::Error>> + Send>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, request: Request) -> Self::Future {
            assert!(!self.in_call, "{} panicked in call", request.method());
            Box::pin(async move {
                let ready: Ready<()> = ready(());
                ready.await;
                panic!("{} panicked while polled", request.method())
            })
        }
    }

    /// A service whose handlers panic, logging to a client of its own. Its socket is kept
    /// and never read: the one message logged fits in the socket's buffer.
    fn panicking(in_call: bool) -> (CatchPanics<Panicking>, tower_lsp_server::ClientSocket) {
        let (service, socket) = LspService::new(|client| {
            crate::lsp::server::Server::new(client, Default::default(), Default::default())
        });
        (CatchPanics::new(Panicking { in_call }, service.inner().client()), socket)
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_an_internal_error_naming_the_request() {
        for in_call in [false, true] {
            let (mut service, _socket) = panicking(in_call);
            let request = Request::build("textDocument/codeAction").id(4).finish();
            let answer = service.call(request).await.expect("an answer").expect("a response");
            assert_eq!(answer.id(), &Id::Number(4));
            let error = answer.error().expect("an error");
            assert_eq!(error.code, ErrorCode::InternalError);
            assert!(error.message.contains("textDocument/codeAction"), "{}", error.message);
            assert!(error.message.contains("panicked"), "{}", error.message);
        }
        let (mut service, _socket) = panicking(false);
        let notification = Request::build("textDocument/didChange").finish();
        assert_eq!(service.call(notification).await.expect("no error"), None);
    }

    #[test]
    fn a_blocking_task_resumes_its_panic_in_the_caller() {
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        let joined = runtime
            .block_on(async { tokio::task::spawn_blocking(|| -> u8 { panic!("deep") }).await });
        assert_eq!(catch(|| resume(joined)), Err("deep".into()));
        let joined = runtime.block_on(async { tokio::task::spawn_blocking(|| 5).await });
        assert_eq!(resume(joined), Some(5));
    }
}
