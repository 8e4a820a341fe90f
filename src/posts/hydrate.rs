//! Turning post rows into the API's `Post`s in a bounded number of queries, whatever the page
//! size: the caller's one query selects the page rows joined to their authors; this adds at
//! most two: the originals of reposts (only when the page has reposts whose original it lacks),
//! and one `UNION ALL` of everything else a card shows (images, poll options, poll votes, the
//! caller's likes and reposts), each part only when some post needs it. Fewer statements matter
//! more than smaller ones here: each costs a round trip to the database (on SQLite, to its
//! worker thread) and its own decoding, and the feeds are the most read lists
//! (docs/performance.md). Every part is served by a primary key or index: `post_images`,
//! `poll_options`, `poll_votes` by their `(post_id, …)` primary keys, `likes` by
//! `(user_id, post_id)`, reposts by `posts_one_repost_key (author_id, repost_of_id)`.

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::AnyPool;

use super::model::{Author, Post, PostRow};
use super::store;
use crate::clock::to_rfc3339;
use crate::error::Result;

/// The page rows as `Post`s, in the same order.
pub async fn hydrate(pool: &AnyPool, viewer: i64, rows: Vec<PostRow>) -> Result<Vec<Post>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut by_id: HashMap<i64, PostRow> = rows.iter().map(|r| (r.id, r.clone())).collect();
    let missing: Vec<i64> = unique(
        rows.iter()
            .filter_map(|r| r.repost_of_id)
            .filter(|id| !by_id.contains_key(id)),
    );
    if !missing.is_empty() {
        for original in store::rows_by_ids(pool, &missing).await? {
            by_id.insert(original.id, original);
        }
    }
    let ids: Vec<i64> = by_id.keys().copied().collect();
    let polls = by_id.values().any(|r| r.poll_expires_at.is_some());
    // Flags only matter for posts a card shows as itself (a repost shows its original's).
    let cards = by_id.values().any(|r| r.repost_of_id.is_none());

    let parts = parts_of(pool, viewer, &ids, polls, cards).await?;
    Ok(rows
        .iter()
        .map(|row| {
            let mut post = parts.build(row);
            if let Some(original) = row.repost_of_id.and_then(|id| by_id.get(&id)) {
                let original = parts.build(original);
                post.reply_count = original.reply_count;
                post.repost_count = original.repost_count;
                post.like_count = original.like_count;
                post.is_liked = original.is_liked;
                post.is_reposted = original.is_reposted;
                post.repost_of = Some(Box::new(original));
            }
            post
        })
        .collect())
}

/// One post, hydrated; None when the id names no post.
pub async fn one(pool: &AnyPool, viewer: i64, id: i64) -> Result<Option<Post>> {
    let rows = store::rows_by_ids(pool, &[id]).await?;
    Ok(hydrate(pool, viewer, rows).await?.pop())
}

struct Parts {
    images: HashMap<i64, Vec<String>>,
    options: HashMap<i64, Vec<String>>,
    /// post id → (voter id, option position)
    votes: HashMap<i64, Vec<(i64, i64)>>,
    liked: HashSet<i64>,
    reposted: HashSet<i64>,
    viewer: i64,
}

impl Parts {
    fn build(&self, row: &PostRow) -> Post {
        let options = self.options.get(&row.id).cloned().unwrap_or_default();
        let mut poll_votes: BTreeMap<String, Vec<i64>> =
            options.iter().map(|o| (o.clone(), Vec::new())).collect();
        let mut my_vote = None;
        for &(voter, position) in self
            .votes
            .get(&row.id)
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            if let Some(option) = options.get(position as usize) {
                poll_votes.entry(option.clone()).or_default().push(voter);
                if voter == self.viewer {
                    my_vote = Some(option.clone());
                }
            }
        }
        Post {
            id: row.id,
            content: row.content.clone(),
            author: Author {
                id: row.author_id,
                username: row.author_username.clone(),
                display_name: row.author_display_name.clone(),
                profile_image_url: row.author_profile_image_url.clone(),
            },
            created_at: to_rfc3339(row.created_at),
            image_urls: self.images.get(&row.id).cloned().unwrap_or_default(),
            poll_options: options,
            poll_votes,
            poll_expires_at: row.poll_expires_at.map(to_rfc3339),
            my_vote,
            reply_to_id: row.reply_to_id,
            repost_of_id: row.repost_of_id,
            repost_of: None,
            reply_count: row.reply_count,
            repost_count: row.repost_count,
            like_count: row.like_count,
            is_liked: self.liked.contains(&row.id),
            is_reposted: self.reposted.contains(&row.id),
            is_deleted: row.deleted_at.is_some(),
        }
    }
}

fn unique(ids: impl Iterator<Item = i64>) -> Vec<i64> {
    let mut seen = HashSet::new();
    ids.filter(|id| seen.insert(*id)).collect()
}

/// What each part of a card is, in the `kind` column of `parts_of`'s query.
const IMAGE: i64 = 0;
const POLL_OPTION: i64 = 1;
const POLL_VOTE: i64 = 2;
const LIKED: i64 = 3;
const REPOSTED: i64 = 4;

/// Images, poll options and votes of `ids`, and which of them the viewer liked and reposted,
/// in one statement. Its text depends only on the padded length of `ids` and on which parts are
/// asked for, so it is prepared once per connection and reused: each part names the same
/// placeholders (both databases let one appear several times), and a part asked about posts
/// that have none of it finds nothing through its primary key.
async fn parts_of(pool: &AnyPool, viewer: i64, ids: &[i64], polls: bool, cards: bool) -> Result<Parts> {
    // $1 is the viewer when some part asks about them (a statement must use every value bound).
    let first = if cards { 2 } else { 1 };
    let list = store::in_list(first, ids.len());
    // Columns: kind, post_id, ord (order within the post), a, b, text.
    let mut parts = vec![format!(
        "SELECT CAST({IMAGE} AS BIGINT) AS kind, post_id, position AS ord, CAST(0 AS BIGINT) AS a, \
         CAST(0 AS BIGINT) AS b, media_id AS text FROM post_images WHERE post_id IN ({list})"
    )];
    if polls {
        parts.push(format!(
            "SELECT CAST({POLL_OPTION} AS BIGINT), post_id, position, CAST(0 AS BIGINT), CAST(0 AS BIGINT), text \
             FROM poll_options WHERE post_id IN ({list})"
        ));
        // Voters in the order they voted: ord = when, a = who, b = which option.
        parts.push(format!(
            "SELECT CAST({POLL_VOTE} AS BIGINT), post_id, created_at, user_id, position, CAST(NULL AS TEXT) \
             FROM poll_votes WHERE post_id IN ({list})"
        ));
    }
    if cards {
        parts.push(format!(
            "SELECT CAST({LIKED} AS BIGINT), post_id, CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), \
             CAST(NULL AS TEXT) FROM likes WHERE user_id = $1 AND post_id IN ({list})"
        ));
        parts.push(format!(
            "SELECT CAST({REPOSTED} AS BIGINT), repost_of_id, CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(0 AS BIGINT), \
             CAST(NULL AS TEXT) FROM posts WHERE author_id = $1 AND repost_of_id IN ({list})"
        ));
    }
    let sql = format!("{} ORDER BY 1, 2, 3, 4", parts.join(" UNION ALL "));
    let mut query = sqlx::query_as::<_, (i64, i64, i64, i64, i64, Option<String>)>(sqlx::AssertSqlSafe(sql));
    if cards {
        query = query.bind(viewer);
    }
    for id in store::padded_values(ids) {
        query = query.bind(id);
    }
    let mut out = Parts {
        images: HashMap::new(),
        options: HashMap::new(),
        votes: HashMap::new(),
        liked: HashSet::new(),
        reposted: HashSet::new(),
        viewer,
    };
    for (kind, post_id, _ord, a, b, text) in query.fetch_all(pool).await? {
        match (kind, text) {
            (IMAGE, Some(media_id)) => out
                .images
                .entry(post_id)
                .or_default()
                .push(crate::media::object_path(&media_id)),
            (POLL_OPTION, Some(text)) => out.options.entry(post_id).or_default().push(text),
            (POLL_VOTE, _) => out.votes.entry(post_id).or_default().push((a, b)),
            (LIKED, _) => {
                out.liked.insert(post_id);
            }
            (REPOSTED, _) => {
                out.reposted.insert(post_id);
            }
            _ => {}
        }
    }
    Ok(out)
}
