//! Abuse limits as fixed-window counters in the database, so they hold across every server
//! process of an instance (nothing shared lives in one process's memory).

use sqlx::Any;
use sqlx::pool::PoolConnection;

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
    count_then_take_writer(db, key, limit, now, message).await.map(drop)
}

/// `hit`, on the writer's connection, which it then hands back for the write the event is
/// about (`sqlx::Connection::begin` on it). The count commits on its own first, so it stands
/// whatever the write then does, as with `hit`. Let the connection go before reading the
/// answer: on PostgreSQL a write request's reads come from the same few connections, and
/// requests that each held one while waiting for another would wait until the pool's timeout.
///
/// Why: every time a connection goes back to its pool sqlx spawns a task that pings it (one
/// more round trip), and on SQLite each acquisition of the one writer queues behind every other
/// write: a post's count and its transaction each waited for the writer longer than the
/// transaction held it (docs/performance.md, "One turn at the writer per write"). One
/// acquisition instead of two takes a count's round trip, a ping's and a queue's turn off
/// every like, follow and post.
pub async fn count_then_take_writer(
    db: &Db,
    key: &str,
    limit: Limit,
    now: Millis,
    message: &str,
) -> Result<PoolConnection<Any>> {
    let asked = std::time::Instant::now();
    let mut writer = db.write.acquire().await?;
    crate::metrics::writer_wait(asked.elapsed());
    let window_start = now - now.rem_euclid(limit.window);
    let count: i64 = sqlx::query_scalar(
        "INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, 1) \
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 \
         RETURNING count",
    )
    .bind(key)
    .bind(window_start)
    .fetch_one(&mut *writer)
    .await?;
    if count > limit.max {
        crate::metrics::rate_limit_refusal(key);
        let retry_after_ms = window_start + limit.window - now;
        return Err(Error::TooManyRequests {
            message: message.to_string(),
            retry_after_secs: (retry_after_ms.max(0) as u64).div_ceil(1000),
        });
    }
    Ok(writer)
}

/// Removes counters of windows that ended before `before` (called by the background task).
pub async fn prune(db: &Db, before: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM rate_limits WHERE window_start < $1").bind(before).execute(&db.write).await?;
    Ok(done.rows_affected())
}
