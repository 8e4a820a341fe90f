//! Markers: where a member stopped reading their home timeline and their notifications, kept
//! for every app of theirs (an app on the phone continues where the one on the laptop stopped).

use sqlx::AnyConnection;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};

/// The timelines a marker is kept for.
pub const TIMELINES: [&str; 2] = [HOME, NOTIFICATIONS];

/// A marker as kept.
#[derive(Debug, sqlx::FromRow)]
pub struct Marker {
    pub timeline: String,
    pub last_read_id: i64,
    /// Counts the marker's changes (apps compare it).
    pub version: i64,
    pub updated_at: Millis,
}

fn checked(timeline: &str) -> Result<&str> {
    TIMELINES
        .iter()
        .find(|t| **t == timeline)
        .copied()
        .ok_or_else(|| Error::bad_request("timeline must be home or notifications"))
}

/// The member's markers of these timelines (those never set are left out).
pub async fn read(pool: &Pool, member: i64, timelines: &[String]) -> Result<Vec<Marker>> {
    let mut found = Vec::new();
    for timeline in timelines {
        let marker: Option<Marker> = sqlx::query_as(
            "SELECT timeline, last_read_id, version, updated_at FROM markers WHERE member_id = $1 AND timeline = $2",
        )
        .bind(member)
        .bind(checked(timeline)?)
        .fetch_optional(pool)
        .await?;
        found.extend(marker);
    }
    Ok(found)
}

/// Sets the member's marker of their home timeline at `last_read_id`; answers it. (The
/// notifications' marker is set with what it means: `notifications::mark_seen`.)
pub async fn set_home(write: &Pool, member: i64, last_read_id: i64, now: Millis) -> Result<Marker> {
    put(&mut *write.acquire().await?, member, HOME, last_read_id, now).await
}

pub const HOME: &str = "home";
pub const NOTIFICATIONS: &str = "notifications";

/// Sets the member's marker of `timeline` at `last_read_id`, on `conn`; answers it.
pub(crate) async fn put(
    conn: &mut AnyConnection,
    member: i64,
    timeline: &str,
    last_read_id: i64,
    now: Millis,
) -> Result<Marker> {
    if last_read_id < 0 {
        return Err(Error::bad_request("last_read_id must be an id"));
    }
    Ok(sqlx::query_as(
        "INSERT INTO markers (member_id, timeline, last_read_id, version, updated_at) VALUES ($1, $2, $3, 1, $4) \
         ON CONFLICT (member_id, timeline) DO UPDATE SET last_read_id = excluded.last_read_id, \
         version = markers.version + 1, updated_at = excluded.updated_at \
         RETURNING timeline, last_read_id, version, updated_at",
    )
    .bind(member)
    .bind(checked(timeline)?)
    .bind(last_read_id)
    .bind(now)
    .fetch_one(conn)
    .await?)
}
