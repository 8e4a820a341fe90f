//! The state every handler and job can reach: the database, settings, clock, mailer, media
//! store and the process's shared parts.

use std::sync::Arc;

use murmur_core::clock::Clock;
use murmur_core::config::Config;
use murmur_core::db::{Db, Pool};
use murmur_domain::apps::TokenReads;
use murmur_domain::mail::Mailer;
use murmur_domain::media::MediaStore;
use murmur_domain::posts::domain::{IdempotencyKey, KeyedRequest};
use murmur_domain::sessions::SessionReads;

/// Everything a handler may need; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub config: Arc<Config>,
    pub clock: Clock,
    pub mailer: Mailer,
    pub media: MediaStore,
    /// Wakes the worker that takes large posts to their followers' timelines.
    pub fan_out: murmur_domain::timelines::FanOutQueue,
    /// Wakes the job that cleans up after a deleted account.
    pub leaving: murmur_domain::accounts::leaving::CleanupQueue,
    /// Wakes the job that prepares members' data archives.
    pub exports: murmur_domain::exports::ExportQueue,
    /// Who ranks For You in this process (one request at a time).
    pub for_you: murmur_domain::feeds::for_you::Ranker,
    /// The Friends pages this process keeps ready.
    pub feed_cache: murmur_domain::feeds::cache::FeedCache,
    /// How requests read their session or app's token.
    pub credentials: CredentialReads,
    /// When this process's background workers last went round (`/readyz`).
    pub heartbeats: crate::health::Heartbeats,
    /// Live events: what writers publish, and this process's open streams.
    pub live: murmur_domain::live::Live,
    /// Web Push: the instance's key, and the wake-up of this process's push job.
    pub push: crate::push::Push,
    /// Wakes the job that fetches link preview cards (`link_cards`).
    pub link_cards: murmur_core::wake::Wake,
    /// Every outgoing request to a URL someone else chose goes through it.
    pub outbound: crate::outbound::Outbound,
}

impl AppState {
    /// The posts' writes, with the parts of the state they use.
    pub fn post_writes(&self) -> murmur_domain::posts::writes::PostWrites<'_> {
        murmur_domain::posts::writes::PostWrites {
            db: &self.db,
            media: &self.media,
            fan_out: &self.fan_out,
            link_cards: &self.link_cards,
            clock: &self.clock,
        }
    }

    /// The `Idempotency-Key` a retried post carries (both APIs honour it), bound to the request
    /// it came with: `endpoint` and `body` as parsed (serialized again, so a retry spaced or
    /// ordered otherwise is the same request); 400 when malformed.
    pub fn keyed_request(
        headers: &axum::http::HeaderMap,
        endpoint: &'static str,
        body: &impl serde::Serialize,
    ) -> murmur_core::error::Result<Option<KeyedRequest>> {
        let Some(value) = headers.get("idempotency-key") else { return Ok(None) };
        let key = IdempotencyKey::parse(value.to_str().unwrap_or_default())?;
        let body = serde_json::to_vec(body).map_err(|e| murmur_core::error::Error::Internal(e.into()))?;
        Ok(Some(KeyedRequest::new(key, endpoint, &body)))
    }

    /// The state of the handlers on the write thread: the same, but their reads (and on
    /// PostgreSQL their writes) go through the write requests' own pool (`Db::for_writes`),
    /// and each reads its session or token alone.
    pub(crate) fn for_writes(&self) -> AppState {
        let db = self.db.for_writes();
        let credentials = CredentialReads::alone(&db.read);
        AppState { db, credentials, ..self.clone() }
    }
}

/// How requests read their session (the web app's API) or their app's token (the Mastodon
/// API). Cheap to clone.
#[derive(Clone)]
pub struct CredentialReads {
    pub sessions: SessionReads,
    pub tokens: TokenReads,
}

impl CredentialReads {
    /// Read together (starts the batching tasks on the current runtime).
    pub fn together(pool: &Pool) -> CredentialReads {
        CredentialReads { sessions: SessionReads::together(pool), tokens: TokenReads::together(pool) }
    }

    /// Each in a statement of its own (`AppState::for_writes`).
    pub fn alone(pool: &Pool) -> CredentialReads {
        CredentialReads { sessions: SessionReads::alone(pool), tokens: TokenReads::alone(pool) }
    }
}
