//! Member creation: the row, a unique username derived from the address, and the display name.

use std::collections::HashSet;

use sqlx::AnyConnection;

use super::Email;
use crate::invites::store::{MONTHLY_INVITES, month_of};
use crate::users::username::{MAX_LEN, Username, display_name_from};
use murmur_core::clock::Millis;
use murmur_core::db::Backend;
use murmur_core::error::{Error, Result};
use murmur_core::text;

/// The id of the member with this address, read inside a transaction.
pub async fn member_id_by_email(conn: &mut AnyConnection, email: &str) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT id FROM users WHERE email = $1").bind(email).fetch_optional(conn).await?)
}

/// Records who invited a new member (None: the instance), in the sign-up transaction.
pub async fn set_invited_by(conn: &mut AnyConnection, id: i64, inviter: Option<i64>) -> Result<()> {
    sqlx::query("UPDATE users SET invited_by = $1 WHERE id = $2").bind(inviter).bind(id).execute(conn).await?;
    Ok(())
}

/// Creates a member for an address (which must not belong to one yet) and answers their id.
/// They start with this month's invites; the instance's first member is its admin. Call inside
/// the sign-up transaction.
///
/// The display name comes from the address; when it may not be chosen (`text`: a second Ada,
/// whose username is `ada2`, or an address that reads as the instance's staff), the member is
/// named by their own username instead, which they can change. Both names' look-alike keys are stored.
pub async fn create_member(conn: &mut AnyConnection, backend: Backend, email: &Email, now: Millis) -> Result<i64> {
    let base = Username::derive_base(email.local_part());
    let derived = display_name_from(email.local_part(), &base);
    let derived_key = text::look_alike_key(&derived);
    let derived_is_free = crate::users::store::display_name_refusal(conn, None, &derived, now).await?.is_none();
    if backend.writes_run_at_once() {
        wait_for_the_first_member(conn).await?;
    }
    let mut tried = HashSet::new();
    for attempt in 0..5 {
        let mut taken = usernames_like(conn, &base, now).await?;
        taken.extend(tried.iter().cloned());
        // The first try takes the lowest free name (`ada`, then `ada2`, …). A taken name means
        // others are signing up with this base right now and all want that same next name;
        // so later tries start at a random number, and concurrent sign-ups stop colliding.
        let start = if attempt == 0 { 1 } else { random_start() };
        let username = free_username(&base, &taken, start)?;
        let username_key = text::look_alike_key(username.as_str());
        let (display_name, name_key) = if derived_is_free {
            (derived.as_str(), derived_key.as_str())
        } else {
            (username.as_str(), username_key.as_str())
        };
        // DO NOTHING rather than an error: in a PostgreSQL transaction a failed statement
        // would abort the whole transaction. A taken username (a concurrent sign-up) means
        // another try; a taken address means the member exists after all.
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO users (email, username, display_name, created_at, invites_available, invites_month, \
             username_skeleton, name_skeleton, first_run_done, role) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, CASE WHEN EXISTS (SELECT 1 FROM users) THEN 'member' ELSE 'admin' END) \
             ON CONFLICT DO NOTHING RETURNING id",
        )
        .bind(email.as_str())
        .bind(username.as_str())
        .bind(display_name)
        .bind(now)
        .bind(MONTHLY_INVITES)
        .bind(month_of(now))
        .bind(&username_key)
        .bind(name_key)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(id) = id {
            tracing::info!(user_id = id, username = %username, "member created");
            return Ok(id);
        }
        if member_id_by_email(conn, email.as_str()).await?.is_some() {
            return Err(Error::conflict("An account with this e-mail address already exists. Please log in."));
        }
        tried.insert(username.as_str().to_string());
    }
    Err(Error::Internal(anyhow::anyhow!("no free username found for base {base:?}")))
}

/// On an empty PostgreSQL instance, waits until no other sign-up is making the first member
/// (its admin).
///
/// Why: on PostgreSQL each statement sees what had committed when it began, so two sign-ups on
/// an empty instance would each find no members and both become admin. A transaction-long lock
/// makes the second wait for the first to commit or roll back; its INSERT then sees the truth.
/// SQLite's one writer already takes sign-ups one at a time.
async fn wait_for_the_first_member(conn: &mut AnyConnection) -> Result<()> {
    let empty: bool = sqlx::query_scalar("SELECT NOT EXISTS (SELECT 1 FROM users)").fetch_one(&mut *conn).await?;
    if empty {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('murmur: the first member'))").execute(&mut *conn).await?;
    }
    Ok(())
}

/// Every username that could collide with a candidate for `base` (a superset: all names
/// starting with the part of the base every candidate keeps), and those of deleted accounts
/// still held (`leaving::HOLD`): a new member is never named as someone who just left.
async fn usernames_like(conn: &mut AnyConnection, base: &str, now: Millis) -> Result<HashSet<String>> {
    // Candidates keep at least MAX_LEN - 7 characters of the base (a 6-digit number, and one
    // underscore that may be dropped before it).
    let prefix: String = base.chars().take(MAX_LEN - 7).collect();
    let pattern = format!("{}%", prefix.replace('\\', "\\\\").replace('_', "\\_").replace('%', "\\%"));
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT username FROM users WHERE username LIKE $1 ESCAPE '\\' \
         UNION ALL SELECT username FROM username_holds WHERE username LIKE $1 ESCAPE '\\' AND until > $2",
    )
    .bind(pattern)
    .bind(now)
    .fetch_all(conn)
    .await?;
    Ok(names.into_iter().collect())
}

/// A random candidate number of at most 6 digits.
fn random_start() -> u32 {
    2 + u32::from_le_bytes(murmur_core::secrets::random_bytes::<4>()) % 999_000
}

/// The first candidate (`base`, `base2`, `base3`, …) not in `taken`, from the `start`th on
/// (then from the first, if all those are taken).
fn free_username(base: &str, taken: &HashSet<String>, start: u32) -> Result<Username> {
    (start..1_000_000)
        .chain(1..start)
        .filter_map(|n| Username::candidate(base, n))
        .find(|candidate| !taken.contains(candidate.as_str()))
        .ok_or_else(|| Error::Internal(anyhow::anyhow!("no free username for base {base:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_free_candidate_wins() {
        let taken: HashSet<String> = ["ada", "ada2", "ada3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(free_username("ada", &taken, 1).unwrap().as_str(), "ada4");
        assert_eq!(free_username("grace", &taken, 1).unwrap().as_str(), "grace");
        // a reserved base starts at 2
        assert_eq!(free_username("search", &HashSet::new(), 1).unwrap().as_str(), "search2");
        // a later try starts where it is told, and wraps around
        assert_eq!(free_username("ada", &taken, 500).unwrap().as_str(), "ada500");
        let all_high: HashSet<String> = (999_998..1_000_000).map(|n| format!("ada{n}")).collect();
        assert_eq!(free_username("ada", &all_high, 999_998).unwrap().as_str(), "ada");
    }
}
