//! HTTP routes of the waitlist.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::store;
use crate::accounts::Email;
use crate::api::Json;
use crate::app::AppState;
use crate::error::Result;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(join))
}

#[derive(Deserialize, ToSchema)]
pub struct JoinRequest {
    email: String,
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

/// Puts an address on the waitlist. Joining twice answers the same, so the answer does not
/// tell who is on the list.
#[utoipa::path(post, path = "/api/waitlist", tag = "waitlist", request_body = JoinRequest,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody)))]
async fn join(State(state): State<AppState>, Json(body): Json<JoinRequest>) -> Result<Json<Message>> {
    let email = Email::parse(&body.email)?;
    store::join(&state.db.write, &email, state.clock.now()).await?;
    Ok(Json(Message { message: "You're on the list! We'll let you know when it's your turn.".into() }))
}
