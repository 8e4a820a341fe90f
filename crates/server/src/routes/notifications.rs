//! HTTP routes of notifications.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, Page, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::notifications;
use murmur_domain::posts::model::Author;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(mark_read))
        .routes(routes!(mark_all_read))
        .routes(routes!(mark_seen))
        .routes(routes!(unread_count))
}

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 100;

/// `?limit=&offset=` of the notifications list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// Items to skip, 0 to 100000 (default 0).
    #[param(minimum = 0, maximum = 100000)]
    pub offset: Option<i64>,
    /// Only these kinds, comma-separated (e.g. `mention,reply`); default: every kind.
    #[param(max_length = 200)]
    pub types: Option<String>,
    /// `true`: the likes and reposts of one post come as one item (`count`, `actors`), placed
    /// where the newest is; `limit` and `offset` count items.
    pub grouped: Option<bool>,
}

/// The kinds `types` names; a name that is no kind is refused.
fn kinds_of(types: Option<&str>) -> Result<notifications::Kinds> {
    let Some(types) = types else { return Ok(notifications::Kinds::ALL) };
    types.split(',').map(str::trim).filter(|name| !name.is_empty()).try_fold(
        notifications::Kinds::NONE,
        |kinds, name| match notifications::Kind::parse(name) {
            Some(kind) => Ok(kinds.with(kind)),
            None => Err(Error::bad_request(format!(
                "types: unknown kind \"{}\"; use {}",
                name.chars().take(40).collect::<String>(),
                notifications::Kind::ALL.map(notifications::Kind::as_str).join(", ")
            ))
            .into()),
        },
    )
}

/// A notification's kind as the document names it: the names of `notifications::Kind::ALL`, so
/// a new kind reaches the document, and the web app's types made from it, by itself.
pub struct NotificationKind;

impl utoipa::PartialSchema for NotificationKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(notifications::Kind::ALL.map(notifications::Kind::as_str)))
            .into()
    }
}

impl ToSchema for NotificationKind {}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Notification {
    /// The notification's id; in a grouped list, the id of the group's newest.
    pub id: i64,
    /// Notifications with one key are one item in a grouped list: the likes of one post
    /// (`like-<post id>`), its reposts (`repost-<post id>`); any other is alone (`n-<id>`).
    pub group_key: String,
    /// How many notifications the item stands for: 1, or in a grouped list its group's size.
    pub count: i64,
    /// Who did it, newest first: the actor, or in a grouped list the group's newest three.
    pub actors: Vec<Author>,
    /// What happened: for a quote the post is the quote; removed: moderators removed the post;
    /// export-ready: the member's data archive is ready (the actor is the member).
    #[serde(rename = "type")]
    #[schema(value_type = NotificationKind)]
    pub kind: String,
    /// Read: every notification it stands for is.
    pub is_read: bool,
    pub created_at: String,
    /// Who did it (in a grouped list: the newest).
    pub actor: Author,
    /// The post it is about (for a reply or mention: the reply or mentioning post); absent
    /// for follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post: Option<QuotedPost>,
    /// Why moderators removed the post (removed only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct QuotedPost {
    pub id: i64,
    pub content: String,
}

#[derive(Serialize, ToSchema)]
pub struct UnreadCount {
    pub count: i64,
}

/// The caller's notifications, newest first; `types` narrows them, `grouped` gathers the likes
/// and reposts of one post into one item.
#[utoipa::path(get, path = "/api/notifications", tag = "notifications", operation_id = "list_notifications", params(ListParams),
    responses((status = 200, body = Vec<Notification>, links(
        ("markRead" = (operation_id = "mark_read", parameters(("id" = "$response.body#/0/id")),
            description = "Marks the newest notification read")))), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn list(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(params): Query<ListParams>,
) -> Result<Json<Vec<Notification>>> {
    let page = Page::parse(params.limit, params.offset, DEFAULT_LIMIT, MAX_LIMIT)?;
    let kinds = kinds_of(params.types.as_deref())?;
    let now = state.clock.now();
    if params.grouped == Some(true) {
        let groups = notifications::list_grouped(&state.db.read, current.id, kinds, page, now).await?;
        return Ok(Json(
            groups
                .into_iter()
                .map(|group| {
                    let actors = group.actors.into_iter().map(author).collect();
                    notification(group.head, group.size, group.unread == 0, actors)
                })
                .collect(),
        ));
    }
    let rows = notifications::list(&state.db.read, current.id, kinds, page, now).await?;
    Ok(Json(
        rows.into_iter()
            .map(|row| {
                let read = row.entry.read_at.is_some();
                notification(row, 1, read, Vec::new())
            })
            .collect(),
    ))
}

fn author(actor: notifications::Actor) -> Author {
    Author {
        id: actor.id,
        username: actor.username,
        display_name: actor.display_name,
        profile_image_url: actor.profile_image_url,
    }
}

/// The answer for a notification standing for `count` (its group's `actors`, or none: its own).
fn notification(row: notifications::NotificationRow, count: i64, is_read: bool, actors: Vec<Author>) -> Notification {
    let actor = Author {
        id: row.entry.actor_id,
        username: row.actor_username,
        display_name: row.actor_display_name,
        profile_image_url: row.actor_profile_image_url,
    };
    let grouped = notifications::Kind::parse(&row.entry.kind).is_some_and(notifications::Kind::is_grouped);
    Notification {
        id: row.entry.id,
        group_key: if grouped {
            format!("{}-{}", row.entry.kind, row.entry.post_id)
        } else {
            format!("n-{}", row.entry.id)
        },
        count,
        actors: if actors.is_empty() { vec![actor.clone()] } else { actors },
        kind: row.entry.kind,
        is_read,
        created_at: to_rfc3339(row.entry.created_at),
        actor,
        post: match (row.entry.post_id, row.post_content) {
            (notifications::NO_POST, _) | (_, None) => None,
            (id, Some(content)) => Some(QuotedPost { id, content }),
        },
        reason: row.reason,
    }
}

/// Marks one of the caller's notifications read, with the rest of its group (someone else's:
/// 404, as if it did not exist).
#[utoipa::path(put, path = "/api/notifications/{id}/read", tag = "notifications",
    params(("id" = i64, Path, minimum = 1, description = "Notification id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn mark_read(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    let now = state.clock.now();
    let mut writer = murmur_domain::notifications::writer(&state.db, current.id, now).await?;
    if notifications::mark_read(&mut writer, current.id, id, now).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(Error::not_found("Notification not found").into())
    }
}

/// Marks all of the caller's notifications read.
#[utoipa::path(put, path = "/api/notifications/read-all", tag = "notifications",
    responses((status = 204), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn mark_all_read(State(state): State<AppState>, current: CurrentUser) -> Result<StatusCode> {
    let now = state.clock.now();
    let mut writer = murmur_domain::notifications::writer(&state.db, current.id, now).await?;
    notifications::mark_all_read(&mut writer, current.id, now).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// What the member's Notifications screen showed them.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Seen {
    /// The id of the newest notification shown (in a grouped list: a group's id).
    #[schema(minimum = 1)]
    pub last_seen_id: i64,
}

/// The caller has seen their notifications up to `lastSeenId` (their Notifications screen
/// showed them): those are read, and the notifications marker of their apps
/// (`/api/v1/markers`) is set there, as an app setting it does.
#[utoipa::path(put, path = "/api/notifications/seen", tag = "notifications", request_body = Seen,
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn mark_seen(State(state): State<AppState>, current: CurrentUser, Json(body): Json<Seen>) -> Result<StatusCode> {
    if body.last_seen_id < 1 {
        return Err(Error::bad_request("lastSeenId must be a notification's id").into());
    }
    murmur_domain::notifications::mark_seen(&state.db, current.id, body.last_seen_id, state.clock.now()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// How many of the caller's notifications are unread (the badge), a group counted once.
#[utoipa::path(get, path = "/api/notifications/unread-count", tag = "notifications",
    responses((status = 200, body = UnreadCount), (status = 401, body = ErrorBody)))]
async fn unread_count(State(state): State<AppState>, current: CurrentUser) -> Result<Json<UnreadCount>> {
    Ok(Json(UnreadCount {
        count: murmur_domain::live::counts::unread_count(&state.db.read, current.id, state.clock.now()).await?,
    }))
}
