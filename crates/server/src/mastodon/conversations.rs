//! Direct messages as Mastodon apps know them (docs/messages.md): a message is a status with
//! `visibility: "direct"`, written by `POST /api/v1/statuses` to the members it mentions (or to
//! the conversation of the message it replies to) and read, deleted and threaded at
//! `/api/v1/statuses/{id}` like a post; the member's conversations are
//! `/api/v1/conversations`. Requests are not shown to apps: they see accepted conversations
//! only, and accept or decline in Murmur. Every rule is the domain's (`murmur_domain::messages`).

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;
use axum::routing::{delete, get, post};
use serde_json::{Value, json};

use super::auth::Token;
use super::entities::{self, Context, Urls};
use super::error::{MastodonError, Result};
use super::paging::{Paging, offset_page, paged};
use super::params::QueryParams;
use crate::state::AppState;
use murmur_core::clock::Millis;
use murmur_domain::messages::{self, Message, MessageText, Place};
use murmur_domain::users::UserRow;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/conversations", get(list))
        .route("/api/v1/conversations/{id}", delete(remove))
        .route("/api/v1/conversations/{id}/read", post(read))
}

/// How many messages on each side of one its context shows.
const CONTEXT_MESSAGES: i64 = 40;

/// The member's own record, named in their conversations' entities.
async fn own_record(state: &AppState, member: i64) -> Result<UserRow> {
    murmur_domain::users::find_by_id(&state.db.read, member)
        .await?
        .ok_or(MastodonError(murmur_core::error::Error::Unauthorized))
}

/// Conversation `id` as Mastodon's entity for `member`; None when it shows in no app (a request).
pub async fn entity(state: &AppState, member: i64, id: i64) -> Result<Option<entities::Conversation>> {
    let conversation = messages::get(&state.db, member, id).await?;
    if conversation.place != Place::Inbox {
        return Ok(None);
    }
    let own = own_record(state, member).await?;
    let urls = Urls::of(state);
    let people = Default::default();
    let context = Context::new(&urls, &people, member, state.clock.now());
    Ok(Some(entities::conversation(&context, &own, &conversation)))
}

/// A conversation's id from the path; anything else is no conversation.
fn conversation_id(text: &str) -> Result<i64> {
    text.parse().ok().filter(|id| *id > 0).ok_or_else(MastodonError::not_found)
}

/// The member's accepted conversations, the latest message first (paged by offset).
async fn list(
    State(state): State<AppState>,
    token: Token,
    uri: Uri,
    QueryParams(paging): QueryParams<Paging>,
) -> Result<Response> {
    let member = token.member("read:statuses")?;
    let page = offset_page(&paging)?;
    let conversations = messages::list(&state.db, member, Place::Inbox, page).await?;
    let own = own_record(&state, member).await?;
    let urls = Urls::of(&state);
    let people = Default::default();
    let context = Context::new(&urls, &people, member, state.clock.now());
    let shown: Vec<entities::Conversation> =
        conversations.iter().map(|conversation| entities::conversation(&context, &own, conversation)).collect();
    let next = page.offset + shown.len() as i64;
    paged(&state, &uri, shown, |_| next)
}

/// The member has read the conversation: answers it.
async fn read(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:conversations")?;
    let id = conversation_id(&text)?;
    messages::mark_read(&state.db, member, id).await?;
    let conversation = entity(&state, member, id).await?.ok_or_else(MastodonError::not_found)?;
    Ok(Json(serde_json::to_value(conversation).map_err(anyhow::Error::from)?))
}

/// Takes the conversation out of the member's list: hidden until its next message, or left
/// when it is a group (as Murmur's own DELETE).
async fn remove(State(state): State<AppState>, token: Token, Path(text): Path<String>) -> Result<Json<Value>> {
    let member = token.member("write:conversations")?;
    messages::remove(&state.db, member, conversation_id(&text)?).await?;
    Ok(Json(json!({})))
}

/// Messages of one conversation as statuses for `member`, each mentioning every other member.
async fn statuses(state: &AppState, member: i64, shown: &[Message]) -> Result<Vec<entities::Status>> {
    let Some(first) = shown.first() else { return Ok(Vec::new()) };
    let view = messages::get(&state.db, member, first.conversation_id).await?;
    let own = own_record(state, member).await?;
    let mut members: Vec<&UserRow> = view.members.iter().collect();
    members.push(&own);
    // Authors who have left it meanwhile are still its messages' authors.
    for message in shown {
        if let Some(author) = &message.author
            && !members.iter().any(|member| member.id == author.id)
        {
            members.push(author);
        }
    }
    let urls = Urls::of(state);
    let people = Default::default();
    let context = Context::new(&urls, &people, member, state.clock.now());
    Ok(shown.iter().filter_map(|message| entities::message_status(&context, message, &members)).collect())
}

/// Message `id` as a status for `member`: 404 unless they read its conversation.
pub async fn message_status(state: &AppState, member: i64, id: i64) -> Result<Value> {
    status_of(state, member, &messages::message(&state.db, member, id).await?).await
}

/// A message `member` reads as a status; not found for one shown without its words.
async fn status_of(state: &AppState, member: i64, message: &Message) -> Result<Value> {
    let status =
        statuses(state, member, std::slice::from_ref(message)).await?.pop().ok_or_else(MastodonError::not_found)?;
    Ok(serde_json::to_value(status).map_err(anyhow::Error::from)?)
}

/// A direct status from an app: in the conversation of the message it replies to, or of its
/// author and the members it mentions. Answers its status.
pub async fn send(state: &AppState, author: i64, text: &str, reply_to: Option<i64>, now: Millis) -> Result<Value> {
    let text = MessageText::parse(text)?;
    let message = match reply_to.and_then(entities::message_of_status) {
        Some(replied) => {
            let conversation = messages::message(&state.db, author, replied).await?.conversation_id;
            messages::send(&state.db, author, conversation, &text, now).await?
        }
        None => {
            let named = murmur_domain::posts::entities::parse(text.as_str()).mentions();
            messages::send_to_named(&state.db, author, &named, &text, now).await?
        }
    };
    status_of(state, author, &message).await
}

/// Deletes the member's message for everyone; answers it as it was, with its text, as a
/// deleted status is answered.
pub async fn delete_message(state: &AppState, member: i64, id: i64) -> Result<Value> {
    let message = messages::message(&state.db, member, id).await?;
    let mut before = status_of(state, member, &message).await?;
    messages::delete_message(&state.db, member, id, state.clock.now()).await?;
    before["text"] = json!(message.content);
    Ok(before)
}

/// The messages before and after message `id`, as a thread's ancestors and descendants.
pub async fn context(state: &AppState, member: i64, id: i64) -> Result<Value> {
    let (before, after) = messages::around(&state.db, member, id, CONTEXT_MESSAGES).await?;
    Ok(json!({
        "ancestors": statuses(state, member, &before).await?,
        "descendants": statuses(state, member, &after).await?,
    }))
}
