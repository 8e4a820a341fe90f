//! Invite codes: members hand them to friends; sign-up needs one.

pub mod code;
pub mod store;

use crate::users::UserRow;
use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::Result;

pub use code::InviteCode;
pub use store::{CODE_ALPHABET, CODE_LEN, INVITE_LIFETIME, MONTHLY_INVITES};

/// Gives the member this month's invites if they have not had them yet, and answers the row
/// as it now stands.
pub async fn with_monthly_top_up(db: &Db, now: Millis, mut row: UserRow) -> Result<UserRow> {
    let month = store::month_of(now);
    if let Some(available) = store::top_up(&db.write, row.id, month).await? {
        row.invites_available = available;
    }
    Ok(row)
}
