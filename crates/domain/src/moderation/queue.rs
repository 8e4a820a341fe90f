//! The moderators' queue: open reports grouped by what they are about (a post, or a member),
//! the most recently reported first, each group with its post or member and their history.
//!
//! A page costs a fixed number of statements whatever the queue holds: the page's groups with
//! their newest reports and counts, then for all of its groups at once the members with their
//! earlier reports, their last actions, and the posts. No group scans all of its reports.

use std::collections::HashMap;

use super::model::{History, LogEntry, LogReader, Report, ReportGroup, Subject};
use super::store;
use crate::posts::Post;
use crate::posts::hydrate::{self, Selection};
use crate::users::User;
use murmur_core::db::Db;
use murmur_core::error::Result;
use murmur_core::page::Page;

/// Open reports shown per group, and earlier actions per member.
const REPORTS_SHOWN: i64 = 20;
const ACTIONS_SHOWN: i64 = 10;

/// A group of a page before its member, history and post are read.
struct Group {
    subject: store::Subject,
    newest: i64,
    report_count: i64,
    reports: Vec<Report>,
}

/// A page of the queue, as `moderator` reads it.
pub async fn page(db: &Db, moderator: i64, page: Page) -> Result<Vec<ReportGroup>> {
    let read = &db.read;
    // The rows come newest first: a group's first row is its newest report, and the groups
    // come in the order of their first rows.
    let mut groups: Vec<Group> = Vec::new();
    let mut index: HashMap<store::Subject, usize> = HashMap::new();
    for row in store::open_page(read, page.limit, page.offset, REPORTS_SHOWN).await? {
        let at = *index.entry(row.subject()).or_insert_with(|| {
            groups.push(Group {
                subject: row.subject(),
                newest: row.id,
                report_count: row.subject_reports,
                reports: vec![],
            });
            groups.len() - 1
        });
        groups[at].reports.push(row.into());
    }
    let mut members: Vec<i64> = groups.iter().map(|g| g.subject.member).collect();
    members.sort_unstable();
    members.dedup();
    let post_ids: Vec<i64> = groups.iter().filter_map(|g| g.subject.post).collect();

    let mut actions: HashMap<i64, Vec<LogEntry>> = HashMap::new();
    for row in store::recent_actions(read, &members, ACTIONS_SHOWN).await? {
        if let (Some(member), Some(entry)) = (row.member_id, LogEntry::from_row(row, LogReader::Moderators)) {
            actions.entry(member).or_default().push(entry);
        }
    }
    let users: HashMap<i64, (User, i64)> = store::reported_members(read, &members)
        .await?
        .into_iter()
        .map(|row| (row.member.id, (row.member.public(), row.earlier_reports)))
        .collect();
    // A removed post keeps its text for its author and the moderators.
    let mut posts: HashMap<i64, Post> =
        hydrate::list_for_moderators(read, db.backend, moderator, &Selection::ids(&post_ids))
            .await?
            .into_iter()
            .map(|post| (post.id, post))
            .collect();

    let report_ids: Vec<i64> = groups.iter().flat_map(|g| g.reports.iter().map(|r| r.id)).collect();
    let mut reported = crate::messages::reported(db, &report_ids).await?;
    for report in groups.iter_mut().flat_map(|g| g.reports.iter_mut()) {
        if let Some(messages) = reported.remove(&report.id) {
            report.messages = messages.into_iter().map(Into::into).collect();
        }
    }

    let mut answer = Vec::with_capacity(groups.len());
    for group in groups {
        let member_id = group.subject.member;
        let Some((member, earlier_reports)) = users.get(&member_id).cloned() else { continue };
        answer.push(ReportGroup {
            id: group.newest,
            target: if group.subject.post.is_some() { Subject::Post } else { Subject::Member },
            post: group.subject.post.and_then(|id| posts.remove(&id)),
            post_id: group.subject.post,
            member,
            report_count: group.report_count,
            reports: group.reports,
            history: History { earlier_reports, actions: actions.get(&member_id).cloned().unwrap_or_default() },
        });
    }
    Ok(answer)
}
