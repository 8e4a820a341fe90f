//! HTTP routes of the waitlist.

use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::Json;
use crate::client_ip::ClientIp;
use crate::error::Result;
use crate::routes::accounts::sign_in::Message;
use crate::state::AppState;
use murmur_core::clock::HOUR;
use murmur_core::rate_limit::{self, Limit};
use murmur_domain::accounts::Email;
use murmur_domain::waitlist;

/// Joins per client network and hour: enough for a household or an office, not for a script
/// filling the list.
pub const JOINS_PER_IP: Limit = Limit { max: 10, window: HOUR };

pub const JOINED: &str = "You're on the list! We'll let you know when it's your turn.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(join))
}

#[derive(Deserialize, ToSchema)]
pub struct JoinRequest {
    /// Trimmed and lower-cased; at most 254 characters.
    #[schema(format = Email, max_length = 254)]
    email: String,
}

/// Puts an address on the waitlist. Joining twice answers the same, so the answer does not
/// tell who is on the list.
#[utoipa::path(post, path = "/api/waitlist", tag = "waitlist", request_body = JoinRequest,
    responses((status = 200, body = Message), (status = 400, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn join(State(state): State<AppState>, ip: ClientIp, Json(body): Json<JoinRequest>) -> Result<Json<Message>> {
    let email = Email::parse(&body.email)?;
    let now = state.clock.now();
    rate_limit::hit(
        &state.db,
        &format!("waitlist:ip:{}", ip.limit_key()),
        JOINS_PER_IP,
        now,
        "Too many waitlist sign-ups from your network. Please try again later.",
    )
    .await?;
    waitlist::join(&state.db.write, &email, now).await?;
    Ok(Message::new(JOINED))
}
