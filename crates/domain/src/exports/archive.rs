//! The archive of a member's data: a zip of JSON files (`PARTS`), their posts' images and a
//! readable `index.html`, written as a stream to the object store. Every list is read a page
//! at a time and each image is copied in chunks, so a member with many posts is never held in
//! memory at once.

use std::future::Future;
use std::io::Write as _;
use std::sync::{Arc, Mutex};

use futures::StreamExt as _;
use futures::future::BoxFuture;
use serde::{Serialize, Serializer};
use tokio::io::AsyncWriteExt as _;
use zip::write::{SimpleFileOptions, StreamWriter};
use zip::{CompressionMethod, ZipWriter};

use crate::media::MediaStore;
use murmur_core::clock::{Millis, to_rfc3339};
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};
use murmur_core::html::escape;

/// Rows read in one page of a list.
const PAGE: i64 = 200;

/// One part of the archive: a file and the function that writes it. A new kind of data a member
/// has is one more entry in `PARTS`.
pub struct Part {
    pub file: &'static str,
    write: for<'a> fn(&'a mut Export) -> BoxFuture<'a, Result<()>>,
}

/// The archive's JSON files, in order. Then come the posts' images (`images/`) and `index.html`.
pub const PARTS: &[Part] = &[
    Part { file: "profile.json", write: |e| Box::pin(profile(e)) },
    Part { file: "posts.json", write: |e| Box::pin(posts(e)) },
    Part { file: "likes.json", write: |e| Box::pin(likes(e)) },
    Part { file: "following.json", write: |e| Box::pin(following(e)) },
    Part { file: "followers.json", write: |e| Box::pin(followers(e)) },
    Part { file: "invites.json", write: |e| Box::pin(invites(e)) },
    Part { file: "bookmarks.json", write: |e| Box::pin(bookmarks(e)) },
    Part { file: "messages.json", write: |e| Box::pin(messages(e)) },
];

/// One archive being written: what it reads from and where its bytes go.
pub struct Export {
    pool: Pool,
    media: MediaStore,
    member: i64,
    zip: ZipWriter<StreamWriter<Spool>>,
    spool: Spool,
    out: object_store::buffered::BufWriter,
    size: u64,
    /// The files' time in the zip: when the archive was made (UTC).
    made_at: zip::DateTime,
}

/// What the zip writer wrote since the bytes were last sent on to the store.
#[derive(Clone, Default)]
struct Spool(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("spool poisoned"))?.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Spool {
    fn take(&self) -> Vec<u8> {
        self.0.lock().map(|mut bytes| std::mem::take(&mut *bytes)).unwrap_or_default()
    }
}

/// Writes member `member`'s archive to the store as `archive_id`; answers its size in bytes.
/// On failure nothing is left under the key.
pub async fn build(pool: &Pool, media: &MediaStore, member: i64, archive_id: &str) -> Result<u64> {
    let spool = Spool::default();
    let mut export = Export {
        pool: pool.clone(),
        media: media.clone(),
        member,
        zip: ZipWriter::new_stream(spool.clone()),
        spool,
        out: media.archive_writer(archive_id),
        size: 0,
        made_at: zip_time(chrono::Utc::now()),
    };
    match write_all(&mut export).await {
        Ok(()) => export.finish().await,
        Err(e) => {
            let _ = export.out.abort().await;
            Err(e)
        }
    }
}

async fn write_all(export: &mut Export) -> Result<()> {
    for part in PARTS {
        export.start(part.file, CompressionMethod::Deflated)?;
        (part.write)(export).await?;
    }
    images(export).await?;
    export.start("index.html", CompressionMethod::Deflated)?;
    index_html(export).await
}

impl Export {
    fn start(&mut self, file: &str, method: CompressionMethod) -> Result<()> {
        let options =
            SimpleFileOptions::default().compression_method(method).large_file(true).last_modified_time(self.made_at);
        self.zip.start_file(file, options).map_err(zip_failed)
    }

    /// Adds bytes to the file being written and sends what the zip holds on to the store.
    async fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.zip.write_all(bytes).map_err(|e| Error::Internal(e.into()))?;
        self.send().await
    }

    async fn send(&mut self) -> Result<()> {
        let bytes = self.spool.take();
        self.size += bytes.len() as u64;
        self.out.write_all(&bytes).await.map_err(|e| Error::Internal(anyhow::anyhow!("writing an archive: {e}")))
    }

    async fn finish(self) -> Result<u64> {
        let Export { zip, spool, mut out, size, .. } = self;
        zip.finish().map_err(zip_failed)?;
        let rest = spool.take();
        let stored = async {
            out.write_all(&rest).await?;
            out.shutdown().await
        };
        stored.await.map_err(|e| Error::Internal(anyhow::anyhow!("storing an archive: {e}")))?;
        Ok(size + rest.len() as u64)
    }

    /// Writes a JSON array of the rows `page(after)` answers, page after page (each row's `key`
    /// is where the next page starts).
    async fn json_list<T, F, Fut>(&mut self, page: F) -> Result<()>
    where
        T: Serialize + Keyed,
        F: Fn(Pool, i64, i64) -> Fut,
        Fut: Future<Output = Result<Vec<T>>>,
    {
        self.write(b"[").await?;
        let mut after = 0;
        let mut first = true;
        loop {
            let rows = page(self.pool.clone(), self.member, after).await?;
            let mut chunk = Vec::new();
            for row in &rows {
                chunk.extend_from_slice(if first { b"\n  " } else { b",\n  " });
                serde_json::to_writer(&mut chunk, row).map_err(|e| Error::Internal(e.into()))?;
                first = false;
            }
            self.write(&chunk).await?;
            match rows.last() {
                Some(last) if rows.len() as i64 == PAGE => after = last.key(),
                _ => break,
            }
        }
        self.write(if first { b"]\n" } else { b"\n]\n" }).await
    }

    /// `json_list` of one statement's rows, whose `$1` is the member, `$2` the key after which
    /// the page starts and `$3` the page's size, ordered by that key.
    async fn json_rows<T>(&mut self, sql: &'static str) -> Result<()>
    where
        T: Serialize + Keyed + for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
    {
        self.json_list(|pool, member, after| async move {
            Ok(sqlx::query_as::<_, T>(sql).bind(member).bind(after).bind(PAGE).fetch_all(&pool).await?)
        })
        .await
    }
}

/// A time as a zip stores it (to the even second; zip's default, 1980, where out of its range).
fn zip_time(at: chrono::DateTime<chrono::Utc>) -> zip::DateTime {
    use chrono::{Datelike as _, Timelike as _};
    let part = |n: u32| u8::try_from(n).unwrap_or_default();
    zip::DateTime::from_date_and_time(
        u16::try_from(at.year()).unwrap_or_default(),
        part(at.month()),
        part(at.day()),
        part(at.hour()),
        part(at.minute()),
        part(at.second()),
    )
    .unwrap_or_default()
}

fn zip_failed(e: zip::result::ZipError) -> Error {
    Error::Internal(anyhow::anyhow!("writing a zip: {e}"))
}

/// Where the next page of a list starts.
trait Keyed {
    fn key(&self) -> i64;
}

fn rfc3339<S: Serializer>(ms: &Millis, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&to_rfc3339(*ms))
}

fn rfc3339_opt<S: Serializer>(ms: &Option<Millis>, s: S) -> std::result::Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => s.serialize_str(&to_rfc3339(*ms)),
        None => s.serialize_none(),
    }
}

/// profile.json: the member's own account as stored.
#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Profile {
    id: i64,
    username: String,
    display_name: String,
    email: String,
    bio: String,
    website: String,
    profile_image_url: Option<String>,
    header_image_url: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    created_at: Millis,
    follower_count: i64,
    following_count: i64,
    invites_available: i64,
}

async fn profile(export: &mut Export) -> Result<()> {
    let profile: Profile = sqlx::query_as(
        "SELECT id, username, display_name, email, bio, website, profile_image_url, header_image_url, created_at, \
                follower_count, following_count, invites_available FROM users WHERE id = $1",
    )
    .bind(export.member)
    .fetch_one(&export.pool)
    .await?;
    let mut bytes = serde_json::to_vec_pretty(&profile).map_err(|e| Error::Internal(e.into()))?;
    bytes.push(b'\n');
    export.write(&bytes).await
}

/// One of the member's posts, replies or reposts in posts.json.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportPost {
    id: i64,
    /// post, reply or repost
    kind: &'static str,
    content: String,
    /// Its content warning; null: none.
    spoiler_text: Option<String>,
    entities: serde_json::Value,
    #[serde(serialize_with = "rfc3339")]
    created_at: Millis,
    reply_to_id: Option<i64>,
    repost_of_id: Option<i64>,
    /// The images, each by its file inside the archive, with its description.
    images: Vec<ExportImage>,
    poll: Option<Poll>,
    /// The post's earlier texts, oldest first: each as it read until an edit replaced it.
    edits: Vec<Edit>,
    like_count: i64,
    reply_count: i64,
    repost_count: i64,
    /// Moderators removed it: no one else sees it.
    removed: bool,
}

#[derive(Serialize)]
struct ExportImage {
    file: String,
    /// What the image shows, as the member described it; null when they did not.
    alt: Option<String>,
}

#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Edit {
    #[serde(skip)]
    post_id: i64,
    content: String,
    /// The content warning it carried then; null: none.
    spoiler_text: Option<String>,
    #[serde(serialize_with = "rfc3339")]
    written_at: Millis,
    #[serde(serialize_with = "rfc3339")]
    replaced_at: Millis,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Poll {
    options: Vec<PollOption>,
    #[serde(serialize_with = "rfc3339_opt")]
    expires_at: Option<Millis>,
}

#[derive(Serialize)]
struct PollOption {
    text: String,
    votes: i64,
}

impl Keyed for ExportPost {
    fn key(&self) -> i64 {
        self.id
    }
}

#[derive(sqlx::FromRow)]
struct PostRow {
    id: i64,
    content: String,
    spoiler_text: Option<String>,
    entities: Option<String>,
    created_at: Millis,
    reply_to_id: Option<i64>,
    repost_of_id: Option<i64>,
    poll_expires_at: Option<Millis>,
    like_count: i64,
    reply_count: i64,
    repost_count: i64,
    removed_at: Option<Millis>,
}

#[derive(sqlx::FromRow)]
struct ImageRow {
    post_id: i64,
    position: i64,
    media_id: String,
    content_type: Option<String>,
    alt: Option<String>,
}

#[derive(sqlx::FromRow)]
struct OptionRow {
    post_id: i64,
    text: String,
    votes: i64,
}

/// The posts the member sees as theirs: live ones, and those moderators removed (the member
/// still sees them marked removed); deleted ones are gone.
const OWN_POSTS: &str = "p.author_id = $1 AND (p.deleted_at IS NULL OR p.removed_at IS NOT NULL)";

/// An image's file name inside the archive.
fn image_file(post_id: i64, position: i64, content_type: Option<&str>) -> String {
    let extension = match content_type {
        Some("image/jpeg") => "jpg",
        Some("image/png") => "png",
        Some("image/gif") => "gif",
        Some("image/webp") => "webp",
        _ => "bin",
    };
    format!("images/{post_id}-{position}.{extension}")
}

/// A page of the member's posts after id `after`, with their images' file names and polls.
async fn posts_page(pool: Pool, member: i64, after: i64) -> Result<Vec<ExportPost>> {
    let rows: Vec<PostRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT p.id, p.content, p.spoiler_text, p.entities, p.created_at, p.reply_to_id, p.repost_of_id, p.poll_expires_at, \
                p.like_count, p.reply_count, p.repost_count, p.removed_at \
         FROM posts p WHERE {OWN_POSTS} AND p.id > $2 ORDER BY p.id LIMIT $3"
    )))
    .bind(member)
    .bind(after)
    .bind(PAGE)
    .fetch_all(&pool)
    .await?;
    let Some(last) = rows.last().map(|r| r.id) else { return Ok(Vec::new()) };
    let images: Vec<ImageRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT i.post_id, i.position, i.media_id, m.content_type, i.alt FROM post_images i \
         JOIN posts p ON p.id = i.post_id JOIN media m ON m.id = i.media_id \
         WHERE {OWN_POSTS} AND p.id > $2 AND p.id <= $3 ORDER BY i.post_id, i.position"
    )))
    .bind(member)
    .bind(after)
    .bind(last)
    .fetch_all(&pool)
    .await?;
    let options: Vec<OptionRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT o.post_id, o.text, \
                (SELECT CAST(COUNT(*) AS BIGINT) FROM poll_votes v WHERE v.post_id = o.post_id AND v.position = o.position) AS votes \
         FROM poll_options o JOIN posts p ON p.id = o.post_id \
         WHERE {OWN_POSTS} AND p.id > $2 AND p.id <= $3 ORDER BY o.post_id, o.position"
    )))
    .bind(member)
    .bind(after)
    .bind(last)
    .fetch_all(&pool)
    .await?;
    let edits: Vec<Edit> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT e.post_id, e.content, e.spoiler_text, e.written_at, e.replaced_at FROM post_edits e JOIN posts p ON p.id = e.post_id \
         WHERE {OWN_POSTS} AND p.id > $2 AND p.id <= $3 ORDER BY e.post_id, e.id"
    )))
    .bind(member)
    .bind(after)
    .bind(last)
    .fetch_all(&pool)
    .await?;
    let mut edits = edits.into_iter().peekable();
    Ok(rows
        .into_iter()
        .map(|row| {
            let poll_options: Vec<PollOption> = options
                .iter()
                .filter(|o| o.post_id == row.id)
                .map(|o| PollOption { text: o.text.clone(), votes: o.votes })
                .collect();
            ExportPost {
                id: row.id,
                kind: if row.repost_of_id.is_some() {
                    "repost"
                } else if row.reply_to_id.is_some() {
                    "reply"
                } else {
                    "post"
                },
                entities: row
                    .entities
                    .as_deref()
                    .and_then(|e| serde_json::from_str(e).ok())
                    .unwrap_or_else(|| serde_json::Value::Array(Vec::new())),
                content: row.content,
                spoiler_text: row.spoiler_text,
                created_at: row.created_at,
                reply_to_id: row.reply_to_id,
                repost_of_id: row.repost_of_id,
                images: images
                    .iter()
                    .filter(|i| i.post_id == row.id)
                    .map(|i| ExportImage {
                        file: image_file(i.post_id, i.position, i.content_type.as_deref()),
                        alt: i.alt.clone(),
                    })
                    .collect(),
                poll: (!poll_options.is_empty())
                    .then_some(Poll { options: poll_options, expires_at: row.poll_expires_at }),
                // Both are in post id order: this post's edits are the next ones.
                edits: std::iter::from_fn(|| edits.next_if(|e| e.post_id == row.id)).collect(),
                like_count: row.like_count,
                reply_count: row.reply_count,
                repost_count: row.repost_count,
                removed: row.removed_at.is_some(),
            }
        })
        .collect())
}

async fn posts(export: &mut Export) -> Result<()> {
    export.json_list(posts_page).await
}

/// Copies the images of the member's posts into `images/`, one at a time, in chunks.
async fn images(export: &mut Export) -> Result<()> {
    let (mut after_post, mut after_position) = (0_i64, -1_i64);
    loop {
        let page: Vec<ImageRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
            "SELECT i.post_id, i.position, i.media_id, m.content_type, i.alt FROM post_images i \
             JOIN posts p ON p.id = i.post_id JOIN media m ON m.id = i.media_id \
             WHERE {OWN_POSTS} AND (i.post_id > $2 OR (i.post_id = $2 AND i.position > $3)) \
             ORDER BY i.post_id, i.position LIMIT $4"
        )))
        .bind(export.member)
        .bind(after_post)
        .bind(after_position)
        .bind(PAGE)
        .fetch_all(&export.pool)
        .await?;
        for image in &page {
            let Some(mut bytes) = export.media.open_image(&image.media_id).await? else {
                tracing::warn!(media_id = %image.media_id, "an image of an exported post is missing from the store");
                continue;
            };
            // Images are compressed already.
            export.start(
                &image_file(image.post_id, image.position, image.content_type.as_deref()),
                CompressionMethod::Stored,
            )?;
            while let Some(chunk) = bytes.next().await {
                let chunk = chunk.map_err(|e| Error::Internal(anyhow::anyhow!("reading an image: {e}")))?;
                export.write(&chunk).await?;
            }
        }
        match page.last() {
            Some(last) if page.len() as i64 == PAGE => (after_post, after_position) = (last.post_id, last.position),
            _ => return Ok(()),
        }
    }
}

/// likes.json: the posts the member liked.
#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Like {
    post_id: i64,
    post_author: String,
    #[serde(serialize_with = "rfc3339")]
    liked_at: Millis,
}

impl Keyed for Like {
    fn key(&self) -> i64 {
        self.post_id
    }
}

async fn likes(export: &mut Export) -> Result<()> {
    export
        .json_rows::<Like>(
            "SELECT l.post_id, u.username AS post_author, l.created_at AS liked_at FROM likes l \
             JOIN posts p ON p.id = l.post_id JOIN users u ON u.id = p.author_id \
             WHERE l.user_id = $1 AND l.post_id > $2 ORDER BY l.post_id LIMIT $3",
        )
        .await
}

/// bookmarks.json: the posts the member kept for later.
#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Bookmark {
    post_id: i64,
    post_author: String,
    #[serde(serialize_with = "rfc3339")]
    bookmarked_at: Millis,
}

impl Keyed for Bookmark {
    fn key(&self) -> i64 {
        self.post_id
    }
}

async fn bookmarks(export: &mut Export) -> Result<()> {
    export
        .json_rows::<Bookmark>(
            "SELECT b.post_id, u.username AS post_author, b.created_at AS bookmarked_at FROM bookmarks b \
             JOIN posts p ON p.id = b.post_id JOIN users u ON u.id = p.author_id \
             WHERE b.user_id = $1 AND b.post_id > $2 ORDER BY b.post_id LIMIT $3",
        )
        .await
}

/// following.json and followers.json: the other member of a follow.
#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Follow {
    id: i64,
    username: String,
    display_name: String,
    #[serde(serialize_with = "rfc3339")]
    since: Millis,
}

impl Keyed for Follow {
    fn key(&self) -> i64 {
        self.id
    }
}

async fn following(export: &mut Export) -> Result<()> {
    export
        .json_rows::<Follow>(
            "SELECT u.id, u.username, u.display_name, f.created_at AS since FROM follows f \
             JOIN users u ON u.id = f.following_id \
             WHERE f.follower_id = $1 AND f.following_id > $2 ORDER BY f.following_id LIMIT $3",
        )
        .await
}

async fn followers(export: &mut Export) -> Result<()> {
    export
        .json_rows::<Follow>(
            "SELECT u.id, u.username, u.display_name, f.created_at AS since FROM follows f \
             JOIN users u ON u.id = f.follower_id \
             WHERE f.following_id = $1 AND f.follower_id > $2 ORDER BY f.follower_id LIMIT $3",
        )
        .await
}

/// invites.json: the member's invite codes and who used them.
#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct Invite {
    id: i64,
    code: String,
    #[serde(serialize_with = "rfc3339")]
    created_at: Millis,
    #[serde(serialize_with = "rfc3339")]
    expires_at: Millis,
    #[serde(serialize_with = "rfc3339_opt")]
    used_at: Option<Millis>,
    /// The username of the member who signed up with it.
    used_by: Option<String>,
}

impl Keyed for Invite {
    fn key(&self) -> i64 {
        self.id
    }
}

async fn invites(export: &mut Export) -> Result<()> {
    export
        .json_rows::<Invite>(
            "SELECT i.id, i.code, i.created_at, i.expires_at, i.used_at, u.username AS used_by FROM invites i \
             LEFT JOIN users u ON u.id = i.used_by \
             WHERE i.owner_id = $1 AND i.id > $2 ORDER BY i.id LIMIT $3",
        )
        .await
}

/// messages.json: the member's conversations, each with its members' usernames and the
/// member's own messages in it (the others' words are theirs to take).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExportConversation {
    id: i64,
    /// Everyone it was started with, the member included, by username.
    members: Vec<String>,
    messages: Vec<ExportMessage>,
}

#[derive(Serialize, sqlx::FromRow)]
#[serde(rename_all = "camelCase")]
struct ExportMessage {
    id: i64,
    content: String,
    #[serde(serialize_with = "rfc3339")]
    sent_at: Millis,
    #[serde(serialize_with = "rfc3339_opt")]
    deleted_at: Option<Millis>,
}

impl Keyed for ExportConversation {
    fn key(&self) -> i64 {
        self.id
    }
}

async fn conversations_page(pool: Pool, member: i64, after: i64) -> Result<Vec<ExportConversation>> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT conversation_id FROM conversation_members WHERE member_id = $1 AND conversation_id > $2 \
         ORDER BY conversation_id LIMIT $3",
    )
    .bind(member)
    .bind(after)
    .bind(PAGE)
    .fetch_all(&pool)
    .await?;
    let mut page = Vec::with_capacity(ids.len());
    for id in ids {
        let members: Vec<String> = sqlx::query_scalar(
            "SELECT u.username FROM conversation_members cm JOIN users u ON u.id = cm.member_id \
             WHERE cm.conversation_id = $1 ORDER BY u.username",
        )
        .bind(id)
        .fetch_all(&pool)
        .await?;
        let messages: Vec<ExportMessage> = sqlx::query_as(
            "SELECT id, content, created_at AS sent_at, deleted_at FROM messages \
             WHERE conversation_id = $1 AND author_id = $2 ORDER BY id",
        )
        .bind(id)
        .bind(member)
        .fetch_all(&pool)
        .await?;
        page.push(ExportConversation { id, members, messages });
    }
    Ok(page)
}

async fn messages(export: &mut Export) -> Result<()> {
    export.json_list(conversations_page).await
}

/// index.html: the member's posts to read in a browser, with their images; every text escaped,
/// no scripts, no address outside the archive.
async fn index_html(export: &mut Export) -> Result<()> {
    let name: (String, String) = sqlx::query_as("SELECT username, display_name FROM users WHERE id = $1")
        .bind(export.member)
        .fetch_one(&export.pool)
        .await?;
    let (username, display_name) = (escape(&name.0), escape(&name.1));
    let head = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{display_name} (@{username}) on Murmur</title>\n<style>\
         body{{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111;background:#fff}}\
         article{{border-bottom:1px solid #ddd;padding:1rem 0}}p{{white-space:pre-wrap;margin:.25rem 0}}\
         time,.meta{{color:#666;font-size:.875rem}}img{{max-width:100%;height:auto;border-radius:.5rem;margin:.25rem 0}}\
         @media (prefers-color-scheme:dark){{body{{color:#eee;background:#111}}article{{border-color:#333}}time,.meta{{color:#aaa}}}}\
         </style></head>\n<body>\n<h1>{display_name} <span class=\"meta\">@{username}</span></h1>\n\
         <p class=\"meta\">Your posts, replies and reposts; the rest of your data is in the JSON files beside this page.</p>\n"
    );
    export.write(head.as_bytes()).await?;
    let mut after = 0;
    loop {
        let page = posts_page(export.pool.clone(), export.member, after).await?;
        let mut html = String::new();
        for post in &page {
            html.push_str(&post_html(post));
        }
        export.write(html.as_bytes()).await?;
        match page.last() {
            Some(last) if page.len() as i64 == PAGE => after = last.id,
            _ => break,
        }
    }
    export.write(b"</body></html>\n").await
}

fn post_html(post: &ExportPost) -> String {
    let mut html = format!("<article id=\"post-{}\">\n", post.id);
    let what = match (post.kind, post.reply_to_id, post.repost_of_id) {
        ("repost", _, Some(of)) => format!("Repost of post {of}"),
        ("reply", Some(to), _) => format!("Reply to post {to}"),
        _ => "Post".to_string(),
    };
    html.push_str(&format!(
        "<div class=\"meta\">{what}{removed} &middot; <time datetime=\"{at}\">{at}</time></div>\n",
        removed = if post.removed { " (removed by moderators)" } else { "" },
        at = escape(&to_rfc3339(post.created_at)),
    ));
    if let Some(warning) = &post.spoiler_text {
        html.push_str(&format!("<p class=\"meta\">Content warning: {}</p>\n", escape(warning)));
    }
    if post.kind != "repost" {
        html.push_str(&format!("<p>{}</p>\n", escape(&post.content)));
    }
    for image in &post.images {
        let alt = match &image.alt {
            Some(alt) => escape(alt),
            None => format!("Image of post {}", post.id),
        };
        html.push_str(&format!("<img src=\"{}\" alt=\"{alt}\" loading=\"lazy\">\n", escape(&image.file)));
    }
    if !post.edits.is_empty() {
        html.push_str("<details><summary>Earlier versions</summary>\n");
        for edit in &post.edits {
            html.push_str(&format!(
                "<p><time datetime=\"{at}\">{at}</time>: {}</p>\n",
                escape(&edit.content),
                at = escape(&to_rfc3339(edit.written_at)),
            ));
        }
        html.push_str("</details>\n");
    }
    if let Some(poll) = &post.poll {
        html.push_str("<ul>\n");
        for option in &poll.options {
            html.push_str(&format!("<li>{} &middot; {} votes</li>\n", escape(&option.text), option.votes));
        }
        html.push_str("</ul>\n");
    }
    html.push_str("</article>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_text_in_the_index_is_escaped() {
        let post = ExportPost {
            id: 7,
            kind: "post",
            content: "<script>alert(1)</script> & \"quotes\"".into(),
            spoiler_text: Some("<u>plot</u>".into()),
            entities: serde_json::Value::Array(Vec::new()),
            created_at: 0,
            reply_to_id: None,
            repost_of_id: None,
            images: vec![ExportImage { file: image_file(7, 0, Some("image/webp")), alt: Some("A \"cat\" <i>".into()) }],
            poll: Some(Poll { options: vec![PollOption { text: "<b>Tea</b>".into(), votes: 2 }], expires_at: None }),
            edits: vec![Edit {
                post_id: 7,
                content: "<s>first</s>".into(),
                spoiler_text: None,
                written_at: 0,
                replaced_at: 1,
            }],
            like_count: 0,
            reply_count: 0,
            repost_count: 0,
            removed: false,
        };
        let html = post_html(&post);
        assert!(!html.contains("<script>") && !html.contains("<b>") && !html.contains("<i>"), "{html}");
        assert!(!html.contains("<s>") && html.contains("&lt;s&gt;first"), "{html}");
        assert!(!html.contains("<u>") && html.contains("Content warning: &lt;u&gt;plot"), "{html}");
        assert!(html.contains("alt=\"A &quot;cat&quot; &lt;i&gt;\""), "{html}");
        assert!(html.contains("&lt;script&gt;") && html.contains("&lt;b&gt;Tea"), "{html}");
        assert!(html.contains("src=\"images/7-0.webp\""), "{html}");
    }

    #[test]
    fn image_files_are_named_by_post_position_and_type() {
        assert_eq!(image_file(12, 3, Some("image/jpeg")), "images/12-3.jpg");
        assert_eq!(image_file(12, 0, Some("image/gif")), "images/12-0.gif");
        assert_eq!(image_file(1, 1, None), "images/1-1.bin");
    }
}
