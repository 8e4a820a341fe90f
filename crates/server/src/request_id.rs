//! Every request carries an id: the caller's `x-request-id` when it is a sensible one, else a
//! fresh one. It is in every log line of the request (the request span) and in the answer's
//! `x-request-id` header, and error answers carry it as `requestId`, so a member's "something
//! went wrong" can be found in the logs.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

pub const HEADER: &str = "x-request-id";
/// Longest id taken from a caller; error bodies are read whole, so they are bounded too.
const MAX_LEN: usize = 64;
const MAX_ERROR_BODY: usize = 64 * 1024;

/// The caller's id if it is short and plain (letters, digits, `-`, `_`, `.`), so it can go into
/// logs and headers as it is.
fn accepted(value: &HeaderValue) -> Option<HeaderValue> {
    let text = value.to_str().ok()?;
    let plain = !text.is_empty()
        && text.len() <= MAX_LEN
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    plain.then(|| value.clone())
}

fn fresh() -> HeaderValue {
    let id = hex::encode(murmur_core::secrets::random_bytes::<12>());
    HeaderValue::from_str(&id).expect("hex is a valid header value")
}

/// The id a request was given by `assign`.
pub fn of(request: &Request) -> Option<&HeaderValue> {
    request.headers().get(HEADER)
}

/// Outside every other layer: gives the request its id (the log span reads it from there) and
/// answers with it.
pub async fn assign(mut request: Request, next: Next) -> Response {
    let id = request.headers().get(HEADER).and_then(accepted).unwrap_or_else(fresh);
    request.headers_mut().insert(HEADER, id.clone());
    let mut response = next.run(request).await;
    response.headers_mut().insert(HEADER, id);
    response
}

/// Inside compression: writes the id into error answers' bodies.
pub async fn in_error_bodies(request: Request, next: Next) -> Response {
    let id = of(&request).cloned();
    let response = next.run(request).await;
    match id {
        Some(id) if response.status().is_client_error() || response.status().is_server_error() => {
            with_request_id(response, &id).await
        }
        _ => response,
    }
}

/// Adds `requestId` to a JSON error body (`ErrorBody`); any other body is left as it is.
async fn with_request_id(response: Response, id: &HeaderValue) -> Response {
    let is_json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut fields)) => {
            fields.insert("requestId".into(), id.to_str().unwrap_or_default().into());
            parts.headers.remove(header::CONTENT_LENGTH);
            serde_json::to_vec(&fields).map(Body::from).unwrap_or_else(|_| Body::from(bytes))
        }
        _ => Body::from(bytes),
    };
    Response::from_parts(parts, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_short_plain_ids_are_taken_from_callers() {
        for good in ["abc", "3f2a-11_x.9", &"a".repeat(64)] {
            assert!(accepted(&HeaderValue::from_str(good).unwrap()).is_some(), "{good}");
        }
        for bad in ["", "a b", "<script>", "id\"quote", &"a".repeat(65), "ünïcode"] {
            let Ok(value) = HeaderValue::from_str(bad) else { continue };
            assert!(accepted(&value).is_none(), "{bad}");
        }
        assert_eq!(fresh().len(), 24);
    }
}
