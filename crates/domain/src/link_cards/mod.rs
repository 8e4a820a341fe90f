//! Link preview cards (docs/discovery.md, "Link preview cards"): the card of a post's first
//! link (title, description, site name, image), kept per URL and shared by every post with that
//! link. Writing a post attaches its card's row (`attach`, in the post's transaction) and asks
//! for a fetch when the card is new or older than `REFRESH_AFTER`; the fetch itself is a
//! background job of the server (`murmur_server::link_cards`), never on a request's path, which
//! claims a row (`store::claim_due`) so that one process at a time fetches a URL.

pub mod extract;
pub(crate) mod store;

use serde::Serialize;
use sqlx::{AnyConnection, Connection};
use utoipa::ToSchema;

use murmur_core::clock::{DAY, MINUTE, Millis};
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
pub use store::{Claimed, Found, claim_due, image_content_type, save};

/// A card older than this is fetched again when a post with its link is written.
pub const REFRESH_AFTER: Millis = 14 * DAY;
/// How long a process holds a card it fetches; another takes it over after that (a process
/// that stopped midway).
pub const CLAIM_FOR: Millis = 2 * MINUTE;
/// Cards one process fetches at once.
pub const BATCH: i64 = 4;
/// A link longer than this gets no card.
pub const URL_MAX_CHARS: usize = 2048;

/// A post's link preview card, as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkCard {
    /// The link, as written in the post: the whole card leads there.
    pub url: String,
    pub title: String,
    pub description: Option<String>,
    /// The site's own name for itself (`og:site_name`); null when it gives none.
    pub site_name: Option<String>,
    /// `/objects/{id}`: the page's image, checked and stored like an upload; null when it has
    /// none or it did not pass the checks.
    pub image_url: Option<String>,
}

/// Whether `url` (a post's first link, `posts::entities`) can have a card: not too long, and a
/// URL the fetch can read.
pub fn can_have_card(url: &str) -> bool {
    url.len() <= URL_MAX_CHARS && url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
}

/// In the transaction writing post `post` (new, or its text edited): points it at the card of
/// `link` (its first link), or at none. A card never fetched, or fetched `REFRESH_AFTER` ago, is due.
/// Answers true when a fetch is wanted: the caller wakes the job after commit. A card its
/// author removed stays removed.
pub async fn attach(tx: &mut AnyConnection, post: i64, link: Option<&str>, now: Millis) -> Result<bool> {
    let card = match link.filter(|url| can_have_card(url)) {
        Some(url) => Some(store::card_for(&mut *tx, url, now).await?),
        None => None,
    };
    let attached = store::point_post_at(&mut *tx, post, card.map(|(id, _)| id)).await?;
    Ok(attached && card.is_some_and(|(_, due)| due))
}

/// A new link's card came (its first fetch): the authors of its posts, who had them before it,
/// see it on their next read (their kept pages go stale: `timelines::changes`). Answers those
/// posts with their authors, whose open pages are told (`live::Change::CardFetched`).
pub async fn first_fetched(db: &Db, card: i64) -> Result<Vec<(i64, i64)>> {
    let posts = store::posts_awaiting(&db.write, card).await?;
    let mut authors: Vec<i64> = posts.iter().map(|(_, author)| *author).collect();
    authors.sort_unstable();
    authors.dedup();
    let mut writer = db.write.acquire().await?;
    for author in authors {
        crate::timelines::changes::member_changed(&mut writer, author).await?;
    }
    Ok(posts)
}

/// The author removes their post's card; it stays removed (a refresh or an edit does not bring
/// it back). 404 for a post that is not there, 403 for another member's.
pub async fn remove(db: &Db, member: i64, post: i64, now: Millis) -> Result<()> {
    let mut writer = db.write.acquire().await?;
    let mut tx = writer.begin().await?;
    let author = store::live_author(&mut tx, post).await?.ok_or_else(|| Error::not_found("Post not found"))?;
    if author != member {
        return Err(Error::forbidden("You can only remove the card of your own posts"));
    }
    // The author's kept Friends pages show it gone at once.
    crate::timelines::changes::member_changed(&mut tx, member).await?;
    store::remove_from_post(&mut tx, post, now).await?;
    tx.commit().await?;
    crate::live::note(crate::live::Change::Edited { author, post });
    Ok(())
}
