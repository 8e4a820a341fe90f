//! HTTP routes of moderation: members' reports, the moderators' queue and actions, the invite
//! tree, and the log every member reads. The rules are in docs/safety.md.

use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, PageParams, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::extract::Moderator;
use crate::state::AppState;
use murmur_domain::moderation;
use murmur_domain::moderation::actions;
use murmur_domain::moderation::domain::{ActionReason, Comment, ReportReason, ReportTarget, Suspension};
use murmur_domain::moderation::model::{InviteTree, LogEntry, LogReader, Report, ReportGroup, TreeMember};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_report))
        .routes(routes!(queue))
        .routes(routes!(dismiss))
        .routes(routes!(remove_post))
        .routes(routes!(suspend))
        .routes(routes!(unsuspend))
        .routes(routes!(set_invites))
        .routes(routes!(invite_tree))
        .routes(routes!(log))
}

const DEFAULT_PAGE: i64 = 20;

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportRequest {
    /// The post reported (a repost: its original). Exactly one of postId, userId and messageIds.
    #[schema(minimum = 1)]
    post_id: Option<i64>,
    /// The member reported.
    #[schema(minimum = 1)]
    user_id: Option<i64>,
    /// 1 to 20 messages of one conversation the caller is in, some written by one other member,
    /// who is the one reported; the moderators read these and nothing else of the conversation.
    message_ids: Option<Vec<i64>>,
    #[serde(default)]
    #[schema(value_type = ReportReason)]
    reason: String,
    /// Optional; at most 1000 characters after trimming; line breaks and tabs, but no other
    /// control characters.
    #[schema(max_length = 1000)]
    comment: Option<String>,
}

/// Why a moderator acts; every member reads it in the log.
#[derive(Deserialize, ToSchema)]
pub struct ActionRequest {
    /// 1 to 1000 characters after trimming; line breaks and tabs, but no other control
    /// characters.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 1000)]
    reason: String,
}

#[derive(Deserialize, ToSchema)]
pub struct SuspendRequest {
    /// 1 to 1000 characters after trimming.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 1000)]
    reason: String,
    /// 1 to 3650; absent or null: until a moderator lifts it.
    #[schema(minimum = 1, maximum = 3650)]
    days: Option<i64>,
}

#[derive(Deserialize, ToSchema)]
pub struct InvitesRequest {
    /// false takes the member's invites away (no new codes, unused ones stop working); true
    /// gives them back.
    allowed: bool,
    /// 1 to 1000 characters after trimming.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 1000)]
    reason: String,
}

/// Reports a post or a member to the moderators (at most 20 reports an hour). A second report
/// of the same thing while the first is open rewrites the first (same id).
#[utoipa::path(post, path = "/api/reports", tag = "moderation", request_body = ReportRequest,
    responses((status = 201, body = Report), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn create_report(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<ReportRequest>,
) -> Result<(StatusCode, Json<Report>)> {
    let target = ReportTarget::parse(body.post_id, body.user_id, body.message_ids)?;
    let reason = ReportReason::parse(&body.reason)?;
    let comment = Comment::parse(body.comment.as_deref())?;
    let row = actions::report(&state.db, current.id, target, reason, &comment, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// The queue: open reports grouped by what they are about, the most recently reported first,
/// each with the post or member and what happened before. Moderators only.
#[utoipa::path(get, path = "/api/moderation/reports", tag = "moderation", params(PageParams),
    responses((status = 200, body = [ReportGroup]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = moderator.id))]
async fn queue(
    State(state): State<AppState>,
    moderator: Moderator,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<ReportGroup>>> {
    let page = params.page(DEFAULT_PAGE, MAX_PAGE)?;
    Ok(Json(murmur_domain::moderation::queue::page(&state.db, moderator.id, page).await?))
}

/// The log entry an action wrote, read once its transaction committed.
async fn logged(state: &AppState, id: i64) -> Result<Json<LogEntry>> {
    let row = moderation::log_entry(&state.db.read, id).await?;
    // Its reader is the moderator who acted.
    Ok(row
        .and_then(|row| LogEntry::from_row(row, LogReader::Moderators))
        .map(Json)
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("log entry {id} is not readable after its action")))?)
}

/// Dismisses a report and every other open report of the same post or member. Moderators only.
#[utoipa::path(post, path = "/api/moderation/reports/{id}/dismiss", tag = "moderation", request_body = ActionRequest,
    params(("id" = i64, Path, minimum = 1, description = "The report (a group's id)")),
    responses((status = 200, body = LogEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = moderator.id))]
async fn dismiss(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Json(body): Json<ActionRequest>,
) -> Result<Json<LogEntry>> {
    let reason = ActionReason::parse(&body.reason)?;
    let entry = actions::dismiss(&state.db, &moderator, id, &reason, state.clock.now()).await?;
    logged(&state, entry).await
}

/// Removes a post for everyone but its author, who is told why; resolves its open reports.
/// Moderators only.
#[utoipa::path(post, path = "/api/moderation/posts/{id}/remove", tag = "moderation", request_body = ActionRequest,
    params(("id" = i64, Path, minimum = 1, description = "Post id (a repost: its original is removed)")),
    responses((status = 200, body = LogEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = moderator.id))]
async fn remove_post(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Json(body): Json<ActionRequest>,
) -> Result<Json<LogEntry>> {
    let reason = ActionReason::parse(&body.reason)?;
    let entry = actions::remove_post(&state.db, &moderator, id, &reason, state.clock.now()).await?;
    logged(&state, entry).await
}

/// Suspends a member for some days or until lifted: their sessions end at once, login links
/// are refused, their unused invite codes stop working and their posts and profile are hidden.
/// Resolves their open reports. Moderators only.
#[utoipa::path(post, path = "/api/moderation/members/{id}/suspend", tag = "moderation", request_body = SuspendRequest,
    params(("id" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 200, body = LogEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = moderator.id))]
async fn suspend(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Json(body): Json<SuspendRequest>,
) -> Result<Json<LogEntry>> {
    let reason = ActionReason::parse(&body.reason)?;
    let suspension = Suspension::parse(body.days)?;
    let entry = actions::suspend(&state.db, &moderator, id, suspension, &reason, state.clock.now()).await?;
    logged(&state, entry).await
}

/// Lifts a member's suspension. Moderators only.
#[utoipa::path(post, path = "/api/moderation/members/{id}/unsuspend", tag = "moderation", request_body = ActionRequest,
    params(("id" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 200, body = LogEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = moderator.id))]
async fn unsuspend(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Json(body): Json<ActionRequest>,
) -> Result<Json<LogEntry>> {
    let reason = ActionReason::parse(&body.reason)?;
    let entry = actions::unsuspend(&state.db, &moderator, id, &reason, state.clock.now()).await?;
    logged(&state, entry).await
}

/// Takes a member's invites away or gives them back. Moderators only.
#[utoipa::path(post, path = "/api/moderation/members/{id}/invites", tag = "moderation", request_body = InvitesRequest,
    params(("id" = i64, Path, minimum = 1, description = "Member id")),
    responses((status = 200, body = LogEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = moderator.id))]
async fn set_invites(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Json(body): Json<InvitesRequest>,
) -> Result<Json<LogEntry>> {
    let reason = ActionReason::parse(&body.reason)?;
    let entry = actions::set_invites(&state.db, &moderator, id, body.allowed, &reason, state.clock.now()).await?;
    logged(&state, entry).await
}

/// A member's branch of the invite tree: who invited them, and a page of whom they invited,
/// each with their status. Moderators only.
#[utoipa::path(get, path = "/api/moderation/members/{id}/invite-tree", tag = "moderation",
    params(("id" = i64, Path, minimum = 1, description = "Member id"), PageParams),
    responses((status = 200, body = InviteTree), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = moderator.id))]
async fn invite_tree(
    State(state): State<AppState>,
    moderator: Moderator,
    Path(id): Path<i64>,
    Query(params): Query<PageParams>,
) -> Result<Json<InviteTree>> {
    let page = params.page(MAX_PAGE, MAX_PAGE)?;
    let now = state.clock.now();
    let read = &state.db.read;
    let member = moderation::tree_member(read, id).await?.ok_or_else(|| Error::not_found("User not found"))?;
    let invited_by = match member.invited_by {
        Some(inviter) => moderation::tree_member(read, inviter).await?.map(|row| TreeMember::at(row, now)),
        None => None,
    };
    let invited = moderation::invited_by(read, id, page.limit, page.offset).await?;
    Ok(Json(InviteTree {
        member: TreeMember::at(member, now),
        invited_by,
        invited: invited.into_iter().map(|row| TreeMember::at(row, now)).collect(),
    }))
}

/// The moderation log, newest first: every action, its reason and the role of who acted, never
/// who reported. Every member may read it; moderators and admins also see which moderator acted.
#[utoipa::path(get, path = "/api/moderation/log", tag = "moderation", operation_id = "moderation_log", params(PageParams),
    responses((status = 200, body = [LogEntry]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn log(
    State(state): State<AppState>,
    member: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<LogEntry>>> {
    let page = params.page(DEFAULT_PAGE, MAX_PAGE)?;
    // A session that outlived its member is no session.
    let role = moderation::role_of(&state.db.read, member.id).await?.ok_or(Error::Unauthorized)?;
    let reader = LogReader::of(role);
    let rows = moderation::log_page(&state.db.read, page.limit, page.offset).await?;
    Ok(Json(rows.into_iter().filter_map(|row| LogEntry::from_row(row, reader)).collect()))
}
