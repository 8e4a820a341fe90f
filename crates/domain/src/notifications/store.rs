//! Notification queries. They are written inside the transaction of their cause (a follow, a
//! like, …), so a notification exists exactly when its cause does.

use std::collections::HashMap;
use std::sync::LazyLock;

use sqlx::AnyConnection;

use crate::live::Change;
use crate::user_columns;
use crate::users::UserRow;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;
use murmur_core::page::Page;

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Follow,
    Like,
    Reply,
    Repost,
    Mention,
    /// Moderators removed the recipient's post (the actor is the moderator; the reason is the
    /// log's, `moderation::store`).
    Removed,
    /// The member's data archive is ready to download (`exports`): about no one else, so the
    /// actor is the member themselves (`notify_self`).
    ExportReady,
    /// The actor quoted the recipient's post (the notification's post is the quote).
    Quote,
}

impl Kind {
    /// Every kind, in the order of their bits in `Kinds`.
    pub const ALL: [Kind; 8] = [
        Kind::Follow,
        Kind::Like,
        Kind::Reply,
        Kind::Repost,
        Kind::Mention,
        Kind::Removed,
        Kind::ExportReady,
        Kind::Quote,
    ];

    /// Likes and reposts of one post are shown as one group (`live::counts::GROUPED`).
    pub fn is_grouped(self) -> bool {
        matches!(self, Kind::Like | Kind::Repost)
    }

    /// The kind stored and sent as `name`.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Follow => "follow",
            Kind::Like => "like",
            Kind::Reply => "reply",
            Kind::Repost => "repost",
            Kind::Mention => "mention",
            Kind::Removed => "removed",
            Kind::ExportReady => "export-ready",
            Kind::Quote => "quote",
        }
    }
}

/// A set of kinds, as a list asks for them (one bit per kind of `Kind::ALL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds(i64);

impl Kinds {
    pub const ALL: Kinds = Kinds((1 << Kind::ALL.len()) - 1);
    pub const NONE: Kinds = Kinds(0);

    pub fn with(self, kind: Kind) -> Kinds {
        Kinds(self.0 | Kinds::bit(kind))
    }

    pub fn without(self, kind: Kind) -> Kinds {
        Kinds(self.0 & !Kinds::bit(kind))
    }

    fn bit(kind: Kind) -> i64 {
        1 << Kind::ALL.iter().position(|k| *k == kind).expect("every kind is in Kind::ALL")
    }

    /// SQL answering the bit of the kind of the notification `n` (as stored in `n.type`).
    fn sql_bit() -> String {
        let cases: String =
            Kind::ALL.iter().map(|kind| format!("WHEN '{}' THEN {} ", kind.as_str(), Kinds::bit(*kind))).collect();
        format!("CASE n.type {cases}ELSE 0 END")
    }
}

/// `post_id` for notifications about no post (follows), so the once-key covers them too.
pub const NO_POST: i64 = 0;

/// Tells `recipient` that `actor` did `kind` (about `post_id`), once: a second identical
/// notification is silently not made (`notifications_once_key`), and nobody is told about
/// their own actions or of a member blocked either way. Open tabs hear of it only when one was
/// made.
pub async fn notify(
    conn: &mut AnyConnection,
    recipient: i64,
    actor: i64,
    kind: Kind,
    post_id: i64,
    now: Millis,
) -> Result<()> {
    if recipient == actor {
        return Ok(());
    }
    // Members who blocked each other hear nothing of each other (a mention, say); a moderators'
    // notice reaches its member whatever they think of the moderator.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at) \
             SELECT $1, $2, $3, $4, $5 WHERE $3 = 'removed' OR NOT {} ON CONFLICT DO NOTHING RETURNING id",
            crate::visibility::blocked_between("$1", "$2")
        )
    });
    let made: Option<i64> = sqlx::query_scalar(SQL.as_str())
        .bind(recipient)
        .bind(actor)
        .bind(kind.as_str())
        .bind(post_id)
        .bind(now)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(id) = made {
        // Its pushes go with it if the cause is undone before they are sent.
        crate::push::store::queue(conn, id, recipient, actor, kind.as_str(), now).await?;
        crate::live::note(Change::Notified { member: recipient, new: true });
    }
    Ok(())
}

/// Tells `member` something about their own account (`Kind::ExportReady`): a new notice takes
/// the place of the last one of its kind, read or not, so it is made again every time.
pub async fn notify_self(conn: &mut AnyConnection, member: i64, kind: Kind, now: Millis) -> Result<()> {
    sqlx::query("DELETE FROM notifications WHERE recipient_id = $1 AND actor_id = $1 AND type = $2")
        .bind(member)
        .bind(kind.as_str())
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at) VALUES ($1, $1, $2, $3, $4)",
    )
    .bind(member)
    .bind(kind.as_str())
    .bind(NO_POST)
    .bind(now)
    .execute(conn)
    .await?;
    crate::live::note(Change::Notified { member, new: true });
    Ok(())
}

/// The cause was undone (unlike, unfollow, unrepost): its notification goes too while unread.
/// A read one stays, so liking again does not notify twice. Open tabs hear of it only when one
/// went.
pub async fn withdraw(conn: &mut AnyConnection, recipient: i64, actor: i64, kind: Kind, post_id: i64) -> Result<()> {
    let withdrawn = sqlx::query(
        "DELETE FROM notifications WHERE recipient_id = $1 AND actor_id = $2 AND type = $3 \
         AND post_id = $4 AND read_at IS NULL",
    )
    .bind(recipient)
    .bind(actor)
    .bind(kind.as_str())
    .bind(post_id)
    .execute(conn)
    .await?;
    if withdrawn.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
    }
    Ok(())
}

/// A post was deleted: every notification that quotes it goes, read or not (there is nothing
/// left to show).
pub async fn remove_about_post(conn: &mut AnyConnection, post_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM notifications WHERE post_id = $1 AND type <> 'follow'")
        .bind(post_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// One notification as stored: what happened, when, by whom, about which post.
#[derive(Debug, sqlx::FromRow)]
pub struct Entry {
    pub id: i64,
    pub kind: String,
    pub read_at: Option<Millis>,
    pub created_at: Millis,
    pub post_id: i64,
    pub actor_id: i64,
}

/// A notification with its actor's name and picture and its post's text.
#[derive(Debug, sqlx::FromRow)]
pub struct NotificationRow {
    #[sqlx(flatten)]
    pub entry: Entry,
    pub actor_username: String,
    pub actor_display_name: String,
    pub actor_profile_image_url: Option<String>,
    pub post_content: Option<String>,
    /// For a removal: the reason moderators gave.
    pub reason: Option<String>,
}

/// SQL of one page of the member's notifications newest first (index
/// `notifications_recipient_idx`): of the `kinds` bound as `$7`, the shown ones (`shown`) that
/// also pass `also`, left out before the page (`$2` rows after `$3`, ids between `$6` and `$5`)
/// is cut. `$1` is the recipient, `$4` the time.
fn page_sql(also: &str) -> String {
    format!(
        "SELECT n.* FROM notifications n \
         WHERE n.recipient_id = $1 AND n.id < $5 AND n.id > $6 AND ({} & $7) <> 0 AND {} AND {also} \
         ORDER BY n.id DESC LIMIT $2 OFFSET $3",
        Kinds::sql_bit(),
        crate::live::counts::shown("$4")
    )
}

/// The rows of a statement around `page_sql`, its placeholders bound.
async fn page_rows<T>(
    pool: &Pool,
    sql: &'static str,
    recipient: i64,
    kinds: Kinds,
    page: Page,
    now: Millis,
) -> Result<Vec<T>>
where
    T: for<'r> sqlx::FromRow<'r, sqlx::any::AnyRow> + Send + Unpin,
{
    Ok(sqlx::query_as(sql)
        .bind(recipient)
        .bind(page.limit)
        .bind(page.offset)
        .bind(now)
        .bind(page.below)
        .bind(page.above)
        .bind(kinds.0)
        .fetch_all(pool)
        .await?)
}

/// A notification's columns as `NotificationRow` reads them: `n` the notification, `u` its
/// actor, `p` its post (LEFT joined), and a removal's reason (by `moderation_log_post_idx`).
const ROW_COLUMNS: &str = "n.id, n.type AS kind, n.read_at, n.created_at, n.post_id, u.id AS actor_id, \
     u.username AS actor_username, u.display_name AS actor_display_name, \
     u.profile_image_url AS actor_profile_image_url, p.content AS post_content, \
     (SELECT l.reason FROM moderation_log l WHERE n.type = 'removed' AND l.post_id = n.post_id \
      AND l.action = 'remove_post' ORDER BY l.id DESC LIMIT 1) AS reason";

/// The SQL joining a page (`page_sql`) to its actors and posts. The page is cut before the
/// join: PostgreSQL's first plans for the whole join, which guess a handful of rows, read every
/// member for each notification.
fn joined_sql(page: &str) -> String {
    format!(
        "SELECT {ROW_COLUMNS} FROM ({page}) n JOIN users u ON u.id = n.actor_id \
         LEFT JOIN posts p ON p.id = n.post_id AND n.post_id <> 0 ORDER BY n.id DESC"
    )
}

/// The member's newest notifications (`page_sql`) with their actors and posts, in one query.
pub async fn list(pool: &Pool, recipient: i64, kinds: Kinds, page: Page, now: Millis) -> Result<Vec<NotificationRow>> {
    static SQL: LazyLock<String> = LazyLock::new(|| joined_sql(&page_sql("TRUE")));
    page_rows(pool, SQL.as_str(), recipient, kinds, page, now).await
}

/// A page of notifications as `entries` reads it: the notifications, and the records of the
/// members they name (each actor, and the recipient, who wrote the liked and reposted posts).
pub struct Entries {
    /// Newest first.
    pub rows: Vec<Entry>,
    pub members: HashMap<i64, UserRow>,
}

/// A row of `entries`' statement: a notification with its actor's record, or (no notification)
/// the recipient's record.
#[derive(sqlx::FromRow)]
struct EntryRow {
    notification_id: Option<i64>,
    kind: Option<String>,
    read_at: Option<Millis>,
    notified_at: Option<Millis>,
    post_id: Option<i64>,
    #[sqlx(flatten)]
    member: UserRow,
}

/// The member's newest notifications as `list` pages them, with the whole records of the
/// members they name but not their posts: for readers that show every member whole and read
/// the posts in a statement of their own (the Mastodon API). One statement: a members' read of
/// its own cost a round trip per page.
pub async fn entries(pool: &Pool, recipient: i64, kinds: Kinds, page: Page, now: Millis) -> Result<Entries> {
    // The page's columns are renamed so that the members' columns (`id`, `created_at`) are
    // unambiguous without an alias: no other column of the page may be a `users` column.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            concat!(
                "SELECT n.notification_id, n.kind, n.read_at, n.notified_at, n.post_id, ",
                user_columns!(),
                " FROM (SELECT page.id AS notification_id, page.type AS kind, page.read_at, \
                   page.created_at AS notified_at, page.post_id, page.actor_id FROM ({page}) page) n \
                 JOIN users ON users.id = n.actor_id \
                 UNION ALL SELECT CAST(NULL AS BIGINT), CAST(NULL AS TEXT), CAST(NULL AS BIGINT), \
                   CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), ",
                user_columns!(),
                " FROM users WHERE id = $1"
            ),
            page = page_sql("TRUE")
        )
    });
    let found: Vec<EntryRow> = page_rows(pool, SQL.as_str(), recipient, kinds, page, now).await?;
    let mut entries = Entries { rows: Vec::with_capacity(found.len()), members: HashMap::new() };
    for row in found {
        if let (Some(id), Some(kind), Some(created_at), Some(post_id)) =
            (row.notification_id, row.kind, row.notified_at, row.post_id)
        {
            let actor_id = row.member.id;
            entries.rows.push(Entry { id, kind, read_at: row.read_at, created_at, post_id, actor_id });
        }
        entries.members.insert(row.member.id, row.member);
    }
    entries.rows.sort_unstable_by_key(|entry| std::cmp::Reverse(entry.id));
    Ok(entries)
}

/// A group of notifications as a grouped list shows it: its newest notification (`head`), how
/// many it holds and how many of them are unread, and the newest actors (at most
/// `GROUP_ACTORS`, the head's first).
#[derive(Debug)]
pub struct Group {
    pub head: NotificationRow,
    pub size: i64,
    pub unread: i64,
    pub actors: Vec<Actor>,
}

/// One member who did what a group tells.
#[derive(Debug, Clone)]
pub struct Actor {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub profile_image_url: Option<String>,
}

/// How many of a group's actors are shown with it ("Ada, Bob and 3 others").
pub const GROUP_ACTORS: i64 = 3;

/// A group's head with one of its actors (`NotificationRow::actor_*`), and the group's counts.
#[derive(sqlx::FromRow)]
struct GroupRow {
    #[sqlx(flatten)]
    row: NotificationRow,
    size: i64,
    unread: i64,
}

/// The member's newest notifications with the likes and reposts of one post as one group,
/// placed where its newest is (the groups of one page are cut like `list`'s notifications). One
/// statement: the page's heads, then one walk of their groups that counts each (all and unread)
/// and names its newest actors, a row per actor.
pub async fn list_grouped(pool: &Pool, recipient: i64, kinds: Kinds, page: Page, now: Millis) -> Result<Vec<Group>> {
    use crate::live::counts::{GROUPED, newer_in_group};
    // A group is its kind's notifications of one post from members not hidden from the
    // recipient, as `newer_in_group` decides which one heads it: the head is the group's first.
    // Each part is materialized once (PostgreSQL ran the groups again for each head), and the
    // CROSS JOIN keeps SQLite's order: each head's group by `notifications_group_idx`, not a walk
    // of all the member's likes.
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "WITH heads AS MATERIALIZED ({page}), \
             ranked AS MATERIALIZED (SELECT * FROM ( \
                 SELECT g.type, g.post_id, g.actor_id, \
                        ROW_NUMBER() OVER (PARTITION BY g.type, g.post_id ORDER BY g.id DESC) AS place, \
                        COUNT(*) OVER (PARTITION BY g.type, g.post_id) AS size, \
                        SUM(CASE WHEN g.read_at IS NULL THEN 1 ELSE 0 END) OVER (PARTITION BY g.type, g.post_id) AS unread \
                 FROM heads h CROSS JOIN notifications g \
                 WHERE g.recipient_id = $1 AND g.type = h.type AND g.post_id = h.post_id AND h.type IN {GROUPED} \
                 AND NOT {hidden} \
             ) w WHERE place <= {GROUP_ACTORS}) \
             SELECT {columns}, CAST(COALESCE(r.size, 1) AS BIGINT) AS size, \
                    CAST(COALESCE(r.unread, CASE WHEN n.read_at IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS unread \
             FROM heads n LEFT JOIN ranked r ON r.type = n.type AND r.post_id = n.post_id \
             JOIN users u ON u.id = COALESCE(r.actor_id, n.actor_id) \
             LEFT JOIN posts p ON p.id = n.post_id AND n.post_id <> 0 \
             ORDER BY n.id DESC, r.place",
            page = page_sql(&format!("NOT {}", newer_in_group("$4", false))),
            hidden = crate::visibility::hidden(crate::visibility::Scope::Feeds { now: "$4" }, "$1", "g.actor_id"),
            columns = ROW_COLUMNS,
        )
    });
    let rows: Vec<GroupRow> = page_rows(pool, SQL.as_str(), recipient, kinds, page, now).await?;
    let mut groups: Vec<Group> = Vec::new();
    for GroupRow { row, size, unread } in rows {
        let actor = Actor {
            id: row.entry.actor_id,
            username: row.actor_username.clone(),
            display_name: row.actor_display_name.clone(),
            profile_image_url: row.actor_profile_image_url.clone(),
        };
        match groups.last_mut() {
            Some(group) if group.head.entry.id == row.entry.id => group.actors.push(actor),
            _ => groups.push(Group { head: row, size, unread, actors: vec![actor] }),
        }
    }
    Ok(groups)
}

/// Marks one of the member's notifications read, with the rest of its group (the likes or
/// reposts of one post are read as one); false when it is not theirs or unknown. Open tabs hear
/// of it only when one was unread.
pub async fn mark_read(conn: &mut AnyConnection, recipient: i64, id: i64, now: Millis) -> Result<bool> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "UPDATE notifications SET read_at = $1 WHERE recipient_id = $3 AND read_at IS NULL AND (id = $2 OR \
             (type IN {grouped} AND EXISTS (SELECT 1 FROM notifications o WHERE o.id = $2 AND o.recipient_id = $3 \
              AND o.type = notifications.type AND o.post_id = notifications.post_id)))",
            grouped = crate::live::counts::GROUPED
        )
    });
    let marked = sqlx::query(SQL.as_str()).bind(now).bind(id).bind(recipient).execute(&mut *conn).await?;
    if marked.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
        return Ok(true);
    }
    let theirs: Option<i64> = sqlx::query_scalar("SELECT 1 FROM notifications WHERE id = $1 AND recipient_id = $2")
        .bind(id)
        .bind(recipient)
        .fetch_optional(conn)
        .await?;
    Ok(theirs.is_some())
}

/// Marks every unread notification of the member read; open tabs hear of it only when there
/// was one.
pub async fn mark_all_read(conn: &mut AnyConnection, recipient: i64, now: Millis) -> Result<()> {
    let marked = sqlx::query("UPDATE notifications SET read_at = $1 WHERE recipient_id = $2 AND read_at IS NULL")
        .bind(now)
        .bind(recipient)
        .execute(conn)
        .await?;
    if marked.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
    }
    Ok(())
}

/// Marks the member's unread notifications up to `last_seen` (their ids) read; open tabs hear
/// of it only when there was one. `notifications::mark_seen` is its one caller.
pub(crate) async fn mark_read_up_to(
    conn: &mut AnyConnection,
    recipient: i64,
    last_seen: i64,
    now: Millis,
) -> Result<()> {
    let marked =
        sqlx::query("UPDATE notifications SET read_at = $1 WHERE recipient_id = $2 AND read_at IS NULL AND id <= $3")
            .bind(now)
            .bind(recipient)
            .bind(last_seen)
            .execute(conn)
            .await?;
    if marked.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
    }
    Ok(())
}

/// Deletes one of the member's notifications (an app's "dismiss"); false when it is not theirs.
pub async fn dismiss(conn: &mut AnyConnection, recipient: i64, id: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM notifications WHERE id = $1 AND recipient_id = $2")
        .bind(id)
        .bind(recipient)
        .execute(conn)
        .await?;
    if done.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
    }
    Ok(done.rows_affected() > 0)
}

/// Deletes every notification of the member (an app's "clear").
pub async fn clear(conn: &mut AnyConnection, recipient: i64) -> Result<()> {
    let done = sqlx::query("DELETE FROM notifications WHERE recipient_id = $1").bind(recipient).execute(conn).await?;
    if done.rows_affected() > 0 {
        crate::live::note(Change::Notified { member: recipient, new: false });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn the_grouped_kinds_are_the_ones_the_sql_groups() {
        let grouped: Vec<String> =
            Kind::ALL.iter().filter(|kind| kind.is_grouped()).map(|kind| format!("'{}'", kind.as_str())).collect();
        assert_eq!(crate::live::counts::GROUPED, format!("({})", grouped.join(", ")));
    }

    #[test]
    fn every_kind_is_parsed_from_its_name() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("favourite"), None);
    }
}
