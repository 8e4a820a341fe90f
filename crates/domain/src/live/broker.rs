//! The streams open in this process and what reaches them: each change the bus brings is
//! numbered, kept in a short ring for catch-up, and turned into events for the streams it
//! concerns.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::json;
use tokio::sync::mpsc;

use super::Change;
use crate::visibility::Scope;
use murmur_core::clock::Millis;
use murmur_core::db::{Db, Pool};
use murmur_core::error::Result;

/// Streams one member may hold open at once; a new one past it closes their oldest.
pub const MAX_STREAMS_PER_MEMBER: usize = 5;
/// Events waiting to be sent on one stream; a stream that falls this far behind is closed
/// (the client reconnects and catches up), so a reader that stops cannot grow the server.
pub const STREAM_BUFFER: usize = 32;
/// Changes kept for catch-up: a reconnect that missed more gets `reset` instead.
pub const RING: usize = 4096;
/// What a stream closed for a member's newer one tells its tab to wait before reconnecting.
pub const RETRY_AFTER_REPLACED: Duration = Duration::from_secs(60);
/// What a closing server tells clients to wait before they reconnect (to another process).
pub const RETRY_AFTER_SHUTDOWN: Duration = Duration::from_millis(500);

/// What is sent on a stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    Event {
        id: String,
        name: &'static str,
        data: String,
    },
    /// The server is closing: reconnect after this long.
    Retry(Duration),
}

/// What a stream is sent besides its member's notifications, feed and the end of its credential.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wants {
    /// The post whose counts it follows (the thread screen open), if any.
    pub counts_of: Option<i64>,
    /// Edits and deletions of the posts its member reads (followed members' and their own):
    /// Mastodon apps redraw or drop the statuses they hold; the web app reads posts again.
    pub edits: bool,
}

impl Wants {
    /// Whether `change`, when it concerns the stream's member, is for this stream.
    fn takes(self, change: Change) -> bool {
        match change {
            Change::Counted { post } => self.counts_of == Some(post),
            Change::Edited { .. } | Change::Deleted { .. } => self.edits,
            Change::Notified { .. }
            | Change::Published { .. }
            | Change::CredentialsEnded { .. }
            | Change::CardFetched { .. }
            | Change::Messaged { .. } => true,
        }
    }
}

/// What a stream was opened with: it closes when that ends. The area that issues it says whether
/// it still holds (`sessions::Credential`).
pub trait Credential: Send + Sync + std::fmt::Debug {
    /// Whether it still holds. Read from `write` (the primary): a replica may not have seen its
    /// end yet.
    fn holds<'a>(&'a self, write: &'a Pool, now: Millis) -> BoxFuture<'a, Result<bool>>;
}

/// One open stream.
struct Stream {
    id: u64,
    /// What it was opened with; it closes when that ends.
    credential: Arc<dyn Credential>,
    wants: Wants,
    tx: mpsc::Sender<Frame>,
}

#[derive(Default)]
struct Inner {
    /// Number of the last change.
    seq: u64,
    ring: VecDeque<(u64, Change)>,
    by_member: HashMap<i64, Vec<Stream>>,
    closing: bool,
}

/// This process's streams; one per process.
pub struct Broker {
    /// Tells this process's event ids from another's (or a restarted one's).
    boot: u64,
    next_stream: AtomicU64,
    inner: Mutex<Inner>,
}

impl Default for Broker {
    fn default() -> Self {
        Broker { boot: rand::random::<u32>() as u64, next_stream: AtomicU64::new(1), inner: Mutex::default() }
    }
}

/// A stream just opened: its frames, and what it missed since `Last-Event-ID`.
pub struct Opened {
    pub frames: mpsc::Receiver<Frame>,
    /// The changes to replay, oldest first; None when they are no longer all kept (or the id is
    /// another process's): the client must refetch.
    pub missed: Option<Vec<(u64, Change)>>,
    /// The id of the stream's first event.
    pub hello_id: String,
}

impl Broker {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("the broker's lock is never poisoned")
    }

    fn event_id(&self, seq: u64) -> String {
        format!("{}-{seq}", self.boot)
    }

    /// Opens a stream for `member`, held by `credential`, sent what it `wants` besides;
    /// `last_event_id` is what the client saw last. Closes the member's oldest stream past
    /// `MAX_STREAMS_PER_MEMBER`. None while the server is closing.
    pub fn open(
        &self,
        member: i64,
        credential: Arc<dyn Credential>,
        wants: Wants,
        last_event_id: Option<&str>,
    ) -> Option<Opened> {
        let (tx, frames) = mpsc::channel(STREAM_BUFFER);
        let mut inner = self.inner();
        if inner.closing {
            return None;
        }
        let missed = match last_event_id {
            None => Some(Vec::new()),
            Some(last) => self.missed_since(&inner, last),
        };
        let hello_id = self.event_id(inner.seq);
        let id = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let streams = inner.by_member.entry(member).or_default();
        streams.retain(|s| !s.tx.is_closed());
        if streams.len() >= MAX_STREAMS_PER_MEMBER {
            // Dropping its sender ends the oldest stream once it has sent what it holds; it is
            // told to wait a while before coming back, so a member's sixth tab and first do not
            // keep closing each other's streams.
            let oldest = streams.remove(0);
            let _ = oldest.tx.try_send(Frame::Retry(RETRY_AFTER_REPLACED));
        }
        streams.push(Stream { id, credential, wants, tx });
        Some(Opened { frames, missed, hello_id })
    }

    /// The changes after `last` (an id this process gave), if the ring still holds them all.
    fn missed_since(&self, inner: &Inner, last: &str) -> Option<Vec<(u64, Change)>> {
        let (boot, seq) = last.split_once('-')?;
        let (boot, seq): (u64, u64) = (boot.parse().ok()?, seq.parse().ok()?);
        if boot != self.boot || seq > inner.seq {
            return None;
        }
        let oldest_kept = inner.ring.front().map_or(inner.seq + 1, |(s, _)| *s);
        if seq + 1 < oldest_kept {
            return None;
        }
        Some(inner.ring.iter().filter(|(s, _)| *s > seq).copied().collect())
    }

    /// Streams open in this process.
    pub fn open_streams(&self) -> usize {
        self.inner().by_member.values().map(|s| s.iter().filter(|s| !s.tx.is_closed()).count()).sum()
    }

    /// Numbers `change`, keeps it for catch-up, and sends its events to the streams it concerns.
    pub async fn deliver(&self, db: &Db, change: Change, now: Millis) -> Result<()> {
        let (seq, anyone) = {
            let mut inner = self.inner();
            inner.seq += 1;
            let seq = inner.seq;
            inner.ring.push_back((seq, change));
            if inner.ring.len() > RING {
                inner.ring.pop_front();
            }
            (seq, !inner.by_member.is_empty())
        };
        if !anyone {
            return Ok(());
        }
        let members: Vec<i64> = match change {
            Change::Notified { member, .. } | Change::CredentialsEnded { member } | Change::Messaged { member, .. } => {
                vec![member]
            }
            Change::CardFetched { author, .. } => vec![author],
            Change::Published { author, .. } => {
                let followers = followers(db, author, now).await?;
                let inner = self.inner();
                followers.into_iter().filter(|m| inner.by_member.contains_key(m)).collect()
            }
            Change::Counted { .. } => self.members_wanting(change),
            Change::Edited { author, .. } | Change::Deleted { author, .. } => {
                // Read who follows the author only when some stream here is told of edits.
                let wanting = self.members_wanting(change);
                if wanting.is_empty() {
                    return Ok(());
                }
                let followers = followers(db, author, now).await?;
                wanting.into_iter().filter(|m| reads(change, author, *m, &followers)).collect()
            }
        };
        let id = self.event_id(seq);
        for member in members {
            let streams: Vec<(u64, Arc<dyn Credential>)> = match self.inner().by_member.get(&member) {
                Some(streams) => {
                    streams.iter().filter(|s| s.wants.takes(change)).map(|s| (s.id, s.credential.clone())).collect()
                }
                None => continue,
            };
            // A change makes the same events on each of a member's streams (read once), but for
            // a credential's end, which each stream checks for its own credential.
            let mut made_for_member: Option<Vec<Frame>> = None;
            for (stream, credential) in streams {
                let made = match (&made_for_member, change) {
                    (Some(made), _) => made.clone(),
                    (None, Change::CredentialsEnded { .. }) => {
                        frames(db, change, &id, member, credential.as_ref(), now).await?
                    }
                    (None, _) => {
                        made_for_member.insert(frames(db, change, &id, member, credential.as_ref(), now).await?).clone()
                    }
                };
                for frame in made {
                    self.send(member, stream, frame);
                }
            }
        }
        Ok(())
    }

    /// The members with a stream that `change` is for, were it to concern them.
    fn members_wanting(&self, change: Change) -> Vec<i64> {
        self.inner()
            .by_member
            .iter()
            .filter(|(_, streams)| streams.iter().any(|s| s.wants.takes(change)))
            .map(|(member, _)| *member)
            .collect()
    }

    /// Sends `frame` on a stream; a stream that is gone or too far behind is closed.
    fn send(&self, member: i64, stream: u64, frame: Frame) {
        let mut inner = self.inner();
        let Some(streams) = inner.by_member.get_mut(&member) else { return };
        let Some(at) = streams.iter().position(|s| s.id == stream) else { return };
        let last = matches!(&frame, Frame::Event { name: "session-ended", .. });
        if streams[at].tx.try_send(frame).is_err() || last {
            streams.remove(at);
            if last {
                murmur_core::metrics::live_stream_closed("session-ended");
            } else {
                murmur_core::metrics::live_stream_closed("slow-or-gone");
            }
        }
        if streams.is_empty() {
            inner.by_member.remove(&member);
        }
    }

    /// Every stream is told to refetch: changes may have been lost (the bus's connection
    /// dropped, or its queue overflowed).
    pub fn reset_all(&self) {
        let mut inner = self.inner();
        inner.seq += 1;
        // What came before cannot be replayed exactly any more.
        inner.ring.clear();
        let id = self.event_id(inner.seq);
        for streams in inner.by_member.values_mut() {
            streams.retain(|s| s.tx.try_send(reset(&id)).is_ok());
        }
        inner.by_member.retain(|_, streams| !streams.is_empty());
    }

    /// The server is closing: every stream is told when to reconnect, then ended; no new one opens.
    pub fn close_all(&self) {
        let mut inner = self.inner();
        inner.closing = true;
        for streams in inner.by_member.values() {
            for stream in streams {
                let _ = stream.tx.try_send(Frame::Retry(RETRY_AFTER_SHUTDOWN));
            }
        }
        inner.by_member.clear();
    }

    /// The frames replaying `missed` for `member`'s new stream (held by `credential`, sent
    /// what it `wants`), or a `reset` when they were not all kept.
    pub async fn replay(
        &self,
        db: &Db,
        member: i64,
        credential: &dyn Credential,
        wants: Wants,
        missed: Option<Vec<(u64, Change)>>,
        now: Millis,
    ) -> Result<Vec<Frame>> {
        let Some(missed) = missed else {
            return Ok(vec![reset(&self.event_id(self.inner().seq))]);
        };
        let mut out = Vec::new();
        for (seq, change) in missed {
            let mine = wants.takes(change)
                && match change {
                    Change::Notified { member: m, .. }
                    | Change::CredentialsEnded { member: m }
                    | Change::Messaged { member: m, .. }
                    | Change::CardFetched { author: m, .. } => m == member,
                    Change::Counted { .. } => true,
                    Change::Published { author, .. }
                    | Change::Edited { author, .. }
                    | Change::Deleted { author, .. } => {
                        reads(change, author, member, &followers(db, author, now).await?)
                    }
                };
            if mine {
                out.extend(frames(db, change, &self.event_id(seq), member, credential, now).await?);
            }
        }
        Ok(out)
    }
}

fn reset(id: &str) -> Frame {
    Frame::Event { id: id.to_string(), name: "reset", data: "{}".to_string() }
}

/// Whether `member` reads the post that `author`'s `change` is about, given who follows
/// `author` (`followers`). Its author reads their own post too, but is not told of having
/// published it, and still sees it once moderators removed it.
fn reads(change: Change, author: i64, member: i64, followers: &std::collections::HashSet<i64>) -> bool {
    let author_told = matches!(change, Change::Edited { .. } | Change::Deleted { removed: false, .. });
    followers.contains(&member) || (member == author && author_told)
}

/// Who follows `author` without having them hidden (blocked or muted, `visibility`):
/// the members a post of theirs reaches (`follows_following_idx`).
async fn followers(db: &Db, author: i64, now: Millis) -> Result<std::collections::HashSet<i64>> {
    static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "SELECT f.follower_id FROM follows f WHERE f.following_id = $1 AND NOT {}",
            crate::visibility::hidden(Scope::Feeds { now: "$2" }, "f.follower_id", "$1")
        )
    });
    let followers: Vec<i64> = sqlx::query_scalar(SQL.as_str()).bind(author).bind(now).fetch_all(&db.read).await?;
    Ok(followers.into_iter().collect())
}

/// The events `change` makes on a stream of `member` (held by `credential`).
async fn frames(
    db: &Db,
    change: Change,
    id: &str,
    member: i64,
    credential: &dyn Credential,
    now: Millis,
) -> Result<Vec<Frame>> {
    let event =
        |name: &'static str, data: serde_json::Value| Frame::Event { id: id.to_string(), name, data: data.to_string() };
    Ok(match change {
        Change::Notified { new, .. } => {
            let count = crate::live::counts::unread_count(&db.read, member, now).await?;
            let mut out = Vec::new();
            if new {
                out.push(event("notification", json!({})));
            }
            out.push(event("unread-count", json!({ "count": count })));
            out
        }
        Change::Published { post, .. } => vec![event("feed", json!({ "postIds": [post] }))],
        Change::Edited { post, .. } => vec![event("post-edited", json!({ "postId": post }))],
        Change::Deleted { post, .. } => vec![event("post-deleted", json!({ "postId": post }))],
        Change::CardFetched { post, .. } => vec![event("post-card", json!({ "postId": post }))],
        Change::Messaged { conversation, .. } => vec![event("message", json!({ "conversationId": conversation }))],
        Change::Counted { post } => {
            // A post hidden from the member (blocked either way, a suspended author) tells them
            // nothing, as its card does not (`posts::hydrate`).
            static SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
                format!(
                    "SELECT p.like_count, p.repost_count, p.reply_count FROM posts p \
                     WHERE p.id = $1 AND p.deleted_at IS NULL AND NOT {}",
                    crate::visibility::post_hidden(Scope::Anywhere, "$2", "p")
                )
            });
            let counts: Option<(i64, i64, i64)> =
                sqlx::query_as(SQL.as_str()).bind(post).bind(member).fetch_optional(&db.read).await?;
            match counts {
                Some((likes, reposts, replies)) => vec![event(
                    "post-counts",
                    json!({ "postId": post, "likeCount": likes, "repostCount": reposts, "replyCount": replies }),
                )],
                None => Vec::new(),
            }
        }
        Change::CredentialsEnded { .. } => {
            if credential.holds(&db.write, now).await? {
                Vec::new()
            } else {
                vec![event("session-ended", json!({}))]
            }
        }
    })
}
