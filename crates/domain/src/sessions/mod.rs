//! Server-side sessions. The browser holds a random 256-bit id (in a cookie: `murmur_server`'s
//! `session_cookie`); the database holds its SHA-256.
//! A session ends after `IDLE` without use or `LIFETIME` after login, whichever comes first,
//! and on logout. Its member sees it listed under a public id of its own (random, never the
//! token or its hash), with the browser's user agent from login.

use sqlx::{Any, Executor};

pub mod reads;

use crate::timelines::FeedMarks;
use futures::future::BoxFuture;
use murmur_core::clock::{DAY, MINUTE, Millis};
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};
use murmur_core::secrets::{hash_token, random_bytes, random_token};
pub use reads::{Reading, SessionReads};

pub const LIFETIME: Millis = 30 * DAY;
pub const IDLE: Millis = 7 * DAY;
/// How recent a sign-in must be for what a copied cookie must not do alone (adding a passkey):
/// the session's start, or a later confirmation with a passkey or an e-mailed link.
pub const RECENT_SIGN_IN: Millis = 10 * MINUTE;
/// What a member is told when their sign-in is not recent enough.
pub const SIGN_IN_AGAIN: &str = "Please confirm it's you first: sign in again with a passkey or an e-mailed link. \
                                 Adding a passkey needs a sign-in within the last 10 minutes.";
/// `last_seen_at` (and the network it was used from) is written at most this often per
/// session, so reads seldom become writes: the list of sessions shows the last use to within
/// this.
pub const TOUCH_EVERY: Millis = 5 * MINUTE;

/// What a browser or an app holds to act as a member: a session, or an app's token, each known
/// by its SHA-256. Every way one ends (logout, logging out everywhere, an app's token revoked or
/// the app disconnected, a suspension, leaving) calls `live::credentials_ended`, and the streams it
/// opened close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    Session(String),
    AppToken(String),
}

impl crate::live::Credential for Credential {
    fn holds<'a>(&'a self, write: &'a Pool, now: Millis) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async move {
            match self {
                Credential::Session(hash) => {
                    let live: Option<i64> =
                        sqlx::query_scalar("SELECT 1 FROM sessions WHERE id_hash = $1 AND expires_at > $2")
                            .bind(hash)
                            .bind(now)
                            .fetch_optional(write)
                            .await?;
                    Ok(live.is_some())
                }
                Credential::AppToken(hash) => crate::apps::token_holds(write, hash, now).await,
            }
        })
    }
}

/// Starts a session for a member without a browser to name (tests, `murmur seed`); answers
/// the cookie value to hand out.
pub async fn create<'c, E>(executor: E, user_id: i64, now: Millis) -> Result<String>
where
    E: Executor<'c, Database = Any>,
{
    create_in_browser(executor, user_id, Browser::default(), now).await
}

/// Where a session is used from, as its member's list shows it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Browser<'a> {
    /// The user agent, as `user_agent::from_headers` bounds it.
    pub user_agent: Option<&'a str>,
    /// The client's network (`ClientIp::network`).
    pub network: Option<&'a str>,
    /// How the member signed in.
    pub signed_in_with: SignedInWith,
}

/// How a session was signed in, as its member's list shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SignedInWith {
    /// An e-mailed magic link (and sessions made without a browser: tests, `murmur seed`).
    #[default]
    Link,
    Passkey,
}

impl SignedInWith {
    pub fn as_str(self) -> &'static str {
        match self {
            SignedInWith::Link => "link",
            SignedInWith::Passkey => "passkey",
        }
    }

    fn parse(stored: &str) -> SignedInWith {
        match stored {
            "passkey" => SignedInWith::Passkey,
            _ => SignedInWith::Link,
        }
    }
}

/// Starts a session for a member in `browser`; answers the cookie value to hand out.
pub async fn create_in_browser<'c, E>(executor: E, user_id: i64, browser: Browser<'_>, now: Millis) -> Result<String>
where
    E: Executor<'c, Database = Any>,
{
    let token = random_token();
    sqlx::query(
        "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, public_id, user_agent, network, \
         signed_in_with) VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8)",
    )
    .bind(hash_token(&token))
    .bind(user_id)
    .bind(now)
    .bind(now + LIFETIME)
    .bind(hex::encode(random_bytes::<16>()))
    .bind(browser.user_agent)
    .bind(browser.network)
    .bind(browser.signed_in_with.as_str())
    .execute(executor)
    .await?;
    Ok(token)
}

/// True when a string can be a session's public id (32 lowercase hex digits); anything else
/// is not looked up.
pub fn is_public_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The member a live session belongs to (with their `FeedMarks` when asked for, default ones
/// otherwise); records the session's last use, and the `network` it came from, at most every
/// `TOUCH_EVERY` (the read itself stays the batched one of `reads`).
pub async fn lookup(
    reads: &SessionReads,
    write: &Pool,
    token: &str,
    network: Option<&str>,
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
        // Conditional, so of requests racing past the check one writes (and the others match nothing).
        sqlx::query("UPDATE sessions SET last_seen_at = $1, network = $2 WHERE id_hash = $3 AND last_seen_at = $4")
            .bind(now)
            .bind(network)
            .bind(&id_hash)
            .bind(last_seen_at)
            .execute(write)
            .await?;
    }
    Ok(Some((user_id, id_hash, FeedMarks { version, newest })))
}

/// The session a request came with: its member and the hash of its token.
#[derive(Clone, Copy, Debug)]
pub struct Current<'a> {
    pub member: i64,
    pub hash: &'a str,
}

/// Refuses (403, `SIGN_IN_AGAIN`) unless the session's member signed in, or confirmed it was
/// them, within `RECENT_SIGN_IN`. Read from the writer: a confirmation just made must count.
pub async fn require_recent_sign_in(pool: &Pool, session_hash: &str, now: Millis) -> Result<()> {
    let signed_in_at: Option<Millis> =
        sqlx::query_scalar("SELECT COALESCE(reauthenticated_at, created_at) FROM sessions WHERE id_hash = $1")
            .bind(session_hash)
            .fetch_optional(pool)
            .await?;
    match signed_in_at {
        Some(at) if now - at <= RECENT_SIGN_IN => Ok(()),
        _ => Err(Error::forbidden(SIGN_IN_AGAIN)),
    }
}

/// The session's member proved it was them again (a passkey, an e-mailed link): its sign-in
/// is now, in the caller's transaction. False when the session is gone.
pub async fn reauthenticated(conn: &mut sqlx::AnyConnection, session_hash: &str, now: Millis) -> Result<bool> {
    let done = sqlx::query("UPDATE sessions SET reauthenticated_at = $1 WHERE id_hash = $2")
        .bind(now)
        .bind(session_hash)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The user agent a session was signed in with, as kept (what its member's list shows).
pub async fn user_agent(read: &Pool, session_hash: &str) -> Result<Option<String>> {
    Ok(sqlx::query_scalar("SELECT user_agent FROM sessions WHERE id_hash = $1")
        .bind(session_hash)
        .fetch_optional(read)
        .await?
        .flatten())
}

/// One session to end.
#[derive(Clone, Copy, Debug)]
pub enum One<'a> {
    /// The session whose token hashes to this (logout, a browser logging in again).
    ByHash(&'a str),
    /// The session with this public id, if it is `member`'s own (their list of sessions).
    Listed { member: i64, public_id: &'a str },
}

/// Ends one session; answers the hash of the one that ended, if there was one. Its row goes,
/// so its next request (each reads its session afresh: `reads`) is a visitor's, and
/// its member's open tabs are told (`live`: the stream of this session ends with
/// `session-ended`).
pub async fn delete(write: &Pool, one: One<'_>) -> Result<Option<String>> {
    let ended: Option<(i64, String)> = match one {
        One::ByHash(id_hash) => {
            sqlx::query_as("DELETE FROM sessions WHERE id_hash = $1 RETURNING user_id, id_hash")
                .bind(id_hash)
                .fetch_optional(write)
                .await?
        }
        One::Listed { member, public_id } => {
            sqlx::query_as("DELETE FROM sessions WHERE public_id = $1 AND user_id = $2 RETURNING user_id, id_hash")
                .bind(public_id)
                .bind(member)
                .fetch_optional(write)
                .await?
        }
    };
    Ok(ended.map(|(member, id_hash)| {
        crate::live::credentials_ended(member);
        id_hash
    }))
}

/// The most sessions a member's list shows (the most recently used).
pub const MAX_LISTED: i64 = 100;

/// A live session as its member sees it listed.
#[derive(Debug)]
pub struct Listed {
    pub public_id: String,
    pub user_agent: Option<String>,
    /// The network it was last used from (`ClientIp::network`).
    pub network: Option<String>,
    pub created_at: Millis,
    pub last_seen_at: Millis,
    pub signed_in_with: SignedInWith,
    /// The session of the request that asked.
    pub current: bool,
}

/// The member's live sessions: the asker's (`current_hash`) first, then the most recently used.
pub async fn list(read: &Pool, member: i64, current_hash: &str, now: Millis) -> Result<Vec<Listed>> {
    // public_id, user_agent, network, created_at, last_seen_at, signed_in_with, current (1 or 0)
    type Row = (String, Option<String>, Option<String>, Millis, Millis, String, i64);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT public_id, user_agent, network, created_at, last_seen_at, signed_in_with, CASE WHEN id_hash = $2 THEN 1 ELSE 0 END \
         FROM sessions \
         WHERE user_id = $1 AND public_id IS NOT NULL AND expires_at > $3 AND last_seen_at > $4 \
         ORDER BY CASE WHEN id_hash = $2 THEN 1 ELSE 0 END DESC, last_seen_at DESC, created_at DESC LIMIT $5",
    )
    .bind(member)
    .bind(current_hash)
    .bind(now)
    .bind(now - IDLE)
    .bind(MAX_LISTED)
    .fetch_all(read)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(public_id, user_agent, network, created_at, last_seen_at, signed_in_with, current)| Listed {
            public_id,
            user_agent,
            network,
            created_at,
            last_seen_at,
            signed_in_with: SignedInWith::parse(&signed_in_with),
            current: current == 1,
        })
        .collect())
}

/// Ends every session of a member but one, and every app's token of theirs, in the caller's
/// transaction (logging out everywhere: `accounts::log_out_everywhere`).
pub async fn delete_others(conn: &mut sqlx::AnyConnection, user_id: i64, keep_hash: &str) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id_hash <> $2")
        .bind(user_id)
        .bind(keep_hash)
        .execute(&mut *conn)
        .await?;
    crate::apps::end_all_of(conn, user_id).await?;
    crate::live::credentials_ended(user_id);
    Ok(done.rows_affected())
}

/// Ends every session of a member (a suspension), and every app's token of theirs, in the
/// caller's transaction: their next request, in any browser or app, is a visitor's.
pub async fn end_all(conn: &mut sqlx::AnyConnection, user_id: i64) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *conn).await?;
    crate::apps::end_all_of(conn, user_id).await?;
    crate::live::credentials_ended(user_id);
    Ok(done.rows_affected())
}

/// Removes expired sessions (background task).
pub async fn prune(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2")
        .bind(now)
        .bind(now - IDLE)
        .execute(write)
        .await?;
    Ok(done.rows_affected())
}
