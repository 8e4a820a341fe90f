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
    // Each connection ends gracefully when this says stop (hyper-util's `GracefulShutdown` does
    // not take connections that can be upgraded, as the streaming WebSocket's are).
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
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
        // With upgrades: the Mastodon API's streaming WebSocket.
        let connection = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)).with_upgrades();
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = stop.send(true);
    while connections.join_next().await.is_some() {}
}
