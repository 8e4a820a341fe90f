//! Moderation: members report posts and members; moderators and admins work the queue of open
//! reports and act (dismiss, remove a post, suspend and lift, take invites away and give them
//! back), each action written to the log every member reads; the invite tree shows who brought
//! whom in. Blocks and mutes are in `safety`; docs/safety.md has the rules.
//!
//! `actions` (each write's transaction), `queue` (the queue's page), `store`
//! (SQL), `domain` (input parsed at the edge, and who may act on whom), `model` (the API's types).

pub mod actions;
pub mod domain;
pub mod model;
pub mod queue;
pub(crate) mod store;

pub use domain::{Moderator, Role, is_suspended};
pub use store::{end_expired_suspensions, invited_by, log_entry, log_page, role_of, set_role, tree_member};
