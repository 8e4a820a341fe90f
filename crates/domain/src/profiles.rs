//! A member's profile as a viewer may see it, one rule for both interfaces: the member a name
//! finds (a name given up lately still finds them), who sees a suspended member, what a block
//! leaves of a profile, and the posts, counts and follow lists of a member hidden from the
//! viewer (none).

use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;

use crate::accounts::leaving;
use crate::moderation::{self, Role};
use crate::posts::{Post, hydrate, profile};
use crate::safety::store as safety;
use crate::users::Username;
use crate::users::model::UserRow;
use crate::users::store::{self as users, FollowList, Listed};

const NOT_FOUND: &str = "User not found";
const SUSPENDED: &str = "This account is suspended";

/// A member as a viewer may see them.
pub struct Profile {
    /// The member; only who it is (`UserRow::shut_out`) when they blocked the viewer.
    pub member: UserRow,
    /// They blocked the viewer: the profile shows who it is and nothing more.
    pub shut_out: bool,
    /// Hidden from the viewer (blocked either way, or suspended): their posts, post count and
    /// network are not shown.
    pub hidden: bool,
}

/// The member `username` names, as `viewer` sees them at `now`.
pub async fn by_username(db: &Db, viewer: i64, username: &str, now: Millis) -> Result<Profile> {
    let member = find(db, username, now).await?;
    seen_by(db, viewer, member, now).await
}

/// The member with this id (not one who left), as `viewer` sees them at `now`.
pub async fn by_id(db: &Db, viewer: i64, id: i64, now: Millis) -> Result<Profile> {
    let member = users::find_live(&db.read, id).await?.ok_or_else(not_found)?;
    seen_by(db, viewer, member, now).await
}

fn not_found() -> Error {
    Error::NotFound(NOT_FOUND.into())
}

/// The member a name finds: theirs now, or one they gave up lately (the answer names the new one).
async fn find(db: &Db, username: &str, now: Millis) -> Result<UserRow> {
    // Only a well-formed name can belong to a member; anything else (including U+0000, which
    // PostgreSQL refuses in a parameter) is simply not found.
    let username = Username::parse(username).map_err(|_| not_found())?;
    if let Some(row) = users::find_by_username(&db.read, username.as_str()).await? {
        return Ok(row);
    }
    if let Some(row) = users::find_by_held_name(&db.read, username.as_str(), now).await? {
        return Ok(row);
    }
    // A name people may still follow a link to: say why nobody is there.
    if leaving::is_held(&db.read, username.as_str(), now).await? {
        return Err(Error::NotFound(leaving::HELD.into()));
    }
    Err(not_found())
}

/// `member` as `viewer` sees them: a suspended member only by moderators (and themselves), a
/// member who blocked the viewer as who it is and nothing more.
async fn seen_by(db: &Db, viewer: i64, member: UserRow, now: Millis) -> Result<Profile> {
    if member.suspended_until.is_some() && member.id != viewer {
        let role = moderation::store::role_of(&db.read, viewer).await?;
        if !role.is_some_and(|role| role != Role::Member) {
            return Err(Error::NotFound(SUSPENDED.into()));
        }
    }
    let hidden = safety::is_hidden(&db.read, viewer, member.id).await?;
    // Only a hidden member can have blocked the viewer: the common case asks one question.
    let shut_out = hidden && safety::standing(&db.read, viewer, member.id, now).await?.blocked_by;
    let member = if shut_out { member.shut_out() } else { member };
    Ok(Profile { member, shut_out, hidden })
}

/// The username of the member who invited them; None when the instance did, or when they shut
/// the viewer out.
pub async fn inviter(db: &Db, profile: &Profile) -> Result<Option<String>> {
    match profile.member.invited_by {
        Some(inviter) if !profile.shut_out => Ok(users::find_by_id(&db.read, inviter).await?.map(|row| row.username)),
        _ => Ok(None),
    }
}

/// How many posts the profile counts: none of a hidden member.
pub async fn post_count(db: &Db, profile: &Profile) -> Result<i64> {
    if profile.hidden { Ok(0) } else { users::post_count(&db.read, profile.member.id).await }
}

/// A profile's lists of posts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Posts and reposts, without replies.
    Posts,
    /// Replies to other posts.
    Replies,
    /// Posts, reposts and replies together (as apps ask for them).
    PostsAndReplies,
    /// Their own posts and replies with images.
    Media,
    /// The posts they pinned (one page: paging is ignored).
    Pinned,
    /// The posts they liked, newest like first.
    Likes,
}

/// One page of a profile's tab as `viewer` sees it: nothing of a hidden member; posts holding
/// a word the viewer mutes are marked (`Post::hidden_by_muted_word`), shown folded as in threads,
/// since a profile shows the member as they are.
pub async fn posts(db: &Db, viewer: i64, profile: &Profile, tab: Tab, page: Page, now: Millis) -> Result<Vec<Post>> {
    if profile.hidden {
        return Ok(Vec::new());
    }
    let member = profile.member.id;
    let list = |selection| async move { hydrate::list(&db.read, db.backend, viewer, &selection).await };
    let mut posts = match tab {
        Tab::Posts => list(profile::posts_of(member, page)).await?,
        Tab::Replies => list(profile::replies_of(member, page)).await?,
        Tab::Media => list(profile::media_of(member, page)).await?,
        Tab::Pinned => list(profile::pinned_of(member)).await?,
        Tab::Likes => list(profile::liked_by(member, page)).await?,
        Tab::PostsAndReplies => {
            // Each tab's page is the newest `limit` of its kind below the same id, so the merge's
            // first `limit` are the newest of both.
            let mut both = list(profile::posts_of(member, page)).await?;
            both.extend(list(profile::replies_of(member, page)).await?);
            both.sort_by_key(|post| std::cmp::Reverse(post.id));
            both.truncate(usize::try_from(page.limit).unwrap_or(0));
            both
        }
    };
    hydrate::mark_muted(&db.read, viewer, &mut posts, now).await?;
    Ok(posts)
}

/// One page of the member's followers or follows, as `viewer` sees them; none of a hidden member.
pub async fn follow_list(db: &Db, viewer: i64, profile: &Profile, list: FollowList, page: Page) -> Result<Vec<Listed>> {
    if profile.hidden {
        return Ok(Vec::new());
    }
    users::follow_list(&db.read, viewer, profile.member.id, list, page).await
}

/// The members the viewer follows who follow this member; none of a hidden member.
pub async fn familiar_followers(db: &Db, viewer: i64, profile: &Profile) -> Result<Vec<UserRow>> {
    if profile.hidden {
        return Ok(Vec::new());
    }
    users::familiar_followers(&db.read, viewer, profile.member.id).await
}

/// A newcomer's starter pack: the member who invited them and the people that member follows
/// whom the newcomer does not follow yet; None when the instance invited them, or their inviter
/// is hidden from them or gone.
pub async fn starter_pack(db: &Db, viewer: i64) -> Result<Option<(UserRow, Vec<UserRow>)>> {
    let me = users::find_by_id(&db.read, viewer).await?.ok_or(Error::Unauthorized)?;
    let Some(inviter) = me.invited_by else { return Ok(None) };
    let Some(inviter) = users::find_by_id(&db.read, inviter).await? else { return Ok(None) };
    // A deleted member is hidden as a suspended one is (`accounts::leaving`).
    if safety::is_hidden(&db.read, viewer, inviter.id).await? {
        return Ok(None);
    }
    let members = users::starter_pack(&db.read, viewer, inviter.id).await?;
    Ok(Some((inviter, members)))
}
