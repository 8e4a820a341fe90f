//! Moderation queries: roles, reports, the actions' rows, the log, the queue and the invite
//! tree. The transactions that use them are in `actions`.

use sqlx::{AnyConnection, AssertSqlSafe};

use super::domain::{Action, ActionReason, Moderator, ReportReason, Role};
use crate::user_columns;
use crate::users::UserRow;
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::db::sql::{in_list, padded_values};
use murmur_core::error::Result;

// ---- roles ----------------------------------------------------------------------------------

/// The member's role; None when there is no such member.
pub async fn role_of(pool: &Pool, member: i64) -> Result<Option<Role>> {
    let role: Option<String> =
        sqlx::query_scalar("SELECT role FROM users WHERE id = $1").bind(member).fetch_optional(pool).await?;
    Ok(role.as_deref().map(Role::from_stored))
}

/// Gives the member called `username` a role (`murmur role set`); false when nobody is.
pub async fn set_role(pool: &Pool, username: &str, role: Role) -> Result<bool> {
    let done = sqlx::query("UPDATE users SET role = $1 WHERE username = $2")
        .bind(role.as_str())
        .bind(username.trim_start_matches('@').to_lowercase())
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// A member as an action sees them, inside its transaction.
#[derive(Debug, sqlx::FromRow)]
pub struct Target {
    pub id: i64,
    pub role: String,
}

impl Target {
    pub fn role(&self) -> Role {
        Role::from_stored(&self.role)
    }
}

pub async fn target(conn: &mut AnyConnection, member: i64) -> Result<Option<Target>> {
    // A deleted account is nobody to act on: lifting or shortening its endless suspension would
    // show its emptied row again (`accounts::leaving`).
    Ok(sqlx::query_as("SELECT id, role FROM users WHERE id = $1 AND deleted_at IS NULL")
        .bind(member)
        .fetch_optional(conn)
        .await?)
}

/// Takes the member's row lock (PostgreSQL) without changing it: a member's reports are made
/// one after the other, so two at once cannot both find no open report and both insert.
pub async fn lock_member(conn: &mut AnyConnection, member: i64) -> Result<bool> {
    let done = sqlx::query("UPDATE users SET role = role WHERE id = $1").bind(member).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

// ---- reports --------------------------------------------------------------------------------

/// A report as its reporter gets it back.
#[derive(Debug, sqlx::FromRow)]
pub struct ReportRow {
    pub id: i64,
    pub reason: String,
    pub comment: String,
    pub created_at: Millis,
}

/// What a report is about, as stored: the member, and the post when it is about one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Subject {
    pub member: i64,
    pub post: Option<i64>,
}

/// `AND post_id …` for a subject: `= $n`, or `IS NULL` for a report about the member.
fn post_is(post: Option<i64>, placeholder: &str) -> String {
    match post {
        Some(_) => format!("post_id = {placeholder}"),
        None => "post_id IS NULL".to_string(),
    }
}

/// Rewrites `reporter`'s open report of `subject` with a new reason and comment, and the post's
/// words as they are now; None when they have none open (index `reports_open_idx`).
pub async fn update_open_report(
    conn: &mut AnyConnection,
    reporter: i64,
    subject: Subject,
    reason: ReportReason,
    comment: &str,
) -> Result<Option<ReportRow>> {
    let sql = format!(
        "UPDATE reports SET reason = $1, comment = $2, \
                post_text = (SELECT p.content FROM posts p WHERE p.id = reports.post_id) \
         WHERE reporter_id = $3 AND member_id = $4 AND {} AND resolved_at IS NULL \
         RETURNING id, reason, comment, created_at",
        post_is(subject.post, "$5")
    );
    let mut query =
        sqlx::query_as(AssertSqlSafe(sql)).bind(reason.as_str()).bind(comment).bind(reporter).bind(subject.member);
    if let Some(post) = subject.post {
        query = query.bind(post);
    }
    Ok(query.fetch_optional(conn).await?)
}

/// A new report; one of a post keeps the post's words as they are now: its author may edit or
/// delete the post afterwards, and the moderators still see what was reported.
pub async fn insert_report(
    conn: &mut AnyConnection,
    reporter: i64,
    subject: Subject,
    reason: ReportReason,
    comment: &str,
    now: Millis,
) -> Result<ReportRow> {
    Ok(sqlx::query_as(
        "INSERT INTO reports (reporter_id, member_id, post_id, reason, comment, created_at, post_text) \
         VALUES ($1, $2, $3, $4, $5, $6, (SELECT p.content FROM posts p WHERE p.id = $3)) \
         RETURNING id, reason, comment, created_at",
    )
    .bind(reporter)
    .bind(subject.member)
    .bind(subject.post)
    .bind(reason.as_str())
    .bind(comment)
    .bind(now)
    .fetch_one(conn)
    .await?)
}

/// A report's subject and whether it is still open.
#[derive(Debug, sqlx::FromRow)]
pub struct ReportRef {
    pub member_id: i64,
    pub post_id: Option<i64>,
    pub resolved_at: Option<Millis>,
}

impl ReportRef {
    pub fn subject(&self) -> Subject {
        Subject { member: self.member_id, post: self.post_id }
    }
}

pub async fn find_report(conn: &mut AnyConnection, id: i64) -> Result<Option<ReportRef>> {
    Ok(sqlx::query_as("SELECT member_id, post_id, resolved_at FROM reports WHERE id = $1")
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// Resolves every open report of `subject` (index `reports_open_idx`); answers how many.
pub async fn resolve_subject(conn: &mut AnyConnection, subject: Subject, now: Millis) -> Result<u64> {
    let sql = format!(
        "UPDATE reports SET resolved_at = $1 WHERE member_id = $2 AND {} AND resolved_at IS NULL",
        post_is(subject.post, "$3")
    );
    let mut query = sqlx::query(AssertSqlSafe(sql)).bind(now).bind(subject.member);
    if let Some(post) = subject.post {
        query = query.bind(post);
    }
    Ok(query.execute(conn).await?.rows_affected())
}

/// Resolves every open report about a member or any of their posts (`reports_open_idx`).
pub async fn resolve_member(conn: &mut AnyConnection, member: i64, now: Millis) -> Result<u64> {
    let done = sqlx::query("UPDATE reports SET resolved_at = $1 WHERE member_id = $2 AND resolved_at IS NULL")
        .bind(now)
        .bind(member)
        .execute(conn)
        .await?;
    Ok(done.rows_affected())
}

// ---- the members' rows that actions change ----------------------------------------------------

/// Suspends a member until `until` (`Millis::MAX`: until lifted), or lifts it (None); false when
/// lifting found nothing to lift.
pub async fn set_suspended_until(conn: &mut AnyConnection, member: i64, until: Option<Millis>) -> Result<bool> {
    let sql = match until {
        Some(_) => "UPDATE users SET suspended_until = $1 WHERE id = $2",
        None => "UPDATE users SET suspended_until = $1 WHERE id = $2 AND suspended_until IS NOT NULL",
    };
    let done = sqlx::query(sql).bind(until).bind(member).execute(conn).await?;
    Ok(done.rows_affected() == 1)
}

/// Takes a member's invites away or gives them back; false when they already were so.
pub async fn set_invites_taken(conn: &mut AnyConnection, member: i64, taken: bool) -> Result<bool> {
    let done = sqlx::query("UPDATE users SET invites_taken = $1 WHERE id = $2 AND invites_taken <> $1")
        .bind(i64::from(taken))
        .bind(member)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Suspensions whose time is up end (upkeep): lists test `suspended_until IS NOT NULL`, so the
/// member's posts and profile show again. Answers how many ended.
pub async fn end_expired_suspensions(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE users SET suspended_until = NULL WHERE suspended_until IS NOT NULL AND suspended_until <= $1",
    )
    .bind(now)
    .execute(write)
    .await?;
    Ok(done.rows_affected())
}

// ---- the log --------------------------------------------------------------------------------

/// One action, as written to the log in the action's transaction.
pub struct LogWrite<'a> {
    pub action: Action,
    pub moderator: i64,
    pub member: i64,
    pub post: Option<i64>,
    /// The report a dismissal answered.
    pub report: Option<i64>,
    pub reason: &'a str,
    /// A suspension's end (none: until lifted).
    pub until: Option<Millis>,
}

impl<'a> LogWrite<'a> {
    /// `moderator`'s `action` on `member`, for `reason`; about no post, report or end.
    pub fn new(action: Action, moderator: &Moderator, member: i64, reason: &'a ActionReason) -> Self {
        LogWrite {
            action,
            moderator: moderator.id,
            member,
            post: None,
            report: None,
            reason: reason.as_str(),
            until: None,
        }
    }
}

/// Writes the log's row; answers its id.
pub async fn write_log(conn: &mut AnyConnection, entry: &LogWrite<'_>, now: Millis) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "INSERT INTO moderation_log (created_at, moderator_id, action, member_id, post_id, report_id, reason, until) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
    )
    .bind(now)
    .bind(entry.moderator)
    .bind(entry.action.as_str())
    .bind(entry.member)
    .bind(entry.post)
    .bind(entry.report)
    .bind(entry.reason)
    .bind(entry.until)
    .fetch_one(conn)
    .await?)
}

/// A log row with the names of its moderator and member (never its report's reporter).
#[derive(Debug, sqlx::FromRow)]
pub struct LogRow {
    pub id: i64,
    pub created_at: Millis,
    pub action: String,
    pub reason: String,
    pub post_id: Option<i64>,
    pub until: Option<Millis>,
    pub member_id: Option<i64>,
    pub moderator_username: Option<String>,
    pub moderator_display_name: Option<String>,
    /// The moderator's role now; NULL once their account is gone.
    pub moderator_role: Option<String>,
    pub member_username: Option<String>,
    pub member_display_name: Option<String>,
}

macro_rules! log_columns {
    () => {
        "l.id, l.created_at, l.action, l.reason, l.post_id, l.until, l.member_id, \
         m.username AS moderator_username, m.display_name AS moderator_display_name, m.role AS moderator_role, \
         u.username AS member_username, u.display_name AS member_display_name"
    };
}

macro_rules! log_joins {
    () => {
        " LEFT JOIN users m ON m.id = l.moderator_id LEFT JOIN users u ON u.id = l.member_id "
    };
}

/// The log, newest first (its primary key).
pub async fn log_page(pool: &Pool, limit: i64, offset: i64) -> Result<Vec<LogRow>> {
    const SQL: &str = concat!(
        "SELECT ",
        log_columns!(),
        " FROM moderation_log l",
        log_joins!(),
        "ORDER BY l.id DESC LIMIT $1 OFFSET $2"
    );
    Ok(sqlx::query_as(SQL).bind(limit).bind(offset).fetch_all(pool).await?)
}

pub async fn log_entry(pool: &Pool, id: i64) -> Result<Option<LogRow>> {
    const SQL: &str = concat!("SELECT ", log_columns!(), " FROM moderation_log l", log_joins!(), "WHERE l.id = $1");
    Ok(sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?)
}

/// The newest `per_member` log rows naming each of `members`, newest first
/// (`moderation_log_member_idx`).
pub async fn recent_actions(pool: &Pool, members: &[i64], per_member: i64) -> Result<Vec<LogRow>> {
    if members.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        concat!(
            "SELECT ",
            log_columns!(),
            " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY member_id ORDER BY id DESC) AS n \
                    FROM moderation_log WHERE member_id IN ({})) l",
            log_joins!(),
            "WHERE l.n <= $1 ORDER BY l.id DESC"
        ),
        in_list(2, members.len())
    );
    let mut query = sqlx::query_as(AssertSqlSafe(sql)).bind(per_member);
    for member in padded_values(members) {
        query = query.bind(member);
    }
    Ok(query.fetch_all(pool).await?)
}

// ---- the queue ------------------------------------------------------------------------------

/// An open report in the queue (never its reporter).
#[derive(Debug, sqlx::FromRow)]
pub struct OpenReportRow {
    pub id: i64,
    pub member_id: i64,
    pub post_id: Option<i64>,
    pub reason: String,
    pub comment: String,
    pub created_at: Millis,
    pub post_text: Option<String>,
    /// How many members reported its subject (open reports, each reporter once).
    pub subject_reports: i64,
}

impl OpenReportRow {
    pub fn subject(&self) -> Subject {
        Subject { member: self.member_id, post: self.post_id }
    }
}

/// A page of the queue's groups, as their newest `per_subject` open reports, newest first (so
/// the groups come in the order of their newest reports), each with how many members reported
/// its subject (counted for the page's subjects alone, from `reports_open_idx`).
///
/// The page's subjects: the open reports newest first (`reports_open_newest_idx`), each kept
/// when no newer open report is about its subject (`reports_member_idx`), up to the page's end;
/// it reads the page and the pages before it, never the whole queue. Their reports then come
/// from `reports_open_idx`.
pub async fn open_page(pool: &Pool, limit: i64, offset: i64, per_subject: i64) -> Result<Vec<OpenReportRow>> {
    Ok(sqlx::query_as(
        "WITH subjects AS ( \
             SELECT r.member_id, r.post_id FROM reports r \
             WHERE r.resolved_at IS NULL AND NOT EXISTS ( \
                 SELECT 1 FROM reports n WHERE n.member_id = r.member_id AND n.id > r.id AND n.resolved_at IS NULL \
                 AND (n.post_id = r.post_id OR (n.post_id IS NULL AND r.post_id IS NULL))) \
             ORDER BY r.id DESC LIMIT $1 OFFSET $2), \
         page AS ( \
             SELECT s.member_id, s.post_id, ( \
                 SELECT COUNT(DISTINCT c.reporter_id) FROM reports c \
                 WHERE c.member_id = s.member_id AND c.resolved_at IS NULL \
                 AND (c.post_id = s.post_id OR (c.post_id IS NULL AND s.post_id IS NULL))) AS reporters \
             FROM subjects s) \
         SELECT id, member_id, post_id, reason, comment, created_at, post_text, subject_reports FROM ( \
             SELECT r.id, r.member_id, r.post_id, r.reason, r.comment, r.created_at, r.post_text, \
                    ROW_NUMBER() OVER (PARTITION BY r.member_id, r.post_id ORDER BY r.id DESC) AS n, \
                    CAST(page.reporters AS BIGINT) AS subject_reports \
             FROM page JOIN reports r ON r.member_id = page.member_id \
                 AND (r.post_id = page.post_id OR (r.post_id IS NULL AND page.post_id IS NULL)) \
             WHERE r.resolved_at IS NULL) shown \
         WHERE n <= $3 ORDER BY id DESC",
    )
    .bind(limit)
    .bind(offset)
    .bind(per_subject)
    .fetch_all(pool)
    .await?)
}

/// A reported member, with how many resolved reports there were about them or their posts
/// (`reports_member_idx`).
#[derive(Debug, sqlx::FromRow)]
pub struct ReportedMemberRow {
    #[sqlx(flatten)]
    pub member: UserRow,
    pub earlier_reports: i64,
}

pub async fn reported_members(pool: &Pool, ids: &[i64]) -> Result<Vec<ReportedMemberRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        concat!(
            "SELECT ",
            user_columns!(),
            ", (SELECT CAST(COUNT(*) AS BIGINT) FROM reports r \
               WHERE r.member_id = users.id AND r.resolved_at IS NOT NULL) AS earlier_reports \
             FROM users WHERE id IN ({})"
        ),
        in_list(1, ids.len())
    );
    let mut query = sqlx::query_as(AssertSqlSafe(sql));
    for id in padded_values(ids) {
        query = query.bind(id);
    }
    Ok(query.fetch_all(pool).await?)
}

// ---- the invite tree ----------------------------------------------------------------------------

/// A member in the invite tree.
#[derive(Debug, sqlx::FromRow)]
pub struct TreeRow {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub suspended_until: Option<Millis>,
    pub invites_taken: i64,
    pub invited_by: Option<i64>,
    /// How many members they invited (`users_invited_by_idx`).
    pub invited_count: i64,
}

macro_rules! tree_columns {
    () => {
        "u.id, u.username, u.display_name, u.suspended_until, u.invites_taken, u.invited_by, \
         (SELECT CAST(COUNT(*) AS BIGINT) FROM users c WHERE c.invited_by = u.id) AS invited_count"
    };
}

pub async fn tree_member(pool: &Pool, id: i64) -> Result<Option<TreeRow>> {
    const SQL: &str = concat!("SELECT ", tree_columns!(), " FROM users u WHERE u.id = $1");
    Ok(sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?)
}

/// A page of the members `inviter` invited, in the order they joined (`users_invited_by_idx`).
pub async fn invited_by(pool: &Pool, inviter: i64, limit: i64, offset: i64) -> Result<Vec<TreeRow>> {
    const SQL: &str =
        concat!("SELECT ", tree_columns!(), " FROM users u WHERE u.invited_by = $1 ORDER BY u.id LIMIT $2 OFFSET $3");
    Ok(sqlx::query_as(SQL).bind(inviter).bind(limit).bind(offset).fetch_all(pool).await?)
}
