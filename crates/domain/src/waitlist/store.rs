//! Waitlist queries.

use sqlx::AnyConnection;

use crate::accounts::Email;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// Adds an address once; joining again changes nothing.
pub async fn join(write: &Pool, email: &Email, now: Millis) -> Result<()> {
    sqlx::query("INSERT INTO waitlist (email, created_at) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING")
        .bind(email.as_str())
        .bind(now)
        .execute(write)
        .await?;
    Ok(())
}

/// A waiting address.
#[derive(Debug, sqlx::FromRow)]
pub struct Entry {
    pub id: i64,
    pub email: String,
    pub created_at: Millis,
    pub invited_at: Option<Millis>,
}

/// Every entry, oldest first.
pub async fn list(read: &Pool) -> Result<Vec<Entry>> {
    Ok(sqlx::query_as("SELECT id, email, created_at, invited_at FROM waitlist ORDER BY id").fetch_all(read).await?)
}

/// The `count` oldest addresses not invited yet and not members meanwhile.
pub async fn oldest_waiting(read: &Pool, count: u32) -> Result<Vec<Entry>> {
    Ok(sqlx::query_as(
        "SELECT id, email, created_at, invited_at FROM waitlist \
         WHERE invited_at IS NULL AND email NOT IN (SELECT email FROM users) \
         ORDER BY id LIMIT $1",
    )
    .bind(i64::from(count))
    .fetch_all(read)
    .await?)
}

/// Marks an entry invited; false when it already was (another run got there first).
pub async fn mark_invited(conn: &mut AnyConnection, id: i64, now: Millis) -> Result<bool> {
    let done = sqlx::query("UPDATE waitlist SET invited_at = $1 WHERE id = $2 AND invited_at IS NULL")
        .bind(now)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Puts an entry back to waiting (its invite e-mail could not be sent).
pub async fn unmark_invited(conn: &mut AnyConnection, id: i64) -> Result<()> {
    sqlx::query("UPDATE waitlist SET invited_at = NULL WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}
