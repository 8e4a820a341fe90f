//! Murmur's product: each area's rules, as functions that take plain inputs and answer a result
//! or a refusal (`murmur_core::Error`). It speaks no HTTP; `murmur_server` is one interface over it.
//!
//! The areas, lowest first (docs/architecture.md); an area names only those before it.

pub mod accounts;
pub mod discovery;
pub mod exports;
pub mod feeds;
pub mod follows;
pub mod invites;
pub mod live;
pub mod mail;
pub mod media;
pub mod moderation;
pub mod notifications;
pub mod posts;
pub mod safety;
pub mod users;
pub mod waitlist;
