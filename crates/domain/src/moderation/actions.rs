//! The writes of moderation, each one transaction on the writer: a member's report, and every
//! moderator's action together with its row in the log (an action without its entry, or an
//! entry without its action, can never be seen). The routes parse the request and answer; the
//! transactions are here.

use sqlx::{Any, AnyConnection, Connection, Transaction};

use super::domain::Moderator;
use super::domain::{Action, ActionReason, Comment, ReportReason, ReportTarget, Suspension, may_act_on};
use super::store::{self, LogWrite, ReportRow, Subject, Target};
use crate::notifications::{self, Kind};
use crate::posts::store::{self as posts, TakenDownBy};
use crate::posts::writes::take_down;
use crate::timelines::changes;
use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, MemberLimit};

const USER_NOT_FOUND: &str = "User not found";
const POST_NOT_FOUND: &str = "Post not found";

/// Reports a post or a member. A member's open report of the same subject is rewritten with
/// the new reason and comment instead of a second one being made (same id).
pub async fn report(
    db: &Db,
    reporter: i64,
    target: ReportTarget,
    reason: ReportReason,
    comment: &Comment,
    now: Millis,
) -> Result<ReportRow> {
    let mut writer = rate_limit::count_member_then_take_writer(
        db,
        MemberLimit::Report,
        reporter,
        now,
        "You have sent many reports in a short time. Please wait a while before sending another.",
    )
    .await?;
    let mut tx = writer.begin().await?;
    // The reporter's row first: their reports of one subject are made one after the other.
    store::lock_member(&mut tx, reporter).await?;
    let mut messages = None;
    let subject = match target {
        ReportTarget::Member(member) => {
            if member == reporter {
                return Err(Error::bad_request("You can't report yourself"));
            }
            store::target(&mut tx, member).await?.ok_or_else(|| Error::not_found(USER_NOT_FOUND))?;
            Subject { member, post: None }
        }
        // A repost's card shows its original: that is what is reported.
        ReportTarget::Post(id) => {
            let post = posts::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found(POST_NOT_FOUND))?;
            if post.author_id == reporter {
                return Err(Error::bad_request("You can't report your own post"));
            }
            Subject { member: post.author_id, post: Some(post.id) }
        }
        // Messages: a report about their author, holding the messages chosen.
        ReportTarget::Messages(ref ids) => {
            let chosen = crate::messages::for_report(&mut tx, reporter, ids).await?;
            let subject = Subject { member: chosen.member, post: None };
            messages = Some(chosen);
            subject
        }
    };
    let row = match store::update_open_report(&mut tx, reporter, subject, reason, comment.as_str()).await? {
        Some(row) => row,
        None => store::insert_report(&mut tx, reporter, subject, reason, comment.as_str(), now).await?,
    };
    if let Some(messages) = &messages {
        messages.keep(&mut tx, row.id).await?;
    }
    tx.commit().await?;
    Ok(row)
}

/// Writes the action's log entry and commits its transaction: every action ends so, so none is
/// without its entry. Answers the entry's id.
async fn log_and_commit(mut tx: Transaction<'_, Any>, entry: &LogWrite<'_>, now: Millis) -> Result<i64> {
    let logged = store::write_log(&mut tx, entry, now).await?;
    tx.commit().await?;
    Ok(logged)
}

/// The member an action is on, as they stand in its transaction, once the rule allows it:
/// 404 for nobody, 403 for the moderator themselves or (for a moderator) an admin.
async fn target_of(conn: &mut AnyConnection, moderator: &Moderator, member: i64) -> Result<Target> {
    let target = store::target(conn, member).await?.ok_or_else(|| Error::not_found(USER_NOT_FOUND))?;
    may_act_on(moderator.id, moderator.role, target.id, target.role())?;
    Ok(target)
}

/// Dismisses report `id` and every other open report of its subject; answers the log entry.
pub async fn dismiss(db: &Db, moderator: &Moderator, id: i64, reason: &ActionReason, now: Millis) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    let report = store::find_report(&mut tx, id).await?.ok_or_else(|| Error::not_found("Report not found"))?;
    if report.resolved_at.is_some() {
        return Err(Error::conflict("This report was already resolved"));
    }
    target_of(&mut tx, moderator, report.member_id).await?;
    store::resolve_subject(&mut tx, report.subject(), now).await?;
    log_and_commit(
        tx,
        &LogWrite {
            post: report.post_id,
            report: Some(id),
            ..LogWrite::new(Action::Dismiss, moderator, report.member_id, reason)
        },
        now,
    )
    .await
}

/// Removes a post (a repost: its original) for everyone but its author, the way its author's
/// delete takes it out of every list, timeline, count and notification; tells the author why,
/// and resolves the post's open reports. Answers the log entry.
pub async fn remove_post(db: &Db, moderator: &Moderator, id: i64, reason: &ActionReason, now: Millis) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    let post = posts::live_original(&mut tx, id).await?.ok_or_else(|| Error::not_found(POST_NOT_FOUND))?;
    target_of(&mut tx, moderator, post.author_id).await?;
    // The author's row first, as their own delete takes it (`timelines::changes`).
    let changing = changes::member_changed(&mut tx, post.author_id).await?;
    take_down(&mut tx, &changing, &post, now, TakenDownBy::Moderators).await?;
    notifications::notify(&mut tx, post.author_id, moderator.id, Kind::Removed, post.id, now).await?;
    store::resolve_subject(&mut tx, Subject { member: post.author_id, post: Some(post.id) }, now).await?;
    log_and_commit(
        tx,
        &LogWrite { post: Some(post.id), ..LogWrite::new(Action::RemovePost, moderator, post.author_id, reason) },
        now,
    )
    .await
}

/// Suspends a member: every session of theirs ends now, and their open reports are resolved.
/// Suspending a suspended member sets the new end. Answers the log entry.
pub async fn suspend(
    db: &Db,
    moderator: &Moderator,
    member: i64,
    suspension: Suspension,
    reason: &ActionReason,
    now: Millis,
) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    target_of(&mut tx, moderator, member).await?;
    store::set_suspended_until(&mut tx, member, Some(suspension.until(now))).await?;
    crate::sessions::end_all(&mut tx, member).await?;
    store::resolve_member(&mut tx, member, now).await?;
    log_and_commit(
        tx,
        &LogWrite { until: suspension.logged_until(now), ..LogWrite::new(Action::Suspend, moderator, member, reason) },
        now,
    )
    .await
}

/// Lifts a member's suspension; 409 when they are not suspended. Answers the log entry.
pub async fn unsuspend(db: &Db, moderator: &Moderator, member: i64, reason: &ActionReason, now: Millis) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    target_of(&mut tx, moderator, member).await?;
    if !store::set_suspended_until(&mut tx, member, None).await? {
        return Err(Error::conflict("This member is not suspended"));
    }
    log_and_commit(tx, &LogWrite::new(Action::Unsuspend, moderator, member, reason), now).await
}

/// Takes a member's invites away (no new codes; their unused codes stop working) or gives them
/// back; 409 when they already are so. Answers the log entry.
pub async fn set_invites(
    db: &Db,
    moderator: &Moderator,
    member: i64,
    allowed: bool,
    reason: &ActionReason,
    now: Millis,
) -> Result<i64> {
    let mut tx = db.write.begin().await?;
    target_of(&mut tx, moderator, member).await?;
    if !store::set_invites_taken(&mut tx, member, !allowed).await? {
        return Err(Error::conflict(if allowed {
            "This member's invites were not taken away"
        } else {
            "This member's invites are already taken away"
        }));
    }
    log_and_commit(
        tx,
        &LogWrite::new(if allowed { Action::GiveInvites } else { Action::TakeInvites }, moderator, member, reason),
        now,
    )
    .await
}
