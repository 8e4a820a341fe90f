//! Invite queries.

use chrono::Datelike;
use sqlx::{Any, AnyPool, Executor};

use crate::clock::{DAY, Millis};
use crate::error::Result;
use crate::secrets::random_code;

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

/// Adds the monthly invites once per calendar month; answers the new allowance when it did.
/// The `invites_month < $2` guard makes the top-up happen once even under concurrent calls.
pub async fn top_up(write: &AnyPool, user_id: i64, month: i64) -> Result<Option<i64>> {
    let available: Option<i64> = sqlx::query_scalar(
        "UPDATE users SET invites_available = invites_available + $1, invites_month = $2 \
         WHERE id = $3 AND invites_month < $2 RETURNING invites_available",
    )
    .bind(MONTHLY_INVITES)
    .bind(month)
    .bind(user_id)
    .fetch_optional(write)
    .await?;
    Ok(available)
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

#[cfg(test)]
mod tests {
    #[test]
    fn month_of_is_year_and_month_in_utc() {
        // 2026-11-30T23:59:59Z and 2026-12-01T00:00:00Z
        assert_eq!(super::month_of(1_796_083_199_000), 202611);
        assert_eq!(super::month_of(1_796_083_200_000), 202612);
    }
}
