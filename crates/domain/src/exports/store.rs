//! Data export queries: at most one row per member (`data_exports_member_key`), claimed by one
//! process at a time (`claim_next`); every attempt writes under a new random archive id, and
//! only the attempt whose id the row still holds may finish it.

use std::collections::HashSet;

use sqlx::AnyConnection;

use super::{CLAIM_FOR, KEEP_FOR, MAX_ATTEMPTS, RETRY_AFTER, REUSE_WITHIN};
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// A member's export as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRow {
    pub id: i64,
    pub member_id: i64,
    pub status: String,
    pub requested_at: Millis,
    pub archive_id: Option<String>,
    pub byte_size: Option<i64>,
    pub finished_at: Option<Millis>,
    pub expires_at: Option<Millis>,
}

const COLUMNS: &str = "id, member_id, status, requested_at, archive_id, byte_size, finished_at, expires_at";

/// The member's export, if they have one that has not expired.
pub async fn find(pool: &Pool, member: i64, now: Millis) -> Result<Option<ExportRow>> {
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM data_exports WHERE member_id = $1 AND (expires_at IS NULL OR expires_at > $2)"
    )))
    .bind(member)
    .bind(now)
    .fetch_optional(pool)
    .await?)
}

/// The member asks for an archive: one pending, or ready and made within `REUSE_WITHIN`, is
/// the answer; otherwise (none, failed, older or expired) a new pending one takes the row's
/// place, in a transaction of its own on `writer`. Answers the export and the archive it
/// replaced, for the caller to remove.
pub async fn request(writer: &mut AnyConnection, member: i64, now: Millis) -> Result<(ExportRow, Option<String>)> {
    let mut tx = sqlx::Connection::begin(writer).await?;
    let answer = request_in(&mut tx, member, now).await?;
    tx.commit().await?;
    Ok(answer)
}

async fn request_in(conn: &mut AnyConnection, member: i64, now: Millis) -> Result<(ExportRow, Option<String>)> {
    let before: Option<ExportRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM data_exports WHERE member_id = $1")))
            .bind(member)
            .fetch_optional(&mut *conn)
            .await?;
    // The condition is checked again under the row's lock, so two requests at once replace it once.
    let replaced = sqlx::query(
        "INSERT INTO data_exports (member_id, status, requested_at) VALUES ($1, 'pending', $2) \
         ON CONFLICT (member_id) DO UPDATE SET status = 'pending', requested_at = excluded.requested_at, \
             claimed_until = NULL, attempts = 0, archive_id = NULL, byte_size = NULL, finished_at = NULL, expires_at = NULL \
         WHERE data_exports.status = 'failed' OR data_exports.expires_at <= $2 \
            OR (data_exports.status = 'ready' AND data_exports.finished_at <= $3)",
    )
    .bind(member)
    .bind(now)
    .bind(now - REUSE_WITHIN)
    .execute(&mut *conn)
    .await?
    .rows_affected()
        == 1;
    let row: ExportRow =
        sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {COLUMNS} FROM data_exports WHERE member_id = $1")))
            .bind(member)
            .fetch_one(&mut *conn)
            .await?;
    let old_archive = before.and_then(|b| b.archive_id).filter(|_| replaced);
    Ok((row, old_archive))
}

/// A pending export this process now builds: the member and the archive id to write.
#[derive(Debug, sqlx::FromRow)]
pub struct Claimed {
    pub id: i64,
    pub member_id: i64,
    pub attempts: i64,
    pub archive_id: String,
}

/// Claims the oldest pending export no process holds (or whose holder stopped renewing its
/// claim, `renew`) for `CLAIM_FOR`, under a fresh archive id. The conditions are checked again by the update, so of
/// several processes choosing the same row one gets it.
pub async fn claim_next(write: &Pool, now: Millis) -> Result<Option<Claimed>> {
    let archive_id = crate::media::new_media_id();
    Ok(sqlx::query_as(
        "UPDATE data_exports SET claimed_until = $1, attempts = attempts + 1, archive_id = $2 \
         WHERE id = (SELECT id FROM data_exports WHERE status = 'pending' \
                     AND (claimed_until IS NULL OR claimed_until < $3) ORDER BY id LIMIT 1) \
           AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < $3) \
         RETURNING id, member_id, attempts, archive_id",
    )
    .bind(now + CLAIM_FOR)
    .bind(&archive_id)
    .bind(now)
    .fetch_optional(write)
    .await?)
}

/// Renews this attempt's claim for `CLAIM_FOR` from `now` (its heartbeat); false when it no
/// longer holds the export (another process took it over, or it was finished).
pub async fn renew(write: &Pool, claimed: &Claimed, now: Millis) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE data_exports SET claimed_until = $1 WHERE id = $2 AND archive_id = $3 AND status = 'pending'",
    )
    .bind(now + CLAIM_FOR)
    .bind(claimed.id)
    .bind(&claimed.archive_id)
    .execute(write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// True when a claimed export has been tried too often and should be given up.
pub fn tried_too_often(claimed: &Claimed) -> bool {
    claimed.attempts > MAX_ATTEMPTS
}

/// Marks the claimed export ready (kept `KEEP_FOR` from now); false when this attempt no longer
/// holds it (another process took it over), and its archive is then the caller's to remove.
pub async fn mark_ready(conn: &mut AnyConnection, claimed: &Claimed, byte_size: u64, now: Millis) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE data_exports SET status = 'ready', byte_size = $1, finished_at = $2, expires_at = $3, claimed_until = NULL \
         WHERE id = $4 AND archive_id = $5 AND status = 'pending'",
    )
    .bind(byte_size as i64)
    .bind(now)
    .bind(now + KEEP_FOR)
    .bind(claimed.id)
    .bind(&claimed.archive_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Lets the claimed export go after a failed attempt: any process tries again after
/// `RETRY_AFTER`.
pub async fn retry_later(write: &Pool, claimed: &Claimed, now: Millis) -> Result<()> {
    sqlx::query("UPDATE data_exports SET claimed_until = $1 WHERE id = $2 AND archive_id = $3 AND status = 'pending'")
        .bind(now + RETRY_AFTER)
        .bind(claimed.id)
        .bind(&claimed.archive_id)
        .execute(write)
        .await?;
    Ok(())
}

/// Marks the claimed export failed (no archive); the member may ask again. The row stays
/// `KEEP_FOR` so the member sees it failed.
pub async fn mark_failed(write: &Pool, claimed: &Claimed, now: Millis) -> Result<()> {
    sqlx::query(
        "UPDATE data_exports SET status = 'failed', archive_id = NULL, finished_at = $1, expires_at = $2, claimed_until = NULL \
         WHERE id = $3 AND archive_id = $4 AND status = 'pending'",
    )
    .bind(now)
    .bind(now + KEEP_FOR)
    .bind(claimed.id)
    .bind(&claimed.archive_id)
    .execute(write)
    .await?;
    Ok(())
}

/// Exports whose time is up, with their archive if any (at most 1,000 a round).
pub async fn expired(write: &Pool, now: Millis) -> Result<Vec<(i64, Option<String>)>> {
    Ok(sqlx::query_as("SELECT id, archive_id FROM data_exports WHERE expires_at <= $1 ORDER BY expires_at LIMIT 1000")
        .bind(now)
        .fetch_all(write)
        .await?)
}

/// Removes an expired export's row (unless a new request took its place meanwhile).
pub async fn delete(write: &Pool, id: i64, now: Millis) -> Result<()> {
    sqlx::query("DELETE FROM data_exports WHERE id = $1 AND expires_at <= $2")
        .bind(id)
        .bind(now)
        .execute(write)
        .await?;
    Ok(())
}

/// Every archive id an export names (one per member at most).
pub async fn archive_ids(write: &Pool) -> Result<HashSet<String>> {
    let ids: Vec<String> =
        sqlx::query_scalar("SELECT archive_id FROM data_exports WHERE archive_id IS NOT NULL").fetch_all(write).await?;
    Ok(ids.into_iter().collect())
}
