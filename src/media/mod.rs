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
