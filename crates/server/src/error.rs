//! Murmur's JSON API answers every refusal as `{"message": "..."}` with the status its kind
//! calls for. Database and unexpected errors are logged with their cause and answered with a
//! generic message, so no internals leak.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
pub use murmur_core::error::{DISK_FULL, Error, UNAVAILABLE, is_disk_full, is_unavailable};
use serde::Serialize;

/// What a handler or extractor answers: a result whose error is a refusal of the API.
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// A refusal on its way out as an HTTP answer (the orphan rule keeps `IntoResponse` off
/// `murmur_core::Error` itself).
#[derive(Debug)]
pub struct ApiError(pub Error);

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        ApiError(error)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(error: sqlx::Error) -> Self {
        ApiError(error.into())
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        ApiError(error.into())
    }
}

impl ApiError {
    /// The status a refusal of this kind is answered with.
    pub fn status(&self) -> StatusCode {
        status_of(&self.0)
    }
}

/// The status a refusal of this kind is answered with.
pub fn status_of(error: &Error) -> StatusCode {
    match error {
        Error::BadRequest(_) => StatusCode::BAD_REQUEST,
        Error::Unauthorized => StatusCode::UNAUTHORIZED,
        Error::Forbidden(_) => StatusCode::FORBIDDEN,
        Error::NotFound(_) => StatusCode::NOT_FOUND,
        Error::Conflict(_) => StatusCode::CONFLICT,
        Error::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        Error::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Error::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        Error::Database(e) if is_unavailable(e) || is_disk_full(e) => StatusCode::SERVICE_UNAVAILABLE,
        Error::Database(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
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

/// What a refusal says to the client: its own words, but for database and unexpected errors,
/// which are logged with their cause and answered with a generic message (no internals leak).
pub fn public_message(error: &Error) -> String {
    match error {
        Error::Database(e) if is_unavailable(e) => {
            tracing::warn!(error = %e, "database unavailable");
            UNAVAILABLE.to_string()
        }
        Error::Database(e) if is_disk_full(e) => {
            tracing::error!(error = %e, "database disk full: writes are refused until there is room");
            DISK_FULL.to_string()
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
    }
}

/// Seconds a 503's `Retry-After` asks for.
const UNAVAILABLE_RETRY_AFTER: &str = "5";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = public_message(&self.0);
        let mut response = (status, Json(ErrorBody { message, request_id: None })).into_response();
        if let Error::TooManyRequests { retry_after_secs, .. } = &self.0
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

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        ApiError(match rejection {
            JsonRejection::MissingJsonContentType(_) => {
                Error::BadRequest("Expected a JSON body with the header Content-Type: application/json".into())
            }
            JsonRejection::JsonSyntaxError(e) => Error::BadRequest(format!("Malformed JSON: {}", source_text(&e))),
            JsonRejection::JsonDataError(e) => Error::BadRequest(format!("Invalid request body: {}", source_text(&e))),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Error::PayloadTooLarge("The request body is too large".into())
            }
            other => Error::BadRequest(other.body_text()),
        })
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError(match rejection {
            QueryRejection::FailedToDeserializeQueryString(e) => {
                Error::BadRequest(format!("Invalid query parameters: {}", source_text(&e)))
            }
            other => Error::BadRequest(other.body_text()),
        })
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        ApiError(match rejection {
            PathRejection::FailedToDeserializePathParams(e) => {
                Error::BadRequest(format!("Invalid path: {}", e.body_text()))
            }
            other => Error::BadRequest(other.body_text()),
        })
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
