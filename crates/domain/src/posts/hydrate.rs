//! Reading a list of posts as the API shows them, in one statement whatever the list and the
//! page size.
//!
//! Every list (the feeds, a profile's posts and likes, a thread, a single post) says which
//! posts it shows and in what order with a `Selection`: SQL answering `(id, ord)`. One
//! statement then reads, around it, everything the cards need: the posts joined to their
//! authors, the originals of reposts the page does not hold, and every part of a card (images,
//! poll options and votes, the viewer's likes, reposts and bookmarks). Its answer is one row of two JSON
//! arrays built by the database (`Backend::json_rows`), which the server parses and assembles
//! into `Post`s here, so there is one place that knows a card's shape.
//!
//! Why one statement with one row: a request's cost was not the database's work but the trips
//! to it. Each statement is a round trip (on SQLite, to the connection's worker thread and
//! back), and every row crosses as its own message and its own conversion; the Friends feed
//! was 3–4 statements and ~60 rows, and most of its time went to thread wake-ups and copies
//! (docs/performance.md). Every part is served by a primary key or index: `post_images`,
//! `poll_options`, `poll_votes` by their `(post_id, …)` primary keys, `likes` and
//! `bookmarks` by `(user_id, post_id)`, reposts by `posts_one_repost_key (author_id, repost_of_id)`.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

use super::model::{Author, AuthorMute, Post, PostApplication, PostImage, PostRow};
use crate::post_columns;
use crate::visibility::Scope;
use murmur_core::clock::{Millis, to_rfc3339};
use murmur_core::db::{Backend, Pool};
use murmur_core::error::Result;

/// Which posts a list shows: SQL selecting `id` and `ord` (the page's order, ascending) that
/// uses `$2, $3, …` for `values` (`$1` is the viewer, available to it too).
pub struct Selection {
    pub sql: String,
    pub values: Vec<i64>,
    /// The selection is a range of the viewer's home timeline: each card says which followed
    /// tag brought it there (`Post::via_tag`).
    pub via_tag: bool,
}

impl Selection {
    pub fn new(sql: impl Into<String>, values: Vec<i64>) -> Selection {
        Selection { sql: sql.into(), values, via_tag: false }
    }

    /// The selected posts' rows of the viewer's home timeline name the followed tag that
    /// brought them (the Friends feed): each card carries it (by the timeline's primary key).
    pub fn with_via_tag(self) -> Selection {
        Selection { via_tag: true, ..self }
    }

    /// These posts, in this order (deleted ones included).
    pub fn ids(ids: &[i64]) -> Selection {
        if ids.is_empty() {
            return Selection::new("SELECT id, CAST(0 AS BIGINT) FROM posts WHERE 1 = 0", Vec::new());
        }
        // ord by position: `CASE id WHEN $2 THEN 0 …` would make a text per list; the order
        // is restored after the read instead (`list` sorts by ord, then `in_order`).
        let sql = format!(
            "SELECT id, CAST(0 AS BIGINT) FROM posts WHERE id IN ({})",
            murmur_core::db::sql::in_list(2, ids.len())
        );
        Selection::new(sql, murmur_core::db::sql::padded_values(ids).collect())
    }
}

/// The posts `selection` names, as `viewer` sees them, by their ord (each with it).
pub async fn list_with_ord(
    pool: &Pool,
    backend: Backend,
    viewer: i64,
    selection: &Selection,
) -> Result<Vec<(i64, Post)>> {
    read(pool, backend, Seeing::Member(viewer), selection).await
}

/// Who reads the cards: a member sees what `visibility` lets them; moderators see every
/// post whole (a removed one, or one by a suspended or blocking member), marked as it stands.
#[derive(Clone, Copy)]
enum Seeing {
    Member(i64),
    Moderator(i64),
}

impl Seeing {
    fn viewer(self) -> i64 {
        match self {
            Seeing::Member(viewer) | Seeing::Moderator(viewer) => viewer,
        }
    }
}

/// The posts `selection` names as moderators see them (their reports queue), in its order.
pub async fn list_for_moderators(
    pool: &Pool,
    backend: Backend,
    moderator: i64,
    selection: &Selection,
) -> Result<Vec<Post>> {
    let posts = read(pool, backend, Seeing::Moderator(moderator), selection).await?;
    Ok(posts.into_iter().map(|(_, post)| post).collect())
}

async fn read(pool: &Pool, backend: Backend, seeing: Seeing, selection: &Selection) -> Result<Vec<(i64, Post)>> {
    let sql = statement(backend, &selection.sql, selection.via_tag);
    let mut query = sqlx::query_as::<_, (String, String)>(sqlx::AssertSqlSafe(sql)).bind(seeing.viewer());
    for value in &selection.values {
        query = query.bind(*value);
    }
    let (cards, parts) = query.fetch_one(pool).await?;
    let cards: Vec<Card> = serde_json::from_str(&cards).map_err(anyhow::Error::from)?;
    let parts: Vec<PartRow> = serde_json::from_str(&parts).map_err(anyhow::Error::from)?;
    Ok(assemble(seeing, cards, parts))
}

/// The posts `selection` names, as `viewer` sees them, in the selection's order.
pub async fn list(pool: &Pool, backend: Backend, viewer: i64, selection: &Selection) -> Result<Vec<Post>> {
    Ok(list_with_ord(pool, backend, viewer, selection).await?.into_iter().map(|(_, post)| post).collect())
}

/// `posts` in the order of `ids` (those not found left out).
pub fn in_order(mut posts: Vec<Post>, ids: &[i64]) -> Vec<Post> {
    let position: HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    posts.sort_by_key(|post| position.get(&post.id).copied().unwrap_or(usize::MAX));
    posts
}

/// One post, as `viewer` sees it; None when the id names no post.
pub async fn one(pool: &Pool, backend: Backend, viewer: i64, id: i64) -> Result<Option<Post>> {
    Ok(list(pool, backend, viewer, &Selection::ids(&[id])).await?.pop())
}

/// What each part of a card is, in the `kind` column of the parts.
const IMAGE: i64 = 0;
const POLL_OPTION: i64 = 1;
const POLL_VOTE: i64 = 2;
const LIKED: i64 = 3;
const REPOSTED: i64 = 4;
const BOOKMARKED: i64 = 5;
const AUTHOR_MUTED: i64 = 6;
/// `a` of a mute until unmuted (its `expires_at` is NULL).
const UNTIL_UNMUTED: i64 = -1;
const MENTIONED: i64 = 7;
/// `text` = the app's name, `alt` = its website.
const APPLICATION: i64 = 8;
/// `text` = the followed tag that brought the post into the viewer's home timeline.
const VIA_TAG: i64 = 9;
/// The viewer pinned the post (only their own posts are pinned by them).
const PINNED: i64 = 10;

/// The statement around a selection: `cards` are the selected posts (with their ord) and the
/// originals of their reposts that are not selected themselves (ord NULL); `parts` are, per
/// card, `(kind, post_id, ord, a, b, text, alt)`: images (ord = position, a × b = the upload's
/// size, 0 when unknown, text = media id, alt = the description; the upload by its primary key), poll
/// options (ord = position, text) and votes (ord = when, a = who, b = which option) of the
/// cards with a poll, the viewer's likes, reposts and bookmarks of the cards that are not
/// reposts (a repost's card shows its original's), and the viewer's mutes of the cards' authors
/// (post_id = the author, a = when it ends; by the primary key of `mutes`), and the members the
/// cards mention (a = the member's id, text = their username now: a mention names the member,
/// whatever they are called since; each by the primary key of `users`), and the app each card
/// was written from (by the card's own `app_id`: joining `posts` again let PostgreSQL walk every
/// post apps wrote, by `posts_app_idx`, when its statistics were older than those posts); on a home timeline's
/// range (`Selection::with_via_tag`), the tag that brought each selected post (text = its name).
fn statement(backend: Backend, selection: &str, via_tag: bool) -> String {
    let cards = backend.json_rows(
        "ord, id, author_id, content, created_at, reply_to_id, repost_of_id, poll_expires_at, \
         deleted_at, reply_count, repost_count, like_count, author_username, author_display_name, \
         author_profile_image_url, entities, edited_at, spoiler_text, quote_of_id, quote_detached_at, quotes_allowed, \
         removed_at, hidden, card_url, card_title, card_description, card_site_name, card_image",
        "ord, id",
    );
    let parts = backend.json_rows("kind, post_id, ord, a, b, text, alt", "kind, post_id, ord, a");
    let hidden =
        format!("CASE WHEN {} THEN 1 ELSE 0 END", crate::visibility::hidden(Scope::Anywhere, "$1", "p.author_id"));
    format!(
        concat!(
            "WITH page (id, ord) AS ({selection}), \
             selected AS ( \
                 SELECT page.ord AS ord, ",
            post_columns!(),
            ", p.removed_at, {hidden} AS hidden, {card}, p.app_id FROM page \
                 JOIN posts p ON p.id = page.id JOIN users u ON u.id = p.author_id \
                 LEFT JOIN link_cards lc ON lc.id = p.link_card_id \
             ), \
             cards AS ( \
                 SELECT * FROM selected \
                 UNION ALL \
                 SELECT CAST(NULL AS BIGINT), ",
            post_columns!(),
            ", p.removed_at, {hidden}, {card}, p.app_id FROM posts p \
                 JOIN users u ON u.id = p.author_id \
                 LEFT JOIN link_cards lc ON lc.id = p.link_card_id \
                 WHERE p.id IN (SELECT repost_of_id FROM selected UNION SELECT quote_of_id FROM selected \
                     UNION SELECT o.quote_of_id FROM posts o WHERE o.id IN (SELECT repost_of_id FROM selected)) \
                 AND p.id NOT IN (SELECT id FROM selected) \
             ), \
             parts (kind, post_id, ord, a, b, text, alt) AS ( \
                 SELECT CAST({IMAGE} AS BIGINT), i.post_id, i.position, COALESCE(m.width, 0), COALESCE(m.height, 0), \
                 i.media_id, i.alt FROM post_images i JOIN media m ON m.id = i.media_id \
                 WHERE i.post_id IN (SELECT id FROM cards) \
                 UNION ALL SELECT {POLL_OPTION}, o.post_id, o.position, po.poll_multiple, 0, o.text, NULL \
                 FROM poll_options o JOIN posts po ON po.id = o.post_id \
                 WHERE o.post_id IN (SELECT id FROM cards WHERE poll_expires_at IS NOT NULL) \
                 UNION ALL SELECT {POLL_VOTE}, post_id, created_at, user_id, position, NULL, NULL FROM poll_votes \
                 WHERE post_id IN (SELECT id FROM cards WHERE poll_expires_at IS NOT NULL) \
                 UNION ALL SELECT {LIKED}, post_id, 0, 0, 0, NULL, NULL FROM likes \
                 WHERE user_id = $1 AND post_id IN (SELECT id FROM cards WHERE repost_of_id IS NULL) \
                 UNION ALL SELECT {REPOSTED}, repost_of_id, 0, 0, 0, NULL, NULL FROM posts \
                 WHERE author_id = $1 AND repost_of_id IN (SELECT id FROM cards WHERE repost_of_id IS NULL) \
                 UNION ALL SELECT {BOOKMARKED}, post_id, 0, 0, 0, NULL, NULL FROM bookmarks \
                 WHERE user_id = $1 AND post_id IN (SELECT id FROM cards WHERE repost_of_id IS NULL) \
                 UNION ALL SELECT {PINNED}, post_id, 0, 0, 0, NULL, NULL FROM pinned_posts \
                 WHERE user_id = $1 AND post_id IN (SELECT id FROM cards WHERE author_id = $1) \
                 UNION ALL SELECT {AUTHOR_MUTED}, muted_id, 0, COALESCE(expires_at, {UNTIL_UNMUTED}), 0, NULL, NULL \
                 FROM mutes WHERE muter_id = $1 AND muted_id IN (SELECT author_id FROM cards) \
                 UNION ALL SELECT {MENTIONED}, mc.id, 0, mu.id, 0, mu.username, NULL \
                 FROM cards mc, {mentions}, users mu \
                 WHERE mu.id = {mentioned_id} AND mc.entities LIKE '%\"userId\"%' \
                 UNION ALL SELECT {APPLICATION}, ac.id, 0, 0, 0, a.name, a.website FROM cards ac \
                 JOIN apps a ON a.id = ac.app_id WHERE ac.repost_of_id IS NULL \
                 {via_tags} \
             ) \
             SELECT (SELECT {cards} FROM cards), (SELECT {parts} FROM parts)"
        ),
        selection = selection,
        hidden = hidden,
        card = CARD_COLUMNS,
        cards = cards,
        parts = parts,
        IMAGE = IMAGE,
        POLL_OPTION = POLL_OPTION,
        POLL_VOTE = POLL_VOTE,
        LIKED = LIKED,
        REPOSTED = REPOSTED,
        BOOKMARKED = BOOKMARKED,
        PINNED = PINNED,
        AUTHOR_MUTED = AUTHOR_MUTED,
        UNTIL_UNMUTED = UNTIL_UNMUTED,
        MENTIONED = MENTIONED,
        APPLICATION = APPLICATION,
        via_tags = if via_tag {
            format!(
                "UNION ALL SELECT {VIA_TAG}, vt.post_id, 0, 0, 0, vg.name, NULL FROM home_timeline vt \
                 JOIN tags vg ON vg.id = vt.via_tag_id \
                 WHERE vt.member_id = $1 AND vt.post_id IN (SELECT id FROM selected) AND vt.via_tag_id IS NOT NULL"
            )
        } else {
            String::new()
        },
        mentions = backend.json_elements("mc.entities", "me"),
        mentioned_id = backend.json_int_field("me", "userId"),
    )
}

/// A post's link card, by the card's primary key (a card with no title is a fetch that found
/// none, or one not made yet: shown as none).
const CARD_COLUMNS: &str = "lc.url AS card_url, lc.title AS card_title, lc.description AS card_description, \
     lc.site_name AS card_site_name, lc.image_media_id AS card_image";

/// A card's row as the statement answers it: ord, then `post_columns!` in order.
#[derive(Deserialize)]
struct Card(
    Option<i64>,
    i64,
    i64,
    String,
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    i64,
    i64,
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<i64>,
    Option<i64>,
    i64,
    Option<i64>,
    i64,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

impl Card {
    fn into_row(self) -> (Option<i64>, PostRow) {
        let Card(
            ord,
            id,
            author_id,
            content,
            created_at,
            reply_to_id,
            repost_of_id,
            poll_expires_at,
            deleted_at,
            reply_count,
            repost_count,
            like_count,
            author_username,
            author_display_name,
            author_profile_image_url,
            entities,
            edited_at,
            spoiler_text,
            quote_of_id,
            quote_detached_at,
            quotes_allowed,
            removed_at,
            hidden,
            card_url,
            card_title,
            card_description,
            card_site_name,
            card_image,
        ) = self;
        let card = match (card_url, card_title) {
            (Some(url), Some(title)) => Some(crate::link_cards::LinkCard {
                url,
                title,
                description: card_description,
                site_name: card_site_name,
                image_url: card_image.as_deref().map(crate::media::object_path),
            }),
            _ => None,
        };
        (
            ord,
            PostRow {
                id,
                author_id,
                content,
                created_at,
                reply_to_id,
                repost_of_id,
                poll_expires_at,
                deleted_at,
                reply_count,
                repost_count,
                like_count,
                author_username,
                author_display_name,
                author_profile_image_url,
                entities,
                edited_at,
                spoiler_text,
                quote_of_id,
                quote_detached_at,
                quotes_allowed,
                removed_at,
                hidden: hidden != 0,
                card,
            },
        )
    }
}

/// `(kind, post_id, ord, a, b, text, alt)`.
type PartRow = (i64, i64, i64, i64, i64, Option<String>, Option<String>);

/// The selected cards as `Post`s in ord order, a repost carrying its original.
fn assemble(seeing: Seeing, cards: Vec<Card>, parts: Vec<PartRow>) -> Vec<(i64, Post)> {
    let parts = Parts::new(seeing, parts);
    let mut page: Vec<(i64, PostRow)> = Vec::new();
    let mut by_id: HashMap<i64, PostRow> = HashMap::new();
    for card in cards {
        let (ord, row) = card.into_row();
        if let Some(ord) = ord {
            page.push((ord, row.clone()));
        }
        by_id.insert(row.id, row);
    }
    // The database sorted by ord, id already; sort again rather than rely on it.
    page.sort_by_key(|(ord, row)| (*ord, row.id));
    page.into_iter()
        .map(|(ord, row)| {
            let mut post = quoting(&parts, &row, parts.build(&row), &by_id);
            if post.is_unavailable {
                return (ord, post);
            }
            if let Some(original) = row.repost_of_id.and_then(|id| by_id.get(&id)) {
                let original = quoting(&parts, original, parts.build(original), &by_id);
                post.reply_count = original.reply_count;
                post.repost_count = original.repost_count;
                post.like_count = original.like_count;
                post.is_liked = original.is_liked;
                post.is_reposted = original.is_reposted;
                post.is_bookmarked = original.is_bookmarked;
                post.repost_of = Some(Box::new(original));
            }
            (ord, post)
        })
        .collect()
}

/// `post` (built from `row`) with the post it quotes, as the viewer may see it, one level deep;
/// a post whose quoted post's author detached it carries only that.
fn quoting(parts: &Parts, row: &PostRow, post: Post, by_id: &HashMap<i64, PostRow>) -> Post {
    if post.is_unavailable || post.is_deleted || row.quote_of_id.is_none() {
        return post;
    }
    if row.quote_detached_at.is_some() {
        return Post { quote_of_id: None, quote_detached: true, ..post };
    }
    let quoted = row.quote_of_id.and_then(|id| by_id.get(&id)).map(|quoted| Box::new(parts.build(quoted)));
    Post { quote_of: quoted, ..post }
}

struct Parts {
    images: HashMap<i64, Vec<PostImage>>,
    options: HashMap<i64, Vec<String>>,
    /// the posts whose poll takes several options from each voter
    multiple: HashSet<i64>,
    /// post id → (voter id, option position), in the order they voted
    votes: HashMap<i64, Vec<(i64, i64)>>,
    liked: HashSet<i64>,
    reposted: HashSet<i64>,
    bookmarked: HashSet<i64>,
    pinned: HashSet<i64>,
    /// author id → when the viewer's mute of them ends (None: until unmuted)
    muted: HashMap<i64, Option<i64>>,
    /// member id → username, of the members the cards mention
    usernames: HashMap<i64, String>,
    /// post id → the app it was written from
    applications: HashMap<i64, PostApplication>,
    /// post id → the followed tag that brought it into the viewer's home timeline
    via_tags: HashMap<i64, String>,
    seeing: Seeing,
}

impl Parts {
    /// From the parts in `(kind, post_id, ord, a)` order.
    fn new(seeing: Seeing, rows: Vec<PartRow>) -> Parts {
        let mut out = Parts {
            images: HashMap::new(),
            options: HashMap::new(),
            multiple: HashSet::new(),
            votes: HashMap::new(),
            liked: HashSet::new(),
            reposted: HashSet::new(),
            bookmarked: HashSet::new(),
            pinned: HashSet::new(),
            muted: HashMap::new(),
            usernames: HashMap::new(),
            applications: HashMap::new(),
            via_tags: HashMap::new(),
            seeing,
        };
        let mut rows = rows;
        rows.sort_by_key(|(kind, post_id, ord, a, _, _, _)| (*kind, *post_id, *ord, *a));
        let known = |pixels: i64| (pixels > 0).then_some(pixels);
        for (kind, post_id, _ord, a, b, text, alt) in rows {
            match (kind, text) {
                (IMAGE, Some(media_id)) => out.images.entry(post_id).or_default().push(PostImage {
                    url: crate::media::object_path(&media_id),
                    alt,
                    width: known(a),
                    height: known(b),
                }),
                (POLL_OPTION, Some(text)) => {
                    if a == 1 {
                        out.multiple.insert(post_id);
                    }
                    out.options.entry(post_id).or_default().push(text)
                }
                (POLL_VOTE, _) => out.votes.entry(post_id).or_default().push((a, b)),
                (LIKED, _) => {
                    out.liked.insert(post_id);
                }
                (REPOSTED, _) => {
                    out.reposted.insert(post_id);
                }
                (BOOKMARKED, _) => {
                    out.bookmarked.insert(post_id);
                }
                (PINNED, _) => {
                    out.pinned.insert(post_id);
                }
                (AUTHOR_MUTED, _) => {
                    out.muted.insert(post_id, (a != UNTIL_UNMUTED).then_some(a));
                }
                (MENTIONED, Some(username)) => {
                    out.usernames.insert(a, username);
                }
                (APPLICATION, Some(name)) => {
                    out.applications.insert(post_id, PostApplication { name, website: alt });
                }
                (VIA_TAG, Some(name)) => {
                    out.via_tags.insert(post_id, name);
                }
                _ => {}
            }
        }
        out
    }

    fn build(&self, row: &PostRow) -> Post {
        let post = self.build_whole(row);
        let removed = row.removed_at.is_some();
        if let Seeing::Moderator(_) = self.seeing {
            return Post { is_removed: removed, ..post };
        }
        // A deleted post reads as deleted whoever wrote it: the posts a deleted account leaves
        // for others' replies are by a member hidden from everyone (`accounts::leaving`).
        if row.hidden && row.deleted_at.is_some() {
            return Post { is_deleted: true, ..unseen(post) };
        }
        if row.hidden {
            return unavailable(post);
        }
        if removed && row.author_id != self.seeing.viewer() {
            return Post { is_deleted: true, ..unseen(post) };
        }
        Post { is_removed: removed, is_deleted: row.deleted_at.is_some() && !removed, ..post }
    }

    fn build_whole(&self, row: &PostRow) -> Post {
        let images = self.images.get(&row.id).cloned().unwrap_or_default();
        let options = self.options.get(&row.id).cloned().unwrap_or_default();
        let mut poll_votes: BTreeMap<String, Vec<i64>> = options.iter().map(|o| (o.clone(), Vec::new())).collect();
        let mut my_votes = Vec::new();
        for &(voter, position) in self.votes.get(&row.id).map(Vec::as_slice).unwrap_or_default() {
            if let Some(option) = options.get(position as usize) {
                poll_votes.entry(option.clone()).or_default().push(voter);
                if voter == self.seeing.viewer() {
                    my_votes.push(option.clone());
                }
            }
        }
        // In the poll's order, as the card lists them.
        my_votes.sort_by_key(|vote| options.iter().position(|option| option == vote));
        Post {
            id: row.id,
            content: row.content.clone(),
            spoiler_text: row.spoiler_text.clone(),
            entities: self.entities(row),
            author: Author {
                id: row.author_id,
                username: row.author_username.clone(),
                display_name: row.author_display_name.clone(),
                profile_image_url: row.author_profile_image_url.clone(),
            },
            created_at: to_rfc3339(row.created_at),
            edited_at: row.edited_at.map(to_rfc3339),
            editable_until: Some(to_rfc3339(row.created_at + super::domain::EDIT_WINDOW)),
            image_urls: images.iter().map(|image| image.url.clone()).collect(),
            images,
            poll_options: options,
            poll_votes,
            poll_expires_at: row.poll_expires_at.map(to_rfc3339),
            poll_multiple: self.multiple.contains(&row.id),
            my_vote: my_votes.first().cloned(),
            my_votes,
            reply_to_id: row.reply_to_id,
            repost_of_id: row.repost_of_id,
            repost_of: None,
            quote_of_id: row.quote_of_id.filter(|_| row.quote_detached_at.is_none()),
            quote_of: None,
            quote_detached: false,
            quotes_allowed: row.quotes_allowed != 0,
            reply_count: row.reply_count,
            repost_count: row.repost_count,
            like_count: row.like_count,
            is_liked: self.liked.contains(&row.id),
            is_reposted: self.reposted.contains(&row.id),
            is_bookmarked: self.bookmarked.contains(&row.id),
            pinned: self.pinned.contains(&row.id),
            is_deleted: row.deleted_at.is_some(),
            is_unavailable: false,
            is_removed: false,
            author_mute: self.muted.get(&row.author_id).map(|until| AuthorMute { until: until.map(to_rfc3339) }),
            application: self.applications.get(&row.id).cloned(),
            feed_entries: None,
            via_tag: self.via_tags.get(&row.id).cloned(),
            hidden_by_muted_word: None,
            // A deleted post shows nothing of what it said.
            card: row.card.clone().filter(|_| row.deleted_at.is_none()),
        }
    }
}

/// Marks the posts of a thread (`posts`: its parents or replies, not the post opened) or of a
/// profile's tab that hold a word `viewer` mutes, which those screens show folded rather than
/// leaving out: a conversation keeps its shape, a profile shows what the member wrote
/// (`visibility::muted_post`; one statement).
pub async fn mark_muted(pool: &Pool, viewer: i64, posts: &mut [Post], now: Millis) -> Result<()> {
    let ids: Vec<i64> = posts.iter().filter(|p| !p.is_unavailable && !p.is_deleted).map(|p| p.id).collect();
    let muted = crate::visibility::muted_among(pool, viewer, &ids, now).await?;
    for post in posts.iter_mut().filter(|p| muted.contains(&p.id)) {
        post.hidden_by_muted_word = Some(true);
    }
    Ok(())
}

/// The placeholder of a post the viewer may not see (its author and they are blocked either
/// way, or the author is suspended): only its place in its thread (id and parent), so it tells
/// nothing of the post (when, how many liked it, whether the viewer had).
fn unavailable(post: Post) -> Post {
    Post {
        created_at: String::new(),
        repost_of_id: None,
        reply_count: 0,
        repost_count: 0,
        like_count: 0,
        is_liked: false,
        is_reposted: false,
        is_bookmarked: false,
        pinned: false,
        is_deleted: false,
        is_unavailable: true,
        ..unseen(post)
    }
}

impl Parts {
    /// The post's stored entities, each mention naming its member as they are called now.
    fn entities(&self, row: &PostRow) -> Vec<super::entities::Entity> {
        let mut entities = super::entities::from_column(row.entities.as_deref());
        for entity in &mut entities {
            if let Some(username) = entity.user_id.and_then(|id| self.usernames.get(&id)) {
                entity.value.clone_from(username);
            }
        }
        entities
    }
}

/// `post` without anything the viewer may not see: its text, images, poll and author.
fn unseen(post: Post) -> Post {
    Post {
        content: String::new(),
        spoiler_text: None,
        entities: Vec::new(),
        edited_at: None,
        editable_until: None,
        author: Author { id: 0, username: String::new(), display_name: String::new(), profile_image_url: None },
        image_urls: Vec::new(),
        images: Vec::new(),
        poll_options: Vec::new(),
        poll_votes: BTreeMap::new(),
        poll_expires_at: None,
        poll_multiple: false,
        my_vote: None,
        my_votes: Vec::new(),
        author_mute: None,
        application: None,
        via_tag: None,
        quote_of_id: None,
        quote_of: None,
        quote_detached: false,
        card: None,
        ..post
    }
}
