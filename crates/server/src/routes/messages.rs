//! HTTP routes of direct messages: a member's conversations and their messages. The rules are
//! `murmur_domain::messages`'; a conversation the caller is not in answers 404 on every route.
//! The JSON shapes are made here from the area's views.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::{Json, MAX_PAGE, Page, PageParams, Path, Query};
use crate::error::{ErrorBody, Result};
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_core::clock::to_rfc3339;
use murmur_domain::messages::{self, MessageText, Place, Removed};
use murmur_domain::users::User;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_conversations, open_conversation))
        .routes(routes!(unread_conversations))
        .routes(routes!(get_conversation, remove_conversation))
        .routes(routes!(list_messages, send_message))
        .routes(routes!(mark_conversation_read))
        .routes(routes!(accept_conversation))
        .routes(routes!(mute_conversation))
        .routes(routes!(delete_message))
}

/// Where a conversation shows: the inbox, or Requests (started by someone the member does not
/// follow, until accepted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum ConversationBox {
    Inbox,
    Requests,
}

impl From<Place> for ConversationBox {
    fn from(place: Place) -> ConversationBox {
        match place {
            Place::Inbox => ConversationBox::Inbox,
            Place::Requests => ConversationBox::Requests,
        }
    }
}

/// Why a message shows without its words: its author deleted it ("Message deleted"), or its
/// author left Murmur ("Message from a deleted member removed").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum MessageRemoved {
    Deleted,
    MemberDeleted,
}

/// A message as its conversation's members see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DirectMessage {
    pub id: i64,
    pub conversation_id: i64,
    /// Null once its author left Murmur.
    pub author: Option<User>,
    /// Empty when removed.
    pub content: String,
    pub removed: Option<MessageRemoved>,
    pub created_at: String,
}

impl From<messages::Message> for DirectMessage {
    fn from(message: messages::Message) -> DirectMessage {
        DirectMessage {
            id: message.id,
            conversation_id: message.conversation_id,
            author: message.author.map(|row| row.public()),
            content: message.content,
            removed: message.removed.map(|removed| match removed {
                Removed::ByAuthor => MessageRemoved::Deleted,
                Removed::AuthorLeft => MessageRemoved::MemberDeleted,
            }),
            created_at: to_rfc3339(message.created_at),
        }
    }
}

/// A conversation as the caller sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: i64,
    /// Its other members still in it, by username.
    pub members: Vec<User>,
    #[serde(rename = "box")]
    pub place: ConversationBox,
    /// It holds a message newer than the last one the caller read.
    pub unread: bool,
    pub muted: bool,
    /// The caller started it and no one has accepted it yet: "Sent as a request".
    pub sent_as_request: bool,
    /// The caller may write in it now (not after a block between its members, or once no one
    /// else is left).
    pub can_send: bool,
    pub last_message: Option<DirectMessage>,
    pub created_at: String,
}

impl From<messages::Conversation> for Conversation {
    fn from(conversation: messages::Conversation) -> Conversation {
        Conversation {
            id: conversation.id,
            members: conversation.members.into_iter().map(|row| row.public()).collect(),
            place: conversation.place.into(),
            unread: conversation.unread,
            muted: conversation.muted,
            sent_as_request: conversation.sent_as_request,
            can_send: conversation.can_send,
            last_message: conversation.last_message.map(DirectMessage::from),
            created_at: to_rfc3339(conversation.created_at),
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenConversationRequest {
    /// The other members: 1 to 7 ids (the caller's own is left out).
    pub member_ids: Vec<i64>,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendMessageRequest {
    /// 1 to 1,000 characters.
    pub content: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MuteConversationRequest {
    pub muted: bool,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ConversationsParams {
    /// `inbox` (the default) or `requests`.
    #[serde(rename = "box")]
    #[param(rename = "box")]
    pub place: Option<ConversationBox>,
    /// Page size, 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
    /// Items to skip, 0 to 100000 (default 0).
    #[param(minimum = 0, maximum = 100000)]
    pub offset: Option<i64>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MessagesParams {
    /// Page size, 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
    /// Only messages older than this message id.
    #[param(minimum = 1)]
    pub before: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct UnreadConversations {
    /// Conversations in the inbox, not muted, holding a message the caller has not read.
    pub count: i64,
}

/// The caller's conversations in the inbox or in Requests, the latest message first.
#[utoipa::path(get, path = "/api/conversations", tag = "messages", params(ConversationsParams),
    responses((status = 200, body = Vec<Conversation>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_conversations(
    State(state): State<AppState>,
    current: CurrentUser,
    Query(params): Query<ConversationsParams>,
) -> Result<Json<Vec<Conversation>>> {
    let page = PageParams { limit: params.limit, offset: params.offset }.page(20, MAX_PAGE)?;
    let place = match params.place.unwrap_or(ConversationBox::Inbox) {
        ConversationBox::Inbox => Place::Inbox,
        ConversationBox::Requests => Place::Requests,
    };
    let list = messages::list(&state.db, current.id, place, page).await?;
    Ok(Json(list.into_iter().map(Conversation::from).collect()))
}

/// Opens the conversation of the caller and these members: the one they already have (201 only
/// for a new one). Each member's setting decides whether it arrives in their inbox, under
/// Requests, or not at all (403).
#[utoipa::path(post, path = "/api/conversations", tag = "messages", request_body = OpenConversationRequest,
    responses((status = 200, body = Conversation), (status = 201, body = Conversation), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn open_conversation(
    State(state): State<AppState>,
    current: CurrentUser,
    Json(body): Json<OpenConversationRequest>,
) -> Result<(StatusCode, Json<Conversation>)> {
    let (conversation, made) = messages::open(&state.db, current.id, &body.member_ids, state.clock.now()).await?;
    let status = if made { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(conversation.into())))
}

/// How many of the caller's conversations hold a message they have not read.
#[utoipa::path(get, path = "/api/conversations/unread-count", tag = "messages",
    responses((status = 200, body = UnreadConversations), (status = 401, body = ErrorBody)))]
async fn unread_conversations(
    State(state): State<AppState>,
    current: CurrentUser,
) -> Result<Json<UnreadConversations>> {
    Ok(Json(UnreadConversations { count: messages::unread_count(&state.db, current.id).await? }))
}

/// One of the caller's conversations.
#[utoipa::path(get, path = "/api/conversations/{id}", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 200, body = Conversation), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_conversation(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Conversation>> {
    Ok(Json(messages::get(&state.db, current.id, id).await?.into()))
}

/// Puts a conversation away: a request is declined (its sender is not told), a group is left,
/// a conversation of two is hidden until its next message.
#[utoipa::path(delete, path = "/api/conversations/{id}", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn remove_conversation(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode> {
    messages::remove(&state.db, current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A conversation's messages, newest first; `before` pages back.
#[utoipa::path(get, path = "/api/conversations/{id}/messages", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Conversation id"), MessagesParams),
    responses((status = 200, body = Vec<DirectMessage>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn list_messages(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Query(params): Query<MessagesParams>,
) -> Result<Json<Vec<DirectMessage>>> {
    let limit = Page::parse(params.limit, None, 20, MAX_PAGE)?.limit;
    let page = Page::window(limit, params.before, None);
    let list = messages::messages(&state.db, current.id, id, page).await?;
    Ok(Json(list.into_iter().map(DirectMessage::from).collect()))
}

/// Writes a message in one of the caller's conversations. Refused (403) after a block between
/// its members; past three messages while it is a request no one accepted (422).
#[utoipa::path(post, path = "/api/conversations/{id}/messages", tag = "messages", request_body = SendMessageRequest,
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 201, body = DirectMessage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
#[tracing::instrument(skip(state, body), fields(user = current.id))]
async fn send_message(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<SendMessageRequest>,
) -> Result<(StatusCode, Json<DirectMessage>)> {
    let text = MessageText::parse(&body.content)?;
    let message = messages::send(&state.db, current.id, id, &text, state.clock.now()).await?;
    Ok((StatusCode::CREATED, Json(message.into())))
}

/// The caller has read the conversation up to its latest message (no one else is told).
#[utoipa::path(post, path = "/api/conversations/{id}/read", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn mark_conversation_read(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode> {
    messages::mark_read(&state.db, current.id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Accepts a request: it moves to the caller's inbox.
#[utoipa::path(post, path = "/api/conversations/{id}/accept", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 200, body = Conversation), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn accept_conversation(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<Conversation>> {
    Ok(Json(messages::accept(&state.db, current.id, id).await?.into()))
}

/// Mutes a conversation (its messages no longer count as unread), or unmutes it.
#[utoipa::path(put, path = "/api/conversations/{id}/mute", tag = "messages", request_body = MuteConversationRequest,
    params(("id" = i64, Path, minimum = 1, description = "Conversation id")),
    responses((status = 200, body = Conversation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn mute_conversation(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
    Json(body): Json<MuteConversationRequest>,
) -> Result<Json<Conversation>> {
    Ok(Json(messages::set_muted(&state.db, current.id, id, body.muted).await?.into()))
}

/// Deletes one of the caller's messages for everyone: it shows as "Message deleted".
#[utoipa::path(delete, path = "/api/messages/{id}", tag = "messages",
    params(("id" = i64, Path, minimum = 1, description = "Message id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
#[tracing::instrument(skip(state), fields(user = current.id))]
async fn delete_message(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode> {
    messages::delete_message(&state.db, current.id, id, state.clock.now()).await?;
    Ok(StatusCode::NO_CONTENT)
}
