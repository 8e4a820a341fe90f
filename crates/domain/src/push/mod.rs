//! Web Push (docs/push.md): a member's subscriptions, one per web session or Mastodon app
//! token and ended with it; the pushes queued in the transaction that makes their notification (`store::queue`),
//! claimed by one process at a time and sent by the server's push job after commit; the
//! instance's VAPID key pair, kept once for every process (`store::keep_key`).
//!
//! This area decides what is sent to whom and what it says; the encryption and the request
//! to the push service are the server's (`murmur_server::push`).

pub(crate) mod store;

use std::collections::BTreeMap;

use base64::Engine as _;
use url::Url;

use murmur_core::clock::{MINUTE, Millis, SECOND};
use murmur_core::db::{Db, PoolConnection};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};

pub use store::{
    Claimed, Message, Payload, Subscription, claim_due, find, forget, keep_key, message, queue, queue_message,
    stored_key, unsubscribe,
};

/// The longest endpoint kept: push services' URLs are a few hundred characters.
pub const MAX_ENDPOINT: usize = 1024;
/// A push that failed for a reason that may pass (429, 5xx, the network) is tried this many
/// times in all, then given up.
pub const MAX_ATTEMPTS: i64 = 5;
/// How long a claimed push is this process's before another may take it over (a process that
/// stopped mid-send): longer than a send may take (`murmur_server::outbound`'s timeouts).
pub const CLAIM_FOR: Millis = MINUTE;
/// How many pushes a process claims and sends at once.
pub const BATCH: i64 = 4;

const SUBSCRIBING_TOO_OFTEN: &str = "You have changed your push subscription too often. Please wait an hour.";

/// What a member may be pushed about. `Poll` is kept for when polls notify their voters; no
/// notification of that kind exists yet. `Message` is a new direct message, pushed to web
/// sessions only (Mastodon apps have no such alert).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alert {
    Reply,
    Mention,
    Like,
    Repost,
    Follow,
    Poll,
    Quote,
    Message,
}

impl Alert {
    /// Every alert, in the order of their bits in `Alerts`.
    pub const ALL: [Alert; 8] = [
        Alert::Reply,
        Alert::Mention,
        Alert::Like,
        Alert::Repost,
        Alert::Follow,
        Alert::Poll,
        Alert::Quote,
        Alert::Message,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Alert::Reply => "reply",
            Alert::Mention => "mention",
            Alert::Like => "like",
            Alert::Repost => "repost",
            Alert::Follow => "follow",
            Alert::Poll => "poll",
            Alert::Quote => "quote",
            Alert::Message => "message",
        }
    }

    fn bit(self) -> i64 {
        1 << Alert::ALL.iter().position(|a| *a == self).expect("every alert is in Alert::ALL")
    }

    /// The alert of a notification's kind (as stored in `notifications.type`); None for kinds
    /// never pushed (a moderators' notice, an archive ready).
    pub fn of_notification(kind: &str) -> Option<Alert> {
        Alert::ALL.into_iter().find(|alert| alert.as_str() == kind)
    }
}

/// The alerts a subscription wants, one bit per `Alert::ALL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alerts(pub i64);

impl Alerts {
    pub const ALL: Alerts = Alerts((1 << Alert::ALL.len()) - 1);

    pub fn contains(self, alert: Alert) -> bool {
        self.0 & alert.bit() != 0
    }

    /// `{"reply": true, …}` as sent: unknown names are refused, names left out are off.
    pub fn parse(asked: &BTreeMap<String, bool>) -> Result<Alerts> {
        let mut bits = 0;
        for (name, on) in asked {
            let alert = Alert::ALL.into_iter().find(|a| a.as_str() == name).ok_or_else(|| {
                let known: Vec<&str> = Alert::ALL.iter().map(|a| a.as_str()).collect();
                Error::bad_request(format!("Unknown alert `{name}`: the alerts are {}", known.join(", ")))
            })?;
            if *on {
                bits |= alert.bit();
            }
        }
        Ok(Alerts(bits))
    }
}

/// Whose actions are pushed: everyone's, or only those of members the subscriber follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    All,
    Followed,
}

impl Policy {
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::All => "all",
            Policy::Followed => "followed",
        }
    }

    pub fn parse(asked: &str) -> Result<Policy> {
        match asked {
            "all" => Ok(Policy::All),
            "followed" => Ok(Policy::Followed),
            _ => Err(Error::bad_request(format!("Unknown policy `{asked}`: it is `all` or `followed`"))),
        }
    }
}

/// A browser's subscription as asked for, checked: an absolute URL of at most `MAX_ENDPOINT`
/// characters (which addresses it may name is the outbound guard's to say), the browser's P-256
/// public key (65 bytes, uncompressed) and its 16-byte auth secret, base64url.
#[derive(Clone, Debug)]
pub struct NewSubscription {
    pub endpoint: Url,
    pub p256dh: Vec<u8>,
    pub auth: Vec<u8>,
    pub alerts: Alerts,
    pub policy: Policy,
}

impl NewSubscription {
    pub fn parse(endpoint: &str, p256dh: &str, auth: &str, alerts: Alerts, policy: Policy) -> Result<NewSubscription> {
        if endpoint.chars().count() > MAX_ENDPOINT {
            return Err(Error::bad_request(format!("The endpoint is longer than {MAX_ENDPOINT} characters")));
        }
        let endpoint = Url::parse(endpoint).map_err(|_| Error::bad_request("The endpoint is not an absolute URL"))?;
        let p256dh = decode_key(p256dh, "keys.p256dh")?;
        if p256dh.len() != 65 || p256dh[0] != 4 {
            return Err(Error::bad_request("keys.p256dh is not an uncompressed P-256 public key (65 bytes)"));
        }
        let auth = decode_key(auth, "keys.auth")?;
        if auth.len() != 16 {
            return Err(Error::bad_request("keys.auth is not a 16-byte secret"));
        }
        Ok(NewSubscription { endpoint, p256dh, auth, alerts, policy })
    }
}

/// base64url, padded or not (browsers send it unpadded; some libraries pad), or standard
/// base64 (some Mastodon apps send that).
fn decode_key(text: &str, name: &str) -> Result<Vec<u8>> {
    let url_safe = text.trim_end_matches('=').replace('+', "-").replace('/', "_");
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(url_safe)
        .map_err(|_| Error::bad_request(format!("{name} is not base64url")))
}

/// base64url without padding, as keys are stored and served.
pub fn encode_key(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Who a subscription belongs to, and ends with: a web app's session (by its hash) or a
/// Mastodon app's token (by its id).
#[derive(Clone, Copy, Debug)]
pub enum Owner<'a> {
    Session(&'a str),
    Token(i64),
}

/// The owner's subscription becomes `new` (one per owner: a second replaces the first), once
/// the member's rate limit allows it.
pub async fn subscribe(
    db: &Db,
    member: i64,
    owner: Owner<'_>,
    new: &NewSubscription,
    now: Millis,
) -> Result<Subscription> {
    let mut writer = take_writer(db, member, now).await?;
    store::subscribe(&mut writer, member, owner, new, now).await
}

/// Changes what the owner's subscription pushes; None when it has none.
pub async fn change(
    db: &Db,
    member: i64,
    owner: Owner<'_>,
    alerts: Alerts,
    policy: Policy,
    now: Millis,
) -> Result<Option<Subscription>> {
    let mut writer = take_writer(db, member, now).await?;
    store::change(&mut writer, owner, alerts, policy).await
}

async fn take_writer(db: &Db, member: i64, now: Millis) -> Result<PoolConnection> {
    rate_limit::count_member_then_take_writer(db, MemberLimit::PushSubscribe, member, now, SUBSCRIBING_TOO_OFTEN).await
}

/// How a push went, as the push service answered (`settle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Accepted (2xx).
    Sent,
    /// The subscription is no more (404, 410), or its endpoint may no longer be reached: it ends.
    Gone,
    /// It may pass (429, 5xx, the network): tried again later, `retry_after` seconds at the
    /// earliest when the service said so.
    Later { retry_after: Option<u64> },
    /// Refused for good (another 4xx): this push is dropped, the subscription kept.
    Refused,
}

/// When a push that failed for the `attempts`-th time is tried again: 30 s, 1, 2, 4 … minutes,
/// or later when the push service asked for it (at most an hour).
pub fn retry_at(attempts: i64, retry_after: Option<u64>, now: Millis) -> Millis {
    let backoff = (30 * SECOND) << attempts.clamp(1, 8).saturating_sub(1);
    let asked = retry_after.map_or(0, |secs| secs.min(3600) as Millis * SECOND);
    now + backoff.max(asked)
}

/// Writes down how a claimed push went; answers the label recorded in `/metrics`.
pub async fn settle(db: &Db, claimed: &Claimed, outcome: Outcome, now: Millis) -> Result<&'static str> {
    match outcome {
        Outcome::Sent => {
            store::forget(&db.write, claimed).await?;
            Ok("sent")
        }
        Outcome::Gone => {
            store::end_subscription(&db.write, claimed.subscription_id).await?;
            Ok("gone")
        }
        Outcome::Refused => {
            store::forget(&db.write, claimed).await?;
            Ok("refused")
        }
        Outcome::Later { .. } if claimed.attempts >= MAX_ATTEMPTS => {
            store::forget(&db.write, claimed).await?;
            Ok("given-up")
        }
        Outcome::Later { retry_after } => {
            store::retry_later(&db.write, claimed, retry_at(claimed.attempts, retry_after, now)).await?;
            Ok("retry")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P256DH: &str = "BEMRqX1INEDBfYUW5ArobdeAKeOY6dm9xsNITdkXt4LLjQEMTwRSHN1PV64z5DvMEP3yPt_FYapJkOthLbgxQTs";
    const AUTH: &str = "_ordMnz7uTCmrpBTeUV4Bw";

    fn parse(endpoint: &str, p256dh: &str, auth: &str) -> Result<NewSubscription> {
        NewSubscription::parse(endpoint, p256dh, auth, Alerts::ALL, Policy::All)
    }

    #[test]
    fn a_browsers_subscription_is_taken_padded_or_not() {
        let new = parse("https://push.example/send/abc", P256DH, AUTH).unwrap();
        assert_eq!((new.p256dh.len(), new.auth.len()), (65, 16));
        assert!(parse("https://push.example/send/abc", P256DH, &format!("{AUTH}==")).is_ok());
        let standard = P256DH.replace('-', "+").replace('_', "/");
        assert_eq!(parse("https://push.example/", &standard, AUTH).unwrap().p256dh, new.p256dh);
    }

    #[test]
    fn bad_keys_and_endpoints_are_refused_with_a_reason() {
        let message = |r: Result<NewSubscription>| r.unwrap_err().to_string();
        assert!(message(parse("not a url", P256DH, AUTH)).contains("absolute URL"));
        let long = format!("https://push.example/{}", "a".repeat(MAX_ENDPOINT));
        assert!(message(parse(&long, P256DH, AUTH)).contains("longer than"));
        assert!(message(parse("https://push.example/", "!!", AUTH)).contains("not base64url"));
        assert!(message(parse("https://push.example/", &P256DH[..40], AUTH)).contains("65 bytes"));
        assert!(message(parse("https://push.example/", P256DH, "AAAA")).contains("16-byte"));
    }

    #[test]
    fn alerts_are_named_and_unknown_names_refused() {
        let asked = BTreeMap::from([("like".to_string(), true), ("follow".to_string(), false)]);
        let alerts = Alerts::parse(&asked).unwrap();
        assert!(alerts.contains(Alert::Like) && !alerts.contains(Alert::Follow) && !alerts.contains(Alert::Reply));
        let unknown = BTreeMap::from([("favourite".to_string(), true)]);
        assert!(Alerts::parse(&unknown).unwrap_err().to_string().contains("Unknown alert `favourite`"));
        assert_eq!(Alert::of_notification("removed"), None);
        assert_eq!(Alert::of_notification("mention"), Some(Alert::Mention));
    }

    #[test]
    fn retries_back_off_and_honour_retry_after_within_an_hour() {
        assert_eq!(retry_at(1, None, 0), 30 * SECOND);
        assert_eq!(retry_at(3, None, 0), 120 * SECOND);
        assert_eq!(retry_at(1, Some(600), 0), 600 * SECOND);
        assert_eq!(retry_at(1, Some(1_000_000), 0), 3600 * SECOND);
    }
}
