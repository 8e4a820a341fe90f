//! Waitlist queries.

use sqlx::AnyPool;

use crate::accounts::Email;
use crate::clock::Millis;
use crate::error::Result;

/// Adds an address once; joining again changes nothing.
pub async fn join(write: &AnyPool, email: &Email, now: Millis) -> Result<()> {
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
pub async fn list(read: &AnyPool) -> Result<Vec<Entry>> {
    Ok(sqlx::query_as("SELECT id, email, created_at, invited_at FROM waitlist ORDER BY id")
        .fetch_all(read)
        .await?)
}
