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
use super::paging::{Paging, offset_page, paged, posts_page};
use super::params::{Params, QueryParams, lenient};
use crate::state::AppState;
use axum::extract::FromRequest;
use murmur_domain::media::ProfileImage;
use murmur_domain::profiles::{self, Profile, Tab};
use murmur_domain::safety;
use murmur_domain::users::UserRow;
use murmur_domain::users::model::ProfileEdit;
use murmur_domain::users::{self, FollowList};

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
        .route("/api/v1/accounts/familiar_followers", get(familiar_followers))
        .route("/api/v1/accounts/{id}", get(show))
        .route("/api/v1/accounts/{id}/statuses", get(statuses))
        .route("/api/v1/accounts/{id}/followers", get(followers))
        .route("/api/v1/accounts/{id}/following", get(following))
        .route("/api/v1/accounts/{id}/featured_tags", get(featured_tags))
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

/// The member `id` as `viewer` may read their account (`profiles::by_id`), Mastodon's "Record
/// not found" when they may not.
async fn readable_member(state: &AppState, viewer: i64, id: i64) -> Result<Profile> {
    match profiles::by_id(&state.db, viewer, id, state.clock.now()).await {
        Err(murmur_core::error::Error::NotFound(_)) => Err(MastodonError::not_found()),
        other => Ok(other?),
    }
}

/// The username a handle names on this instance: `ada`, `@ada`, or `ada@` followed by this
/// instance's host (with or without its port); None for another server's handle.
fn local_username<'a>(state: &AppState, handle: &'a str) -> Option<&'a str> {
    let handle = handle.trim().trim_start_matches('@');
    let Some((name, host)) = handle.split_once('@') else { return Some(handle) };
    let url = &state.config.public_url;
    let host_str = url.host_str().unwrap_or_default();
    let with_port = url.port().map(|port| format!("{host_str}:{port}"));
    let own = host.eq_ignore_ascii_case(host_str) || with_port.is_some_and(|h| host.eq_ignore_ascii_case(&h));
    own.then_some(name)
}

/// The member a handle names (`local_username`), as `viewer` may read them; None when it names
/// nobody they may read.
async fn member_by_handle(state: &AppState, viewer: i64, handle: &str) -> Result<Option<Profile>> {
    let Some(username) = local_username(state, handle).and_then(|n| murmur_domain::users::Username::parse(n).ok())
    else {
        return Ok(None);
    };
    match profiles::by_username(&state.db, viewer, username.as_str(), state.clock.now()).await {
        Ok(profile) => Ok(Some(profile)),
        Err(murmur_core::error::Error::NotFound(_)) => Ok(None),
        Err(other) => Err(other.into()),
    }
}

/// Members as apps search for them (`term` as `search_term` checked it): the member a handle
/// names first, whether `ada`, `@ada` or `ada@` this host, one the viewer blocked included (so
/// an app finds them to unblock), then those whose name holds the term; at most `limit`.
pub(super) async fn search_accounts(
    state: &AppState,
    viewer: i64,
    term: &str,
    limit: i64,
) -> Result<Vec<entities::Account>> {
    // One who blocked the viewer is not offered, as Murmur's search does not offer them.
    let by_handle = member_by_handle(state, viewer, term).await?.filter(|profile| !profile.shut_out);
    let mut rows: Vec<UserRow> = by_handle.map(|profile| profile.member).into_iter().collect();
    let name = local_username(state, term).unwrap_or_else(|| term.trim_start_matches('@'));
    if let Ok(name) = murmur_domain::users::model::search_term(Some(name)) {
        for row in users::search(&state.db.read, viewer, name, limit).await? {
            if !rows.iter().any(|found| found.id == row.id) {
                rows.push(row);
            }
        }
    }
    rows.truncate(usize::try_from(limit).unwrap_or(0));
    let urls = Urls::of(state);
    Ok(rows.iter().map(|row| entities::account(&urls, row, 0)).collect())
}

async fn own_account(state: &AppState, member: i64) -> Result<entities::Account> {
    let row = users::find_live(&state.db.read, member).await?.ok_or_else(MastodonError::not_found)?;
    let posts = users::post_count(&state.db.read, member).await?;
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
    #[serde(default, deserialize_with = "lenient::bool")]
    locked: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool")]
    bot: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool")]
    discoverable: Option<bool>,
    #[serde(default)]
    source: Source,
}

#[derive(Default, Deserialize)]
struct Source {
    privacy: Option<String>,
    #[serde(default, deserialize_with = "lenient::bool")]
    sensitive: Option<bool>,
}

impl Credentials {
    /// The settings asked for that Murmur does not offer (each named as an app sends it); a
    /// value equal to what every Murmur account is (`locked=false`) asks for nothing.
    fn not_offered(&self) -> Vec<&'static str> {
        let privacy = self.source.privacy.as_deref().filter(|p| !p.is_empty());
        [
            (self.locked == Some(true), "locked accounts (locked)"),
            (self.bot == Some(true), "bot accounts (bot)"),
            (self.discoverable == Some(false), "accounts kept out of discovery (discoverable)"),
            (privacy.is_some_and(|p| p != "public"), "posts that are not public (source[privacy])"),
            (self.source.sensitive == Some(true), "media marked sensitive by default (source[sensitive])"),
        ]
        .into_iter()
        .filter_map(|(asked, what)| asked.then_some(what))
        .collect()
    }
}

/// Changes the display name, bio, avatar and header (the website stays as set in Murmur). Apps
/// send a multipart form when it carries images, else JSON or a form. Settings Murmur does not
/// offer (a locked or bot account, posts that are not public) are refused by name, rather than
/// answered as if kept.
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
        let fields = form.fields.iter().map(|(key, value)| (key.into(), value.into()));
        let body = serde_json::from_value(super::params::from_pairs(fields)?)
            .map_err(|e| MastodonError::unprocessable(format!("Invalid parameters: {e}")))?;
        (body, form.files)
    } else {
        let Params(body) = Params::<Credentials>::from_request(request, &state).await?;
        (body, Default::default())
    };
    // Everything is checked before anything is kept, so a refusal changes nothing.
    let not_offered = body.not_offered();
    if !not_offered.is_empty() {
        return Err(MastodonError::unprocessable(format!("Murmur does not offer {}", not_offered.join(", "))));
    }
    let current = users::find_live(&state.db.read, member).await?.ok_or_else(MastodonError::not_found)?;
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
        users::update_profile(&state.db.write, member, &edit, None, state.clock.now()).await?;
    }
    Ok(Json(own_account(&state, member).await?))
}

async fn show(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
) -> Result<Json<entities::Account>> {
    let viewer = token.member("read:accounts")?;
    let profile = readable_member(&state, viewer, id(&text)?).await?;
    Ok(Json(account_read(&state, &profile).await?))
}

/// A member's account read on its own, with their post count (none for a member the viewer
/// blocked).
async fn account_read(state: &AppState, profile: &Profile) -> Result<entities::Account> {
    let posts = profiles::post_count(&state.db, profile).await?;
    Ok(entities::account(&Urls::of(state), &profile.member, posts))
}

/// The tags a member features on their profile: Murmur has none, so an empty list, for a member
/// the caller may see (apps ask for it with every profile they open).
async fn featured_tags(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:accounts")?;
    readable_member(&state, viewer, id(&text)?).await?;
    Ok(Json(json!([])))
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
    let profile = readable_member(&state, viewer, id(&text)?).await?;
    let tab = if params.pinned == Some(true) {
        Tab::Pinned
    } else if params.only_media == Some(true) {
        Tab::Media
    } else if params.exclude_replies == Some(true) {
        Tab::Posts
    } else {
        Tab::PostsAndReplies
    };
    let posts = profiles::posts(&state.db, viewer, &profile, tab, params.paging.page()?, state.clock.now()).await?;
    if tab == Tab::Pinned {
        // Five at most: one page, newest pin first, with no further pages.
        let statuses = entities::statuses(&state, viewer, &posts).await?;
        return Ok(axum::response::IntoResponse::into_response(Json(statuses)));
    }
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
    let profile = readable_member(state, viewer, id(text)?).await?;
    let page = offset_page(paging)?;
    let listed = profiles::follow_list(&state.db, viewer, &profile, list, page).await?;
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
    let standing = safety::standing(&state.db.read, viewer, other, now).await?;
    let following = murmur_domain::follows::is_following(&state.db.read, viewer, other).await?;
    let followed_by = murmur_domain::follows::is_following(&state.db.read, other, viewer).await?;
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
        if users::find_live(&state.db.read, other).await?.is_some() {
            answers.push(relationship(&state, viewer, other).await?);
        }
    }
    Ok(Json(answers))
}

/// For each member asked about, the members the viewer follows who follow them (hidden members
/// left out; none for a member the viewer may not read).
async fn familiar_followers(
    State(state): State<AppState>,
    token: Token,
    QueryParams(params): QueryParams<RelationshipsParams>,
) -> Result<Json<Vec<Value>>> {
    let viewer = token.member("read:follows")?;
    if params.id.len() > MAX_RELATIONSHIPS {
        return Err(MastodonError::unprocessable("At most 40 ids at once"));
    }
    let urls = Urls::of(&state);
    let mut answers = Vec::with_capacity(params.id.len());
    for other in params.id {
        let profile = match readable_member(&state, viewer, other).await {
            Ok(profile) => profile,
            Err(MastodonError(murmur_core::error::Error::NotFound(_))) => continue,
            Err(other) => return Err(other),
        };
        let familiar = profiles::familiar_followers(&state.db, viewer, &profile).await?;
        let accounts: Vec<entities::Account> = familiar.iter().map(|row| entities::account(&urls, row, 0)).collect();
        answers.push(json!({ "id": other.to_string(), "accounts": accounts }));
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
    // `user`, `@user` or `user@` this host; another server's `user@host` is nobody here.
    let profile = member_by_handle(&state, viewer, &params.acct).await?.ok_or_else(MastodonError::not_found)?;
    Ok(Json(account_read(&state, &profile).await?))
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
    let term = murmur_domain::users::model::search_term(Some(&params.q))?;
    let limit = params.limit.unwrap_or(40).clamp(1, 80);
    Ok(Json(search_accounts(&state, viewer, term, limit).await?))
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
    safety::unblock(&state.db.write, viewer, other).await?;
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
    let length = safety::MuteLength::from_seconds(params.duration)?;
    safety::mute(&state.db, viewer, other, state.clock.now(), length).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}

async fn unmute(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("write:mutes")?;
    let other = id(&text)?;
    safety::unmute(&state.db.write, viewer, other).await?;
    Ok(Json(relationship(&state, viewer, other).await?))
}
