//! Publishing what a request changed, once it answered with success (`murmur_domain::live`).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use murmur_core::wake::Wake;
use murmur_domain::live::{Change, Live, noting};

/// Where what a request noted goes once it succeeded.
#[derive(Clone)]
pub struct Publishing {
    pub live: Live,
    /// The push job: a new notification or message may have queued pushes (`push::queue`,
    /// `push::queue_message`).
    pub pushes: Wake,
}

/// Middleware of state-changing requests: collects what the request notes, and publishes it when
/// the answer is a success (its transaction committed).
pub async fn publish_noted(State(publishing): State<Publishing>, request: Request, next: Next) -> Response {
    let (response, noted) = noting(next.run(request)).await;
    if response.status().is_success() {
        // A new notification or message may have queued pushes.
        if noted.iter().any(|change| matches!(change, Change::Notified { new: true, .. } | Change::Messaged { .. })) {
            publishing.pushes.wake();
        }
        for change in noted {
            publishing.live.publish(change);
        }
    }
    response
}
