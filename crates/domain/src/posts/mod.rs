//! Posts: writing, replying, reposting, liking, polls and threads. `writes` holds the write
//! transactions; `hydrate` turns rows into the API's `Post` for every list (feeds, profiles,
//! threads) in a bounded number of queries.

pub mod domain;
pub mod entities;
pub mod hydrate;
pub mod model;
pub mod profile;
pub mod store;
pub mod tags;
pub mod thread;
pub mod writes;

pub use model::{Post, PostRow};

/// What a repost stores as its text (the spec's client sends it; the server does not rely on it).
pub const REPOST_CONTENT: &str = "♻️";
