//! The database: one set of queries for SQLite and PostgreSQL through sqlx's `Any` driver.
//!
//! Where the dialects agree (nearly everywhere: `$1` parameters, `RETURNING`, `ON CONFLICT`,
//! integer times) a query is written once. The differences live here and in the two migration
//! folders: identity columns, `length` vs `char_length` in checks, and SQLite's connection
//! pragmas. Values cross the driver only as integers, text and NULL; booleans are computed as
//! integers (`CASE WHEN … THEN 1 ELSE 0 END`) so both backends answer the same type.
//!
//! SQLite allows one writer at a time. Instead of letting concurrent writers fail with
//! "database is locked", writes go through a pool of exactly one connection (`Db::write`), so
//! they queue inside the process; reads use a separate pool and never wait for writes (WAL).
//! The reads that write requests make (their session, the post they answer) have a small pool
//! of their own, so a write never queues for a reading connection behind the feeds' readers.
//! On PostgreSQL `read` and `write` are one pool, and write requests have a small pool of their
//! own for all their statements (`Db::for_writes`).

pub mod backup;
pub mod batched;
pub mod bus;
mod fills;
pub mod full_text;
pub mod member_writes;
mod pool;
pub mod replicas;
pub mod schema;
pub mod sql;
pub mod transfer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Connection, Executor};

use pool::Commits;
pub use pool::{Pool, PoolConnection};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Whether several connections write at once (PostgreSQL), so writes that must not
    /// interleave take a row lock; SQLite's writes run one at a time on its one writer.
    pub fn writes_run_at_once(self) -> bool {
        self == Backend::Postgres
    }

    /// Whether each statement is a round trip to another process (PostgreSQL), so a hot write
    /// is worth folding into one statement; SQLite runs in this process.
    pub fn statements_are_round_trips(self) -> bool {
        self == Backend::Postgres
    }

    /// Whether the planner picks a query's plan from the data's statistics (PostgreSQL); on
    /// SQLite the caller chooses between shapes of a query itself.
    pub fn plans_by_statistics(self) -> bool {
        self == Backend::Postgres
    }

    /// Whether one process's notifications reach the others through the database (PostgreSQL
    /// `LISTEN`/`NOTIFY`); an SQLite file is served by one process.
    pub fn notifies_other_processes(self) -> bool {
        self == Backend::Postgres
    }

    /// This backend's migrations, as embedded in the binary.
    pub fn migrator(self) -> &'static sqlx::migrate::Migrator {
        match self {
            Backend::Sqlite => &SQLITE_MIGRATOR,
            Backend::Postgres => &POSTGRES_MIGRATOR,
        }
    }

    /// An aggregate, for a `SELECT … FROM rows`, answering every row's `values` (a comma list)
    /// as one JSON array of arrays sorted by `order`, as text (`[]` when there are no rows).
    /// Lists are read this way so that a page crosses the driver as one value instead of a
    /// message and a conversion per row (crates/domain/src/posts/hydrate.rs).
    pub fn json_rows(self, values: &str, order: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_group_array(json_array({values}) ORDER BY {order})"),
            Backend::Postgres => {
                format!("CAST(COALESCE(json_agg(json_build_array({values}) ORDER BY {order}), '[]') AS TEXT)")
            }
        }
    }

    /// A `FROM` item naming `alias` for each element of the JSON array held as text in
    /// `column` (an earlier item of the same `FROM` may be named); `json_int_field` reads them.
    pub fn json_elements(self, column: &str, alias: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_each({column}) {alias}"),
            Backend::Postgres => format!("json_array_elements(CAST({column} AS json)) {alias}"),
        }
    }

    /// The integer `field` of the JSON object `alias` from `json_elements` (NULL without it).
    pub fn json_int_field(self, alias: &str, field: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_extract({alias}.value, '$.{field}')"),
            Backend::Postgres => format!("CAST({alias}.value ->> '{field}' AS BIGINT)"),
        }
    }
}

#[derive(Clone)]
pub struct Db {
    /// Pool for reads (and for PostgreSQL, writes too).
    pub read: Pool,
    /// Pool for writes: a single connection on SQLite, the same pool as `read` on PostgreSQL
    /// (where write requests use `write_requests` instead: `Db::for_writes`).
    pub write: Pool,
    /// Pool of write requests (`Db::for_writes`): on SQLite `WRITE_READERS` connections for
    /// their reads (their writes go to the one writer); on PostgreSQL `WRITE_CONNECTIONS`
    /// connections for all their statements.
    write_requests: Pool,
    /// SQLite with `Checkpoints::Background`: the connection the checkpoints job uses, opened
    /// by the caller of `connect_with` and never reopened, so that it keeps the caller's CPU
    /// priority when the readers' is lowered (`lower_reader_priority`).
    checkpointer: Option<Pool>,
    pub backend: Backend,
    /// Member write requests in flight, which background writes wait for (`member_writes`).
    pub member_writes: member_writes::MemberWrites,
    /// How the server is reached: through a pooler or not, and the direct URL for what needs a
    /// session of its own (`DbOptions`).
    pub options: DbOptions,
    /// PostgreSQL's read replicas, for the reads that may be a moment old (`replicas`).
    pub replicas: replicas::Replicas,
}

/// What sits between Murmur and PostgreSQL (`--database-pooler`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Pooler {
    /// Each pooled connection is a session of its own on the server.
    #[default]
    None,
    /// PgBouncer in transaction mode: a server connection is ours only inside a transaction.
    Pgbouncer,
}

/// How Murmur reaches PostgreSQL beyond `DATABASE_URL` (docs/scaling.md).
#[derive(Clone, Debug, Default)]
pub struct DbOptions {
    pub pooler: Pooler,
    /// A direct URL (not through a pooler) for the live bus's `LISTEN` and `NOTIFY` and for the
    /// migrations, which hold a session's lock; `DATABASE_URL` when unset.
    pub listen_url: Option<String>,
    /// Hot standbys of the database, for the reads that may be a moment old.
    pub replica_urls: Vec<String>,
}

impl DbOptions {
    fn is_default(&self) -> bool {
        self.pooler == Pooler::None && self.listen_url.is_none() && self.replica_urls.is_empty()
    }
}

static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Who copies SQLite's write-ahead log back into the database file (a checkpoint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checkpoints {
    /// SQLite itself, on the commit that takes the log past 1,000 pages (its default): right for
    /// short-lived commands (`seed`, `migrate`, …).
    OnCommit,
    /// The checkpoints job (`jobs`), in the background, off the writer: what `serve` uses.
    Background,
}

impl Db {
    /// Connects to the database a URL names: `sqlite://…` or `postgres://…`, with SQLite's own
    /// checkpoints.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        Db::connect_with(url, Checkpoints::OnCommit).await
    }

    /// Connects as `connect` does, choosing who checkpoints SQLite's log.
    pub async fn connect_with(url: &str, checkpoints: Checkpoints) -> anyhow::Result<Db> {
        Db::connect_with_options(url, checkpoints, DbOptions::default()).await
    }

    /// Connects as `connect_with` does, through a pooler, with a direct URL or with replicas
    /// (PostgreSQL only).
    pub async fn connect_with_options(url: &str, checkpoints: Checkpoints, options: DbOptions) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            anyhow::bail!("unsupported database URL (expected sqlite:// or postgres://)");
        };
        if backend == Backend::Sqlite && !options.is_default() {
            anyhow::bail!(
                "--database-pooler, --database-listen-url and --database-replica-url are for PostgreSQL; \
                 an SQLite database is one file served by one process"
            );
        }
        if options.pooler == Pooler::Pgbouncer && options.listen_url.is_none() {
            // Through PgBouncer in transaction mode a `LISTEN` or a session's lock would stay on
            // whichever server connection ran it.
            anyhow::bail!(
                "--database-pooler pgbouncer needs --database-listen-url (DATABASE_LISTEN_URL): a direct URL \
                 of the database for the live events' LISTEN and the migrations"
            );
        }
        let db_options = options;
        let options = AnyConnectOptions::from_str(url)?;
        match backend {
            Backend::Sqlite => {
                // The readers' connections are opened on the runtime's threads, so their worker
                // threads take those threads' priority (`lower_reader_priority`); the writer's and
                // the write requests' readers' are opened here, keeping the caller's.
                let read = Pool::direct(
                    tokio::spawn(sqlite_pool(pool_size(), Checkpoints::OnCommit).connect_with(options.clone()))
                        .await
                        .map_err(anyhow::Error::from)??,
                );
                let write_requests = Pool::direct(
                    sqlite_pool(WRITE_READERS, Checkpoints::OnCommit).connect_with(options.clone()).await?,
                );
                // One connection that lives as long as the pool, so its settings stay.
                let write = Pool::direct(
                    sqlite_pool(1, checkpoints)
                        .max_lifetime(None)
                        .idle_timeout(None)
                        .connect_with(options.clone())
                        .await?,
                );
                // WAL is a property of the database file; set it once on the writer.
                write.execute("PRAGMA journal_mode = WAL").await?;
                // A checkpoint that falls behind lets the log grow, and every reader and the
                // writer slow down with it: checkpoints get a connection of their own, which
                // keeps the caller's priority (docs/performance.md, "Checkpoints off the writer").
                let checkpointer = match checkpoints {
                    Checkpoints::Background => Some(Pool::direct(
                        sqlite_pool(1, Checkpoints::OnCommit)
                            .max_lifetime(None)
                            .idle_timeout(None)
                            .connect_with(options.clone())
                            .await?,
                    )),
                    Checkpoints::OnCommit => None,
                };
                Ok(Db {
                    read,
                    write,
                    write_requests,
                    checkpointer,
                    backend,
                    member_writes: Default::default(),
                    options: db_options,
                    replicas: Default::default(),
                })
            }
            Backend::Postgres => {
                let pooler = db_options.pooler;
                let options = postgres_options(url, pooler)?;
                // Behind a pooler the primary's pools wait for the same commits, the replicas'
                // for their own (read-only: nothing on the primary waits for them).
                let ours_with = |commits: Option<Arc<Commits>>| {
                    move |pool| match &commits {
                        Some(commits) => Pool::pooled(pool, commits.clone()),
                        None => Pool::direct(pool),
                    }
                };
                let pooled = pooler == Pooler::Pgbouncer;
                let ours = ours_with(pooled.then(|| Arc::new(Commits::default())));
                let pool = ours(postgres_pool(pool_size(), pooler).connect_with(options.clone()).await?);
                // Connected lazily: a connection is opened by the first request that needs it,
                // on the write thread (`app::WriteThread`), so its socket is driven by that
                // thread's runtime and not by the readers' busy one.
                let write_requests = ours(postgres_pool(WRITE_CONNECTIONS, pooler).connect_lazy_with(options));
                let replicas = replicas::Replicas::connect(
                    &db_options.replica_urls,
                    pooler,
                    &ours_with(pooled.then(|| Arc::new(Commits::default()))),
                )?;
                Ok(Db {
                    read: pool.clone(),
                    write: pool,
                    write_requests,
                    checkpointer: None,
                    backend,
                    member_writes: Default::default(),
                    options: db_options,
                    replicas,
                })
            }
        }
    }

    /// This database as write requests use it: their reads (the session, the post they answer)
    /// go to the write requests' own pool instead of the one the feeds' readers share, and on
    /// PostgreSQL their writes too (on SQLite every write goes to the one writer).
    ///
    /// Why: the readers' pool has `pool_size()` connections, and under a full reading load
    /// every one of them is taken with more requests waiting. A like waited in that queue for
    /// its session, for its transaction (PostgreSQL) and for its answer; with a pool of their
    /// own, writes are served beside the readers (docs/performance.md).
    pub fn for_writes(&self) -> Db {
        let write = match self.backend {
            Backend::Sqlite => self.write.clone(),
            Backend::Postgres => self.write_requests.clone(),
        };
        Db { read: self.write_requests.clone(), write, ..self.clone() }
    }

    /// This database for a read that may be a moment old (For You, profiles, threads, search,
    /// tag pages, Trending, suggestions: `MomentOld` in the server): its `read` pool is a
    /// replica's that has replayed past `position` (the reader's last write; None for a
    /// visitor or a member without one), or the primary's when none has. Writes stay on the
    /// primary. With the replica's index when one was chosen.
    pub fn a_moment_old(&self, position: Option<replicas::Lsn>) -> (Db, Option<usize>) {
        match self.replicas.pick(position) {
            Some((index, replica)) => {
                crate::metrics::moment_old_read("replica");
                (Db { read: replica, ..self.clone() }, Some(index))
            }
            None => {
                if !self.replicas.is_empty() {
                    crate::metrics::moment_old_read("primary");
                }
                (self.clone(), None)
            }
        }
    }

    /// Applies the migrations of this backend that are not applied yet, then fills what only
    /// Rust can compute and the rows do not hold yet: the look-alike keys of members' names and
    /// of held usernames (migrations 0012, 0026 and 0045, `fills::fill_missing_keys`; a database
    /// with none missing costs three index lookups), and the keys of tags from before 0026
    /// (`fills::rekey_tags`, once; afterwards one lookup).
    ///
    /// Behind a pooler they run on a connection of their own to the direct URL
    /// (`--database-listen-url`): the migrator holds a session's advisory lock while it works.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        let direct = match (&self.options.pooler, &self.options.listen_url) {
            (Pooler::Pgbouncer, Some(url)) => Some(Pool::direct(postgres_pool(1, Pooler::None).connect(url).await?)),
            _ => None,
        };
        let pool = direct.as_ref().unwrap_or(&self.write);
        self.backend.migrator().run(pool.sqlx()).await?;
        fills::fill_missing_keys(pool).await?;
        fills::rekey_tags(pool).await?;
        if let Some(direct) = direct {
            direct.close().await;
        }
        Ok(())
    }

    /// The URL of a session of its own on the server (the live bus's `LISTEN`): the direct URL
    /// when one is set, else `url` (`DATABASE_URL`).
    pub fn listen_url(&self, url: &str) -> String {
        self.options.listen_url.clone().unwrap_or_else(|| url.to_string())
    }

    /// The migrations `migrate` would apply, oldest first, as "0010 profile tabs".
    pub async fn pending_migrations(&self) -> anyhow::Result<Vec<String>> {
        // No table yet (a new database): every migration is pending.
        let applied: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success")
            .fetch_all(&self.read)
            .await
            .unwrap_or_default();
        Ok(self
            .backend
            .migrator()
            .iter()
            .filter(|m| m.migration_type.is_up_migration() && !applied.contains(&m.version))
            .map(|m| format!("{:04} {}", m.version, m.description))
            .collect())
    }

    /// True when the database answers (readiness).
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").execute(&self.read).await.is_ok()
    }

    /// One passive checkpoint of SQLite's log (`jobs`: every `CHECKPOINT_EVERY` in `serve`),
    /// from the connection kept for it when connected with `Checkpoints::Background`. None on
    /// PostgreSQL, which has nothing to checkpoint.
    ///
    /// Why: by default the commit that takes the log past 1,000 pages copies them into the
    /// database file and syncs it, on the writer, holding the write lock (a third of the
    /// writer's time under the benchmark's mixed load: docs/performance.md). A passive
    /// checkpoint runs beside the writer and the readers and never waits for them; it copies
    /// what no reader still needs, and the log starts over once all of it is copied.
    pub fn checkpointing(&self) -> Option<Pool> {
        (self.backend == Backend::Sqlite).then(|| self.checkpointer.clone().unwrap_or_else(|| self.read.clone()))
    }

    /// Each pool's name, connections open, of which idle, and most it may open (`/metrics`).
    pub fn pool_figures(&self) -> Vec<(&'static str, u32, usize, u32)> {
        let figures = |name, pool: &Pool| {
            let pool = pool.sqlx();
            (name, pool.size(), pool.num_idle(), pool.options().get_max_connections())
        };
        let mut pools = vec![figures("read", &self.read), figures("write_requests", &self.write_requests)];
        if self.backend == Backend::Sqlite {
            pools.push(figures("write", &self.write));
        }
        pools
    }

    pub async fn close(&self) {
        self.replicas.close().await;
        self.read.close().await;
        self.write_requests.close().await;
        if let Some(checkpointer) = &self.checkpointer {
            checkpointer.close().await;
        }
        self.write.close().await;
    }
}

/// A passive checkpoint of SQLite's log on one reading connection, which reads first: a
/// connection opens the log at its first read, and until then `wal_checkpoint` on it does
/// nothing and answers -1 ("not in WAL mode"). A reading connection that had only just been
/// opened, or one that no request had read with yet, skipped its checkpoints.
///
/// A log past `journal_size_limit` is then restarted (`RESTART`) on the writer (`write`): under
/// a steady load of reads and writes some reader always still reads from the log, so it never
/// started over by itself and grew without end. The restart waits for the log's readers to
/// finish (at most `RESTART_WAIT`, else it is tried at the next checkpoint), and runs on the
/// one writing connection because it rewrites the log's header: a write transaction open
/// meanwhile on another connection would find its snapshot gone ("database is locked").
pub async fn checkpoint(read: &Pool, write: &Pool) -> sqlx::Result<()> {
    let mut conn = read.acquire().await?;
    conn.execute("SELECT 1 FROM sqlite_schema LIMIT 1").await?;
    let (_busy, log_pages, _copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(&mut *conn).await?;
    let page_size: i64 = sqlx::query_scalar("PRAGMA page_size").fetch_one(&mut *conn).await?;
    drop(conn);
    if log_pages * page_size > JOURNAL_SIZE_LIMIT {
        let mut writer = write.acquire().await?;
        writer.execute(sqlx::AssertSqlSafe(format!("PRAGMA busy_timeout = {}", RESTART_WAIT.as_millis()))).await?;
        let restarted = writer.execute("PRAGMA wal_checkpoint(RESTART)").await;
        writer.execute(sqlx::AssertSqlSafe(format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis()))).await?;
        restarted?;
    }
    Ok(())
}

/// The size SQLite trims its log back to after it starts over, and past which a checkpoint
/// restarts it (`checkpoint`).
const JOURNAL_SIZE_LIMIT: i64 = 64 * 1024 * 1024;

/// How long SQLite waits for a lock another connection holds before it answers "busy".
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a restart of the log waits for its readers, holding new writes back meanwhile.
const RESTART_WAIT: Duration = Duration::from_millis(100);

/// How far below the writer SQLite's readers run under `murmur serve`, as a nice value.
pub const READERS_NICE: i32 = 5;

/// Lowers the calling thread's CPU priority by `READERS_NICE` (never raises it): `murmur serve`
/// on SQLite calls it on every thread of its async runtime, where requests are handled and from
/// where the readers' connections, each with a worker thread of its own, are opened. The main
/// thread, which opens the writer's connection and starts the write thread
/// (`app::WriteThread`), keeps its priority.
///
/// Why: SQLite has one writer, and every write waits its turn on it, statement by statement.
/// Under a full reading load the cores are shared by every reader's worker thread, and each of
/// the writer's wake-ups waits in the same run queue. With the readers five nice levels below
/// (a third of the writer's CPU weight) writes keep their pace beside reads; reads alone are as
/// fast as before (docs/performance.md, "The readers below the writer"). An unprivileged
/// process may always lower a thread's priority; if the system refuses, the thread stays as it was.
pub fn lower_reader_priority() {
    // Relative to the main thread (its id is the process id), not to this thread: a thread
    // started by an already lowered one (a blocking-pool thread) would otherwise go lower again.
    let main_thread = rustix::process::getpid();
    let lowered = rustix::process::getpriority_process(Some(main_thread))
        .and_then(|nice| rustix::process::setpriority_process(None, (nice + READERS_NICE).min(19)));
    if let Err(error) = lowered {
        tracing::warn!(%error, "could not lower a reading thread's priority");
    }
}

/// No ping before each use (`test_before_acquire(false)`, on PostgreSQL too): sqlx also pings
/// every connection when it is released and closes it if that fails, so a connection broken by
/// a database outage never goes back to the pool, and the ping on acquire only doubled the
/// round trips of every statement (on SQLite, trips to the connection's worker thread;
/// docs/performance.md).
/// Connections the readers' pool opens at most (SQLite's readers; PostgreSQL's shared pool):
/// four per core. More only adds waiting: the database's backends and the server's threads
/// compete for the same cores (docs/performance.md). A PostgreSQL server's `max_connections` must allow this plus
/// `WRITE_CONNECTIONS` per `murmur serve` process.
fn pool_size() -> u32 {
    (4 * cores() as u32).clamp(4, 64)
}

/// The cores this process may run on (2 when the system cannot tell), which pools and batches
/// are sized by.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// SQLite connections that serve the reads of write requests (`Db::for_writes`): writes run one
/// at a time on the writer, so two readers beside it are enough for a write's session lookup
/// and the answer of the one before it.
const WRITE_READERS: u32 = 2;

/// PostgreSQL connections of write requests (`Db::for_writes`): they all run on the one write
/// thread, taking turns at their statements' round trips, so a few connections keep enough of
/// them in flight; 4 is what was measured (docs/performance.md).
const WRITE_CONNECTIONS: u32 = 4;

/// How often `serve` checkpoints SQLite's log (`jobs`). Between two, the log grows by what was
/// written in a second (a few MB under heavy writing); `journal_size_limit` trims the file back after.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// A PostgreSQL URL's connection options; behind a pooler without sqlx's cache of prepared
/// statements (`postgres_pool`).
fn postgres_options(url: &str, pooler: Pooler) -> anyhow::Result<AnyConnectOptions> {
    if pooler == Pooler::None {
        return Ok(AnyConnectOptions::from_str(url)?);
    }
    // The `Any` driver's options are its URL: the cache is turned off by sqlx's URL parameter.
    let mut url = url::Url::parse(url)?;
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(key, _)| key != "statement-cache-capacity")
        .map(|(k, v)| (k.into(), v.into()))
        .collect();
    url.query_pairs_mut().clear().extend_pairs(kept).append_pair("statement-cache-capacity", "0");
    Ok(AnyConnectOptions::from_str(url.as_str())?)
}

fn postgres_pool(size: u32, pooler: Pooler) -> AnyPoolOptions {
    let pool =
        AnyPoolOptions::new().max_connections(size).test_before_acquire(false).acquire_timeout(Duration::from_secs(5));
    if pooler == Pooler::Pgbouncer {
        // Each use of a connection is a transaction of its own (`Pool`), so no session
        // settings are made: they would stay on whichever server connection ran them. A
        // connection given back inside a transaction (its holder's future dropped midway through
        // a statement) is closed, and PgBouncer rolls its server connection back.
        return pool.after_release(|conn, _meta| Box::pin(outside_any_transaction(conn)));
    }
    pool.after_connect(|conn, _meta| {
        Box::pin(async move {
            // Every statement is prepared once per connection; by default PostgreSQL then
            // plans it again for each run's values whenever its one generic plan's estimate
            // looks dearer than the plans it made for the values so far, which each
            // connection judges from its own runs. A list of posts (`posts::hydrate`) takes
            // longer to plan than to run, so planning it on every run held the Friends feed
            // at a fraction of its speed (docs/performance.md). The statements here are
            // driven by indexes on ids and bounded by limits, so one plan serves every
            // value: with generic plans no read of the benchmark got slower.
            conn.execute("SET plan_cache_mode = force_generic_plan").await?;
            // No JIT: a statement whose estimate passes `jit_above_cost` (a post search walking
            // the newest posts, whose every row the estimate counts) was compiled on every run,
            // which cost many times what the query itself then did.
            conn.execute("SET jit = off").await?;
            Ok(())
        })
    })
}

fn sqlite_pool(size: u32, checkpoints: Checkpoints) -> AnyPoolOptions {
    AnyPoolOptions::new()
        .max_connections(size)
        .min_connections(1)
        .test_before_acquire(false)
        .acquire_timeout(Duration::from_secs(30))
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                // synchronous=NORMAL in WAL mode: a commit survives the process being killed
                // (it is in the WAL file); only an OS crash or power loss can lose the last
                // commits, never the database's consistency. See docs/operations.md.
                // No mmap_size: a map saved little CPU on the feed and put every touched page of
                // each connection's mapping into the process's RSS (docs/performance.md).
                conn.execute(sqlx::AssertSqlSafe(format!(
                    "PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {}; \
                     PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; \
                     PRAGMA journal_size_limit = {JOURNAL_SIZE_LIMIT};",
                    BUSY_TIMEOUT.as_millis()
                )))
                .await?;
                if checkpoints == Checkpoints::Background {
                    conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                }
                Ok(())
            })
        })
        .after_release(|conn, _meta| Box::pin(outside_any_transaction(conn)))
}

/// Whether a connection coming back to its pool may be used again: only outside any transaction.
/// Behind a pooler, one whose holder was dropped midway through its transaction (`Pool`). On
/// SQLite, a statement that fails with SQLITE_FULL (a full disk) or an I/O error can make
/// SQLite roll the whole transaction back by itself, unseen by sqlx, which still counts it open:
/// the connection's next `begin` then becomes a SAVEPOINT, and once a commit of those fails too,
/// every later write is released into a transaction that never commits (acknowledged, unseen
/// by readers, lost at the next restart; bench/faults.py found it). Such a connection is closed
/// instead, and the pool opens a fresh one.
async fn outside_any_transaction(conn: &mut sqlx::AnyConnection) -> sqlx::Result<bool> {
    if !conn.is_in_transaction() {
        return Ok(true);
    }
    // A transaction dropped on an error has its rollback queued: a round trip runs it.
    conn.ping().await?;
    if conn.is_in_transaction() {
        tracing::warn!("a database connection came back inside a transaction; closing it");
        return Ok(false);
    }
    Ok(true)
}

/// The name of the constraint a database error broke, if it is a unique, check or foreign key
/// violation. PostgreSQL names it; SQLite names only the columns (or a named CHECK) in its
/// message, so callers match on either (`violates`).
pub fn violated_constraint(err: &sqlx::Error) -> Option<String> {
    let db_err = err.as_database_error()?;
    if let Some(name) = db_err.constraint() {
        return Some(name.to_string());
    }
    Some(db_err.message().to_string())
}

/// True when `err` broke the named constraint. `sqlite_hint` is how SQLite's message names it:
/// the CHECK constraint's name, or `table.column` list of a UNIQUE/PRIMARY KEY.
pub fn violates(err: &sqlx::Error, pg_name: &str, sqlite_hint: &str) -> bool {
    match violated_constraint(err) {
        Some(what) => what == pg_name || what.contains(sqlite_hint),
        None => false,
    }
}
