//! For You: a ranked feed of the whole network. See docs/feeds.md for the design.
//!
//! Candidates: the newest `MAX_CANDIDATES` original posts (no replies, no reposts, not deleted)
//! of the last `WINDOW` days, not the caller's own. Bounded whatever the table's size: the
//! query walks `posts_created_idx` backwards from now and stops after 1,000 matches or at the
//! window's start (ordering by id instead made SQLite scan the whole table when the window
//! holds fewer than 1,000 posts). The unary `+` in `+reply_to_id IS NULL` keeps SQLite's
//! planner (which has no statistics) from answering `IS NULL` with `posts_reply_to_idx`, an
//! "equality" match that is in fact most of the table: on 1M posts it walked every top-level
//! post and sorted them (285 ms a request; 4.6 s p50 under the benchmark's load) instead of
//! walking `posts_created_idx` (0.4 ms). PostgreSQL reads `+x` as x and plans as before.
//!
//! Score (Hacker-News-style gravity):
//!
//! ```text
//!                 1 + likes + 2·replies + 3·reposts
//!     score = ─────────────────────────────────────────
//!                      (age in hours + 2) ^ 1.5
//! ```
//!
//! Engagement raises a post, age lowers it; a repost (sharing) weighs more than a reply
//! (conversation), which weighs more than a like. The `+ 2` keeps brand-new posts from
//! dividing by almost zero; ties go to the newer post. Then no author may have more than
//! `MAX_RUN` posts in a row: a post that would make the run longer waits for the next place a
//! different author has taken (and is dropped if only its author is left).
//!
//! Stable pages: the ranked list (at most `SNAPSHOT_SIZE` ids) is stored per member when they
//! load the first page (offset 0) and later pages are slices of it, so likes and new posts
//! arriving meanwhile neither repeat nor skip anything. A later page with no snapshot, or one
//! older than `SNAPSHOT_TTL`, ranks afresh. Posts deleted since are left out of their page (the
//! page is then shorter; nothing else moves).

use std::collections::VecDeque;

use sqlx::AnyPool;

use crate::api::Page;
use crate::clock::{DAY, HOUR, Millis};
use crate::db::Db;
use crate::error::Result;
use crate::posts::PostRow;
use crate::posts::store::rows_by_ids;

pub const WINDOW: Millis = 7 * DAY;
pub const MAX_CANDIDATES: i64 = 1000;
pub const SNAPSHOT_SIZE: usize = 500;
pub const SNAPSHOT_TTL: Millis = HOUR;
pub const MAX_RUN: usize = 2;

/// What ranking needs of a candidate post.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Candidate {
    pub id: i64,
    pub author_id: i64,
    pub created_at: Millis,
    pub like_count: i64,
    pub repost_count: i64,
    pub reply_count: i64,
}

/// The formula above.
pub fn score(post: &Candidate, now: Millis) -> f64 {
    let engagement = 1.0
        + post.like_count as f64
        + 2.0 * post.reply_count as f64
        + 3.0 * post.repost_count as f64;
    let age_hours = ((now - post.created_at).max(0) as f64) / HOUR as f64;
    engagement / (age_hours + 2.0).powf(1.5)
}

/// Candidates ranked by score (ties: newer first), with runs of one author limited.
pub fn rank(mut candidates: Vec<Candidate>, now: Millis) -> Vec<i64> {
    candidates.sort_by(|a, b| {
        score(b, now)
            .total_cmp(&score(a, now))
            .then(b.id.cmp(&a.id))
    });
    let ranked: Vec<(i64, i64)> = candidates.iter().map(|c| (c.id, c.author_id)).collect();
    limit_runs(ranked, MAX_RUN)
}

/// Keeps the order of `(post, author)` pairs but never lets one author have more than
/// `max_run` in a row: a post that would is deferred to the first place it fits.
pub fn limit_runs(ranked: Vec<(i64, i64)>, max_run: usize) -> Vec<i64> {
    let mut pending: VecDeque<(i64, i64)> = ranked.into();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let tail = &out[out.len().saturating_sub(max_run)..];
        let blocked =
            (tail.len() == max_run && tail.iter().all(|(_, a)| *a == tail[0].1)).then(|| tail[0].1);
        let Some(next) = pending
            .iter()
            .position(|(_, author)| Some(*author) != blocked)
        else {
            break;
        };
        if let Some(post) = pending.remove(next) {
            out.push(post);
        }
    }
    out.into_iter().map(|(id, _)| id).collect()
}

/// One page of the viewer's For You feed, in ranked order.
pub async fn page(db: &Db, viewer: i64, page: Page, now: Millis) -> Result<Vec<PostRow>> {
    let kept = if page.offset > 0 {
        snapshot(&db.read, viewer, now).await?
    } else {
        None
    };
    let ids = match kept {
        Some(ids) => ids,
        None => rebuild(db, viewer, now).await?,
    };
    let start = (page.offset as usize).min(ids.len());
    let end = (start + page.limit as usize).min(ids.len());
    let wanted = &ids[start..end];
    let mut rows: Vec<PostRow> = rows_by_ids(&db.read, wanted)
        .await?
        .into_iter()
        .filter(|r| r.deleted_at.is_none())
        .collect();
    rows.sort_by_key(|row| wanted.iter().position(|id| *id == row.id));
    Ok(rows)
}

async fn snapshot(pool: &AnyPool, viewer: i64, now: Millis) -> Result<Option<Vec<i64>>> {
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT created_at, post_ids FROM for_you_snapshots WHERE user_id = $1")
            .bind(viewer)
            .fetch_optional(pool)
            .await?;
    Ok(row
        .filter(|(created_at, _)| now - created_at < SNAPSHOT_TTL)
        .map(|(_, ids)| ids.split(',').filter_map(|id| id.parse().ok()).collect()))
}

async fn rebuild(db: &Db, viewer: i64, now: Millis) -> Result<Vec<i64>> {
    let candidates: Vec<Candidate> = sqlx::query_as(
        "SELECT id, author_id, created_at, like_count, repost_count, reply_count FROM posts \
         WHERE created_at >= $1 AND author_id <> $2 AND deleted_at IS NULL \
           AND +reply_to_id IS NULL AND repost_of_id IS NULL \
         ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(now - WINDOW)
    .bind(viewer)
    .bind(MAX_CANDIDATES)
    .fetch_all(&db.read)
    .await?;
    let mut ids = rank(candidates, now);
    ids.truncate(SNAPSHOT_SIZE);
    let joined = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    sqlx::query(
        "INSERT INTO for_you_snapshots (user_id, created_at, post_ids) VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET created_at = excluded.created_at, post_ids = excluded.post_ids",
    )
    .bind(viewer)
    .bind(now)
    .bind(joined)
    .execute(&db.write)
    .await?;
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(id: i64, author_id: i64, age_hours: i64, likes: i64) -> Candidate {
        Candidate {
            id,
            author_id,
            created_at: 100 * HOUR - age_hours * HOUR,
            like_count: likes,
            repost_count: 0,
            reply_count: 0,
        }
    }

    #[test]
    fn engagement_raises_and_age_lowers_a_post() {
        let now = 100 * HOUR;
        assert!(score(&post(1, 1, 1, 10), now) > score(&post(2, 1, 1, 0), now));
        assert!(score(&post(1, 1, 1, 5), now) > score(&post(2, 1, 30, 5), now));
        let shared = Candidate {
            repost_count: 1,
            ..post(3, 1, 1, 0)
        };
        let liked = post(4, 1, 1, 1);
        assert!(score(&shared, now) > score(&liked, now));
    }

    #[test]
    fn ties_go_to_the_newer_post() {
        assert_eq!(
            rank(vec![post(1, 1, 2, 0), post(2, 2, 2, 0)], 100 * HOUR),
            [2, 1]
        );
    }

    #[test]
    fn no_author_has_more_than_two_in_a_row() {
        let ranked = vec![(1, 7), (2, 7), (3, 7), (4, 7), (5, 8), (6, 9)];
        assert_eq!(limit_runs(ranked, 2), [1, 2, 5, 3, 4, 6]);
    }

    #[test]
    fn posts_that_cannot_be_placed_are_dropped() {
        assert_eq!(limit_runs(vec![(1, 7), (2, 7), (3, 7)], 2), [1, 2]);
        assert_eq!(limit_runs(vec![(1, 7), (2, 8), (3, 7)], 2), [1, 2, 3]);
    }
}
