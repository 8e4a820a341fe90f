//! A thread as its reader sees it, for both interfaces: the post, the posts it answers (top
//! first) and its replies (oldest first), the parents and replies that hold a word the reader
//! mutes marked to be folded rather than left out, so the conversation keeps its shape.

use super::{Post, hydrate, store};
use murmur_core::clock::Millis;
use murmur_core::db::{Backend, Pool};
use murmur_core::error::Result;

pub struct Thread {
    /// The posts the post answers, top first.
    pub ancestors: Vec<Post>,
    /// None when the reader may not see it.
    pub post: Option<Post>,
    /// Its first replies, oldest first (`store::MAX_REPLIES`).
    pub replies: Vec<Post>,
}

/// The thread of post `post_id` (a live original) as `viewer` sees it at `now`.
pub async fn read(pool: &Pool, backend: Backend, viewer: i64, post_id: i64, now: Millis) -> Result<Thread> {
    let mut thread = Thread { ancestors: Vec::new(), post: None, replies: Vec::new() };
    for (ord, found) in hydrate::list_with_ord(pool, backend, viewer, &store::thread(post_id)).await? {
        match ord {
            ..0 => thread.ancestors.push(found),
            0 => thread.post = Some(found),
            _ => thread.replies.push(found),
        }
    }
    hydrate::mark_muted(pool, viewer, &mut thread.ancestors, now).await?;
    hydrate::mark_muted(pool, viewer, &mut thread.replies, now).await?;
    Ok(thread)
}
