//! Turning post rows into the API's `Post`s in a bounded number of queries, whatever the page
//! size: the caller's one query selects the page rows joined to their authors; this adds at
//! most six batched `IN (...)` queries (originals of reposts, images, poll options, poll votes,
//! the caller's likes, the caller's reposts). Never a query per post. Every lookup is served by
//! a primary key or index: `posts` by id, `post_images`/`poll_options`/`poll_votes` by their
//! `(post_id, …)` primary keys, `likes` by `(user_id, post_id)`, reposts by
//! `posts_one_repost_key (author_id, repost_of_id)`.

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::AnyPool;

use super::model::{Author, Post, PostRow};
use super::store::{self, in_list};
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
    let poll_ids: Vec<i64> = by_id
        .values()
        .filter(|r| r.poll_expires_at.is_some())
        .map(|r| r.id)
        .collect();
    // Flags only matter for posts a card shows as itself (a repost shows its original's).
    let card_ids: Vec<i64> = by_id
        .values()
        .filter(|r| r.repost_of_id.is_none())
        .map(|r| r.id)
        .collect();

    let images = images_of(pool, &ids).await?;
    let (options, votes) = polls_of(pool, &poll_ids).await?;
    let liked = viewer_liked(pool, viewer, &card_ids).await?;
    let reposted = viewer_reposted(pool, viewer, &card_ids).await?;

    let parts = Parts {
        images,
        options,
        votes,
        liked,
        reposted,
        viewer,
    };
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

async fn images_of(pool: &AnyPool, ids: &[i64]) -> Result<HashMap<i64, Vec<String>>> {
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let sql = format!(
        "SELECT post_id, media_id FROM post_images WHERE post_id IN ({}) ORDER BY post_id, position",
        in_list(1, ids.len())
    );
    let mut query = sqlx::query_as::<_, (i64, String)>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    for (post_id, media_id) in query.fetch_all(pool).await? {
        out.entry(post_id)
            .or_default()
            .push(crate::media::object_path(&media_id));
    }
    Ok(out)
}

type Polls = (HashMap<i64, Vec<String>>, HashMap<i64, Vec<(i64, i64)>>);

async fn polls_of(pool: &AnyPool, ids: &[i64]) -> Result<Polls> {
    let mut options: HashMap<i64, Vec<String>> = HashMap::new();
    let mut votes: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
    if ids.is_empty() {
        return Ok((options, votes));
    }
    let sql = format!(
        "SELECT post_id, text FROM poll_options WHERE post_id IN ({}) ORDER BY post_id, position",
        in_list(1, ids.len())
    );
    let mut query = sqlx::query_as::<_, (i64, String)>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    for (post_id, text) in query.fetch_all(pool).await? {
        options.entry(post_id).or_default().push(text);
    }
    let sql = format!(
        "SELECT post_id, user_id, position FROM poll_votes WHERE post_id IN ({}) \
         ORDER BY post_id, created_at, user_id",
        in_list(1, ids.len())
    );
    let mut query = sqlx::query_as::<_, (i64, i64, i64)>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        query = query.bind(*id);
    }
    for (post_id, user_id, position) in query.fetch_all(pool).await? {
        votes.entry(post_id).or_default().push((user_id, position));
    }
    Ok((options, votes))
}

async fn viewer_liked(pool: &AnyPool, viewer: i64, ids: &[i64]) -> Result<HashSet<i64>> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let sql = format!(
        "SELECT post_id FROM likes WHERE user_id = $1 AND post_id IN ({})",
        in_list(2, ids.len())
    );
    let mut query = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).bind(viewer);
    for id in ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(pool).await?.into_iter().collect())
}

async fn viewer_reposted(pool: &AnyPool, viewer: i64, ids: &[i64]) -> Result<HashSet<i64>> {
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let sql = format!(
        "SELECT repost_of_id FROM posts WHERE author_id = $1 AND repost_of_id IN ({})",
        in_list(2, ids.len())
    );
    let mut query = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).bind(viewer);
    for id in ids {
        query = query.bind(*id);
    }
    Ok(query.fetch_all(pool).await?.into_iter().collect())
}
