//! Invite codes: members hand them to friends; sign-up needs one.

pub mod code;
pub mod store;

pub use code::InviteCode;
pub use store::{CODE_ALPHABET, CODE_LEN, INVITE_LIFETIME, MONTHLY_INVITES};
