//! Web Push for apps: `/api/v1/push/subscription`, one subscription per token, kept and sent
//! exactly as the web app's (the `push` area and `crate::push`); and the payload apps read.

use std::collections::BTreeMap;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::routing::post;
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::Urls;
use super::error::{MastodonError, Result};
use super::names::{self, ALWAYS_OFF};
use super::params::{Params, lenient};
use crate::state::AppState;
use murmur_domain::push::{self, Alerts, NewSubscription, Owner, Policy};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/push/subscription", post(subscribe).get(show).put(change).delete(unsubscribe))
}

#[derive(Deserialize)]
struct Keys {
    p256dh: String,
    auth: String,
}

#[derive(Deserialize)]
struct Subscription {
    endpoint: String,
    keys: Keys,
}

#[derive(Default, Deserialize)]
struct Data {
    #[serde(default)]
    alerts: BTreeMap<String, Value>,
    policy: Option<String>,
}

#[derive(Deserialize)]
struct NewParams {
    subscription: Subscription,
    #[serde(default)]
    data: Data,
    /// Some apps (Mastodon.py) send the policy beside `data` rather than in it.
    policy: Option<String>,
}

#[derive(Deserialize)]
struct ChangeParams {
    #[serde(default)]
    data: Data,
    policy: Option<String>,
}

impl Data {
    /// The alerts asked for (absent: off, as Mastodon does) and the policy (`data[policy]`, else
    /// `policy`; absent: all).
    fn read(&self, policy: Option<&str>) -> Result<(Alerts, Policy)> {
        let mut asked = BTreeMap::new();
        for (name, value) in &self.alerts {
            let on = lenient::bool(value.clone())
                .ok()
                .flatten()
                .ok_or_else(|| MastodonError::unprocessable(format!("data[alerts][{name}] is not true or false")))?;
            match names::alerts().find(|(known, _)| known == name) {
                Some((_, alerts)) => {
                    for alert in alerts {
                        asked.insert(alert.as_str().to_string(), on);
                    }
                }
                None if ALWAYS_OFF.contains(&name.as_str()) => {}
                None => return Err(MastodonError::unprocessable(format!("Unknown alert `{name}`"))),
            }
        }
        let policy = match self.policy.as_deref().or(policy) {
            None => Policy::All,
            Some("follower" | "none") => {
                return Err(MastodonError::unprocessable("data[policy] is `all` or `followed` on Murmur"));
            }
            Some(asked) => Policy::parse(asked)?,
        };
        Ok((Alerts::parse(&asked)?, policy))
    }
}

/// Mastodon's WebPushSubscription.
fn entity(state: &AppState, row: &push::Subscription) -> Value {
    let alerts = row.alerts();
    let mut shown: serde_json::Map<String, Value> = names::alerts()
        .map(|(name, murmur)| (name.to_string(), json!(murmur.iter().any(|alert| alerts.contains(*alert)))))
        .collect();
    for name in ALWAYS_OFF {
        shown.insert(name.to_string(), json!(false));
    }
    json!({
        "id": row.id.to_string(),
        "endpoint": row.endpoint,
        // Pushes are always RFC 8291's aes128gcm (Mastodon's `standard`), never the older aesgcm.
        "standard": true,
        "alerts": shown,
        "policy": row.policy,
        "server_key": state.push.keys.public_key(),
    })
}

/// Subscribes the token's device (a second subscription of the token replaces the first).
async fn subscribe(
    State(state): State<AppState>,
    token: Token,
    Params(body): Params<NewParams>,
) -> Result<Json<Value>> {
    let member = token.member("push")?;
    let (alerts, policy) = body.data.read(body.policy.as_deref())?;
    let keys = &body.subscription.keys;
    let new = NewSubscription::parse(&body.subscription.endpoint, &keys.p256dh, &keys.auth, alerts, policy)?;
    crate::push::check_browser_key(&new.p256dh)?;
    state
        .outbound
        .check(&new.endpoint)
        .await
        .map_err(|refused| MastodonError::unprocessable(format!("The endpoint is refused: {refused}")))?;
    let row = push::subscribe(&state.db, member, Owner::Token(token.0.token_id), &new, state.clock.now()).await?;
    Ok(Json(entity(&state, &row)))
}

async fn show(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    token.member("push")?;
    let row = push::find(&state.db.read, Owner::Token(token.0.token_id)).await?.ok_or_else(MastodonError::not_found)?;
    Ok(Json(entity(&state, &row)))
}

/// Changes what is pushed (`data` only; the device's keys stay).
async fn change(
    State(state): State<AppState>,
    token: Token,
    Params(body): Params<ChangeParams>,
) -> Result<Json<Value>> {
    let member = token.member("push")?;
    let (alerts, policy) = body.data.read(body.policy.as_deref())?;
    let owner = Owner::Token(token.0.token_id);
    let row = push::change(&state.db, member, owner, alerts, policy, state.clock.now())
        .await?
        .ok_or_else(MastodonError::not_found)?;
    Ok(Json(entity(&state, &row)))
}

async fn unsubscribe(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    token.member("push")?;
    push::unsubscribe(&state.db.write, Owner::Token(token.0.token_id)).await?;
    Ok(Json(json!({})))
}

/// What an app's push says, in Mastodon's shape (apps read `notification_id` and fetch the
/// notification): no access token, unlike Mastodon, since a push leaves the instance.
pub fn payload(origin: &str, message: &push::Message, notification_id: i64) -> Value {
    let murmur = message.payload(notification_id, origin);
    let urls = Urls(origin.to_string());
    json!({
        "notification_id": notification_id.to_string(),
        "notification_type": names::notification_type(&message.kind).unwrap_or("mention"),
        "preferred_locale": "en",
        "title": murmur.title,
        "body": murmur.body,
        "icon": message.actor_image.as_deref().map(|path| urls.media(path)).unwrap_or_default(),
    })
}
