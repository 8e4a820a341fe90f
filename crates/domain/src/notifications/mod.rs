//! Notifications: made by the server inside the transaction of their cause (follow, like,
//! repost, reply, mention, a moderators' removal, a data archive ready), listed and marked read
//! by their recipient.

pub mod store;

pub use store::{Kind, notify, notify_self, withdraw};
