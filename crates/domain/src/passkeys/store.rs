//! The passkeys' SQL: members' passkeys and the ceremonies under way.

use sqlx::AnyConnection;
use webauthn_rs::prelude::{CredentialID, Passkey, Uuid};

use super::{CEREMONY_LIFETIME, EXPIRED, Kind, UNKNOWN_CEREMONY};
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};
use murmur_core::secrets::{hash_token, random_token};

/// A passkey as its member sees it listed.
#[derive(Debug)]
pub struct Listed {
    pub id: i64,
    pub name: String,
    pub created_at: Millis,
    pub last_used_at: Option<Millis>,
}

/// A stored passkey found by its credential id.
#[derive(Debug)]
pub struct Stored {
    pub id: i64,
    pub member: i64,
    pub user_handle: String,
    /// The `Passkey` as JSON.
    pub credential: String,
}

/// A ceremony taken out of the table to be finished.
#[derive(Debug)]
pub struct Ceremony {
    pub member: Option<i64>,
    pub state: String,
}

/// The member's username and display name (what an authenticator shows for the passkey).
pub async fn names(read: &Pool, member: i64) -> Result<Option<(String, String)>> {
    Ok(sqlx::query_as("SELECT username, display_name FROM users WHERE id = $1 AND deleted_at IS NULL")
        .bind(member)
        .fetch_optional(read)
        .await?)
}

/// The member's WebAuthn user handle, if they have a passkey (all of theirs share one).
pub async fn user_handle(read: &Pool, member: i64) -> Result<Option<Uuid>> {
    let handle: Option<String> =
        sqlx::query_scalar("SELECT user_handle FROM passkeys WHERE user_id = $1 ORDER BY id LIMIT 1")
            .bind(member)
            .fetch_optional(read)
            .await?;
    Ok(handle.and_then(|handle| Uuid::parse_str(&handle).ok()))
}

/// The credential ids of the member's passkeys (excluded when adding another).
pub async fn credential_ids(read: &Pool, member: i64) -> Result<Vec<CredentialID>> {
    let ids: Vec<String> = sqlx::query_scalar("SELECT credential_id FROM passkeys WHERE user_id = $1")
        .bind(member)
        .fetch_all(read)
        .await?;
    Ok(ids.iter().filter_map(|id| decode(id)).map(CredentialID::from).collect())
}

pub async fn count(read: &Pool, member: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM passkeys WHERE user_id = $1").bind(member).fetch_one(read).await?)
}

/// Stores a ceremony's state; answers the id the browser sends back (its hash is the key).
pub async fn begin(write: &Pool, kind: Kind, member: Option<i64>, state: &str, now: Millis) -> Result<String> {
    let id = random_token();
    sqlx::query(
        "INSERT INTO passkey_ceremonies (id_hash, kind, user_id, state, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(hash_token(&id))
    .bind(kind.as_str())
    .bind(member)
    .bind(state)
    .bind(now)
    .bind(now + CEREMONY_LIFETIME)
    .execute(write)
    .await?;
    Ok(id)
}

/// Takes the ceremony `id` of `kind` out of the table: it can be finished once. 400 when it is
/// unknown (never begun, already finished, of the other kind) or expired.
pub async fn finish(write: &Pool, kind: Kind, id: &str, now: Millis) -> Result<Ceremony> {
    if !murmur_core::secrets::is_token(id) {
        return Err(Error::bad_request(UNKNOWN_CEREMONY));
    }
    // One statement: of two requests finishing the same ceremony, one gets the row.
    let row: Option<(Option<i64>, String, Millis)> = sqlx::query_as(
        "DELETE FROM passkey_ceremonies WHERE id_hash = $1 AND kind = $2 RETURNING user_id, state, expires_at",
    )
    .bind(hash_token(id))
    .bind(kind.as_str())
    .fetch_optional(write)
    .await?;
    match row {
        None => Err(Error::bad_request(UNKNOWN_CEREMONY)),
        Some((_, _, expires_at)) if expires_at <= now => Err(Error::bad_request(EXPIRED)),
        Some((member, state, _)) => Ok(Ceremony { member, state }),
    }
}

/// Stores a new passkey of `member`; 409 when its credential is already added (to anyone).
pub async fn insert(
    write: &Pool,
    member: i64,
    handle: &Uuid,
    name: &str,
    passkey: &Passkey,
    now: Millis,
) -> Result<Listed> {
    let credential = serde_json::to_string(passkey).map_err(|e| Error::Internal(e.into()))?;
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO passkeys (user_id, credential_id, user_handle, name, credential, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING RETURNING id",
    )
    .bind(member)
    .bind(encode(passkey.cred_id().as_ref()))
    .bind(handle.to_string())
    .bind(name)
    .bind(credential)
    .bind(now)
    .fetch_optional(write)
    .await?;
    let id = id.ok_or_else(|| Error::conflict(super::ALREADY_ADDED))?;
    Ok(Listed { id, name: name.to_string(), created_at: now, last_used_at: None })
}

/// The passkey with this credential id, if any.
pub async fn find_by_credential(read: &Pool, credential_id: &[u8]) -> Result<Option<Stored>> {
    let row: Option<(i64, i64, String, String)> =
        sqlx::query_as("SELECT id, user_id, user_handle, credential FROM passkeys WHERE credential_id = $1")
            .bind(encode(credential_id))
            .fetch_optional(read)
            .await?;
    Ok(row.map(|(id, member, user_handle, credential)| Stored { id, member, user_handle, credential }))
}

/// Records a sign-in with the passkey (and its updated credential, when it changed); false
/// when the passkey is gone.
pub async fn used(
    conn: &mut AnyConnection,
    id: i64,
    member: i64,
    credential: Option<&str>,
    now: Millis,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE passkeys SET last_used_at = $1, credential = COALESCE($2, credential) WHERE id = $3 AND user_id = $4",
    )
    .bind(now)
    .bind(credential)
    .bind(id)
    .bind(member)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The member's passkeys, newest first.
pub async fn list(read: &Pool, member: i64) -> Result<Vec<Listed>> {
    let rows: Vec<(i64, String, Millis, Option<Millis>)> = sqlx::query_as(
        "SELECT id, name, created_at, last_used_at FROM passkeys WHERE user_id = $1 ORDER BY created_at DESC, id DESC",
    )
    .bind(member)
    .fetch_all(read)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, created_at, last_used_at)| Listed { id, name, created_at, last_used_at })
        .collect())
}

/// Removes the member's passkey `id`; false when they have none by that id.
pub async fn remove(write: &Pool, member: i64, id: i64) -> Result<bool> {
    let done =
        sqlx::query("DELETE FROM passkeys WHERE id = $1 AND user_id = $2").bind(id).bind(member).execute(write).await?;
    Ok(done.rows_affected() == 1)
}

/// Removes every passkey and ceremony of a member who leaves, in the caller's transaction.
pub async fn remove_all_of(conn: &mut AnyConnection, member: i64) -> Result<()> {
    sqlx::query("DELETE FROM passkeys WHERE user_id = $1").bind(member).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM passkey_ceremonies WHERE user_id = $1").bind(member).execute(&mut *conn).await?;
    Ok(())
}

/// Removes ceremonies that expired unfinished.
pub async fn prune(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM passkey_ceremonies WHERE expires_at <= $1").bind(now).execute(write).await?;
    Ok(done.rows_affected())
}

/// A credential id as stored: URL-safe base64 without padding (as WebAuthn's JSON writes it).
fn encode(id: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(id)
}

fn decode(id: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(id).ok()
}
