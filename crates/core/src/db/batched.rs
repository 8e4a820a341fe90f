//! Reads of one row by its key that start many requests (a session, an app's token), made
//! together: the requests waiting for theirs at the same moment are read in one statement.
//!
//! Why: under load every authenticated request begins with the same small statement, and on
//! PostgreSQL each statement is a round trip to a database process on the same cores. One
//! statement for all the requests that wait at once costs the database little more than one of
//! them (docs/performance.md).
//!
//! Nothing changes for the request:
//! - its row is read by a statement that starts after the request asked (a batch takes only the
//!   requests already waiting when it starts), so a logout, a revoked token or the member's own
//!   write that committed before the request is seen exactly as with a statement of its own;
//!   nothing is kept between requests;
//! - each request gets only the row of its own key (or none);
//! - when nothing else is being read the request is read at once, alone: no timer, no waiting
//!   for company. Batches form only while `in_flight()` statements are already running.
//!
//! Write requests read alone (`BatchedReads::alone`): they run on the write thread, with
//! connections of their own, and must not wait in line behind the readers' batches.

use std::sync::{Arc, LazyLock};

use sqlx::any::AnyRow;
use tokio::sync::{Semaphore, mpsc, oneshot};

use crate::db::Pool;
use crate::error::{Error, Result};

/// The most keys one statement reads (statements are made for 1, 2, 4 … `MAX_BATCH` keys, the
/// list padded by repeating its last key, so each connection prepares at most seven of them
/// per kind of read).
const MAX_BATCH: usize = 64;

/// Batch statements running at once, per kind of read: one per core. Fewer in flight make
/// bigger batches, more keep the cores busy; more than one per core gained nothing in the
/// benchmark (docs/performance.md).
fn in_flight() -> usize {
    crate::db::cores().max(2)
}

/// A kind of read: its statement for each batch size, and the key of a row it answers. Made as
/// a `static`: `KeyedRead { statements: LazyLock::new(|| statements(…)), key: … }`.
pub struct KeyedRead<R: 'static> {
    /// The statements for 1, 2, 4 … `MAX_BATCH` keys (`statements`), made on first use.
    pub statements: LazyLock<Vec<String>>,
    /// A row's key, as it was asked for.
    pub key: fn(&R) -> &str,
}

/// The statements of a kind of read, from its text with the list of keys given (`$1, $2 …`):
/// `statements(|keys| format!("SELECT … WHERE hash IN ({keys})"))`.
pub fn statements(text: impl Fn(&str) -> String) -> Vec<String> {
    (0..=MAX_BATCH.trailing_zeros())
        .map(|power| {
            let keys: Vec<String> = (1..=1usize << power).map(|n| format!("${n}")).collect();
            text(&keys.join(", "))
        })
        .collect()
}

/// How the rows of a kind of read are read in this process. Cheap to clone.
pub struct BatchedReads<R: 'static> {
    keyed: &'static KeyedRead<R>,
    how: How<R>,
}

enum How<R> {
    /// Through a batching task of this process.
    Together(mpsc::Sender<Ask<R>>),
    /// One statement per request, on this pool.
    Alone(Pool),
}

impl<R> Clone for BatchedReads<R> {
    fn clone(&self) -> Self {
        let how = match &self.how {
            How::Together(asks) => How::Together(asks.clone()),
            How::Alone(pool) => How::Alone(pool.clone()),
        };
        BatchedReads { keyed: self.keyed, how }
    }
}

/// A request's ask: its key, and where to send the row.
struct Ask<R> {
    key: String,
    reply: oneshot::Sender<Result<Option<R>, Failure>>,
}

/// Why a batch's statement failed, for each of its requests (the cause is logged once).
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// The database cannot be reached: a 503, as any statement's would be.
    Unavailable,
    Failed,
}

impl<R> BatchedReads<R>
where
    R: for<'r> sqlx::FromRow<'r, AnyRow> + Clone + Send + Unpin + 'static,
{
    /// Starts the batching task on the current runtime; it ends when the last clone is dropped.
    pub fn together(pool: &Pool, keyed: &'static KeyedRead<R>) -> Self {
        let (asks, waiting) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(batches(pool.clone(), keyed, waiting));
        BatchedReads { keyed, how: How::Together(asks) }
    }

    /// Each request's row in a statement of its own, on `pool`.
    pub fn alone(pool: &Pool, keyed: &'static KeyedRead<R>) -> Self {
        BatchedReads { keyed, how: How::Alone(pool.clone()) }
    }

    /// The row with this key, if there is one.
    pub async fn read(&self, key: &str) -> Result<Option<R>> {
        let asks = match &self.how {
            How::Alone(pool) => return Ok(read_rows(pool, self.keyed, &[key]).await?.into_iter().next()),
            How::Together(asks) => asks,
        };
        let stopped = || Error::Internal(anyhow::anyhow!("a batching task stopped"));
        let (reply, answer) = oneshot::channel();
        asks.send(Ask { key: key.to_owned(), reply }).await.map_err(|_| stopped())?;
        match answer.await.map_err(|_| stopped())? {
            Ok(row) => Ok(row),
            Err(Failure::Unavailable) => Err(Error::Unavailable(crate::error::UNAVAILABLE.into())),
            Err(Failure::Failed) => Err(Error::Internal(anyhow::anyhow!("a batched read failed (logged above)"))),
        }
    }
}

/// Takes the waiting asks as batches, at most `in_flight()` statements at a time.
async fn batches<R>(pool: Pool, keyed: &'static KeyedRead<R>, mut waiting: mpsc::Receiver<Ask<R>>)
where
    R: for<'r> sqlx::FromRow<'r, AnyRow> + Clone + Send + Unpin + 'static,
{
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
            read_batch_and_reply(&pool, keyed, batch).await;
            drop(turn);
        });
    }
}

/// Reads a batch in one statement and sends each waiting request its own row.
async fn read_batch_and_reply<R>(pool: &Pool, keyed: &'static KeyedRead<R>, batch: Vec<Ask<R>>)
where
    R: for<'r> sqlx::FromRow<'r, AnyRow> + Clone + Send + Unpin + 'static,
{
    if batch.is_empty() {
        return;
    }
    let keys: Vec<&str> = batch.iter().map(|ask| ask.key.as_str()).collect();
    match read_rows(pool, keyed, &keys).await {
        Ok(rows) => {
            for ask in batch {
                let row = rows.iter().find(|row| (keyed.key)(row) == ask.key).cloned();
                let _ = ask.reply.send(Ok(row));
            }
        }
        Err(e) => {
            let failure = if crate::error::is_unavailable(&e) {
                tracing::warn!(error = %e, batch = batch.len(), "database unavailable");
                Failure::Unavailable
            } else {
                tracing::error!(error = ?e, batch = batch.len(), "a batched read failed");
                Failure::Failed
            };
            for ask in batch {
                let _ = ask.reply.send(Err(failure));
            }
        }
    }
}

/// The rows of `keys` (1 to `MAX_BATCH` of them) that exist.
async fn read_rows<R>(pool: &Pool, keyed: &'static KeyedRead<R>, keys: &[&str]) -> sqlx::Result<Vec<R>>
where
    R: for<'r> sqlx::FromRow<'r, AnyRow> + Send + Unpin,
{
    let size = keys.len().next_power_of_two();
    let mut query = sqlx::query_as(keyed.statements[size.trailing_zeros() as usize].as_str());
    for i in 0..size {
        query = query.bind(keys[i.min(keys.len() - 1)]);
    }
    query.fetch_all(pool).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_made_for_every_batch_size() {
        let made = statements(|keys| format!("IN ({keys})"));
        assert_eq!(made.len(), 7);
        assert_eq!(made[0], "IN ($1)");
        assert_eq!(made[2], "IN ($1, $2, $3, $4)");
        assert!(made[6].ends_with(&format!("${MAX_BATCH})")));
    }
}
