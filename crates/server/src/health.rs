//! What an instance depends on, and whether each answers: the database, the object store, the
//! mail server (when one is configured) and this process's background workers. `/readyz`
//! reports it; `murmur check` prints it before a restart.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use murmur_core::db::Db;
use murmur_domain::mail::Mailer;
use murmur_domain::media::MediaStore;

/// One dependency's state: `ok`, and in plain words what is wrong when it is not.
#[derive(Serialize, Debug, Clone)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl Check {
    fn new(name: &'static str, outcome: std::result::Result<(), String>) -> Check {
        Check { name, ok: outcome.is_ok(), problem: outcome.err() }
    }

    pub fn failed(name: &'static str, problem: String) -> Check {
        Check::new(name, Err(problem))
    }
}

/// Each probe gives up after this long: a dependency that does not answer is not ready.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

async fn timed<F: std::future::Future<Output = std::result::Result<(), String>>>(
    what: &str,
    probe: F,
) -> std::result::Result<(), String> {
    tokio::time::timeout(PROBE_TIMEOUT, probe)
        .await
        .unwrap_or_else(|_| Err(format!("{what} did not answer within {} seconds", PROBE_TIMEOUT.as_secs())))
}

pub async fn database(db: &Db) -> Check {
    let outcome = timed("The database", async {
        if db.ping().await { Ok(()) } else { Err("The database is not reachable".to_string()) }
    });
    Check::new("database", outcome.await)
}

/// Each replica's state (`db::replicas`): one set aside does not make the process unready, as
/// the primary serves its reads; it is reported with why.
pub fn replicas(db: &Db) -> Vec<serde_json::Value> {
    db.replicas
        .states()
        .into_iter()
        .enumerate()
        .map(|(index, state)| {
            let mut replica = serde_json::json!({
                "replica": index,
                "inUse": state.in_use,
                "lagSeconds": state.lag.as_secs_f64(),
            });
            if let Some(problem) = state.problem {
                replica["problem"] = problem.into();
            }
            replica
        })
        .collect()
}

pub async fn object_store(media: &MediaStore) -> Check {
    let outcome = timed("The object store", async {
        media.probe().await.map_err(|e| format!("The object store cannot be listed: {e}"))
    });
    Check::new("objectStore", outcome.await)
}

/// The mail server, when `SMTP_URL` names one (the outbox folder needs no check).
pub async fn mail(mailer: &Mailer) -> Option<Check> {
    if mailer.is_outbox() {
        return None;
    }
    let outcome = timed("The mail server", async { mailer.probe().await });
    Some(Check::new("mail", outcome.await))
}

/// When each background worker of this process last went round its loop, so a stalled one
/// (stuck, or ended by a panic) makes the process not ready.
#[derive(Clone)]
pub struct Heartbeats {
    started: Instant,
    fan_out: Arc<AtomicU64>,
    upkeep: Arc<AtomicU64>,
}

/// A worker is stalled when it has not gone round for this many of its periods.
const MISSED_BEATS: u32 = 3;

impl Default for Heartbeats {
    fn default() -> Self {
        Heartbeats { started: Instant::now(), fan_out: Arc::default(), upkeep: Arc::default() }
    }
}

impl Heartbeats {
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    pub fn fan_out_beat(&self) {
        self.fan_out.store(self.now(), Ordering::Relaxed);
    }

    pub fn upkeep_beat(&self) {
        self.upkeep.store(self.now(), Ordering::Relaxed);
    }

    /// The workers' check: each must have gone round within `MISSED_BEATS` of its period
    /// (counted from the process's start until its first round).
    pub fn workers(&self, fan_out_period: Duration, upkeep_period: Duration) -> Check {
        let now = self.now();
        let stalled: Vec<&str> = [("fan-out", &self.fan_out, fan_out_period), ("upkeep", &self.upkeep, upkeep_period)]
            .into_iter()
            .filter(|(_, beat, period)| {
                now.saturating_sub(beat.load(Ordering::Relaxed)) > (*period * MISSED_BEATS).as_millis() as u64
            })
            .map(|(name, _, _)| name)
            .collect();
        let outcome = if stalled.is_empty() {
            Ok(())
        } else {
            Err(format!("Background workers stalled: {}", stalled.join(", ")))
        };
        Check::new("workers", outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_worker_that_misses_three_rounds_is_stalled_and_recovers_when_it_goes_round() {
        let beats = Heartbeats::default();
        let period = Duration::from_millis(10);
        beats.fan_out_beat();
        beats.upkeep_beat();
        assert!(beats.workers(period, period).ok);
        tokio::time::sleep(Duration::from_millis(40)).await;
        beats.upkeep_beat();
        let check = beats.workers(period, period);
        assert!(!check.ok);
        assert_eq!(check.problem.as_deref(), Some("Background workers stalled: fan-out"));
        beats.fan_out_beat();
        assert!(beats.workers(period, period).ok);
    }
}
