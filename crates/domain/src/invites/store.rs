//! Invite queries.

use std::sync::LazyLock;

use chrono::Datelike;
use sqlx::{Any, AnyConnection, Executor};

use murmur_core::clock::{DAY, Millis};
use murmur_core::db::Pool;
use murmur_core::error::Result;
use murmur_core::secrets::random_code;

pub const CODE_LEN: usize = 12;
pub const CODE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
pub const INVITE_LIFETIME: Millis = 7 * DAY;
/// Invites a member starts with, and gets again at the start of each calendar month (UTC).
pub const MONTHLY_INVITES: i64 = 3;

/// year*100+month (UTC) of a moment.
pub fn month_of(ms: Millis) -> i64 {
    let t = chrono::DateTime::<chrono::Utc>::from_timestamp_millis(ms).unwrap_or_default();
    t.year() as i64 * 100 + t.month() as i64
}

/// Adds the monthly invites for every calendar month (UTC) since the last top-up, so the
/// allowance does not depend on whether the member came by each month; answers the new
/// allowance when it changed. The `invites_month < $2` guard makes each month count once even
/// under concurrent calls. Months are compared as year*12+month (`invites_month` holds
/// year*100+month; integer division on both backends).
pub async fn top_up(write: &Pool, user_id: i64, month: i64) -> Result<Option<i64>> {
    let available: Option<i64> = sqlx::query_scalar(
        "UPDATE users SET invites_available = invites_available + $1 * \
           (($2 / 100) * 12 + ($2 % 100) - ((invites_month / 100) * 12 + (invites_month % 100))), \
         invites_month = $2 \
         WHERE id = $3 AND invites_month < $2 RETURNING invites_available",
    )
    .bind(MONTHLY_INVITES)
    .bind(month)
    .bind(user_id)
    .fetch_optional(write)
    .await?;
    Ok(available)
}

/// The allowance `top_up` would give at `now`, computed from a member's stored allowance and
/// top-up month without writing (GETs change nothing; it is stored when an invite is made).
pub fn allowance_at(available: i64, invites_month: i64, now: Millis) -> i64 {
    let index = |m: i64| (m / 100) * 12 + m % 100;
    let months = index(month_of(now)) - index(invites_month);
    if months > 0 { available + MONTHLY_INVITES * months } else { available }
}

/// Inserts a fresh code (owner None: made by an operator) and answers it.
pub async fn insert_code<'c, E>(executor: E, owner_id: Option<i64>, now: Millis) -> Result<(i64, String)>
where
    E: Executor<'c, Database = Any>,
{
    let code = random_code(CODE_LEN, CODE_ALPHABET);
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO invites (code, owner_id, created_at, expires_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(&code)
    .bind(owner_id)
    .bind(now)
    .bind(now + INVITE_LIFETIME)
    .fetch_one(executor)
    .await?;
    Ok((id, code))
}

/// An invite as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InviteRow {
    pub id: i64,
    pub code: String,
    pub created_at: Millis,
    pub expires_at: Millis,
    pub used_at: Option<Millis>,
}

/// A member's invites, newest first.
pub async fn list_for_owner(read: &Pool, owner_id: i64) -> Result<Vec<InviteRow>> {
    Ok(sqlx::query_as(
        "SELECT id, code, created_at, expires_at, used_at FROM invites \
         WHERE owner_id = $1 ORDER BY created_at DESC, id DESC",
    )
    .bind(owner_id)
    .fetch_all(read)
    .await?)
}

/// SQL true while an invite (`invites`) may be used: unused, unexpired at `$2`, and its owner
/// (none for an operator's code) neither suspended nor stripped of their invites by moderators.
const USABLE: &str = "used_at IS NULL AND expires_at > $2 AND NOT EXISTS ( \
     SELECT 1 FROM users o WHERE o.id = invites.owner_id AND (o.suspended_until > $2 OR o.invites_taken <> 0))";

/// True when a code exists and may be used (`USABLE`).
pub async fn is_valid(pool: &Pool, code: &str, now: Millis) -> Result<bool> {
    static SQL: LazyLock<String> = LazyLock::new(|| format!("SELECT id FROM invites WHERE code = $1 AND {USABLE}"));
    let found: Option<i64> = sqlx::query_scalar(SQL.as_str()).bind(code).bind(now).fetch_optional(pool).await?;
    Ok(found.is_some())
}

/// Who a claimed code came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// A member's code: they invited the new member.
    From(i64),
    /// An operator's code: the instance invited them.
    FromTheInstance,
}

/// Marks a code used by a new member, answering whose code it was; None when it was used,
/// expired or its owner lost their invites meanwhile: the conditional update is what lets
/// exactly one of several concurrent sign-ups have it.
pub async fn claim(conn: &mut AnyConnection, code: &str, user_id: i64, now: Millis) -> Result<Option<Claimed>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!("UPDATE invites SET used_at = $2, used_by = $3 WHERE code = $1 AND {USABLE} RETURNING owner_id")
    });
    let claimed: Option<Option<i64>> =
        sqlx::query_scalar(SQL.as_str()).bind(code).bind(now).bind(user_id).fetch_optional(conn).await?;
    Ok(claimed.map(|owner| owner.map_or(Claimed::FromTheInstance, Claimed::From)))
}

/// A member spends one invite of their allowance on a fresh code, in one transaction; None
/// when none is left.
pub async fn spend_on_code(pool: &Pool, member: i64, now: Millis) -> Result<Option<(i64, String)>> {
    let mut tx = pool.begin().await?;
    if !take_from_allowance(&mut tx, member).await? {
        return Ok(None);
    }
    let code = insert_code(&mut *tx, Some(member), now).await?;
    tx.commit().await?;
    Ok(Some(code))
}

/// Takes one invite from a member's allowance. False when none is left; the guard in the
/// `WHERE` (not a read before the write) is what keeps parallel requests from overdrawing.
pub async fn take_from_allowance(conn: &mut AnyConnection, user_id: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE users SET invites_available = invites_available - 1 \
         WHERE id = $1 AND invites_available > 0",
    )
    .bind(user_id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes a code (undoing an operator invite whose e-mail could not be sent).
pub async fn delete_code(conn: &mut AnyConnection, id: i64) -> Result<()> {
    sqlx::query("DELETE FROM invites WHERE id = $1 AND used_at IS NULL").bind(id).execute(conn).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_allowance_grows_by_three_for_each_month_begun_since_the_last_top_up() {
        let dec_1_2026 = 1_796_083_200_000; // 2026-12-01T00:00:00Z
        assert_eq!(super::allowance_at(1, 202612, dec_1_2026), 1, "same month: nothing added");
        assert_eq!(super::allowance_at(1, 202611, dec_1_2026), 4);
        assert_eq!(super::allowance_at(0, 202512, dec_1_2026), 36, "a year later, across a year boundary");
        assert_eq!(super::allowance_at(2, 202701, dec_1_2026), 2, "a later stored month never takes away");
    }

    #[test]
    fn month_of_is_year_and_month_in_utc() {
        // 2026-11-30T23:59:59Z and 2026-12-01T00:00:00Z
        assert_eq!(super::month_of(1_796_083_199_000), 202611);
        assert_eq!(super::month_of(1_796_083_200_000), 202612);
    }
}
