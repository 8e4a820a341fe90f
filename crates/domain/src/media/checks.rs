//! How many images this process checks at once. Decoding an image takes memory in proportion to
//! its pixels, hundreds of MB for a large one, so at most one is decoded per core and a large one
//! takes every core's place (it is decoded alone); a few more wait their turn, and the rest are
//! told to come back (503 with Retry-After; their upload stays pending and can be sent again
//! with the same URL).

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::images;
use murmur_core::error::{Error, Result};

/// An image with more pixels than this is decoded alone: two of the largest at once would take
/// twice the memory for no gain in time on the same cores.
const LARGE_PIXELS: u64 = 16_000_000;
/// Checks that may wait for a core, per core.
const WAITING_PER_CORE: usize = 2;
/// Longest a check waits for a core before it is told to come back: the request must be
/// answered well within the server's request timeout.
const MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

#[derive(Clone)]
pub struct CheckQueue {
    /// One permit per core: an image being decoded takes one, a large one all.
    decoding: Arc<Semaphore>,
    cores: u32,
    /// One permit per check decoding or waiting: the queue's bound.
    admitted: Arc<Semaphore>,
}

/// A check's place: held until its decode has finished, even if the request went away.
pub struct CheckTurn {
    _admitted: OwnedSemaphorePermit,
    _decoding: OwnedSemaphorePermit,
}

fn busy() -> Error {
    murmur_core::metrics::image_check("busy");
    Error::Unavailable("Too many images are being checked right now; please try again in a few seconds".into())
}

impl CheckQueue {
    pub fn new(cores: usize) -> CheckQueue {
        let cores = cores.max(1);
        CheckQueue {
            decoding: Arc::new(Semaphore::new(cores)),
            cores: cores as u32,
            admitted: Arc::new(Semaphore::new(cores * (1 + WAITING_PER_CORE))),
        }
    }

    /// A place in the queue, taken before the image's bytes are fetched so the queue bounds
    /// them too; 503 at once when the queue is full.
    pub fn admit(&self) -> Result<Admitted> {
        let permit = self.admitted.clone().try_acquire_owned().map_err(|_| busy())?;
        Ok(Admitted { queue: self.clone(), permit })
    }

    /// `admit`, then `Admitted::turn`, for bytes already in hand.
    pub async fn turn(&self, pixels: u64) -> Result<CheckTurn> {
        self.admit()?.turn(pixels).await
    }
}

/// A check admitted to the queue, waiting for its turn to decode.
pub struct Admitted {
    queue: CheckQueue,
    permit: OwnedSemaphorePermit,
}

impl Admitted {
    /// Waits for a core, or every core for an image of more than `LARGE_PIXELS` (`pixels`: what
    /// its header claims, `images::claimed_pixels`), at most `MAX_WAIT`, else 503.
    pub async fn turn(self, pixels: u64) -> Result<CheckTurn> {
        let cores = if pixels > LARGE_PIXELS { self.queue.cores } else { 1 };
        let decoding = tokio::time::timeout(MAX_WAIT, self.queue.decoding.clone().acquire_many_owned(cores))
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        Ok(CheckTurn { _admitted: self.permit, _decoding: decoding })
    }
}

/// `images::clean` on a blocking thread (decoding is CPU-bound), holding `turn` until it ends.
pub async fn clean(turn: CheckTurn, bytes: bytes::Bytes) -> Result<images::CleanImage> {
    let checked = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        images::clean(&bytes)
    })
    .await
    .map_err(|e| Error::Internal(anyhow::anyhow!("image check panicked: {e}")))?;
    murmur_core::metrics::image_check(if checked.is_ok() { "accepted" } else { "refused" });
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_large_image_is_decoded_alone() {
        let queue = CheckQueue::new(2);
        let small = queue.turn(1_000_000).await.unwrap();
        let large = tokio::spawn({
            let q = queue.clone();
            async move { q.turn(LARGE_PIXELS + 1).await }
        });
        tokio::task::yield_now().await;
        assert!(!large.is_finished(), "waits while a small image takes a core");
        drop(small);
        let large = large.await.unwrap().unwrap();
        assert_eq!(queue.decoding.available_permits(), 0, "the large image holds every core");
        drop(large);
        assert_eq!(queue.decoding.available_permits(), 2);
    }

    #[tokio::test]
    async fn a_full_queue_turns_checks_away_and_takes_them_again_once_a_turn_ends() {
        let queue = CheckQueue::new(1);
        let first = queue.turn(1).await.unwrap();
        // One decoding and two waiting fill a one-core queue; the fourth is refused at once.
        let waiting: Vec<_> = (0..2)
            .map(|_| {
                tokio::spawn({
                    let q = queue.clone();
                    async move { q.turn(1).await }
                })
            })
            .collect();
        tokio::task::yield_now().await;
        assert_eq!(queue.admitted.available_permits(), 0);
        assert!(matches!(queue.turn(1).await, Err(Error::Unavailable(_))));
        drop(first);
        for handle in waiting {
            drop(handle.await.unwrap().unwrap());
        }
        assert!(queue.turn(1).await.is_ok());
    }
}
