//! Mastodon's paging, shared by every list of the Mastodon API: `max_id` (older than),
//! `since_id` and `min_id` (newer than), `limit`, and the `Link` header that names the next and
//! previous pages.

use axum::Json;
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::entities;
use super::error::{MastodonError, Result};
use super::params::lenient;
use crate::state::AppState;
use murmur_core::page::Page;

/// Mastodon's paging parameters.
#[derive(Debug, Default, Deserialize)]
pub struct Paging {
    #[serde(default, deserialize_with = "lenient::id")]
    pub max_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::id")]
    pub since_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::id")]
    pub min_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::i64")]
    pub limit: Option<i64>,
}

/// Lists answer 20 items unless asked for up to 40, as Mastodon's do.
const DEFAULT_LIMIT: i64 = 20;
const MAX_LIMIT: i64 = 40;

impl Paging {
    pub fn limit(&self) -> Result<i64> {
        match self.limit {
            None => Ok(DEFAULT_LIMIT),
            Some(limit) if limit < 1 => Err(MastodonError::unprocessable("limit must be at least 1")),
            // Mastodon answers its maximum for a larger limit rather than refusing it.
            Some(limit) => Ok(limit.min(MAX_LIMIT)),
        }
    }

    /// The page of a list ordered by id, newest first. `min_id` is taken as `since_id`: the
    /// newest items above it (Mastodon answers the oldest above it; apps that fill a gap with
    /// it then ask again from the top).
    pub fn page(&self) -> Result<Page> {
        Ok(Page::window(self.limit()?, self.max_id, self.since_id.or(self.min_id)))
    }
}

/// The page of a list Murmur pages by offset (its order is not by id): `max_id` is the offset of
/// the next page, as this module's `Link` header names it.
pub fn offset_page(paging: &Paging) -> Result<Page> {
    Ok(Page::parse(Some(paging.limit()?), paging.max_id, DEFAULT_LIMIT, MAX_LIMIT)?)
}

/// A list's answer with its `Link` header: `next` (older, `max_id`) and `prev` (newer,
/// `min_id`), keyed by `key(index)` of the last and first items.
pub fn paged<T: serde::Serialize>(
    state: &AppState,
    uri: &Uri,
    items: Vec<T>,
    key: impl Fn(usize) -> i64,
) -> Result<Response> {
    let keys = (!items.is_empty()).then(|| (key(0), key(items.len() - 1)));
    Ok(with_links(state, uri, keys, Json(items).into_response()))
}

/// `response` with the `Link` header of a page whose first and last items have these keys (none
/// for an empty page).
pub fn with_links(state: &AppState, uri: &Uri, keys: Option<(i64, i64)>, mut response: Response) -> Response {
    let Some((first, last)) = keys else { return response };
    let path = uri.path();
    let kept: Vec<(String, String)> = url::form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes())
        .filter(|(k, _)| !matches!(k.as_ref(), "max_id" | "since_id" | "min_id"))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let link = |param: &str, value: i64, rel: &str| {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.extend_pairs(kept.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        query.append_pair(param, &value.to_string());
        format!("<{}{path}?{}>; rel=\"{rel}\"", state.config.public_origin(), query.finish())
    };
    let links = [link("max_id", last, "next"), link("min_id", first, "prev")];
    if let Ok(value) = HeaderValue::from_str(&links.join(", ")) {
        response.headers_mut().insert(header::LINK, value);
    }
    response
}

/// A page of posts as statuses, with its links (keyed by the posts' ids).
pub async fn posts_page(
    state: &AppState,
    uri: &Uri,
    viewer: i64,
    posts: Vec<murmur_domain::posts::Post>,
) -> Result<Response> {
    let statuses = entities::statuses(state, viewer, &posts).await?;
    let ids: Vec<i64> = statuses.iter().map(|status| status.id.parse().unwrap_or(0)).collect();
    paged(state, uri, statuses, |index| ids[index])
}
