//! PostgreSQL read replicas (hot standbys) for the reads that may be a moment old, without a
//! member ever missing what they just did.
//!
//! Precise rather than by a timer: after a member's write request, their position in the
//! primary's write-ahead log (`pg_current_wal_lsn()`) is kept in `member_positions` on the
//! primary (`remember`), where any process reads it (`position_of`). Each process polls each
//! replica for how far it has replayed (`pg_last_wal_replay_lsn()`, `poll`); a read goes to a
//! replica only once it has replayed past the reader's position (`pick`), else to the primary.
//! A replica that does not answer, or lags more than `MOST_LAG`, is set aside until a later
//! poll finds it answering and caught up; the primary serves meanwhile.

use std::collections::VecDeque;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::AnyPool;

use super::Pool;
use sqlx::any::AnyConnectOptions;

use super::Pooler;

/// A position in the primary's write-ahead log, as a number (bytes from `0/0`).
pub type Lsn = i64;

/// How often each process asks every replica how far it has replayed.
pub const POLL_EVERY: Duration = Duration::from_millis(250);

/// A replica further behind than this is set aside: a moment old, not minutes.
pub const MOST_LAG: Duration = Duration::from_secs(3);

/// How long a poll of one replica may take before it counts as not answering.
const POLL_TIMEOUT: Duration = Duration::from_secs(1);

/// How far back the primary's positions are kept to measure a replica's lag by: past
/// `MOST_LAG`, a longer lag is only "more than that".
const HISTORY: Duration = Duration::from_secs(30);

/// Replicas one process reads from at most (their metrics are labelled by index).
pub const MOST_REPLICAS: usize = 8;

/// Connections each replica's pool opens at most.
const REPLICA_CONNECTIONS: u32 = 16;

/// The replicas of this process, and what its last poll found; cheap to clone.
#[derive(Clone, Default)]
pub struct Replicas(Arc<Inner>);

#[derive(Default)]
struct Inner {
    replicas: Vec<Replica>,
    /// Where the next read starts looking, so reads spread over the replicas.
    next: AtomicUsize,
    /// The primary's positions at past polls, with when each was first seen, oldest first.
    primary: Mutex<VecDeque<(Instant, Lsn)>>,
}

struct Replica {
    pool: Pool,
    state: Mutex<ReplicaState>,
    /// Reads this replica served (`served`).
    reads: AtomicU64,
}

/// One replica as the last poll found it (`/readyz`, `/metrics`).
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaState {
    /// Reads may go to it.
    pub in_use: bool,
    /// How far it has replayed (0 before the first answer).
    pub replayed: Lsn,
    /// How long ago the primary was where the replica is now (0 when caught up).
    pub lag: Duration,
    /// Why it is set aside, in plain words.
    pub problem: Option<String>,
}

impl Default for ReplicaState {
    fn default() -> Self {
        ReplicaState { in_use: false, replayed: 0, lag: Duration::ZERO, problem: Some("not polled yet".into()) }
    }
}

impl Replicas {
    /// Pools for the replicas the URLs name, connected when first used: a replica down at
    /// start only stays set aside. `ours` makes sqlx's pool Murmur's, as the primary's are.
    pub fn connect(urls: &[String], pooler: Pooler, ours: &dyn Fn(AnyPool) -> Pool) -> anyhow::Result<Replicas> {
        if urls.len() > MOST_REPLICAS {
            anyhow::bail!(
                "--database-replica-url names {} replicas; at most {MOST_REPLICAS} are read from",
                urls.len()
            );
        }
        let mut replicas = Vec::with_capacity(urls.len());
        for url in urls {
            if !(url.starts_with("postgres:") || url.starts_with("postgresql:")) {
                anyhow::bail!("--database-replica-url expects postgres:// URLs");
            }
            let options = match pooler {
                Pooler::None => AnyConnectOptions::from_str(url)?,
                Pooler::Pgbouncer => super::postgres_options(url, pooler)?,
            };
            let pool = ours(
                super::postgres_pool(REPLICA_CONNECTIONS, pooler)
                    .acquire_timeout(POLL_TIMEOUT)
                    .connect_lazy_with(options),
            );
            replicas.push(Replica { pool, state: Mutex::new(ReplicaState::default()), reads: AtomicU64::new(0) });
        }
        Ok(Replicas(Arc::new(Inner { replicas, ..Default::default() })))
    }

    pub fn is_empty(&self) -> bool {
        self.0.replicas.is_empty()
    }

    /// A replica in use that has replayed past `position` (any in use without one), taking
    /// turns, with its index; None when only the primary will do.
    pub fn pick(&self, position: Option<Lsn>) -> Option<(usize, Pool)> {
        let count = self.0.replicas.len();
        if count == 0 {
            return None;
        }
        let start = self.0.next.fetch_add(1, Ordering::Relaxed);
        (0..count).map(|i| (start + i) % count).find_map(|index| {
            let replica = &self.0.replicas[index];
            let state = replica.state.lock().expect("replica state");
            let caught_up = position.is_none_or(|position| state.replayed >= position);
            (state.in_use && caught_up).then(|| {
                replica.reads.fetch_add(1, Ordering::Relaxed);
                (index, replica.pool.clone())
            })
        })
    }

    /// Sets replica `index` aside until a poll finds it answering again: a read sent to it
    /// found it unreachable.
    pub fn set_aside(&self, index: usize) {
        if let Some(replica) = self.0.replicas.get(index) {
            let mut state = replica.state.lock().expect("replica state");
            *state = ReplicaState { in_use: false, problem: Some("does not answer".into()), ..state.clone() };
        }
    }

    /// Each replica's state, by index (the order of `--database-replica-url`).
    pub fn states(&self) -> Vec<ReplicaState> {
        self.0.replicas.iter().map(|r| r.state.lock().expect("replica state").clone()).collect()
    }

    /// Reads each replica has served since the process started, by index.
    pub fn served(&self) -> Vec<u64> {
        self.0.replicas.iter().map(|r| r.reads.load(Ordering::Relaxed)).collect()
    }

    /// One poll: the primary's position now, then each replica's replayed position, its lag,
    /// and whether reads may go to it.
    pub async fn poll(&self, primary: &Pool) {
        if self.is_empty() {
            return;
        }
        let now = Instant::now();
        let current =
            tokio::time::timeout(POLL_TIMEOUT, sqlx::query_scalar::<_, Lsn>(CURRENT).fetch_one(primary)).await;
        // Without the primary's position no lag can be told; the states stay as they were.
        let Ok(Ok(current)) = current else { return };
        let history = {
            let mut history = self.0.primary.lock().expect("primary positions");
            if history.back().is_none_or(|&(_, lsn)| lsn < current) {
                history.push_back((now, current));
            }
            while history.len() > 1 && history.front().is_some_and(|&(at, _)| now - at > HISTORY) {
                history.pop_front();
            }
            history.clone()
        };
        let answers = futures::future::join_all(self.0.replicas.iter().map(|replica| async move {
            tokio::time::timeout(POLL_TIMEOUT, sqlx::query_scalar::<_, Option<Lsn>>(REPLAYED).fetch_one(&replica.pool))
                .await
        }))
        .await;
        for (replica, answer) in self.0.replicas.iter().zip(answers) {
            let mut state = replica.state.lock().expect("replica state");
            *state = match answer {
                Ok(Ok(Some(replayed))) => {
                    // Behind since the primary first passed where the replica is.
                    let lag =
                        history.iter().find(|&&(_, lsn)| lsn > replayed).map_or(Duration::ZERO, |&(at, _)| now - at);
                    let problem = (lag > MOST_LAG).then(|| format!("lags {} s behind the primary", lag.as_secs()));
                    ReplicaState { in_use: problem.is_none(), replayed, lag, problem }
                }
                Ok(Ok(None)) => {
                    ReplicaState { in_use: false, problem: Some("is not a standby".into()), ..state.clone() }
                }
                Ok(Err(error)) => {
                    ReplicaState { in_use: false, problem: Some(format!("does not answer: {error}")), ..state.clone() }
                }
                Err(_) => ReplicaState { in_use: false, problem: Some("does not answer".into()), ..state.clone() },
            };
        }
    }

    pub async fn close(&self) {
        for replica in &self.0.replicas {
            replica.pool.close().await;
        }
    }
}

/// The primary's position now.
const CURRENT: &str = "SELECT CAST(pg_current_wal_lsn() - '0/0' AS BIGINT)";
/// How far a standby has replayed (NULL on a server that is not one).
const REPLAYED: &str = "SELECT CAST(pg_last_wal_replay_lsn() - '0/0' AS BIGINT)";

/// Keeps `member`'s position after their write request, on the primary (`write`): their next
/// reads wait for a replica that has replayed this far. Only a later position replaces one.
pub async fn remember(write: &Pool, member: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO member_positions (member_id, position) \
         VALUES ($1, CAST(pg_current_wal_lsn() - '0/0' AS BIGINT)) \
         ON CONFLICT (member_id) DO UPDATE SET position = GREATEST(member_positions.position, excluded.position)",
    )
    .bind(member)
    .execute(write)
    .await?;
    Ok(())
}

/// `member`'s position after their last write request, read on the primary (`write`).
pub async fn position_of(write: &Pool, member: i64) -> sqlx::Result<Option<Lsn>> {
    sqlx::query_scalar("SELECT position FROM member_positions WHERE member_id = $1")
        .bind(member)
        .fetch_optional(write)
        .await
}
