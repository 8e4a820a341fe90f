//! The moderators' queue: open reports grouped by what they are about (a post, or a member),
//! the most recently reported first, each group with its post or member and their history.
//!
//! A page costs a fixed number of statements whatever the queue holds: the page of groups, then
//! for all of its groups at once their newest reports with their counts, the members with
//! their earlier reports, their last actions, and the posts. No group scans all of its reports.

use std::collections::HashMap;

use super::model::{History, LogEntry, Report, ReportGroup, Subject};
use super::store;
use crate::api::Page;
use crate::db::Db;
use crate::error::Result;
use crate::posts::Post;
use crate::posts::hydrate::{self, Selection};
use crate::users::User;

/// Open reports shown per group, and earlier actions per member.
const REPORTS_SHOWN: i64 = 20;
const ACTIONS_SHOWN: i64 = 10;

/// A page of the queue, as `moderator` reads it.
pub async fn page(db: &Db, moderator: i64, page: Page) -> Result<Vec<ReportGroup>> {
    let read = &db.read;
    let groups = store::open_groups(read, page.limit, page.offset).await?;
    let mut members: Vec<i64> = groups.iter().map(|g| g.member_id).collect();
    members.sort_unstable();
    members.dedup();
    let post_ids: Vec<i64> = groups.iter().filter_map(|g| g.post_id).collect();

    let mut reports: HashMap<store::Subject, (i64, Vec<Report>)> = HashMap::new();
    for row in store::open_reports(read, &members, REPORTS_SHOWN).await? {
        let subject = reports.entry(row.subject()).or_default();
        subject.0 = row.subject_reports;
        subject.1.push(row.into());
    }
    let mut actions: HashMap<i64, Vec<LogEntry>> = HashMap::new();
    for row in store::recent_actions(read, &members, ACTIONS_SHOWN).await? {
        if let (Some(member), Some(entry)) = (row.member_id, LogEntry::from_row(row)) {
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

    let mut answer = Vec::with_capacity(groups.len());
    for group in groups {
        let Some((member, earlier_reports)) = users.get(&group.member_id).cloned() else { continue };
        // Resolved between this page's statements: no longer in the queue.
        let Some((report_count, reports)) = reports.remove(&group.subject()) else { continue };
        answer.push(ReportGroup {
            id: group.newest,
            target: if group.post_id.is_some() { Subject::Post } else { Subject::Member },
            post: group.post_id.and_then(|id| posts.remove(&id)),
            member,
            report_count,
            reports,
            history: History { earlier_reports, actions: actions.get(&group.member_id).cloned().unwrap_or_default() },
        });
    }
    Ok(answer)
}
