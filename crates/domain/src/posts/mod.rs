//! Posts: writing, replying, reposting, liking, polls and threads. `writes` holds the write
//! transactions; `hydrate` turns rows into the API's `Post` for every list (feeds, profiles,
//! threads) in a bounded number of queries.

pub mod domain;
pub mod entities;
pub mod hydrate;
pub mod model;
pub mod profile;
pub(crate) mod store;
pub mod tags;
pub mod thread;
pub mod writes;

pub use model::{Post, PostRow};
pub use store::{
    MAX_REPLIES, PostRef, backfill_entities, backfill_muting_texts, history, likers_or_reposters, live_original,
    muting_text, prune_keys, removed_post_of, replies,
};

/// What a repost stores as its text (the spec's client sends it; the server does not rely on it).
pub const REPOST_CONTENT: &str = "♻️";
