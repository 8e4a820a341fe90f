//! Statuses: writing (with `Idempotency-Key`), reading, deleting, a thread's context,
//! favourites, reblogs, bookmarks, edits and their history, and polls. Every write is the one
//! of Murmur's own API (`posts::writes`), so its rules and limits hold here too. A `direct`
//! status is a message (`conversations`).

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::accounts::id;
use super::auth::Token;
use super::conversations;
use super::entities::{self, Urls};
use super::error::{MastodonError, Result};
use super::paging::{Paging, offset_page, paged};
use super::params::{Params, QueryParams, lenient};
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_core::page::Page;
use murmur_domain::posts;
use murmur_domain::posts::Post;
use murmur_domain::posts::domain::{ContentWarning, ImageDescription, PollDuration, PollOptions, PostContent};
use murmur_domain::posts::hydrate;
use murmur_domain::posts::writes::{Draft, DraftImage};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/statuses", post(create))
        .route("/api/v1/statuses/{id}", get(show).delete(delete).put(edit))
        .route("/api/v1/statuses/{id}/context", get(context))
        .route("/api/v1/statuses/{id}/history", get(history))
        .route("/api/v1/statuses/{id}/source", get(source))
        .route("/api/v1/statuses/{id}/card", get(card))
        .route("/api/v1/statuses/{id}/favourite", post(favourite))
        .route("/api/v1/statuses/{id}/unfavourite", post(unfavourite))
        .route("/api/v1/statuses/{id}/reblog", post(reblog))
        .route("/api/v1/statuses/{id}/unreblog", post(unreblog))
        .route("/api/v1/statuses/{id}/favourited_by", get(favourited_by))
        .route("/api/v1/statuses/{id}/reblogged_by", get(reblogged_by))
        .route("/api/v1/statuses/{id}/pin", post(pin))
        .route("/api/v1/statuses/{id}/unpin", post(unpin))
        .route("/api/v1/statuses/{id}/bookmark", post(bookmark))
        .route("/api/v1/statuses/{id}/unbookmark", post(unbookmark))
        .route("/api/v1/bookmarks", get(bookmarks))
        .route("/api/v1/favourites", get(favourites))
        .route("/api/v1/polls/{id}", get(show_poll))
        .route("/api/v1/polls/{id}/votes", post(vote))
}

/// Post `id` as `viewer` sees it, and as their status: not found when they may not see it.
async fn post_and_status(state: &AppState, viewer: i64, id: i64) -> Result<(Post, Value)> {
    let post =
        hydrate::one(&state.db.read, state.db.backend, viewer, id).await?.ok_or_else(MastodonError::not_found)?;
    let status = entities::statuses(state, viewer, std::slice::from_ref(&post))
        .await?
        .pop()
        .ok_or_else(MastodonError::not_found)?;
    // Single statuses are answered as values: some answers add to them (`delete`'s text).
    Ok((post, serde_json::to_value(status).map_err(anyhow::Error::from)?))
}

/// Post `id` as a status for `viewer`: not found when they may not see it.
async fn status_of(state: &AppState, viewer: i64, id: i64) -> Result<Value> {
    Ok(post_and_status(state, viewer, id).await?.1)
}

#[derive(Deserialize, serde::Serialize)]
struct NewStatus {
    status: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    media_ids: Vec<String>,
    poll: Option<NewPoll>,
    #[serde(default, deserialize_with = "lenient::id")]
    in_reply_to_id: Option<i64>,
    /// Mastodon 4.5's quote of a post.
    #[serde(default, deserialize_with = "lenient::id")]
    quoted_status_id: Option<i64>,
    visibility: Option<String>,
    #[serde(default, deserialize_with = "lenient::bool")]
    sensitive: Option<bool>,
    spoiler_text: Option<String>,
    scheduled_at: Option<String>,
}

#[derive(Deserialize, serde::Serialize)]
struct NewPoll {
    #[serde(default, deserialize_with = "lenient::strings")]
    options: Vec<String>,
    /// Seconds.
    #[serde(default, deserialize_with = "lenient::i64")]
    expires_in: Option<i64>,
    #[serde(default, deserialize_with = "lenient::bool")]
    multiple: Option<bool>,
}

/// Murmur's posts are public (a `direct` status is a message: `check_message`), a post is
/// sensitive only by its content warning, and there are no scheduled posts yet: what an app asks
/// beyond that is refused, not dropped.
fn check_supported(body: &NewStatus) -> Result<()> {
    if body.visibility.as_deref().is_some_and(|v| v != "public") {
        return Err(MastodonError::unprocessable(
            "Murmur's posts are public: visibility must be public, or direct for a message",
        ));
    }
    check_sensitive(body.sensitive, body.spoiler_text.as_deref())?;
    if body.scheduled_at.is_some() {
        return Err(MastodonError::unprocessable("Murmur cannot schedule posts"));
    }
    Ok(())
}

/// `sensitive` without a content warning would hide images behind nothing Murmur's cards show.
fn check_sensitive(sensitive: Option<bool>, spoiler_text: Option<&str>) -> Result<()> {
    if sensitive == Some(true) && spoiler_text.is_none_or(|s| s.trim().is_empty()) {
        return Err(MastodonError::unprocessable(
            "Murmur marks a post sensitive by its content warning: add spoiler_text",
        ));
    }
    Ok(())
}

/// A message is text alone: what a post has beyond it is refused, not dropped.
fn check_message(body: &NewStatus) -> Result<()> {
    let refused = if !body.media_ids.is_empty() {
        Some("Messages from apps carry text only: media_ids is not taken with visibility direct")
    } else if body.poll.is_some() {
        Some("A message has no poll")
    } else if body.spoiler_text.as_deref().is_some_and(|s| !s.trim().is_empty()) || body.sensitive == Some(true) {
        Some("A message has no content warning")
    } else if body.quoted_status_id.is_some() {
        Some("A message quotes no post")
    } else if body.scheduled_at.is_some() {
        Some("Murmur cannot schedule messages")
    } else {
        None
    };
    refused.map_or(Ok(()), |refused| Err(MastodonError::unprocessable(refused)))
}

async fn create(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    Params(body): Params<NewStatus>,
) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    if body.visibility.as_deref() == Some("direct") {
        check_message(&body)?;
        let text = body.status.as_deref().unwrap_or_default();
        return Ok(Json(conversations::send(&state, member, text, body.in_reply_to_id, state.clock.now()).await?));
    }
    check_supported(&body)?;
    let key = AppState::keyed_request(&headers, "POST /api/v1/statuses", &body)?;
    murmur_domain::media::ensure_image_count(body.media_ids.len())?;
    let (options, duration, multiple) = match &body.poll {
        Some(poll) => (poll.options.clone(), PollDuration::from_seconds(poll.expires_in)?, poll.multiple == Some(true)),
        None => (Vec::new(), murmur_domain::posts::domain::POLL_DEFAULT, false),
    };
    let mut images = Vec::with_capacity(body.media_ids.len());
    for id in &body.media_ids {
        // The member's own uploads only, each with the description the app gave it.
        let image = murmur_domain::media::is_media_id(id)
            .then_some(id)
            .ok_or_else(|| MastodonError::unprocessable("media_ids names an unknown image"))?;
        let own = murmur_domain::media::own_image(&state.db.read, member, image)
            .await?
            .ok_or_else(|| MastodonError::unprocessable("media_ids names an unknown image"))?;
        let alt = ImageDescription::parse(own.description.as_deref())?;
        images.push(DraftImage { url: murmur_domain::media::object_path(image), alt });
    }
    let draft = Draft {
        content: PostContent::parse(body.status.as_deref().unwrap_or_default())?,
        content_warning: ContentWarning::parse(body.spoiler_text.as_deref())?,
        images,
        poll: PollOptions::parse(&options)?,
        duration,
        poll_multiple: multiple,
        reply_to_id: body.in_reply_to_id,
        quote_of_id: body.quoted_status_id,
        app_id: Some(token.0.app_id),
    };
    let id = state.post_writes().post(member, &draft, key.as_ref()).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

async fn show(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:statuses")?;
    let id = id(&text)?;
    if let Some(message) = entities::message_of_status(id) {
        return Ok(Json(conversations::message_status(&state, viewer, message).await?));
    }
    Ok(Json(status_of(&state, viewer, id).await?))
}

/// The post's preview card (an older Mastodon call, kept by apps): `{}` when it has none.
async fn card(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:statuses")?;
    let status = status_of(&state, viewer, id(&text)?).await?;
    let card = status.get("reblog").and_then(|r| r.get("card")).filter(|c| !c.is_null()).or_else(|| status.get("card"));
    Ok(Json(card.filter(|c| !c.is_null()).cloned().unwrap_or_else(|| json!({}))))
}

/// Deletes the member's post; answers it as it was, with its text (`text`), as Mastodon does
/// for "delete and redraft".
async fn delete(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let post_id = id(&text)?;
    if let Some(message) = entities::message_of_status(post_id) {
        return Ok(Json(conversations::delete_message(&state, member, message).await?));
    }
    let (post, mut before) = post_and_status(&state, member, post_id).await?;
    state.post_writes().delete(member, post_id).await?;
    before["text"] = json!(post.content);
    Ok(Json(before))
}

#[derive(Deserialize)]
struct EditStatus {
    status: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    media_ids: Vec<String>,
    #[serde(default, deserialize_with = "lenient::bool")]
    sensitive: Option<bool>,
    spoiler_text: Option<String>,
    /// Descriptions for the images the post keeps, by media id.
    #[serde(default)]
    media_attributes: Vec<MediaAttributes>,
}

#[derive(Deserialize)]
struct MediaAttributes {
    id: String,
    description: Option<String>,
}

/// Edits the member's post within its edit window: its text, its content warning (left out, it
/// stays; blank takes it away, as Mastodon's), which of its images stay, and their descriptions
/// (`media_attributes`; an image not named keeps its own).
async fn edit(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
    Params(body): Params<EditStatus>,
) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let content = PostContent::parse(body.status.as_deref().unwrap_or_default())?;
    check_sensitive(body.sensitive, body.spoiler_text.as_deref())?;
    let warning = body.spoiler_text.as_deref().map(|text| ContentWarning::parse(Some(text))).transpose()?;
    let kept: Vec<String> = body.media_ids.iter().map(|id| murmur_domain::media::object_path(id)).collect();
    // No media_ids: the post keeps its images, as Murmur's own edit without imageUrls.
    let kept = (!kept.is_empty()).then_some(kept);
    murmur_domain::media::ensure_image_count(body.media_attributes.len())?;
    let descriptions = body
        .media_attributes
        .iter()
        .map(|media| {
            Ok((murmur_domain::media::object_path(&media.id), ImageDescription::parse(media.description.as_deref())?))
        })
        .collect::<murmur_core::error::Result<Vec<_>>>()?;
    let id = state
        .post_writes()
        .edit(member, id(&text)?, &content, warning.as_ref().map(Option::as_ref), kept.as_deref(), &descriptions)
        .await?;
    Ok(Json(status_of(&state, member, id).await?))
}

/// Ancestors, top first, and the replies below the post (Murmur's thread: its replies, oldest
/// first); of a message, the messages before and after it in its conversation.
async fn context(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:statuses")?;
    let post_id = id(&text)?;
    if let Some(message) = entities::message_of_status(post_id) {
        return Ok(Json(conversations::context(&state, viewer, message).await?));
    }
    // Not found unless the viewer may see the post itself.
    status_of(&state, viewer, post_id).await?;
    // Parents and replies holding a muted word come folded: filtered with a warning, as apps show it.
    let thread =
        murmur_domain::posts::thread::read(&state.db.read, state.db.backend, viewer, post_id, state.clock.now())
            .await?;
    Ok(Json(json!({
        "ancestors": entities::statuses(&state, viewer, &thread.ancestors).await?,
        "descendants": entities::statuses(&state, viewer, &thread.replies).await?,
    })))
}

/// The post's versions, oldest first, ending with the current one (as Mastodon lists them).
async fn history(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Vec<Value>>> {
    let viewer = token.member("read:statuses")?;
    let current = status_of(&state, viewer, id(&text)?).await?;
    let post_id: i64 = current["id"].as_str().and_then(|id| id.parse().ok()).unwrap_or_default();
    let versions = posts::history(&state.db.read, post_id, Page::new(50, 0)).await?;
    let urls = Urls::of(&state);
    let mut answer: Vec<Value> = versions
        .iter()
        .rev()
        .map(|version| {
            json!({
                "content": entities::content_html(&urls, &version.content, &[]),
                "spoiler_text": version.spoiler_text.as_deref().unwrap_or_default(),
                "sensitive": version.spoiler_text.is_some(),
                "created_at": to_rfc3339(version.written_at),
                "account": current["account"],
                "media_attachments": version
                    .images
                    .iter()
                    .map(|(media_id, alt)| {
                        let path = murmur_domain::media::object_path(media_id);
                        entities::media_attachment(&urls, media_id, &path, (None, None), alt.as_deref())
                    })
                    .collect::<Vec<Value>>(),
                "emojis": [],
            })
        })
        .collect();
    answer.push(json!({
        "content": current["content"],
        "spoiler_text": current["spoiler_text"],
        "sensitive": current["sensitive"],
        "created_at": current["edited_at"].as_str().map(str::to_string).unwrap_or_else(|| current["created_at"].as_str().unwrap_or_default().to_string()),
        "account": current["account"],
        "media_attachments": current["media_attachments"],
        "emojis": [],
    }));
    Ok(Json(answer))
}

/// The post's text as written, for an app's edit box.
async fn source(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:statuses")?;
    let post_id = id(&text)?;
    let (post, _) = post_and_status(&state, viewer, post_id).await?;
    Ok(Json(json!({
        "id": post_id.to_string(),
        "text": post.content,
        "spoiler_text": post.spoiler_text.unwrap_or_default(),
    })))
}

/// Mastodon refuses another member's post with 422, and Murmur's domain with 404 (as a post
/// that is not there): one the member may see but did not write answers Mastodon's refusal.
async fn own_or_refused(state: &AppState, member: i64, post_id: i64) -> Result<()> {
    let (post, _) = post_and_status(state, member, post_id).await?;
    if post.author.id != member || post.repost_of_id.is_some() {
        return Err(MastodonError::unprocessable("Validation failed: Someone else's post cannot be pinned"));
    }
    Ok(())
}

async fn pin(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:accounts")?;
    let post_id = id(&text)?;
    own_or_refused(&state, member, post_id).await?;
    let id = state.post_writes().pin(member, post_id).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

async fn unpin(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:accounts")?;
    let post_id = id(&text)?;
    own_or_refused(&state, member, post_id).await?;
    let id = state.post_writes().unpin(member, post_id).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

async fn favourite(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:favourites")?;
    let id = state.post_writes().like(member, id(&text)?).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

async fn unfavourite(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:favourites")?;
    let id = state.post_writes().unlike(member, id(&text)?).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

/// Reposts; answers the repost, with the original in `reblog`. Reposting again answers the
/// existing repost's original, as Mastodon does.
async fn reblog(
    State(state): State<AppState>,
    token: Token,
    headers: HeaderMap,
    Path(text): Path<String>,
) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let target = id(&text)?;
    // The post reposted is the request's whole content: its id in the path.
    let key = AppState::keyed_request(&headers, "POST /api/v1/statuses/:id/reblog", &target)?;
    match state.post_writes().repost(member, target, key.as_ref()).await {
        Ok(repost) => Ok(Json(status_of(&state, member, repost).await?)),
        Err(murmur_core::error::Error::Conflict(why)) if why == murmur_domain::posts::writes::ALREADY_REPOSTED => {
            Ok(Json(status_of(&state, member, target).await?))
        }
        Err(other) => Err(other.into()),
    }
}

async fn unreblog(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let target = id(&text)?;
    state.post_writes().unrepost(member, target).await?;
    Ok(Json(status_of(&state, member, target).await?))
}

async fn bookmark(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:bookmarks")?;
    let id = state.post_writes().bookmark(member, id(&text)?).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

async fn unbookmark(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:bookmarks")?;
    let id = state.post_writes().unbookmark(member, id(&text)?).await?;
    Ok(Json(status_of(&state, member, id).await?))
}

/// Who liked a post, or reposted it, newest first (paged by offset), as `viewer` may see them.
async fn members_of(
    state: &AppState,
    uri: &Uri,
    token: &Token,
    text: &str,
    paging: &Paging,
    reposters: bool,
) -> Result<Response> {
    let viewer = token.member("read:statuses")?;
    let post_id = id(text)?;
    status_of(state, viewer, post_id).await?;
    let page = offset_page(paging)?;
    let ids = posts::likers_or_reposters(&state.db.read, viewer, post_id, reposters, page).await?;
    let rows = murmur_domain::users::find_many(&state.db.read, &ids).await?;
    let urls = Urls::of(state);
    // In the list's order.
    let accounts: Vec<entities::Account> = ids
        .iter()
        .filter_map(|id| rows.iter().find(|row| row.id == *id))
        .map(|row| entities::account(&urls, row, 0))
        .collect();
    let next = page.offset + ids.len() as i64;
    paged(state, uri, accounts, |_| next)
}

async fn favourited_by(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(text): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    members_of(&state, &uri, &token, &text, &paging, false).await
}

async fn reblogged_by(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    Path(text): Path<String>,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    members_of(&state, &uri, &token, &text, &paging, true).await
}

/// The member's bookmarks, newest bookmark first (paged by offset).
async fn bookmarks(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:bookmarks")?;
    marked(&state, &uri, viewer, &paging, murmur_domain::posts::profile::bookmarks).await
}

/// The posts the member liked, newest like first (paged by offset).
async fn favourites(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:favourites")?;
    marked(&state, &uri, viewer, &paging, murmur_domain::posts::profile::liked_by).await
}

async fn marked(
    state: &AppState,
    uri: &Uri,
    viewer: i64,
    paging: &Paging,
    select: fn(i64, Page) -> hydrate::Selection,
) -> Result<Response> {
    let page = offset_page(paging)?;
    let posts = hydrate::list(&state.db.read, state.db.backend, viewer, &select(viewer, page)).await?;
    let statuses = entities::statuses(state, viewer, &posts).await?;
    let next = page.offset + posts.len() as i64;
    paged(state, uri, statuses, |_| next)
}

async fn show_poll(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let viewer = token.member("read:statuses")?;
    let status = status_of(&state, viewer, id(&text)?).await?;
    poll_of(status)
}

/// A status's poll; not found when it has none.
fn poll_of(mut status: Value) -> Result<Json<Value>> {
    match status["poll"].take() {
        Value::Null => Err(MastodonError::not_found()),
        poll => Ok(Json(poll)),
    }
}

#[derive(Deserialize)]
struct Vote {
    #[serde(default, deserialize_with = "lenient::ids")]
    choices: Vec<i64>,
}

async fn vote(
    State(state): State<AppState>,
    token: Token,
    Path(text): Path<String>,
    Params(body): Params<Vote>,
) -> Result<Json<Value>> {
    let member = token.member("write:statuses")?;
    let post_id = id(&text)?;
    let post =
        hydrate::one(&state.db.read, state.db.backend, member, post_id).await?.ok_or_else(MastodonError::not_found)?;
    let options = body
        .choices
        .iter()
        .map(|&choice| {
            usize::try_from(choice)
                .ok()
                .and_then(|index| post.poll_options.get(index).cloned())
                .ok_or_else(|| MastodonError::unprocessable("That choice is not in this poll"))
        })
        .collect::<Result<Vec<String>>>()?;
    let id = state.post_writes().vote(member, post_id, &options).await?;
    poll_of(status_of(&state, member, id).await?)
}
