//! The member's blocks and mutes as lists, their muted words as v2 filters (read only), and
//! reports to the moderators. Murmur has no other servers, so no domain blocks: their list is
//! empty.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::{self, Urls};
use super::error::{MastodonError, Result};
use super::paging::{Paging, offset_page, paged};
use super::params::{Params, QueryParams, lenient};
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::moderation::domain::{Comment, ReportReason, ReportTarget};
use murmur_domain::safety;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/blocks", get(blocks))
        .route("/api/v1/mutes", get(mutes))
        .route("/api/v1/domain_blocks", get(domain_blocks))
        .route("/api/v1/reports", post(report))
        .route("/api/v2/filters", get(filters))
}

/// The member's muted words as Mastodon v2 filters: one filter per muted word, hiding (Murmur
/// leaves such posts out of every list but threads, which fold them), with its one keyword,
/// whole words. Apps read them; they are written in Murmur's Settings.
async fn filters(State(state): State<AppState>, token: Token) -> Result<Json<Value>> {
    let member = token.member("read:filters")?;
    let words = murmur_domain::safety::muted_words::list(&state.db.read, member, state.clock.now()).await?;
    let filters = words.iter().map(|word| entities::filter(word, "hide")).collect();
    Ok(Json(Value::Array(filters)))
}

/// Accounts of a list paged by offset (the list's order is not by id).
fn listed(state: &AppState, uri: &Uri, rows: &[safety::Listed], offset: i64) -> Result<Response> {
    let urls = Urls::of(state);
    let accounts: Vec<entities::Account> = rows.iter().map(|row| entities::account(&urls, &row.user, 0)).collect();
    let next = offset + accounts.len() as i64;
    paged(state, uri, accounts, |_| next)
}

async fn blocks(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:blocks")?;
    let page = offset_page(&paging)?;
    let rows = safety::blocked_by(&state.db.read, viewer, page).await?;
    listed(&state, &uri, &rows, page.offset)
}

async fn mutes(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let viewer = token.member("read:mutes")?;
    let page = offset_page(&paging)?;
    let rows = safety::muted_by(&state.db.read, viewer, page, state.clock.now()).await?;
    listed(&state, &uri, &rows, page.offset)
}

/// The domains the member blocks: none, as Murmur is one server.
async fn domain_blocks(token: Token) -> Result<Json<Value>> {
    token.member("read:blocks")?;
    Ok(Json(json!([])))
}

#[derive(Deserialize)]
struct NewReport {
    #[serde(default, deserialize_with = "lenient::id")]
    account_id: Option<i64>,
    #[serde(default, deserialize_with = "lenient::ids")]
    status_ids: Vec<i64>,
    comment: Option<String>,
    /// Mastodon's `spam`, `legal`, `violation` or `other`.
    category: Option<String>,
}

/// Reports a member, or one of their posts (the first of `status_ids`: Murmur's reports name one
/// post), with Murmur's reasons: `spam` is spam, anything else is other.
async fn report(State(state): State<AppState>, token: Token, Params(body): Params<NewReport>) -> Result<Json<Value>> {
    let reporter = token.member("write:reports")?;
    let account = body.account_id.ok_or_else(|| MastodonError::unprocessable("account_id is required"))?;
    let reason = ReportReason::parse(if body.category.as_deref() == Some("spam") { "spam" } else { "other" })?;
    let target = ReportTarget::parse(
        body.status_ids.first().copied(),
        Some(account).filter(|_| body.status_ids.is_empty()),
        None,
    )?;
    let comment = Comment::parse(body.comment.as_deref())?;
    let row =
        murmur_domain::moderation::actions::report(&state.db, reporter, target, reason, &comment, state.clock.now())
            .await?;
    Ok(Json(json!({
        "id": row.id.to_string(),
        "action_taken": false,
        "action_taken_at": null,
        "category": if row.reason == "spam" { "spam" } else { "other" },
        "comment": row.comment,
        "forwarded": false,
        "created_at": to_rfc3339(row.created_at),
        "status_ids": body.status_ids.iter().map(i64::to_string).collect::<Vec<_>>(),
        "rule_ids": [],
    })))
}
