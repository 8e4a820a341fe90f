//! Queries of link preview cards (the `link_cards` table and `posts.link_card_id`).

use sqlx::AnyConnection;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// The card row of `url` (made if there is none) and whether a fetch of it is due: a new card,
/// one still waiting for its fetch, or one fetched `REFRESH_AFTER` ago (asked for anew here).
pub async fn card_for(tx: &mut AnyConnection, url: &str, now: Millis) -> Result<(i64, bool)> {
    sqlx::query(
        "INSERT INTO link_cards (url, due_at) VALUES ($1, $2) \
         ON CONFLICT (url) DO UPDATE SET due_at = $2 \
         WHERE link_cards.due_at IS NULL AND link_cards.fetched_at < $3",
    )
    .bind(url)
    .bind(now)
    .bind(now - super::REFRESH_AFTER)
    .execute(&mut *tx)
    .await?;
    let (id, due_at): (i64, Option<Millis>) =
        sqlx::query_as("SELECT id, due_at FROM link_cards WHERE url = $1").bind(url).fetch_one(&mut *tx).await?;
    Ok((id, due_at.is_some()))
}

/// Points post `post` at card `card` (None: at none), unless its author removed its card; true
/// when it was pointed.
pub async fn point_post_at(tx: &mut AnyConnection, post: i64, card: Option<i64>) -> Result<bool> {
    let done = sqlx::query("UPDATE posts SET link_card_id = $2 WHERE id = $1 AND link_card_removed_at IS NULL")
        .bind(post)
        .bind(card)
        .execute(tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The author of post `post` if it is there (not deleted, not a repost, which has no card of
/// its own).
pub async fn live_author(tx: &mut AnyConnection, post: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT author_id FROM posts WHERE id = $1 AND deleted_at IS NULL AND repost_of_id IS NULL")
        .bind(post)
        .fetch_optional(tx)
        .await?)
}

/// Takes the card off post `post` for good.
pub async fn remove_from_post(tx: &mut AnyConnection, post: i64, now: Millis) -> Result<()> {
    sqlx::query(
        "UPDATE posts SET link_card_id = NULL, link_card_removed_at = COALESCE(link_card_removed_at, $2) WHERE id = $1",
    )
    .bind(post)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

/// A card this process holds until `claimed_until`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: i64,
    pub url: String,
    pub claimed_until: Millis,
    /// The image it has now (replaced by the fetch).
    pub image_media_id: Option<String>,
    /// When it was last fetched; None: never (a new link's card).
    pub fetched_at: Option<Millis>,
}

/// Claims up to `limit` due cards nobody holds, for `CLAIM_FOR`: one process fetches a URL at a
/// time, whichever processes share the database.
pub async fn claim_due(write: &Pool, now: Millis, limit: i64) -> Result<Vec<Claimed>> {
    Ok(sqlx::query_as(
        "UPDATE link_cards SET claimed_until = $1 \
         WHERE id IN (SELECT id FROM link_cards WHERE due_at <= $2 \
                      AND (claimed_until IS NULL OR claimed_until < $2) ORDER BY due_at, id LIMIT $3) \
           AND due_at <= $2 AND (claimed_until IS NULL OR claimed_until < $2) \
         RETURNING id, url, claimed_until, image_media_id, fetched_at",
    )
    .bind(now + super::CLAIM_FOR)
    .bind(now)
    .bind(limit)
    .fetch_all(write)
    .await?)
}

/// What a fetch found: a card, with its stored image (media id and type) if it has one.
#[derive(Debug, Default)]
pub struct Found {
    pub title: Option<String>,
    pub description: Option<String>,
    pub site_name: Option<String>,
    pub image: Option<(String, String)>,
}

/// Keeps what the fetch of a claimed card found (a `Found::default()`: no card) and lets it go;
/// false when the claim was lost meanwhile (another process took it over), and nothing changed.
pub async fn save(write: &Pool, claimed: &Claimed, found: &Found, now: Millis) -> Result<bool> {
    let (image_id, image_type) = found.image.clone().unzip();
    let done = sqlx::query(
        "UPDATE link_cards SET title = $1, description = $2, site_name = $3, image_media_id = $4, \
         image_content_type = $5, fetched_at = $6, due_at = NULL, claimed_until = NULL \
         WHERE id = $7 AND claimed_until = $8",
    )
    .bind(found.title.as_deref())
    .bind(found.description.as_deref())
    .bind(found.site_name.as_deref())
    .bind(image_id)
    .bind(image_type)
    .bind(now)
    .bind(claimed.id)
    .bind(claimed.claimed_until)
    .execute(write)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The most posts told at once that their new card came (`posts_awaiting`).
const AWAITING_MAX: i64 = 100;

/// The posts (and their authors) that point at card `card`, first fetched just now: new posts
/// whose authors saw them before their card. A new link is in few posts; at most `AWAITING_MAX`.
pub async fn posts_awaiting(read: &Pool, card: i64) -> Result<Vec<(i64, i64)>> {
    Ok(sqlx::query_as("SELECT id, author_id FROM posts WHERE link_card_id = $1 AND deleted_at IS NULL LIMIT $2")
        .bind(card)
        .bind(AWAITING_MAX)
        .fetch_all(read)
        .await?)
}

/// The type of image `media_id` if it is a card's (`/objects/{id}` serves it like an upload).
pub async fn image_content_type(read: &Pool, media_id: &str) -> Result<Option<String>> {
    Ok(sqlx::query_scalar("SELECT image_content_type FROM link_cards WHERE image_media_id = $1")
        .bind(media_id)
        .fetch_optional(read)
        .await?
        .flatten())
}
