//! Accounts: magic-link sign-up and login, sessions, and the current member, who lists and
//! ends their sessions and changes their e-mail address.

pub mod account_routes;
pub mod client_ip;
pub mod email;
pub mod email_change;
pub mod extract;
pub mod leaving;
pub mod leaving_routes;
pub mod magic_link;
pub mod routes;
pub mod session;
pub mod session_reads;
pub mod sign_in;
pub mod store;
pub mod user_agent;
pub mod username;

pub use client_ip::ClientIp;
pub use email::Email;
pub use extract::{CurrentUser, MaybeUser};
pub use username::Username;

/// The accounts' routes: sign-in and sessions, the member's own account, leaving.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::state::AppState> {
    routes::router().merge(account_routes::router()).merge(leaving_routes::router())
}
