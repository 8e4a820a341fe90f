//! Murmur's pool of database connections: sqlx's, and behind PgBouncer in transaction mode
//! (`--database-pooler pgbouncer`) every use of it one transaction that has committed before
//! the next statement of this process starts and before a request answers (docs/scaling.md).
//!
//! Why a pool of its own: outside a transaction PgBouncer may hand each message to another
//! server connection, and sqlx sends one statement in two steps (prepare, then run) each ending
//! in a Sync. So behind it a statement runs inside a transaction, and the transaction must have
//! committed when the statement answers: sqlx gives a connection back to its pool in a task of
//! its own, and a `COMMIT` sent there landed after the next statement (a post written, then
//! read back as not found).
//!
//! - A statement on the pool (`execute(&pool)`) is `BEGIN`, the statement and `COMMIT` (or
//!   `ROLLBACK` when it failed) on one connection before it answers.
//! - `Pool::begin` is a transaction like sqlx's: its `commit` is the `COMMIT`.
//! - A held connection (`Pool::acquire`) is one transaction from taking it to giving it back,
//!   its own transactions savepoints inside. Giving it back commits in a task of its own, and
//!   until that `COMMIT` has landed every later statement on a pool of the database, every new
//!   held connection and transaction waits (`Commits`), and so does the answer of the request
//!   (`Pool::settling`), which is a 503 if it failed. Held connections and transactions already
//!   held do not wait; Murmur never waits for one while holding a lock another needs.
//!
//! Without a pooler every method is sqlx's own, with nothing added.

use std::collections::BTreeSet;
use std::future::Future;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use futures::stream::{self, BoxStream};
use futures::{StreamExt, TryStreamExt};
use sqlx::any::{AnyQueryResult, AnyRow, AnyStatement, AnyTypeInfo};
use sqlx::{Any, AnyConnection, AnyPool, Either, Execute, Executor, SqlSafeStr, SqlStr, Transaction};
use sqlx_core::transaction::TransactionManager;
use tokio::sync::Notify;

type Manager = <Any as sqlx::Database>::TransactionManager;

/// The statement each transaction begins with behind a pooler: the statements the server
/// connection's last client prepared are let go (their names would clash with ours), and the
/// settings every connection has otherwise are made for this transaction.
const POOLED_BEGIN: &str = "DEALLOCATE ALL; BEGIN; SET LOCAL jit = off";

/// How long a given-back connection's `COMMIT` may take before the connection is closed (and
/// its transaction rolled back by the server): every statement of the process waits for it.
const COMMIT_WAIT: Duration = Duration::from_secs(10);

tokio::task_local! {
    /// Set by `Pool::settling` for a request: whether a connection it held failed to commit.
    static FAILED_COMMIT: Arc<AtomicBool>;
}

/// A pool of connections to the database (module docs).
#[derive(Clone, Debug)]
pub struct Pool {
    inner: AnyPool,
    /// Behind a pooler: the `COMMIT`s of given-back connections still on their way.
    commits: Option<Arc<Commits>>,
}

impl Pool {
    /// sqlx's pool as it is, for a database reached directly.
    pub(crate) fn direct(inner: AnyPool) -> Pool {
        Pool { inner, commits: None }
    }

    /// sqlx's pool behind a pooler in transaction mode; the pools of one database share
    /// `commits`, so a statement on one waits for a connection given back to another.
    pub(crate) fn pooled(inner: AnyPool, commits: Arc<Commits>) -> Pool {
        Pool { inner, commits: Some(commits) }
    }

    /// sqlx's pool, for what takes it as it is (the migrator; the figures of `/metrics`).
    pub fn sqlx(&self) -> &AnyPool {
        &self.inner
    }

    /// A connection of the pool, held until dropped (module docs).
    pub async fn acquire(&self) -> sqlx::Result<PoolConnection> {
        let Some(commits) = &self.commits else {
            return Ok(PoolConnection { conn: Some(self.inner.acquire().await?), commits: None });
        };
        commits.settled().await;
        let mut conn = self.inner.acquire().await?;
        Manager::begin(&mut conn, Some(POOLED_BEGIN.into_sql_str())).await?;
        Ok(PoolConnection { conn: Some(conn), commits: Some(commits.clone()) })
    }

    /// A transaction on a connection of the pool; `commit` commits it.
    pub async fn begin(&self) -> sqlx::Result<Transaction<'static, Any>> {
        match &self.commits {
            None => self.inner.begin().await,
            Some(commits) => {
                commits.settled().await;
                self.inner.begin_with(POOLED_BEGIN).await
            }
        }
    }

    /// Waits until every connection given back so far has committed (behind a pooler; at once
    /// otherwise): what a job publishes after letting its writer go is then there for readers.
    pub async fn settled(&self) {
        if let Some(commits) = &self.commits {
            commits.settled().await;
        }
    }

    /// Runs `work` (a request), then waits until the connections given back so far have
    /// committed, so the member's next request sees its writes; answers its output, and whether
    /// every connection `work` held committed (always, without a pooler).
    pub async fn settling<F: Future>(&self, work: F) -> (F::Output, bool) {
        let Some(commits) = &self.commits else { return (work.await, true) };
        let failed = Arc::new(AtomicBool::new(false));
        let output = FAILED_COMMIT.scope(failed.clone(), work).await;
        commits.settled().await;
        (output, !failed.load(Ordering::Acquire))
    }

    pub async fn close(&self) {
        self.inner.close().await;
    }

    /// Runs `statement` behind a pooler as one transaction on one connection, answering its
    /// results once it has committed.
    async fn in_a_transaction<'q, E>(
        &self,
        commits: &Commits,
        statement: E,
    ) -> sqlx::Result<Vec<Either<AnyQueryResult, AnyRow>>>
    where
        E: 'q + Execute<'q, Any>,
    {
        commits.settled().await;
        let mut conn = self.inner.acquire().await?;
        Manager::begin(&mut conn, Some(POOLED_BEGIN.into_sql_str())).await?;
        let results: sqlx::Result<Vec<_>> = conn.fetch_many(statement).try_collect().await;
        match results {
            Ok(results) => {
                Manager::commit(&mut conn).await?;
                Ok(results)
            }
            Err(error) => {
                // The statement's error is the answer; a connection that cannot roll back is
                // closed by the pool when it is given back.
                let _ = Manager::rollback(&mut conn).await;
                Err(error)
            }
        }
    }
}

impl<'p> Executor<'p> for &'_ Pool {
    type Database = Any;

    fn fetch_many<'e, 'q: 'e, E>(self, query: E) -> BoxStream<'e, sqlx::Result<Either<AnyQueryResult, AnyRow>>>
    where
        E: 'q + Execute<'q, Any>,
    {
        let Some(commits) = self.commits.clone() else {
            return (&self.inner).fetch_many(query);
        };
        let pool = self.clone();
        stream::once(async move { pool.in_a_transaction(&commits, query).await })
            .map_ok(|results| stream::iter(results.into_iter().map(Ok)))
            .try_flatten()
            .boxed()
    }

    fn fetch_optional<'e, 'q: 'e, E>(self, query: E) -> BoxFuture<'e, sqlx::Result<Option<AnyRow>>>
    where
        E: 'q + Execute<'q, Any>,
    {
        let Some(commits) = self.commits.clone() else {
            return (&self.inner).fetch_optional(query);
        };
        let pool = self.clone();
        Box::pin(async move {
            let results = pool.in_a_transaction(&commits, query).await?;
            Ok(results.into_iter().find_map(|result| result.right()))
        })
    }

    fn prepare_with<'e>(self, sql: SqlStr, parameters: &'e [AnyTypeInfo]) -> BoxFuture<'e, sqlx::Result<AnyStatement>>
    where
        'p: 'e,
    {
        (&self.inner).prepare_with(sql, parameters)
    }

    fn describe<'e>(self, sql: SqlStr) -> BoxFuture<'e, sqlx::Result<sqlx_core::describe::Describe<Any>>> {
        (&self.inner).describe(sql)
    }
}

/// A connection taken from a `Pool`, given back when dropped (module docs).
pub struct PoolConnection {
    /// Always Some but while being dropped.
    conn: Option<sqlx::pool::PoolConnection<Any>>,
    commits: Option<Arc<Commits>>,
}

impl Deref for PoolConnection {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        self.conn.as_ref().expect("a held connection")
    }
}

impl DerefMut for PoolConnection {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.conn.as_mut().expect("a held connection")
    }
}

impl std::fmt::Debug for PoolConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PoolConnection").field("pooled", &self.commits.is_some()).finish()
    }
}

impl Drop for PoolConnection {
    fn drop(&mut self) {
        let (Some(commits), Some(mut conn)) = (self.commits.take(), self.conn.take()) else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let sent = Sent::new(commits);
        let failed = FAILED_COMMIT.try_with(Arc::clone).ok();
        // As sqlx gives a connection back: in a task, since a drop cannot wait.
        runtime.spawn(async move {
            // What the holder's own transactions left open (a savepoint dropped unfinished) was
            // rolled back by sqlx; the transaction the holding is, is committed.
            let committed = tokio::time::timeout(COMMIT_WAIT, async {
                while Manager::get_transaction_depth(&conn) > 0 {
                    Manager::commit(&mut conn).await?;
                }
                Ok::<(), sqlx::Error>(())
            })
            .await;
            if !matches!(committed, Ok(Ok(()))) {
                // Nothing of it was committed: the server rolls it back with the connection.
                tracing::error!(?committed, "a held database connection could not commit its writes");
                conn.close_on_drop();
                if let Some(failed) = failed {
                    failed.store(true, Ordering::Release);
                }
            }
            drop(conn);
            drop(sent);
        });
    }
}

/// A `COMMIT` on its way: landed (`Commits::finish`) when dropped, even by a task that ends
/// before it ran.
struct Sent {
    commits: Arc<Commits>,
    number: u64,
}

impl Sent {
    fn new(commits: Arc<Commits>) -> Sent {
        let number = commits.start();
        Sent { commits, number }
    }
}

impl Drop for Sent {
    fn drop(&mut self) {
        self.commits.finish(self.number);
    }
}

/// The `COMMIT`s of held connections given back behind a pooler that have not yet landed,
/// numbered in the order they were sent.
#[derive(Debug, Default)]
pub(crate) struct Commits {
    state: Mutex<InFlight>,
    landed: Notify,
}

#[derive(Debug, Default)]
struct InFlight {
    next: u64,
    sent: BTreeSet<u64>,
}

impl Commits {
    fn start(&self) -> u64 {
        let mut state = self.state.lock().expect("commits lock");
        let number = state.next;
        state.next += 1;
        state.sent.insert(number);
        number
    }

    fn finish(&self, number: u64) {
        self.state.lock().expect("commits lock").sent.remove(&number);
        self.landed.notify_waiters();
    }

    /// Waits until every `COMMIT` sent before this call has landed.
    async fn settled(&self) {
        let before = self.state.lock().expect("commits lock").next;
        loop {
            let landed = self.landed.notified();
            let mut landed = std::pin::pin!(landed);
            // Registered before looking, so a `finish` between the look and the wait wakes it.
            landed.as_mut().enable();
            if self.state.lock().expect("commits lock").sent.first().is_none_or(|&first| first >= before) {
                return;
            }
            landed.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn pgbouncer_without_a_direct_url_is_refused_before_connecting() {
        let options = super::super::DbOptions { pooler: super::super::Pooler::Pgbouncer, ..Default::default() };
        // Nothing listens on port 1: the refusal comes before any connection is tried.
        let refused = super::super::Db::connect_with_options(
            "postgres://murmur@127.0.0.1:1/murmur",
            super::super::Checkpoints::OnCommit,
            options,
        )
        .await
        .err()
        .expect("refused");
        assert!(refused.to_string().contains("needs --database-listen-url"), "{refused}");
    }

    #[tokio::test]
    async fn settled_waits_for_the_commits_sent_before_it_only() {
        let commits = Arc::new(Commits::default());
        let first = commits.start();
        let waiting = tokio::spawn({
            let commits = commits.clone();
            async move { commits.settled().await }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        // A commit sent after the wait began is not waited for.
        let later = commits.start();
        assert!(!waiting.is_finished(), "settled before the first commit landed");
        commits.finish(first);
        tokio::time::timeout(Duration::from_secs(1), waiting).await.expect("settled once it landed").unwrap();
        commits.finish(later);
        tokio::time::timeout(Duration::from_secs(1), commits.settled()).await.expect("nothing in flight");
    }
}
