//! Accounts: the member's own (`verify_credentials`, `update_credentials`), others' profiles and
//! posts, following, blocking and muting, relationships, lookup and search.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::{get, patch, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::{self, Urls};
use super::error::{MastodonError, Result};
use super::params::{Params, QueryParams, lenient};
use super::timelines::{Paging, offset_page, paged, posts_page};
use crate::state::AppState;
use axum::extract::FromRequest;
use murmur_core::clock::HOUR;
use murmur_domain::media::ProfileImage;
use murmur_domain::posts::hydrate;
use murmur_domain::safety;
use murmur_domain::users::UserRow;
use murmur_domain::users::model::ProfileEdit;
use murmur_domain::users::store::{self, FollowList};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/accounts/verify_credentials", get(verify_credentials))
        // Two images (avatar and header) may come in one form.
        .route(
            "/api/v1/accounts/update_credentials",
            patch(update_credentials)
                .layer(axum::extract::DefaultBodyLimit::max(2 * murmur_domain::media::MAX_BYTES + 64 * 1024)),
        )
        .route("/api/v1/accounts/relationships", get(relationships))
        .route("/api/v1/accounts/lookup", get(lookup))
        .route("/api/v1/accounts/search", get(search))
        .route("/api/v1/accounts/{id}", get(show))
        .route("/api/v1/accounts/{id}/statuses", get(statuses))
        .route("/api/v1/accounts/{id}/followers", get(followers))
        .route("/api/v1/accounts/{id}/following", get(following))
        .route("/api/v1/accounts/{id}/follow", post(follow))
        .route("/api/v1/accounts/{id}/unfollow", post(unfollow))
        .route("/api/v1/accounts/{id}/block", post(block))
        .route("/api/v1/accounts/{id}/unblock", post(unblock))
        .route("/api/v1/accounts/{id}/mute", post(mute))
        .route("/api/v1/accounts/{id}/unmute", post(unmute))
}

/// An id from the path: Mastodon's ids are strings; one that is not Murmur's is not found.
pub fn id(text: &str) -> Result<i64> {
    text.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(MastodonError::not_found)
}

/// The member `id` as `viewer` may see them: not found when they left, or are hidden from the
/// viewer (a block either way, a suspension).
async fn visible_member(state: &AppState, viewer: i64, id: i64) -> Result<UserRow> {
    let member = store::find_live(&state.db.read, id).await?.ok_or_else(MastodonError::not_found)?;
    if member.id != viewer && safety::store::is_hidden(&state.db.read, viewer, member.id).await? {
        return Err(MastodonError::not_found());
    }
    Ok(member)
}

async fn own_account(state: &AppState, member: i64) -> Result<entities::Account> {
    let row = store::find_live(&state.db.read, member).await?.ok_or_else(MastodonError::not_found)?;
    let posts = store::post_count(&state.db.read, member).await?;
    Ok(entities::credential_account(&Urls::of(state), &row, posts))
}

async fn verify_credentials(State(state): State<AppState>, token: Token) -> Result<Json<entities::Account>> {
    let member = token.member("profile")?;
    Ok(Json(own_account(&state, member).await?))
}

#[derive(Default, Deserialize)]
struct Credentials {
    display_name: Option<String>,
    note: Option<String>,
}

/// Changes the display name, bio, avatar and header (the website stays as set in Murmur). Apps
/// send a multipart form when it carries images, else JSON or a form.
async fn update_credentials(
    State(state): State<AppState>,
    token: Token,
    request: axum::extract::Request,
) -> Result<Json<entities::Account>> {
    let member = token.member("write:accounts")?;
    let (body, mut images) = if super::params::content_type(request.headers()).starts_with("multipart/form-data") {
        let form = axum::extract::Multipart::from_request(request, &state)
            .await
            .map_err(|e| MastodonError::unprocessable(e.body_text()))?;
        let form = super::media::Form::read(form, &["avatar", "header"]).await?;
        let body = Credentials {
            display_name: form.fields.get("display_name").cloned(),
            note: form.fields.get("note").cloned(),
        };
        (body, form.files)
    } else {
        let Params(body) = Params::<Credentials>::from_request(request, &state).await?;
        (body, Default::default())
    };
    // Everything is checked before anything is kept, so a refusal changes nothing.
    let current = store::find_live(&state.db.read, member).await?.ok_or_else(MastodonError::not_found)?;
    let edit = ProfileEdit::parse(
        body.display_name.as_deref().unwrap_or(&current.display_name),
        body.note.as_deref().unwrap_or(&current.bio),
        &current.website,
    )?;
    let mut received = Vec::new();
    for (field, which) in [("avatar", ProfileImage::Avatar), ("header", ProfileImage::Header)] {
        if let Some(file) = images.remove(field) {
            // Each image passes Murmur's checks as an upload; an unused upload is cleaned up later.
            received.push((super::media::receive(&state, member, file, None).await?, which));
        }
    }
    for (id, which) in received {
        let path = murmur_domain::media::object_path(&id);
        murmur_domain::media::set_profile_image(&state.db, &state.media, member, path, which, state.clock.now())
            .await?;
    }
    if body.display_name.is_some() || body.note.is_some() {
        store::update_profile(&state.db.write, member, &edit, None, state.clock.now()).await?;
    }
    Ok(Json(own_account(&state, member).await?))
}

async fn show(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
) -> Result<Json<entities::Account>> {
    let viewer = token.member("read:accounts")?;
    let member = visible_member(&state, viewer, id(&text)?).await?;
    let posts = store::post_count(&state.db.read, member.id).await?;
    Ok(Json(entities::account(&Urls::of(&state), &member, posts)))
}

#[derive(Deserialize)]
struct StatusesParams {
    #[serde(flatten)]
    paging: Paging,
    #[serde(default, deserialize_with = "lenient::bool")]
    exclude_replies: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool")]
    only_media: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool")]
    pinned: Option<bool>,
}

/// A member's posts, newest first: their Posts tab, with replies unless `exclude_replies`, or
/// their Media tab (`only_media`), or the posts they pinned (`pinned`).
async fn statuses(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(text): Path<String>,
    QueryParams(params): QueryParams<StatusesParams>,
) -> Result<Response> {
    let viewer = token.member("read:statuses")?;
    let member = visible_member(&state, viewer, id(&text)?).await?;
    let page = params.paging.page()?;
    use murmur_domain::posts::profile;
    if params.pinned == Some(true) {
        // Five at most: one page, newest pin first, with no further pages.
        let pinned = hydrate::list(&state.db.read, state.db.backend, viewer, &profile::pinned_of(member.id)).await?;
        let statuses = entities::statuses(&state, viewer, &pinned).await?;
        return Ok(axum::response::IntoResponse::into_response(Json(statuses)));
    }
    let posts = if params.only_media == Some(true) {
        hydrate::list(&state.db.read, state.db.backend, viewer, &profile::media_of(member.id, page)).await?
    } else if params.exclude_replies == Some(true) {
        hydrate::list(&state.db.read, state.db.backend, viewer, &profile::posts_of(member.id, page)).await?
    } else {
        // Posts and replies merged newest first: each tab's page is the newest `limit` of its
        // kind below the same id, so the merge's first `limit` are the newest of both.
        let mut both =
            hydrate::list(&state.db.read, state.db.backend, viewer, &profile::posts_of(member.id, page)).await?;
        both.extend(
            hydrate::list(&state.db.read, state.db.backend, viewer, &profile::replies_of(member.id, page)).await?,
        );
        both.sort_by_key(|post| std::cmp::Reverse(post.id));
        both.truncate(page.limit as usize);
        both
    };
    posts_page(&state, &uri, viewer, posts).await
}

async fn follow_list(
    state: &AppState,
    token: &Token,
    uri: &Uri,
    text: &str,
    paging: &Paging,
    list: FollowList,
) -> Result<Response> {
    let viewer = token.member("read:accounts")?;
    let member = visible_member(state, viewer, id(text)?).await?;
    let page = offset_page(paging)?;
    let listed = store::follow_list(&state.db.read, viewer, member.id, list, page).await?;
    let urls = Urls::of(state);
    let accounts: Vec<entities::Account> = listed.iter().map(|l| entities::account(&urls, &l.user, 0)).collect();
    let next = page.offset + accounts.len() as i64;
    paged(state, uri, accounts, |_| next)
}

async fn followers(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(text): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    follow_list(&state, &token, &uri, &text, &paging, FollowList::Followers).await
}

async fn following(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(text): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    follow_list(&state, &token, &uri, &text, &paging, FollowList::Following).await
}

/// Mastodon's Relationship of the viewer to each member.
async fn relationship(state: &AppState, viewer: i64, other: i64) -> Result<Value> {
    let now = state.clock.now();
    let standing = safety::store::standing(&state.db.read, viewer, other, now).await?;
    let following = murmur_domain::follows::store::is_following(&state.db.read, viewer, other).await?;
    let followed_by = murmur_domain::follows::store::is_following(&state.db.read, other, viewer).await?;
    Ok(json!({
        "id": other.to_string(),
        "following": following,
        "showing_reblogs": following,
        "notifying": false,
        "languages": null,
        "followed_by": followed_by,
        "blocking": standing.blocking,
        "blocked_by": standing.blocked_by,
        "muting": standing.muting.is_some(),
        "muting_notifications": standing.muting.is_some(),
        "muting_expires_at": standing.muting.flatten().map(murmur_core::clock::to_rfc3339),
        "requested": false,
        "requested_by": false,
        "domain_blocking": false,
        "endorsed": false,
        "note": "",
    }))
}

#[derive(Deserialize)]
struct RelationshipsParams {
    #[serde(default, deserialize_with = "lenient::ids")]
    id: Vec<i64>,
}

/// At most this many relationships are answered at once.
const MAX_RELATIONSHIPS: usize = 40;

async fn relationships(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<RelationshipsParams>,
) -> Result<Json<Vec<Value>>> {
    let viewer = token.member("read:follows")?;
    if params.id.len() > MAX_RELATIONSHIPS {
        return Err(MastodonError::unprocessable("At most 40 ids at once"));
    }
    let mut answers = Vec::with_capacity(params.id.len());
    for other in params.id {
        if store::find_live(&state.db.read, other).await?.is_some() {
            answers.push(relationship(&state, viewer, other).await?);
        }
    }
    Ok(Json(answers))
}

#[derive(Deserialize)]
struct LookupParams {
    acct: String,
}

async fn lookup(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<LookupParams>,
) -> Result<Json<entities::Account>> {
    let viewer = token.member("read:accounts")?;
    // `user` or `@user`; another server's `user@host` is nobody here.
    let name = params.acct.trim_start_matches('@');
    let name = match name.split_once('@') {
        Some((user, host)) if Some(host) == state.config.public_url.host_str() => user,
        Some(_) => return Err(MastodonError::not_found()),
        None => name,
    };
    let username = murmur_domain::users::Username::parse(name).map_err(|_| MastodonError::not_found())?;
    let member =
        store::find_by_username(&state.db.read, username.as_str()).await?.ok_or_else(MastodonError::not_found)?;
    let member = visible_member(&state, viewer, member.id).await?;
    let posts = store::post_count(&state.db.read, member.id).await?;
    Ok(Json(entities::account(&Urls::of(&state), &member, posts)))
}

#[derive(Deserialize)]
struct SearchParams {
    q: String,
    #[serde(default, deserialize_with = "lenient::i64")]
    limit: Option<i64>,
}

async fn search(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<SearchParams>,
) -> Result<Json<Vec<entities::Account>>> {
    let viewer = token.member("read:accounts")?;
    let term = murmur_domain::users::model::search_term(Some(params.q.trim_start_matches('@')))?;
    let limit = params.limit.unwrap_or(40).clamp(1, 80);
    let rows = store::search(&state.db.read, viewer, term, limit).await?;
    let urls = Urls::of(&state);
    Ok(Json(rows.iter().map(|row| entities::account(&urls, row, 0)).collect()))
}

async fn follow(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:follows")?;
    let other = id(&text)?;
    murmur_domain::follows::writes::follow_member(&state.db, viewer, other, state.clock.now()).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

async fn unfollow(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:follows")?;
    let other = id(&text)?;
    murmur_domain::follows::writes::unfollow(&state.db.write, viewer, other).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

async fn block(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:blocks")?;
    let other = id(&text)?;
    safety::block(&state.db, viewer, other, state.clock.now()).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

async fn unblock(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:blocks")?;
    let other = id(&text)?;
    safety::store::unblock(&state.db.write, viewer, other).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

#[derive(Deserialize)]
struct MuteParams {
    /// Seconds; 0 or none: until unmuted.
    #[serde(default, deserialize_with = "lenient::i64")]
    duration: Option<i64>,
}

async fn mute(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
    Params(params): Params<MuteParams>,
) -> Result<Json<Value>> {
    let viewer = token.member("write:mutes")?;
    let other = id(&text)?;
    let now = state.clock.now();
    let expires_at = match params.duration {
        None | Some(0) => None,
        // Murmur's mutes last whole hours: a duration is rounded up to the next hour.
        Some(seconds @ 1..=31_536_000) => Some(now + super::whole_hours(seconds) * HOUR),
        Some(_) => return Err(MastodonError::unprocessable("duration must be 0 to 31536000 seconds")),
    };
    safety::mute(&state.db, viewer, other, now, expires_at).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

async fn unmute(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:mutes")?;
    let other = id(&text)?;
    safety::store::unmute(&state.db.write, viewer, other).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}
