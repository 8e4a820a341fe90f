//! Facts about HTTP requests that several parts of the server read: which methods change
//! nothing, which paths are the Mastodon API's, and how often a stream shows it is alive.

use std::time::Duration;

use axum::http::Method;

/// Whether a request of this method changes nothing (it may be served by a replica, and needs
/// no cross-site check).
pub fn is_safe_method(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Whether a path is the Mastodon API's (bearer tokens only; no cookie is read).
pub fn is_mastodon_path(path: &str) -> bool {
    ["/api/v1/", "/api/v2/", "/oauth/token", "/oauth/revoke", "/.well-known/", "/nodeinfo/"]
        .iter()
        .any(|prefix| path.starts_with(prefix))
}

/// How often an open stream (Murmur's live events, the Mastodon streaming API) sends something,
/// so proxies and browsers keep it open.
pub const HEARTBEAT: Duration = Duration::from_secs(25);
