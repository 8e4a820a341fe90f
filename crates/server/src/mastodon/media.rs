//! Media: an app uploads an image (multipart, through Murmur's image checks) with its
//! description, may change the description, and then names the image's id in a new status.

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Multipart, Path, State};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::error::{MastodonError, Result};
use super::params::Params;
use crate::state::AppState;
use murmur_core::error::Error;
use murmur_domain::media::{self, MAX_BYTES, is_media_id, store};
use murmur_domain::posts::domain::ImageDescription;

pub fn router() -> Router<AppState> {
    // The file and a description, a little over the image limit.
    let upload_limit = DefaultBodyLimit::max(MAX_BYTES + 64 * 1024);
    Router::new()
        .route("/api/v2/media", post(upload).layer(upload_limit))
        .route("/api/v1/media", post(upload).layer(upload_limit))
        .route("/api/v1/media/{id}", get(show).put(describe))
}

/// Mastodon's MediaAttachment of one of the member's images.
async fn attachment(state: &AppState, member: i64, id: &str) -> Result<Value> {
    let image = store::own_image(&state.db.read, member, id).await?.ok_or_else(MastodonError::not_found)?;
    let url = format!("{}{}", state.config.public_origin(), media::object_path(id));
    let meta = match (image.width, image.height) {
        (Some(width), Some(height)) if height > 0 => json!({"original": {
            "width": width, "height": height, "size": format!("{width}x{height}"), "aspect": width as f64 / height as f64,
        }}),
        _ => json!({}),
    };
    Ok(json!({
        "id": id,
        "type": "image",
        "url": url,
        "preview_url": url,
        "remote_url": null,
        "meta": meta,
        "description": image.description,
        "blurhash": null,
    }))
}

/// Uploads an image: `file`, and its `description` (alt text).
async fn upload(State(state): State<AppState>, token: Token, mut form: Multipart) -> Result<Json<Value>> {
    let member = token.member("write:media")?;
    let mut file = None;
    let mut description = None;
    while let Some(field) = form.next_field().await.map_err(|e| MastodonError::unprocessable(e.body_text()))? {
        match field.name() {
            Some("file") => {
                let bytes = field.bytes().await.map_err(|_| {
                    MastodonError(Error::PayloadTooLarge("The file is larger than 10 MiB (10485760 bytes)".into()))
                })?;
                file = Some(bytes);
            }
            Some("description") => {
                description = Some(field.text().await.map_err(|e| MastodonError::unprocessable(e.body_text()))?);
            }
            _ => {}
        }
    }
    let file = file.ok_or_else(|| MastodonError::unprocessable("file is required"))?;
    let description = ImageDescription::parse(description.as_deref())?;
    let description = description.as_ref().map(ImageDescription::as_str);
    let id = media::receive_from_member(&state.db, &state.media, member, file, description, state.clock.now()).await?;
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
    if !store::set_description(&state.db.write, member, id, description.as_ref().map(ImageDescription::as_str)).await? {
        return Err(MastodonError::not_found());
    }
    Ok(Json(attachment(&state, member, id).await?))
}
