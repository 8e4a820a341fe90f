//! Publishing what a request changed, once it answered with success (`murmur_domain::live`).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use murmur_domain::live::{Live, noting};

/// Middleware of state-changing requests: collects what the request notes, and publishes it when
/// the answer is a success (its transaction committed).
pub async fn publish_noted(State(live): State<Live>, request: Request, next: Next) -> Response {
    let (response, noted) = noting(next.run(request)).await;
    if response.status().is_success() {
        for change in noted {
            live.publish(change);
        }
    }
    response
}
