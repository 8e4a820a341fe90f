//! The background jobs of a `serve` process, started beside the server and stopped with it.
//! Each takes only what it needs (a database, a queue, the heartbeats `/readyz` reads), and the
//! rules they apply stay with the areas that own them (`media::cleanup_orphans`,
//! `timelines::fan_out_chunk`, …).
//!
//! - upkeep, every `UPKEEP_EVERY`: orphan uploads, expired sessions, old rate-limit windows,
//!   For You rankings no page can continue, a slice of the home timelines trimmed,
//!   suspensions whose time is up ended, expired data archives, posts' idempotency keys
//!   past their hour, and passkey ceremonies left unfinished;
//! - fan-out, whenever woken and every `FAN_OUT_SWEEP`: large posts to their followers' home
//!   timelines, one chunk (one short write transaction) at a time;
//! - discovery, every `DISCOVERY_EVERY`: the entities of posts written before they were stored
//!   (until none is left), then Trending, recomputed by one process at a time every
//!   `TRENDING_EVERY` (`claim`);
//! - leaving, whenever an account is deleted and every `LEAVING_SWEEP`: what a deleted member
//!   left (posts, likes, notifications, uploads, …) removed in bounded batches, each giving way
//!   to members' writes (`accounts::leaving`);
//! - exports, whenever woken (a member asked) and every `EXPORT_SWEEP`: members' data archives,
//!   one at a time, each claimed by one process (`exports::claim_next`), then the member
//!   told by notification and e-mail;
//! - pushes, whenever woken (a request made a notification) and every `PUSH_SWEEP`: Web Push
//!   messages, a few at a time, each claimed by one process (`push::claim_due`), sent
//!   through the outbound guard (`crate::push`);
//! - link cards, whenever woken (a post with a link was written) and every `LINK_CARD_SWEEP`,
//!   unless `--link-previews=false`: the preview cards of posts' links, a few at a time, each
//!   claimed by one process (`link_cards::claim_due`), fetched through the outbound
//!   guard (`crate::link_cards`);
//! - the live bus: changes to every process's event streams (`live::bus`);
//! - replicas, PostgreSQL with `--database-replica-url`, every `replicas::POLL_EVERY`: how far
//!   each replica has replayed, its lag, and whether reads may go to it (`db::replicas`);
//! - checkpoints, SQLite only, every `db::CHECKPOINT_EVERY`: the write-ahead log copied back
//!   into the database file off the writer.
//!
//! Fan-out chunks and trims give way to members' writes first (`db::member_writes`).

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::health::Heartbeats;
use crate::state::AppState;
use murmur_core::clock::{Clock, DAY, MINUTE, Millis};
use murmur_core::db::Db;
use murmur_core::error::Result;
use murmur_domain::accounts::leaving::CleanupQueue;
use murmur_domain::live::Live;
use murmur_domain::mail::Mailer;
use murmur_domain::media::MediaStore;
use murmur_domain::timelines::FanOutQueue;

/// How often upkeep runs.
pub const UPKEEP_EVERY: Duration = Duration::from_secs(5 * 60);
use murmur_core::wake::Wake;

/// Runs the job `name`'s `round` at once, then again whenever `wake` is called and every
/// `sweep` unwoken (for work another process was asked for, or one that stopped midway left).
/// A failed round is logged and tried again at the next.
fn on_wake<F, Fut>(name: &'static str, wake: Wake, sweep: Duration, mut round: F) -> JoinHandle<()>
where
    F: FnMut() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Result<()>> + Send,
{
    tokio::spawn(async move {
        loop {
            match round().await {
                Ok(()) => murmur_core::metrics::job_succeeded(name),
                Err(e) => tracing::warn!(error = %e, job = name, "a background job's round failed; retrying later"),
            }
            wake.woken_or_after(sweep).await;
        }
    })
}

/// How often the fan-out worker looks at the queue unwoken: picks up the posts of a process
/// that stopped before their last chunk.
pub const FAN_OUT_SWEEP: Duration = Duration::from_secs(10);
/// How often the leaving job looks for deletions unwoken: picks up those of a process that
/// stopped before it finished.
pub const LEAVING_SWEEP: Duration = Duration::from_secs(30);
/// How often the export job looks for archives to prepare unwoken: picks up what another
/// process was asked for, or a process that stopped midway left.
pub const EXPORT_SWEEP: Duration = Duration::from_secs(30);
/// How often the push job looks for due pushes unwoken: retries, and what another process
/// queued or a stopped one left.
pub const PUSH_SWEEP: Duration = Duration::from_secs(10);
/// How often the link cards job looks for due cards unwoken: what another process was asked
/// for, or a stopped one left.
pub const LINK_CARD_SWEEP: Duration = Duration::from_secs(30);
/// How often the discovery job wakes.
pub const DISCOVERY_EVERY: Duration = Duration::from_secs(60);
/// How often Trending is recomputed, by whichever process claims it.
pub const TRENDING_EVERY: Millis = 5 * MINUTE;
/// Rate-limit windows are kept this long; no limit uses a longer window.
const RATE_LIMIT_RETENTION: Millis = DAY;

/// The running jobs of one process.
pub struct Jobs(Vec<JoinHandle<()>>);

/// Starts every job of a `serve` process.
pub fn start(state: &AppState) -> Jobs {
    let mut jobs = vec![
        upkeep_job(state.db.clone(), state.media.clone(), state.clock.clone(), state.heartbeats.clone()),
        fan_out_job(state.db.clone(), state.fan_out.clone(), state.heartbeats.clone()),
        discovery_job(state.db.clone(), state.clock.clone()),
        leaving_job(
            state.db.clone(),
            state.media.clone(),
            state.live.clone(),
            state.clock.clone(),
            state.leaving.clone(),
        ),
        export_job(
            ExportJob {
                db: state.db.clone(),
                media: state.media.clone(),
                mailer: state.mailer.clone(),
                clock: state.clock.clone(),
                live: state.live.clone(),
                settings_link: state.config.link("/settings"),
            },
            state.exports.clone(),
        ),
        push_job(
            crate::push::PushJob::new(
                state.db.clone(),
                &state.push,
                state.outbound.clone(),
                state.clock.clone(),
                &state.config,
                crate::mastodon::push::payload,
            ),
            state.push.queue.clone(),
        ),
    ];
    if state.config.link_previews.enabled {
        jobs.push(link_card_job(
            crate::link_cards::LinkCardJob {
                db: state.db.clone(),
                media: state.media.clone(),
                outbound: state.outbound.clone(),
                clock: state.clock.clone(),
                settings: state.config.link_previews,
                live: state.live.clone(),
            },
            state.link_cards.clone(),
        ));
    }
    jobs.extend(murmur_domain::live::bus::start(
        &state.live,
        state.db.clone(),
        state.db.listen_url(&state.config.database_url),
        state.clock.clone(),
    ));
    jobs.extend(checkpoints_job(&state.db));
    jobs.extend(replicas_job(&state.db));
    Jobs(jobs)
}

impl Jobs {
    /// Stops every job where it is: each round is its own transactions, so nothing is left half-written.
    pub fn stop(self) {
        for job in self.0 {
            job.abort();
        }
    }
}

/// One round of upkeep.
pub async fn upkeep(db: &Db, media: &MediaStore, now: Millis) -> Result<()> {
    let orphans = murmur_domain::media::cleanup_orphans(db, media, now).await?;
    let sessions = murmur_domain::sessions::prune(&db.write, now).await?;
    let windows = murmur_core::rate_limit::prune(db, now - RATE_LIMIT_RETENTION).await?;
    let rankings = murmur_domain::feeds::for_you::prune(&db.write, now).await?;
    let round = now / UPKEEP_EVERY.as_millis() as Millis;
    let timelines = murmur_domain::timelines::trim_round(db, round).await?;
    let suspensions = murmur_domain::moderation::end_expired_suspensions(&db.write, now).await?;
    let archives = murmur_domain::exports::remove_expired(db, media, now).await?;
    let post_keys = murmur_domain::posts::prune_keys(&db.write, now).await?;
    let app_codes = murmur_domain::apps::prune(&db.write, now).await?;
    let ceremonies = murmur_domain::passkeys::prune(db, now).await?;
    if orphans + sessions + windows + rankings + timelines + suspensions + archives + post_keys + app_codes + ceremonies
        > 0
    {
        tracing::info!(
            orphans,
            sessions,
            windows,
            rankings,
            timelines,
            suspensions,
            archives,
            post_keys,
            app_codes,
            ceremonies,
            "upkeep removed stale rows"
        );
    }
    Ok(())
}

fn upkeep_job(db: Db, media: MediaStore, clock: Clock, heartbeats: Heartbeats) -> JoinHandle<()> {
    tokio::spawn(async move {
        // Not at once: a starting instance has better things to do.
        let first = tokio::time::Instant::now() + Duration::from_millis(MINUTE as u64);
        let mut ticks = tokio::time::interval_at(first, UPKEEP_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            heartbeats.upkeep_beat();
            ticks.tick().await;
            match upkeep(&db, &media, clock.now()).await {
                Ok(()) => murmur_core::metrics::job_succeeded("upkeep"),
                Err(e) => tracing::warn!(error = %e, "background upkeep failed; retrying later"),
            }
        }
    })
}

/// Works the fan-out queue empty whenever woken (and every `FAN_OUT_SWEEP`).
fn fan_out_job(db: Db, queue: FanOutQueue, heartbeats: Heartbeats) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            heartbeats.fan_out_beat();
            queue.woken_or_after(FAN_OUT_SWEEP).await;
            loop {
                heartbeats.fan_out_beat();
                db.member_writes.wait_for_none().await;
                match murmur_domain::timelines::fan_out_chunk(&db.write, &db.read, db.backend).await {
                    Ok(true) => continue,
                    Ok(false) => {
                        murmur_core::metrics::job_succeeded("fan-out");
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "fan-out to home timelines failed; retrying later");
                        break;
                    }
                }
            }
        }
    })
}

/// Cleans up after deleted accounts whenever woken (and every `LEAVING_SWEEP`).
fn leaving_job(db: Db, media: MediaStore, live: Live, clock: Clock, queue: CleanupQueue) -> JoinHandle<()> {
    on_wake("leaving", queue, LEAVING_SWEEP, move || {
        let (db, media, live, now) = (db.clone(), media.clone(), live.clone(), clock.now());
        async move { murmur_domain::accounts::leaving::clean_up_round(&db, &media, &live, now).await.map(|_| ()) }
    })
}

/// What the export job needs.
#[derive(Clone)]
pub struct ExportJob {
    pub db: Db,
    pub media: MediaStore,
    pub mailer: Mailer,
    pub clock: Clock,
    pub live: Live,
    /// Where the e-mail sends the member: their settings, where the download is.
    pub settings_link: String,
}

/// Prepares every pending data archive (`exports`), one after another, until none is left.
pub async fn exports(job: &ExportJob) -> Result<()> {
    while let Some(claimed) = murmur_domain::exports::claim_next(&job.db.write, job.clock.now()).await? {
        if murmur_domain::exports::tried_too_often(&claimed) {
            tracing::warn!(export_id = claimed.id, "a data archive failed too often; marked failed");
            murmur_domain::exports::mark_failed(&job.db.write, &claimed, job.clock.now()).await?;
            continue;
        }
        let started = std::time::Instant::now();
        let building =
            murmur_domain::exports::archive::build(&job.db.read, &job.media, claimed.member_id, &claimed.archive_id);
        let built = tokio::select! {
            built = building => built,
            never = renew_while_building(job, &claimed) => match never {},
        };
        let size = match built {
            Ok(size) => size,
            Err(e) => {
                tracing::warn!(error = %e, export_id = claimed.id, "preparing a data archive failed");
                let now = job.clock.now();
                if claimed.attempts >= murmur_domain::exports::MAX_ATTEMPTS {
                    murmur_domain::exports::mark_failed(&job.db.write, &claimed, now).await?;
                } else {
                    murmur_domain::exports::retry_later(&job.db.write, &claimed, now).await?;
                }
                continue;
            }
        };
        let now = job.clock.now();
        let mut tx = job.db.write.begin().await?;
        if !murmur_domain::exports::mark_ready(&mut tx, &claimed, size, now).await? {
            drop(tx);
            // Another process took it over meanwhile: its archive is the one kept.
            job.media.delete_archive(&claimed.archive_id).await?;
            continue;
        }
        murmur_domain::notifications::notify_self(
            &mut tx,
            claimed.member_id,
            murmur_domain::notifications::Kind::ExportReady,
            now,
        )
        .await?;
        tx.commit().await?;
        job.live.publish(murmur_domain::live::Change::Notified { member: claimed.member_id, new: true });
        tracing::info!(
            export_id = claimed.id,
            bytes = size,
            took_ms = started.elapsed().as_millis() as u64,
            "data archive ready"
        );
        tell_by_email(job, claimed.member_id, now).await;
    }
    Ok(())
}

/// The claim's heartbeat while its archive is written: renewed every `RENEW_EVERY`, so it
/// lasts as long as this process works on it and ends soon after the process stops.
async fn renew_while_building(job: &ExportJob, claimed: &murmur_domain::exports::Claimed) -> std::convert::Infallible {
    loop {
        tokio::time::sleep(murmur_domain::exports::RENEW_EVERY).await;
        match murmur_domain::exports::renew(&job.db.write, claimed, job.clock.now()).await {
            Ok(true) => {}
            // Another process holds it now: this attempt's archive is removed when it is done.
            Ok(false) => tracing::info!(export_id = claimed.id, "a data archive was taken over by another process"),
            Err(e) => tracing::warn!(error = %e, export_id = claimed.id, "renewing the claim on a data archive failed"),
        }
    }
}

/// The e-mail that the archive is ready; a failure to send is logged, as the notification told
/// the member already.
async fn tell_by_email(job: &ExportJob, member: i64, now: Millis) {
    let email: Option<String> = match sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(member)
        .fetch_optional(&job.db.read)
        .await
    {
        Ok(email) => email,
        Err(e) => {
            tracing::warn!(error = %e, "reading the address for a data archive's e-mail failed");
            return;
        }
    };
    let Some(email) = email else { return };
    let expires = chrono::DateTime::<chrono::Utc>::from_timestamp_millis(now + murmur_domain::exports::KEEP_FOR)
        .unwrap_or_default()
        .format("%Y-%m-%d %H:%M UTC")
        .to_string();
    let message = murmur_domain::mail::templates::export_ready(&email, &job.settings_link, &expires);
    if let Err(e) = job.mailer.send(message).await {
        tracing::warn!(error = %e, "the e-mail that a data archive is ready was not sent");
    }
}

fn export_job(job: ExportJob, queue: murmur_domain::exports::ExportQueue) -> JoinHandle<()> {
    on_wake("exports", queue, EXPORT_SWEEP, move || {
        let job = job.clone();
        async move { exports(&job).await }
    })
}

fn push_job(job: crate::push::PushJob, queue: Wake) -> JoinHandle<()> {
    on_wake("push", queue, PUSH_SWEEP, move || {
        let job = job.clone();
        async move { crate::push::send_due(&job).await }
    })
}

fn link_card_job(job: crate::link_cards::LinkCardJob, queue: Wake) -> JoinHandle<()> {
    on_wake("link-cards", queue, LINK_CARD_SWEEP, move || {
        let job = job.clone();
        async move { crate::link_cards::fetch_due(&job).await }
    })
}

/// Claims this round of the job `name` (due at `now`, next due `every` later) for this process:
/// true for the one process whose write moved the next run on; the others find it moved.
pub async fn claim(db: &Db, name: &str, now: Millis, every: Millis) -> Result<bool> {
    let claimed = sqlx::query(
        "INSERT INTO jobs (name, next_run_at) VALUES ($1, $2) \
         ON CONFLICT (name) DO UPDATE SET next_run_at = excluded.next_run_at WHERE jobs.next_run_at <= $3",
    )
    .bind(name)
    .bind(now + every)
    .bind(now)
    .execute(&db.write)
    .await?;
    Ok(claimed.rows_affected() == 1)
}

/// One round of the discovery job: the entities and muting texts' backfills until they are done, then Trending when
/// this process claims it. Each transaction gives way to members' writes first.
pub async fn discovery(db: &Db, now: Millis) -> Result<()> {
    loop {
        db.member_writes.wait_for_none().await;
        let mut writer = db.write.acquire().await?;
        if !murmur_domain::posts::backfill_entities(&mut writer).await? {
            break;
        }
    }
    loop {
        db.member_writes.wait_for_none().await;
        let mut writer = db.write.acquire().await?;
        if !murmur_domain::posts::backfill_muting_texts(&mut writer).await? {
            break;
        }
    }
    if claim(db, "trending", now, TRENDING_EVERY).await? {
        db.member_writes.wait_for_none().await;
        let started = std::time::Instant::now();
        let trending = murmur_domain::discovery::trending::compute(db, now).await?;
        tracing::info!(trending, took_ms = started.elapsed().as_millis() as u64, "Trending recomputed");
    }
    Ok(())
}

fn discovery_job(db: Db, clock: Clock) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(DISCOVERY_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match discovery(&db, clock.now()).await {
                Ok(()) => murmur_core::metrics::job_succeeded("discovery"),
                Err(e) => tracing::warn!(error = %e, "discovery job failed; retrying later"),
            }
        }
    })
}

/// SQLite's checkpoints (`Db::checkpointing`); none on PostgreSQL.
fn checkpoints_job(db: &Db) -> Option<JoinHandle<()>> {
    let pool = db.checkpointing()?;
    let write = db.write.clone();
    Some(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(murmur_core::db::CHECKPOINT_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(error) = murmur_core::db::checkpoint(&pool, &write).await {
                tracing::warn!(%error, "checkpoint failed; retrying");
            }
        }
    }))
}

/// Polls the replicas, when there are any (`db::replicas`): each process keeps its own view of
/// how far each has replayed.
fn replicas_job(db: &Db) -> Option<JoinHandle<()>> {
    if db.replicas.is_empty() {
        return None;
    }
    let (replicas, primary) = (db.replicas.clone(), db.write.clone());
    Some(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(murmur_core::db::replicas::POLL_EVERY);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            replicas.poll(&primary).await;
        }
    }))
}
