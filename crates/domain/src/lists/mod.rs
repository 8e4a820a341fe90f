//! Lists: a member's private groups of people they follow, each read as a feed of its own
//! (docs/feeds.md, "Lists"). Only their owner sees a list: every function takes the owner and
//! answers 404 for anyone else's list, as for a list that does not exist.
//!
//! A list holds only people its owner follows: adding anyone else is refused (422), and an
//! unfollow (a block too, which ends follows) takes the person out of the follower's lists in
//! its transaction (`follows::store::unfollow`). The feed and the members' list also read only
//! people still followed (the timeline part of the feed reads only the rows of the list's
//! people), so a follow ending at the same moment as an add shows nowhere.

pub mod feed;

use serde::Serialize;
use sqlx::AnyConnection;
use utoipa::ToSchema;

use crate::user_columns;
use crate::users::{User, UserRow};
use crate::visibility::{self, Scope};
use murmur_core::clock::{Millis, to_rfc3339};
use murmur_core::db::Db;
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::error::{Error, Result};
use murmur_core::text::{self, Kind};

/// The longest title of a list, in characters.
pub const MAX_TITLE: usize = 50;
/// The most lists one member keeps.
pub const MAX_LISTS: i64 = 20;
/// The most people one list holds.
pub const MAX_MEMBERS: i64 = 500;
/// The most people one request adds or removes (bounds the statement's `IN` list).
pub const MAX_PER_REQUEST: usize = 100;

pub const NOT_FOUND: &str = "List not found";
pub const ONLY_FOLLOWED: &str = "Only people you follow can be added to a list";

/// A member's list as the API answers it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct List {
    pub id: i64,
    pub title: String,
    /// How many people the list holds.
    pub member_count: i64,
    pub created_at: String,
}

#[derive(sqlx::FromRow)]
struct ListRow {
    id: i64,
    title: String,
    member_count: i64,
    created_at: Millis,
}

impl From<ListRow> for List {
    fn from(row: ListRow) -> List {
        List { id: row.id, title: row.title, member_count: row.member_count, created_at: to_rfc3339(row.created_at) }
    }
}

const LIST_COLUMNS: &str = "l.id, l.title, \
     (SELECT COUNT(*) FROM list_members m WHERE m.list_id = l.id) AS member_count, l.created_at";

/// Takes the owner's row lock on PostgreSQL (SQLite's one writer already runs writes in turn)
/// without changing the row.
const LOCK_OWNER: &str = "UPDATE users SET id = id WHERE id = $1";

/// Takes the owner's row lock, as `LOCK_OWNER`, and marks their kept feed pages stale
/// (`timelines::changes`): a change of who is in a list changes its pages.
static LISTS_CHANGED: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("UPDATE users SET {} WHERE id = $1", crate::timelines::changes::FEED_CHANGED));

/// A list's title as kept: trimmed, 1 to `MAX_TITLE` characters, by the rule of all member
/// text (`text::normalize`).
pub fn title(title: &str) -> Result<String> {
    let title = text::normalize(Kind::ListTitle, title.trim())?;
    if title.is_empty() {
        return Err(Error::bad_request("A list's title cannot be empty"));
    }
    if title.chars().count() > MAX_TITLE {
        return Err(Error::bad_request(format!("A list's title can be at most {MAX_TITLE} characters")));
    }
    Ok(title)
}

/// The owner's lists, oldest first (at most `MAX_LISTS`).
pub async fn lists_of(db: &Db, owner: i64) -> Result<Vec<List>> {
    let sql = format!("SELECT {LIST_COLUMNS} FROM lists l WHERE l.owner_id = $1 ORDER BY l.id");
    let rows: Vec<ListRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(owner).fetch_all(&db.read).await?;
    Ok(rows.into_iter().map(List::from).collect())
}

/// One of the owner's lists; 404 for another's.
pub async fn get(db: &Db, owner: i64, id: i64) -> Result<List> {
    find(&mut *db.read.acquire().await?, owner, id).await
}

async fn find(conn: &mut AnyConnection, owner: i64, id: i64) -> Result<List> {
    let sql = format!("SELECT {LIST_COLUMNS} FROM lists l WHERE l.id = $1 AND l.owner_id = $2");
    let row: Option<ListRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(owner).fetch_optional(&mut *conn).await?;
    row.map(List::from).ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// Makes a list; refused past `MAX_LISTS` (counted in the transaction, on the one writer or
/// under the owner's row lock, so two at once cannot both pass).
pub async fn create(db: &Db, owner: i64, title: &str, now: Millis) -> Result<List> {
    let title = self::title(title)?;
    let mut tx = db.write.begin().await?;
    // The owner's row first (the lock order every writer keeps): two creates wait in turn.
    sqlx::query(LOCK_OWNER).bind(owner).execute(&mut *tx).await?;
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM lists WHERE owner_id = $1").bind(owner).fetch_one(&mut *tx).await?;
    if count >= MAX_LISTS {
        return Err(Error::unprocessable(format!("You can have at most {MAX_LISTS} lists")));
    }
    let id: i64 =
        sqlx::query_scalar("INSERT INTO lists (owner_id, title, created_at) VALUES ($1, $2, $3) RETURNING id")
            .bind(owner)
            .bind(&title)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
    let list = find(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok(list)
}

/// Gives one of the owner's lists a new title.
pub async fn rename(db: &Db, owner: i64, id: i64, title: &str) -> Result<List> {
    let title = self::title(title)?;
    let mut tx = db.write.begin().await?;
    let done = sqlx::query("UPDATE lists SET title = $1 WHERE id = $2 AND owner_id = $3")
        .bind(&title)
        .bind(id)
        .bind(owner)
        .execute(&mut *tx)
        .await?;
    if done.rows_affected() != 1 {
        return Err(Error::not_found(NOT_FOUND));
    }
    let list = find(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok(list)
}

/// Deletes one of the owner's lists and its members (the people stay followed).
pub async fn delete(db: &Db, owner: i64, id: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    sqlx::query(LISTS_CHANGED.as_str()).bind(owner).execute(&mut *tx).await?;
    sqlx::query("DELETE FROM list_members WHERE list_id IN (SELECT id FROM lists WHERE id = $1 AND owner_id = $2)")
        .bind(id)
        .bind(owner)
        .execute(&mut *tx)
        .await?;
    let done =
        sqlx::query("DELETE FROM lists WHERE id = $1 AND owner_id = $2").bind(id).bind(owner).execute(&mut *tx).await?;
    if done.rows_affected() != 1 {
        return Err(Error::not_found(NOT_FOUND));
    }
    tx.commit().await?;
    Ok(())
}

/// The ids one request names: 1 to `MAX_PER_REQUEST` member ids, each once.
fn request_ids(ids: &[i64]) -> Result<Vec<i64>> {
    if ids.is_empty() || ids.len() > MAX_PER_REQUEST {
        return Err(Error::bad_request(format!("Name 1 to {MAX_PER_REQUEST} members to add or remove at once")));
    }
    murmur_core::ids::distinct(ids, "Members")
}

/// Adds people the owner follows to one of their lists (those already in it stay); 422 when
/// one of them is not followed, or when the list would hold more than `MAX_MEMBERS`.
pub async fn add_members(db: &Db, owner: i64, id: i64, members: &[i64], now: Millis) -> Result<List> {
    let members = request_ids(members)?;
    let mut tx = db.write.begin().await?;
    // The owner's row first, as an unfollow takes it: an add and an unfollow wait in turn, so
    // an add never keeps someone whose unfollow committed before its check.
    sqlx::query(LISTS_CHANGED.as_str()).bind(owner).execute(&mut *tx).await?;
    find(&mut tx, owner, id).await?;
    let sql = format!(
        "SELECT COUNT(*) FROM follows WHERE follower_id = $1 AND following_id IN ({})",
        in_list(2, members.len())
    );
    let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(owner);
    for member in padded_values(&members) {
        query = query.bind(member);
    }
    let followed: i64 = query.fetch_one(&mut *tx).await?;
    if followed != members.len() as i64 {
        return Err(Error::unprocessable(ONLY_FOLLOWED));
    }
    for member in &members {
        sqlx::query(
            "INSERT INTO list_members (list_id, member_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(id)
        .bind(member)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    let list = find(&mut tx, owner, id).await?;
    if list.member_count > MAX_MEMBERS {
        return Err(Error::unprocessable(format!("A list can hold at most {MAX_MEMBERS} people")));
    }
    tx.commit().await?;
    Ok(list)
}

/// Takes people out of one of the owner's lists (those not in it are fine).
pub async fn remove_members(db: &Db, owner: i64, id: i64, members: &[i64]) -> Result<List> {
    let members = request_ids(members)?;
    let mut tx = db.write.begin().await?;
    sqlx::query(LISTS_CHANGED.as_str()).bind(owner).execute(&mut *tx).await?;
    find(&mut tx, owner, id).await?;
    let sql = format!("DELETE FROM list_members WHERE list_id = $1 AND member_id IN ({})", in_list(2, members.len()));
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id);
    for member in padded_values(&members) {
        query = query.bind(member);
    }
    query.execute(&mut *tx).await?;
    let list = find(&mut tx, owner, id).await?;
    tx.commit().await?;
    Ok(list)
}

/// The people in one of the owner's lists whom the owner still follows and sees (blocks and
/// suspensions: `visibility`), by name; at most `MAX_MEMBERS`.
pub async fn members(db: &Db, owner: i64, id: i64) -> Result<Vec<User>> {
    Ok(member_rows(db, owner, id).await?.into_iter().map(UserRow::public).collect())
}

/// The owner's lists that hold `member` (whom the owner still follows), oldest first.
pub async fn lists_holding(db: &Db, owner: i64, member: i64) -> Result<Vec<List>> {
    let sql = format!(
        "SELECT {LIST_COLUMNS} FROM lists l WHERE l.owner_id = $1 \
         AND EXISTS (SELECT 1 FROM list_members m WHERE m.list_id = l.id AND m.member_id = $2) \
         AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = $1 AND f.following_id = $2) \
         ORDER BY l.id"
    );
    let rows: Vec<ListRow> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(owner).bind(member).fetch_all(&db.read).await?;
    Ok(rows.into_iter().map(List::from).collect())
}

/// `members`, as stored (for interfaces that make their own entities of them).
pub async fn member_rows(db: &Db, owner: i64, id: i64) -> Result<Vec<UserRow>> {
    let mut conn = db.read.acquire().await?;
    find(&mut conn, owner, id).await?;
    let sql = format!(
        "SELECT {} FROM users WHERE id IN ( \
             SELECT m.member_id FROM list_members m \
             JOIN follows f ON f.follower_id = $1 AND f.following_id = m.member_id \
             WHERE m.list_id = $2) \
         AND NOT {} ORDER BY username",
        user_columns!(),
        visibility::hidden(Scope::Anywhere, "$1", "users.id")
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(owner).bind(id).fetch_all(&mut *conn).await?)
}

/// Takes `member` out of `owner`'s lists, in the caller's transaction: `owner` stopped
/// following them (`follows::store::unfollow`).
pub async fn unfollowed(conn: &mut AnyConnection, owner: i64, member: i64) -> Result<()> {
    sqlx::query(
        "DELETE FROM list_members WHERE member_id = $2 AND list_id IN (SELECT id FROM lists WHERE owner_id = $1)",
    )
    .bind(owner)
    .bind(member)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
