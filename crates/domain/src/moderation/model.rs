//! Moderation as the API shows it: reports, the queue's groups, log entries and the invite
//! tree. No type here names a reporter.

use serde::Serialize;
use utoipa::ToSchema;

use super::domain::{Action, ReportReason, Role, is_suspended};
use super::store::{LogRow, OpenReportRow, ReportRow, TreeRow};
use crate::posts::Post;
use crate::users::User;
use murmur_core::clock::{Millis, to_rfc3339};

/// A report as its reporter gets it back, and as the queue lists it (without who sent it).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub id: i64,
    #[schema(value_type = ReportReason)]
    pub reason: String,
    /// Empty when none was given.
    pub comment: String,
    /// RFC 3339.
    pub created_at: String,
    /// The post's words when it was reported (its author may have edited or deleted it since),
    /// for the moderators: null in a reporter's own answer (the post may be one they cannot
    /// see) and for a report about a member.
    pub post_text: Option<String>,
    /// The messages the reporter chose from a conversation, as they read then, for the
    /// moderators (empty in a reporter's own answer and for other reports). Moderators read
    /// nothing else of a conversation.
    pub messages: Vec<ReportedMessage>,
}

/// A message a report holds, as it read when reported.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedMessage {
    pub id: i64,
    /// Who wrote it; null once they left Murmur.
    pub author_username: Option<String>,
    /// Empty when it had been deleted, or its author left Murmur.
    pub content: String,
    /// RFC 3339.
    pub sent_at: String,
}

impl From<crate::messages::Reported> for ReportedMessage {
    fn from(message: crate::messages::Reported) -> Self {
        ReportedMessage {
            id: message.id,
            author_username: message.author_username,
            content: message.content,
            sent_at: to_rfc3339(message.sent_at),
        }
    }
}

impl From<ReportRow> for Report {
    fn from(row: ReportRow) -> Self {
        Report {
            id: row.id,
            reason: row.reason,
            comment: row.comment,
            created_at: to_rfc3339(row.created_at),
            post_text: None,
            messages: Vec::new(),
        }
    }
}

impl From<OpenReportRow> for Report {
    fn from(row: OpenReportRow) -> Self {
        Report {
            id: row.id,
            reason: row.reason,
            comment: row.comment,
            created_at: to_rfc3339(row.created_at),
            post_text: row.post_text,
            messages: Vec::new(),
        }
    }
}

/// What a group of the queue is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Subject {
    Post,
    Member,
}

/// The open reports of one post or one member.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportGroup {
    /// The newest open report's id: the one a dismissal names.
    pub id: i64,
    pub target: Subject,
    /// The post reported, with its text even when it was removed (null for a member).
    pub post: Option<Post>,
    /// The reported post's id, to open it in its thread (`/post/{id}` in the web app, which
    /// shows a reply under the posts it answers); null for a member.
    pub post_id: Option<i64>,
    /// The member reported, or the post's author.
    pub member: User,
    /// How many members reported it (its open reports, each reporter counted once; never who).
    pub report_count: i64,
    /// The newest open reports, newest first (at most 20).
    pub reports: Vec<Report>,
    pub history: History,
}

/// What happened before about the member (reported, or the post's author).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct History {
    /// Reports about them or their posts that were resolved.
    pub earlier_reports: i64,
    /// The newest actions about them or their posts, newest first (at most 10).
    pub actions: Vec<LogEntry>,
}

/// A member as the log names them.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogMember {
    pub username: String,
    pub display_name: String,
}

/// Who acted, as every member reads it: the role, not the person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ActedAs {
    Moderator,
    Admin,
}

/// Whose names a reader of the log sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogReader {
    /// Moderators and admins: which of them acted.
    Moderators,
    /// Everyone else: only the role ("a moderator"), so no member is singled out for an action.
    Member,
}

impl LogReader {
    pub fn of(role: Role) -> LogReader {
        match role {
            Role::Member => LogReader::Member,
            Role::Moderator | Role::Admin => LogReader::Moderators,
        }
    }
}

/// One action in the moderation log.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogEntry {
    pub id: i64,
    /// RFC 3339.
    pub created_at: String,
    pub action: Action,
    pub reason: String,
    /// The role of whoever acted, as they hold it now ("moderator" also once their account is
    /// gone or they are a moderator no more): what members read ("by a moderator").
    pub moderator_role: ActedAs,
    /// Which moderator acted: for moderators and admins only (null for everyone else), and null
    /// once the moderator's account is gone.
    pub moderator: Option<LogMember>,
    /// The member acted on (for a post: its author); null once their account is gone.
    pub member: Option<LogMember>,
    pub post_id: Option<i64>,
    /// RFC 3339: when a suspension ends; null for one until lifted and for other actions.
    pub until: Option<String>,
}

impl LogEntry {
    /// None for a row whose action this server does not know (the schema allows none).
    pub fn from_row(row: LogRow, reader: LogReader) -> Option<LogEntry> {
        let named = |username: Option<String>, display_name: Option<String>| {
            username.map(|username| LogMember { username, display_name: display_name.unwrap_or_default() })
        };
        Some(LogEntry {
            id: row.id,
            created_at: to_rfc3339(row.created_at),
            action: Action::from_stored(&row.action)?,
            reason: row.reason,
            moderator_role: match row.moderator_role.as_deref().map(Role::from_stored) {
                Some(Role::Admin) => ActedAs::Admin,
                _ => ActedAs::Moderator,
            },
            moderator: match reader {
                LogReader::Moderators => named(row.moderator_username, row.moderator_display_name),
                LogReader::Member => None,
            },
            member: named(row.member_username, row.member_display_name),
            post_id: row.post_id,
            until: row.until.map(to_rfc3339),
        })
    }
}

/// Whether a member may use the instance now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Active,
    Suspended,
}

/// A member in the invite tree.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TreeMember {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub status: Status,
    pub invites_taken: bool,
    /// How many members signed up with their invites.
    pub invited_count: i64,
}

impl TreeMember {
    pub fn at(row: TreeRow, now: Millis) -> TreeMember {
        TreeMember {
            id: row.id,
            username: row.username,
            display_name: row.display_name,
            status: if is_suspended(row.suspended_until, now) { Status::Suspended } else { Status::Active },
            invites_taken: row.invites_taken != 0,
            invited_count: row.invited_count,
        }
    }
}

/// A member's branch of the invite tree: who invited them and whom they invited.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InviteTree {
    pub member: TreeMember,
    /// Null: they signed up with a code the instance's operator made.
    pub invited_by: Option<TreeMember>,
    /// A page of the members they invited, in the order they joined.
    pub invited: Vec<TreeMember>,
}
