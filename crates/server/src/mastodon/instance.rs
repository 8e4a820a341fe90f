//! What apps read about the instance before anything else: its name, version, limits and
//! addresses (`/api/v1/instance`, `/api/v2/instance`, NodeInfo), and the lists they ask for on
//! start that Murmur does not have (answered empty and well-formed).

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{Value, json};

use super::auth::Token;
use super::error::Result;
use crate::state::AppState;
use murmur_domain::posts::domain as posts;

/// The Mastodon API version Murmur answers as, in the form apps parse.
pub fn version() -> String {
    format!("4.3.0 (compatible; Murmur {})", env!("CARGO_PKG_VERSION"))
}

const TITLE: &str = "Murmur";
const DESCRIPTION: &str = "The human network: real voices, no bots. Members join with an invite from a friend.";
/// Why an app's sign-up button leads nowhere.
pub const INVITE_ONLY: &str =
    "Murmur is invite-only: join with an invite code from a member, on the instance's website.";

/// The languages Murmur speaks (its pages, messages and e-mails), by ISO 639-1 code and name.
const LANGUAGES: [(&str, &str); 1] = [("en", "English")];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/instance", get(instance_v1))
        .route("/api/v2/instance", get(instance_v2))
        .route("/api/v1/instance/peers", get(empty_list))
        .route("/api/v1/instance/activity", get(empty_list))
        .route("/api/v1/instance/rules", get(empty_list))
        .route("/.well-known/nodeinfo", get(nodeinfo_links))
        .route("/nodeinfo/2.0", get(nodeinfo))
        .route("/.well-known/host-meta", get(host_meta))
        .route("/api/v1/custom_emojis", get(empty_list))
        .route("/api/v1/announcements", get(member_empty_list))
        .route("/api/v1/filters", get(member_empty_list))
        .route("/api/v1/scheduled_statuses", get(member_empty_list))
        .route("/api/v1/follow_requests", get(member_empty_list))
        .route("/api/v1/endorsements", get(member_empty_list))
        .route("/api/v1/featured_tags", get(member_empty_list))
        .route("/api/v1/trends/statuses", get(empty_list))
        .route("/api/v1/trends/links", get(empty_list))
        .route("/api/v1/preferences", get(preferences))
        .route("/api/v1/accounts", axum::routing::post(registration_refused))
        .route("/api/v1/instance/languages", get(languages))
        .route(super::entities::MISSING_AVATAR, get(missing_avatar))
        .route(super::entities::MISSING_HEADER, get(missing_header))
}

fn configuration(state: &AppState) -> Value {
    json!({
        "urls": { "streaming": streaming_url(state) },
        "accounts": { "max_featured_tags": 0, "max_pinned_statuses": 0 },
        "statuses": {
            "max_characters": posts::POST_MAX_CHARS,
            "max_media_attachments": murmur_domain::media::MAX_IMAGES,
            "characters_reserved_per_url": 0,
        },
        "media_attachments": {
            "supported_mime_types": ["image/jpeg", "image/png", "image/webp", "image/gif"],
            "description_limit": posts::IMAGE_DESCRIPTION_MAX_CHARS,
            "image_size_limit": murmur_domain::media::MAX_BYTES,
            "image_matrix_limit": murmur_domain::media::MAX_PIXELS,
            "video_size_limit": 0,
            "video_frame_rate_limit": 0,
            "video_matrix_limit": 0,
        },
        "polls": {
            "max_options": posts::POLL_MAX_OPTIONS,
            "max_characters_per_option": posts::POLL_OPTION_MAX_CHARS,
            "min_expiration": posts::POLL_MIN.as_millis() / murmur_core::clock::SECOND,
            "max_expiration": posts::POLL_MAX.as_millis() / murmur_core::clock::SECOND,
        },
        "translation": { "enabled": false },
        "vapid": { "public_key": state.push.keys.public_key() },
    })
}

fn streaming_url(state: &AppState) -> String {
    let origin = state.config.public_origin();
    match origin.strip_prefix("https://") {
        Some(host) => format!("wss://{host}"),
        None => format!("ws://{}", origin.trim_start_matches("http://")),
    }
}

fn domain(state: &AppState) -> String {
    state.config.public_url.host_str().unwrap_or_default().to_string()
}

async fn instance_v1(State(state): State<AppState>) -> Json<Value> {
    let mut configuration = configuration(&state);
    let urls = configuration["urls"].take();
    Json(json!({
        "uri": domain(&state),
        "title": TITLE,
        "short_description": DESCRIPTION,
        "description": DESCRIPTION,
        "email": "",
        "version": version(),
        "urls": { "streaming_api": urls["streaming"] },
        "stats": { "user_count": 0, "status_count": 0, "domain_count": 1 },
        "thumbnail": null,
        "languages": LANGUAGES.iter().map(|(code, _)| code).collect::<Vec<_>>(),
        "registrations": false,
        "approval_required": true,
        "invites_enabled": true,
        "configuration": configuration,
        "contact_account": null,
        "rules": [],
    }))
}

async fn instance_v2(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "domain": domain(&state),
        "title": TITLE,
        "version": version(),
        "description": DESCRIPTION,
        "usage": { "users": { "active_month": 0 } },
        "thumbnail": { "url": format!("{}/icon-512.png", state.config.public_origin()) },
        "icon": [],
        "languages": LANGUAGES.iter().map(|(code, _)| code).collect::<Vec<_>>(),
        "configuration": configuration(&state),
        "registrations": { "enabled": false, "approval_required": true, "message": INVITE_ONLY, "url": null },
        "api_versions": { "mastodon": 2 },
        "contact": { "email": "", "account": null },
        "rules": [],
    }))
}

async fn nodeinfo_links(State(state): State<AppState>) -> Json<Value> {
    Json(json!({ "links": [{
        "rel": "http://nodeinfo.diaspora.software/ns/schema/2.0",
        "href": format!("{}/nodeinfo/2.0", state.config.public_origin()),
    }]}))
}

async fn nodeinfo() -> Json<Value> {
    Json(json!({
        "version": "2.0",
        "software": { "name": "murmur", "version": env!("CARGO_PKG_VERSION") },
        "protocols": [],
        "services": { "outbound": [], "inbound": [] },
        "usage": { "users": {}, "localPosts": 0 },
        "openRegistrations": false,
        "metadata": { "nodeName": TITLE, "invitesOnly": true },
    }))
}

async fn host_meta(State(state): State<AppState>) -> impl IntoResponse {
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<XRD xmlns=\"http://docs.oasis-open.org/ns/xri/xrd-1.0\">\n  \
         <Link rel=\"lrdd\" template=\"{}/.well-known/webfinger?resource={{uri}}\"/>\n</XRD>\n",
        murmur_core::html::escape(&state.config.public_origin())
    );
    ([(header::CONTENT_TYPE, "application/xrd+xml; charset=utf-8")], xml)
}

async fn empty_list() -> Json<Value> {
    Json(json!([]))
}

/// A member's list of something Murmur does not have: empty for any member's token.
async fn member_empty_list(token: Token) -> Result<Json<Value>> {
    token.any_member()?;
    Ok(Json(json!([])))
}

/// The member's reading settings, as the web app's Settings has them.
async fn preferences(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    let member = token.member("read:accounts")?;
    let row =
        murmur_domain::users::find_by_id(&state.db.read, member).await?.ok_or_else(super::MastodonError::not_found)?;
    Ok(Json(json!({
        "posting:default:visibility": "public",
        "posting:default:sensitive": false,
        "posting:default:language": null,
        "reading:expand:media": "default",
        "reading:expand:spoilers": row.expand_warnings != 0,
    })))
}

/// The languages Murmur knows, as Mastodon lists the ones its posts may be in.
async fn languages() -> Json<Value> {
    Json(Value::Array(LANGUAGES.iter().map(|(code, name)| json!({"code": code, "name": name})).collect()))
}

/// A picture of a member who has none: the same for everyone, so kept by caches for a day.
fn picture(png: &'static [u8]) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/png"), (header::CACHE_CONTROL, "public, max-age=86400")], png)
}

async fn missing_avatar() -> impl IntoResponse {
    picture(murmur_domain::media::placeholders::avatar_png())
}

async fn missing_header() -> impl IntoResponse {
    picture(murmur_domain::media::placeholders::header_png())
}

async fn registration_refused() -> super::MastodonError {
    super::MastodonError::forbidden(INVITE_ONLY)
}
