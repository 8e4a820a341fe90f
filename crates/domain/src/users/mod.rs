//! Members: profiles, names, search and suggestions.

pub mod model;
pub(crate) mod store;
pub mod username;

pub use model::{MessagesFrom, User, UserRow};
pub use username::Username;

use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::Result;
pub use store::{
    FollowList, find_by_email, find_by_id, find_live, find_many, finish_first_run, own_user, post_count, search,
    set_expand_warnings, set_messages_from, suggested, update_profile,
};

/// Gives the member this month's invites if they have not had them yet, and answers the row
/// as it now stands.
pub async fn with_monthly_top_up(db: &Db, now: Millis, mut row: UserRow) -> Result<UserRow> {
    let month = crate::invites::store::month_of(now);
    if let Some(available) = crate::invites::store::top_up(&db.write, row.id, month).await? {
        row.invites_available = available;
    }
    Ok(row)
}
