//! Media: image uploads and serving. See docs/media.md for the flow.
//!
//! `POST /api/objects/upload` makes a pending upload and answers where the browser PUTs the
//! file: this server (local store, a signed URL) or the bucket (a presigned URL). The image is
//! checked and a clean copy stored at `objects/{id}` when the bytes arrive (local) or when the
//! upload is first claimed (bucket). Posts and profiles `claim` uploads and keep `/objects/{id}`.

pub mod checks;
pub mod images;
pub mod placeholders;
pub mod storage;
pub(crate) mod store;

pub use images::{MAX_BYTES, MAX_PIXELS, VARIANT_WIDTHS};
// For the fuzz targets (fuzz/): the image check and the media id rule, callable without a store.
pub use checks::CheckQueue;
pub use images::{CleanImage, Variant, clean as clean_image};
pub use murmur_core::config::S3Settings;
pub use storage::MediaStore;
pub use storage::{is_media_id, new_media_id};

use murmur_core::clock::{HOUR, MINUTE, Millis};
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
pub use store::{find, insert_pending, own_image, set_description};

/// Most images one post carries.
pub const MAX_IMAGES: usize = 4;
/// Uploads that no post or profile refers to (never claimed, or let go of: a deleted post, a
/// replaced avatar) are removed once they and their last claim are this old.
pub const ORPHAN_AGE: Millis = 24 * HOUR;

fn not_yours() -> Error {
    Error::bad_request("Image URL is not an upload of yours")
}

fn not_finished() -> Error {
    Error::bad_request("The image upload is not finished; please upload it again")
}

/// The one check of how many images a post has, for every interface: 400 past `MAX_IMAGES`.
pub fn ensure_image_count(count: usize) -> murmur_core::error::Result<()> {
    if count > MAX_IMAGES {
        return Err(Error::bad_request(format!("A post can have at most {MAX_IMAGES} images")));
    }
    Ok(())
}

/// Resolves the image URLs a member sends with a post or profile (an upload URL this server
/// handed out, or the `/objects/{id}` path it answers) to media ids. Each must exist, belong
/// to `owner_id` and have passed the image checks; any other URL is a 400. Marks them attached
/// (so the orphan cleanup keeps them). Call inside the transaction that stores the reference.
///
/// A bucket upload not yet checked is checked here (fetched, cleaned, stored); calling
/// `prepare` before the transaction does that work without holding it.
pub async fn claim(
    store: &MediaStore,
    conn: &mut sqlx::AnyConnection,
    owner_id: i64,
    urls: &[String],
    now: murmur_core::clock::Millis,
) -> murmur_core::error::Result<Vec<String>> {
    ensure_image_count(urls.len())?;
    let mut ids = Vec::with_capacity(urls.len());
    for url in urls {
        let id = store.id_from_url(url).ok_or_else(not_yours)?;
        let row = store::find(&mut *conn, &id).await?.filter(|row| row.owner_id == owner_id).ok_or_else(not_yours)?;
        if !row.is_ready() {
            if !store.is_s3() {
                return Err(not_finished());
            }
            let image = check_bucket_upload(store, &id).await?;
            store::mark_ready(&mut *conn, &id, &image).await?;
        }
        store::attach(&mut *conn, &id, now).await?;
        ids.push(id);
    }
    Ok(ids)
}

/// Which of a member's profile pictures an upload becomes.
#[derive(Clone, Copy)]
pub enum ProfileImage {
    Avatar,
    Header,
}

/// Makes one of the member's uploads their avatar or header image.
pub async fn set_profile_image(
    db: &Db,
    media: &MediaStore,
    member: i64,
    url: String,
    which: ProfileImage,
    now: murmur_core::clock::Millis,
) -> Result<()> {
    let urls = [url];
    prepare(db, media, member, &urls).await?;
    let mut tx = db.write.begin().await?;
    let ids = claim(media, &mut tx, member, &urls, now).await?;
    let path = object_path(&ids[0]);
    match which {
        ProfileImage::Avatar => crate::users::store::set_avatar(&mut tx, member, &path).await?,
        ProfileImage::Header => crate::users::store::set_header_image(&mut tx, member, &path).await?,
    }
    tx.commit().await?;
    Ok(())
}

/// Checks the caller's bucket uploads among `urls` ahead of `claim`, outside any transaction
/// (fetching and re-encoding takes a moment; the database's writer should not wait for it).
/// Unknown URLs are left for `claim` to refuse.
pub async fn prepare(db: &Db, media: &MediaStore, owner_id: i64, urls: &[String]) -> Result<()> {
    if !media.is_s3() || urls.len() > MAX_IMAGES {
        return Ok(());
    }
    for url in urls {
        let Some(id) = media.id_from_url(url) else { continue };
        let Some(row) = store::find(&db.read, &id).await? else { continue };
        if row.owner_id != owner_id || row.is_ready() {
            continue;
        }
        let image = check_bucket_upload(media, &id).await?;
        store::mark_ready(&db.write, &id, &image).await?;
    }
    Ok(())
}

/// Fetches what the browser put into the bucket, checks it, stores the clean copy and removes
/// the original (which still has its metadata).
async fn check_bucket_upload(store: &MediaStore, id: &str) -> Result<images::CleanImage> {
    let admitted = store.checks().admit()?;
    let original = match store.fetch_upload(id).await {
        Ok(Some(bytes)) => bytes,
        // A clean copy from an earlier claim whose transaction was rolled back: check it again.
        Ok(None) => store.get_image(id).await?.ok_or_else(not_finished)?,
        Err(e) => {
            if matches!(e, Error::PayloadTooLarge(_)) {
                store.delete_upload(id).await?;
            }
            return Err(e);
        }
    };
    let turn = admitted.turn(images::claimed_pixels(&original)).await?;
    let image = match checks::clean(turn, original).await {
        Ok(image) => image,
        Err(e) => {
            store.delete_upload(id).await?;
            return Err(e);
        }
    };
    store_clean(store, id, &image, false).await?;
    store.delete_upload(id).await?;
    Ok(image)
}

/// Starts receiving the bytes of upload `id` (a local store's upload URL): 404 when there is no
/// such pending upload, 409 when it was received or is being received now.
pub async fn start_receiving(db: &Db, media: &MediaStore, id: &str) -> Result<storage::Receiving> {
    match store::find(&db.read, id).await? {
        None => return Err(Error::not_found(NO_SUCH_UPLOAD)),
        Some(row) if row.is_ready() => {
            return Err(Error::conflict("This upload has already been received; ask for a new upload URL"));
        }
        Some(_) => {}
    }
    media
        .start_receiving(id)
        .ok_or_else(|| Error::conflict("This upload is already being received; wait for its answer"))
}

const NO_SUCH_UPLOAD: &str = "No such upload";

/// An image a member sends in one request (an app's media upload), within their upload
/// allowance: checked and kept like an upload to its URL; answers its media id.
pub async fn receive_from_member(
    db: &Db,
    media: &MediaStore,
    owner: i64,
    bytes: bytes::Bytes,
    description: Option<&str>,
    now: Millis,
) -> Result<String> {
    let message = "Too many uploads at once; please wait a minute";
    murmur_core::rate_limit::hit_member(db, murmur_core::rate_limit::MemberLimit::MediaUpload, owner, now, message)
        .await?;
    let id = new_media_id();
    store::insert_pending(&db.write, &id, owner, now).await?;
    start_receiving(db, media, &id).await?.accept(db, bytes).await?;
    store::set_description(&db.write, owner, &id, description).await?;
    Ok(id)
}

impl storage::Receiving {
    /// Checks the received bytes and keeps the clean image; answers the path it is served at.
    pub async fn accept(self, db: &Db, bytes: bytes::Bytes) -> Result<String> {
        let media = self.store();
        let turn = media.checks().turn(images::claimed_pixels(&bytes)).await?;
        let image = checks::clean(turn, bytes).await?;
        store_clean(media, self.id(), &image, true).await?;
        if !store::mark_ready(&db.write, self.id(), &image).await? {
            // Removed by the cleanup meanwhile: do not keep bytes nobody owns.
            media.delete_all(self.id()).await?;
            return Err(Error::not_found(NO_SUCH_UPLOAD));
        }
        Ok(object_path(self.id()))
    }
}

/// Stores a checked image, then its display copies. `create_only` refuses to replace an
/// existing image (a second upload racing the first), before any copy is written. The copies
/// are best effort: without them the image is served as it is.
async fn store_clean(store: &MediaStore, id: &str, image: &images::CleanImage, create_only: bool) -> Result<()> {
    store.put_image(id, image.bytes.clone(), create_only).await?;
    if let Err(e) = store.put_variants(id, &image.variants).await {
        tracing::warn!(media_id = %id, error = %e, "could not store an image's display copies; serving the original");
    }
    Ok(())
}

/// An image fetched from elsewhere (a link's preview card): checked, re-encoded and stored like
/// an upload, under a new id. Answers the id and the stored image's type; an image that fails
/// the checks is the caller's to drop.
pub async fn keep_fetched(store: &MediaStore, bytes: bytes::Bytes) -> Result<(String, &'static str)> {
    let turn = store.checks().turn(images::claimed_pixels(&bytes)).await?;
    let image = checks::clean(turn, bytes).await?;
    let id = new_media_id();
    store_clean(store, &id, &image, true).await?;
    Ok((id, image.content_type))
}

/// The path an image is served at, stored in posts and profiles.
pub fn object_path(media_id: &str) -> String {
    format!("/objects/{media_id}")
}

/// Removes uploads that nothing refers to, made and last claimed over `ORPHAN_AGE` ago (row
/// first, then the stored bytes, so a claim racing the cleanup either wins and keeps its image
/// or finds no upload). Answers how many were removed.
pub async fn cleanup_orphans(db: &Db, media: &MediaStore, now: Millis) -> Result<u64> {
    const BATCH: i64 = 200;
    let before = now - ORPHAN_AGE;
    let mut removed = 0;
    // Bounded, so one run cannot go on for ever; the next run continues.
    for _ in 0..50 {
        let ids = store::orphans(&db.read, before, BATCH).await?;
        for id in &ids {
            if store::delete_orphan(&db.write, id, before).await? {
                removed += 1;
                if let Err(e) = media.delete_all(id).await {
                    tracing::warn!(media_id = %id, error = %e, "could not delete an orphan upload's bytes");
                }
            }
        }
        if (ids.len() as i64) < BATCH {
            break;
        }
    }
    remove_stray_uploads(db, media, now).await?;
    Ok(removed)
}

/// A presigned upload URL still works after its upload was checked, so a second PUT can leave
/// an unchecked original in the bucket; remove originals whose upload is done (or gone) once
/// their URL has expired.
async fn remove_stray_uploads(db: &Db, media: &MediaStore, now: Millis) -> Result<()> {
    let settled = now - storage::UPLOAD_URL_LIFETIME - MINUTE;
    for (id, written_at) in media.list_uploads(1000).await? {
        if written_at > settled {
            continue;
        }
        let stray = match store::find(&db.read, &id).await? {
            None => true,
            Some(row) => row.is_ready(),
        };
        if stray {
            media.delete_upload(&id).await?;
            tracing::info!(media_id = %id, "removed a stray original from the bucket");
        }
    }
    Ok(())
}
