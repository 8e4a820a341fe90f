//! Members' writes first: background work on the database (the fan-out queue's chunks, timeline
//! trims) waits for a moment without member writes before each of its transactions.
//!
//! Why: on SQLite every write takes its turn at the one writer, in the order it asked. Upkeep's
//! trims of a grown network (400 and more rows a member, one member after another) and the
//! chunks of a popular member's post held it for many milliseconds at a time, and every like,
//! follow or post that asked meanwhile waited behind them: on a network the benchmark had grown
//! to 9 million timeline rows, follows with reads going on fell from 400–600 to 96–167 a
//! second with a p99 of 116–160 ms, and with this 554–641 a second at 33–36 ms
//! (docs/performance.md, "Members' writes first"). Giving way is bounded (`GIVE_WAY_AT_MOST`),
//! so background work still moves under a constant stream of writes. Counted per process, with
//! nothing shared: on PostgreSQL several processes' background work gives way only to each
//! one's own requests, which matters less there, where writers do not queue for one another.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// The longest a background transaction waits for a moment without member writes.
pub const GIVE_WAY_AT_MOST: Duration = Duration::from_millis(50);

/// The member write requests this process is serving (`enter`), which background writes wait
/// for (`give_way`).
#[derive(Clone, Default)]
pub struct WriteTurns(Arc<Inner>);

#[derive(Default)]
struct Inner {
    in_flight: AtomicUsize,
    idle: Notify,
}

/// One member write request in flight, until dropped.
pub struct InFlight(Arc<Inner>);

impl Drop for InFlight {
    fn drop(&mut self) {
        if self.0.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl WriteTurns {
    /// Member write requests in flight now (`/metrics`).
    pub fn in_flight(&self) -> usize {
        self.0.in_flight.load(Ordering::Relaxed)
    }

    /// Counts a member's write request until the answer is dropped.
    pub fn enter(&self) -> InFlight {
        self.0.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(self.0.clone())
    }

    /// Waits until no member write request is in flight, or `GIVE_WAY_AT_MOST` has passed.
    pub async fn give_way(&self) {
        let deadline = tokio::time::Instant::now() + GIVE_WAY_AT_MOST;
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
        let turns = WriteTurns::default();
        // Nothing in flight: no wait at all.
        let start = tokio::time::Instant::now();
        turns.give_way().await;
        assert_eq!(start.elapsed(), Duration::ZERO);

        let first = turns.enter();
        let second = turns.enter();
        let waiting = tokio::spawn({
            let turns = turns.clone();
            async move { turns.give_way().await }
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
        let turns = WriteTurns::default();
        let _endless = turns.enter();
        let start = tokio::time::Instant::now();
        turns.give_way().await;
        assert_eq!(start.elapsed(), GIVE_WAY_AT_MOST);
    }
}
