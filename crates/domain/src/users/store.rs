//! Queries about members.

use std::sync::LazyLock;

use sqlx::AnyConnection;

use super::model::{User, UserRow, username_change_stamp, username_changeable_at};
use crate::timelines::changes::FEED_CHANGED;
use crate::user_columns;
use crate::users::Username;
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;
use murmur_core::text;

/// Whether a member with this id exists and has not deleted their account (a deleted one is
/// gone to everyone but the moderators' records), read inside a write's transaction.
pub async fn exists(conn: &mut AnyConnection, id: i64) -> Result<bool> {
    let found: Option<i64> = sqlx::query_scalar("SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL")
        .bind(id)
        .fetch_optional(conn)
        .await?;
    Ok(found.is_some())
}

pub async fn find_by_id(pool: &Pool, id: i64) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1");
    Ok(sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?)
}

/// The member with this id, unless they left.
pub async fn find_live(pool: &Pool, id: i64) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1 AND deleted_at IS NULL");
    Ok(sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?)
}

/// The members with these ids (at most 64 at a time), in no particular order.
pub async fn find_many(pool: &Pool, ids: &[i64]) -> Result<Vec<UserRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        concat!("SELECT ", user_columns!(), " FROM users WHERE id IN ({})"),
        murmur_core::db::sql::in_list(1, ids.len())
    );
    // Only placeholders are built here (`in_list`); the ids are bound.
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in murmur_core::db::sql::padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}

/// How many live posts, replies and reposts a member has (their profile's count).
pub async fn post_count(pool: &Pool, member: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM posts WHERE author_id = $1 AND deleted_at IS NULL")
        .bind(member)
        .fetch_one(pool)
        .await?)
}

pub async fn find_by_username(pool: &Pool, username: &str) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE username = $1");
    Ok(sqlx::query_as(SQL).bind(username.to_lowercase()).fetch_optional(pool).await?)
}

pub async fn find_by_email(pool: &Pool, email: &str) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE email = $1");
    Ok(sqlx::query_as(SQL).bind(email).fetch_optional(pool).await?)
}

/// Saves a profile edit (and a new username, if one is given) and answers the member as they
/// now stand. A display name that looks like another member's name, username or held username,
/// or like the instance's or its staff's, is refused (`name_stands_apart`), and the name's
/// look-alike key is stored with it.
pub async fn update_profile(
    write: &Pool,
    id: i64,
    edit: &super::model::ProfileEdit,
    username: Option<&Username>,
    now: Millis,
) -> Result<Option<UserRow>> {
    // The name shows on the member's own cards in their Friends page (`timelines::changes`).
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "UPDATE users SET display_name = $1, bio = $2, website = $3, name_skeleton = $4, {} WHERE id = $5 \
                 RETURNING ",
                user_columns!()
            ),
            FEED_CHANGED
        )
    });
    let key = text::look_alike_key(&edit.display_name);
    let mut tx = write.begin().await?;
    if let Some(username) = username {
        change_username(&mut tx, id, username, now).await?;
    }
    name_stands_apart(&mut tx, Some(id), &edit.display_name, now).await?;
    let row = sqlx::query_as(SQL.as_str())
        .bind(&edit.display_name)
        .bind(&edit.bio)
        .bind(&edit.website)
        .bind(&key)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(row)
}

pub const USERNAME_TAKEN: &str = "That username is taken.";
pub const USERNAME_LOOKS_LIKE_ANOTHER: &str = "That username looks like another member's name or username.";

/// Gives `member` the username `new` (nothing to do when it is theirs already), in the profile
/// edit's transaction: at most once in `USERNAME_CHANGE_EVERY` (the first choice on the first
/// day is free: `username_change_stamp`), never a name another member has or holds (409) or one
/// that looks like another member's name or a name held for someone else (400). The old name is
/// held for the member for `leaving::HOLD`: links to it find them, nobody else takes it or a
/// look-alike of it, and they may take it back at any time.
async fn change_username(conn: &mut AnyConnection, member: i64, new: &Username, now: Millis) -> Result<()> {
    let Some((current, changed_at, joined_at)): Option<(String, Option<Millis>, Millis)> =
        sqlx::query_as("SELECT username, username_changed_at, created_at FROM users WHERE id = $1")
            .bind(member)
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok(());
    };
    if current == new.as_str() {
        return Ok(());
    }
    // Taking back a name they gave up undoes a change: it neither waits for the clock nor
    // restarts it.
    let taking_back: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM username_holds WHERE username = $1 AND user_id = $2 AND until > $3")
            .bind(new.as_str())
            .bind(member)
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
    let taking_back = taking_back.is_some();
    if let Some(from) = username_changeable_at(changed_at, now).filter(|_| !taking_back) {
        return Err(Error::bad_request(format!(
            "You can change your username once in 30 days: next on {}.",
            murmur_core::clock::to_date(from)
        )));
    }
    let taken: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN EXISTS (SELECT 1 FROM users WHERE username = $1 AND id <> $2) \
           OR EXISTS (SELECT 1 FROM username_holds WHERE username = $1 AND until > $3 \
                      AND (user_id IS NULL OR user_id <> $2)) THEN 1 ELSE 0 END",
    )
    .bind(new.as_str())
    .bind(member)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    if taken == 1 {
        return Err(Error::conflict(USERNAME_TAKEN));
    }
    let key = text::look_alike_key(new.as_str());
    if name_is_taken(&mut *conn, Some(member), &key, now).await? {
        return Err(Error::bad_request(USERNAME_LOOKS_LIKE_ANOTHER));
    }
    // The name is on the member's own cards in their Friends page (`timelines::changes`). The old
    // name in the condition: of two changes at once, the second finds it changed.
    static RENAME: LazyLock<String> = LazyLock::new(|| {
        format!(
            "UPDATE users SET username = $1, username_skeleton = $2, \
             username_changed_at = COALESCE($3, username_changed_at), {FEED_CHANGED} \
             WHERE id = $4 AND username = $5"
        )
    });
    let renamed = sqlx::query(RENAME.as_str())
        .bind(new.as_str())
        .bind(&key)
        .bind((!taking_back).then_some(username_change_stamp(changed_at, joined_at, now)))
        .bind(member)
        .bind(&current)
        .execute(&mut *conn)
        .await;
    match renamed {
        Ok(done) if done.rows_affected() == 1 => {}
        Ok(_) => return Err(Error::conflict("Your username was changed meanwhile. Please try again.")),
        Err(e) if murmur_core::db::violates(&e, "users_username_key", "users.username") => {
            return Err(Error::conflict(USERNAME_TAKEN));
        }
        Err(e) => return Err(e.into()),
    }
    hold_username(&mut *conn, &current, Some(member), now).await?;
    // Taking back a name of their own that was held.
    sqlx::query("DELETE FROM username_holds WHERE username = $1 AND user_id = $2")
        .bind(new.as_str())
        .bind(member)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Holds `username` for `member` (who gave it up) or for nobody (a deleted member's) until
/// `leaving::HOLD` from now, with its look-alike key: nobody else takes it or a name that looks
/// like it (`name_is_taken`).
pub async fn hold_username(conn: &mut AnyConnection, username: &str, member: Option<i64>, now: Millis) -> Result<()> {
    sqlx::query(
        "INSERT INTO username_holds (username, until, user_id, skeleton) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (username) DO UPDATE SET until = excluded.until, user_id = excluded.user_id, \
         skeleton = excluded.skeleton",
    )
    .bind(username)
    .bind(now + crate::users::model::HOLD)
    .bind(member)
    .bind(text::look_alike_key(username))
    .execute(conn)
    .await?;
    Ok(())
}

/// The member a name they gave up is held for (`change_username`), until the hold ends.
pub async fn find_by_held_name(pool: &Pool, username: &str, now: Millis) -> Result<Option<UserRow>> {
    // Not a deleted member's (the leaving job clears the hold's member soon after).
    const SQL: &str = concat!(
        "SELECT ",
        user_columns!(),
        " FROM users WHERE id = (SELECT user_id FROM username_holds WHERE username = $1 AND until > $2) \
         AND deleted_at IS NULL"
    );
    Ok(sqlx::query_as(SQL).bind(username).bind(now).fetch_optional(pool).await?)
}

/// Marks the member's first-run step done (idempotent).
pub async fn finish_first_run(write: &Pool, member: i64) -> Result<()> {
    sqlx::query("UPDATE users SET first_run_done = 1 WHERE id = $1 AND first_run_done = 0")
        .bind(member)
        .execute(write)
        .await?;
    Ok(())
}

/// Sets the member's setting "Always expand posts with content warnings".
pub async fn set_expand_warnings(write: &Pool, member: i64, on: bool) -> Result<()> {
    sqlx::query("UPDATE users SET expand_warnings = $1 WHERE id = $2")
        .bind(i64::from(on))
        .bind(member)
        .execute(write)
        .await?;
    Ok(())
}

/// Sets the member's setting "Allow new messages from".
pub async fn set_messages_from(write: &Pool, member: i64, from: crate::users::MessagesFrom) -> Result<()> {
    sqlx::query("UPDATE users SET messages_from = $1 WHERE id = $2")
        .bind(from.as_str())
        .bind(member)
        .execute(write)
        .await?;
    Ok(())
}

/// Points the member's avatar at an image of theirs (`/objects/{id}`).
pub async fn set_avatar(conn: &mut AnyConnection, member: i64, path: &str) -> Result<()> {
    // The avatar shows on the member's own cards in their Friends page (`timelines::changes`).
    static SQL: LazyLock<String> =
        LazyLock::new(|| format!("UPDATE users SET profile_image_url = $1, {FEED_CHANGED} WHERE id = $2"));
    sqlx::query(SQL.as_str()).bind(path).bind(member).execute(conn).await?;
    Ok(())
}

/// Points the member's header image at an image of theirs (`/objects/{id}`); it is on no card.
pub async fn set_header_image(conn: &mut AnyConnection, member: i64, path: &str) -> Result<()> {
    sqlx::query("UPDATE users SET header_image_url = $1 WHERE id = $2").bind(path).bind(member).execute(conn).await?;
    Ok(())
}

/// A member's own view (with e-mail), with this month's invites counted (nothing is written);
/// `Unauthorized` when the member is gone (a session that outlived its member).
pub async fn own_user(pool: &Pool, id: i64, now: Millis) -> Result<User> {
    let row = find_by_id(pool, id).await?.ok_or(Error::Unauthorized)?;
    Ok(row.own(now))
}

/// Members to suggest to `viewer`: not the viewer, not already followed, not hidden from them
/// (`visibility`); friends of friends first (by how many of the viewer's follows follow them), then the most followed.
///
/// Two bounded queries instead of ranking every member: the friends-of-friends walk touches
/// only the follows of the viewer's follows (`follows` primary key), and the most-followed
/// query walks `users_follower_count_idx` from the top and stops after `limit` matches.
pub async fn suggested(pool: &Pool, viewer: i64, limit: i64) -> Result<Vec<UserRow>> {
    // Hidden members are left out per candidate (`HAVING`), not per follow walked.
    static FRIENDS_OF_FRIENDS: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT f2.following_id FROM follows f1 JOIN follows f2 ON f2.follower_id = f1.following_id \
             WHERE f1.follower_id = $1 AND f2.following_id <> $1 \
               AND NOT EXISTS (SELECT 1 FROM follows f3 WHERE f3.follower_id = $1 AND f3.following_id = f2.following_id) \
             GROUP BY f2.following_id HAVING NOT {} ORDER BY COUNT(*) DESC, f2.following_id LIMIT $2",
            visibility::hidden(Scope::Anywhere, "$1", "f2.following_id")
        )
    });
    let fof: Vec<i64> =
        sqlx::query_scalar(FRIENDS_OF_FRIENDS.as_str()).bind(viewer).bind(limit).fetch_all(pool).await?;
    let mut found = by_ids(pool, &fof).await?;
    found.sort_by_key(|u| fof.iter().position(|id| *id == u.id));
    let wanted = limit - found.len() as i64;
    if wanted > 0 {
        static MOST_FOLLOWED: LazyLock<String> = LazyLock::new(|| {
            format!(
                concat!(
                    "SELECT ",
                    user_columns!(),
                    " FROM users u WHERE u.id <> $1 \
                     AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = $1 AND f.following_id = u.id) \
                     AND NOT {} ORDER BY u.follower_count DESC, u.id LIMIT $2"
                ),
                visibility::hidden(Scope::Anywhere, "$1", "u.id")
            )
        });
        // Ask for the friends of friends' number more, as they may come again here.
        let more: Vec<UserRow> = sqlx::query_as(MOST_FOLLOWED.as_str())
            .bind(viewer)
            .bind(wanted + found.len() as i64)
            .fetch_all(pool)
            .await?;
        for user in more {
            if (found.len() as i64) < limit && !found.iter().any(|f| f.id == user.id) {
                found.push(user);
            }
        }
    }
    Ok(found)
}

async fn by_ids(pool: &Pool, ids: &[i64]) -> Result<Vec<UserRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        concat!("SELECT ", user_columns!(), " FROM users WHERE id IN ({})"),
        murmur_core::db::sql::in_list(1, ids.len())
    );
    let mut query = sqlx::query_as::<_, UserRow>(sqlx::AssertSqlSafe(sql));
    for id in murmur_core::db::sql::padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}

/// Which side of a member's follows a list shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowList {
    /// Who follows the member (index `follows_following_newest_idx`).
    Followers,
    /// Whom the member follows (index `follows_follower_newest_idx`).
    Following,
}

/// A member in a list, and whether the viewer follows them (their Follow button).
#[derive(sqlx::FromRow)]
pub struct Listed {
    #[sqlx(flatten)]
    pub user: UserRow,
    pub is_following: i64,
}

/// A page of `member`'s followers or of the members they follow, newest follow first, without
/// the members hidden from `viewer` (`visibility`, left out before the page is cut).
pub async fn follow_list(pool: &Pool, viewer: i64, member: i64, list: FollowList, page: Page) -> Result<Vec<Listed>> {
    fn sql(member_column: &str, listed_column: &str) -> String {
        format!(
            concat!(
                "SELECT ",
                user_columns!(),
                ", CASE WHEN EXISTS (SELECT 1 FROM follows vf WHERE vf.follower_id = $1 AND vf.following_id = users.id) \
                 THEN 1 ELSE 0 END AS is_following \
                 FROM (SELECT f.{listed} AS listed_id, f.created_at AS followed_at FROM follows f \
                       WHERE f.{member} = $2 AND NOT {hidden} \
                       ORDER BY f.created_at DESC, f.{listed} DESC LIMIT $3 OFFSET $4) page \
                 JOIN users ON users.id = page.listed_id ORDER BY page.followed_at DESC, page.listed_id DESC"
            ),
            member = member_column,
            listed = listed_column,
            hidden = visibility::hidden(Scope::Anywhere, "$1", &format!("f.{listed_column}")),
        )
    }
    static FOLLOWERS: LazyLock<String> = LazyLock::new(|| sql("following_id", "follower_id"));
    static FOLLOWING: LazyLock<String> = LazyLock::new(|| sql("follower_id", "following_id"));
    let sql = match list {
        FollowList::Followers => FOLLOWERS.as_str(),
        FollowList::Following => FOLLOWING.as_str(),
    };
    Ok(sqlx::query_as(sql).bind(viewer).bind(member).bind(page.limit).bind(page.offset).fetch_all(pool).await?)
}

/// Members named in one account's familiar followers at most.
pub const FAMILIAR_FOLLOWERS: i64 = 40;

/// The members `viewer` follows who follow `member` (Mastodon's familiar followers), without
/// those hidden from the viewer; the most followed first, at most `FAMILIAR_FOLLOWERS`.
pub async fn familiar_followers(pool: &Pool, viewer: i64, member: i64) -> Result<Vec<UserRow>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "SELECT ",
                user_columns!(),
                " FROM users WHERE id IN (SELECT f.follower_id FROM follows f \
                     JOIN follows vf ON vf.follower_id = $1 AND vf.following_id = f.follower_id \
                     WHERE f.following_id = $2) \
                 AND id <> $2 AND NOT {} ORDER BY follower_count DESC, id LIMIT $3"
            ),
            visibility::hidden(Scope::Anywhere, "$1", "users.id")
        )
    });
    Ok(sqlx::query_as(SQL.as_str()).bind(viewer).bind(member).bind(FAMILIAR_FOLLOWERS).fetch_all(pool).await?)
}

/// Members in a starter pack at most.
pub const STARTER_PACK_SIZE: i64 = 20;

/// Up to `STARTER_PACK_SIZE` members `inviter` follows, for `viewer` to follow: not the
/// viewer, not already followed by them, not hidden from them; the most followed first.
pub async fn starter_pack(pool: &Pool, viewer: i64, inviter: i64) -> Result<Vec<UserRow>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "SELECT ",
                user_columns!(),
                " FROM users WHERE id IN (SELECT following_id FROM follows WHERE follower_id = $2) AND id <> $1 \
                 AND NOT EXISTS (SELECT 1 FROM follows vf WHERE vf.follower_id = $1 AND vf.following_id = users.id) \
                 AND NOT {} ORDER BY follower_count DESC, id LIMIT $3"
            ),
            visibility::hidden(Scope::Anywhere, "$1", "users.id")
        )
    });
    Ok(sqlx::query_as(SQL.as_str()).bind(viewer).bind(inviter).bind(STARTER_PACK_SIZE).fetch_all(pool).await?)
}

/// Members whose username or display name contains `term`, case-insensitively: exact matches
/// first, then prefixes, then the rest, each group most followed first. `%`, `_` and `\` in the
/// term match themselves. (SQLite's `lower()` folds ASCII only; PostgreSQL folds all letters.)
///
/// Bounded by the page, not the member count, when many match: each group is its own query
/// that walks `users_follower_count_idx` from the top and stops after enough matches (exact
/// matches come from the username key and `users_display_name_lower_idx`). Ranking every match
/// in one `ORDER BY CASE …` sorted all of them, slow for a common term (docs/performance.md).
/// A term matching few walks the index to its end (one pass over the members, no sort).
pub async fn search(pool: &Pool, viewer: i64, term: &str, limit: i64) -> Result<Vec<UserRow>> {
    // `$6` is the viewer: members hidden from them (`visibility`) are not found.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "SELECT * FROM (SELECT CAST(0 AS BIGINT) AS tier, ",
                user_columns!(),
                " FROM users \
                     WHERE (username = $2 OR lower(display_name) = $2) AND NOT {hidden} \
                     ORDER BY follower_count DESC, id LIMIT $4) exact \
                 UNION ALL SELECT * FROM (SELECT CAST(1 AS BIGINT), ",
                user_columns!(),
                " FROM users \
                     WHERE (lower(username) LIKE $3 ESCAPE '\\' OR lower(display_name) LIKE $3 ESCAPE '\\') \
                     AND NOT {hidden} ORDER BY follower_count DESC, id LIMIT $4) prefix \
                 UNION ALL SELECT * FROM (SELECT CAST(2 AS BIGINT), ",
                user_columns!(),
                " FROM users \
                     WHERE (lower(username) LIKE $1 ESCAPE '\\' OR lower(display_name) LIKE $1 ESCAPE '\\') \
                     AND NOT {hidden} ORDER BY follower_count DESC, id LIMIT $5) anywhere"
            ),
            hidden = visibility::hidden(Scope::Anywhere, "$6", "users.id")
        )
    });
    let lowered = term.to_lowercase();
    let escaped = escape_like(&lowered);
    // Each group's first `limit` could repeat the earlier groups' matches (at most `limit` of
    // each): asking one group for that many more still leaves `limit` new ones.
    let rows: Vec<Tiered> = sqlx::query_as(SQL.as_str())
        .bind(format!("%{escaped}%"))
        .bind(&lowered)
        .bind(format!("{escaped}%"))
        .bind(limit)
        .bind(3 * limit)
        .bind(viewer)
        .fetch_all(pool)
        .await?;
    Ok(best_first(rows, limit as usize))
}

/// A search match and the group it was found in (0 exact, 1 prefix, 2 anywhere).
#[derive(sqlx::FromRow)]
struct Tiered {
    tier: i64,
    #[sqlx(flatten)]
    user: UserRow,
}

/// The matches in group order, most followed first within a group, each member once (in the
/// best group that found them), at most `limit`.
fn best_first(mut rows: Vec<Tiered>, limit: usize) -> Vec<UserRow> {
    rows.sort_by(|a, b| {
        (a.tier, std::cmp::Reverse(a.user.follower_count), a.user.id).cmp(&(
            b.tier,
            std::cmp::Reverse(b.user.follower_count),
            b.user.id,
        ))
    });
    let mut seen = std::collections::HashSet::new();
    rows.into_iter().map(|row| row.user).filter(|user| seen.insert(user.id)).take(limit).collect()
}

/// `term` as a LIKE pattern that matches itself (escape character `\`).
pub fn escape_like(term: &str) -> String {
    let mut out = String::with_capacity(term.len());
    for c in term.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Refuses a display name `member` may not choose (`display_name_refusal`), with its reason.
pub async fn name_stands_apart(conn: &mut AnyConnection, member: Option<i64>, name: &str, now: Millis) -> Result<()> {
    match display_name_refusal(conn, member, name, now).await? {
        Some(refusal) => Err(refusal),
        None => Ok(()),
    }
}

/// Why `member` may not choose the display name `name`, if they may not: it reads as the
/// instance or its staff (`text::is_reserved_name`), or it looks like another member's name or
/// username or a name held for someone else (`name_is_taken`). `member` is the one choosing it
/// (None at sign-up, before their row exists). A member keeping their current name is never
/// refused, even if it broke a rule that came after they took it.
pub async fn display_name_refusal(
    conn: &mut AnyConnection,
    member: Option<i64>,
    name: &str,
    now: Millis,
) -> Result<Option<Error>> {
    let key = text::look_alike_key(name);
    let current: Option<i64> = sqlx::query_scalar("SELECT 1 FROM users WHERE id = $1 AND name_skeleton = $2")
        .bind(member.unwrap_or(0))
        .bind(&key)
        .fetch_optional(&mut *conn)
        .await?;
    if current.is_some() {
        return Ok(None);
    }
    if let Err(reserved) = text::refuse_reserved_name(text::Kind::DisplayName, name) {
        return Ok(Some(reserved));
    }
    if name_is_taken(conn, member, &key, now).await? {
        return Ok(Some(Error::bad_request(text::LOOKS_LIKE_ANOTHER)));
    }
    Ok(None)
}

/// True when a name with look-alike `key` would look like another member's name or username,
/// or like a username held for someone else (a deleted member's, or one another member gave up
/// and may take back), while `member` chooses it: their own username and the names held for
/// them never count against them, and their current display name is theirs to keep. One
/// statement, each part an index lookup (`users_username_skeleton_idx`,
/// `users_name_skeleton_idx`, `username_holds_skeleton_idx`).
pub async fn name_is_taken(conn: &mut AnyConnection, member: Option<i64>, key: &str, now: Millis) -> Result<bool> {
    const SQL: &str = "SELECT CAST(CASE \
         WHEN EXISTS (SELECT 1 FROM users WHERE id = $2 AND name_skeleton = $1) THEN 0 \
         WHEN EXISTS (SELECT 1 FROM users WHERE username_skeleton = $1 AND id <> $2) \
           OR EXISTS (SELECT 1 FROM users WHERE name_skeleton = $1 AND id <> $2) \
           OR EXISTS (SELECT 1 FROM username_holds WHERE skeleton = $1 AND until > $3 \
                      AND (user_id IS NULL OR user_id <> $2)) THEN 1 \
         ELSE 0 END AS BIGINT)";
    let taken: i64 = sqlx::query_scalar(SQL).bind(key).bind(member.unwrap_or(0)).bind(now).fetch_one(conn).await?;
    Ok(taken == 1)
}

/// Whether the member is suspended at `now` (`moderation::is_suspended`), read inside a
/// transaction.
pub async fn is_suspended(conn: &mut AnyConnection, id: i64, now: Millis) -> Result<bool> {
    let until: Option<Option<Millis>> =
        sqlx::query_scalar("SELECT suspended_until FROM users WHERE id = $1").bind(id).fetch_optional(conn).await?;
    Ok(crate::users::model::is_suspended(until.flatten(), now))
}

#[cfg(test)]
mod tests {
    #[test]
    fn like_wildcards_are_escaped() {
        assert_eq!(super::escape_like(r"50%_a\b"), r"50\%\_a\\b");
        assert_eq!(super::escape_like("ada"), "ada");
    }
}
