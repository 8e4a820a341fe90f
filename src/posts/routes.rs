//! HTTP routes of posts: writing, reposting, liking, voting, deleting, and reading a thread.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use sqlx::pool::PoolConnection;
use sqlx::{Any, Connection};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::domain::{PollDuration, PollOptions, PostContent, mentions};
use super::hydrate;
use super::model::Post;
use super::store::{self, Counter, NewPost, PostRef};
use crate::accounts::CurrentUser;
use crate::api::{Json, MAX_PAGE, Page, PageParams, Path, Query};
use crate::app::AppState;
use crate::clock::MINUTE;
use crate::error::{Error, ErrorBody, Result};
use crate::feeds::changes;
use crate::notifications::{self, Kind};
use crate::rate_limit::{self, Limit};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(delete))
        .routes(routes!(like, unlike))
        .routes(routes!(unrepost))
        .routes(routes!(vote))
        .routes(routes!(thread))
        .routes(routes!(thread_replies))
}

/// Generous per-member limits: a person never meets them, a script soon does.
const POSTS_PER_MINUTE: Limit = Limit {
    max: 30,
    window: MINUTE,
};
const LIKES_PER_MINUTE: Limit = Limit {
    max: 120,
    window: MINUTE,
};

/// A new post, reply or repost.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePost {
    /// 1 to 500 characters after trimming. Ignored on a repost (stored as "♻️").
    #[serde(default)]
    #[schema(min_length = 1, max_length = 500)]
    pub content: String,
    /// At most 4 uploaded images (the URLs the upload call answered).
    #[serde(default)]
    #[schema(max_items = 4)]
    pub image_urls: Vec<String>,
    /// Blank options are dropped; then 2 to 4 distinct options of at most 80 characters.
    #[serde(default)]
    #[schema(schema_with = poll_options_schema)]
    pub poll_options: Vec<String>,
    /// How long the poll stays open: 1 to 168 hours (default 24).
    #[schema(minimum = 1, maximum = 168)]
    pub poll_duration_hours: Option<i64>,
    /// The post this one answers.
    #[schema(minimum = 1)]
    pub reply_to_id: Option<i64>,
    /// Makes this a repost of that post (reposting a repost reposts its original).
    #[schema(minimum = 1)]
    pub repost_of_id: Option<i64>,
}

/// `pollOptions` in the document: the item bound (80 characters) cannot be said with a field
/// attribute on a `Vec<String>`.
fn poll_options_schema() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(ObjectBuilder::new().schema_type(Type::String).max_length(Some(80)))
        .max_items(Some(4))
        .unique_items(true)
        .description(Some("Blank options are dropped; then 2 to 4 distinct options of at most 80 characters."))
        .build()
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VoteRequest {
    /// The text of the chosen option.
    #[schema(min_length = 1, max_length = 80)]
    pub option: String,
}

#[derive(Serialize, ToSchema)]
pub struct Thread {
    pub post: Post,
    /// Live replies, oldest first (the first 200; `/api/posts/{id}/replies` pages through all).
    pub replies: Vec<Post>,
    /// The chain of posts above `post`, top first (deleted ones as placeholders).
    pub ancestors: Vec<Post>,
}

/// Writes a post, a reply (`replyToId`) or a repost (`repostOfId`).
///
/// A repost's content is ignored: the spec's client sends "♻️", and that is what is stored.
/// A member reposts a post once; a second attempt is a 409 "Already reposted".
#[utoipa::path(post, path = "/api/posts", tag = "posts", operation_id = "create_post", request_body = CreatePost,
    responses((status = 201, body = Post, links(
                  ("thread" = (operation_id = "thread", parameters(("id" = "$response.body#/id")),
                      description = "The new post's thread")),
                  ("like" = (operation_id = "like", parameters(("id" = "$response.body#/id")),
                      description = "Likes the new post")),
                  ("unlike" = (operation_id = "unlike", parameters(("id" = "$response.body#/id")),
                      description = "Takes back a like of the new post")),
                  ("vote" = (operation_id = "vote", parameters(("id" = "$response.body#/id")),
                      description = "Votes in the new post's poll")),
                  ("unrepost" = (operation_id = "unrepost", parameters(("id" = "$response.body#/id")),
                      description = "Undoes the caller's repost of the new post")),
                  ("delete" = (operation_id = "delete", parameters(("id" = "$response.body#/id")),
                      description = "Deletes the new post")))),
              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<CreatePost>,
) -> Result<(StatusCode, Json<Post>)> {
    let id = match body.repost_of_id {
        Some(original) => {
            if body.reply_to_id.is_some()
                || !body.image_urls.is_empty()
                || body.poll_options.iter().any(|o| !o.trim().is_empty())
            {
                return Err(Error::bad_request(
                    "A repost cannot have images, a poll or a reply",
                ));
            }
            let writer = posting_allowed(&state, current.id).await?;
            repost(&state, writer, current.id, original).await?
        }
        None => {
            let content = PostContent::parse(&body.content)?;
            if body.image_urls.len() > crate::media::MAX_IMAGES {
                return Err(Error::bad_request("A post can have at most 4 images"));
            }
            let poll = PollOptions::parse(&body.poll_options)?;
            let duration = PollDuration::parse(body.poll_duration_hours)?;
            let writer = posting_allowed(&state, current.id).await?;
            write_post(
                &state,
                writer,
                current.id,
                &content,
                &body.image_urls,
                poll.as_ref(),
                duration,
                body.reply_to_id,
            )
            .await?
        }
    };
    let post = hydrate::one(&state.db.read, state.db.backend, current.id, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    Ok((StatusCode::CREATED, Json(post)))
}

/// Counts one post (or repost) against the member's allowance; 429 once it is spent. Answers
/// the writer's connection for the post (`rate_limit::hit_then_write`).
async fn posting_allowed(state: &AppState, member: i64) -> Result<PoolConnection<Any>> {
    let key = format!("post:{member}");
    let message = "You are posting too fast. Please wait a minute.";
    rate_limit::hit_then_write(&state.db, &key, POSTS_PER_MINUTE, state.clock.now(), message).await
}

#[allow(clippy::too_many_arguments)]
async fn write_post(
    state: &AppState,
    writer: PoolConnection<Any>,
    author: i64,
    content: &PostContent,
    image_urls: &[String],
    poll: Option<&PollOptions>,
    duration: PollDuration,
    reply_to_id: Option<i64>,
) -> Result<i64> {
    // Bucket uploads are fetched and checked with the writer let go, so no write waits on the
    // bucket; the post then takes its turn at the writer again.
    let mut writer = if image_urls.is_empty() {
        writer
    } else {
        drop(writer);
        crate::media::prepare(state, author, image_urls).await?;
        state.db.write.acquire().await?
    };
    let now = state.clock.now();
    let mut tx = writer.begin().await?;
    // A reply to a repost answers the original (reposts have no threads of their own).
    let parent: Option<PostRef> = match reply_to_id {
        Some(id) => Some(
            store::live_original(&mut tx, id)
                .await?
                .ok_or_else(|| Error::bad_request("replyToId must name an existing post"))?,
        ),
        None => None,
    };
    // A reply changes the count of a post that may be on the author's own Friends page.
    let changing = changes::member_changed(&mut tx, author).await?;
    let media_ids = crate::media::claim(&state.media, &mut tx, author, image_urls, now).await?;
    let new = NewPost {
        author_id: author,
        content: content.as_str(),
        reply_to_id: parent.as_ref().map(|p| p.id),
        poll: poll.map(|p| (p.as_slice(), now + duration.millis())),
        images: &media_ids,
        now,
    };
    let id = store::insert_post(&mut tx, &new).await?;
    // Replies are read in threads, not in the Friends feed.
    let after_commit = match parent {
        None => Some(changing.published(&mut tx, id).await?),
        Some(_) => None,
    };
    if let Some(parent) = &parent {
        if !store::bump(&mut tx, parent.id, Counter::Replies, 1).await? {
            return Err(Error::bad_request("replyToId must name an existing post"));
        }
        notifications::notify(&mut tx, parent.author_id, author, Kind::Reply, id, now).await?;
    }
    let mentioned = store::member_ids_by_username(&mut tx, &mentions(content.as_str())).await?;
    for member in mentioned {
        // The parent's author already hears about this post as a reply.
        if parent.as_ref().is_some_and(|p| p.author_id == member) {
            continue;
        }
        notifications::notify(&mut tx, member, author, Kind::Mention, id, now).await?;
    }
    tx.commit().await?;
    if let Some(after_commit) = after_commit {
        after_commit.run(&state.fan_out);
    }
    Ok(id)
}

async fn repost(
    state: &AppState,
    mut writer: PoolConnection<Any>,
    member: i64,
    target: i64,
) -> Result<i64> {
    let now = state.clock.now();
    let mut tx = writer.begin().await?;
    let original = store::live_original(&mut tx, target)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    let changing = changes::member_changed(&mut tx, member).await?;
    let id = store::insert_repost(&mut tx, member, original.id, now)
        .await?
        .ok_or_else(|| Error::conflict("Already reposted"))?;
    let after_commit = changing.published(&mut tx, id).await?;
    if !store::bump(&mut tx, original.id, Counter::Reposts, 1).await? {
        return Err(Error::not_found("Post not found"));
    }
    notifications::notify(
        &mut tx,
        original.author_id,
        member,
        Kind::Repost,
        original.id,
        now,
    )
    .await?;
    tx.commit().await?;
    after_commit.run(&state.fan_out);
    Ok(id)
}

/// Deletes one of the caller's posts. A repost is simply removed; any other post is
/// soft-deleted: its text, images, poll, likes, reposts and the notifications about it go, its
/// replies stay (still pointing at it) and its parent counts one reply fewer.
#[utoipa::path(delete, path = "/api/posts/{id}", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn delete(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode> {
    let now = state.clock.now();
    let mut tx = state.db.write.begin().await?;
    let post = store::find_ref(&mut tx, id)
        .await?
        .filter(|p| p.deleted_at.is_none())
        .ok_or_else(|| Error::not_found("Post not found"))?;
    if post.author_id != current.id {
        return Err(Error::forbidden("You can only delete your own posts"));
    }
    // Before the post leaves the timelines: a follow copying it waits, then sees it deleted.
    let changing = changes::member_changed(&mut tx, current.id).await?;
    match post.repost_of_id {
        Some(original) => undo_repost(&mut tx, current.id, original).await?,
        None => {
            if !store::soft_delete(&mut tx, id, now).await? {
                return Err(Error::not_found("Post not found"));
            }
            changing.removed(&mut tx, id).await?;
            notifications::store::remove_about_post(&mut tx, id).await?;
            if let Some(parent) = post.reply_to_id {
                store::reply_removed(&mut tx, parent).await?;
            }
        }
    }
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Removes `member`'s repost of `original` with its count and unread notification.
async fn undo_repost(tx: &mut sqlx::AnyConnection, member: i64, original: i64) -> Result<()> {
    if !store::delete_repost(&mut *tx, member, original).await? {
        return Err(Error::not_found("You have not reposted this post"));
    }
    store::bump(&mut *tx, original, Counter::Reposts, -1).await?;
    if let Some(original) = store::find_ref(&mut *tx, original).await? {
        notifications::withdraw(
            &mut *tx,
            original.author_id,
            member,
            Kind::Repost,
            original.id,
        )
        .await?;
    }
    Ok(())
}

/// Undoes the caller's repost of post `id` (or of its original, when `id` is a repost).
#[utoipa::path(delete, path = "/api/posts/{id}/repost", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unrepost(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode> {
    let mut tx = state.db.write.begin().await?;
    let original = store::live_original(&mut tx, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    changes::member_changed(&mut tx, current.id).await?;
    undo_repost(&mut tx, current.id, original.id).await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Likes a post (a repost: its original). Liking twice changes nothing. Answers the post.
#[utoipa::path(post, path = "/api/posts/{id}/like", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn like(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Post>> {
    let now = state.clock.now();
    let post = {
        let mut writer = rate_limit::hit_then_write(
            &state.db,
            &format!("like:{}", current.id),
            LIKES_PER_MINUTE,
            now,
            "You are liking too fast. Please wait a minute.",
        )
        .await?;
        let mut tx = writer.begin().await?;
        changes::member_changed(&mut tx, current.id).await?;
        let post = store::like(&mut tx, state.db.backend, current.id, id, now)
            .await?
            .ok_or_else(|| Error::not_found("Post not found"))?;
        tx.commit().await?;
        post
    };
    answer(&state, current.id, post).await
}

/// Takes back a like; unliking a post not liked changes nothing. Answers the post.
#[utoipa::path(delete, path = "/api/posts/{id}/like", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unlike(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Post>> {
    let mut tx = state.db.write.begin().await?;
    changes::member_changed(&mut tx, current.id).await?;
    let post = store::unlike(&mut tx, state.db.backend, current.id, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    tx.commit().await?;
    answer(&state, current.id, post).await
}

/// Votes in a post's poll, once. Answers the post with the new tally.
#[utoipa::path(post, path = "/api/posts/{id}/vote", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    request_body = VoteRequest,
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn vote(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<VoteRequest>,
) -> Result<Json<Post>> {
    // No option holds U+0000 (PollOptions refuses it) and PostgreSQL refuses it in a parameter.
    if body.option.contains('\0') {
        return Err(Error::bad_request("That option is not in this poll"));
    }
    let now = state.clock.now();
    let mut tx = state.db.write.begin().await?;
    changes::member_changed(&mut tx, current.id).await?;
    let post = store::live_original(&mut tx, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    if !store::lock_live(&mut tx, post.id).await? {
        return Err(Error::not_found("Post not found"));
    }
    let expires_at = post
        .poll_expires_at
        .ok_or_else(|| Error::bad_request("This post has no poll"))?;
    if now >= expires_at {
        return Err(Error::bad_request("This poll has ended"));
    }
    let position = store::poll_position(&mut tx, post.id, &body.option)
        .await?
        .ok_or_else(|| Error::bad_request("That option is not in this poll"))?;
    if !store::insert_vote(&mut tx, post.id, current.id, position, now).await? {
        return Err(Error::conflict("You have already voted"));
    }
    tx.commit().await?;
    answer(&state, current.id, post.id).await
}

/// A post with the posts above it and its replies. A repost's thread is its original's.
#[utoipa::path(get, path = "/api/posts/{id}/thread", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Thread), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn thread(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Thread>> {
    let pool = &state.db.read;
    let post = live_original(&state, id).await?;
    let mut ancestors = Vec::new();
    let mut main = None;
    let mut replies = Vec::new();
    for (ord, found) in hydrate::list_with_ord(pool, state.db.backend, current.id, &store::thread(post.id)).await? {
        match ord {
            ..0 => ancestors.push(found),
            0 => main = Some(found),
            _ => replies.push(found),
        }
    }
    let post = main.ok_or_else(|| Error::not_found("Post not found"))?;
    Ok(Json(Thread {
        post,
        replies,
        ancestors,
    }))
}

/// A page of a post's live replies, oldest first, as in its thread: for reading past the
/// thread's first 200. A repost stands for its original.
#[utoipa::path(get, path = "/api/posts/{id}/replies", tag = "posts",
    params(("id" = i64, Path, minimum = 1, description = "Post id"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn thread_replies(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    let page = Page::parse(&params, 20, MAX_PAGE)?;
    let post = live_original(&state, id).await?;
    let selection = store::replies(post.id, page);
    Ok(Json(
        hydrate::list(&state.db.read, state.db.backend, current.id, &selection).await?,
    ))
}

/// The live post a read is about (a repost's original); 404 when unknown or deleted.
async fn live_original(state: &AppState, id: i64) -> Result<store::PostRef> {
    let mut conn = state.db.read.acquire().await?;
    store::live_original(&mut conn, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))
}

async fn answer(state: &AppState, viewer: i64, id: i64) -> Result<Json<Post>> {
    hydrate::one(&state.db.read, state.db.backend, viewer, id)
        .await?
        .map(Json)
        .ok_or_else(|| Error::not_found("Post not found"))
}
