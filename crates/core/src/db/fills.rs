//! What the migrations need Rust for: keys SQL cannot compute (look-alike skeletons, the NFKC
//! case fold of tags), filled after the migrations by `Db::migrate`.

use super::Pool;

use crate::text::{look_alike_key, tag_key};

/// Rows of one batch of `fill_missing_keys`.
const FILL_BATCH: i64 = 500;

/// Computes the look-alike keys the database does not have yet (members from before migration
/// 0012, or written by an older version of murmur, and held usernames from before 0045), 500
/// rows a transaction; answers how many keys it wrote. `Db::migrate` calls it after the migrations, so the look-alike test sees every
/// member before the server answers.
///
/// SQL cannot compute a skeleton, so this is Rust. Idempotent and safe in several processes at
/// once: a key is written only where it is still NULL and the name it was computed from is still
/// the row's, so a member's edit in between is never overwritten; a row skipped that way is
/// filled at the next start. Each column is walked by id from its index (`… IS NULL`), so a
/// database with nothing to fill costs three index lookups.
pub async fn fill_missing_keys(write: &Pool) -> anyhow::Result<u64> {
    const COLUMNS: [(&str, &str, &str); 2] = [
        (
            "SELECT id, display_name FROM users WHERE name_skeleton IS NULL AND id > $1 ORDER BY id LIMIT $2",
            "UPDATE users SET name_skeleton = $1 WHERE id = $2 AND name_skeleton IS NULL AND display_name = $3",
            "display names",
        ),
        (
            "SELECT id, username FROM users WHERE username_skeleton IS NULL AND id > $1 ORDER BY id LIMIT $2",
            "UPDATE users SET username_skeleton = $1 WHERE id = $2 AND username_skeleton IS NULL AND username = $3",
            "usernames",
        ),
    ];
    let mut written = 0;
    for (select, update, what) in COLUMNS {
        let mut after = 0;
        loop {
            let mut tx = write.begin().await?;
            let rows: Vec<(i64, String)> =
                sqlx::query_as(select).bind(after).bind(FILL_BATCH).fetch_all(&mut *tx).await?;
            let Some(&(last, _)) = rows.last() else { break };
            for (id, text) in &rows {
                let done = sqlx::query(update).bind(look_alike_key(text)).bind(id).bind(text).execute(&mut *tx).await?;
                written += done.rows_affected();
            }
            tx.commit().await?;
            after = last;
            tracing::info!(up_to_member = last, "look-alike keys of {what} filled");
        }
    }
    written += fill_held_name_keys(write).await?;
    Ok(written)
}

/// The look-alike keys of the held usernames from before migration 0045, as
/// `fill_missing_keys` fills the members' (by the name, the table's key; holds last 30 days, so
/// there are few).
async fn fill_held_name_keys(write: &Pool) -> anyhow::Result<u64> {
    let mut written = 0;
    let mut after = String::new();
    loop {
        let mut tx = write.begin().await?;
        let names: Vec<String> = sqlx::query_scalar(
            "SELECT username FROM username_holds WHERE skeleton IS NULL AND username > $1 ORDER BY username LIMIT $2",
        )
        .bind(&after)
        .bind(FILL_BATCH)
        .fetch_all(&mut *tx)
        .await?;
        let Some(last) = names.last().cloned() else { break };
        for name in &names {
            let done = sqlx::query("UPDATE username_holds SET skeleton = $1 WHERE username = $2 AND skeleton IS NULL")
                .bind(look_alike_key(name))
                .bind(name)
                .execute(&mut *tx)
                .await?;
            written += done.rows_affected();
        }
        tx.commit().await?;
        after = last;
    }
    if written > 0 {
        tracing::info!(written, "look-alike keys of held usernames filled");
    }
    Ok(written)
}

/// Tags of one batch of `rekey_tags`.
const REKEY_BATCH: i64 = 500;

/// Gives the tags written before migration 0026 the key `tag_key` makes now (their NFKC case
/// fold: `#ＲＵＳＴ` was `ｒｕｓｔ`, is `rust`), and merges a tag whose new key another tag
/// holds into that one (its posts move there, a post in both counts once; its place in Trending
/// goes until Trending is next computed). Answers how many tags it changed. `Db::migrate` calls
/// it after the migrations; it does anything only while migration 0026's row in `jobs` is
/// there, and removes the row in the same transaction, so it runs once: a second process
/// starting at the same moment waits for the row, then finds it gone.
///
/// SQL cannot fold text, so this is Rust. It walks every tag by id (the ones with ASCII keys
/// change nothing), 500 at a time, in one transaction.
pub async fn rekey_tags(write: &Pool) -> anyhow::Result<u64> {
    let mut tx = write.begin().await?;
    let marked = sqlx::query("DELETE FROM jobs WHERE name = 'tag_keys'").execute(&mut *tx).await?;
    if marked.rows_affected() == 0 {
        return Ok(0);
    }
    let mut changed = 0;
    let mut after = 0;
    loop {
        let tags: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT id, key, name FROM tags WHERE id > $1 ORDER BY id LIMIT $2")
                .bind(after)
                .bind(REKEY_BATCH)
                .fetch_all(&mut *tx)
                .await?;
        let Some(&(last, _, _)) = tags.last() else { break };
        after = last;
        for (id, key, name) in tags {
            let new_key = tag_key(&name);
            if new_key == key {
                continue;
            }
            changed += 1;
            let holder: Option<i64> = sqlx::query_scalar("SELECT id FROM tags WHERE key = $1")
                .bind(new_key.as_str())
                .fetch_optional(&mut *tx)
                .await?;
            let Some(holder) = holder else {
                sqlx::query("UPDATE tags SET key = $1 WHERE id = $2")
                    .bind(new_key.as_str())
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                continue;
            };
            sqlx::query(
                "INSERT INTO post_tags (tag_id, post_id, author_id, created_at) \
                 SELECT $1, post_id, author_id, created_at FROM post_tags WHERE tag_id = $2 \
                 ON CONFLICT (tag_id, post_id) DO NOTHING",
            )
            .bind(holder)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            for sql in [
                "DELETE FROM post_tags WHERE tag_id = $1",
                "DELETE FROM trending_tags WHERE tag_id = $1",
                "DELETE FROM tags WHERE id = $1",
            ] {
                sqlx::query(sql).bind(id).execute(&mut *tx).await?;
            }
        }
    }
    tx.commit().await?;
    tracing::info!(changed, "tags keyed by their NFKC case fold");
    Ok(changed)
}
