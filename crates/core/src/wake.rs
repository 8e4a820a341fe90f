//! The wake-up of a background job, below every area: an area's write wakes its job (the
//! fan-out worker, the leaving job, the archive builder) without naming `jobs`, which runs them.

use std::time::Duration;

/// Wakes one of this process's jobs when there is work for it now (each also looks on its own
/// every so often, for work another process was asked for); cheap to clone.
#[derive(Clone, Default)]
pub struct Wake(std::sync::Arc<tokio::sync::Notify>);

impl Wake {
    pub fn wake(&self) {
        self.0.notify_one();
    }

    /// Completes when `wake` is called, or after `sweep` at the latest (a wake with nobody
    /// waiting is kept for the next wait).
    pub async fn woken_or_after(&self, sweep: Duration) {
        let _ = tokio::time::timeout(sweep, self.0.notified()).await;
    }
}
