//! Media: image uploads and serving (filled in by the media work).

use axum::Router;
use utoipa_axum::router::OpenApiRouter;

use crate::app::AppState;
use crate::config::Config;

/// Where uploaded images live.
#[derive(Clone)]
pub struct MediaStore {}

impl MediaStore {
    pub async fn from_config(_config: &Config) -> anyhow::Result<MediaStore> {
        Ok(MediaStore {})
    }

    /// The origin of an external bucket the browser talks to (for the CSP), if any.
    pub fn external_origin(&self) -> Option<String> {
        None
    }
}

/// `/api/objects/...` calls.
pub fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
}

/// `/objects/{id}`: serving images.
pub fn object_routes() -> Router<AppState> {
    Router::new()
}

/// Background upkeep (orphan uploads, expired sessions and counters).
pub fn spawn_background(_state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {})
}

/// Resolves the image URLs a member sends with a post or profile (an upload URL this server
/// handed out, or the `/objects/{id}` path it answers) to media ids. Each must exist, belong
/// to `owner_id` and have passed the image checks; any other URL is a 400. Marks them attached
/// (so the orphan cleanup keeps them). Call inside the transaction that stores the reference.
pub async fn claim(
    _conn: &mut sqlx::AnyConnection,
    _owner_id: i64,
    urls: &[String],
    _now: crate::clock::Millis,
) -> crate::error::Result<Vec<String>> {
    if urls.is_empty() {
        return Ok(Vec::new());
    }
    Err(crate::error::Error::bad_request("Image uploads are not available yet"))
}

/// The path an image is served at, stored in posts and profiles.
pub fn object_path(media_id: &str) -> String {
    format!("/objects/{media_id}")
}
