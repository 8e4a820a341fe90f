//! How a message reaches every process of an instance (`Bus`): on PostgreSQL, `NOTIFY` on one
//! channel from a sending connection and `LISTEN` on one connection per process; on SQLite,
//! where one process serves, straight back to this process.

use std::future::Future;
use std::marker::PhantomData;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::postgres::{PgConnection, PgListener};
use sqlx::{Connection, Executor};
use tokio::sync::mpsc;

/// What a process hears from the bus.
#[derive(Debug, PartialEq, Eq)]
pub enum Heard<T> {
    Message(T),
    /// Messages may have been lost (a connection was lost and made again): whoever keeps state
    /// from them starts over.
    Lost,
}

/// Sends messages to every process of the instance, this one included; each hears them on the
/// receiver it was opened with.
pub trait Bus<T>: Send {
    /// Sends a batch; false when it could not, and the batch is lost.
    fn send(&mut self, batch: Vec<T>) -> impl Future<Output = bool> + Send;
}

/// Heard messages waiting for their process, at most this many on one process's bus.
const HEARD: usize = 10_000;

/// One process's bus: what it sends, it hears.
pub struct InProcess<T> {
    heard: mpsc::Sender<Heard<T>>,
}

impl<T: Send + 'static> InProcess<T> {
    pub fn open() -> (InProcess<T>, mpsc::Receiver<Heard<T>>) {
        let (heard, receiver) = mpsc::channel(HEARD);
        (InProcess { heard }, receiver)
    }
}

impl<T: Send + 'static> Bus<T> for InProcess<T> {
    async fn send(&mut self, batch: Vec<T>) -> bool {
        for message in batch {
            if self.heard.send(Heard::Message(message)).await.is_err() {
                return false;
            }
        }
        true
    }
}

/// PostgreSQL's `NOTIFY` and `LISTEN` on `channel`. `url` is a direct one, not through a
/// pooler: `LISTEN` holds a session, which a pooler in transaction mode would not keep.
pub struct Postgres<T> {
    url: String,
    channel: &'static str,
    conn: Option<PgConnection>,
    message: PhantomData<fn(T)>,
}

impl<T: Serialize + DeserializeOwned + Send + 'static> Postgres<T> {
    /// The sending end, and what this process hears (from a listening task, reconnected after a
    /// failure).
    pub fn open(url: String, channel: &'static str) -> (Postgres<T>, mpsc::Receiver<Heard<T>>) {
        let (heard, receiver) = mpsc::channel(HEARD);
        tokio::spawn(listen(url.clone(), channel, heard));
        (Postgres { url, channel, conn: None, message: PhantomData }, receiver)
    }
}

impl<T: Serialize + Send + 'static> Bus<T> for Postgres<T> {
    /// One statement a batch, on a connection of its own (made again after a failure).
    async fn send(&mut self, batch: Vec<T>) -> bool {
        let payloads: Vec<String> = batch.iter().filter_map(|m| serde_json::to_string(m).ok()).collect();
        if self.conn.is_none() {
            self.conn = PgConnection::connect(&self.url)
                .await
                .map_err(|e| tracing::warn!(error = %e, "bus: cannot connect"))
                .ok();
        }
        let Some(conn) = self.conn.as_mut() else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            return false;
        };
        let sent = conn
            .execute(
                sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p").bind(self.channel).bind(&payloads),
            )
            .await;
        if let Err(error) = sent {
            tracing::warn!(%error, "bus: notifying failed; reconnecting");
            self.conn = None;
            return false;
        }
        true
    }
}

/// Hears every process's messages on one listening connection, made again after a failure.
async fn listen<T: DeserializeOwned>(url: String, channel: &'static str, heard: mpsc::Sender<Heard<T>>) {
    while !heard.is_closed() {
        let mut listener = match PgListener::connect(&url).await {
            Ok(listener) => listener,
            Err(error) => {
                tracing::warn!(%error, "bus: cannot listen; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(error) = listener.listen(channel).await {
            tracing::warn!(%error, "bus: cannot listen; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        loop {
            let next = match listener.try_recv().await {
                Ok(Some(notification)) => match serde_json::from_str(notification.payload()) {
                    Ok(message) => Heard::Message(message),
                    Err(_) => continue,
                },
                // The connection was lost and made again: what was sent meanwhile is gone.
                Ok(None) => Heard::Lost,
                Err(error) => {
                    tracing::warn!(%error, "bus: listening failed; reconnecting");
                    let _ = heard.send(Heard::Lost).await;
                    break;
                }
            };
            if heard.send(next).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_process_hears_what_it_sends_in_order() {
        let (mut bus, mut heard) = InProcess::open();
        assert!(bus.send(vec![1, 2, 3]).await);
        for expected in [1, 2, 3] {
            assert_eq!(heard.recv().await, Some(Heard::Message(expected)));
        }
        drop(heard);
        assert!(!bus.send(vec![4]).await, "with nobody hearing, the batch is lost");
    }
}
