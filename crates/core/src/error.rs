//! The one error type of Murmur's rules: each variant is a kind of refusal that every interface
//! answers in its own way (Murmur's JSON API: `murmur_server::error`).
//!
//! Refusals carry a message for the person; database and unexpected errors carry their cause,
//! which is logged and never shown.

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The message of a 503 when the database cannot be reached.
pub const UNAVAILABLE: &str = "The service is temporarily unavailable. Please try again shortly.";

/// The message of a 503 when the database's disk is full: nothing was saved, and a retry
/// succeeds once the operator has made room (no restart needed).
pub const DISK_FULL: &str = "The server is out of disk space, so nothing was saved. Please try again later.";

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

/// True for errors that mean "the database is not reachable right now" (answered 503): also
/// PostgreSQL ending or refusing the session while it shuts down, restarts or recovers
/// (SQLSTATE 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now) and its
/// connection exceptions (class 08), which a request in flight meets during a restart.
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(e) => {
            e.code().is_some_and(|code| matches!(&*code, "57P01" | "57P02" | "57P03") || code.starts_with("08"))
        }
        _ => false,
    }
}

/// True for the database saying its disk is full: SQLite's SQLITE_FULL (13, "database or disk
/// is full") and PostgreSQL's disk_full (53100). Answered 503: the write is refused whole and
/// succeeds again once there is room.
pub fn is_disk_full(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Database(e) => matches!(e.code().as_deref(), Some("13" | "53100")),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    /// A database's error with only a SQLSTATE (PostgreSQL) or result code (SQLite).
    #[derive(Debug)]
    struct Coded(&'static str);

    impl std::fmt::Display for Coded {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "error {}", self.0)
        }
    }

    impl std::error::Error for Coded {}

    impl sqlx::error::DatabaseError for Coded {
        fn message(&self) -> &str {
            self.0
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn coded(code: &'static str) -> sqlx::Error {
        sqlx::Error::Database(Box::new(Coded(code)))
    }

    #[test]
    fn a_restarting_postgres_is_unavailable_not_a_failure() {
        for code in ["57P01", "57P02", "57P03", "08006", "08003"] {
            assert!(is_unavailable(&coded(code)), "{code}");
        }
        for code in ["23505", "40001", "13", "5"] {
            assert!(!is_unavailable(&coded(code)), "{code}");
        }
    }

    #[test]
    fn a_full_disk_is_told_apart() {
        assert!(is_disk_full(&coded("13")), "SQLITE_FULL");
        assert!(is_disk_full(&coded("53100")), "PostgreSQL's disk_full");
        assert!(!is_disk_full(&coded("5")), "SQLITE_BUSY");
        assert!(!is_disk_full(&sqlx::Error::PoolTimedOut));
    }
}
