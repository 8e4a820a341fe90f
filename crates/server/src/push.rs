//! Web Push's sending end (docs/push.md): the instance's VAPID key, and each claimed push
//! encrypted for its browser (RFC 8291, aes128gcm) and signed (RFC 8292) with
//! `web-push-native`, then sent through the outbound guard. What is pushed to whom, and what
//! it says, is the `push` area's.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use web_push_native::jwt_simple::prelude::{
    Claims, ECDSAP256KeyPairLike as _, ECDSAP256PublicKeyLike as _, ES256KeyPair,
};
use web_push_native::{Auth, WebPushBuilder, p256};

use crate::outbound::{Outbound, OutboundError};
use murmur_core::clock::{Clock, Millis};
use murmur_core::config::Config;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::wake::Wake;
use murmur_domain::push::{self, self as area, Claimed, Outcome};

/// How long a push service keeps a push for a browser that is offline (`TTL`).
pub const TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a VAPID signature is valid (RFC 8292 allows at most a day).
const SIGNATURE_VALID_HOURS: u64 = 12;

/// The instance's VAPID key pair.
pub struct PushKeys {
    pair: ES256KeyPair,
    /// base64url of the uncompressed public point: what browsers subscribe with.
    public: String,
}

impl PushKeys {
    /// The operator's key (`--vapid-private-key`), or the one kept in the database, made by
    /// the first process that needed it.
    pub async fn load(db: &Db, config: &Config, now: Millis) -> anyhow::Result<PushKeys> {
        if let Some(private) = &config.vapid_private_key {
            return PushKeys::from_private(private).context("--vapid-private-key (MURMUR_VAPID_PRIVATE_KEY)");
        }
        let private = match push::stored_key(&db.read).await? {
            Some((private, _)) => private,
            None => {
                let made = ES256KeyPair::generate();
                let public = area::encode_key(&made.public_key().public_key().to_bytes_uncompressed());
                push::keep_key(&db.write, &area::encode_key(&made.to_bytes()), &public, now).await?.0
            }
        };
        PushKeys::from_private(&private).context("the VAPID key kept in the database (push_keys)")
    }

    fn from_private(private: &str) -> anyhow::Result<PushKeys> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(private.trim().trim_end_matches('='))
            .context("not base64url")?;
        let pair = ES256KeyPair::from_bytes(&bytes).map_err(|e| anyhow::anyhow!("not a P-256 private key: {e}"))?;
        let public = area::encode_key(&pair.public_key().public_key().to_bytes_uncompressed());
        Ok(PushKeys { pair, public })
    }

    /// The public key, base64url: what the web app and Mastodon apps subscribe with.
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// `Authorization: vapid t=…, k=…` for a push to `endpoint` (its origin is the audience).
    fn authorization(&self, endpoint: &url::Url, contact: &str) -> anyhow::Result<String> {
        let claims = Claims::create(web_push_native::jwt_simple::prelude::Duration::from_hours(SIGNATURE_VALID_HOURS))
            .with_audience(endpoint.origin().ascii_serialization())
            .with_subject(contact);
        let token = self.pair.sign(claims).map_err(|e| anyhow::anyhow!("signing: {e}"))?;
        Ok(format!("vapid t={token}, k={}", self.public))
    }
}

/// Refuses a browser key that is not a point of P-256 (a subscription that could never be sent to).
pub fn check_browser_key(p256dh: &[u8]) -> Result<()> {
    p256::PublicKey::from_sec1_bytes(p256dh)
        .map(drop)
        .map_err(|_| Error::bad_request("keys.p256dh is not a P-256 public key"))
}

/// Web Push's parts in the state: the key, and the wake-up of this process's push job.
#[derive(Clone)]
pub struct Push {
    pub keys: Arc<PushKeys>,
    pub queue: Wake,
}

/// What an app's subscription is sent, made from the push's message and its notification's id
/// under the instance's origin: Mastodon's shape, which the Mastodon interface makes
/// (`mastodon::push::payload`). The web app's service worker reads Murmur's own `push::Payload`.
pub type AppPayload = fn(origin: &str, message: &push::Message, notification_id: i64) -> serde_json::Value;

/// What the push job needs.
#[derive(Clone)]
pub struct PushJob {
    pub db: Db,
    pub keys: Arc<PushKeys>,
    pub outbound: Outbound,
    pub clock: Clock,
    /// Where the pushes' links point: the instance's public origin.
    pub origin: String,
    /// RFC 8292's contact of the instance's operator: `mailto:` the sender of its e-mail.
    pub contact: String,
    pub app_payload: AppPayload,
}

impl PushJob {
    pub fn new(
        db: Db,
        push: &Push,
        outbound: Outbound,
        clock: Clock,
        config: &Config,
        app_payload: AppPayload,
    ) -> PushJob {
        let address = config.mail_from.rsplit_once('<').map_or(config.mail_from.as_str(), |(_, rest)| rest);
        let contact = format!("mailto:{}", address.trim_end_matches('>').trim());
        PushJob { db, keys: push.keys.clone(), outbound, clock, origin: config.public_origin(), contact, app_payload }
    }
}

/// Sends every due push, `area::BATCH` at a time, until none is left.
pub async fn send_due(job: &PushJob) -> Result<()> {
    loop {
        let claimed = push::claim_due(&job.db.write, job.clock.now(), area::BATCH).await?;
        if claimed.is_empty() {
            return Ok(());
        }
        let sends = claimed.iter().map(|claimed| send_one(job, claimed));
        for sent in futures::future::join_all(sends).await {
            sent?;
        }
    }
}

async fn send_one(job: &PushJob, claimed: &Claimed) -> Result<()> {
    let Some(message) = push::message(&job.db.read, claimed, job.clock.now()).await? else {
        // Withdrawn, ended, or its actor hidden from the recipient meanwhile.
        push::forget(&job.db.write, claimed).await?;
        murmur_core::metrics::push("dropped");
        return Ok(());
    };
    let outcome = match request(job, claimed, &message) {
        Ok(request) => match job.outbound.send(request).await {
            Ok(answer) => outcome_of(answer.status, &answer.headers),
            Err(OutboundError::Refused(why)) => {
                tracing::info!(
                    subscription = claimed.subscription_id,
                    why,
                    "a push endpoint was refused; subscription ended"
                );
                Outcome::Gone
            }
            Err(OutboundError::Failed(why)) => {
                tracing::info!(subscription = claimed.subscription_id, why, "a push failed; tried again later");
                Outcome::Later { retry_after: None }
            }
        },
        Err(e) => {
            tracing::warn!(error = %e, subscription = claimed.subscription_id, "a push could not be made; subscription ended");
            Outcome::Gone
        }
    };
    let label = area::settle(&job.db, claimed, outcome, job.clock.now()).await?;
    murmur_core::metrics::push(label);
    Ok(())
}

/// The push's request: the payload encrypted for the subscription's browser, signed, with its
/// `TTL` and `Urgency`.
fn request(job: &PushJob, claimed: &Claimed, message: &push::Message) -> anyhow::Result<reqwest::Request> {
    let endpoint = url::Url::parse(&message.endpoint)?;
    let decode = |key: &str| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(key);
    let browser_key = p256::PublicKey::from_sec1_bytes(&decode(&message.p256dh)?)
        .map_err(|_| anyhow::anyhow!("the browser's key is not a P-256 public key"))?;
    let auth = decode(&message.auth)?;
    anyhow::ensure!(auth.len() == 16, "the auth secret is not 16 bytes");
    // Apps are pushed notifications only (`push::queue_message` takes web sessions alone).
    let payload = match (message.token_id, claimed.notification_id) {
        (Some(_), Some(notification)) => serde_json::to_vec(&(job.app_payload)(&job.origin, message, notification))?,
        (Some(_), None) => anyhow::bail!("a message is never pushed to an app"),
        (None, notification) => serde_json::to_vec(&message.payload(notification.unwrap_or_default(), &job.origin))?,
    };
    let built = WebPushBuilder::new(endpoint.as_str().parse()?, browser_key, Auth::clone_from_slice(&auth))
        .with_valid_duration(TTL)
        .build(payload)?;
    let (parts, body) = built.into_parts();
    let mut request = reqwest::Request::new(reqwest::Method::POST, endpoint.clone());
    *request.headers_mut() = parts.headers;
    request.headers_mut().insert("urgency", reqwest::header::HeaderValue::from_static(message.urgency()));
    request.headers_mut().insert(
        reqwest::header::AUTHORIZATION,
        reqwest::header::HeaderValue::from_str(&job.keys.authorization(&endpoint, &job.contact)?)?,
    );
    *request.body_mut() = Some(body.into());
    Ok(request)
}

/// What the push service's answer means for the push (RFC 8030 §5, §8.4).
fn outcome_of(status: u16, headers: &reqwest::header::HeaderMap) -> Outcome {
    match status {
        200..=299 => Outcome::Sent,
        404 | 410 => Outcome::Gone,
        429 | 500..=599 => {
            let retry_after = headers
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            Outcome::Later { retry_after }
        }
        _ => Outcome::Refused,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_services_answer_decides_what_happens_next() {
        let none = reqwest::header::HeaderMap::new();
        assert_eq!(outcome_of(201, &none), Outcome::Sent);
        assert_eq!(outcome_of(410, &none), Outcome::Gone);
        assert_eq!(outcome_of(404, &none), Outcome::Gone);
        assert_eq!(outcome_of(503, &none), Outcome::Later { retry_after: None });
        let mut wait = reqwest::header::HeaderMap::new();
        wait.insert(reqwest::header::RETRY_AFTER, "120".parse().unwrap());
        assert_eq!(outcome_of(429, &wait), Outcome::Later { retry_after: Some(120) });
        assert_eq!(outcome_of(400, &none), Outcome::Refused);
        assert_eq!(outcome_of(301, &none), Outcome::Refused, "a redirect is not followed");
    }

    #[test]
    fn a_key_pair_round_trips_through_its_stored_form() {
        let made = ES256KeyPair::generate();
        let keys = PushKeys::from_private(&area::encode_key(&made.to_bytes())).unwrap();
        assert_eq!(keys.public_key(), area::encode_key(&made.public_key().public_key().to_bytes_uncompressed()));
        assert_eq!(base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(keys.public_key()).unwrap().len(), 65);
        assert!(PushKeys::from_private("not a key!").is_err());
    }
}
