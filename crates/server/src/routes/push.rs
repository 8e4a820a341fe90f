//! HTTP routes of Web Push: the instance's public key, and the session's push subscription
//! (one per session, ended with it; docs/push.md).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::Json;
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::push::{self, Alert, Alerts, NewSubscription, Owner, Policy};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(key)).routes(routes!(subscribe, current, unsubscribe))
}

/// The instance's VAPID public key.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushKey {
    /// base64url of the uncompressed P-256 point: `applicationServerKey` of `pushManager.subscribe`.
    pub public_key: String,
}

/// The browser's keys, as `PushSubscription.toJSON()` gives them.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PushSubscriptionKeys {
    /// base64url of the browser's P-256 public key (65 bytes, uncompressed).
    pub p256dh: String,
    /// base64url of the browser's 16-byte auth secret.
    pub auth: String,
}

/// A browser's subscription, with what to push.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewPushSubscription {
    /// The push service's URL for this browser: https, on a public address.
    pub endpoint: String,
    pub keys: PushSubscriptionKeys,
    /// Which notifications to push, by name (reply, mention, like, repost, follow, poll); names
    /// left out are off. Absent: all of them.
    #[schema(value_type = Option<BTreeMap<String, bool>>)]
    pub alerts: Option<BTreeMap<String, bool>>,
    /// `all` (default): from everyone; `followed`: only from members the caller follows.
    pub policy: Option<String>,
}

/// Each alert by name, on or off: the names of `push::Alert::ALL`, so a new alert reaches the
/// document, and the web app's choices made from it, by itself.
pub struct PushAlerts;

impl utoipa::PartialSchema for PushAlerts {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{ObjectBuilder, schema::Type};
        Alert::ALL
            .into_iter()
            .fold(ObjectBuilder::new(), |object, alert| {
                object
                    .property(alert.as_str(), ObjectBuilder::new().schema_type(Type::Boolean))
                    .required(alert.as_str())
            })
            .into()
    }
}

impl ToSchema for PushAlerts {}

/// The session's push subscription.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushSubscription {
    pub endpoint: String,
    /// Each alert by name, on or off.
    #[schema(value_type = PushAlerts)]
    pub alerts: BTreeMap<&'static str, bool>,
    /// all or followed
    pub policy: String,
    /// The instance's VAPID public key (as `GET /api/push/key`).
    pub server_key: String,
    pub created_at: String,
}

impl PushSubscription {
    fn new(row: push::Subscription, state: &AppState) -> Self {
        let alerts = row.alerts();
        PushSubscription {
            alerts: Alert::ALL.iter().map(|alert| (alert.as_str(), alerts.contains(*alert))).collect(),
            endpoint: row.endpoint,
            policy: row.policy,
            server_key: state.push.keys.public_key().to_string(),
            created_at: to_rfc3339(row.created_at),
        }
    }
}

/// The instance's VAPID public key, to subscribe a browser with.
#[utoipa::path(get, path = "/api/push/key", tag = "push", operation_id = "get_push_key",
    responses((status = 200, body = PushKey), (status = 401, body = ErrorBody)))]
async fn key(State(state): State<AppState>, _current: CurrentUser) -> Json<PushKey> {
    Json(PushKey { public_key: state.push.keys.public_key().to_string() })
}

/// Subscribes this session's browser to pushes of the caller's notifications (a second
/// subscription of the session replaces the first). It ends with the session. 400 for an
/// endpoint that is not https on a public address, keys that are not a browser's, or an
/// unknown alert or policy.
#[utoipa::path(post, path = "/api/push/subscriptions", tag = "push", operation_id = "create_push_subscription",
    request_body = NewPushSubscription,
    responses((status = 201, body = PushSubscription), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn subscribe(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<NewPushSubscription>,
) -> Result<(StatusCode, Json<PushSubscription>)> {
    let alerts = body.alerts.as_ref().map_or(Ok(Alerts::ALL), Alerts::parse)?;
    let policy = body.policy.as_deref().map_or(Ok(Policy::All), Policy::parse)?;
    let new = NewSubscription::parse(&body.endpoint, &body.keys.p256dh, &body.keys.auth, alerts, policy)?;
    crate::push::check_browser_key(&new.p256dh)?;
    state
        .outbound
        .check(&new.endpoint)
        .await
        .map_err(|refused| Error::bad_request(format!("The endpoint is refused: {refused}")))?;
    let row =
        push::subscribe(&state.db, current.id, Owner::Session(&current.session_hash), &new, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Json(PushSubscription::new(row, &state))))
}

/// This session's push subscription; 404 when it has none.
#[utoipa::path(get, path = "/api/push/subscriptions", tag = "push", operation_id = "get_push_subscription",
    responses((status = 200, body = PushSubscription), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn current(State(state): State<AppState>, current: CurrentUser) -> Result<Json<PushSubscription>> {
    let row = push::find(&state.db.read, Owner::Session(&current.session_hash))
        .await?
        .ok_or_else(|| Error::not_found("This session has no push subscription"))?;
    Ok(Json(PushSubscription::new(row, &state)))
}

/// Ends this session's push subscription (nothing more is pushed to its browser); 204 whether
/// or not it had one.
#[utoipa::path(delete, path = "/api/push/subscriptions", tag = "push", operation_id = "delete_push_subscription",
    responses((status = 204, description = "No subscription is left"), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unsubscribe(State(state): State<AppState>, current: CurrentUser) -> Result<StatusCode> {
    push::unsubscribe(&state.db.write, Owner::Session(&current.session_hash)).await?;
    Ok(StatusCode::NO_CONTENT)
}
