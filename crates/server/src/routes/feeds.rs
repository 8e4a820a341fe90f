//! The feeds' routes: Friends (kept pages from `feeds::cache`) and For You.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, PageParams, Query};
use crate::error::{ErrorBody, Result};
use crate::extract::{CurrentUser, FeedReader, MomentOld};
use crate::state::AppState;
use murmur_domain::posts::Post;

use murmur_domain::feeds::cache::{Answer, Feed};
use murmur_domain::feeds::{PAGE_SIZE, for_you, friends_page};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(friends_feed)).routes(routes!(for_you_feed))
}

/// Friends: the caller's and followed members' posts and reposts, newest first.
///
/// Pages are kept ready for a few seconds: the caller's own changes and new posts of the people
/// they follow show at once, others' likes, replies and deletions on posts already on the page
/// within a few seconds (5 by default).
#[utoipa::path(get, path = "/api/posts/feed", tag = "feeds", params(PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, reader, params), fields(user = reader.user.id))]
async fn friends_feed(
    State(state): State<AppState>,
    reader: FeedReader,
    Query(params): Query<PageParams>,
) -> Result<Response> {
    let page = params.page(PAGE_SIZE, MAX_PAGE)?;
    let (viewer, now) = (reader.user.id, state.clock.now());
    kept_answer(&state, &reader, Feed::Friends, page, friends_page(&state.db, viewer, page, now)).await
}

/// A feed's page as JSON, from the pages kept for the reader (`feeds::cache`) or made by
/// `make` (which runs only when none is kept) and then kept.
pub(crate) async fn kept_answer(
    state: &AppState,
    reader: &FeedReader,
    feed: Feed,
    page: murmur_core::page::Page,
    make: impl Future<Output = murmur_core::error::Result<Vec<Post>>>,
) -> Result<Response> {
    let (viewer, marks, now) = (reader.user.id, reader.marks, state.clock.now());
    let body = match state.feed_cache.get(viewer, feed, page, marks, now) {
        Some(kept) => kept.body,
        None => {
            let answer = Answer::json(&make.await?, None)?;
            state.feed_cache.keep(viewer, feed, page, marks, now, answer.clone());
            answer.body
        }
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// For You: recent original posts of the whole network, ranked by engagement with time decay,
/// without the caller's own posts and with at most two in a row by one author. Offset 0 ranks
/// afresh; later pages continue that ranking.
#[utoipa::path(get, path = "/api/posts/for-you", tag = "feeds", params(PageParams),
    responses((status = 200, body = Vec<Post>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
#[tracing::instrument(skip(state, params), fields(user = current.id))]
async fn for_you_feed(
    MomentOld(state): MomentOld,
    current: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<Post>>> {
    let page = params.page(PAGE_SIZE, MAX_PAGE)?;
    Ok(Json(for_you::ranked_page(&state.db, &state.for_you, current.id, page, state.clock.now()).await?))
}
