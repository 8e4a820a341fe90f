//! How a change reaches every process: on PostgreSQL, `NOTIFY` on one channel from a
//! publishing connection and `LISTEN` on one connection per process (not per stream); on
//! SQLite, where one process serves, straight to this process's broker.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::postgres::{PgConnection, PgListener};
use sqlx::{Connection, Executor};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{Change, Live};
use murmur_core::clock::Clock;
use murmur_core::db::Db;

/// The PostgreSQL channel every process listens on.
const CHANNEL: &str = "murmur_live";
/// Changes sent in one `NOTIFY` statement at most.
const BATCH: usize = 200;

/// Starts carrying `live`'s changes to the brokers (once per process). `database_url` is a
/// direct one (`--database-listen-url`): `LISTEN` holds a session, which a pooler in
/// transaction mode would not keep, and the notifying connection prepares its statement once.
pub fn start(live: &Live, db: Db, database_url: String, clock: Clock) -> Vec<JoinHandle<()>> {
    let Some((queue, dropped)) = live.take_queue() else { return Vec::new() };
    let broker = live.broker.clone();
    if db.backend.notifies_other_processes() {
        return vec![
            tokio::spawn(publish(queue, dropped, broker.clone(), database_url.clone())),
            tokio::spawn(listen(broker, db, database_url, clock)),
        ];
    }
    vec![tokio::spawn(async move {
        let mut queue = queue;
        let mut batch = Vec::with_capacity(BATCH);
        while queue.recv_many(&mut batch, BATCH).await > 0 {
            lost_any(&dropped, &broker);
            for change in batch.drain(..) {
                if let Err(error) = broker.deliver(&db, change, clock.now()).await {
                    tracing::warn!(%error, "a live event could not be delivered");
                }
            }
        }
    })]
}

/// Tells every stream to refetch when changes were dropped on the way.
fn lost_any(dropped: &AtomicBool, broker: &super::Broker) {
    if dropped.swap(false, Ordering::Relaxed) {
        tracing::warn!("live changes were dropped; every stream refetches");
        broker.reset_all();
    }
}

/// Sends the queued changes as notifications, a batch per statement, on a connection of its own
/// (reconnected after a failure; what failed to go out is lost, and the streams refetch).
async fn publish(mut queue: mpsc::Receiver<Change>, dropped: Arc<AtomicBool>, broker: Arc<super::Broker>, url: String) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut conn: Option<PgConnection> = None;
    while queue.recv_many(&mut batch, BATCH).await > 0 {
        lost_any(&dropped, &broker);
        let payloads: Vec<String> = batch.drain(..).filter_map(|c| serde_json::to_string(&c).ok()).collect();
        if conn.is_none() {
            conn =
                PgConnection::connect(&url).await.map_err(|e| tracing::warn!(error = %e, "live: cannot connect")).ok();
        }
        let Some(c) = conn.as_mut() else {
            broker.reset_all();
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let sent = c
            .execute(sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p").bind(CHANNEL).bind(&payloads))
            .await;
        if let Err(error) = sent {
            tracing::warn!(%error, "live: notifying failed; reconnecting");
            conn = None;
            broker.reset_all();
        }
    }
}

/// Delivers every process's changes to this process's streams, from one listening connection.
async fn listen(broker: Arc<super::Broker>, db: Db, url: String, clock: Clock) {
    loop {
        let mut listener = match PgListener::connect(&url).await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(%error, "live: cannot listen; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(error) = listener.listen(CHANNEL).await {
            tracing::warn!(%error, "live: cannot listen; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => {
                    let Ok(change) = serde_json::from_str::<Change>(notification.payload()) else { continue };
                    if let Err(error) = broker.deliver(&db, change, clock.now()).await {
                        tracing::warn!(%error, "a live event could not be delivered");
                    }
                }
                // The connection was lost and made again: what was sent meanwhile is gone.
                Ok(None) => broker.reset_all(),
                Err(error) => {
                    tracing::warn!(%error, "live: listening failed; reconnecting");
                    broker.reset_all();
                    break;
                }
            }
        }
    }
}
