//! Leaving: a member deletes their account (docs/safety.md, "Leaving").
//!
//! Two steps. `delete_account` is one short transaction that makes the member disappear at
//! once: the e-mailed link used, their sessions ended, follows both ways removed with every
//! counter they moved, blocks and mutes ended, their name, address and images cleared, their
//! username held for `HOLD`, and their row marked deleted and hidden everywhere the way a
//! suspended member's is (`visibility`). Then `clean_up_round` (the leaving job in
//! `jobs`) removes the rest in bounded batches, each its own transaction after members' writes
//! (`db::member_writes`), so a member with many posts never holds SQLite's single writer for long.
//!
//! What stays: the member's row, with nothing that names them (the posts below need an author);
//! their posts that someone replied to, emptied, so the replies keep their thread under "This
//! post was deleted"; reports they made or that name them, and the moderation log. Everything
//! else that refers to the member goes, as deleting their row would take it
//! (`sweep_references` follows the schema's own foreign keys, so a table added later goes too).

use sqlx::{AnyConnection, Connection};

use super::magic_link::{self, Use};
use crate::live::{Change, Live};
use crate::media::MediaStore;
use crate::posts::store::{PostRef, TakenDownBy};
use crate::timelines::changes::{self, FEED_CHANGED};
use murmur_core::clock::{MINUTE, Millis};
use murmur_core::db::Pool;
use murmur_core::db::schema::{OnDelete, references_to};
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::db::{Backend, Db};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::MemberLimit;

pub use crate::users::model::HOLD;
/// The name a deleted member's row carries (it is shown nowhere but the moderators' pages).
pub const DELETED_NAME: &str = "Deleted member";
/// Rows one clean-up transaction takes at most: a few milliseconds of the writer.
pub const BATCH: i64 = 100;
/// A process working on a deletion keeps it this long past its last batch; after that (the
/// process stopped) another takes it over.
const CLAIM_FOR: Millis = 2 * MINUTE;

/// Tables whose rows that name the deleted member stay (see the module's comment), and the
/// queue of deletions itself (its row goes last).
const KEPT: &[&str] = &["users", "posts", "reports", "moderation_log", "account_deletions"];

/// Wakes this process's leaving job (`jobs`) after a deletion committed.
pub type CleanupQueue = murmur_core::wake::Wake;

/// Deletes `member`'s account with the token of the link e-mailed to them: everything that
/// makes them visible goes in this one transaction, and the rest is queued for the leaving job.
/// 400 (`INVALID_LINK`) when the token is not a live deletion link of this member's.
pub async fn delete_account(db: &Db, member: i64, token: &str, now: Millis) -> Result<()> {
    let invalid = || Error::bad_request(super::magic_link::INVALID_LINK);
    let mut tx = db.write.begin().await?;
    let (email, username): (String, String) =
        sqlx::query_as("SELECT email, username FROM users WHERE id = $1 AND deleted_at IS NULL")
            .bind(member)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(Error::Unauthorized)?;
    // Another member's link is used up here only if this transaction commits: it does not.
    magic_link::consume(&mut tx, token, Use::DeleteAccount, now)
        .await?
        .filter(|link| link.email == email)
        .ok_or_else(invalid)?;
    changes::member_changed(&mut tx, member).await?;
    crate::users::store::hold_username(&mut tx, &username, None, now).await?;
    end_follows(&mut tx, member).await?;
    for sql in [
        "DELETE FROM blocks WHERE blocker_id = $1",
        "DELETE FROM blocks WHERE blocked_id = $1",
        "DELETE FROM mutes WHERE muter_id = $1",
        "DELETE FROM mutes WHERE muted_id = $1",
        "DELETE FROM muted_words WHERE member_id = $1",
        "DELETE FROM home_timeline WHERE member_id = $1",
        "DELETE FROM for_you_snapshots WHERE user_id = $1",
        // Their posts still on their way to followers' timelines reach nobody more.
        "DELETE FROM timeline_fanouts WHERE author_id = $1",
    ] {
        sqlx::query(sql).bind(member).execute(&mut *tx).await?;
    }
    // The reports about them have nothing left to act on; they stay, resolved, for the record,
    // without the words of their posts, which leave with them.
    sqlx::query("UPDATE reports SET resolved_at = COALESCE(resolved_at, $1), post_text = NULL WHERE member_id = $2")
        .bind(now)
        .bind(member)
        .execute(&mut *tx)
        .await?;
    crate::messages::member_left(&mut tx, member).await?;
    magic_link::remove_all_of(&mut tx, &email).await?;
    crate::passkeys::store::remove_all_of(&mut tx, member).await?;
    crate::sessions::end_all(&mut tx, member).await?;
    forget_the_member(&mut tx, member, now).await?;
    sqlx::query("INSERT INTO account_deletions (member_id, deleted_at) VALUES ($1, $2)")
        .bind(member)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    tracing::info!(user_id = member, "account deleted; clean-up queued");
    Ok(())
}

/// Removes every follow of and by `member`, with the other members' counters, and marks the
/// feeds of those who followed them changed (the member's posts leave their pages; the rows in
/// their timelines go with the posts, `clean_up_round`). Set-based: a member with thousands of
/// followers costs a few statements.
async fn end_follows(conn: &mut AnyConnection, member: i64) -> Result<()> {
    sqlx::query(
        "UPDATE users SET follower_count = follower_count - 1 \
         WHERE id IN (SELECT following_id FROM follows WHERE follower_id = $1)",
    )
    .bind(member)
    .execute(&mut *conn)
    .await?;
    static FOLLOWERS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "UPDATE users SET following_count = following_count - 1, {FEED_CHANGED} \
             WHERE id IN (SELECT follower_id FROM follows WHERE following_id = $1)"
        )
    });
    sqlx::query(FOLLOWERS.as_str()).bind(member).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM follows WHERE follower_id = $1").bind(member).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM follows WHERE following_id = $1").bind(member).execute(&mut *conn).await?;
    Ok(())
}

/// The member's row as it stays: nothing that names or reaches them, hidden everywhere as a
/// suspended member (`suspended_until` forever, which every list already tests), and a username
/// and address no person can have (`~` is never in a username; `.invalid` is no domain).
async fn forget_the_member(conn: &mut AnyConnection, member: i64, now: Millis) -> Result<()> {
    let username = format!("deleted~{member}");
    sqlx::query(
        "UPDATE users SET deleted_at = $1, suspended_until = $2, email = $3, username = $4, display_name = $5, \
         bio = '', website = '', profile_image_url = NULL, header_image_url = NULL, follower_count = 0, \
         following_count = 0, invites_available = 0, invites_taken = 0, role = 'member', \
         username_skeleton = $6, name_skeleton = $7 WHERE id = $8",
    )
    .bind(now)
    .bind(i64::MAX)
    .bind(format!("{username}@deleted.invalid"))
    .bind(&username)
    .bind(DELETED_NAME)
    .bind(murmur_core::text::look_alike_key(&username))
    .bind(murmur_core::text::look_alike_key(DELETED_NAME))
    .bind(member)
    .execute(conn)
    .await?;
    Ok(())
}

/// What a held username answers where a member is looked up by name.
pub const HELD: &str = "This account was deleted. Its username is not available to anyone for 30 days.";

/// Whether `username` belonged to a member who deleted their account less than `HOLD` ago.
pub async fn is_held(pool: &Pool, username: &str, now: Millis) -> Result<bool> {
    let held: Option<i64> = sqlx::query_scalar("SELECT 1 FROM username_holds WHERE username = $1 AND until > $2")
        .bind(username)
        .bind(now)
        .fetch_optional(pool)
        .await?;
    Ok(held.is_some())
}

/// One round of the leaving job: takes each deletion no other process is working on and
/// cleans it up to the end. Answers how many deletions it finished. Safe in several processes:
/// a deletion is claimed (`claimed_until`) before it is worked on, and every batch removes rows
/// with `RETURNING` and corrects counters only for the rows it removed itself.
pub async fn clean_up_round(db: &Db, media: &MediaStore, live: &Live, now: Millis) -> Result<u64> {
    let mut finished = 0;
    while let Some(member) = claim(db, now).await? {
        clean_up(db, media, live, member, now).await?;
        finished += 1;
    }
    let held = sqlx::query("DELETE FROM username_holds WHERE until <= $1").bind(now).execute(&db.write).await?;
    if finished + held.rows_affected() > 0 {
        tracing::info!(finished, usernames_freed = held.rows_affected(), "deleted accounts cleaned up");
    }
    Ok(finished)
}

async fn claim(db: &Db, now: Millis) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "UPDATE account_deletions SET claimed_until = $1 WHERE member_id = ( \
             SELECT member_id FROM account_deletions WHERE claimed_until <= $2 ORDER BY member_id LIMIT 1 \
         ) AND claimed_until <= $2 RETURNING member_id",
    )
    .bind(now + CLAIM_FOR)
    .bind(now)
    .fetch_optional(&db.write)
    .await?)
}

/// Each step in batches until it has nothing left, in an order where each step leaves the
/// next less to do: what the member did to others' posts first (counters), then their own
/// posts, then what refers to them.
async fn clean_up(db: &Db, media: &MediaStore, live: &Live, member: i64, now: Millis) -> Result<()> {
    let steps: [Step; 8] = [
        Step::Likes,
        Step::Votes,
        Step::Reposts,
        Step::Posts,
        Step::LeafPosts,
        Step::KeptPosts,
        Step::Notifications,
        Step::Media,
    ];
    for step in steps {
        loop {
            db.member_writes.wait_for_none().await;
            let mut writer = db.write.acquire().await?;
            let mut tx = writer.begin().await?;
            sqlx::query("UPDATE account_deletions SET claimed_until = $1 WHERE member_id = $2")
                .bind(now + CLAIM_FOR)
                .bind(member)
                .execute(&mut *tx)
                .await?;
            let done = step.batch(&mut tx, member, now).await?;
            tx.commit().await?;
            drop(writer);
            // Behind a pooler the writer commits as it is given back: published once it has.
            db.write.settled().await;
            for change in &done.changes {
                live.publish(*change);
            }
            for id in &done.media {
                if let Err(e) = media.delete_all(id).await {
                    tracing::warn!(media_id = %id, error = %e, "could not delete a deleted member's image");
                }
            }
            if done.rows == 0 {
                break;
            }
        }
    }
    db.member_writes.wait_for_none().await;
    let mut tx = db.write.begin().await?;
    // Their data archive goes with its row (swept below): its bytes once committed.
    let archive: Option<String> =
        sqlx::query_scalar("SELECT archive_id FROM data_exports WHERE member_id = $1 AND archive_id IS NOT NULL")
            .bind(member)
            .fetch_optional(&mut *tx)
            .await?;
    // Every kind of a member's counts (`rate_limit::MemberLimit`), so a new kind goes too.
    let keys: Vec<String> = MemberLimit::ALL.iter().map(|kind| kind.key(member)).collect();
    let sql = format!("DELETE FROM rate_limits WHERE key IN ({})", in_list(1, keys.len()));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for key in padded_values(&keys) {
        query = query.bind(key);
    }
    query.execute(&mut *tx).await?;
    sweep_references(&mut tx, db.backend, member).await?;
    sqlx::query("DELETE FROM account_deletions WHERE member_id = $1").bind(member).execute(&mut *tx).await?;
    tx.commit().await?;
    if let Some(archive) = archive {
        // Left behind, upkeep removes it as an archive no export names.
        if let Err(e) = media.delete_archive(&archive).await {
            tracing::warn!(error = %e, "could not delete a deleted member's data archive");
        }
    }
    tracing::info!(user_id = member, "a deleted account is cleaned up");
    Ok(())
}

/// What one batch did.
#[derive(Default)]
struct Done {
    rows: u64,
    /// For open tabs, once committed.
    changes: Vec<Change>,
    /// Uploads whose rows went: their bytes go once committed.
    media: Vec<String>,
}

impl Done {
    /// Rows gone one per post, each post with a count that changed.
    fn count_posts(&mut self, posts: Vec<i64>) {
        self.rows = posts.len() as u64;
        self.changes = posts.into_iter().map(|post| Change::Counted { post }).collect();
    }
}

#[derive(Clone, Copy, Debug)]
enum Step {
    /// Their likes, with the liked posts' counts.
    Likes,
    /// Their votes in others' polls (results are counted from the votes).
    Votes,
    /// Their reposts, with the originals' counts and their authors' notifications.
    Reposts,
    /// Their posts and replies, each taken down as its author's delete does
    /// (`posts::writes::take_down`): timelines, tags, search, notifications, parents' counts.
    Posts,
    /// Their deleted posts that no post replies to: gone for good (leaves first, so a chain of
    /// their own replies goes in a few batches).
    LeafPosts,
    /// The posts that stay for others' replies, emptied of what moderators had kept of a
    /// removed post (text, images, poll).
    KeptPosts,
    /// Notifications to and from them.
    Notifications,
    /// Their uploads (post images and profile images alike), rows and bytes.
    Media,
}

/// Deletes a batch of the member's rows in `table` (likes or poll_votes: one per member and
/// post), returning the posts whose counts they were.
async fn delete_batch_of(tx: &mut AnyConnection, table: &'static str, member: i64) -> Result<Vec<i64>> {
    let sql = format!(
        "DELETE FROM {table} WHERE user_id = $1 AND post_id IN ( \
             SELECT post_id FROM {table} WHERE user_id = $1 LIMIT $2) RETURNING post_id"
    );
    let posts = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(member).bind(BATCH).fetch_all(&mut *tx).await?;
    Ok(posts)
}

impl Step {
    async fn batch(self, tx: &mut AnyConnection, member: i64, now: Millis) -> Result<Done> {
        let mut done = Done::default();
        match self {
            Step::Likes => {
                let posts = delete_batch_of(tx, "likes", member).await?;
                if !posts.is_empty() {
                    let sql = format!(
                        "UPDATE posts SET like_count = like_count - 1 WHERE deleted_at IS NULL AND id IN ({})",
                        in_list(1, posts.len())
                    );
                    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                    for id in padded_values(&posts) {
                        query = query.bind(id);
                    }
                    query.execute(&mut *tx).await?;
                }
                done.count_posts(posts);
            }
            Step::Votes => {
                let posts = delete_batch_of(tx, "poll_votes", member).await?;
                done.count_posts(posts);
            }
            Step::Reposts => {
                let originals: Vec<i64> = sqlx::query_scalar(
                    "SELECT repost_of_id FROM posts WHERE author_id = $1 AND repost_of_id IS NOT NULL \
                     ORDER BY id LIMIT $2",
                )
                .bind(member)
                .bind(BATCH)
                .fetch_all(&mut *tx)
                .await?;
                for original in &originals {
                    crate::posts::writes::undo_repost(&mut *tx, member, *original).await.or_else(gone_meanwhile)?;
                }
                done.count_posts(originals);
            }
            Step::Posts => {
                let posts: Vec<PostRef> = sqlx::query_as(
                    "SELECT id, author_id, reply_to_id, repost_of_id, poll_expires_at, deleted_at FROM posts \
                     WHERE author_id = $1 AND deleted_at IS NULL AND repost_of_id IS NULL ORDER BY id DESC LIMIT $2",
                )
                .bind(member)
                .bind(BATCH / 2)
                .fetch_all(&mut *tx)
                .await?;
                if !posts.is_empty() {
                    let changing = changes::member_changed(&mut *tx, member).await?;
                    for post in &posts {
                        crate::posts::writes::take_down(&mut *tx, &changing, post, now, TakenDownBy::Author)
                            .await
                            .or_else(gone_meanwhile)?;
                        if let Some(parent) = post.reply_to_id {
                            done.changes.push(Change::Counted { post: parent });
                        }
                    }
                }
                done.rows = posts.len() as u64;
            }
            Step::LeafPosts => {
                let gone = sqlx::query(
                    "DELETE FROM posts WHERE id IN ( \
                         SELECT p.id FROM posts p WHERE p.author_id = $1 AND p.deleted_at IS NOT NULL \
                         AND NOT EXISTS (SELECT 1 FROM posts r WHERE r.reply_to_id = p.id) LIMIT $2)",
                )
                .bind(member)
                .bind(BATCH)
                .execute(&mut *tx)
                .await?;
                done.rows = gone.rows_affected();
            }
            Step::KeptPosts => {
                let posts: Vec<i64> = sqlx::query_scalar(
                    "SELECT id FROM posts WHERE author_id = $1 \
                     AND (content <> '' OR entities IS NOT NULL OR image_count > 0 OR poll_expires_at IS NOT NULL) \
                     ORDER BY id LIMIT $2",
                )
                .bind(member)
                .bind(BATCH)
                .fetch_all(&mut *tx)
                .await?;
                for post in &posts {
                    for sql in [
                        "DELETE FROM post_images WHERE post_id = $1",
                        // Earlier versions, with their images.
                        "DELETE FROM post_edits WHERE post_id = $1",
                        "DELETE FROM poll_votes WHERE post_id = $1",
                        "DELETE FROM poll_options WHERE post_id = $1",
                        "UPDATE posts SET content = '', entities = NULL, image_count = 0, poll_expires_at = NULL, muting_text = NULL \
                         WHERE id = $1",
                    ] {
                        sqlx::query(sql).bind(*post).execute(&mut *tx).await?;
                    }
                }
                done.rows = posts.len() as u64;
            }
            Step::Notifications => {
                let recipients: Vec<i64> = sqlx::query_scalar(
                    "DELETE FROM notifications WHERE id IN ( \
                         SELECT id FROM notifications WHERE recipient_id = $1 OR actor_id = $1 LIMIT $2) \
                     RETURNING recipient_id",
                )
                .bind(member)
                .bind(BATCH * 5)
                .fetch_all(&mut *tx)
                .await?;
                done.rows = recipients.len() as u64;
                let mut others: Vec<i64> = recipients.into_iter().filter(|r| *r != member).collect();
                others.sort_unstable();
                others.dedup();
                done.changes = others.into_iter().map(|member| Change::Notified { member, new: false }).collect();
            }
            Step::Media => {
                // An upload still shown in a post stays (only another member's post could show
                // it, and posts show only their authors' uploads).
                let ids: Vec<String> = sqlx::query_scalar(
                    "DELETE FROM media WHERE id IN ( \
                         SELECT m.id FROM media m WHERE m.owner_id = $1 \
                         AND NOT EXISTS (SELECT 1 FROM post_images i WHERE i.media_id = m.id) LIMIT $2) \
                     RETURNING id",
                )
                .bind(member)
                .bind(BATCH)
                .fetch_all(&mut *tx)
                .await?;
                done.rows = ids.len() as u64;
                done.media = ids;
            }
        }
        Ok(done)
    }
}

/// A post taken down or a repost undone by someone else meanwhile: nothing left to do for it.
fn gone_meanwhile(e: Error) -> Result<()> {
    match e {
        Error::NotFound(_) => Ok(()),
        e => Err(e),
    }
}

/// Does to every remaining row that refers to `member` what deleting their row would (delete
/// it, or clear the reference), but in the tables whose rows stay (`KEPT`). The steps before
/// took the rows that move counters; what is left here is small (sessions, invites, tags of
/// posts now gone, and the tables other areas add later).
async fn sweep_references(conn: &mut AnyConnection, backend: Backend, member: i64) -> Result<()> {
    for (table, column, rule) in references_to(&mut *conn, backend, "users").await? {
        if KEPT.contains(&table.as_str()) {
            continue;
        }
        let (table, column) = (quote(&table), quote(&column));
        let sql = match rule {
            OnDelete::Cascade => format!("DELETE FROM {table} WHERE {column} = $1"),
            OnDelete::SetNull => format!("UPDATE {table} SET {column} = NULL WHERE {column} = $1"),
            OnDelete::Other(_) => continue,
        };
        sqlx::query(sqlx::AssertSqlSafe(sql)).bind(member).execute(&mut *conn).await?;
    }
    Ok(())
}

/// An identifier from the schema, quoted.
fn quote(identifier: &str) -> String {
    format!("\"{}\"", identifier.replace('"', "\"\""))
}
