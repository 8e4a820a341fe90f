//! Live: what changes reaches the open tabs of the members it concerns, as Server-Sent Events
//! (`GET /api/events`; docs/live.md).
//!
//! A write notes what it changed (`note`, called by the functions every writer calls:
//! `notifications::notify`, `timelines::changes::MemberWrite::published`, the posts' counters,
//! a post's edit and take-down and a repost's undoing, the end of a session or an app's token:
//! `credentials_ended`). Once the request
//! succeeded (its transaction committed), the notes are published (`Live::publish`); the bus
//! carries them to every process (PostgreSQL: one `LISTEN` connection per process; SQLite:
//! this process), and each process's broker turns a change into events for its own streams,
//! reading what the event says (an unread count, a post's counts, who follows an author) from
//! the database only when one of its streams needs it.

pub mod broker;
pub mod bus;
pub mod counts;

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

pub use broker::{Broker, Credential};

/// What a write changed, as far as open tabs care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Change {
    /// `member`'s notifications changed: a new one (`new`), or some withdrawn or read.
    Notified { member: i64, new: bool },
    /// `author` published post `post` (a post or a repost) to their followers' Friends feeds.
    Published { author: i64, post: i64 },
    /// Post `post`'s counts (likes, reposts, replies) changed.
    Counted { post: i64 },
    /// `author` edited post `post`'s text or images.
    Edited { author: i64, post: i64 },
    /// `author`'s post or repost `post` was deleted: by them, or `removed` by moderators (then
    /// its author still sees it).
    Deleted { author: i64, post: i64, removed: bool },
    /// Some of `member`'s credentials ended (`credentials_ended`): each of their streams checks
    /// its own, and those whose credential ended close.
    CredentialsEnded { member: i64 },
    /// The link preview card of `author`'s new post `post` was fetched: the author's own open
    /// pages, which got the post before its card, show it.
    CardFetched { author: i64, post: i64 },
    /// Conversation `conversation` of `member` changed for them: a new message, one deleted, or
    /// read, accepted or put away in another tab (`messages`).
    Messaged { member: i64, conversation: i64 },
}

/// Changes waiting for the bus, at most this many: past it they are dropped, and every stream
/// is told to refetch (`reset`) once the bus catches up.
const QUEUE: usize = 10_000;

/// How writers publish changes; cheap to clone.
#[derive(Clone)]
pub struct Live {
    tx: mpsc::Sender<Change>,
    /// The bus's end, until `bus::start` takes it.
    rx: Arc<std::sync::Mutex<Option<mpsc::Receiver<Change>>>>,
    /// Some change was dropped: the streams must refetch.
    dropped: Arc<AtomicBool>,
    pub broker: Arc<Broker>,
}

impl Default for Live {
    fn default() -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        Live {
            tx,
            rx: Arc::new(std::sync::Mutex::new(Some(rx))),
            dropped: Arc::default(),
            broker: Arc::new(Broker::default()),
        }
    }
}

impl Live {
    /// Hands `change` to the bus; never waits.
    pub fn publish(&self, change: Change) {
        if self.tx.try_send(change).is_err() {
            self.dropped.store(true, Ordering::Relaxed);
        }
    }

    /// The bus's end of the queue (once) and the flag of dropped changes.
    fn take_queue(&self) -> Option<(mpsc::Receiver<Change>, Arc<AtomicBool>)> {
        let rx = self.rx.lock().expect("the queue's lock is never poisoned").take()?;
        Some((rx, self.dropped.clone()))
    }
}

tokio::task_local! {
    /// The changes the current request noted, published when it succeeded.
    static NOTED: RefCell<Vec<Change>>;
}

/// Notes that the current request changed `change`; published once it answered with success
/// (its transaction committed). Outside a request (a background job, a test calling a store
/// directly) nothing is noted.
pub fn note(change: Change) {
    let _ = NOTED.try_with(|noted| {
        let mut noted = noted.borrow_mut();
        if !noted.contains(&change) {
            noted.push(change);
        }
    });
}

/// Notes that some credential of `member` ended (a session or an app's token: logout, logging out
/// everywhere, a revoke, a suspension, leaving). Every end calls this one function; once the
/// request succeeds, each of their open streams, on every process, checks its own
/// (`Credential::holds`) and closes if it ended.
pub fn credentials_ended(member: i64) {
    note(Change::CredentialsEnded { member });
}

/// Runs `work` (a request being served), collecting what it notes; the caller publishes the
/// changes once the work is known to have succeeded (`murmur_server::live::publish_noted`).
pub async fn noting<F: std::future::Future>(work: F) -> (F::Output, Vec<Change>) {
    NOTED
        .scope(RefCell::new(Vec::new()), async move {
            let output = work.await;
            (output, NOTED.with(|n| n.take()))
        })
        .await
}
