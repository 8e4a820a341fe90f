//! Server-side sessions. The cookie holds a random 256-bit id; the database holds its SHA-256.
//! A session ends after `IDLE` without use or `LIFETIME` after login, whichever comes first,
//! and on logout.

use axum::http::HeaderMap;
use sqlx::{Any, AnyPool, Executor};

use super::session_reads::SessionReads;
use crate::clock::{DAY, HOUR, Millis};
use crate::config::Config;
use crate::error::Result;
use crate::feeds::FeedMarks;
use crate::secrets::{hash_token, random_token};

pub const LIFETIME: Millis = 30 * DAY;
pub const IDLE: Millis = 7 * DAY;
/// `last_seen_at` is written at most this often, so reads do not become writes.
const TOUCH_EVERY: Millis = HOUR;

/// The cookie's name: `__Host-` prefixed over https (bound to this host, Secure, Path=/).
pub fn cookie_name(config: &Config) -> &'static str {
    if config.is_https() { "__Host-murmur_session" } else { "murmur_session" }
}

/// Starts a session for a member; answers the cookie value to hand out.
pub async fn create<'c, E>(executor: E, user_id: i64, now: Millis) -> Result<String>
where
    E: Executor<'c, Database = Any>,
{
    let token = random_token();
    sqlx::query(
        "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at) \
         VALUES ($1, $2, $3, $3, $4)",
    )
    .bind(hash_token(&token))
    .bind(user_id)
    .bind(now)
    .bind(now + LIFETIME)
    .execute(executor)
    .await?;
    Ok(token)
}

/// The `Set-Cookie` value that hands a session to the browser.
pub fn set_cookie(config: &Config, token: &str) -> String {
    let secure = if config.is_https() { "; Secure" } else { "" };
    format!("{}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}", cookie_name(config), LIFETIME / 1000)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(config: &Config) -> String {
    let secure = if config.is_https() { "; Secure" } else { "" };
    format!("{}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}", cookie_name(config))
}

/// The session token in a request's cookies, if any.
pub fn token_from_headers<'h>(config: &Config, headers: &'h HeaderMap) -> Option<&'h str> {
    let name = cookie_name(config);
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// What a lookup reads besides the session.
#[derive(Clone, Copy, Debug)]
pub enum Reading {
    SessionOnly,
    /// The member's `FeedMarks` too, in the same statement: a kept Friends page is then
    /// answered after this one statement (`session_reads`).
    WithFeedMarks,
}

/// The member a live session belongs to (with their `FeedMarks` when asked for, default ones
/// otherwise); refreshes the session's last use now and then.
pub async fn lookup(
    reads: &SessionReads,
    write: &AnyPool,
    token: &str,
    now: Millis,
    reading: Reading,
) -> Result<Option<(i64, String, FeedMarks)>> {
    let id_hash = hash_token(token);
    let Some((user_id, last_seen_at, expires_at, version, newest)) = reads.read(&id_hash, reading).await? else {
        return Ok(None);
    };
    if now >= expires_at || now - last_seen_at >= IDLE {
        sqlx::query("DELETE FROM sessions WHERE id_hash = $1").bind(&id_hash).execute(write).await?;
        return Ok(None);
    }
    if now - last_seen_at >= TOUCH_EVERY {
        sqlx::query("UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2")
            .bind(now)
            .bind(&id_hash)
            .execute(write)
            .await?;
    }
    Ok(Some((user_id, id_hash, FeedMarks { version, newest })))
}

/// Ends one session.
pub async fn delete(write: &AnyPool, id_hash: &str) -> Result<()> {
    let ended: Option<i64> = sqlx::query_scalar("DELETE FROM sessions WHERE id_hash = $1 RETURNING user_id")
        .bind(id_hash)
        .fetch_optional(write)
        .await?;
    if let Some(member) = ended {
        crate::live::note(crate::live::Change::SessionsEnded { member });
    }
    Ok(())
}

/// Ends every session of a member but one.
pub async fn delete_others(write: &AnyPool, user_id: i64, keep_hash: &str) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2")
        .bind(user_id)
        .bind(keep_hash)
        .execute(write)
        .await?;
    crate::live::note(crate::live::Change::SessionsEnded { member: user_id });
    Ok(done.rows_affected())
}

/// Ends every session of a member (a suspension), in the caller's transaction: their next
/// request, in any browser, is a visitor's.
pub async fn end_all(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(conn).await?;
    crate::live::note(crate::live::Change::SessionsEnded { member: user_id });
    Ok(done.rows_affected())
}

/// Removes expired sessions (background task).
pub async fn prune(write: &AnyPool, now: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2")
        .bind(now)
        .bind(now - IDLE)
        .execute(write)
        .await?;
    Ok(done.rows_affected())
}
