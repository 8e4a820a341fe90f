//! The Mastodon client API: a second interface over the same product, so the apps of that
//! ecosystem (Ivory, Ice Cubes, Tusky, Elk, Phanpy, `toot`, …) work with Murmur. Each handler
//! parses Mastodon's request, calls the same area function as Murmur's own API, and answers
//! Mastodon's entities (`entities`). docs/mastodon-api.md lists what maps to what.
//!
//! These routes read the member from a bearer token only (`auth`), never from the session
//! cookie, so they can answer CORS `*` for browser-based apps without a cross-site hole, and the
//! cross-site guard (`security::guard`) lets them through (`http::is_mastodon_path`).

mod accounts;
mod auth;
mod conversations;
mod discovery;
mod entities;
mod error;
mod instance;
mod lists;
mod media;
mod names;
mod notifications;
mod oauth;
mod paging;
mod params;
pub mod push;
mod safety;
mod statuses;
mod streaming;
mod timelines;

use axum::Router;
use axum::http::{HeaderValue, Method, header};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

use crate::http::is_mastodon_path;
use crate::state::AppState;
pub use error::MastodonError;

/// Every Mastodon route, with CORS for any origin (no credentials: bearer tokens only).
pub fn router() -> Router<AppState> {
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::any())
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE])
        .allow_headers(AllowHeaders::list([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::HeaderName::from_static("idempotency-key"),
        ]))
        .expose_headers([header::LINK, header::HeaderName::from_static("x-request-id")])
        .max_age(std::time::Duration::from_secs(3600));
    Router::new()
        .merge(oauth::router())
        .merge(instance::router())
        .merge(accounts::router())
        .merge(statuses::router())
        .merge(conversations::router())
        .merge(timelines::router())
        .merge(lists::router())
        .merge(notifications::router())
        .merge(discovery::router())
        .merge(safety::router())
        .merge(streaming::router())
        .merge(media::router())
        .merge(push::router())
        .route("/api/v1/{*rest}", axum::routing::any(not_found))
        .route("/api/v2/{*rest}", axum::routing::any(not_found))
        .layer(cors)
        .layer(axum::middleware::map_response(no_store))
}

/// Whether a path with a trailing slash is taken as the path without: every API and OAuth path
/// (`toot` opens `/oauth/authorize/?…`, other apps call `/api/v1/instance/`), as Mastodon takes them.
fn takes_trailing_slash(path: &str) -> bool {
    is_mastodon_path(path) || path.starts_with("/api/") || path.starts_with("/oauth/")
}

/// A path of the API or of OAuth with a trailing slash is taken without it, before routing (the
/// web app does the same with its address for `/oauth/authorize/`).
pub async fn without_trailing_slash(mut request: axum::extract::Request) -> axum::extract::Request {
    let path = request.uri().path();
    if path.len() > 1 && path.ends_with('/') && takes_trailing_slash(path) {
        let trimmed = path.trim_end_matches('/');
        let rebuilt = match request.uri().query() {
            Some(query) => format!("{trimmed}?{query}"),
            None => trimmed.to_string(),
        };
        if let Ok(uri) = rebuilt.parse() {
            *request.uri_mut() = uri;
        }
    }
    request
}

/// What is not here answers as Mastodon does, never with the web app's HTML.
async fn not_found() -> MastodonError {
    MastodonError::not_found()
}

/// Answers hold a member's private view: no cache may keep them.
async fn no_store(mut response: axum::response::Response) -> axum::response::Response {
    response.headers_mut().entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("private, no-store"));
    response
}
