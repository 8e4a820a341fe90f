//! Members' writes first: background work on the database (the fan-out queue's chunks, timeline
//! trims) waits for a moment without member writes before each of its transactions.
//!
//! Why: on SQLite every write takes its turn at the one writer, in the order it asked. Upkeep's
//! trims of a grown network and the chunks of a popular member's post held it for many
//! milliseconds at a time, and every like, follow or post that asked meanwhile waited behind
//! them (docs/performance.md, "Members' writes first"). The wait is bounded (`WAIT_AT_MOST`),
//! so background work still moves under a constant stream of writes. Counted per process, with
//! nothing shared: on PostgreSQL several processes' background work gives way only to each
//! one's own requests, which matters less there, where writers do not queue for one another.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// The longest a background transaction waits for a moment without member writes.
pub const WAIT_AT_MOST: Duration = Duration::from_millis(50);

/// The member write requests this process is serving (`started`), which background writes wait
/// for (`wait_for_none`).
#[derive(Clone, Default)]
pub struct MemberWrites(Arc<Inner>);

#[derive(Default)]
struct Inner {
    in_flight: AtomicUsize,
    idle: Notify,
}

/// One member write request in flight, until dropped.
pub struct WriteInProgress(Arc<Inner>);

impl Drop for WriteInProgress {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl MemberWrites {
    /// Member write requests in flight now (`/metrics`).
    pub fn in_flight(&self) -> usize {
        self.0.in_flight.load(Ordering::Relaxed)
    }

    /// Counts a member's write request until the answer is dropped.
    pub fn started(&self) -> WriteInProgress {
        self.0.in_flight.fetch_add(1, Ordering::AcqRel);
        WriteInProgress(self.0.clone())
    }

    /// Waits until no member write request is in flight, or `WAIT_AT_MOST` has passed.
    pub async fn wait_for_none(&self) {
        let deadline = tokio::time::Instant::now() + WAIT_AT_MOST;
        loop {
            // Created before the count is read: `notify_waiters` reaches a `Notified` from its
            // creation on, so a request ending between the two is not missed.
            let idle = self.0.idle.notified();
            if self.0.in_flight.load(Ordering::Acquire) == 0 {
                return;
            }
            if tokio::time::timeout_at(deadline, idle).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn background_work_waits_for_the_writes_in_flight() {
        let writes = MemberWrites::default();
        // Nothing in flight: no wait at all.
        let start = tokio::time::Instant::now();
        writes.wait_for_none().await;
        assert_eq!(start.elapsed(), Duration::ZERO);

        let first = writes.started();
        let second = writes.started();
        let waiting = tokio::spawn({
            let writes = writes.clone();
            async move { writes.wait_for_none().await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(first);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiting.is_finished(), "one write is still in flight");
        drop(second);
        waiting.await.unwrap();
        assert_eq!(start.elapsed(), Duration::from_millis(20), "went on once the last write ended");
    }

    #[tokio::test(start_paused = true)]
    async fn background_work_waits_no_longer_than_its_bound() {
        let writes = MemberWrites::default();
        let _endless = writes.started();
        let start = tokio::time::Instant::now();
        writes.wait_for_none().await;
        assert_eq!(start.elapsed(), WAIT_AT_MOST);
    }
}
