//! A post as stored (one row joined to its author) and as the API shows it.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use super::entities::Entity;
use murmur_core::clock::Millis;

/// Columns of `PostRow`, for `concat!` into static SQL; the query must say
/// `FROM posts p JOIN users u ON u.id = p.author_id`.
#[macro_export]
macro_rules! post_columns {
    () => {
        "p.id, p.author_id, p.content, p.created_at, p.reply_to_id, p.repost_of_id, \
         p.poll_expires_at, p.deleted_at, p.reply_count, p.repost_count, p.like_count, \
         u.username AS author_username, u.display_name AS author_display_name, \
         u.profile_image_url AS author_profile_image_url, p.entities, p.edited_at, p.spoiler_text, \
         p.quote_of_id, p.quote_detached_at, p.quotes_allowed"
    };
}

/// One post row with its author, as every list query selects it (`post_columns!`).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PostRow {
    pub id: i64,
    pub author_id: i64,
    pub content: String,
    pub created_at: Millis,
    pub reply_to_id: Option<i64>,
    pub repost_of_id: Option<i64>,
    pub poll_expires_at: Option<Millis>,
    pub deleted_at: Option<Millis>,
    pub reply_count: i64,
    pub repost_count: i64,
    pub like_count: i64,
    pub author_username: String,
    pub author_display_name: String,
    pub author_profile_image_url: Option<String>,
    /// The stored entities (`posts::entities::to_column`).
    pub entities: Option<String>,
    /// When its text was last edited.
    pub edited_at: Option<Millis>,
    /// Its content warning; None: none.
    pub spoiler_text: Option<String>,
    /// The post it quotes.
    pub quote_of_id: Option<i64>,
    /// When the quoted post's author detached it from this quote.
    pub quote_detached_at: Option<Millis>,
    /// 1 while its author lets others quote it.
    pub quotes_allowed: i64,
    /// Set when moderators removed it (`deleted_at` is set too).
    pub removed_at: Option<Millis>,
    /// The viewer may not see it: its author blocked them or is blocked by them, or is suspended
    /// (`visibility`).
    pub hidden: bool,
    /// Its link's preview card, once fetched (`link_cards`); None: none.
    #[sqlx(skip)]
    pub card: Option<crate::link_cards::LinkCard>,
}

/// Who wrote a post (or acted, in a notification).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Author {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub profile_image_url: Option<String>,
}

/// An image of a post.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PostImage {
    /// `/objects/{id}`.
    pub url: String,
    /// What the image shows, as its author described it; null when they did not.
    pub alt: Option<String>,
    /// In pixels, as stored (upright); null if unknown.
    pub width: Option<i64>,
    pub height: Option<i64>,
}

/// A post as the API answers it.
///
/// On a repost row (`repostOfId` set) the counts and `isLiked`/`isReposted` describe the
/// original post, not the repost row itself: a card shows the original and its buttons toggle
/// the original (likes, replies and reposts of a repost are redirected to the original), so
/// these are the numbers the card needs. The original is also in `repostOf`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Post {
    pub id: i64,
    /// Empty on a deleted post (shown only as an ancestor placeholder in threads).
    pub content: String,
    /// The post's content warning (1 to 100 characters, one line): the card shows it in place
    /// of the text, images and poll until the reader opens it. Null when it has none (also on a
    /// repost: its original's is in `repostOf`).
    pub spoiler_text: Option<String>,
    /// The mentions, hashtags and links of `content`, in order (empty on a repost: its
    /// original's are in `repostOf`).
    pub entities: Vec<Entity>,
    pub author: Author,
    /// RFC 3339; empty on a post the caller may not see (`isUnavailable`).
    pub created_at: String,
    /// RFC 3339: when its author last edited it (its earlier versions: `/api/posts/{id}/history`);
    /// null when never edited.
    pub edited_at: Option<String>,
    /// RFC 3339: until when its author may edit it (`EDIT_WINDOW` after posting; the server
    /// checks again, and a poll with votes ends it sooner); null on a post that is not shown.
    pub editable_until: Option<String>,
    /// The images' URLs, as the spec has them (the same images are in `images`).
    pub image_urls: Vec<String>,
    /// The images in order, each with its description and size.
    pub images: Vec<PostImage>,
    pub poll_options: Vec<String>,
    /// Every option of the poll, with the ids of the members who voted for it.
    pub poll_votes: BTreeMap<String, Vec<i64>>,
    /// RFC 3339, or null when the post has no poll.
    pub poll_expires_at: Option<String>,
    /// The poll takes one or more options from each voter (else exactly one).
    pub poll_multiple: bool,
    /// The option the caller voted for, if any (on a multiple-choice poll: the first of
    /// `myVotes`).
    pub my_vote: Option<String>,
    /// Every option the caller voted for, in the poll's order; empty before they vote.
    pub my_votes: Vec<String>,
    pub reply_to_id: Option<i64>,
    pub repost_of_id: Option<i64>,
    /// The original post, on reposts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(no_recursion)]
    pub repost_of: Option<Box<Post>>,
    /// The post this one quotes (a quote's card shows it inside); null when it quotes none, and
    /// when the quoted post's author detached it (`quoteDetached`).
    pub quote_of_id: Option<i64>,
    /// The quoted post as the caller may see it, one level deep (its own `quoteOf` is not
    /// filled): a deleted, removed or hidden one arrives as such (`isDeleted`, `isUnavailable`)
    /// and the card shows "Post unavailable". Null when the post quotes none.
    #[schema(no_recursion)]
    pub quote_of: Option<Box<Post>>,
    /// The quoted post's author detached it from this quote: the card shows "Removed by the
    /// author" in its place (`quoteOfId` and `quoteOf` are null).
    pub quote_detached: bool,
    /// Whether its author lets others quote it (the card offers Quote only then; the author may
    /// always quote their own post).
    pub quotes_allowed: bool,
    pub reply_count: i64,
    pub repost_count: i64,
    pub like_count: i64,
    pub is_liked: bool,
    pub is_reposted: bool,
    /// The caller bookmarked this post (on a repost: its original). Nobody else sees it.
    pub is_bookmarked: bool,
    /// The caller pinned this post, one of their own, to their profile (always false on
    /// others' posts and on a repost row: a pin is its author's, seen on their profile through
    /// `/api/users/{username}/pinned`).
    pub pinned: bool,
    /// True for a deleted post (its content is gone; replies still point at it), and for a
    /// post moderators removed, except to its author.
    pub is_deleted: bool,
    /// The caller may not see this post (its author and the caller are blocked either way, or
    /// the author is suspended): shown as "Post unavailable", it carries its id and parent
    /// only: no content, author, time, counts or the caller's likes, reposts and bookmarks.
    pub is_unavailable: bool,
    /// Moderators removed this post: only its author gets it so, with its content.
    pub is_removed: bool,
    /// The caller's mute of this post's author, as set (the card's "…" menu offers Unmute):
    /// null when they have none. A mute whose `until` has passed is over. (A card by a member
    /// blocked either way is unavailable, so the menu needs no block state.)
    pub author_mute: Option<AuthorMute>,
    /// The app it was written from (an app speaking the Mastodon client API); null for a post
    /// written in Murmur's web app, a repost, or a post the caller may not see.
    pub application: Option<PostApplication>,
    /// On a Friends feed card that stands for more than one entry of its page (a post and its
    /// reposts, shown once): how many. A page covers `limit` entries; absent means one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed_entries: Option<i64>,
    /// On a Friends feed card that is there because the caller follows a tag it uses (not its
    /// author): the tag's name, without `#` (the card shows "# name" above the post). Absent
    /// on a followed member's post and in every other list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_tag: Option<String>,
    /// In a thread or a profile's tab: true on a post holding a word the caller mutes, which
    /// the screen shows folded ("Hidden by a muted word"); absent otherwise (feeds leave such
    /// posts out).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden_by_muted_word: Option<bool>,
    /// The preview card of the post's first link (fetched in the background after it was
    /// written, so null at first); null when it has none, its author removed it, on a repost
    /// (its original's is in `repostOf`) and on a post the caller may not see.
    pub card: Option<crate::link_cards::LinkCard>,
}

/// The app a post was written from, as it registered itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PostApplication {
    pub name: String,
    pub website: Option<String>,
}

/// A mute of a post's author by the caller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorMute {
    /// RFC 3339: when it ends; null for a mute until unmuted.
    pub until: Option<String>,
}
