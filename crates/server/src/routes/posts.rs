//! HTTP routes of posts: writing, reposting, liking, voting, deleting, and reading a thread.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, PageParams, Path, Query};
use crate::error::{ApiError, Error, ErrorBody, Result};
use crate::extract::{CurrentUser, MomentOld};
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::posts;
use murmur_domain::posts::domain::{ContentWarning, ImageDescription, PollDuration, PollOptions, PostContent};
use murmur_domain::posts::hydrate;
use murmur_domain::posts::model::Post;
use murmur_domain::posts::writes::{Draft, DraftImage};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create))
        .routes(routes!(delete, edit))
        .routes(routes!(history))
        .routes(routes!(like, unlike))
        .routes(routes!(bookmark, unbookmark))
        .routes(routes!(pin, unpin))
        .routes(routes!(bookmarks))
        .routes(routes!(remove_card))
        .routes(routes!(unrepost))
        .routes(routes!(set_quoting))
        .routes(routes!(detach_quote))
        .routes(routes!(vote))
        .routes(routes!(thread))
        .routes(routes!(thread_replies))
}

/// A new post, reply or repost.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatePost {
    /// At most 500 characters after trimming; empty only on a post with at least one image.
    /// Ignored on a repost (stored as "♻️").
    #[serde(default)]
    #[schema(max_length = 500)]
    pub content: String,
    /// A content warning shown in place of the post until the reader opens it: at most 100
    /// characters after trimming, on one line; blank or missing means none. Not on a repost.
    #[schema(max_length = 100)]
    pub spoiler_text: Option<String>,
    /// At most 4 uploaded images (the URLs the upload call answered). Send these or `images`,
    /// not both.
    #[serde(default)]
    #[schema(max_items = 4)]
    pub image_urls: Vec<String>,
    /// The same images with a description each (optional): instead of `imageUrls`.
    #[serde(default)]
    #[schema(max_items = 4)]
    pub images: Vec<NewImage>,
    /// Blank options are dropped; then 2 to 4 distinct options of at most 80 characters.
    #[serde(default)]
    #[schema(schema_with = poll_options_schema)]
    pub poll_options: Vec<String>,
    /// How long the poll stays open: 1 to 168 hours (default 24). Send this or
    /// `pollDurationMinutes`, not both.
    #[schema(minimum = 1, maximum = 168)]
    pub poll_duration_hours: Option<i64>,
    /// How long the poll stays open, in minutes: 5 to 10080 (7 days).
    #[schema(minimum = 5, maximum = 10080)]
    pub poll_duration_minutes: Option<i64>,
    /// The poll takes one or more options from each voter (default: exactly one).
    #[serde(default)]
    pub poll_multiple: bool,
    /// The post this one answers.
    #[schema(minimum = 1)]
    pub reply_to_id: Option<i64>,
    /// Makes this a repost of that post (reposting a repost reposts its original).
    #[schema(minimum = 1)]
    pub repost_of_id: Option<i64>,
    /// The post this one quotes, shown inside its card (quoting a repost quotes its original).
    /// A quote is a post like any other: it needs its own text. Not on a repost.
    #[schema(minimum = 1)]
    pub quote_of_id: Option<i64>,
}

/// Whether others may quote a post.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Quoting {
    pub allowed: bool,
}

/// An uploaded image of a new post, with what it shows for those who cannot see it.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewImage {
    /// The URL the upload call answered (or `/objects/{id}`).
    pub url: String,
    /// The image's description (alt text): at most 1500 characters after trimming; blank or
    /// missing means none.
    #[schema(max_length = 1500)]
    pub alt: Option<String>,
}

/// A request that names its images both ways, as `imageUrls` and as `images`.
const IMAGES_TWICE: &str = "Send imageUrls or images, not both";

impl NewImage {
    /// Its URL, and its description parsed.
    fn parsed(self) -> Result<(String, Option<ImageDescription>)> {
        Ok((self.url, ImageDescription::parse(self.alt.as_deref())?))
    }
}

impl CreatePost {
    /// The post's images in order, each with its parsed description: from `images`, or from the
    /// spec's `imageUrls` without descriptions.
    fn draft_images(&mut self) -> Result<Vec<DraftImage>> {
        if !self.image_urls.is_empty() && !self.images.is_empty() {
            return Err(Error::bad_request(IMAGES_TWICE).into());
        }
        murmur_domain::media::ensure_image_count(self.image_urls.len().max(self.images.len()))?;
        let described = std::mem::take(&mut self.images).into_iter().map(NewImage::parsed);
        let plain = std::mem::take(&mut self.image_urls).into_iter().map(|url| Ok((url, None)));
        described.chain(plain).map(|image| image.map(|(url, alt)| DraftImage { url, alt })).collect()
    }
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

/// A post's new text, as its author edits it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditPost {
    /// At most 500 characters after trimming; empty only while the post keeps an image.
    #[schema(max_length = 500)]
    pub content: String,
    /// The post's content warning from now on (at most 100 characters after trimming, on one
    /// line); null or blank takes it away, left out it stays as it is.
    #[serde(default, deserialize_with = "present")]
    #[schema(max_length = 100, nullable = true)]
    pub spoiler_text: Option<Option<String>>,
    /// The images the post keeps: some of its own (the URLs it shows); left out, it keeps them
    /// all. An edit never adds images, and a post with a poll keeps its own.
    #[schema(max_items = 4)]
    pub image_urls: Option<Vec<String>>,
    /// Instead of `imageUrls`: the images the post keeps, each with its description from now on
    /// (blank or missing: none), to correct what an image is said to show.
    #[schema(max_items = 4)]
    pub images: Option<Vec<NewImage>>,
}

/// The images an edit keeps (None: all of them), and the descriptions it gives them by URL.
type KeptImages = (Option<Vec<String>>, Vec<(String, Option<ImageDescription>)>);

impl EditPost {
    fn kept_images(&mut self) -> Result<KeptImages> {
        let count = self.image_urls.as_ref().map_or(0, Vec::len).max(self.images.as_ref().map_or(0, Vec::len));
        murmur_domain::media::ensure_image_count(count)?;
        match (self.image_urls.take(), self.images.take()) {
            (Some(_), Some(_)) => Err(Error::bad_request(IMAGES_TWICE).into()),
            (urls, None) => Ok((urls, Vec::new())),
            (None, Some(images)) => {
                let described = images.into_iter().map(NewImage::parsed).collect::<Result<Vec<_>>>()?;
                Ok((Some(described.iter().map(|(url, _)| url.clone()).collect()), described))
            }
        }
    }
}

/// A field that may be left out or sent as null, told apart: `Some(None)` is null.
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

/// An earlier version of a post's text.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostVersion {
    pub content: String,
    /// The content warning it carried then; null: none.
    pub spoiler_text: Option<String>,
    /// RFC 3339: when this text was written (the post's creation or an earlier edit).
    pub written_at: String,
    /// RFC 3339: when an edit replaced it.
    pub replaced_at: String,
    /// Its images then, with their descriptions then, in the order they showed.
    pub images: Vec<PostVersionImage>,
}

/// An image of an earlier version of a post.
#[derive(Serialize, ToSchema)]
pub struct PostVersionImage {
    /// `/objects/{id}`.
    pub url: String,
    /// Its description then; null: none.
    pub alt: Option<String>,
}

/// A vote: `option`, or on a multiple-choice poll `options` (one or more), not both.
#[derive(Debug, Deserialize, ToSchema)]
pub struct VoteRequest {
    /// The text of the chosen option.
    #[schema(min_length = 1, max_length = 80)]
    pub option: Option<String>,
    /// The texts of the chosen options (a single-choice poll takes one).
    #[schema(max_items = 4)]
    pub options: Option<Vec<String>>,
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
/// A member reposts a post once; a second attempt is a 409 "Already reposted". A request
/// retried with the `Idempotency-Key` of a post the member made within the hour answers that
/// post (201, as the first time) instead of making a second one. The key answers only that
/// request: another request (another body) with it is a 422, and a retry once its post was
/// deleted a 409.
#[utoipa::path(post, path = "/api/posts", tag = "posts", operation_id = "create_post", request_body = CreatePost,
    params(("Idempotency-Key" = Option<String>, Header,
        description = "Chosen by the client for this post (1 to 128 visible ASCII characters, e.g. a UUID); a retry sends it again")),
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
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn create(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    Json(mut body): Json<CreatePost>,
) -> Result<(StatusCode, Json<Post>)> {
    let key = AppState::keyed_request(&headers, "POST /api/posts", &body)?;
    let key = key.as_ref();
    let writes = state.post_writes();
    let id = match body.repost_of_id {
        Some(original) => {
            if body.reply_to_id.is_some()
                || !body.image_urls.is_empty()
                || !body.images.is_empty()
                || body.poll_options.iter().any(|o| !o.trim().is_empty())
            {
                return Err(Error::bad_request("A repost cannot have images, a poll or a reply").into());
            }
            if body.quote_of_id.is_some() {
                return Err(Error::bad_request("A repost cannot quote a post").into());
            }
            // A repost shows its original, behind the original's own warning if it has one.
            if body.spoiler_text.as_deref().is_some_and(|s| !s.trim().is_empty()) {
                return Err(Error::bad_request("A repost cannot have a content warning").into());
            }
            writes.repost(current.id, original, key).await?
        }
        None => {
            let content = PostContent::parse(&body.content)?;
            let images = body.draft_images()?;
            let draft = Draft {
                content,
                content_warning: ContentWarning::parse(body.spoiler_text.as_deref())?,
                poll: PollOptions::parse(&body.poll_options)?,
                duration: PollDuration::parse(body.poll_duration_hours, body.poll_duration_minutes)?,
                poll_multiple: body.poll_multiple,
                images,
                reply_to_id: body.reply_to_id,
                quote_of_id: body.quote_of_id,
                app_id: None,
            };
            writes.post(current.id, &draft, key).await?
        }
    };
    let post = hydrate::one(&state.db.read, state.db.backend, current.id, id)
        .await?
        .ok_or_else(|| Error::not_found("Post not found"))?;
    Ok((StatusCode::CREATED, Json(post)))
}

/// Deletes one of the caller's posts. A repost is simply removed; any other post is
/// soft-deleted: its text, images, poll, likes, reposts and the notifications about it go, its
/// replies stay (still pointing at it) and its parent counts one reply fewer.
#[utoipa::path(delete, path = "/api/posts/{id}", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn delete(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    state.post_writes().delete(current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Edits one of the caller's posts within an hour of posting it: its text and, on a post
/// without a poll, which of its images it keeps. 409 once the hour is over or its poll has
/// votes. Answers the post as it now reads.
#[utoipa::path(patch, path = "/api/posts/{id}", tag = "posts", operation_id = "edit_post",
    params(("id" = i64, Path, minimum = 1, description = "Post id")), request_body = EditPost,
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn edit(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(mut body): Json<EditPost>,
) -> Result<Json<Post>> {
    let content = PostContent::parse(&body.content)?;
    let warning = body.spoiler_text.take().map(|text| ContentWarning::parse(text.as_deref())).transpose()?;
    let (kept, descriptions) = body.kept_images()?;
    let id = state
        .post_writes()
        .edit(current.id, id, &content, warning.as_ref().map(Option::as_ref), kept.as_deref(), &descriptions)
        .await?;
    post_as_seen(&state, current.id, id).await
}

/// The earlier versions of a post's text, newest first (empty when it was never edited). A
/// repost stands for its original.
#[utoipa::path(get, path = "/api/posts/{id}/history", tag = "posts",
    params(("id" = i64, Path, minimum = 1, description = "Post id"), PageParams),
    responses((status = 200, body = Vec<PostVersion>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn history(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<PostVersion>>> {
    let page = params.page(20, MAX_PAGE)?;
    let original = live_original(&state, id).await?;
    // Only who may read the post reads its history (`visibility`).
    let seen = hydrate::one(&state.db.read, state.db.backend, current.id, original.id).await?;
    if !seen.is_some_and(|post| !post.is_deleted && !post.is_unavailable) {
        return Err(Error::not_found("Post not found").into());
    }
    let versions = posts::history(&state.db.read, original.id, page).await?;
    Ok(Json(
        versions
            .into_iter()
            .map(|v| PostVersion {
                content: v.content,
                spoiler_text: v.spoiler_text,
                written_at: to_rfc3339(v.written_at),
                replaced_at: to_rfc3339(v.replaced_at),
                images: v
                    .images
                    .into_iter()
                    .map(|(media_id, alt)| PostVersionImage { url: murmur_domain::media::object_path(&media_id), alt })
                    .collect(),
            })
            .collect(),
    ))
}

/// Pins one of the caller's own posts (not a repost) to their profile, where it shows first
/// with a "Pinned" label; pinning twice changes nothing. At most 5 at once: a sixth is a 400
/// saying so. Another member's post is a 404, as a post that is not there. Answers the post
/// (`pinned: true`).
#[utoipa::path(post, path = "/api/posts/{id}/pin", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn pin(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().pin(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Unpins one of the caller's posts; unpinning a post not pinned changes nothing. Answers the
/// post.
#[utoipa::path(delete, path = "/api/posts/{id}/pin", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unpin(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().unpin(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Bookmarks a post (a repost: its original) for the caller alone: nobody is told, nobody else
/// sees it. Bookmarking twice changes nothing. Answers the post.
#[utoipa::path(post, path = "/api/posts/{id}/bookmark", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn bookmark(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().bookmark(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Takes the caller's bookmark of a post away; none there changes nothing. Answers the post.
#[utoipa::path(delete, path = "/api/posts/{id}/bookmark", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unbookmark(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().unbookmark(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Removes the preview card of the caller's post's link, for good (a later refresh of the card
/// or an edit of the post does not bring it back). Removing it twice changes nothing. Answers
/// the post.
#[utoipa::path(delete, path = "/api/posts/{id}/card", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn remove_card(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    murmur_domain::link_cards::remove(&state.db, current.id, id, state.clock.now()).await?;
    post_as_seen(&state, current.id, id).await
}

/// The caller's bookmarks, newest bookmark first: live posts they may still see.
#[utoipa::path(get, path = "/api/bookmarks", tag = "posts", params(PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn bookmarks(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    let page = params.page(20, MAX_PAGE)?;
    Ok(Json(
        hydrate::list(
            &state.db.read,
            state.db.backend,
            current.id,
            &murmur_domain::posts::profile::bookmarks(current.id, page),
        )
        .await?,
    ))
}

/// Undoes the caller's repost of post `id` (or of its original, when `id` is a repost).
#[utoipa::path(delete, path = "/api/posts/{id}/repost", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unrepost(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<StatusCode> {
    state.post_writes().unrepost(current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Lets others quote one of the caller's posts, or not (`allowed`). The quotes already made
/// stay; new ones are refused (403). The author may always quote their own post. Answers the post.
#[utoipa::path(put, path = "/api/posts/{id}/quoting", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    request_body = Quoting,
    responses((status = 200, body = Post), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn set_quoting(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<Quoting>,
) -> Result<Json<Post>> {
    let post = state.post_writes().set_quoting(current.id, id, body.allowed).await?;
    post_as_seen(&state, current.id, post).await
}

/// Detaches one of the caller's posts (`id`) from a post quoting it (`quoteId`): the quote then
/// shows "Removed by the author" in its place; its author is not told. Twice changes nothing.
/// 404 unless `id` is the caller's own post and `quoteId` quotes it.
#[utoipa::path(post, path = "/api/posts/{id}/quotes/{quoteId}/detach", tag = "posts",
    params(("id" = i64, Path, minimum = 1, description = "The caller's quoted post"),
           ("quoteId" = i64, Path, minimum = 1, description = "The post quoting it")),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn detach_quote(
    State(state): State<AppState>,
    current: CurrentUser,
    Path((id, quote_id)): Path<(i64, i64)>,
) -> Result<StatusCode> {
    state.post_writes().detach_quote(current.id, id, quote_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Likes a post (a repost: its original). Liking twice changes nothing. Answers the post.
#[utoipa::path(post, path = "/api/posts/{id}/like", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn like(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().like(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Takes back a like; unliking a post not liked changes nothing. Answers the post.
#[utoipa::path(delete, path = "/api/posts/{id}/like", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Post), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn unlike(State(state): State<AppState>, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Post>> {
    let post = state.post_writes().unlike(current.id, id).await?;
    post_as_seen(&state, current.id, post).await
}

/// Votes in a post's poll, once: one option, or on a multiple-choice poll one or more. Answers
/// the post with the new tally.
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
    let chosen = match (body.option, body.options) {
        (Some(option), None) => vec![option],
        (None, Some(options)) => options,
        _ => return Err(Error::bad_request("Send option or options, not both").into()),
    };
    // No option holds U+0000 (PollOptions refuses it) and PostgreSQL refuses it in a parameter.
    if chosen.iter().any(|option| option.contains('\0')) {
        return Err(Error::bad_request("That option is not in this poll").into());
    }
    // Options are stored NFC-normalized (`text`): the same words typed another way match.
    let chosen: Vec<String> = chosen.iter().map(|option| murmur_core::text::nfc(option)).collect();
    let post = state.post_writes().vote(current.id, id, &chosen).await?;
    post_as_seen(&state, current.id, post).await
}

/// A post with the posts above it and its replies. A repost's thread is its original's. A post
/// moderators removed is found only by its author.
#[utoipa::path(get, path = "/api/posts/{id}/thread", tag = "posts", params(("id" = i64, Path, minimum = 1, description = "Post id")),
    responses((status = 200, body = Thread), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn thread(MomentOld(state): MomentOld, current: CurrentUser, Path(id): Path<i64>) -> Result<Json<Thread>> {
    let pool = &state.db.read;
    // Its author still opens a post moderators removed (from the notice that says why).
    let post_id = match live_original(&state, id).await {
        Err(ApiError(Error::NotFound(message))) => {
            let mut conn = pool.acquire().await?;
            posts::removed_post_of(&mut conn, id, current.id).await?.ok_or(Error::NotFound(message))?
        }
        found => found?.id,
    };
    let thread =
        murmur_domain::posts::thread::read(pool, state.db.backend, current.id, post_id, state.clock.now()).await?;
    let post = thread.post.ok_or_else(|| Error::not_found("Post not found"))?;
    Ok(Json(Thread { post, replies: thread.replies, ancestors: thread.ancestors }))
}

/// A page of a post's live replies, oldest first, as in its thread: for reading past the
/// thread's first 200. A repost stands for its original.
#[utoipa::path(get, path = "/api/posts/{id}/replies", tag = "posts",
    params(("id" = i64, Path, minimum = 1, description = "Post id"), PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn thread_replies(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Path(id): Path<i64>,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    let page = params.page(20, MAX_PAGE)?;
    let post = live_original(&state, id).await?;
    let selection = posts::replies(post.id, page);
    let mut replies = hydrate::list(&state.db.read, state.db.backend, current.id, &selection).await?;
    hydrate::mark_muted(&state.db.read, current.id, &mut replies, state.clock.now()).await?;
    Ok(Json(replies))
}

/// The live post a read is about (a repost's original); 404 when unknown or deleted.
async fn live_original(state: &AppState, id: i64) -> Result<posts::PostRef> {
    let mut conn = state.db.read.acquire().await?;
    Ok(posts::live_original(&mut conn, id).await?.ok_or_else(|| Error::not_found("Post not found"))?)
}

/// Post `id` as `viewer` now sees it: the answer of a write that changed it.
async fn post_as_seen(state: &AppState, viewer: i64, id: i64) -> Result<Json<Post>> {
    Ok(hydrate::one(&state.db.read, state.db.backend, viewer, id)
        .await?
        .map(Json)
        .ok_or_else(|| Error::not_found("Post not found"))?)
}
