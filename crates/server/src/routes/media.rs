//! HTTP routes of media: upload URLs, the local upload endpoint, serving images, and the
//! profile and header images of a member.

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt as _;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, Path, Query};
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::rate_limit::{self, MemberLimit};
use murmur_domain::media::images::{MAX_BYTES, VARIANT_WIDTHS, variant_content_type};
use murmur_domain::media::storage::{is_media_id, new_media_id};
use murmur_domain::media::{self, ProfileImage};
use murmur_domain::users::{self, User};

/// `/api/objects/...` and the profile image calls.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_upload))
        .routes(routes!(receive_upload))
        .routes(routes!(set_profile_image))
        .routes(routes!(set_header_image))
}

/// `/objects/{id}`: serving images; `/objects/{id}/{width}`: their display copies.
pub fn object_routes() -> Router<AppState> {
    Router::new()
        .route("/objects/{id}", axum::routing::get(serve_image))
        .route("/objects/{id}/{width}", axum::routing::get(serve_variant))
}

#[derive(Serialize, ToSchema)]
pub struct UploadUrl {
    /// Where to PUT the file's raw bytes (one file, at most 10 MiB, within 15 minutes).
    #[serde(rename = "uploadURL")]
    pub upload_url: String,
}

/// Starts an upload: answers the address the browser PUTs the file to (this server, or the
/// bucket when media live in S3), valid 15 minutes for one file.
#[utoipa::path(post, path = "/api/objects/upload", tag = "media",
    responses((status = 200, body = UploadUrl), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn create_upload(State(state): State<AppState>, user: CurrentUser) -> Result<Json<UploadUrl>> {
    let now = state.clock.now();
    rate_limit::hit_member(
        &state.db,
        MemberLimit::MediaUpload,
        user.id,
        now,
        "Too many uploads at once; please wait a minute",
    )
    .await?;
    let id = new_media_id();
    // Sign first: a URL that cannot be made leaves no row behind.
    let upload_url = state.media.upload_url(&id, now).await?;
    media::insert_pending(&state.db.write, &id, user.id, now).await?;
    Ok(Json(UploadUrl { upload_url }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UploadSignature {
    /// When the URL stops working (ms since the epoch), as handed out.
    #[param(minimum = 0)]
    expires: i64,
    /// The server's signature over id and expiry, as handed out.
    sig: String,
}

#[derive(Serialize, ToSchema)]
pub struct Uploaded {
    /// Where the image is served; what posts and profiles keep.
    pub url: String,
}

/// Receives an upload's bytes (local store). The signed URL is the authorisation, as with a
/// presigned bucket URL; it works for one new image and at most 15 minutes.
#[utoipa::path(put, path = "/api/objects/upload/{id}", tag = "media",
    params(("id" = String, Path, pattern = "^[0-9a-f]{32}$", description = "Upload id from the upload URL"), UploadSignature),
    request_body(content = Vec<u8>, content_type = "application/octet-stream",
        description = "The file's raw bytes: JPEG, PNG, GIF or WebP, at most 10485760 bytes"),
    responses((status = 200, body = Uploaded), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn receive_upload(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(signature): Query<UploadSignature>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Uploaded>> {
    if !is_media_id(&id) {
        return Err(Error::not_found("No such upload").into());
    }
    state.media.verify_upload_signature(&id, signature.expires, &signature.sig, state.clock.now())?;
    let declared =
        headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > (MAX_BYTES + DRAIN_SLACK) as u64) {
        return Err(too_large().into());
    }
    let receiving = murmur_domain::media::start_receiving(&state.db, &state.media, &id).await?;
    let bytes = read_capped(body).await?;
    Ok(Json(Uploaded { url: receiving.accept(&state.db, bytes.into()).await? }))
}

fn too_large() -> Error {
    Error::PayloadTooLarge("The file is larger than 10 MiB (10485760 bytes)".into())
}

/// A body a little over the limit is read to its end (and thrown away) before the 413, so the
/// client is still listening when the answer comes; one further over is cut off at once, and
/// the client may only see the connection close.
const DRAIN_SLACK: usize = 1024 * 1024;

/// Reads a request body, keeping at most the size limit.
async fn read_capped(body: Body) -> Result<Vec<u8>> {
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| Error::bad_request("The upload was interrupted"))?;
        if bytes.len() + chunk.len() > MAX_BYTES {
            let mut drained = bytes.len() + chunk.len() - MAX_BYTES;
            drop(bytes);
            while drained <= DRAIN_SLACK {
                match stream.next().await {
                    Some(Ok(more)) => drained += more.len(),
                    _ => break,
                }
            }
            return Err(too_large().into());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// Serves a checked image with its real type, cacheable for ever (ids are never reused), and
/// locked down so that a browser never treats it as anything but an image.
async fn serve_image(State(state): State<AppState>, Path(id): Path<String>) -> Result<Response> {
    let content_type = ready_image(&state, &id).await?;
    original(&state, &id, &content_type).await
}

/// Serves an image's display copy at most `width` px wide (one of `VARIANT_WIDTHS`), with the
/// same headers as the image. Where there is none (GIFs, images uploaded before copies were
/// made, a copy that would not have been smaller) the image itself is the answer: a known
/// image is never a 404 here. Any other width is a 400, so each image has a few URLs at most
/// (caches in front of this server cannot be filled with endless copies of one image).
async fn serve_variant(State(state): State<AppState>, Path((id, width)): Path<(String, String)>) -> Result<Response> {
    if !is_media_id(&id) {
        return Err(image_not_found().into());
    }
    let width = width.parse::<u32>().ok().filter(|w| VARIANT_WIDTHS.contains(w)).ok_or_else(|| {
        let widths: Vec<String> = VARIANT_WIDTHS.iter().map(u32::to_string).collect();
        Error::bad_request(format!("Unknown image width: use one of {}", widths.join(", ")))
    })?;
    let content_type = ready_image(&state, &id).await?;
    // GIFs never get copies (they would lose their animation): skip the lookup.
    if content_type != "image/gif"
        && let Some(bytes) = state.media.get_variant(&id, width).await?
    {
        let content_type = variant_content_type(&bytes);
        return Ok(image_response(bytes, content_type));
    }
    original(&state, &id, &content_type).await
}

fn image_not_found() -> Error {
    Error::not_found("Image not found")
}

/// The content type of a checked image; 404 for malformed, unknown and pending ids.
async fn ready_image(state: &AppState, id: &str) -> Result<String> {
    if !is_media_id(id) {
        return Err(image_not_found().into());
    }
    if let Some(row) = media::find(&state.db.read, id).await? {
        let ready = row.is_ready();
        return Ok(row.content_type.filter(|_| ready).ok_or_else(image_not_found)?);
    }
    // Not an upload: a link preview card's image, checked and stored like one.
    let card_image = murmur_domain::link_cards::image_content_type(&state.db.read, id).await?;
    Ok(card_image.ok_or_else(image_not_found)?)
}

async fn original(state: &AppState, id: &str, content_type: &str) -> Result<Response> {
    let Some(bytes) = state.media.get_image(id).await? else {
        tracing::warn!(media_id = %id, "a ready image has no stored bytes");
        return Err(image_not_found().into());
    };
    Ok(image_response(bytes, content_type))
}

/// An image with the headers that keep it an image: its real type, no sniffing, a sandbox
/// CSP, and cacheable for ever (ids are never reused, and neither is what a URL answers).
fn image_response(bytes: bytes::Bytes, content_type: &str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let headers = response.headers_mut();
    let mut set = |name, value: &str| {
        if let Ok(v) = HeaderValue::from_str(value) {
            headers.insert(name, v);
        }
    };
    set(header::CONTENT_TYPE, content_type);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::CACHE_CONTROL, "public, max-age=31536000, immutable");
    set(header::CONTENT_SECURITY_POLICY, "default-src 'none'; sandbox");
    set(header::CONTENT_DISPOSITION, "inline");
    response
}

#[derive(Deserialize, ToSchema)]
pub struct ImageRequest {
    /// An upload URL this server handed out, or the `/objects/{id}` path of an upload of yours.
    #[serde(rename = "imageURL")]
    #[schema(min_length = 1, max_length = 4096)]
    image_url: String,
}

/// Sets the member's avatar to one of their uploads; answers their updated profile.
#[utoipa::path(put, path = "/api/profile-images", tag = "media", request_body = ImageRequest,
    responses((status = 200, body = User), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn set_profile_image(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<ImageRequest>,
) -> Result<Json<User>> {
    set_image(&state, &user, body, ProfileImage::Avatar).await
}

/// Sets the member's header image to one of their uploads; answers their updated profile.
#[utoipa::path(put, path = "/api/header-images", tag = "media", request_body = ImageRequest,
    responses((status = 200, body = User), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn set_header_image(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<ImageRequest>,
) -> Result<Json<User>> {
    set_image(&state, &user, body, ProfileImage::Header).await
}

async fn set_image(
    state: &AppState,
    user: &CurrentUser,
    body: ImageRequest,
    which: ProfileImage,
) -> Result<Json<User>> {
    murmur_domain::media::set_profile_image(&state.db, &state.media, user.id, body.image_url, which, state.clock.now())
        .await?;
    let row = users::find_by_id(&state.db.write, user.id).await?.ok_or(Error::Unauthorized)?;
    Ok(Json(row.own(state.clock.now())))
}
