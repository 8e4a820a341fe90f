//! Refusals in Mastodon's shape: `{"error": "..."}`, with the statuses Mastodon uses (a
//! request it cannot take is a 422, as Mastodon's validation errors are).

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use murmur_core::error::Error;

use crate::error::ApiError;

pub type Result<T, E = MastodonError> = std::result::Result<T, E>;

#[derive(Debug)]
pub struct MastodonError(pub Error);

impl MastodonError {
    pub fn not_found() -> MastodonError {
        MastodonError(Error::not_found("Record not found"))
    }

    pub fn unprocessable(message: impl Into<String>) -> MastodonError {
        MastodonError(Error::bad_request(message))
    }

    pub fn forbidden(message: impl Into<String>) -> MastodonError {
        MastodonError(Error::forbidden(message))
    }

    /// The status Mastodon answers it with; Murmur's own answer decides, but a request it
    /// cannot take is a 422.
    pub fn status(&self) -> StatusCode {
        match &self.0 {
            Error::BadRequest(_) => StatusCode::UNPROCESSABLE_ENTITY,
            other => crate::error::status_of(other),
        }
    }

    /// What the body's `error` says: no internals.
    pub fn message(&self) -> String {
        match &self.0 {
            Error::Unauthorized => "The access token is invalid".to_string(),
            other => crate::error::public_message(other),
        }
    }
}

impl From<Error> for MastodonError {
    fn from(error: Error) -> Self {
        MastodonError(error)
    }
}

impl From<sqlx::Error> for MastodonError {
    fn from(error: sqlx::Error) -> Self {
        MastodonError(error.into())
    }
}

impl From<anyhow::Error> for MastodonError {
    fn from(error: anyhow::Error) -> Self {
        MastodonError(error.into())
    }
}

impl From<ApiError> for MastodonError {
    fn from(error: ApiError) -> Self {
        MastodonError(error.0)
    }
}

impl IntoResponse for MastodonError {
    fn into_response(self) -> Response {
        let (status, message) = (self.status(), self.message());
        let mut response = (status, Json(serde_json::json!({ "error": message }))).into_response();
        if let Error::TooManyRequests { retry_after_secs, .. } = &self.0
            && let Ok(value) = HeaderValue::from_str(&retry_after_secs.max(&1).to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}
