//! The SQL of direct messages: conversations, each member's place in them, and the messages.

use sqlx::AnyConnection;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::error::Result;

/// The places in which a member reads a conversation (`declined` and `left` are for good).
pub(crate) const READABLE: &str = "('inbox', 'requests', 'hidden')";

/// A conversation as one of its members has it.
#[derive(sqlx::FromRow)]
pub(crate) struct Membership {
    pub conversation_id: i64,
    pub place: String,
    pub muted: i64,
    pub last_read_id: i64,
    pub started_by: Option<i64>,
    pub created_at: Millis,
    pub last_message_id: i64,
    /// 1 when a block stands between two of its present members: it takes no new messages.
    pub blocked: i64,
    /// How many members besides this one are still in it (not left, not gone).
    pub others: i64,
    /// 1 when some other present member has it in their inbox (or hid it): it was accepted.
    pub accepted: i64,
}

/// The conversation is not one the viewer blocked someone in: a block hides it from the blocker.
fn not_hidden_by_block(viewer: &str, conversation: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM conversation_members hb_o \
             JOIN blocks hb ON hb.blocker_id = {viewer} AND hb.blocked_id = hb_o.member_id \
             WHERE hb_o.conversation_id = {conversation} AND hb_o.box <> 'left')"
    )
}

fn membership_columns() -> String {
    "cm.conversation_id, cm.box AS place, cm.muted, cm.last_read_id, c.started_by, c.created_at, \
     c.last_message_id, \
     CAST(CASE WHEN EXISTS (SELECT 1 FROM conversation_members a \
         JOIN conversation_members b ON b.conversation_id = a.conversation_id AND b.box <> 'left' \
         JOIN blocks bl ON bl.blocker_id = a.member_id AND bl.blocked_id = b.member_id \
         WHERE a.conversation_id = c.id AND a.box <> 'left') THEN 1 ELSE 0 END AS BIGINT) AS blocked, \
     (SELECT COUNT(*) FROM conversation_members o JOIN users ou ON ou.id = o.member_id \
         WHERE o.conversation_id = c.id AND o.member_id <> cm.member_id AND o.box <> 'left' \
         AND ou.deleted_at IS NULL) AS others, \
     CAST(CASE WHEN EXISTS (SELECT 1 FROM conversation_members o WHERE o.conversation_id = c.id \
         AND o.member_id <> cm.member_id AND o.box IN ('inbox', 'hidden')) THEN 1 ELSE 0 END AS BIGINT) AS accepted"
        .to_string()
}

/// The viewer's place in conversation `id`, when they may read it.
pub(crate) async fn membership(conn: &mut AnyConnection, viewer: i64, id: i64) -> Result<Option<Membership>> {
    let sql = format!(
        "SELECT {} FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id \
         WHERE cm.conversation_id = $1 AND cm.member_id = $2 AND cm.box IN {READABLE} AND {}",
        membership_columns(),
        not_hidden_by_block("$2", "c.id")
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(viewer).fetch_optional(conn).await?)
}

/// The viewer's conversations in `place`, the latest message first.
pub(crate) async fn memberships(
    pool: &Pool,
    viewer: i64,
    places: &str,
    limit: i64,
    offset: i64,
) -> Result<Vec<Membership>> {
    let sql = format!(
        "SELECT {} FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id \
         WHERE cm.member_id = $1 AND cm.box IN {places} AND {} \
         ORDER BY c.last_message_id DESC, c.id DESC LIMIT $2 OFFSET $3",
        membership_columns(),
        not_hidden_by_block("$1", "c.id")
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(viewer).bind(limit).bind(offset).fetch_all(pool).await?)
}

/// How many conversations in the viewer's inbox, not muted, hold a message they have not read.
pub(crate) async fn unread_count(pool: &Pool, viewer: i64) -> Result<i64> {
    let sql = format!(
        "SELECT COUNT(*) FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id \
         WHERE cm.member_id = $1 AND cm.box = 'inbox' AND cm.muted = 0 AND c.last_message_id > cm.last_read_id \
         AND {}",
        not_hidden_by_block("$1", "c.id")
    );
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(viewer).fetch_one(pool).await?)
}

/// The other members of conversations `ids` still in them and not gone: (conversation, member).
pub(crate) async fn others_of(pool: &Pool, viewer: i64, ids: &[i64]) -> Result<Vec<(i64, i64)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT cm.conversation_id, cm.member_id FROM conversation_members cm JOIN users u ON u.id = cm.member_id \
         WHERE cm.conversation_id IN ({}) AND cm.member_id <> $1 AND cm.box <> 'left' AND u.deleted_at IS NULL \
         ORDER BY cm.conversation_id, u.username",
        in_list(2, ids.len())
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(viewer);
    for id in padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}

/// A message as stored, with what its author's standing says of it.
#[derive(sqlx::FromRow)]
pub(crate) struct MessageRow {
    pub id: i64,
    pub conversation_id: i64,
    pub author_id: Option<i64>,
    pub content: String,
    pub created_at: Millis,
    pub deleted_at: Option<Millis>,
    /// 1 when its author left Murmur.
    pub author_left: i64,
}

/// The messages no one reads: those of a suspended member (withheld while suspended).
const SHOWN: &str = "(u.id IS NULL OR u.deleted_at IS NOT NULL OR u.suspended_until IS NULL)";

const MESSAGE_COLUMNS: &str = "m.id, m.conversation_id, m.author_id, m.content, m.created_at, m.deleted_at, \
     CAST(CASE WHEN m.author_id IS NULL OR u.deleted_at IS NOT NULL THEN 1 ELSE 0 END AS BIGINT) AS author_left";

/// Conversation `id`'s messages below message `below`, newest first.
pub(crate) async fn messages(pool: &Pool, id: i64, below: i64, limit: i64) -> Result<Vec<MessageRow>> {
    let sql = format!(
        "SELECT {MESSAGE_COLUMNS} FROM messages m LEFT JOIN users u ON u.id = m.author_id \
         WHERE m.conversation_id = $1 AND m.id < $2 AND {SHOWN} ORDER BY m.id DESC LIMIT $3"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(below).bind(limit).fetch_all(pool).await?)
}

/// Conversation `id`'s messages above message `above`, oldest first.
pub(crate) async fn messages_after(pool: &Pool, id: i64, above: i64, limit: i64) -> Result<Vec<MessageRow>> {
    let sql = format!(
        "SELECT {MESSAGE_COLUMNS} FROM messages m LEFT JOIN users u ON u.id = m.author_id \
         WHERE m.conversation_id = $1 AND m.id > $2 AND {SHOWN} ORDER BY m.id LIMIT $3"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(id).bind(above).bind(limit).fetch_all(pool).await?)
}

/// The messages with these ids that are shown, in no particular order.
pub(crate) async fn messages_by_id(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<MessageRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {MESSAGE_COLUMNS} FROM messages m LEFT JOIN users u ON u.id = m.author_id \
         WHERE m.id IN ({}) AND {SHOWN}",
        in_list(1, ids.len())
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(conn).await?)
}

/// The conversation of exactly these members (`key`), if there is one.
pub(crate) async fn by_key(conn: &mut AnyConnection, key: &str) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar("SELECT id FROM conversations WHERE member_key = $1").bind(key).fetch_optional(conn).await?)
}

/// Makes the conversation of `key` started by `starter`; None when another request made it
/// meanwhile.
pub(crate) async fn insert_conversation(
    conn: &mut AnyConnection,
    key: &str,
    starter: i64,
    now: Millis,
) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "INSERT INTO conversations (member_key, started_by, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (member_key) DO NOTHING RETURNING id",
    )
    .bind(key)
    .bind(starter)
    .bind(now)
    .fetch_optional(conn)
    .await?)
}

pub(crate) async fn insert_member(
    conn: &mut AnyConnection,
    id: i64,
    member: i64,
    place: &str,
    now: Millis,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO conversation_members (conversation_id, member_id, box, joined_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(member)
    .bind(place)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Puts the member's conversation `id` in `place`, when it is in one of `from`; whether it was.
pub(crate) async fn move_to(conn: &mut AnyConnection, id: i64, member: i64, from: &str, place: &str) -> Result<bool> {
    let sql = format!(
        "UPDATE conversation_members SET box = $1 WHERE conversation_id = $2 AND member_id = $3 AND box IN {from}"
    );
    let done = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(place).bind(id).bind(member).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

/// Who the members are, for the checks of a new conversation: (id, username, messages_from,
/// shown: not suspended and not gone).
#[derive(sqlx::FromRow)]
pub(crate) struct Candidate {
    pub id: i64,
    pub username: String,
    pub messages_from: String,
    pub shown: i64,
    /// 1 when they follow the one who starts the conversation.
    pub follows_starter: i64,
    /// 1 when a block stands between them and the starter, either way.
    pub blocked: i64,
}

pub(crate) async fn candidates(conn: &mut AnyConnection, starter: i64, ids: &[i64]) -> Result<Vec<Candidate>> {
    let sql = format!(
        "SELECT u.id, u.username, u.messages_from, \
             CAST(CASE WHEN u.deleted_at IS NULL AND u.suspended_until IS NULL THEN 1 ELSE 0 END AS BIGINT) AS shown, \
             CAST(CASE WHEN EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = u.id AND f.following_id = $1) \
                 THEN 1 ELSE 0 END AS BIGINT) AS follows_starter, \
             CAST(CASE WHEN EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = $1 AND b.blocked_id = u.id) \
                 OR (b.blocker_id = u.id AND b.blocked_id = $1)) THEN 1 ELSE 0 END AS BIGINT) AS blocked \
         FROM users u WHERE u.id IN ({})",
        in_list(2, ids.len())
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(starter);
    for id in padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(conn).await?)
}

/// Takes conversation `id`'s row lock on PostgreSQL (SQLite's one writer already runs writes in
/// turn): two messages of one conversation are written in turn, so the request limit holds.
pub(crate) async fn lock(conn: &mut AnyConnection, id: i64) -> Result<()> {
    sqlx::query("UPDATE conversations SET id = id WHERE id = $1").bind(id).execute(conn).await?;
    Ok(())
}

/// How many messages `author` wrote in conversation `id`.
pub(crate) async fn count_by(conn: &mut AnyConnection, id: i64, author: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE conversation_id = $1 AND author_id = $2")
        .bind(id)
        .bind(author)
        .fetch_one(conn)
        .await?)
}

/// Writes a message, makes it the conversation's latest and the author's last read, brings the
/// conversation back for the members who hid it, and takes it into the author's inbox (writing
/// in a request accepts it). Answers the message's id.
pub(crate) async fn insert_message(
    conn: &mut AnyConnection,
    id: i64,
    author: i64,
    content: &str,
    now: Millis,
) -> Result<i64> {
    let message: i64 = sqlx::query_scalar(
        "INSERT INTO messages (conversation_id, author_id, content, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(id)
    .bind(author)
    .bind(content)
    .bind(now)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("UPDATE conversations SET last_message_id = $1 WHERE id = $2")
        .bind(message)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE conversation_members SET box = 'inbox' WHERE conversation_id = $1 AND box = 'hidden'")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE conversation_members SET box = 'inbox', last_read_id = $1 WHERE conversation_id = $2 AND member_id = $3",
    )
    .bind(message)
    .bind(id)
    .bind(author)
    .execute(&mut *conn)
    .await?;
    Ok(message)
}

/// A message and whether `viewer` may read its conversation: (conversation, author).
pub(crate) async fn message_of(
    conn: &mut AnyConnection,
    viewer: i64,
    message: i64,
) -> Result<Option<(i64, Option<i64>)>> {
    let sql = format!(
        "SELECT m.conversation_id, m.author_id FROM messages m JOIN conversation_members cm \
             ON cm.conversation_id = m.conversation_id AND cm.member_id = $2 AND cm.box IN {READABLE} \
         WHERE m.id = $1"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(message).bind(viewer).fetch_optional(conn).await?)
}

/// Deletes a message for everyone: its words go, its place stays ("Message deleted").
pub(crate) async fn delete_message(conn: &mut AnyConnection, message: i64, now: Millis) -> Result<()> {
    sqlx::query("UPDATE messages SET content = '', deleted_at = COALESCE(deleted_at, $1) WHERE id = $2")
        .bind(now)
        .bind(message)
        .execute(conn)
        .await?;
    Ok(())
}

pub(crate) async fn mark_read(conn: &mut AnyConnection, id: i64, member: i64) -> Result<()> {
    sqlx::query(
        "UPDATE conversation_members SET last_read_id = \
             (SELECT last_message_id FROM conversations WHERE id = $1) \
         WHERE conversation_id = $1 AND member_id = $2",
    )
    .bind(id)
    .bind(member)
    .execute(conn)
    .await?;
    Ok(())
}

pub(crate) async fn set_muted(conn: &mut AnyConnection, id: i64, member: i64, muted: bool) -> Result<()> {
    sqlx::query("UPDATE conversation_members SET muted = $1 WHERE conversation_id = $2 AND member_id = $3")
        .bind(i64::from(muted))
        .bind(id)
        .bind(member)
        .execute(conn)
        .await?;
    Ok(())
}

/// The members who read conversation `id` now.
pub(crate) async fn readers(conn: &mut AnyConnection, id: i64) -> Result<Vec<i64>> {
    let sql = format!("SELECT member_id FROM conversation_members WHERE conversation_id = $1 AND box IN {READABLE}");
    Ok(sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(id).fetch_all(conn).await?)
}

/// How many members conversation `id` was started with.
pub(crate) async fn size(conn: &mut AnyConnection, id: i64) -> Result<i64> {
    Ok(sqlx::query_scalar("SELECT COUNT(*) FROM conversation_members WHERE conversation_id = $1")
        .bind(id)
        .fetch_one(conn)
        .await?)
}

/// Empties the words of every message `member` wrote, in the transaction of their leaving; the
/// leaving job then clears them as the author (`accounts::leaving`).
pub(crate) async fn empty_messages_of(conn: &mut AnyConnection, member: i64) -> Result<()> {
    sqlx::query("UPDATE messages SET content = '' WHERE author_id = $1").bind(member).execute(&mut *conn).await?;
    sqlx::query("UPDATE report_messages SET content = '' WHERE author_id = $1").bind(member).execute(conn).await?;
    Ok(())
}

/// A message chosen for a report, from a conversation its reporter reads.
#[derive(sqlx::FromRow)]
pub(crate) struct Chosen {
    pub id: i64,
    pub conversation_id: i64,
    pub author_id: Option<i64>,
    pub content: String,
    pub created_at: Millis,
}

pub(crate) async fn chosen(conn: &mut AnyConnection, reader: i64, ids: &[i64]) -> Result<Vec<Chosen>> {
    let sql = format!(
        "SELECT m.id, m.conversation_id, m.author_id, m.content, m.created_at FROM messages m \
         JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.member_id = $1 \
             AND cm.box IN {READABLE} \
         WHERE m.id IN ({}) ORDER BY m.id",
        in_list(2, ids.len())
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(reader);
    for id in padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(conn).await?)
}

/// Report `report` holds exactly these messages, as they read now.
pub(crate) async fn keep_for_report(conn: &mut AnyConnection, report: i64, chosen: &[Chosen]) -> Result<()> {
    sqlx::query("DELETE FROM report_messages WHERE report_id = $1").bind(report).execute(&mut *conn).await?;
    for message in chosen {
        sqlx::query(
            "INSERT INTO report_messages (report_id, message_id, author_id, content, sent_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(report)
        .bind(message.id)
        .bind(message.author_id)
        .bind(&message.content)
        .bind(message.created_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// A reported message as kept with its report.
#[derive(sqlx::FromRow)]
pub(crate) struct ReportedRow {
    pub report_id: i64,
    pub message_id: i64,
    pub author_username: Option<String>,
    pub content: String,
    pub sent_at: Millis,
}

pub(crate) async fn reported(pool: &Pool, reports: &[i64]) -> Result<Vec<ReportedRow>> {
    if reports.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT rm.report_id, rm.message_id, u.username AS author_username, rm.content, rm.sent_at \
         FROM report_messages rm LEFT JOIN users u ON u.id = rm.author_id AND u.deleted_at IS NULL \
         WHERE rm.report_id IN ({}) ORDER BY rm.report_id, rm.message_id",
        in_list(1, reports.len())
    );
    let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql));
    for id in padded_values(reports) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}
