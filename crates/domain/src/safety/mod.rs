//! Members' safety from each other: blocks and mutes (`routes`, `store`), and the one rule
//! every list and every interaction follows about them and about suspensions (`visibility`).
//! Reports and moderators' actions are in `moderation`; docs/safety.md has the rules as a table.
//! Names and text that cannot deceive (every writer of members' text calls it) are `murmur_core::text`.

pub mod store;
pub mod visibility;

pub use visibility::{Scope, ensure_can_interact};
