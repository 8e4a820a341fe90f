//! How many images this process checks at once. Decoding a large image takes hundreds of MB
//! for a moment, so at most one is decoded per core; a few more wait their turn, and the rest
//! are told to come back (503 with Retry-After; their upload stays pending and can be sent
//! again with the same URL).

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::images;
use crate::error::{Error, Result};

/// Checks that may wait for a core, per core.
const WAITING_PER_CORE: usize = 2;
/// Longest a check waits for a core before it is told to come back: the request must be
/// answered well within the server's request timeout.
const MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(15);

#[derive(Clone)]
pub struct CheckQueue {
    /// One permit per image being decoded.
    decoding: Arc<Semaphore>,
    /// One permit per check decoding or waiting: the queue's bound.
    admitted: Arc<Semaphore>,
}

/// A check's place: held until its decode has finished, even if the request went away.
pub struct CheckTurn {
    _admitted: OwnedSemaphorePermit,
    _decoding: OwnedSemaphorePermit,
}

fn busy() -> Error {
    crate::metrics::image_check("busy");
    Error::Unavailable("Too many images are being checked right now; please try again in a few seconds".into())
}

impl CheckQueue {
    pub fn new(cores: usize) -> CheckQueue {
        let cores = cores.max(1);
        CheckQueue {
            decoding: Arc::new(Semaphore::new(cores)),
            admitted: Arc::new(Semaphore::new(cores * (1 + WAITING_PER_CORE))),
        }
    }

    /// Waits for a core (at most `MAX_WAIT`), or answers 503 at once when the queue is full.
    pub async fn turn(&self) -> Result<CheckTurn> {
        let admitted = self.admitted.clone().try_acquire_owned().map_err(|_| busy())?;
        let decoding = tokio::time::timeout(MAX_WAIT, self.decoding.clone().acquire_owned())
            .await
            .map_err(|_| busy())?
            .map_err(|_| busy())?;
        Ok(CheckTurn { _admitted: admitted, _decoding: decoding })
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
    crate::metrics::image_check(if checked.is_ok() { "accepted" } else { "refused" });
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_turns_checks_away_and_takes_them_again_once_a_turn_ends() {
        let queue = CheckQueue::new(1);
        let first = queue.turn().await.unwrap();
        // One decoding and two waiting fill a one-core queue; the fourth is refused at once.
        let waiting: Vec<_> = (0..2)
            .map(|_| {
                tokio::spawn({
                    let q = queue.clone();
                    async move { q.turn().await }
                })
            })
            .collect();
        tokio::task::yield_now().await;
        assert_eq!(queue.admitted.available_permits(), 0);
        assert!(matches!(queue.turn().await, Err(Error::Unavailable(_))));
        drop(first);
        for handle in waiting {
            drop(handle.await.unwrap().unwrap());
        }
        assert!(queue.turn().await.is_ok());
    }
}
