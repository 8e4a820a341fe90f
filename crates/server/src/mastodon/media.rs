//! Media: an app uploads an image (multipart, through Murmur's image checks) with its
//! description, may change the description, and then names the image's id in a new status.

use std::collections::HashMap;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::routing::{get, post};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::Value;

use super::auth::Token;
use super::entities;
use super::error::{MastodonError, Result};
use super::params::Params;
use crate::state::AppState;
use murmur_core::error::Error;
use murmur_domain::media::{self, MAX_BYTES, is_media_id};
use murmur_domain::posts::domain::ImageDescription;

/// An image and a few text fields, a little over the image limit.
pub(super) fn upload_limit() -> DefaultBodyLimit {
    DefaultBodyLimit::max(MAX_BYTES + 64 * 1024)
}

pub fn router() -> Router<AppState> {
    let upload_limit = upload_limit();
    Router::new()
        .route("/api/v2/media", post(upload).layer(upload_limit))
        .route("/api/v1/media", post(upload).layer(upload_limit))
        .route("/api/v1/media/{id}", get(show).put(describe))
}

/// Mastodon's MediaAttachment of one of the member's images.
async fn attachment(state: &AppState, member: i64, id: &str) -> Result<Value> {
    let image = media::own_image(&state.db.read, member, id).await?.ok_or_else(MastodonError::not_found)?;
    let path = media::object_path(id);
    Ok(entities::media_attachment(
        &entities::Urls::of(state),
        id,
        &path,
        (image.width, image.height),
        image.description.as_deref(),
    ))
}

/// A multipart form as apps send it: its files by field name, and its other fields as text.
#[derive(Default)]
pub(super) struct Form {
    pub files: HashMap<String, Bytes>,
    pub fields: HashMap<String, String>,
}

impl Form {
    /// Reads the fields named in `files` as files (each at most an image's limit) and the
    /// rest as text; at most `MAX_FIELDS` fields.
    pub async fn read(mut form: Multipart, files: &[&str]) -> Result<Form> {
        const MAX_FIELDS: usize = 32;
        let mut read = Form::default();
        let mut count = 0;
        while let Some(field) = form.next_field().await.map_err(|e| MastodonError::unprocessable(e.body_text()))? {
            count += 1;
            if count > MAX_FIELDS {
                return Err(MastodonError::unprocessable("Too many parameters"));
            }
            let name = field.name().unwrap_or_default().to_string();
            if files.contains(&name.as_str()) {
                let bytes = field.bytes().await.map_err(|_| {
                    MastodonError(Error::PayloadTooLarge("The file is larger than 10 MiB (10485760 bytes)".into()))
                })?;
                read.files.insert(name, bytes);
            } else {
                let text = field.text().await.map_err(|e| MastodonError::unprocessable(e.body_text()))?;
                read.fields.insert(name, text);
            }
        }
        Ok(read)
    }
}

/// Keeps an image an app sent (through Murmur's image checks); answers its media id.
pub(super) async fn receive(state: &AppState, member: i64, file: Bytes, description: Option<&str>) -> Result<String> {
    Ok(media::receive_from_member(&state.db, &state.media, member, file, description, state.clock.now()).await?)
}

/// Uploads an image: `file`, and its `description` (alt text).
async fn upload(State(state): State<AppState>, token: Token, form: Multipart) -> Result<Json<Value>> {
    let member = token.member("write:media")?;
    let mut form = Form::read(form, &["file"]).await?;
    let file = form.files.remove("file").ok_or_else(|| MastodonError::unprocessable("file is required"))?;
    let description = ImageDescription::parse(form.fields.get("description").map(String::as_str))?;
    let id = receive(&state, member, file, description.as_ref().map(ImageDescription::as_str)).await?;
    Ok(Json(attachment(&state, member, &id).await?))
}

fn media_id(text: &str) -> Result<&str> {
    if is_media_id(text) { Ok(text) } else { Err(MastodonError::not_found()) }
}

async fn show(State(state): State<AppState>, token: Token, Path(id): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:media")?;
    Ok(Json(attachment(&state, member, media_id(&id)?).await?))
}

#[derive(Deserialize)]
struct Description {
    description: Option<String>,
}

/// Changes an image's description (for a post written after it).
async fn describe(
    State(state): State<AppState>,
    token: Token,
    Path(id): Path<String>,
    Params(body): Params<Description>,
) -> Result<Json<Value>> {
    let member = token.member("write:media")?;
    let id = media_id(&id)?;
    let description = ImageDescription::parse(body.description.as_deref())?;
    if !media::set_description(&state.db.write, member, id, description.as_ref().map(ImageDescription::as_str)).await? {
        return Err(MastodonError::not_found());
    }
    Ok(Json(attachment(&state, member, id).await?))
}
