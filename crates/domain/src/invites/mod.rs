//! Invite codes: members hand them to friends; sign-up needs one.

pub mod code;
pub(crate) mod store;

pub use code::InviteCode;
pub use store::{CODE_ALPHABET, CODE_LEN, INVITE_LIFETIME, MONTHLY_INVITES};
pub use store::{InviteRow, insert_code, is_valid, list_for_owner, month_of, spend_on_code};
