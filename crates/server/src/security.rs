//! Request guard applied to every answer: security headers, and refusal of cross-site
//! state-changing requests (a CSRF defence that does not depend on SameSite alone).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, Error};
use crate::http::{is_mastodon_path, is_safe_method};
use crate::state::AppState;

/// Header a cross-site HTML form cannot send; the web app sends it on every call.
pub const CUSTOM_HEADER: &str = "x-requested-with";

/// The guard's state: the app (for the origin check) and the security headers, built once
/// rather than for every answer.
#[derive(Clone)]
pub struct Guard {
    state: AppState,
    headers: Arc<[(HeaderName, HeaderValue)]>,
}

impl Guard {
    pub fn new(state: AppState) -> Guard {
        let headers = security_headers(&state).into();
        Guard { state, headers }
    }
}

pub async fn guard(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    // The Mastodon API reads no cookie (bearer tokens only): a cross-site request carries nothing
    // of the member's there.
    if !is_safe_method(request.method())
        && !is_mastodon_path(request.uri().path())
        && !is_same_site(&guard.state, request.headers())
    {
        return ApiError(Error::forbidden("Cross-site request refused")).into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    // A route that set its own (e.g. the stricter CSP of /objects/{id}) keeps it.
    for (name, value) in guard.headers.iter() {
        if !headers.contains_key(name) {
            headers.insert(name.clone(), value.clone());
        }
    }
    response
}

/// A state-changing request is accepted when its Origin (or, lacking one, its Referer) is this
/// instance's public origin, or, with neither, when it carries the custom header. The request's
/// own Host is no evidence: whoever sends the request chooses it, so `Host: evil.example` with
/// `Origin: http://evil.example` would pass. An instance reached by another name or port (a
/// development server, say) is given that address as its public URL.
fn is_same_site(state: &AppState, headers: &HeaderMap) -> bool {
    let source = headers.get(header::ORIGIN).or_else(|| headers.get(header::REFERER)).and_then(|v| v.to_str().ok());
    match source {
        Some(value) => is_public_origin(state, value),
        None => headers.contains_key(CUSTOM_HEADER),
    }
}

fn is_public_origin(state: &AppState, value: &str) -> bool {
    // `Origin: null` and anything else that is not a URL is refused.
    url::Url::parse(value).is_ok_and(|url| url.origin().ascii_serialization() == state.config.public_origin())
}

fn security_headers(state: &AppState) -> Vec<(HeaderName, HeaderValue)> {
    let extra = state.media.external_origin().unwrap_or_default();
    // The one inline script the documents carry, by its hash (`web::THEME_INIT`).
    let theme = crate::web::THEME_INIT.as_ref().map(|script| format!(" {}", script.hash)).unwrap_or_default();
    let csp = format!(
        "default-src 'self'; script-src 'self'{theme}; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data: blob: {extra}; media-src 'self'; font-src 'self'; \
         connect-src 'self' {extra}; object-src 'none'; base-uri 'none'; \
         frame-ancestors 'none'; form-action 'self'"
    );
    let mut headers = vec![
        (header::CONTENT_SECURITY_POLICY, csp),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin".to_string()),
        (header::X_FRAME_OPTIONS, "DENY".to_string()),
        (HeaderName::from_static("permissions-policy"), "camera=(), microphone=(), geolocation=()".to_string()),
    ];
    if state.config.is_https() {
        headers.push((header::STRICT_TRANSPORT_SECURITY, "max-age=31536000; includeSubDomains".to_string()));
    }
    headers.into_iter().filter_map(|(name, value)| HeaderValue::from_str(&value).ok().map(|v| (name, v))).collect()
}
