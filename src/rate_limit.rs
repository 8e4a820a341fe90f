//! Abuse limits as fixed-window counters in the database, so they hold across every server
//! process of an instance (nothing shared lives in one process's memory).

use crate::clock::Millis;
use crate::db::Db;
use crate::error::{Error, Result};

/// A limit: at most `max` events per `window` for one key.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub max: i64,
    pub window: Millis,
}

/// Counts one event for `key` and refuses with 429 once the window's allowance is spent.
/// `message` is what the person reads.
pub async fn hit(db: &Db, key: &str, limit: Limit, now: Millis, message: &str) -> Result<()> {
    let window_start = now - now.rem_euclid(limit.window);
    let count: i64 = sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) \
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 \
         RETURNING count",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(&db.write)
    .await?;
    if count > limit.max {
        let retry_after_ms = window_start + limit.window - now;
        return Err(Error::TooManyRequests {
            message: message.to_string(),
            retry_after_secs: (retry_after_ms.max(0) as u64).div_ceil(1000),
        });
    }
    Ok(())
}

/// Removes counters of windows that ended before `before` (called by the background task).
pub async fn prune(db: &Db, before: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM rate_limits WHERE window_start < $1")
        .bind(before)
        .execute(&db.write)
        .await?;
    Ok(done.rows_affected())
}
