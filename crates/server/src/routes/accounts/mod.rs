//! The accounts' routes: sign-in and sessions, the member's own account, leaving.

pub mod account;
pub mod leaving;
pub mod passkeys;
pub mod sign_in;

use utoipa_axum::router::OpenApiRouter;

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    sign_in::router().merge(account::router()).merge(leaving::router()).merge(passkeys::router())
}
