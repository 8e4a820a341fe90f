//! Members' safety from each other: blocks and mutes (`store`). The one rule every list and
//! every interaction follows about them and about suspensions is `crate::visibility`.
//! Reports and moderators' actions are in `moderation`; docs/safety.md has the rules as a table.
//! Names and text that cannot deceive (every writer of members' text calls it) are `murmur_core::text`.

pub mod store;
