//! HTTP routes of the users area: profiles, a member's posts, replies, media and likes,
//! suggestions, search, and the caller's profile edit and settings.
//!
//! `/api/users/suggested`, `/api/users/search`, `/api/users/profile`, `/api/users/preferences`,
//! `/api/users/first-run` and `/api/users/starter-pack` are static routes, which the router always prefers over
//! `/api/users/{username}`.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, Page, PageParams, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::{CurrentUser, MomentOld};
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::posts::Post;
use murmur_domain::profiles::{self, Tab};
use murmur_domain::users;
use murmur_domain::users::model::{MessagesFrom, ProfileEdit, User, UserRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(suggested))
        .routes(routes!(search))
        .routes(routes!(update_profile))
        .routes(routes!(update_preferences))
        .routes(routes!(finish_first_run))
        .routes(routes!(starter_pack))
        .routes(routes!(profile))
        .routes(routes!(posts))
        .routes(routes!(pinned))
        .routes(routes!(replies))
        .routes(routes!(media))
        .routes(routes!(likes))
        .routes(routes!(followers))
        .routes(routes!(following))
}

pub const SUGGESTED_DEFAULT: i64 = 10;
pub const SEARCH_DEFAULT: i64 = 20;
pub use murmur_domain::users::model::SEARCH_MAX_CHARS;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SuggestedParams {
    /// 1 to 50 (default 10).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// 1 to 100 characters after trimming; matched against usernames and display names.
    /// Required: a missing or blank term answers 400.
    #[param(required = true, min_length = 1, max_length = 100)]
    pub q: Option<String>,
    /// 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRequest {
    /// 1 to 50 characters after trimming, on one line: no control characters.
    #[schema(min_length = 1, max_length = 50)]
    pub display_name: String,
    /// At most 160 characters; line breaks and tabs, but no other control characters.
    #[serde(default)]
    #[schema(max_length = 160)]
    pub bio: String,
    /// Empty, or an http(s) address of at most 200 characters, without control characters.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub website: String,
    /// A new username (3 to 20 letters, digits and underscores); absent or the current one:
    /// unchanged. At most once in 30 days (`usernameChangeableAt`); a name another member has
    /// or holds answers 409. The old name is held for the member for 30 days.
    #[serde(default)]
    #[schema(min_length = 3, max_length = 20)]
    pub username: Option<String>,
}

/// The caller's settings that follow them from device to device; a field left out stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreferencesRequest {
    /// "Always expand posts with content warnings": cards open such posts at once.
    pub expand_content_warnings: Option<bool>,
    /// "Allow new messages from": who may start a conversation with the caller.
    pub messages_from: Option<MessagesFrom>,
}

/// Members the caller might follow: friends of friends first, then the most followed.
#[utoipa::path(get, path = "/api/users/suggested", tag = "users", params(SuggestedParams),
    responses((status = 200, body = Vec<User>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn suggested(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Query(params): Query<SuggestedParams>,
) -> Result<Json<Vec<User>>> {
    let limit = Page::parse(params.limit, None, SUGGESTED_DEFAULT, MAX_PAGE)?.limit;
    let rows = users::suggested(&state.db.read, current.id, limit).await?;
    Ok(Json(rows.into_iter().map(UserRow::public).collect()))
}

/// Members whose username or display name contains the term: exact, then prefix matches first.
#[utoipa::path(get, path = "/api/users/search", tag = "users", params(SearchParams),
    responses((status = 200, body = Vec<User>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn search(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Query(params): Query<SearchParams>,
) -> Result<Json<Vec<User>>> {
    let term = murmur_domain::users::model::search_term(params.q.as_deref())?;
    let limit = Page::parse(params.limit, None, SEARCH_DEFAULT, MAX_PAGE)?.limit;
    let rows = users::search(&state.db.read, current.id, term, limit).await?;
    Ok(Json(rows.into_iter().map(|row| view(row, current.id, state.clock.now())).collect()))
}

/// Edits the caller's display name, bio and website, and their username when one is given;
/// answers the caller's own record.
#[utoipa::path(put, path = "/api/users/profile", tag = "users", request_body = ProfileRequest,
    responses((status = 200, body = User), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn update_profile(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<ProfileRequest>,
) -> Result<Json<User>> {
    let edit = ProfileEdit::parse(&body.display_name, &body.bio, &body.website)?;
    let username = body.username.as_deref().map(murmur_domain::users::Username::parse).transpose()?;
    let now = state.clock.now();
    let row = users::update_profile(&state.db.write, current.id, &edit, username.as_ref(), now)
        .await?
        .ok_or(Error::Unauthorized)?;
    Ok(Json(row.own(now)))
}

/// Changes the caller's settings (`expandContentWarnings`, `messagesFrom`); answers the caller's own record,
/// which reads them.
#[utoipa::path(put, path = "/api/users/preferences", tag = "users", request_body = PreferencesRequest,
    responses((status = 200, body = User), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn update_preferences(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<PreferencesRequest>,
) -> Result<Json<User>> {
    if let Some(on) = body.expand_content_warnings {
        users::set_expand_warnings(&state.db.write, current.id, on).await?;
    }
    if let Some(from) = body.messages_from {
        users::set_messages_from(&state.db.write, current.id, from).await?;
    }
    Ok(Json(users::own_user(&state.db.read, current.id, state.clock.now()).await?))
}

/// Marks the caller's first-run step done (gone through or skipped); doing it again changes
/// nothing.
#[utoipa::path(post, path = "/api/users/first-run", tag = "users",
    responses((status = 204), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn finish_first_run(State(state): State<AppState>, current: CurrentUser) -> Result<StatusCode> {
    users::finish_first_run(&state.db.write, current.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A member's profile: the member as the API shows them, who invited them, and how the caller
/// and they stand (blocks and the caller's mute).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    #[serde(flatten)]
    pub user: User,
    /// The username of the member who invited them; null when the instance did.
    pub invited_by: Option<String>,
    /// The caller blocked this member.
    pub is_blocking: bool,
    /// This member blocked the caller: the caller sees none of their posts, and of the profile
    /// only who it is (no bio, website, header, counts or inviter).
    pub is_blocked_by: bool,
    /// The caller muted this member (until `mutedUntil`, or until unmuted when that is null).
    pub is_muting: bool,
    pub muted_until: Option<String>,
    /// Suspended by moderators (only moderators and the member are shown such a profile).
    pub is_suspended: bool,
    /// When the suspension ends; null when not suspended or until lifted.
    pub suspended_until: Option<String>,
}

/// A member's profile. Only the member themself sees their e-mail and invite allowance. A
/// suspended member's profile is shown to moderators only.
#[utoipa::path(get, path = "/api/users/{username}", tag = "users", params(("username" = String, Path, description = "Username")),
    responses((status = 200, body = Profile), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn profile(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
) -> Result<Json<Profile>> {
    let now = state.clock.now();
    let profile = profiles::by_username(&state.db, current.id, &username, now).await?;
    let invited_by = profiles::inviter(&state.db, &profile).await?;
    let standing = murmur_domain::safety::standing(&state.db.read, current.id, profile.member.id, now).await?;
    let suspended_until = profile.member.suspended_until;
    let user = if profile.shut_out { profile.member.public() } else { view(profile.member, current.id, now) };
    Ok(Json(Profile {
        user,
        invited_by,
        is_blocking: standing.blocking,
        is_blocked_by: standing.blocked_by,
        is_muting: standing.muting.is_some(),
        muted_until: standing.muting.flatten().map(to_rfc3339),
        is_suspended: suspended_until.is_some(),
        suspended_until: suspended_until.filter(|until| *until != i64::MAX).map(to_rfc3339),
    }))
}

/// A member's posts and reposts, newest first: the profile's Posts tab (replies are under
/// `/replies`).
#[utoipa::path(get, path = "/api/users/{username}/posts", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn posts(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    tab(&state, current.id, &username, &params, Tab::Posts).await
}

/// The posts a member pinned to their profile (at most 5), newest pin first: the profile shows
/// them above its Posts tab with a "Pinned" label. One page; paging parameters are ignored.
#[utoipa::path(get, path = "/api/users/{username}/pinned", tag = "users",
    params(("username" = String, Path, description = "Username")),
    responses((status = 200, body = Vec<Post>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn pinned(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
) -> Result<Json<Vec<Post>>> {
    tab(&state, current.id, &username, &PageParams { limit: None, offset: None }, Tab::Pinned).await
}

/// A member's replies to other posts, newest first: the profile's Replies tab.
#[utoipa::path(get, path = "/api/users/{username}/replies", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn replies(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    tab(&state, current.id, &username, &params, Tab::Replies).await
}

/// A member's own posts and replies with images, newest first: the profile's Media tab.
/// Reposts are not listed, even of posts with images: those images are another member's.
#[utoipa::path(get, path = "/api/users/{username}/media", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn media(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    tab(&state, current.id, &username, &params, Tab::Media).await
}

/// A member in a list of members, with whether the caller follows them (their Follow button,
/// as `GET /api/follows/{userId}/status` answers it).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListedUser {
    #[serde(flatten)]
    pub user: User,
    pub is_following: bool,
}

/// Who follows a member, newest follow first: the profile's Followers list.
#[utoipa::path(get, path = "/api/users/{username}/followers", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<ListedUser>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn followers(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<ListedUser>>> {
    follow_list(&state, current.id, &username, &params, users::FollowList::Followers).await
}

/// Whom a member follows, newest follow first: the profile's Following list.
#[utoipa::path(get, path = "/api/users/{username}/following", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<ListedUser>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn following(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<ListedUser>>> {
    follow_list(&state, current.id, &username, &params, users::FollowList::Following).await
}

/// One page of a member's followers or follows, as `viewer` sees them (`profiles::follow_list`).
async fn follow_list(
    state: &AppState,
    viewer: i64,
    username: &str,
    params: &PageParams,
    list: users::FollowList,
) -> Result<Json<Vec<ListedUser>>> {
    let page = params.page(20, MAX_PAGE)?;
    let now = state.clock.now();
    let profile = profiles::by_username(&state.db, viewer, username, now).await?;
    let listed = profiles::follow_list(&state.db, viewer, &profile, list, page).await?;
    Ok(Json(
        listed
            .into_iter()
            .map(|listed| ListedUser { user: view(listed.user, viewer, now), is_following: listed.is_following != 0 })
            .collect(),
    ))
}

/// The people a newcomer's inviter follows, for them to follow too.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StarterPack {
    /// The member who invited the caller; null when the instance did, or when they are hidden
    /// from the caller or gone.
    pub inviter: Option<User>,
    /// Up to 20 members the inviter follows whom the caller does not follow yet, most followed
    /// first (empty without an inviter).
    pub members: Vec<User>,
}

/// The caller's starter pack: their inviter and the people the inviter follows.
#[utoipa::path(get, path = "/api/users/starter-pack", tag = "users",
    responses((status = 200, body = StarterPack), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn starter_pack(State(state): State<AppState>, current: CurrentUser) -> Result<Json<StarterPack>> {
    let Some((inviter, members)) = profiles::starter_pack(&state.db, current.id).await? else {
        return Ok(Json(StarterPack { inviter: None, members: Vec::new() }));
    };
    Ok(Json(StarterPack {
        inviter: Some(inviter.public()),
        members: members.into_iter().map(UserRow::public).collect(),
    }))
}

/// One page of a profile tab as `viewer` sees it (`profiles::posts`).
async fn tab(state: &AppState, viewer: i64, username: &str, params: &PageParams, tab: Tab) -> Result<Json<Vec<Post>>> {
    let page = params.page(20, MAX_PAGE)?;
    let now = state.clock.now();
    let profile = profiles::by_username(&state.db, viewer, username, now).await?;
    Ok(Json(profiles::posts(&state.db, viewer, &profile, tab, page, now).await?))
}

/// The posts a member liked, newest like first.
#[utoipa::path(get, path = "/api/users/{username}/likes", tag = "users",
    params(("username" = String, Path, description = "Username"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn likes(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(username): Path<String>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    tab(&state, current.id, &username, &params, Tab::Likes).await
}

/// The caller's own record in full, anyone else's public view.
fn view(row: UserRow, viewer: i64, now: murmur_core::clock::Millis) -> User {
    if row.id == viewer { row.own(now) } else { row.public() }
}
