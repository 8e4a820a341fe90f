//! Notifications: the member's list (`types[]`, `exclude_types[]`), one, dismissing and
//! clearing, how many are unread, and the filtering policy (Murmur filters none). Murmur's replies and mentions are both Mastodon's `mention`; its own notices (a
//! moderators' removal, a data archive ready) are not shown to apps.

use std::collections::HashMap;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::accounts::id;
use super::auth::Token;
use super::entities::{self, Context, Urls};
use super::error::{MastodonError, Result};
use super::names::{kinds_of, shown_kinds};
use super::paging::{Paging, paged, with_links};
use super::params::{Params, QueryParams, lenient};
use crate::state::AppState;
use murmur_domain::notifications::{self, Entry, Kinds, NO_POST};
use murmur_domain::posts::hydrate::{self, Selection};
use murmur_domain::users::UserRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/notifications", get(list))
        .route("/api/v2/notifications", get(list_grouped))
        .route("/api/v1/notifications/clear", post(clear))
        .route("/api/v1/notifications/unread_count", get(unread_count))
        .route("/api/v2/notifications/policy", get(policy).patch(set_policy))
        .route("/api/v1/notifications/{id}", get(show))
        .route("/api/v1/notifications/{id}/dismiss", post(dismiss))
}

#[derive(Deserialize)]
struct ListParams {
    #[serde(flatten)]
    paging: Paging,
    #[serde(default, deserialize_with = "lenient::strings")]
    types: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    exclude_types: Vec<String>,
}

/// The kinds apps are shown, narrowed by `types[]` and `exclude_types[]`.
fn kinds(params: &ListParams) -> Kinds {
    let mut kinds = if params.types.is_empty() {
        shown_kinds()
    } else {
        params.types.iter().flat_map(|t| kinds_of(t)).fold(Kinds::NONE, |kinds, kind| kinds.with(*kind))
    };
    for kind in params.exclude_types.iter().flat_map(|t| kinds_of(t)) {
        kinds = kinds.without(*kind);
    }
    kinds
}

/// The notifications as Mastodon's entities: their posts read in one go, and the members they
/// name (actors, the posts' authors) that `known` lacks in another.
pub(super) async fn entities_of(
    state: &AppState,
    viewer: i64,
    rows: &[Entry],
    known: HashMap<i64, UserRow>,
) -> Result<Vec<entities::Notification>> {
    let mut post_ids: Vec<i64> = rows.iter().map(|row| row.post_id).filter(|id| *id != NO_POST).collect();
    // Several notifications are often of one post (its likes).
    post_ids.sort_unstable();
    post_ids.dedup();
    let posts = hydrate::list(&state.db.read, state.db.backend, viewer, &Selection::ids(&post_ids)).await?;
    let named = rows.iter().map(|row| row.actor_id).chain(entities::author_ids(&posts));
    let missing = named.filter(|id| !known.contains_key(id)).collect();
    let mut authors = entities::members_by_id(state, missing).await?;
    authors.extend(known);
    let urls = Urls::of(state);
    let context = Context::new(&urls, &authors, viewer, state.clock.now());
    let by_id: HashMap<i64, entities::Status> =
        posts.iter().filter_map(|post| Some((post.id, entities::status(&context, post)?))).collect();
    Ok(rows
        .iter()
        .filter_map(|row| {
            let actor = context.account(authors.get(&row.actor_id)?);
            entities::notification(actor, row, by_id.get(&row.post_id).cloned())
        })
        .collect())
}

async fn list(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(params): QueryParams<ListParams>,
) -> Result<Response> {
    let viewer = token.member("read:notifications")?;
    let page = params.paging.page()?;
    let entries = notifications::entries(&state.db.read, viewer, kinds(&params), page, state.clock.now()).await?;
    let answer = entities_of(&state, viewer, &entries.rows, entries.members).await?;
    let ids: Vec<i64> = answer.iter().map(|n| n.id.parse().unwrap_or(0)).collect();
    paged(&state, &uri, answer, |index| ids[index])
}

/// The notifications grouped as Mastodon's v2 answers them, the same groups as Murmur's own
/// grouped list (`notifications::list_grouped`): likes and reposts of one post together ("Ada and 4
/// others liked your post"), placed where the newest is; the accounts and statuses they name
/// once each.
async fn list_grouped(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(params): QueryParams<ListParams>,
) -> Result<Response> {
    let viewer = token.member("read:notifications")?;
    let page = params.paging.page()?;
    let groups = notifications::list_grouped(&state.db.read, viewer, kinds(&params), page, state.clock.now()).await?;
    let mut sizes: HashMap<i64, (i64, Vec<i64>)> = HashMap::new();
    let mut heads = Vec::with_capacity(groups.len());
    for group in groups {
        sizes.insert(group.head.entry.id, (group.size, group.actors.iter().map(|actor| actor.id).collect()));
        heads.push(group.head.entry);
    }
    let shown = entities_of(&state, viewer, &heads, HashMap::new()).await?;
    // The groups' other actors, beside the heads' ones each entity carries.
    let samples: Vec<i64> = sizes.values().flat_map(|(_, actors)| actors.iter().copied()).collect();
    let members = entities::members_by_id(&state, samples).await?;
    let urls = Urls::of(&state);
    let mut accounts: Vec<entities::Account> = Vec::new();
    let mut statuses: Vec<&entities::Status> = Vec::new();
    let mut groups: Vec<Value> = Vec::new();
    for notification in &shown {
        let id = notification.id.as_str();
        let Some((size, actors)) = id.parse().ok().and_then(|head: i64| sizes.get(&head)) else { continue };
        let status_id = notification.status.as_ref().map(|status| status.id.as_str());
        if let Some(status) = &notification.status
            && !statuses.iter().any(|s| s.id == status.id)
        {
            statuses.push(status);
        }
        let mut sample_ids = Vec::new();
        for actor in actors {
            let Some(member) = members.get(actor) else { continue };
            let account = entities::account(&urls, member, 0);
            sample_ids.push(account.id.clone());
            if !accounts.iter().any(|a| a.id == account.id) {
                accounts.push(account);
            }
        }
        let kind = notification.kind;
        let key = match (kind, status_id) {
            ("favourite" | "reblog", Some(status)) => format!("{kind}-{status}"),
            _ => format!("ungrouped-{id}"),
        };
        groups.push(json!({
            "group_key": key,
            "notifications_count": size,
            "type": kind,
            "most_recent_notification_id": id,
            "page_min_id": id,
            "page_max_id": id,
            "latest_page_notification_at": notification.created_at,
            "sample_account_ids": sample_ids,
            "status_id": status_id,
        }));
    }
    let ids: Vec<i64> = shown.iter().filter_map(|n| n.id.parse().ok()).collect();
    let keys = ids.first().zip(ids.last()).map(|(first, last)| (*first, *last));
    let body = json!({ "accounts": accounts, "statuses": statuses, "notification_groups": groups });
    Ok(with_links(&state, &uri, keys, Json(body).into_response()))
}

async fn show(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
) -> Result<Json<entities::Notification>> {
    let viewer = token.member("read:notifications")?;
    let wanted = id(&text)?;
    // The one notification: the list's page just above it.
    let page = murmur_core::page::Page::window(1, Some(wanted.saturating_add(1)), Some(wanted - 1));
    let entries = notifications::entries(&state.db.read, viewer, Kinds::ALL, page, state.clock.now()).await?;
    entities_of(&state, viewer, &entries.rows, entries.members)
        .await?
        .pop()
        .map(Json)
        .ok_or_else(MastodonError::not_found)
}

async fn dismiss(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:notifications")?;
    let now = state.clock.now();
    let mut writer = murmur_domain::notifications::writer(&state.db, viewer, now).await?;
    if notifications::dismiss(&mut writer, viewer, id(&text)?).await? {
        Ok(Json(json!({})))
    } else {
        Err(MastodonError::not_found())
    }
}

async fn clear(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    let viewer = token.member("write:notifications")?;
    let now = state.clock.now();
    let mut writer = murmur_domain::notifications::writer(&state.db, viewer, now).await?;
    notifications::clear(&mut writer, viewer).await?;
    Ok(Json(json!({})))
}

/// How many of the member's notifications are unread, as Murmur's badge counts them (a group of
/// likes or reposts of one post once).
async fn unread_count(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    let viewer = token.member("read:notifications")?;
    let count = murmur_domain::live::counts::unread_count(&state.db.read, viewer, state.clock.now()).await?;
    Ok(Json(json!({ "count": count })))
}

/// The filters of Mastodon's notification policy: Murmur filters no notifications into requests,
/// so each is `accept`.
const POLICY_FILTERS: [&str; 5] =
    ["for_not_following", "for_not_followers", "for_new_accounts", "for_private_mentions", "for_limited_accounts"];

/// Mastodon 4.3's NotificationPolicy of a member: everything accepted, no requests pending.
fn policy_entity() -> Json<Value> {
    let mut policy = serde_json::Map::new();
    for filter in POLICY_FILTERS {
        policy.insert(filter.to_string(), json!("accept"));
    }
    policy.insert("summary".to_string(), json!({ "pending_requests_count": 0, "pending_notifications_count": 0 }));
    Json(Value::Object(policy))
}

async fn policy(token: Token) -> Result<Json<Value>> {
    token.member("read:notifications")?;
    Ok(policy_entity())
}

/// Takes a policy only as Murmur's is (`accept`): filtering notifications into requests is not
/// something Murmur does, so asking for it is refused by name rather than answered as kept.
async fn set_policy(token: Token, Params(body): Params<serde_json::Map<String, Value>>) -> Result<Json<Value>> {
    token.member("write:notifications")?;
    let refused: Vec<&str> = POLICY_FILTERS
        .into_iter()
        .filter(|filter| body.get(*filter).is_some_and(|value| value.as_str() != Some("accept")))
        .collect();
    if !refused.is_empty() {
        return Err(MastodonError::unprocessable(format!(
            "Murmur does not filter notifications: {} can only be accept",
            refused.join(", ")
        )));
    }
    Ok(policy_entity())
}
