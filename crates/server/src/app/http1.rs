//! The accept loop: every connection is served by hyper's HTTP/1 server alone.
//!
//! Not `axum::serve`: its connections sniff for HTTP/2 first (hyper-util's `auto` builder), and
//! that machinery stays with every idle connection. An open live event stream is an idle
//! connection, and an instance holds one per open tab, so the per-connection cost is the
//! server's memory (docs/live.md). Murmur is reached over HTTP/1.1: by browsers on plain
//! HTTP, and through a TLS proxy that speaks HTTP/1.1 to it (deploy/).

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// A client that has not sent a whole request head by then is disconnected.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `app` on `listener` until `shutdown` completes, then waits for the connections'
/// in-flight requests to finish.
pub async fn serve(listener: TcpListener, app: Router, shutdown: impl Future<Output = ()>) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(HEADER_READ_TIMEOUT);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        // What `into_make_service_with_connect_info` gave every request: the TCP peer.
        let service = app.clone().map_request(move |mut request: axum::extract::Request<_>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            request
        });
        let connection = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        tokio::spawn(graceful.watch(connection));
    }
    drop(listener);
    graceful.shutdown().await;
}
