//! Murmur's JSON API, one file per area: each handler parses the request, calls its area's
//! function and answers. No SQL and no transaction here (tests/api/layers.rs).

pub mod accounts;
pub mod apps;
pub mod discovery;
pub mod exports;
pub mod feeds;
pub mod follows;
pub mod invites;
pub mod lists;
pub mod live;
pub mod media;
pub mod messages;
pub mod moderation;
pub mod notifications;
pub mod posts;
pub mod push;
pub mod safety;
pub mod users;
pub mod waitlist;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

/// Every area's API routes (the media objects' own routes are `media::object_routes`).
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(accounts::router())
        .merge(waitlist::router())
        .merge(invites::router())
        .merge(posts::router())
        .merge(feeds::router())
        .merge(users::router())
        .merge(follows::router())
        .merge(lists::router())
        .merge(messages::router())
        .merge(notifications::router())
        .merge(safety::router())
        .merge(moderation::router())
        .merge(discovery::router())
        .merge(live::router())
        .merge(media::api_router())
        .merge(exports::router())
        .merge(apps::router())
        .merge(push::router())
}
