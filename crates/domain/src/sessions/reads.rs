//! The session reads that start members' requests, made together: the requests waiting for
//! their session at the same moment are read in one statement.
//!
//! Why: under load every authenticated request begins with the same small statement, and on
//! PostgreSQL each statement is a round trip to a database process on the same cores; a kept
//! Friends page costs nothing else (`feeds::cache`). One statement for all the requests that
//! wait at once costs the database little more than one of them (docs/performance.md).
//!
//! Nothing changes for the member:
//! - a request's session is read by a statement that starts after the request asked (a batch
//!   takes only the requests already waiting when it starts), so a logout, "log out other
//!   sessions", or the member's own write that committed before the request is seen exactly
//!   as with a statement of its own; nothing is kept between requests;
//! - each request gets only the row of its own session's hash (or none);
//! - when nothing else is being read the request is read at once, alone: no timer, no waiting
//!   for company. Batches form only while `in_flight()` statements are already running.
//!
//! Write requests read their session alone (`SessionReads::alone`): they run on the write
//! thread, with connections of their own (`AppState::for_writes`), and must not
//! wait in line behind the readers' batches.

use std::sync::{Arc, LazyLock};

use tokio::sync::{Semaphore, mpsc, oneshot};

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};

/// What a lookup reads besides the session.
#[derive(Clone, Copy, Debug)]
pub enum Reading {
    SessionOnly,
    /// The member's `FeedMarks` too, in the same statement: a kept Friends page is then
    /// answered after this one statement.
    WithFeedMarks,
}

/// A session's row: `(user_id, last_seen_at, expires_at, feed_version, newest timeline post)`
/// (the last two are 0 and NULL for `Reading::SessionOnly`).
pub type SessionRow = (i64, Millis, Millis, i64, Option<i64>);

/// The most sessions one statement reads (statements are made for 1, 2, 4 … `MAX_BATCH`
/// hashes, the list padded by repeating its last hash, so each connection prepares at most
/// seven of them per kind of reading).
const MAX_BATCH: usize = 64;

/// Batch statements running at once, per kind of reading: one per core. Fewer in flight make
/// bigger batches, more keep the cores busy; more than one per core gained nothing in the
/// benchmark (docs/performance.md).
fn in_flight() -> usize {
    murmur_core::db::cores().max(2)
}

/// How the sessions of a state's requests are read. Cheap to clone.
#[derive(Clone)]
pub enum SessionReads {
    /// Through the batching tasks of this process, one per kind of reading.
    Together { session_only: mpsc::Sender<Ask>, with_marks: mpsc::Sender<Ask> },
    /// One statement per request, on this pool.
    Alone(Pool),
}

/// A request's ask: its session's hash, and where to send the row.
pub struct Ask {
    id_hash: String,
    reply: oneshot::Sender<Result<Option<SessionRow>, Failure>>,
}

/// Why a batch's statement failed, for each of its requests (the cause is logged once).
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// The database cannot be reached: a 503, as any statement's would be.
    Unavailable,
    Failed,
}

impl SessionReads {
    /// Starts the batching tasks on the current runtime; they end when the last clone is dropped.
    pub fn together(pool: &Pool) -> SessionReads {
        SessionReads::Together {
            session_only: spawn_batches(pool.clone(), Reading::SessionOnly),
            with_marks: spawn_batches(pool.clone(), Reading::WithFeedMarks),
        }
    }

    /// Each request's session in a statement of its own, on `pool`.
    pub fn alone(pool: &Pool) -> SessionReads {
        SessionReads::Alone(pool.clone())
    }

    /// The row of the session with this hash, if there is one.
    pub async fn read(&self, id_hash: &str, reading: Reading) -> Result<Option<SessionRow>> {
        let asks = match self {
            SessionReads::Alone(pool) => {
                let rows = read_rows(pool, reading, &[id_hash]).await?;
                return Ok(rows.into_iter().next().map(|(_, row)| row));
            }
            SessionReads::Together { session_only, with_marks } => match reading {
                Reading::SessionOnly => session_only,
                Reading::WithFeedMarks => with_marks,
            },
        };
        let stopped = || Error::Internal(anyhow::anyhow!("the session reads' task stopped"));
        let (reply, answer) = oneshot::channel();
        asks.send(Ask { id_hash: id_hash.to_owned(), reply }).await.map_err(|_| stopped())?;
        match answer.await.map_err(|_| stopped())? {
            Ok(row) => Ok(row),
            Err(Failure::Unavailable) => Err(Error::Unavailable(murmur_core::error::UNAVAILABLE.into())),
            Err(Failure::Failed) => Err(Error::Internal(anyhow::anyhow!("reading sessions failed (logged above)"))),
        }
    }
}

fn spawn_batches(pool: Pool, reading: Reading) -> mpsc::Sender<Ask> {
    let (asks, waiting) = mpsc::channel(4 * MAX_BATCH);
    tokio::spawn(batches(pool, reading, waiting));
    asks
}

/// Takes the waiting asks as batches, at most `in_flight()` statements at a time.
async fn batches(pool: Pool, reading: Reading, mut waiting: mpsc::Receiver<Ask>) {
    let in_flight = Arc::new(Semaphore::new(in_flight()));
    loop {
        // A turn first, then the asks: while every turn is taken, asks gather in the channel.
        let Ok(turn) = in_flight.clone().acquire_owned().await else { return };
        let Some(first) = waiting.recv().await else { return };
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH
            && let Ok(ask) = waiting.try_recv()
        {
            batch.push(ask);
        }
        // A request that went away (its client closed the connection) needs no answer.
        batch.retain(|ask| !ask.reply.is_closed());
        let pool = pool.clone();
        tokio::spawn(async move {
            read_batch_and_reply(&pool, reading, batch).await;
            drop(turn);
        });
    }
}

/// Reads a batch of sessions in one statement and sends each waiting request its own.
async fn read_batch_and_reply(pool: &Pool, reading: Reading, batch: Vec<Ask>) {
    if batch.is_empty() {
        return;
    }
    let hashes: Vec<&str> = batch.iter().map(|ask| ask.id_hash.as_str()).collect();
    match read_rows(pool, reading, &hashes).await {
        Ok(rows) => {
            for ask in batch {
                let row = rows.iter().find(|(hash, _)| *hash == ask.id_hash).map(|(_, row)| *row);
                let _ = ask.reply.send(Ok(row));
            }
        }
        Err(e) => {
            let failure = if murmur_core::error::is_unavailable(&e) {
                tracing::warn!(error = %e, sessions = batch.len(), "database unavailable");
                Failure::Unavailable
            } else {
                tracing::error!(error = ?e, sessions = batch.len(), "reading sessions failed");
                Failure::Failed
            };
            for ask in batch {
                let _ = ask.reply.send(Err(failure));
            }
        }
    }
}

/// The sessions among `hashes` (1 to `MAX_BATCH` of them) that exist, with their hash.
async fn read_rows(pool: &Pool, reading: Reading, hashes: &[&str]) -> sqlx::Result<Vec<(String, SessionRow)>> {
    let size = hashes.len().next_power_of_two();
    let mut query = sqlx::query_as(statement(reading, size));
    for i in 0..size {
        query = query.bind(hashes[i.min(hashes.len() - 1)]);
    }
    let rows: Vec<(String, i64, Millis, Millis, i64, Option<i64>)> = query.fetch_all(pool).await?;
    Ok(rows.into_iter().map(|(hash, a, b, c, d, e)| (hash, (a, b, c, d, e))).collect())
}

/// The statement reading `size` sessions (a power of two up to `MAX_BATCH`).
fn statement(reading: Reading, size: usize) -> &'static str {
    static STATEMENTS: LazyLock<[Vec<String>; 2]> = LazyLock::new(|| {
        [Reading::SessionOnly, Reading::WithFeedMarks]
            .map(|reading| (0..=MAX_BATCH.trailing_zeros()).map(|power| statement_for(reading, 1 << power)).collect())
    });
    let kind = match reading {
        Reading::SessionOnly => 0,
        Reading::WithFeedMarks => 1,
    };
    &STATEMENTS[kind][size.trailing_zeros() as usize]
}

fn statement_for(reading: Reading, size: usize) -> String {
    let list: Vec<String> = (1..=size).map(|n| format!("${n}")).collect();
    let list = list.join(", ");
    match reading {
        Reading::SessionOnly => format!(
            "SELECT id_hash, user_id, last_seen_at, expires_at, CAST(0 AS BIGINT), CAST(NULL AS BIGINT) \
             FROM sessions WHERE id_hash IN ({list})"
        ),
        Reading::WithFeedMarks => format!(
            "SELECT s.id_hash, s.user_id, s.last_seen_at, s.expires_at, {} \
             FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash IN ({list})",
            crate::timelines::marks::columns("s.user_id")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_made_for_every_batch_size() {
        for reading in [Reading::SessionOnly, Reading::WithFeedMarks] {
            assert!(statement(reading, 1).ends_with("IN ($1)"));
            assert!(statement(reading, 4).ends_with("IN ($1, $2, $3, $4)"));
            assert!(statement(reading, MAX_BATCH).ends_with(&format!("${MAX_BATCH})")));
        }
        assert!(statement(Reading::WithFeedMarks, 2).contains("feed_version"));
        assert!(!statement(Reading::SessionOnly, 2).contains("feed_version"));
    }
}
