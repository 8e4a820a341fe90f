//! Web Push queries: subscriptions (one per session or app token, `push_subscriptions_session_key`
//! and `push_subscriptions_token_key`), the
//! queue of pushes (`push_deliveries`, claimed with a lease as `exports::store::claim_next`
//! does) and the instance's key pair (`push_keys`, one row).

use std::sync::LazyLock;

use sqlx::{AnyConnection, FromRow as _};

use super::{Alert, Alerts, CLAIM_FOR, NewSubscription, Owner, Policy};
use crate::visibility::{self, Scope};
use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::error::Result;

/// A session's subscription as stored (its keys are only read to send).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Subscription {
    pub id: i64,
    pub endpoint: String,
    pub alerts: i64,
    pub policy: String,
    pub created_at: Millis,
}

impl Subscription {
    pub fn alerts(&self) -> Alerts {
        Alerts(self.alerts)
    }
}

const COLUMNS: &str = "id, endpoint, alerts, policy, created_at";

type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>;

impl Owner<'_> {
    /// The column that names the owner (each is unique).
    fn column(self) -> &'static str {
        match self {
            Owner::Session(_) => "session_hash",
            Owner::Token(_) => "token_id",
        }
    }

    fn bind(self, query: AnyQuery<'_>) -> AnyQuery<'_> {
        match self {
            Owner::Session(hash) => query.bind(hash.to_string()),
            Owner::Token(id) => query.bind(id),
        }
    }
}

/// The owner's subscription becomes `new`, in one statement on `conn` (the writer).
pub async fn subscribe(
    conn: &mut AnyConnection,
    member: i64,
    owner: Owner<'_>,
    new: &NewSubscription,
    now: Millis,
) -> Result<Subscription> {
    let column = owner.column();
    let query = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO push_subscriptions (member_id, {column}, endpoint, p256dh, auth, alerts, policy, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT ({column}) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh, \
             auth = excluded.auth, alerts = excluded.alerts, policy = excluded.policy, created_at = excluded.created_at \
         RETURNING {COLUMNS}"
    )));
    let query = owner.bind(query.bind(member));
    let row = query
        .bind(new.endpoint.as_str().to_string())
        .bind(super::encode_key(&new.p256dh))
        .bind(super::encode_key(&new.auth))
        .bind(new.alerts.0)
        .bind(new.policy.as_str())
        .bind(now)
        .fetch_one(conn)
        .await?;
    Ok(Subscription::from_row(&row)?)
}

/// Changes the alerts and policy of the owner's subscription, in one statement on `conn`.
pub async fn change(
    conn: &mut AnyConnection,
    owner: Owner<'_>,
    alerts: Alerts,
    policy: Policy,
) -> Result<Option<Subscription>> {
    let query = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE push_subscriptions SET alerts = $1, policy = $2 WHERE {} = $3 RETURNING {COLUMNS}",
        owner.column()
    )))
    .bind(alerts.0)
    .bind(policy.as_str());
    let row = owner.bind(query).fetch_optional(conn).await?;
    Ok(row.map(|row| Subscription::from_row(&row)).transpose()?)
}

/// The owner's subscription, if it has one.
pub async fn find(pool: &Pool, owner: Owner<'_>) -> Result<Option<Subscription>> {
    let query = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM push_subscriptions WHERE {} = $1",
        owner.column()
    )));
    let row = owner.bind(query).fetch_optional(pool).await?;
    Ok(row.map(|row| Subscription::from_row(&row)).transpose()?)
}

/// Ends the owner's subscription (and the pushes still queued for it); false when it had none.
pub async fn unsubscribe(write: &Pool, owner: Owner<'_>) -> Result<bool> {
    let query =
        sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM push_subscriptions WHERE {} = $1", owner.column())));
    Ok(owner.bind(query).execute(write).await?.rows_affected() > 0)
}

/// Ends a subscription the push service no longer knows (and its queued pushes).
pub async fn end_subscription(write: &Pool, subscription_id: i64) -> Result<()> {
    sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(subscription_id).execute(write).await?;
    Ok(())
}

/// Queues the push of the notification `notification_id` (of `kind`, from `actor` to
/// `recipient`) for each of the recipient's subscriptions that wants it, in the transaction
/// that made the notification: an undone cause takes its pushes with it (foreign key).
pub async fn queue(
    conn: &mut AnyConnection,
    notification_id: i64,
    recipient: i64,
    actor: i64,
    kind: &str,
    now: Millis,
) -> Result<()> {
    if Alert::of_notification(kind).is_none() {
        return Ok(());
    }
    static SQL: LazyLock<String> = LazyLock::new(|| {
        queue_made(
            "(SELECT CAST($1 AS BIGINT) AS id, CAST($2 AS BIGINT) AS recipient_id, \
              CAST($3 AS BIGINT) AS actor_id, CAST($4 AS TEXT) AS type)",
            "$5",
        )
    });
    sqlx::query(SQL.as_str())
        .bind(notification_id)
        .bind(recipient)
        .bind(actor)
        .bind(kind)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

/// Queues the push of message `message_id`, just written by `author` in conversation
/// `conversation`, for each web session of its other members that wants messages, in the
/// transaction that wrote it: members who muted the conversation, and by the push policy those
/// who do not follow the author, are not pushed. Whether the author is hidden from them is
/// checked when it is sent (`message`).
pub async fn queue_message(
    conn: &mut AnyConnection,
    message_id: i64,
    conversation: i64,
    author: i64,
    now: Millis,
) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!(
            "INSERT INTO push_deliveries (message_id, subscription_id, attempts, due_at, created_at) \
             SELECT $1, s.id, 0, $2, $2 FROM conversation_members cm \
             JOIN push_subscriptions s ON s.member_id = cm.member_id AND s.token_id IS NULL \
             WHERE cm.conversation_id = $3 AND cm.member_id <> $4 AND cm.box IN ('inbox', 'requests') \
               AND cm.muted = 0 AND (s.alerts & {}) <> 0 \
               AND (s.policy = 'all' OR EXISTS (SELECT 1 FROM follows f \
                    WHERE f.follower_id = cm.member_id AND f.following_id = $4))",
            Alert::Message.bit()
        )
    });
    sqlx::query(SQL.as_str()).bind(message_id).bind(now).bind(conversation).bind(author).execute(conn).await?;
    Ok(())
}

/// The statement that queues the pushes of the notifications `made` names (a table, or a
/// data-modifying `WITH` of a write that makes its notification in one statement, answering
/// `id, recipient_id, actor_id, type`), due at `now`: one per subscription of the recipient whose
/// alerts and policy want it. The one rule of what is queued, whichever way a notification is made.
pub fn queue_made(made: &str, now: &str) -> String {
    let bits: String =
        Alert::ALL.iter().map(|alert| format!("WHEN '{}' THEN {} ", alert.as_str(), alert.bit())).collect();
    format!(
        "INSERT INTO push_deliveries (notification_id, subscription_id, attempts, due_at, created_at) \
         SELECT m.id, s.id, 0, {now}, {now} FROM {made} m \
         JOIN push_subscriptions s ON s.member_id = m.recipient_id \
         WHERE (s.alerts & (CASE m.type {bits}ELSE 0 END)) <> 0 \
           AND (s.policy = 'all' OR EXISTS (SELECT 1 FROM follows f \
                WHERE f.follower_id = m.recipient_id AND f.following_id = m.actor_id))"
    )
}

/// A push this process now sends: held until `CLAIM_FOR` after the claim, and only this
/// attempt (`attempts`) may settle it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Claimed {
    pub id: i64,
    /// What it pushes: a notification, or else a message.
    pub notification_id: Option<i64>,
    pub message_id: Option<i64>,
    pub subscription_id: i64,
    pub attempts: i64,
}

/// Claims up to `limit` due pushes no process holds (or whose holder stopped). The conditions
/// are checked again by the update, so of several processes choosing the same row one gets it.
pub async fn claim_due(write: &Pool, now: Millis, limit: i64) -> Result<Vec<Claimed>> {
    Ok(sqlx::query_as(
        "UPDATE push_deliveries SET claimed_until = $1, attempts = attempts + 1 \
         WHERE id IN (SELECT id FROM push_deliveries WHERE due_at <= $2 \
                      AND (claimed_until IS NULL OR claimed_until < $2) ORDER BY due_at, id LIMIT $3) \
           AND due_at <= $2 AND (claimed_until IS NULL OR claimed_until < $2) \
         RETURNING id, notification_id, message_id, subscription_id, attempts",
    )
    .bind(now + CLAIM_FOR)
    .bind(now)
    .bind(limit)
    .fetch_all(write)
    .await?)
}

/// Removes a push this attempt still holds: sent, refused or given up.
pub async fn forget(write: &Pool, claimed: &Claimed) -> Result<()> {
    sqlx::query("DELETE FROM push_deliveries WHERE id = $1 AND attempts = $2")
        .bind(claimed.id)
        .bind(claimed.attempts)
        .execute(write)
        .await?;
    Ok(())
}

/// Lets a push this attempt holds go until `due_at`.
pub async fn retry_later(write: &Pool, claimed: &Claimed, due_at: Millis) -> Result<()> {
    sqlx::query("UPDATE push_deliveries SET due_at = $1, claimed_until = NULL WHERE id = $2 AND attempts = $3")
        .bind(due_at)
        .bind(claimed.id)
        .bind(claimed.attempts)
        .execute(write)
        .await?;
    Ok(())
}

/// What a claimed push says and where it goes.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Message {
    /// The Mastodon app token the subscription belongs to (None: a web session's).
    pub token_id: Option<i64>,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub kind: String,
    pub post_id: i64,
    /// The conversation of a message's push.
    pub conversation_id: Option<i64>,
    pub actor_username: String,
    pub actor_display_name: String,
    pub actor_image: Option<String>,
    pub post_content: Option<String>,
    /// The post's content warning: when it has one, the push shows it in place of the text.
    pub post_warning: Option<String>,
}

/// The claimed push's message; None when there is nothing to send any more: its notification
/// was withdrawn or its subscription ended meanwhile, or its actor is now hidden from the
/// recipient (blocked either way, muted, suspended) exactly as the notifications list hides them.
pub async fn message(pool: &Pool, claimed: &Claimed, now: Millis) -> Result<Option<Message>> {
    static OF_NOTIFICATION: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT s.token_id, s.endpoint, s.p256dh, s.auth, n.type AS kind, n.post_id, \
                    CAST(NULL AS BIGINT) AS conversation_id, \
                    u.username AS actor_username, u.display_name AS actor_display_name, \
                    u.profile_image_url AS actor_image, p.content AS post_content, \
                    p.spoiler_text AS post_warning \
             FROM notifications n \
             JOIN push_subscriptions s ON s.id = $2 AND s.member_id = n.recipient_id \
             JOIN users u ON u.id = n.actor_id \
             LEFT JOIN posts p ON p.id = n.post_id AND n.post_id <> 0 AND p.deleted_at IS NULL \
             WHERE n.id = $1 AND NOT {}",
            visibility::hidden(Scope::Feeds { now: "$3" }, "n.recipient_id", "n.actor_id")
        )
    });
    // A message's push names its author and never its words; it goes while the message stands,
    // the member reads the conversation without having muted it, and its author is not hidden
    // from them.
    static OF_MESSAGE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT s.token_id, s.endpoint, s.p256dh, s.auth, 'message' AS kind, CAST(0 AS BIGINT) AS post_id, \
                    m.conversation_id, \
                    u.username AS actor_username, u.display_name AS actor_display_name, \
                    u.profile_image_url AS actor_image, CAST(NULL AS TEXT) AS post_content, \
                    CAST(NULL AS TEXT) AS post_warning \
             FROM messages m \
             JOIN push_subscriptions s ON s.id = $2 AND s.token_id IS NULL \
             JOIN conversation_members cm ON cm.conversation_id = m.conversation_id AND cm.member_id = s.member_id \
                  AND cm.box IN ('inbox', 'requests') AND cm.muted = 0 \
             JOIN users u ON u.id = m.author_id AND u.deleted_at IS NULL \
             WHERE m.id = $1 AND m.deleted_at IS NULL AND NOT {}",
            visibility::hidden(Scope::Feeds { now: "$3" }, "s.member_id", "m.author_id")
        )
    });
    let (sql, source) = match (claimed.notification_id, claimed.message_id) {
        (Some(notification), _) => (OF_NOTIFICATION.as_str(), notification),
        (None, Some(message)) => (OF_MESSAGE.as_str(), message),
        (None, None) => return Ok(None),
    };
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(source)
        .bind(claimed.subscription_id)
        .bind(now)
        .fetch_optional(pool)
        .await?)
}

/// The payload pushed: small, and nothing but what the notification shows in the app (no
/// e-mail address, no token).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Payload {
    pub title: String,
    pub body: String,
    /// Where a click on it goes, in the web app.
    pub link: String,
    /// Pushes with one tag replace each other on the device: a post's likes are one.
    pub tag: String,
}

/// The longest excerpt of a post a push carries, in characters.
const EXCERPT: usize = 140;

impl Message {
    /// The payload, with links under `origin` (the instance's public origin).
    pub fn payload(&self, notification_id: i64, origin: &str) -> Payload {
        let who = &self.actor_display_name;
        if let Some(conversation) = self.conversation_id {
            // A lock screen is not private: who wrote, never what.
            return Payload {
                title: format!("{who} sent you a message"),
                body: format!("@{}", self.actor_username),
                link: format!("{origin}/messages/{conversation}"),
                tag: format!("message-{conversation}"),
            };
        }
        let title = match self.kind.as_str() {
            "like" => format!("{who} liked your post"),
            "repost" => format!("{who} reposted your post"),
            "reply" => format!("{who} replied to you"),
            "mention" => format!("{who} mentioned you"),
            "quote" => format!("{who} quoted your post"),
            "follow" => format!("{who} followed you"),
            _ => format!("{who} did something"),
        };
        // A warned post's text stays behind its warning on a lock screen too, as in the app.
        let body = match (&self.post_content, &self.post_warning) {
            (Some(_), Some(warning)) if self.kind != "follow" => format!("Content warning: {}", excerpt(warning)),
            (Some(content), None) if self.kind != "follow" => excerpt(content),
            _ => format!("@{}", self.actor_username),
        };
        let link = if self.kind == "follow" || self.post_id == 0 {
            format!("{origin}/profile/{}", self.actor_username)
        } else {
            format!("{origin}/post/{}", self.post_id)
        };
        let tag = match self.kind.as_str() {
            "like" | "repost" => format!("{}-{}", self.kind, self.post_id),
            _ => format!("notification-{notification_id}"),
        };
        Payload { title, body, link, tag }
    }

    /// RFC 8030's `Urgency`: what a member answers (replies, mentions) is `normal`, the rest `low`.
    pub fn urgency(&self) -> &'static str {
        match self.kind.as_str() {
            "reply" | "mention" | "message" => "normal",
            _ => "low",
        }
    }
}

fn excerpt(content: &str) -> String {
    if content.chars().count() <= EXCERPT {
        return content.to_string();
    }
    let cut: String = content.chars().take(EXCERPT - 1).collect();
    format!("{}…", cut.trim_end())
}

/// The instance's key pair as stored (private, public; base64url), if one was made.
pub async fn stored_key(pool: &Pool) -> Result<Option<(String, String)>> {
    Ok(sqlx::query_as("SELECT private_key, public_key FROM push_keys WHERE id = 1").fetch_optional(pool).await?)
}

/// Keeps `private`/`public` as the instance's key pair unless one is kept already; answers the
/// one kept, so processes starting together all use the first one written.
pub async fn keep_key(write: &Pool, private: &str, public: &str, now: Millis) -> Result<(String, String)> {
    sqlx::query(
        "INSERT INTO push_keys (id, private_key, public_key, created_at) VALUES (1, $1, $2, $3) \
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(private)
    .bind(public)
    .bind(now)
    .execute(write)
    .await?;
    Ok(sqlx::query_as("SELECT private_key, public_key FROM push_keys WHERE id = 1").fetch_one(write).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(kind: &str, content: Option<&str>) -> Message {
        Message {
            token_id: None,
            endpoint: "https://push.example/1".into(),
            p256dh: String::new(),
            auth: String::new(),
            kind: kind.into(),
            post_id: if kind == "follow" { 0 } else { 7 },
            conversation_id: None,
            actor_username: "bob".into(),
            actor_display_name: "Bob".into(),
            actor_image: None,
            post_content: content.map(String::from),
            post_warning: None,
        }
    }

    #[test]
    fn a_message_is_pushed_by_who_sent_it_never_its_words() {
        let pushed = Message { conversation_id: Some(5), post_id: 0, ..message("message", None) }
            .payload(0, "https://m.example");
        assert_eq!((pushed.title.as_str(), pushed.body.as_str()), ("Bob sent you a message", "@bob"));
        assert_eq!((pushed.link.as_str(), pushed.tag.as_str()), ("https://m.example/messages/5", "message-5"));
    }

    #[test]
    fn a_posts_likes_share_a_tag_and_link_to_the_post() {
        let like = message("like", Some("Hello")).payload(3, "https://m.example");
        assert_eq!(like.title, "Bob liked your post");
        assert_eq!(like.body, "Hello");
        assert_eq!(like.link, "https://m.example/post/7");
        assert_eq!(like.tag, "like-7");
        assert_eq!(message("like", Some("Hi")).payload(4, "https://m.example").tag, "like-7");
        let follow = message("follow", None).payload(5, "https://m.example");
        assert_eq!((follow.link.as_str(), follow.tag.as_str()), ("https://m.example/profile/bob", "notification-5"));
    }

    #[test]
    fn a_warned_post_is_pushed_with_its_warning_never_its_text() {
        let warned = Message { post_warning: Some("Book spoilers".into()), ..message("reply", Some("Snape did it")) };
        let body = warned.payload(1, "").body;
        assert_eq!(body, "Content warning: Book spoilers");
    }

    #[test]
    fn a_long_post_is_cut_to_an_excerpt() {
        let long = "word ".repeat(100);
        let body = message("reply", Some(&long)).payload(1, "").body;
        assert!(body.chars().count() <= EXCERPT && body.ends_with('…'), "{body}");
    }
}
