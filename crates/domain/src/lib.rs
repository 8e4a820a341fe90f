//! Murmur's product: each area's rules, as functions that take plain inputs and answer a result
//! or a refusal (`murmur_core::Error`). It speaks no HTTP; `murmur_server` is one interface over it.
//!
//! The areas have one order, lowest first, written in docs/architecture.md ("murmur-domain: the
//! areas"): an area names only the areas before it there, never a later one (tests/api/layers.rs
//! checks it).

pub mod accounts;
pub mod apps;
pub mod discovery;
pub mod exports;
pub mod feeds;
pub mod follows;
pub mod invites;
pub mod link_cards;
pub mod lists;
pub mod live;
pub mod mail;
pub mod media;
pub mod messages;
pub mod moderation;
pub mod notifications;
pub mod passkeys;
pub mod posts;
pub mod profiles;
pub mod push;
pub mod safety;
pub mod sessions;
pub mod timelines;
pub mod users;
pub mod visibility;
pub mod waitlist;
