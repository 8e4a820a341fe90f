//! The thread that serves requests that change something.

use std::sync::Arc;

use axum::Router;
use axum::response::IntoResponse;

use crate::error::{ApiError, Error};

/// Requests that change something are handled on a thread of their own, with its own
/// single-threaded runtime; reads stay on the main runtime's workers.
///
/// Why: SQLite has one writer, and a write transaction holds it across every statement's round
/// trip to the connection's worker thread (BEGIN, the statements, COMMIT). On the shared
/// runtime each trip's continuation waits in line behind every ready read, so under load a
/// write holds the writer several times longer than its work takes and every other write
/// queues behind it (docs/performance.md). Here the writes' continuations run as soon as
/// their answer arrives. The handler runs to completion even if the client goes away, so a
/// write is never cut off between statements.
#[derive(Clone)]
pub struct WriteThread {
    handle: tokio::runtime::Handle,
    /// The routes, as the write thread serves them.
    routes: Router,
    _stop: Arc<StopOnDrop>,
}

/// Ends the write thread's runtime when the last router holding it is dropped.
struct StopOnDrop(std::sync::Mutex<Option<tokio::sync::oneshot::Sender<()>>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = self.0.lock().ok().and_then(|mut s| s.take()) {
            let _ = stop.send(());
        }
    }
}

impl WriteThread {
    pub fn start(routes: Router) -> std::io::Result<WriteThread> {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new().name("murmur-writes".into()).spawn(move || {
            runtime.block_on(async {
                let _ = stopped.await;
            });
        })?;
        Ok(WriteThread { handle, routes, _stop: Arc::new(StopOnDrop(std::sync::Mutex::new(Some(stop)))) })
    }

    /// Serves a request with the write thread's routes, on the write thread.
    pub async fn call(self, request: axum::extract::Request) -> axum::response::Response {
        match self.handle.spawn(tower::ServiceExt::oneshot(self.routes, request)).await {
            Ok(Ok(response)) => response,
            Ok(Err(infallible)) => match infallible {},
            Err(error) => {
                tracing::error!(%error, "a write's handler did not finish");
                ApiError(Error::Internal(anyhow::anyhow!("write handler failed"))).into_response()
            }
        }
    }
}
