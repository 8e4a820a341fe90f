//! The one error type of the API and its JSON answer, `{"message": "..."}`.
//!
//! 4xx variants carry a message for the person; database and unexpected errors are logged
//! with their cause and answered with a generic message, so no internals leak.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The message of a 503 when the database cannot be reached.
pub const UNAVAILABLE: &str = "The service is temporarily unavailable. Please try again shortly.";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// 400: the input is wrong; the message says how.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no (valid) session.
    #[error("Unauthorized")]
    Unauthorized,
    /// 403: logged in, but not allowed.
    #[error("{0}")]
    Forbidden(String),
    /// 404
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with what exists.
    #[error("{0}")]
    Conflict(String),
    /// 413
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 429, with the seconds after which a retry may succeed.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_secs: u64 },
    /// 503: a dependency (database, mail server) is not reachable right now.
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl Error {
    pub fn bad_request(message: impl Into<String>) -> Self {
        Error::BadRequest(message.into())
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Error::NotFound(message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Error::Forbidden(message.into())
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Error::Conflict(message.into())
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Error::BadRequest(_) => StatusCode::BAD_REQUEST,
            Error::Unauthorized => StatusCode::UNAUTHORIZED,
            Error::Forbidden(_) => StatusCode::FORBIDDEN,
            Error::NotFound(_) => StatusCode::NOT_FOUND,
            Error::Conflict(_) => StatusCode::CONFLICT,
            Error::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Database(e) if is_unavailable(e) => StatusCode::SERVICE_UNAVAILABLE,
            Error::Database(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The body of every error answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub message: String,
    /// The request's id (`x-request-id`), to find it in the server's logs; added on the way out
    /// (`request_id::in_error_bodies`).
    #[serde(rename = "requestId", skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// Seconds a 503's `Retry-After` asks for.
const UNAVAILABLE_RETRY_AFTER: &str = "5";

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            Error::Database(e) if is_unavailable(e) => {
                tracing::warn!(error = %e, "database unavailable");
                UNAVAILABLE.to_string()
            }
            Error::Database(e) => {
                tracing::error!(error = ?e, "database error");
                "Internal server error".to_string()
            }
            Error::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                "Internal server error".to_string()
            }
            other => other.to_string(),
        };
        let mut response = (status, Json(ErrorBody { message, request_id: None })).into_response();
        if let Error::TooManyRequests { retry_after_secs, .. } = &self
            && let Ok(v) = HeaderValue::from_str(&retry_after_secs.max(&1).to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        // Whatever is unavailable (the database, a full queue) is worth asking again soon.
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(UNAVAILABLE_RETRY_AFTER));
        }
        response
    }
}

impl From<JsonRejection> for Error {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => {
                Error::BadRequest("Expected a JSON body with the header Content-Type: application/json".into())
            }
            JsonRejection::JsonSyntaxError(e) => Error::BadRequest(format!("Malformed JSON: {}", source_text(&e))),
            JsonRejection::JsonDataError(e) => Error::BadRequest(format!("Invalid request body: {}", source_text(&e))),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Error::PayloadTooLarge("The request body is too large".into())
            }
            other => Error::BadRequest(other.body_text()),
        }
    }
}

impl From<QueryRejection> for Error {
    fn from(rejection: QueryRejection) -> Self {
        match rejection {
            QueryRejection::FailedToDeserializeQueryString(e) => {
                Error::BadRequest(format!("Invalid query parameters: {}", source_text(&e)))
            }
            other => Error::BadRequest(other.body_text()),
        }
    }
}

impl From<PathRejection> for Error {
    fn from(rejection: PathRejection) -> Self {
        match rejection {
            PathRejection::FailedToDeserializePathParams(e) => {
                Error::BadRequest(format!("Invalid path: {}", e.body_text()))
            }
            other => Error::BadRequest(other.body_text()),
        }
    }
}

/// The innermost cause of a rejection, which is the part that says what is wrong
/// (e.g. "missing field `email` at line 1 column 2").
fn source_text(err: &dyn std::error::Error) -> String {
    let mut current: &dyn std::error::Error = err;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}

/// True for errors that mean "the database is not reachable right now" (answered 503).
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed | sqlx::Error::Tls(_))
}
