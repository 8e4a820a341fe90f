//! How a change reaches every process's broker: through the instance's bus
//! (`murmur_core::db::bus`: PostgreSQL's `NOTIFY`/`LISTEN`, or this process alone on SQLite).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::{Broker, Change, Live};
use murmur_core::clock::Clock;
use murmur_core::db::Db;
use murmur_core::db::bus::{Bus, Heard, InProcess, Postgres};

/// The PostgreSQL channel every process listens on.
const CHANNEL: &str = "murmur_live";
/// Changes sent at once at most (one `NOTIFY` statement).
const BATCH: usize = 200;

/// Starts carrying `live`'s changes to the brokers (once per process). `database_url` is a
/// direct one (`--database-listen-url`): `LISTEN` holds a session, which a pooler in
/// transaction mode would not keep, and the notifying connection prepares its statement once.
pub fn start(live: &Live, db: Db, database_url: String, clock: Clock) -> Vec<JoinHandle<()>> {
    let Some((queue, dropped)) = live.take_queue() else { return Vec::new() };
    let broker = live.broker.clone();
    if db.backend.notifies_other_processes() {
        let (bus, heard) = Postgres::open(database_url, CHANNEL);
        carry(queue, dropped, bus, heard, broker, db, clock)
    } else {
        let (bus, heard) = InProcess::open();
        carry(queue, dropped, bus, heard, broker, db, clock)
    }
}

/// Sends the queued changes on the bus a batch at a time, and delivers what the bus brings to
/// this process's streams. Whatever is lost on the way (a full queue, a failed send, a lost
/// connection) has every stream refetch.
fn carry(
    mut queue: mpsc::Receiver<Change>,
    dropped: Arc<AtomicBool>,
    mut bus: impl Bus<Change> + 'static,
    mut heard: mpsc::Receiver<Heard<Change>>,
    broker: Arc<Broker>,
    db: Db,
    clock: Clock,
) -> Vec<JoinHandle<()>> {
    let sending = {
        let broker = broker.clone();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(BATCH);
            while queue.recv_many(&mut batch, BATCH).await > 0 {
                if dropped.swap(false, Ordering::Relaxed) {
                    tracing::warn!("live changes were dropped; every stream refetches");
                    broker.reset_all();
                }
                if !bus.send(std::mem::take(&mut batch)).await {
                    broker.reset_all();
                }
            }
        })
    };
    let hearing = tokio::spawn(async move {
        while let Some(next) = heard.recv().await {
            match next {
                Heard::Message(change) => {
                    if let Err(error) = broker.deliver(&db, change, clock.now()).await {
                        tracing::warn!(%error, "a live event could not be delivered");
                    }
                }
                Heard::Lost => broker.reset_all(),
            }
        }
    });
    vec![sending, hearing]
}
