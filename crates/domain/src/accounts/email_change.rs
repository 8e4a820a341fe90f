//! Changing a member's e-mail address: a link (`magic_link`, purpose `Email`) is sent to the
//! new address, and following it makes that the member's address. The old address is told
//! afterwards (`account_routes`). Sessions stay as they are.

use super::magic_link;
use super::magic_link::INVALID_LINK;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};

/// The address became another member's between the request and the link (409).
pub const TAKEN: &str = "This address now belongs to another account. Please choose another address.";
/// Asking to change to the address one already has (400).
pub const SAME: &str = "This is already your e-mail address.";

/// An address that was changed.
#[derive(Debug)]
pub struct Changed {
    pub member: i64,
    pub old: String,
    pub new: String,
}

/// Uses an address-change link: in one transaction, the link is used, the member's address
/// becomes the one the link was sent to, and the member's other pending changes are withdrawn.
/// A link that is not an address change, or is unknown, used or expired: 400. A suspended
/// member: 403. An address another member took meanwhile: 409, and the link stays unused (it
/// can never succeed while the address is taken, and expires).
pub async fn confirm(write: &Pool, token: &str, now: Millis) -> Result<Changed> {
    let invalid = || Error::bad_request(INVALID_LINK);
    let mut tx = write.begin().await?;
    let link = magic_link::consume(&mut tx, token, magic_link::Use::EmailChange, now).await?.ok_or_else(invalid)?;
    let member = link.member.ok_or_else(invalid)?;
    let old: String = sqlx::query_scalar("SELECT email FROM users WHERE id = $1")
        .bind(member)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(invalid)?;
    if crate::users::store::is_suspended(&mut tx, member, now).await? {
        return Err(Error::forbidden(crate::users::model::SUSPENDED));
    }
    // The unique key on the address decides, also between two members confirming the same
    // address at once; the loser rolls back (on PostgreSQL the failed statement ends the
    // transaction anyway).
    sqlx::query("UPDATE users SET email = $1 WHERE id = $2")
        .bind(&link.email)
        .bind(member)
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            if murmur_core::db::violates(&e, "users_email_key", "users.email") {
                Error::conflict(TAKEN)
            } else {
                e.into()
            }
        })?;
    magic_link::withdraw_email_changes(&mut tx, member).await?;
    tx.commit().await?;
    Ok(Changed { member, old, new: link.email })
}
