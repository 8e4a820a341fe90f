//! Direct messages: private conversations of 2 to 8 members (docs/messages.md). Every read and
//! write takes the member who asks and answers 404 for a conversation they are not in (or no
//! longer read), as for one that does not exist. The rules, once for both interfaces:
//!
//! - Who may start a conversation with a member is their setting (`users::MessagesFrom`); one
//!   started by someone they do not follow arrives under Requests, where its starter may send
//!   at most `REQUEST_MESSAGES` until someone accepts it. Declining hides it without telling.
//! - A block between any two of its members ends new messages in it, and hides it from the
//!   blocker. A suspended member's messages are withheld; a member who left takes their words.
//! - Read state is each member's own: there are no read receipts.
//!
//! The views here are plain data (ids, `Millis`, `UserRow`); each interface makes its own JSON.

pub(crate) mod store;

use std::collections::HashMap;

use sqlx::Connection;

use crate::users::{MessagesFrom, UserRow};
use murmur_core::clock::{DAY, Millis};
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;
use murmur_core::rate_limit::{self, MemberLimit};
use murmur_core::text::{self, Kind};

/// The most members a conversation has, its starter included.
pub const MAX_MEMBERS: usize = 8;
/// Longest message, in code points as a post is counted.
pub const MESSAGE_MAX_CHARS: usize = 1000;
/// How many messages the starter of a request sends before anyone accepts it.
pub const REQUEST_MESSAGES: i64 = 3;
/// A member this new starts at most `MemberLimit::NewcomerConversation` conversations a day.
pub const NEWCOMER_FOR: Millis = DAY;

pub const NOT_FOUND: &str = "Conversation not found";
pub const MESSAGE_NOT_FOUND: &str = "Message not found";
pub const CLOSED: &str = "This conversation takes no new messages";
pub const REQUEST_FULL: &str = "Sent as a request: you can send more messages once it is accepted";

/// Where a conversation shows for a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Inbox,
    Requests,
}

impl Place {
    /// The stored places that show in this one (a hidden conversation is listed nowhere).
    fn stored(self) -> &'static str {
        match self {
            Place::Inbox => "('inbox')",
            Place::Requests => "('requests')",
        }
    }
}

/// A conversation as one of its members sees it.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub id: i64,
    /// Its other members still in it, by username.
    pub members: Vec<UserRow>,
    pub place: Place,
    /// It holds a message newer than the last one the member read.
    pub unread: bool,
    pub muted: bool,
    /// The member started it and no one has accepted it yet (what the sender sees).
    pub sent_as_request: bool,
    /// The member may write in it now.
    pub can_send: bool,
    pub last_message: Option<Message>,
    pub created_at: Millis,
}

/// Why a message shows without its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removed {
    /// Its author deleted it ("Message deleted").
    ByAuthor,
    /// Its author left Murmur ("Message from a deleted member removed").
    AuthorLeft,
}

/// A message as its conversation's members see it.
#[derive(Debug, Clone)]
pub struct Message {
    pub id: i64,
    pub conversation_id: i64,
    /// None once its author left Murmur.
    pub author: Option<UserRow>,
    /// Empty when removed.
    pub content: String,
    pub removed: Option<Removed>,
    pub created_at: Millis,
}

/// A message's text: trimmed, NFC-normalized, 1 to `MESSAGE_MAX_CHARS` code points, as `text`
/// has a post's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageText(String);

impl MessageText {
    pub fn parse(raw: &str) -> Result<MessageText> {
        let text = text::normalize(Kind::Message, raw.trim())?;
        if text.is_empty() {
            return Err(Error::bad_request("A message cannot be empty"));
        }
        if text.chars().count() > MESSAGE_MAX_CHARS {
            return Err(Error::bad_request(format!("A message can be at most {MESSAGE_MAX_CHARS} characters long")));
        }
        Ok(MessageText(text))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The other members one request names: 1 to `MAX_MEMBERS - 1` ids, none the starter's, each
/// once, in order.
fn others(starter: i64, ids: &[i64]) -> Result<Vec<i64>> {
    let mut ids = murmur_core::ids::distinct(ids, "Members")?;
    ids.retain(|id| *id != starter);
    if ids.is_empty() || ids.len() > MAX_MEMBERS - 1 {
        return Err(Error::bad_request(format!(
            "Name 1 to {} other members: a conversation has at most {MAX_MEMBERS}",
            MAX_MEMBERS - 1
        )));
    }
    Ok(ids)
}

/// The key of the conversation of exactly these members: their ids in order.
fn key_of(starter: i64, others: &[i64]) -> String {
    let mut all = others.to_vec();
    all.push(starter);
    all.sort_unstable();
    all.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// Opens the conversation of `starter` and `members`: the one they already have (brought back
/// to the starter's inbox if they had hidden, declined or left it), or a new one, each member
/// placed by their setting. Answers it and whether it is new.
pub async fn open(db: &Db, starter: i64, members: &[i64], now: Millis) -> Result<(Conversation, bool)> {
    let others = others(starter, members)?;
    let key = key_of(starter, &others);
    let existing = store::by_key(&mut *db.read.acquire().await?, &key).await?;
    if let Some(id) = existing {
        let mut tx = db.write.begin().await?;
        let was_member =
            store::move_to(&mut tx, id, starter, "('inbox', 'requests', 'hidden', 'declined', 'left')", "inbox")
                .await?;
        if was_member {
            tx.commit().await?;
            return Ok((get(db, starter, id).await?, false));
        }
    }
    if joined_lately(db, starter, now).await? {
        rate_limit::hit_member(
            db,
            MemberLimit::NewcomerConversation,
            starter,
            now,
            "New members can start a few conversations a day. Please try again tomorrow.",
        )
        .await?;
    }
    let mut writer = rate_limit::count_member_then_take_writer(
        db,
        MemberLimit::Conversation,
        starter,
        now,
        "You have started many conversations today. Please try again tomorrow.",
    )
    .await?;
    let mut tx = writer.begin().await?;
    let candidates = store::candidates(&mut tx, starter, &others).await?;
    let mut places = Vec::with_capacity(others.len());
    for id in &others {
        let candidate = candidates
            .iter()
            .find(|c| c.id == *id && c.shown == 1)
            .ok_or_else(|| Error::not_found("Member not found"))?;
        if candidate.blocked == 1 {
            return Err(Error::forbidden(format!("You cannot message @{}", candidate.username)));
        }
        let follows = candidate.follows_starter == 1;
        let place = match MessagesFrom::stored(&candidate.messages_from) {
            MessagesFrom::Nobody => {
                return Err(Error::forbidden(format!("@{} does not take new messages", candidate.username)));
            }
            MessagesFrom::Following if !follows => {
                return Err(Error::forbidden(format!(
                    "@{} takes new messages only from people they follow",
                    candidate.username
                )));
            }
            _ if follows => "inbox",
            _ => "requests",
        };
        places.push((*id, place));
    }
    let Some(id) = store::insert_conversation(&mut tx, &key, starter, now).await? else {
        // Another request made it meanwhile: it is theirs to have made.
        drop(tx);
        let id =
            store::by_key(&mut *db.read.acquire().await?, &key).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
        return Ok((get(db, starter, id).await?, false));
    };
    store::insert_member(&mut tx, id, starter, "inbox", now).await?;
    for (member, place) in places {
        store::insert_member(&mut tx, id, member, place, now).await?;
    }
    tx.commit().await?;
    drop(writer);
    Ok((get(db, starter, id).await?, true))
}

async fn joined_lately(db: &Db, member: i64, now: Millis) -> Result<bool> {
    let row = crate::users::find_by_id(&db.read, member).await?.ok_or(Error::Unauthorized)?;
    Ok(row.created_at > now - NEWCOMER_FOR)
}

/// The viewer's conversations in `place`, the latest message first.
pub async fn list(db: &Db, viewer: i64, place: Place, page: Page) -> Result<Vec<Conversation>> {
    let rows = store::memberships(&db.read, viewer, place.stored(), page.limit, page.offset).await?;
    conversations(db, viewer, rows).await
}

/// One of the viewer's conversations; 404 for one they are not in.
pub async fn get(db: &Db, viewer: i64, id: i64) -> Result<Conversation> {
    let row = store::membership(&mut *db.read.acquire().await?, viewer, id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    Ok(conversations(db, viewer, vec![row]).await?.remove(0))
}

/// How many conversations in the viewer's inbox hold a message they have not read (muted ones
/// are not counted).
pub async fn unread_count(db: &Db, viewer: i64) -> Result<i64> {
    store::unread_count(&db.read, viewer).await
}

async fn conversations(db: &Db, viewer: i64, rows: Vec<store::Membership>) -> Result<Vec<Conversation>> {
    let ids: Vec<i64> = rows.iter().map(|row| row.conversation_id).collect();
    let pairs = store::others_of(&db.read, viewer, &ids).await?;
    let last_ids: Vec<i64> = rows.iter().map(|row| row.last_message_id).filter(|id| *id > 0).collect();
    let last = store::messages_by_id(&mut *db.read.acquire().await?, &last_ids).await?;
    let mut member_ids: Vec<i64> = pairs.iter().map(|(_, member)| *member).collect();
    member_ids.extend(last.iter().filter_map(|m| m.author_id));
    let people = people(db, member_ids).await?;
    let mut last: HashMap<i64, Message> =
        last.into_iter().map(|row| (row.conversation_id, view(row, &people))).collect();
    Ok(rows
        .into_iter()
        .map(|row| {
            let members = pairs
                .iter()
                .filter(|(conversation, _)| *conversation == row.conversation_id)
                .filter_map(|(_, member)| people.get(member).cloned())
                .collect();
            let sent_as_request = row.started_by == Some(viewer) && row.accepted == 0;
            Conversation {
                id: row.conversation_id,
                members,
                place: if row.place == "requests" { Place::Requests } else { Place::Inbox },
                unread: row.last_message_id > row.last_read_id,
                muted: row.muted != 0,
                sent_as_request,
                can_send: row.blocked == 0 && row.others > 0,
                last_message: last.remove(&row.conversation_id),
                created_at: row.created_at,
            }
        })
        .collect())
}

/// The members with these ids, by id.
async fn people(db: &Db, mut ids: Vec<i64>) -> Result<HashMap<i64, UserRow>> {
    ids.sort_unstable();
    ids.dedup();
    let mut people = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(64) {
        for row in crate::users::find_many(&db.read, chunk).await? {
            people.insert(row.id, row);
        }
    }
    Ok(people)
}

fn view(row: store::MessageRow, people: &HashMap<i64, UserRow>) -> Message {
    let removed = if row.author_left == 1 {
        Some(Removed::AuthorLeft)
    } else if row.deleted_at.is_some() {
        Some(Removed::ByAuthor)
    } else {
        None
    };
    Message {
        id: row.id,
        conversation_id: row.conversation_id,
        author: if row.author_left == 1 { None } else { row.author_id.and_then(|id| people.get(&id).cloned()) },
        content: if removed.is_some() { String::new() } else { row.content },
        removed,
        created_at: row.created_at,
    }
}

/// Conversation `id`'s messages older than message `before` (None: the newest), newest first.
pub async fn messages(db: &Db, viewer: i64, id: i64, page: Page) -> Result<Vec<Message>> {
    store::membership(&mut *db.read.acquire().await?, viewer, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let rows = store::messages(&db.read, id, page.below, page.limit).await?;
    let people = people(db, rows.iter().filter_map(|row| row.author_id).collect()).await?;
    Ok(rows.into_iter().map(|row| view(row, &people)).collect())
}

/// One message of a conversation the viewer reads; 404 for any other (and for a withheld one).
pub async fn message(db: &Db, viewer: i64, id: i64) -> Result<Message> {
    let mut conn = db.read.acquire().await?;
    let (conversation, _) =
        store::message_of(&mut conn, viewer, id).await?.ok_or_else(|| Error::not_found(MESSAGE_NOT_FOUND))?;
    store::membership(&mut conn, viewer, conversation).await?.ok_or_else(|| Error::not_found(MESSAGE_NOT_FOUND))?;
    let row =
        store::messages_by_id(&mut conn, &[id]).await?.pop().ok_or_else(|| Error::not_found(MESSAGE_NOT_FOUND))?;
    drop(conn);
    let people = people(db, row.author_id.into_iter().collect()).await?;
    Ok(view(row, &people))
}

/// The messages around message `id` in its conversation, as a thread shows them: up to `limit`
/// before it and up to `limit` after it, each oldest first. 404 as `message`.
pub async fn around(db: &Db, viewer: i64, id: i64, limit: i64) -> Result<(Vec<Message>, Vec<Message>)> {
    let conversation = message(db, viewer, id).await?.conversation_id;
    let mut before = store::messages(&db.read, conversation, id, limit).await?;
    before.reverse();
    let after = store::messages_after(&db.read, conversation, id, limit).await?;
    let people = people(db, before.iter().chain(&after).filter_map(|row| row.author_id).collect()).await?;
    let views = |rows: Vec<store::MessageRow>| rows.into_iter().map(|row| view(row, &people)).collect();
    Ok((views(before), views(after)))
}

/// The author writes `text` to the conversation of them and the members `usernames` name,
/// opened or reopened as `open` does: how apps that name a message's recipients by mentioning
/// them send one. Names no member has are left as text; none left is refused.
pub async fn send_to_named(
    db: &Db,
    author: i64,
    usernames: &[String],
    text: &MessageText,
    now: Millis,
) -> Result<Message> {
    let mut members = Vec::with_capacity(usernames.len());
    for name in usernames.iter().take(MAX_MEMBERS) {
        if let Some(row) = crate::users::store::find_by_username(&db.read, name).await? {
            members.push(row.id);
        }
    }
    members.retain(|id| *id != author);
    if members.is_empty() {
        return Err(Error::unprocessable("A message names its recipients: mention at least one member (@username)"));
    }
    let (conversation, _) = open(db, author, &members, now).await?;
    send(db, author, conversation.id, text, now).await
}

/// The author writes `text` in conversation `id`: refused once a block stands between two of
/// its members or no one else is left in it, and past `REQUEST_MESSAGES` while it is a request
/// no one accepted. Writing in a request the author received accepts it.
pub async fn send(db: &Db, author: i64, id: i64, text: &MessageText, now: Millis) -> Result<Message> {
    let mut writer = rate_limit::count_member_then_take_writer(
        db,
        MemberLimit::Message,
        author,
        now,
        "You are sending messages too fast. Please wait a minute.",
    )
    .await?;
    let mut tx = writer.begin().await?;
    store::lock(&mut tx, id).await?;
    let row = store::membership(&mut tx, author, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if crate::users::store::is_suspended(&mut tx, author, now).await? {
        return Err(Error::forbidden(crate::users::model::SUSPENDED));
    }
    if row.blocked == 1 || row.others == 0 {
        return Err(Error::forbidden(CLOSED));
    }
    if row.started_by == Some(author)
        && row.accepted == 0
        && store::count_by(&mut tx, id, author).await? >= REQUEST_MESSAGES
    {
        return Err(Error::unprocessable(REQUEST_FULL));
    }
    let message = store::insert_message(&mut tx, id, author, text.as_str(), now).await?;
    crate::push::queue_message(&mut tx, message, id, author, now).await?;
    tell_readers(&mut tx, id).await?;
    tx.commit().await?;
    drop(writer);
    let row = store::messages_by_id(&mut *db.read.acquire().await?, &[message]).await?;
    let people = people(db, vec![author]).await?;
    row.into_iter().next().map(|row| view(row, &people)).ok_or_else(|| Error::not_found(MESSAGE_NOT_FOUND))
}

/// The author deletes their message for everyone ("Message deleted").
pub async fn delete_message(db: &Db, member: i64, message: i64, now: Millis) -> Result<()> {
    let mut tx = db.write.begin().await?;
    let (conversation, author) =
        store::message_of(&mut tx, member, message).await?.ok_or_else(|| Error::not_found(MESSAGE_NOT_FOUND))?;
    if author != Some(member) {
        return Err(Error::forbidden("You can only delete your own messages"));
    }
    store::delete_message(&mut tx, message, now).await?;
    tell_readers(&mut tx, conversation).await?;
    tx.commit().await?;
    Ok(())
}

/// The member has read conversation `id` up to its latest message.
pub async fn mark_read(db: &Db, member: i64, id: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    store::membership(&mut tx, member, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    store::mark_read(&mut tx, id, member).await?;
    tx.commit().await?;
    tell(member, id);
    Ok(())
}

/// The member accepts a request: it moves to their inbox (one already there stays).
pub async fn accept(db: &Db, member: i64, id: i64) -> Result<Conversation> {
    let mut tx = db.write.begin().await?;
    store::membership(&mut tx, member, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    store::move_to(&mut tx, id, member, "('requests')", "inbox").await?;
    tx.commit().await?;
    tell(member, id);
    get(db, member, id).await
}

/// The member puts conversation `id` away: a request is declined (its sender is not told), a
/// group is left, a conversation of two is hidden until its next message.
pub async fn remove(db: &Db, member: i64, id: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    let row = store::membership(&mut tx, member, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let place = if row.place == "requests" {
        "declined"
    } else if store::size(&mut tx, id).await? > 2 {
        "left"
    } else {
        "hidden"
    };
    store::move_to(&mut tx, id, member, store::READABLE, place).await?;
    tx.commit().await?;
    tell(member, id);
    Ok(())
}

/// The member mutes conversation `id` (its messages are not counted as unread), or not.
pub async fn set_muted(db: &Db, member: i64, id: i64, muted: bool) -> Result<Conversation> {
    let mut tx = db.write.begin().await?;
    store::membership(&mut tx, member, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    store::set_muted(&mut tx, id, member, muted).await?;
    tx.commit().await?;
    tell(member, id);
    get(db, member, id).await
}

/// Tells `member`'s open tabs that conversation `id` changed for them (`live`), once the request
/// succeeded.
fn tell(member: i64, id: i64) {
    crate::live::note(crate::live::Change::Messaged { member, conversation: id });
}

/// Tells every member who reads conversation `id` (its author's other tabs too).
async fn tell_readers(conn: &mut sqlx::AnyConnection, id: i64) -> Result<()> {
    for member in store::readers(conn, id).await? {
        tell(member, id);
    }
    Ok(())
}

/// The most messages one report includes.
pub const MAX_REPORTED: usize = 20;

/// The messages `reporter` chose to report, checked in the report's transaction: 1 to
/// `MAX_REPORTED` of one conversation they read, some of them written by one other member, who
/// is the one reported (answered). The reporter's own may be among them, for context.
pub struct ForReport {
    pub member: i64,
    chosen: Vec<store::Chosen>,
}

pub async fn for_report(conn: &mut sqlx::AnyConnection, reporter: i64, ids: &[i64]) -> Result<ForReport> {
    let ids = murmur_core::ids::distinct(ids, "Messages")?;
    if ids.is_empty() || ids.len() > MAX_REPORTED {
        return Err(Error::bad_request(format!("Choose 1 to {MAX_REPORTED} messages to report, by their ids")));
    }
    let chosen = store::chosen(conn, reporter, &ids).await?;
    if chosen.len() != ids.len() {
        return Err(Error::not_found(MESSAGE_NOT_FOUND));
    }
    if chosen.iter().any(|m| m.conversation_id != chosen[0].conversation_id) {
        return Err(Error::bad_request("Report messages of one conversation at a time"));
    }
    let mut others: Vec<i64> = chosen.iter().filter_map(|m| m.author_id).filter(|a| *a != reporter).collect();
    others.sort_unstable();
    others.dedup();
    match others.as_slice() {
        [member] => Ok(ForReport { member: *member, chosen }),
        [] => Err(Error::bad_request("Choose a message someone else wrote")),
        _ => Err(Error::bad_request("Report one member's messages at a time")),
    }
}

impl ForReport {
    /// Keeps the chosen messages with report `report` as they read now (a deleted one without
    /// its words), replacing what an earlier report of the same member held.
    pub async fn keep(&self, conn: &mut sqlx::AnyConnection, report: i64) -> Result<()> {
        store::keep_for_report(conn, report, &self.chosen).await
    }
}

/// A message as a report keeps it, for the moderators.
#[derive(Debug, Clone)]
pub struct Reported {
    pub id: i64,
    /// Who wrote it; None once they left Murmur.
    pub author_username: Option<String>,
    pub content: String,
    pub sent_at: Millis,
}

/// The messages reports `reports` hold, by report.
pub async fn reported(db: &Db, reports: &[i64]) -> Result<HashMap<i64, Vec<Reported>>> {
    let mut by_report: HashMap<i64, Vec<Reported>> = HashMap::new();
    for row in store::reported(&db.read, reports).await? {
        by_report.entry(row.report_id).or_default().push(Reported {
            id: row.message_id,
            author_username: row.author_username,
            content: row.content,
            sent_at: row.sent_at,
        });
    }
    Ok(by_report)
}

/// In the transaction of `member` leaving Murmur: their messages lose their words at once.
pub async fn member_left(conn: &mut sqlx::AnyConnection, member: i64) -> Result<()> {
    store::empty_messages_of(conn, member).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_people_make_the_same_key_in_any_order() {
        assert_eq!(key_of(3, &others(3, &[9, 1, 9, 3]).unwrap()), "1,3,9");
        assert_eq!(key_of(9, &others(9, &[3, 1]).unwrap()), "1,3,9");
    }

    #[test]
    fn a_conversation_names_one_to_seven_others() {
        assert!(others(1, &[]).is_err());
        assert!(others(1, &[1]).is_err());
        assert!(others(1, &[0]).is_err());
        assert!(others(1, &(2..=9).collect::<Vec<_>>()).is_err());
        assert_eq!(others(1, &(2..=8).collect::<Vec<_>>()).unwrap().len(), 7);
    }

    #[test]
    fn a_message_is_one_to_a_thousand_characters() {
        assert!(MessageText::parse("   ").is_err());
        assert!(MessageText::parse(&"é".repeat(MESSAGE_MAX_CHARS + 1)).is_err());
        assert_eq!(
            MessageText::parse(&format!(" {} ", "é".repeat(MESSAGE_MAX_CHARS))).unwrap().as_str().chars().count(),
            MESSAGE_MAX_CHARS
        );
    }
}
