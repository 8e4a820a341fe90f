//! HTTP routes of "Download my data": ask for an archive, see how it stands, download it.

use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::Json;
use crate::error::{Error, ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_core::rate_limit::{self, MemberLimit};
use murmur_domain::exports::{self, ExportRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(request, status)).routes(routes!(download))
}

/// How the member's archive stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DataExport {
    /// none, pending (being prepared), ready or failed
    pub status: String,
    /// When the member asked for it (absent for none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub requested_at: Option<String>,
    /// The archive's size in bytes (ready only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// When it was ready (ready only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_at: Option<String>,
    /// When the archive is removed (ready only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

impl DataExport {
    fn none() -> Self {
        DataExport { status: "none".into(), requested_at: None, size: None, ready_at: None, expires_at: None }
    }
}

impl From<ExportRow> for DataExport {
    fn from(row: ExportRow) -> Self {
        let ready = row.status == "ready";
        DataExport {
            requested_at: Some(to_rfc3339(row.requested_at)),
            size: row.byte_size.filter(|_| ready),
            ready_at: row.finished_at.filter(|_| ready).map(to_rfc3339),
            expires_at: row.expires_at.filter(|_| ready).map(to_rfc3339),
            status: row.status,
        }
    }
}

/// Asks for an archive of the caller's data (profile, posts with their images, likes, follows,
/// followers, invites), prepared in the background; the caller is told by notification and
/// e-mail when it is ready. One at a time: while one is being prepared, or one was made within
/// the last day, that one is the answer.
#[utoipa::path(post, path = "/api/account/export", tag = "account", operation_id = "request_data_export",
    responses((status = 202, body = DataExport), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn request(State(state): State<AppState>, current: CurrentUser) -> Result<(StatusCode, Json<DataExport>)> {
    let now = state.clock.now();
    let mut writer = rate_limit::count_member_then_take_writer(
        &state.db,
        MemberLimit::Export,
        current.id,
        now,
        "You have asked for your data too often. Please try again in an hour.",
    )
    .await?;
    let (row, replaced) = exports::request(&mut writer, current.id, now).await?;
    drop(writer);
    if let Some(old) = replaced
        && let Err(e) = state.media.delete_archive(&old).await
    {
        // Upkeep removes archives no export names.
        tracing::warn!(error = %e, "removing a replaced data archive failed");
    }
    if row.status == "pending" {
        state.exports.wake();
    }
    Ok((StatusCode::ACCEPTED, Json(row.into())))
}

/// How the caller's archive stands: none, pending, ready (with its size and when it is
/// removed) or failed.
#[utoipa::path(get, path = "/api/account/export", tag = "account", operation_id = "get_data_export",
    responses((status = 200, body = DataExport), (status = 401, body = ErrorBody)))]
async fn status(State(state): State<AppState>, current: CurrentUser) -> Result<Json<DataExport>> {
    let row = exports::find(&state.db.read, current.id, state.clock.now()).await?;
    Ok(Json(row.map_or_else(DataExport::none, DataExport::from)))
}

/// The caller's ready archive as a zip download; 404 when they have none (anyone else's is
/// never reachable: the archive is found by the caller's session alone) or it expired.
#[utoipa::path(get, path = "/api/account/export/download", tag = "account", operation_id = "download_data_export",
    responses((status = 200, content_type = "application/zip", description = "The archive"),
              (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn download(State(state): State<AppState>, current: CurrentUser) -> Result<Response> {
    let not_found = || Error::not_found("You have no archive ready to download");
    let row = exports::find(&state.db.read, current.id, state.clock.now()).await?.ok_or_else(not_found)?;
    let archive = row.archive_id.as_deref().filter(|_| row.status == "ready").ok_or_else(not_found)?;
    let (size, bytes) = state.media.open_archive(archive).await?.ok_or_else(not_found)?;
    let day = chrono::DateTime::<chrono::Utc>::from_timestamp_millis(row.finished_at.unwrap_or(row.requested_at))
        .unwrap_or_default()
        .format("%Y-%m-%d");
    let headers = [
        (header::CONTENT_TYPE, "application/zip".to_string()),
        (header::CONTENT_LENGTH, size.to_string()),
        (header::CONTENT_DISPOSITION, format!("attachment; filename=\"murmur-data-{day}.zip\"")),
        (header::CACHE_CONTROL, "no-store".to_string()),
    ];
    Ok((headers, Body::from_stream(bytes)).into_response())
}
