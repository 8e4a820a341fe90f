//! Behind PgBouncer in transaction mode (`--database-pooler pgbouncer`, docs/scaling.md).
//!
//! PgBouncer may hand the next message to another server connection whenever no transaction is
//! open: between sqlx's two steps of one statement (prepare, then run, each ending in a Sync),
//! and between statements. So every use of a pooled connection is one transaction, from taking
//! it to giving it back (`pool`); `pool.begin()` then makes a savepoint inside it.
//!
//! sqlx gives a connection back in a task of its own, so that transaction commits a moment
//! after the statement answered. A request therefore answers only once the transactions of the
//! connections it took have committed (`committed`, around each request): each transaction
//! carries its request's number (`SET LOCAL murmur.request`), read back when it commits.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{Executor, SqlSafeStr};
use sqlx_core::transaction::TransactionManager;
use tokio::sync::Notify;

type Manager = <sqlx::Any as sqlx::Database>::TransactionManager;

/// What each use of a pooled connection begins with: the statements the server connection's
/// last client prepared are let go (their names would clash with ours), the settings every
/// connection has otherwise are made for this transaction (`begin` adds the request's number,
/// and a savepoint that lets a use whose statement failed still read it: `commit`).
const BEGIN: &str = "DEALLOCATE ALL; BEGIN; SET LOCAL jit = off";

/// How long a request waits for its transactions to commit before it answers that nothing may
/// have been saved: a connection closed instead of given back (its transaction rolled back)
/// never reports.
const MOST_WAIT: Duration = Duration::from_secs(10);

tokio::task_local! {
    /// The request whose connections are being counted (`committed`).
    static REQUEST: Arc<Request>;
}

/// A request's uses of pooled connections not yet committed.
#[derive(Default)]
struct Request {
    open: AtomicUsize,
    failed: AtomicBool,
    all_committed: Notify,
    /// The numbers its uses were given, forgotten when the request answers.
    numbers: Mutex<Vec<u64>>,
}

impl Request {
    fn done(&self, committed: bool) {
        if !committed {
            self.failed.store(true, Ordering::SeqCst);
        }
        if self.open.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.all_committed.notify_waiters();
        }
    }
}

/// The requests with uses in flight, by the number each use's transaction carries.
static IN_FLIGHT: LazyLock<Mutex<HashMap<u64, Arc<Request>>>> = LazyLock::new(Default::default);
static NEXT_NUMBER: AtomicU64 = AtomicU64::new(1);

/// Runs a request's handling, then waits until every pooled connection it took has committed:
/// true when all did, false when one failed or did not report within `MOST_WAIT` (what it
/// wrote may be lost, so a success must not be answered).
pub async fn committed<F: Future>(handling: F) -> (F::Output, bool) {
    let request = Arc::new(Request::default());
    let output = REQUEST.scope(request.clone(), handling).await;
    let all = async {
        loop {
            let notified = request.all_committed.notified();
            if request.open.load(Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    };
    let reported = tokio::time::timeout(MOST_WAIT, all).await.is_ok();
    let numbers = std::mem::take(&mut *request.numbers.lock().expect("request numbers"));
    let mut in_flight = IN_FLIGHT.lock().expect("requests in flight");
    for number in numbers {
        in_flight.remove(&number);
    }
    (output, reported && !request.failed.load(Ordering::SeqCst))
}

/// Begins the transaction a use of a pooled connection is, numbered by the request taking it
/// (0 outside a request: a background job's).
async fn begin(conn: &mut sqlx::AnyConnection) -> sqlx::Result<()> {
    let request = REQUEST.try_with(Arc::clone).ok();
    let number = match &request {
        Some(request) => {
            let number = NEXT_NUMBER.fetch_add(1, Ordering::Relaxed);
            request.open.fetch_add(1, Ordering::SeqCst);
            request.numbers.lock().expect("request numbers").push(number);
            IN_FLIGHT.lock().expect("requests in flight").insert(number, request.clone());
            number
        }
        None => 0,
    };
    let statement = format!("{BEGIN}; SET LOCAL murmur.request = '{number}'; SAVEPOINT murmur_use");
    let begun = Manager::begin(conn, Some(sqlx::AssertSqlSafe(statement).into_sql_str())).await;
    if let (Err(_), Some(request)) = (&begun, request) {
        IN_FLIGHT.lock().expect("requests in flight").remove(&number);
        request.done(false);
    }
    begun
}

/// Commits a use of a pooled connection and tells its request. A use whose statement failed
/// left the transaction aborted: it is rolled back to its start first, so its number can be
/// read (and nothing of it is kept, as a rollback would).
async fn commit(conn: &mut sqlx::AnyConnection) -> sqlx::Result<()> {
    if Manager::get_transaction_depth(conn) == 0 {
        return Ok(());
    }
    const NUMBER: &str = "SELECT current_setting('murmur.request', true)";
    let number = match conn.fetch_one(NUMBER).await {
        Ok(row) => row,
        Err(_) => {
            conn.execute("ROLLBACK TO SAVEPOINT murmur_use").await?;
            conn.fetch_one(NUMBER).await?
        }
    };
    let number: Option<String> = sqlx::Row::try_get(&number, 0)?;
    let request = number
        .and_then(|n| n.parse::<u64>().ok())
        .and_then(|n| IN_FLIGHT.lock().expect("requests in flight").remove(&n));
    let mut committed = Ok(());
    while Manager::get_transaction_depth(conn) > 0 && committed.is_ok() {
        committed = Manager::commit(conn).await;
    }
    if let Some(request) = request {
        request.done(committed.is_ok());
    }
    committed
}

/// A pool whose every use of a connection is one transaction (see the module's comment).
pub(super) fn pool(pool: AnyPoolOptions) -> AnyPoolOptions {
    // A connection past its lifetime is closed instead of given back, and its transaction
    // rolled back: it never grows old.
    // sqlx calls `after_connect` for a new connection and `before_acquire` for an idle one.
    pool.max_lifetime(None)
        .after_connect(|conn, _meta| Box::pin(begin(conn)))
        .before_acquire(|conn, _meta| {
            Box::pin(async move {
                begin(conn).await?;
                Ok(true)
            })
        })
        .after_release(|conn, _meta| {
            Box::pin(async move {
                commit(conn).await?;
                Ok(true)
            })
        })
}
