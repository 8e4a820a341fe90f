//! What moderation takes as input, parsed at the edge (a report's reason and comment, an
//! action's reason, a suspension's days, a role), and the one rule about who may act on whom.

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use murmur_core::clock::{DAY, Millis};
use murmur_core::error::{Error, Result};
use murmur_core::text::{self, Kind};

pub const ONLY_MODERATORS: &str = "Only moderators can do this";
pub const NOT_ON_YOURSELF: &str = "You can't act on yourself";
pub const NOT_ON_AN_ADMIN: &str = "Moderators can't act on an admin";
pub use crate::users::model::{SUSPENDED, is_suspended};
/// What a member whose invites were taken is told when they ask for a new code.
pub const INVITES_TAKEN: &str = "Your invites were taken away by moderators";

/// A comment on a report, and an action's reason, are at most this many code points (the
/// schema's checks count the same way).
pub const TEXT_MAX_CHARS: usize = 1000;
pub const SUSPENSION_MAX_DAYS: i64 = 3650;

/// What a member may do on the instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Member,
    Moderator,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Member => "member",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// The role as stored; anything else (the schema allows nothing else) is a plain member.
    pub fn from_stored(stored: &str) -> Role {
        stored.parse().unwrap_or(Role::Member)
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Role, String> {
        match s {
            "member" => Ok(Role::Member),
            "moderator" => Ok(Role::Moderator),
            "admin" => Ok(Role::Admin),
            other => Err(format!("`{other}` is not a role: member, moderator or admin")),
        }
    }
}

/// Refuses (403) an action of `actor` (with `actor_role`) on the member `target` (with
/// `target_role`): nobody acts on themselves, and a moderator does not act on an admin. Every
/// action calls it, in its transaction, with the target's role as it stands there.
pub fn may_act_on(actor: i64, actor_role: Role, target: i64, target_role: Role) -> Result<()> {
    if actor_role == Role::Member {
        return Err(Error::forbidden(ONLY_MODERATORS));
    }
    if actor == target {
        return Err(Error::forbidden(NOT_ON_YOURSELF));
    }
    if actor_role == Role::Moderator && target_role == Role::Admin {
        return Err(Error::forbidden(NOT_ON_AN_ADMIN));
    }
    Ok(())
}

/// Why a member reports a post or a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportReason {
    Spam,
    Harassment,
    Impersonation,
    Other,
}

impl ReportReason {
    pub fn parse(raw: &str) -> Result<ReportReason> {
        match raw {
            "spam" => Ok(ReportReason::Spam),
            "harassment" => Ok(ReportReason::Harassment),
            "impersonation" => Ok(ReportReason::Impersonation),
            "other" => Ok(ReportReason::Other),
            _ => Err(Error::bad_request("Choose a reason: spam, harassment, impersonation or other")),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ReportReason::Spam => "spam",
            ReportReason::Harassment => "harassment",
            ReportReason::Impersonation => "impersonation",
            ReportReason::Other => "other",
        }
    }
}

/// What a report is about: one post (its original, for a repost), one member, or the messages
/// of one member that the reporter chose from a conversation (`messages::for_report`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportTarget {
    Post(i64),
    Member(i64),
    Messages(Vec<i64>),
}

impl ReportTarget {
    /// Exactly one of the three.
    pub fn parse(post_id: Option<i64>, user_id: Option<i64>, message_ids: Option<Vec<i64>>) -> Result<ReportTarget> {
        match (post_id, user_id, message_ids) {
            (Some(post), None, None) => Ok(ReportTarget::Post(post)),
            (None, Some(member), None) => Ok(ReportTarget::Member(member)),
            (None, None, Some(ids)) => Ok(ReportTarget::Messages(ids)),
            (None, None, None) => Err(Error::bad_request("Say what you report: a postId, a userId or messageIds")),
            _ => Err(Error::bad_request("Report one thing at a time: a postId, a userId or messageIds")),
        }
    }
}

/// A report's optional comment: trimmed, at most 1000 code points, and as `text` has a
/// member's text (NFC; no control characters but line breaks and tabs, no text-direction
/// controls, not only invisible characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment(String);

impl Comment {
    pub fn parse(raw: Option<&str>) -> Result<Comment> {
        let text = text::normalize(Kind::ReportComment, raw.unwrap_or_default().trim())?;
        if text.chars().count() > TEXT_MAX_CHARS {
            return Err(Error::bad_request(format!("A comment can be at most {TEXT_MAX_CHARS} characters long")));
        }
        Ok(Comment(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Why a moderator acts, which every member reads in the log: trimmed, 1 to 1000 code points,
/// and as `text` has a member's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionReason(String);

impl ActionReason {
    pub fn parse(raw: &str) -> Result<ActionReason> {
        let text = text::normalize(Kind::ModerationReason, raw.trim())?;
        if text.is_empty() {
            return Err(Error::bad_request("Please give a reason"));
        }
        if text.chars().count() > TEXT_MAX_CHARS {
            return Err(Error::bad_request(format!("A reason can be at most {TEXT_MAX_CHARS} characters long")));
        }
        Ok(ActionReason(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How long a suspension lasts: 1 to 3650 days, or until a moderator lifts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspension {
    Days(i64),
    UntilLifted,
}

impl Suspension {
    pub fn parse(days: Option<i64>) -> Result<Suspension> {
        match days {
            None => Ok(Suspension::UntilLifted),
            Some(days) if (1..=SUSPENSION_MAX_DAYS).contains(&days) => Ok(Suspension::Days(days)),
            Some(_) => Err(Error::bad_request(format!("days must be between 1 and {SUSPENSION_MAX_DAYS}"))),
        }
    }

    /// `users.suspended_until` for a suspension starting at `now` (the largest value: until lifted).
    pub fn until(self, now: Millis) -> Millis {
        match self {
            Suspension::Days(days) => now + days * DAY,
            Suspension::UntilLifted => Millis::MAX,
        }
    }

    /// What the log shows as its end: none for a suspension until lifted.
    pub fn logged_until(self, now: Millis) -> Option<Millis> {
        match self {
            Suspension::Days(_) => Some(self.until(now)),
            Suspension::UntilLifted => None,
        }
    }
}

/// What a moderator did, as the log names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Dismiss,
    RemovePost,
    Suspend,
    Unsuspend,
    TakeInvites,
    GiveInvites,
}

impl Action {
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Dismiss => "dismiss",
            Action::RemovePost => "remove_post",
            Action::Suspend => "suspend",
            Action::Unsuspend => "unsuspend",
            Action::TakeInvites => "take_invites",
            Action::GiveInvites => "give_invites",
        }
    }

    /// The action as stored (the schema's check allows no other).
    pub fn from_stored(stored: &str) -> Option<Action> {
        [
            Action::Dismiss,
            Action::RemovePost,
            Action::Suspend,
            Action::Unsuspend,
            Action::TakeInvites,
            Action::GiveInvites,
        ]
        .into_iter()
        .find(|action| action.as_str() == stored)
    }
}

/// The moderator or admin acting, with their role as stored when it began.
#[derive(Clone, Debug)]
pub struct Moderator {
    pub id: i64,
    pub role: Role,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(result: Result<()>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn nobody_acts_on_themselves_and_moderators_not_on_admins() {
        use Role::*;
        assert!(may_act_on(1, Moderator, 2, Member).is_ok());
        assert!(may_act_on(1, Moderator, 2, Moderator).is_ok());
        assert!(may_act_on(1, Admin, 2, Admin).is_ok());
        assert!(may_act_on(1, Admin, 2, Moderator).is_ok());
        assert_eq!(refusal(may_act_on(1, Moderator, 2, Admin)), NOT_ON_AN_ADMIN);
        assert_eq!(refusal(may_act_on(1, Admin, 1, Admin)), NOT_ON_YOURSELF);
        assert_eq!(refusal(may_act_on(1, Moderator, 1, Moderator)), NOT_ON_YOURSELF);
        assert_eq!(refusal(may_act_on(1, Member, 2, Member)), ONLY_MODERATORS);
    }

    #[test]
    fn a_suspension_ends_when_its_time_is_up() {
        assert!(!is_suspended(None, 1_000));
        assert!(is_suspended(Some(1_001), 1_000));
        assert!(!is_suspended(Some(1_000), 1_000));
        assert!(is_suspended(Some(Suspension::UntilLifted.until(1_000)), i64::MAX - 1));
    }

    #[test]
    fn suspensions_last_whole_days_or_until_lifted() {
        assert_eq!(Suspension::parse(None).unwrap(), Suspension::UntilLifted);
        assert_eq!(Suspension::parse(Some(3)).unwrap().until(10), 10 + 3 * DAY);
        assert_eq!(Suspension::parse(Some(3)).unwrap().logged_until(10), Some(10 + 3 * DAY));
        assert_eq!(Suspension::UntilLifted.until(10), i64::MAX);
        assert_eq!(Suspension::UntilLifted.logged_until(10), None);
        for bad in [0, -1, 3651] {
            assert_eq!(Suspension::parse(Some(bad)).unwrap_err().to_string(), "days must be between 1 and 3650");
        }
    }

    #[test]
    fn a_report_names_exactly_one_target_with_a_known_reason() {
        assert_eq!(ReportTarget::parse(Some(5), None, None).unwrap(), ReportTarget::Post(5));
        assert_eq!(ReportTarget::parse(None, Some(7), None).unwrap(), ReportTarget::Member(7));
        assert_eq!(ReportTarget::parse(None, None, Some(vec![3])).unwrap(), ReportTarget::Messages(vec![3]));
        assert!(ReportTarget::parse(None, None, None).is_err());
        assert!(ReportTarget::parse(Some(5), Some(7), None).is_err());
        assert!(ReportTarget::parse(None, Some(7), Some(vec![3])).is_err());
        for reason in ["spam", "harassment", "impersonation", "other"] {
            assert_eq!(ReportReason::parse(reason).unwrap().as_str(), reason);
        }
        for bad in ["", "Spam", "abuse"] {
            assert!(ReportReason::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn comments_and_reasons_are_trimmed_and_at_most_1000_characters() {
        assert_eq!(Comment::parse(None).unwrap().as_str(), "");
        assert_eq!(Comment::parse(Some("  fake account \n")).unwrap().as_str(), "fake account");
        assert!(Comment::parse(Some(&"é".repeat(1000))).is_ok(), "characters, not bytes");
        assert!(Comment::parse(Some(&"a".repeat(1001))).is_err());
        assert!(Comment::parse(Some("a\0b")).is_err());
        assert_eq!(ActionReason::parse(" spam wave ").unwrap().as_str(), "spam wave");
        assert_eq!(ActionReason::parse("  ").unwrap_err().to_string(), "Please give a reason");
        assert!(ActionReason::parse(&"ü".repeat(1000)).is_ok());
        assert!(ActionReason::parse(&"a".repeat(1001)).is_err());
    }

    #[test]
    fn roles_and_actions_read_as_stored() {
        for role in [Role::Member, Role::Moderator, Role::Admin] {
            assert_eq!(role.as_str().parse::<Role>().unwrap(), role);
        }
        assert!("owner".parse::<Role>().is_err());
        assert_eq!(Role::from_stored("admin"), Role::Admin);
        for action in ["dismiss", "remove_post", "suspend", "unsuspend", "take_invites", "give_invites"] {
            assert_eq!(Action::from_stored(action).unwrap().as_str(), action);
        }
        assert_eq!(Action::from_stored("ban"), None);
    }
}
