//! The one error type of Murmur's rules: each variant is a kind of refusal that every interface
//! answers in its own way (Murmur's JSON API: `murmur_server::error`).
//!
//! Refusals carry a message for the person; database and unexpected errors carry their cause,
//! which is logged and never shown.

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
    /// 422: well-formed, but it asks for what the rules do not allow (adding someone the member
    /// does not follow to a list).
    #[error("{0}")]
    Unprocessable(String),
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
    pub fn unprocessable(message: impl Into<String>) -> Self {
        Error::Unprocessable(message.into())
    }
}

/// True for errors that mean "the database is not reachable right now" (answered 503).
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed | sqlx::Error::Tls(_))
}
