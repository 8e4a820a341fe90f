//! Accounts: magic-link sign-up and login, sessions, the member's e-mail address, and leaving.
//! Their HTTP side (cookies read, client addresses, user-agent names) is `murmur_server`'s.

pub mod email;
pub mod email_change;
pub mod leaving;
pub mod magic_link;
pub mod sign_in;
pub(crate) mod store;

pub use email::Email;
