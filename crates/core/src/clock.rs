//! The application's idea of "now". Real time in production; tests move it forward to expire
//! links, sessions and invites without sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Milliseconds since the Unix epoch, UTC: the unit of every time stored in the database.
pub type Millis = i64;

#[derive(Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    pub fn now(&self) -> Millis {
        chrono::Utc::now().timestamp_millis() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock (and every copy of it) forward; for tests.
    pub fn advance(&self, by: std::time::Duration) {
        self.offset_ms.fetch_add(by.as_millis() as i64, Ordering::Relaxed);
    }
}

pub const SECOND: Millis = 1_000;
pub const MINUTE: Millis = 60 * SECOND;
pub const HOUR: Millis = 60 * MINUTE;
pub const DAY: Millis = 24 * HOUR;

/// Formats stored milliseconds as RFC 3339 (what the API answers).
pub fn to_rfc3339(ms: Millis) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// The day of `ms` (UTC) as a person reads it in a message: "December 27, 2026".
pub fn to_date(ms: Millis) -> String {
    chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms).unwrap_or_default().format("%B %-d, %Y").to_string()
}
