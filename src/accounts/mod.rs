//! Accounts: magic-link sign-up and login, sessions, and the current member.

pub mod email;
pub mod extract;
pub mod routes;
pub mod session;

pub use email::Email;
pub use extract::{CurrentUser, MaybeUser};
pub use routes::router;
