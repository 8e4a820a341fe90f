//! For You: a ranked feed of the whole network. See docs/feeds.md for the design.
//!
//! Candidates: the newest `MAX_CANDIDATES` original posts (no replies, no reposts, not deleted)
//! of the last `WINDOW` days, not the caller's own. Bounded whatever the table's size: the
//! query walks `posts_created_idx` backwards from now and stops after 1,000 matches or at the
//! window's start (ordering by id instead made SQLite scan the whole table when the window
//! holds fewer than 1,000 posts). The unary `+` in `+reply_to_id IS NULL` keeps SQLite's
//! planner (which has no statistics) from answering `IS NULL` with `posts_reply_to_idx`, an
//! "equality" match that is in fact most of the table: it walked every top-level post and
//! sorted them instead of walking `posts_created_idx` (docs/feeds.md, "For You"). PostgreSQL
//! reads `+x` as x and plans as before.
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
//! Kept ready: the network is ranked at most once a minute (`RANK_EVERY`) into a shared row of
//! `for_you_rankings` (the candidates in score order, before anything member-specific), by the
//! first request that finds the newest ranking stale; requests arriving while it ranks are
//! answered from the ranking it replaces (`Ranker`). A member's page is that list without
//! their own posts and with runs limited, worked out when read (microseconds for 1,000 ids), so
//! a page costs one row read instead of 1,000 candidates and a write (docs/performance.md).
//!
//! Stable pages: each member points at the ranking their first page (offset 0) used
//! (`for_you_snapshots`, written only when it changes, so at most once a minute), and later
//! pages are slices of it, so likes and new posts arriving meanwhile neither repeat nor skip
//! anything. A later page with no ranking to continue, or one older than `SNAPSHOT_TTL`, uses
//! the newest. Posts deleted since are left out of their page (the page is then shorter;
//! nothing else moves). Returning to the top shows the newest ranking, at most a minute old.

use std::collections::{HashSet, VecDeque};

use crate::posts::Post;
use crate::posts::hydrate::{self, Selection};
use murmur_core::clock::{DAY, HOUR, MINUTE, Millis};
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::db::{Db, Pool};
use murmur_core::error::Result;
use murmur_core::page::Page;

pub const WINDOW: Millis = 7 * DAY;
pub const MAX_CANDIDATES: i64 = 1000;
/// A member's page never goes deeper than this into a ranking.
pub const SNAPSHOT_SIZE: usize = 500;
pub const SNAPSHOT_TTL: Millis = HOUR;
/// A ranking is used for this long before the network is ranked again.
pub const RANK_EVERY: Millis = MINUTE;
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
    let engagement = 1.0 + post.like_count as f64 + 2.0 * post.reply_count as f64 + 3.0 * post.repost_count as f64;
    let age_hours = ((now - post.created_at).max(0) as f64) / HOUR as f64;
    engagement / (age_hours + 2.0).powf(1.5)
}

/// Candidates in score order (ties: newer first), as `(post, author)` pairs.
pub fn by_score(mut candidates: Vec<Candidate>, now: Millis) -> Vec<(i64, i64)> {
    candidates.sort_by(|a, b| score(b, now).total_cmp(&score(a, now)).then(b.id.cmp(&a.id)));
    candidates.iter().map(|c| (c.id, c.author_id)).collect()
}

/// What `viewer` sees of a ranking: their own posts and those of members hidden from them
/// (`safety::store::hidden_authors`) left out, runs of one author limited, at most
/// `SNAPSHOT_SIZE` posts.
pub fn for_member(ranked: &[(i64, i64)], viewer: i64, hidden: &HashSet<i64>) -> Vec<i64> {
    let others = ranked.iter().copied().filter(|(_, author)| *author != viewer && !hidden.contains(author)).collect();
    limit_runs(others, MAX_RUN, SNAPSHOT_SIZE)
}

/// Keeps the order of `(post, author)` pairs but never lets one author have more than
/// `max_run` in a row: a post that would is deferred to the first place it fits. Stops after
/// `max_len` posts.
pub fn limit_runs(ranked: Vec<(i64, i64)>, max_run: usize, max_len: usize) -> Vec<i64> {
    let mut pending: VecDeque<(i64, i64)> = ranked.into();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(pending.len().min(max_len));
    while !pending.is_empty() && out.len() < max_len {
        let tail = &out[out.len().saturating_sub(max_run)..];
        let blocked = (tail.len() == max_run && tail.iter().all(|(_, a)| *a == tail[0].1)).then(|| tail[0].1);
        let Some(next) = pending.iter().position(|(_, author)| Some(*author) != blocked) else {
            break;
        };
        if let Some(post) = pending.remove(next) {
            out.push(post);
        }
    }
    out.into_iter().map(|(id, _)| id).collect()
}

/// Who ranks the network in this process: one request at a time (`newest`). One per
/// application, not per process, so that test applications sharing a process never wait for
/// or skip each other's rankings.
#[derive(Clone, Default)]
pub struct Ranker {
    one_at_a_time: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl Ranker {
    /// Holds the right to rank until the guard is dropped, as a request making a ranking does
    /// (tests use it to stand for a ranking in progress).
    pub async fn hold(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.one_at_a_time.lock().await
    }
}

/// One page of the viewer's For You feed, in ranked order.
pub async fn ranked_page(db: &Db, ranker: &Ranker, viewer: i64, page: Page, now: Millis) -> Result<Vec<Post>> {
    let continued = if page.offset > 0 { continued(&db.read, viewer, now).await? } else { None };
    let ranked = match continued {
        Some(ranked) => ranked,
        None => {
            let (id, ranked, pointer) = newest(db, ranker, viewer, now).await?;
            if pointer != Some(id) {
                // Not waited for: when the network is ranked again, every member's next first
                // page moves their pointer, and thousands of those small writes queued on
                // SQLite's one writer made first pages wait (docs/feeds.md, "For You"). A later
                // page that arrives before the write lands uses the newest ranking, which is
                // this one unless the minute turned meanwhile.
                let write = db.write.clone();
                tokio::spawn(async move {
                    if let Err(error) = remember(&write, viewer, id).await {
                        tracing::warn!(%error, "could not remember a member's For You ranking");
                    }
                });
            }
            ranked
        }
    };
    let hidden = crate::visibility::hidden_authors(&db.read, viewer, now).await?;
    let ids = for_member(&ranked, viewer, &hidden);
    let ids = without_muted(&db.read, viewer, &ids, page.offset as usize + page.limit as usize, now).await?;
    let start = (page.offset as usize).min(ids.len());
    let end = (start + page.limit as usize).min(ids.len());
    let wanted = &ids[start..end];
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let live = Selection::new(
        format!(
            "SELECT id, CAST(0 AS BIGINT) FROM posts WHERE id IN ({}) AND deleted_at IS NULL",
            in_list(2, wanted.len())
        ),
        padded_values(wanted).collect(),
    );
    let posts = hydrate::list(&db.read, db.backend, viewer, &live).await?;
    Ok(hydrate::in_order(posts, wanted))
}

/// The first `wanted` of `ids` (in order) that hold no word the viewer mutes
/// (`visibility::muted_post`), so a page of 20 stays 20. The ids are checked a page's worth at
/// a time, only as far as the page reaches: a first page checks about 20 posts, not the
/// ranking's 500.
async fn without_muted(pool: &Pool, viewer: i64, ids: &[i64], wanted: usize, now: Millis) -> Result<Vec<i64>> {
    let mut kept = Vec::with_capacity(wanted.min(ids.len()));
    let mut checked = 0;
    while kept.len() < wanted && checked < ids.len() {
        let chunk = &ids[checked..(checked + (wanted - kept.len()).max(8)).min(ids.len())];
        let muted = crate::visibility::muted_among(pool, viewer, chunk, now).await?;
        kept.extend(chunk.iter().copied().filter(|id| !muted.contains(id)));
        checked += chunk.len();
    }
    Ok(kept)
}

/// The ranking the viewer's first page used, while it is fresh enough to continue.
async fn continued(pool: &Pool, viewer: i64, now: Millis) -> Result<Option<Vec<(i64, i64)>>> {
    let row: Option<(Millis, String)> = sqlx::query_as(
        "SELECT r.created_at, r.ranked FROM for_you_snapshots s \
         JOIN for_you_rankings r ON r.id = s.ranking_id WHERE s.user_id = $1",
    )
    .bind(viewer)
    .fetch_optional(pool)
    .await?;
    Ok(row.filter(|(created_at, _)| now - created_at < SNAPSHOT_TTL).map(|(_, ranked)| decode(&ranked)))
}

/// The newest ranking (made now if there is none younger than `RANK_EVERY`), and the ranking
/// the viewer's pointer names, if any.
///
/// One request at a time ranks; the others answer from the ranking it replaces (at most a
/// minute and a ranking's time old) instead of waiting for it, and wait only when there is no
/// ranking at all. Why: making a ranking ends in a write through SQLite's one writer, which may
/// be busy with other writes, and every first page waiting for it made For You's slowest
/// answers many times its typical ones (docs/feeds.md, "For You").
async fn newest(db: &Db, ranker: &Ranker, viewer: i64, now: Millis) -> Result<(i64, Vec<(i64, i64)>, Option<i64>)> {
    const NEWEST: &str = "SELECT r.id, r.created_at, r.ranked, \
         (SELECT s.ranking_id FROM for_you_snapshots s WHERE s.user_id = $1) \
         FROM for_you_rankings r ORDER BY r.id DESC LIMIT 1";
    let fresh = |row: &Option<(i64, Millis, String, Option<i64>)>| {
        row.as_ref().is_some_and(|(_, created_at, _, _)| now - created_at < RANK_EVERY && *created_at <= now)
    };
    let read = || sqlx::query_as::<_, (i64, Millis, String, Option<i64>)>(NEWEST).bind(viewer);
    let mut row = read().fetch_optional(&db.read).await?;
    if !fresh(&row) {
        let ranking = match ranker.one_at_a_time.try_lock() {
            Ok(guard) => Some(guard),
            // Another request is ranking: answer from the ranking it replaces.
            Err(_) if row.is_some() => None,
            // Nothing to answer from yet: wait for it, then read what it made.
            Err(_) => Some(ranker.hold().await),
        };
        if let Some(_one_at_a_time) = ranking {
            row = read().fetch_optional(&db.read).await?;
            if !fresh(&row) {
                rank_network(db, now).await?;
                // From where it was written: a replica may not have the new ranking yet.
                row = read().fetch_optional(&db.write).await?;
            }
        }
    }
    let (id, _, ranked, pointer) = row.ok_or_else(|| anyhow::anyhow!("no For You ranking after making one"))?;
    Ok((id, decode(&ranked), pointer))
}

/// Ranks the network's candidates into a new shared ranking.
async fn rank_network(db: &Db, now: Millis) -> Result<()> {
    let candidates: Vec<Candidate> = sqlx::query_as(
        "SELECT id, author_id, created_at, like_count, repost_count, reply_count FROM posts \
         WHERE created_at >= $1 AND created_at <= $2 AND deleted_at IS NULL \
           AND +reply_to_id IS NULL AND repost_of_id IS NULL \
         ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(now - WINDOW)
    .bind(now)
    .bind(MAX_CANDIDATES)
    .fetch_all(&db.read)
    .await?;
    let ranked = encode(&by_score(candidates, now));
    sqlx::query("INSERT INTO for_you_rankings (created_at, ranked) VALUES ($1, $2)")
        .bind(now)
        .bind(ranked)
        .execute(&db.write)
        .await?;
    Ok(())
}

/// Points the viewer's later pages at ranking `id`.
async fn remember(write: &Pool, viewer: i64, id: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO for_you_snapshots (user_id, ranking_id) VALUES ($1, $2) \
         ON CONFLICT (user_id) DO UPDATE SET ranking_id = excluded.ranking_id",
    )
    .bind(viewer)
    .bind(id)
    .execute(write)
    .await?;
    Ok(())
}

/// Removes rankings no page can continue any more (the newest always stays). Their pointers
/// go with them (foreign key).
pub async fn prune(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query(
        "DELETE FROM for_you_rankings WHERE created_at < $1 \
         AND id < (SELECT MAX(id) FROM for_you_rankings)",
    )
    .bind(now - SNAPSHOT_TTL)
    .execute(write)
    .await?;
    Ok(done.rows_affected())
}

/// `(post, author)` pairs as stored: `post:author` separated by commas.
fn encode(ranked: &[(i64, i64)]) -> String {
    let mut out = String::with_capacity(ranked.len() * 16);
    for (i, (post, author)) in ranked.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("{post}:{author}"));
    }
    out
}

fn decode(text: &str) -> Vec<(i64, i64)> {
    text.split(',')
        .filter_map(|pair| {
            let (post, author) = pair.split_once(':')?;
            Some((post.parse().ok()?, author.parse().ok()?))
        })
        .collect()
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
        let shared = Candidate { repost_count: 1, ..post(3, 1, 1, 0) };
        let liked = post(4, 1, 1, 1);
        assert!(score(&shared, now) > score(&liked, now));
    }

    #[test]
    fn ties_go_to_the_newer_post() {
        assert_eq!(by_score(vec![post(1, 1, 2, 0), post(2, 2, 2, 0)], 100 * HOUR), [(2, 2), (1, 1)]);
    }

    #[test]
    fn no_author_has_more_than_two_in_a_row() {
        let ranked = vec![(1, 7), (2, 7), (3, 7), (4, 7), (5, 8), (6, 9)];
        assert_eq!(limit_runs(ranked, 2, 100), [1, 2, 5, 3, 4, 6]);
    }

    #[test]
    fn posts_that_cannot_be_placed_are_dropped() {
        assert_eq!(limit_runs(vec![(1, 7), (2, 7), (3, 7)], 2, 100), [1, 2]);
        assert_eq!(limit_runs(vec![(1, 7), (2, 8), (3, 7)], 2, 100), [1, 2, 3]);
    }

    #[test]
    fn a_member_sees_the_ranking_without_their_own_posts_and_runs_limited() {
        // Without member 8's post between them, member 7 would have three in a row.
        let ranked = [(1, 7), (2, 7), (3, 8), (4, 7), (5, 9)];
        assert_eq!(for_member(&ranked, 8, &HashSet::new()), [1, 2, 5, 4]);
        assert_eq!(for_member(&ranked, 9, &HashSet::new()), [1, 2, 3, 4]);
    }

    #[test]
    fn a_member_does_not_see_the_posts_of_members_hidden_from_them() {
        let ranked = [(1, 7), (2, 8), (3, 9), (4, 8)];
        assert_eq!(for_member(&ranked, 9, &HashSet::from([8])), [1]);
        assert_eq!(for_member(&ranked, 7, &HashSet::from([8, 9])), Vec::<i64>::new());
    }

    #[test]
    fn a_long_ranking_is_cut_at_the_snapshot_size() {
        let ranked: Vec<(i64, i64)> = (0..2000).map(|i| (i, i % 10)).collect();
        assert_eq!(for_member(&ranked, 99, &HashSet::new()).len(), SNAPSHOT_SIZE);
    }

    #[test]
    fn rankings_are_stored_as_text_and_read_back() {
        let ranked = vec![(10, 1), (9, 2), (12345678901, 3)];
        assert_eq!(decode(&encode(&ranked)), ranked);
        assert!(decode("").is_empty());
    }
}
