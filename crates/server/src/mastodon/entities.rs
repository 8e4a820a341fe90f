//! Murmur's members, posts and notifications as Mastodon's entities: ids as strings, times in
//! ISO 8601 with milliseconds, a post's text as HTML with its mention, hashtag and link anchors.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::state::AppState;
use murmur_core::clock::{Millis, to_rfc3339};
use murmur_core::html::escape;
use murmur_domain::messages::{self, Message};
use murmur_domain::notifications::Entry;
use murmur_domain::posts::Post;
use murmur_domain::posts::entities::{Entity, EntityKind};
use murmur_domain::safety::muted_words::{MutedWord, held_by};
use murmur_domain::users::UserRow;

/// The instance's public origin, for the absolute URLs entities carry.
pub struct Urls(pub String);

impl Urls {
    pub fn of(state: &AppState) -> Urls {
        Urls(state.config.public_origin())
    }

    fn member(&self, username: &str) -> String {
        format!("{}/profile/{username}", self.0)
    }

    fn post(&self, id: i64) -> String {
        format!("{}/post/{id}", self.0)
    }

    fn tag(&self, name: &str) -> String {
        format!("{}/tag/{}", self.0, percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC))
    }

    /// The picture of a member who has none (`MISSING_AVATAR`, `MISSING_HEADER`), or theirs.
    fn picture(&self, path: Option<&str>, missing: &str) -> String {
        self.media(path.unwrap_or(missing))
    }

    /// An image path of Murmur's (`/objects/…`) as an absolute URL; other URLs as they are.
    pub(super) fn media(&self, path: &str) -> String {
        if path.starts_with('/') { format!("{}{path}", self.0) } else { path.to_string() }
    }
}

/// Where the avatar and header of a member without one are served (Mastodon's own paths): apps
/// draw `avatar` and `header` as they are, so they are always an image's URL.
pub const MISSING_AVATAR: &str = "/avatars/original/missing.png";
pub const MISSING_HEADER: &str = "/headers/original/missing.png";

/// Mastodon's Account. A typed entity, not a `Value`: lists build hundreds of them, and each
/// `Value` is a map of owned keys. Fields in the order Mastodon documents them.
#[derive(Clone, Debug, Serialize)]
pub struct Account {
    pub id: String,
    pub username: String,
    pub acct: String,
    pub display_name: String,
    locked: bool,
    bot: bool,
    discoverable: bool,
    indexable: bool,
    group: bool,
    noindex: bool,
    created_at: String,
    note: String,
    url: String,
    uri: String,
    avatar: String,
    avatar_static: String,
    header: String,
    header_static: String,
    followers_count: i64,
    following_count: i64,
    statuses_count: i64,
    last_status_at: Option<String>,
    emojis: [Value; 0],
    fields: Vec<Value>,
    roles: [Value; 0],
    /// What the member wrote, as they wrote it: only on their own account.
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<Value>,
}

/// Mastodon's Account. `post_count` is known on a profile's own read; lists show 0.
pub fn account(urls: &Urls, member: &UserRow, post_count: i64) -> Account {
    let avatar = urls.picture(member.profile_image_url.as_deref(), MISSING_AVATAR);
    let header = urls.picture(member.header_image_url.as_deref(), MISSING_HEADER);
    let fields = if member.website.is_empty() {
        Vec::new()
    } else {
        let link = format!(
            "<a href=\"{0}\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">{0}</a>",
            escape(&member.website)
        );
        vec![json!({ "name": "Website", "value": link, "verified_at": null })]
    };
    let url = urls.member(&member.username);
    Account {
        id: member.id.to_string(),
        username: member.username.clone(),
        acct: member.username.clone(),
        display_name: member.display_name.clone(),
        locked: false,
        bot: false,
        discoverable: true,
        indexable: false,
        group: false,
        noindex: true,
        created_at: to_rfc3339(member.created_at - member.created_at.rem_euclid(murmur_core::clock::DAY)),
        note: paragraphs(&escape(&member.bio)),
        uri: url.clone(),
        url,
        avatar_static: avatar.clone(),
        avatar,
        header_static: header.clone(),
        header,
        followers_count: member.follower_count,
        following_count: member.following_count,
        statuses_count: post_count,
        last_status_at: None,
        emojis: [],
        fields,
        roles: [],
        source: None,
    }
}

/// The member's own account, with `source` (what they wrote, as they wrote it).
pub fn credential_account(urls: &Urls, member: &UserRow, post_count: i64) -> Account {
    Account {
        source: Some(json!({
            "privacy": "public",
            "sensitive": false,
            "language": null,
            "note": member.bio,
            "fields": [],
            "follow_requests_count": 0,
        })),
        ..account(urls, member, post_count)
    }
}

/// Text with its line breaks as HTML paragraphs (already escaped).
fn paragraphs(escaped: &str) -> String {
    if escaped.trim().is_empty() {
        return String::new();
    }
    escaped
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| format!("<p>{}</p>", p.trim_matches('\n').replace('\n', "<br>")))
        .collect()
}

/// A post's text as Mastodon's HTML: escaped, in paragraphs, with its entities as anchors.
pub fn content_html(urls: &Urls, content: &str, entities: &[Entity]) -> String {
    let units: Vec<u16> = content.encode_utf16().collect();
    let text = |from: usize, to: usize| String::from_utf16_lossy(&units[from.min(units.len())..to.min(units.len())]);
    let mut html = String::new();
    let mut at = 0;
    for entity in entities {
        if entity.start < at || entity.end > units.len() {
            continue;
        }
        html.push_str(&escape(&text(at, entity.start)));
        let written = text(entity.start, entity.end);
        html.push_str(&match entity.kind {
            EntityKind::Mention => format!(
                "<span class=\"h-card\"><a href=\"{}\" class=\"u-url mention\">@<span>{}</span></a></span>",
                escape(&urls.member(&entity.value)),
                escape(written.trim_start_matches('@'))
            ),
            EntityKind::Hashtag => format!(
                "<a href=\"{}\" class=\"mention hashtag\" rel=\"tag\">#<span>{}</span></a>",
                escape(&urls.tag(&entity.value)),
                escape(written.trim_start_matches('#'))
            ),
            EntityKind::Link => format!(
                "<a href=\"{}\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">{}</a>",
                escape(&entity.value),
                escape(&written)
            ),
        });
        at = entity.end;
    }
    html.push_str(&escape(&text(at, units.len())));
    paragraphs(&html)
}

/// What statuses need beyond the posts: their authors' records and the viewer's view.
pub struct Context<'a> {
    pub urls: &'a Urls,
    pub authors: &'a HashMap<i64, UserRow>,
    pub viewer: i64,
    pub now: Millis,
    /// Each member's Account, made once: a page's posts and notifications name few members
    /// many times (a member's notifications are mostly about their own posts).
    accounts: RefCell<HashMap<i64, Account>>,
    /// The viewer's muted words, read when a post is folded for one (`Status::filtered`).
    muted_words: Vec<MutedWord>,
}

impl<'a> Context<'a> {
    pub fn new(urls: &'a Urls, authors: &'a HashMap<i64, UserRow>, viewer: i64, now: Millis) -> Context<'a> {
        Context { urls, authors, viewer, now, accounts: RefCell::default(), muted_words: Vec::new() }
    }

    /// The member's Account as lists show it (`account`, no post count).
    pub fn account(&self, member: &UserRow) -> Account {
        self.accounts.borrow_mut().entry(member.id).or_insert_with(|| account(self.urls, member, 0)).clone()
    }
}

/// The authors of these posts (and of their originals), for `status`.
pub async fn authors_of(state: &AppState, posts: &[Post]) -> murmur_core::error::Result<HashMap<i64, UserRow>> {
    members_by_id(state, author_ids(posts).collect()).await
}

/// The ids of the authors of these posts, of their originals and of the posts they quote.
pub fn author_ids(posts: &[Post]) -> impl Iterator<Item = i64> + '_ {
    posts.iter().flat_map(|p| {
        let original = p.repost_of.as_deref();
        let quoted = |post: Option<&Post>| post.and_then(|post| post.quote_of.as_ref()).map(|q| q.author.id);
        std::iter::once(p.author.id).chain(original.map(|o| o.author.id)).chain(quoted(Some(p))).chain(quoted(original))
    })
}

/// These members' records (each once), read in as few statements as the ids allow.
pub async fn members_by_id(state: &AppState, mut ids: Vec<i64>) -> murmur_core::error::Result<HashMap<i64, UserRow>> {
    ids.retain(|id| *id > 0);
    ids.sort_unstable();
    ids.dedup();
    let mut found = HashMap::new();
    for chunk in ids.chunks(64) {
        for row in murmur_domain::users::find_many(&state.db.read, chunk).await? {
            found.insert(row.id, row);
        }
    }
    Ok(found)
}

/// Mastodon's Status (typed, as `Account` is).
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    pub id: String,
    uri: String,
    url: String,
    pub created_at: String,
    edited_at: Option<String>,
    pub account: Account,
    content: String,
    visibility: &'static str,
    sensitive: bool,
    spoiler_text: String,
    language: Option<String>,
    in_reply_to_id: Option<String>,
    in_reply_to_account_id: Option<String>,
    pub reblog: Option<Box<Status>>,
    quote: Value,
    application: Option<Value>,
    media_attachments: Vec<Value>,
    mentions: Vec<Value>,
    tags: Vec<Value>,
    emojis: [Value; 0],
    pub card: Option<Value>,
    pub poll: Option<Value>,
    replies_count: i64,
    reblogs_count: i64,
    favourites_count: i64,
    favourited: bool,
    reblogged: bool,
    bookmarked: bool,
    muted: bool,
    pinned: bool,
    /// The muted words a folded post holds (a thread's parents and replies): apps show it
    /// behind a warning, as Murmur's thread folds it.
    filtered: Vec<Value>,
}

/// Mastodon's Status; None for a post the viewer may not see or a deleted one (Mastodon has no
/// placeholder: a list leaves it out).
pub fn status(context: &Context, post: &Post) -> Option<Status> {
    if post.is_unavailable || post.is_deleted {
        return None;
    }
    let author = context.authors.get(&post.author.id)?;
    let reblog = match &post.repost_of {
        Some(original) => Some(Box::new(status(context, original)?)),
        None if post.repost_of_id.is_some() => return None,
        None => None,
    };
    let urls = context.urls;
    let (content, mentions, tags) = if reblog.is_some() {
        (String::new(), Vec::new(), Vec::new())
    } else {
        let mentions: Vec<Value> = post
            .entities
            .iter()
            .filter(|e| e.kind == EntityKind::Mention)
            .filter_map(|e| {
                let id = e.user_id?;
                Some(mention(urls, id, &e.value))
            })
            .collect();
        let tags: Vec<Value> = post
            .entities
            .iter()
            .filter(|e| e.kind == EntityKind::Hashtag)
            .map(|e| json!({"name": e.value.to_lowercase(), "url": urls.tag(&e.value)}))
            .collect();
        (content_html(urls, &post.content, &post.entities), mentions, tags)
    };
    let media_attachments: Vec<Value> = post
        .images
        .iter()
        .enumerate()
        .map(|(index, image)| {
            // The media id, as the upload answered it (`/objects/{id}`).
            let id = image.url.rsplit('/').next().unwrap_or_default().to_string();
            let id = if id.is_empty() { format!("{}-{index}", post.id) } else { id };
            media_attachment(urls, &id, &image.url, (image.width, image.height), image.alt.as_deref())
        })
        .collect();
    let url = urls.post(post.id);
    Some(Status {
        id: post.id.to_string(),
        uri: url.clone(),
        url,
        created_at: post.created_at.clone(),
        edited_at: post.edited_at.clone(),
        account: context.account(author),
        content,
        visibility: "public",
        // A post with a content warning is sensitive: apps hide its text and media behind it.
        sensitive: post.spoiler_text.is_some(),
        spoiler_text: post.spoiler_text.clone().unwrap_or_default(),
        language: None,
        in_reply_to_id: post.reply_to_id.map(|id| id.to_string()),
        in_reply_to_account_id: None,
        reblog,
        quote: quote(context, post),
        application: post.application.as_ref().map(|app| json!({"name": app.name, "website": app.website})),
        media_attachments,
        mentions,
        tags,
        emojis: [],
        card: post.card.as_ref().map(|card| preview_card(urls, card)),
        poll: poll(post, context.viewer, context.now),
        replies_count: post.reply_count,
        reblogs_count: post.repost_count,
        favourites_count: post.like_count,
        favourited: post.is_liked,
        reblogged: post.is_reposted,
        bookmarked: post.is_bookmarked,
        muted: false,
        pinned: post.pinned,
        filtered: match post.hidden_by_muted_word {
            Some(true) => held_by(&context.muted_words, &post.content, post.spoiler_text.as_deref())
                .into_iter()
                .map(|word| json!({"filter": filter(word, "warn"), "keyword_matches": [word.text], "status_matches": null}))
                .collect(),
            _ => Vec::new(),
        },
    })
}

/// Where a message's status id starts: above any post's id, as both are read at
/// `/api/v1/statuses/{id}` (message 1 is status `MESSAGE_IDS_FROM + 1`).
pub const MESSAGE_IDS_FROM: i64 = 1 << 60;

/// The message a status id names, when it names one rather than a post.
pub fn message_of_status(status_id: i64) -> Option<i64> {
    (status_id > MESSAGE_IDS_FROM).then(|| status_id - MESSAGE_IDS_FROM)
}

/// A direct message as Mastodon's Status (`visibility: "direct"`), mentioning every other member
/// of its conversation (`members`, the viewer among them), so an app's reply names them all and
/// stays in it. None for a message shown without its words, which an app would show as empty.
pub fn message_status(context: &Context, message: &Message, members: &[&UserRow]) -> Option<Status> {
    let author = message.author.as_ref().filter(|_| message.removed.is_none())?;
    let urls = context.urls;
    let others: Vec<&&UserRow> = members.iter().filter(|member| member.id != author.id).collect();
    let named: HashMap<String, i64> = members.iter().map(|member| (member.username.clone(), member.id)).collect();
    // Mentions and links as anchors; a message has no hashtags.
    let entities: Vec<Entity> = murmur_domain::posts::entities::parse(&message.content)
        .entities(&message.content, &named)
        .into_iter()
        .filter(|entity| entity.kind != EntityKind::Hashtag)
        .collect();
    let url = format!("{}/messages/{}", urls.0, message.conversation_id);
    Some(Status {
        id: (MESSAGE_IDS_FROM + message.id).to_string(),
        uri: url.clone(),
        url,
        created_at: to_rfc3339(message.created_at),
        edited_at: None,
        account: context.account(author),
        content: content_html(urls, &message.content, &entities),
        visibility: "direct",
        sensitive: false,
        spoiler_text: String::new(),
        language: None,
        in_reply_to_id: None,
        in_reply_to_account_id: None,
        reblog: None,
        quote: Value::Null,
        application: None,
        media_attachments: Vec::new(),
        mentions: others.iter().map(|member| mention(urls, member.id, &member.username)).collect(),
        tags: Vec::new(),
        emojis: [],
        card: None,
        poll: None,
        replies_count: 0,
        reblogs_count: 0,
        favourites_count: 0,
        favourited: false,
        reblogged: false,
        bookmarked: false,
        muted: false,
        pinned: false,
        filtered: Vec::new(),
    })
}

/// Mastodon's Conversation: the other members still in it and its latest message.
#[derive(Clone, Debug, Serialize)]
pub struct Conversation {
    pub id: String,
    unread: bool,
    accounts: Vec<Account>,
    last_status: Option<Status>,
}

/// Conversation `conversation` as `viewer` (their own record) reads it.
pub fn conversation(context: &Context, viewer: &UserRow, conversation: &messages::Conversation) -> Conversation {
    let mut members: Vec<&UserRow> = conversation.members.iter().collect();
    members.push(viewer);
    Conversation {
        id: conversation.id.to_string(),
        unread: conversation.unread,
        accounts: conversation.members.iter().map(|member| context.account(member)).collect(),
        last_status: conversation.last_message.as_ref().and_then(|message| message_status(context, message, &members)),
    }
}

/// Mastodon's Mention of member `id`.
fn mention(urls: &Urls, id: i64, username: &str) -> Value {
    json!({"id": id.to_string(), "username": username, "acct": username, "url": urls.member(username)})
}

/// Mastodon 4.5's Quote of a status that quotes one: accepted with the quoted status, revoked
/// when its author detached it, deleted or unauthorized when the viewer may not see it; null
/// when the post quotes none.
fn quote(context: &Context, post: &Post) -> Value {
    if post.quote_detached {
        return json!({"state": "revoked", "quoted_status": null});
    }
    let Some(quoted) = &post.quote_of else { return Value::Null };
    if quoted.is_unavailable {
        return json!({"state": "unauthorized", "quoted_status": null});
    }
    // One level, as the web app shows it: hydration leaves the quoted post's own quote out.
    match status(context, quoted) {
        Some(status) => json!({"state": "accepted", "quoted_status": status}),
        None => json!({"state": "deleted", "quoted_status": null}),
    }
}

/// Mastodon's PreviewCard of a post's link card ("link" cards only: Murmur embeds nothing).
pub fn preview_card(urls: &Urls, card: &murmur_domain::link_cards::LinkCard) -> Value {
    let provider_url = url::Url::parse(&card.url).map(|u| u.origin().ascii_serialization()).unwrap_or_default();
    json!({
        "url": card.url,
        "title": card.title,
        "description": card.description.as_deref().unwrap_or_default(),
        "type": "link",
        "author_name": "",
        "author_url": "",
        "provider_name": card.site_name.as_deref().unwrap_or_default(),
        "provider_url": provider_url,
        "html": "",
        "width": 0,
        "height": 0,
        "image": card.image_url.as_deref().map(|path| urls.media(path)),
        "embed_url": "",
        "blurhash": null,
    })
}

/// Mastodon's MediaAttachment of an image: its media id, its path or URL, its size when known,
/// and its description.
pub fn media_attachment(
    urls: &Urls,
    id: &str,
    path: &str,
    (width, height): (Option<i64>, Option<i64>),
    description: Option<&str>,
) -> Value {
    let url = urls.media(path);
    let meta = match (width, height) {
        (Some(width), Some(height)) if height > 0 => json!({
            "original": {"width": width, "height": height, "size": format!("{width}x{height}"),
                         "aspect": width as f64 / height as f64},
        }),
        _ => json!({}),
    };
    json!({
        "id": id,
        "type": "image",
        "url": url,
        "preview_url": url,
        "remote_url": null,
        "text_url": null,
        "meta": meta,
        "description": description,
        "blurhash": null,
    })
}

/// Mastodon's Poll of a post (its id is the post's: a post has one poll at most).
pub fn poll(post: &Post, viewer: i64, now: Millis) -> Option<Value> {
    let expires_at = post.poll_expires_at.as_ref()?;
    let expired = chrono::DateTime::parse_from_rfc3339(expires_at).is_ok_and(|at| at.timestamp_millis() <= now);
    let votes = |option: &String| post.poll_votes.get(option).map(Vec::len).unwrap_or(0);
    let options: Vec<Value> =
        post.poll_options.iter().map(|option| json!({"title": option, "votes_count": votes(option)})).collect();
    let total: usize = post.poll_options.iter().map(votes).sum();
    let voters = post.poll_votes.values().flatten().collect::<std::collections::HashSet<_>>().len();
    let own: Vec<usize> = post
        .poll_options
        .iter()
        .enumerate()
        .filter(|(_, option)| post.poll_votes.get(*option).is_some_and(|voters| voters.contains(&viewer)))
        .map(|(index, _)| index)
        .collect();
    Some(json!({
        "id": post.id.to_string(),
        "expires_at": expires_at,
        "expired": expired,
        "multiple": post.poll_multiple,
        "votes_count": total,
        "voters_count": voters,
        "options": options,
        "emojis": [],
        "voted": !own.is_empty(),
        "own_votes": own,
    }))
}

/// Statuses of these posts, in order, leaving out those the viewer may not see.
pub async fn statuses(state: &AppState, viewer: i64, posts: &[Post]) -> murmur_core::error::Result<Vec<Status>> {
    let authors = authors_of(state, posts).await?;
    let urls = Urls::of(state);
    let now = state.clock.now();
    let mut context = Context::new(&urls, &authors, viewer, now);
    if posts.iter().any(|post| post.hidden_by_muted_word == Some(true)) {
        context.muted_words = murmur_domain::safety::muted_words::list(&state.db.read, viewer, now).await?;
    }
    Ok(posts.iter().filter_map(|post| status(&context, post)).collect())
}

/// Mastodon's v2 Filter of a muted word: its one keyword, whole words; `action` is "hide" for
/// the lists, which leave such posts out, and "warn" where a thread folds one.
pub fn filter(word: &MutedWord, action: &str) -> Value {
    json!({
        "id": word.id.to_string(),
        "title": word.text,
        "context": ["home", "notifications", "public", "thread"],
        "expires_at": word.expires_at.map(to_rfc3339),
        "filter_action": action,
        "keywords": [{ "id": word.id.to_string(), "keyword": word.text, "whole_word": true }],
        "statuses": [],
    })
}

/// Mastodon's Notification (typed, as `Account` is).
#[derive(Clone, Debug, Serialize)]
pub struct Notification {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    group_key: String,
    pub created_at: String,
    pub account: Account,
    pub status: Option<Status>,
}

/// Mastodon's Notification, with the status it is about when there is one to show.
pub fn notification(account: Account, row: &Entry, status: Option<Status>) -> Option<Notification> {
    let kind = super::names::notification_type(&row.kind)?;
    if kind != "follow" && status.is_none() {
        return None;
    }
    Some(Notification {
        id: row.id.to_string(),
        kind,
        group_key: format!("ungrouped-{}", row.id),
        created_at: to_rfc3339(row.created_at),
        account,
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::{Urls, content_html};
    use murmur_domain::posts::entities::{Entity, EntityKind};

    #[test]
    fn a_posts_text_is_escaped_html_with_its_entities_as_anchors() {
        let urls = Urls("https://murmur.example".into());
        let content = "héllo @ada <b>\n\n#Rust https://x.example/?a=1&b=2";
        let entity = |kind, start, end, value: &str, user_id| Entity { kind, start, end, value: value.into(), user_id };
        let entities = vec![
            entity(EntityKind::Mention, 6, 10, "ada", Some(1)),
            entity(EntityKind::Hashtag, 16, 21, "Rust", None),
            entity(EntityKind::Link, 22, 48, "https://x.example/?a=1&b=2", None),
        ];
        let html = content_html(&urls, content, &entities);
        assert_eq!(
            html,
            "<p>héllo <span class=\"h-card\"><a href=\"https://murmur.example/profile/ada\" class=\"u-url mention\">@<span>ada</span></a></span> &lt;b&gt;</p>\
             <p><a href=\"https://murmur.example/tag/Rust\" class=\"mention hashtag\" rel=\"tag\">#<span>Rust</span></a> \
             <a href=\"https://x.example/?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">https://x.example/?a=1&amp;b=2</a></p>"
        );
    }
}
