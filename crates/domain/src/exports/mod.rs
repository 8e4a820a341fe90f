//! "Download my data": a member asks for an archive of what Murmur holds of them (`store::request`);
//! a background job (the server's `jobs::export`) writes it as a zip to the object store (`archive`) and
//! tells them by notification and e-mail; it is kept `KEEP_FOR`, downloadable by its owner
//! alone, one at a time (`store`); upkeep removes it after (`remove_expired`).

pub mod archive;
pub(crate) mod store;

use crate::media::MediaStore;
use murmur_core::clock::{DAY, HOUR, MINUTE, Millis};
use murmur_core::db::Db;
use murmur_core::error::Result;
pub use store::{
    Claimed, ExportRow, claim_next, find, mark_failed, mark_ready, renew, request, retry_later, tried_too_often,
};

/// How long a ready archive is kept.
pub const KEEP_FOR: Millis = 7 * DAY;
/// A new request within this long of the last archive answers that archive instead.
pub const REUSE_WITHIN: Millis = DAY;
/// How long a claim on an archive lasts past its last renewal: the process building it renews
/// it every `RENEW_EVERY` while it writes (its heartbeat), so a process that stopped lets go of
/// it within this long and another takes it over.
pub const CLAIM_FOR: Millis = MINUTE;
/// How often the process building an archive renews its claim.
pub const RENEW_EVERY: std::time::Duration = std::time::Duration::from_secs(20);
/// An archive no export names (replaced, or its member gone) is removed once this old: long
/// past any attempt still writing it.
pub const ORPHANED_AFTER: Millis = HOUR;
/// After a failed attempt, the archive is tried again this much later.
pub const RETRY_AFTER: Millis = 5 * MINUTE;
/// A member's archive that failed this many times is marked failed; they may ask again.
pub const MAX_ATTEMPTS: i64 = 3;

/// Wakes this process's export job when a member asks for an archive.
pub type ExportQueue = murmur_core::wake::Wake;

/// Removes expired archives and their rows, then archives no export names any longer (replaced,
/// or their member gone) once older than `ORPHANED_AFTER`. Answers how many archives went.
pub async fn remove_expired(db: &Db, media: &MediaStore, now: Millis) -> Result<u64> {
    let mut removed = 0;
    for (id, archive) in store::expired(&db.write, now).await? {
        if let Some(archive) = &archive {
            media.delete_archive(archive).await?;
            removed += 1;
        }
        store::delete(&db.write, id, now).await?;
    }
    let named = store::archive_ids(&db.write).await?;
    for (archive, written_at) in media.list_archives(1_000).await? {
        if !named.contains(&archive) && written_at < now - ORPHANED_AFTER {
            media.delete_archive(&archive).await?;
            removed += 1;
        }
    }
    Ok(removed)
}
