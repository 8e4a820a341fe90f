//! Live events (`GET /api/events`, docs/live.md): what reaches whose stream, catch-up after a
//! reconnect, the bounds on streams, and the stream's end with its session or its server.

use std::time::Duration;

use futures::StreamExt;
use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{follow, id, like, post, post_empty, write};

/// An open event stream, read event by event.
pub(crate) struct Events {
    body: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buffer: String,
    pub retry_seen: bool,
}

/// One event: (id, name, data).
pub(crate) type Event = (String, String, Value);

impl Events {
    pub async fn open(client: &reqwest::Client, url: &str, last_event_id: Option<&str>) -> Events {
        let mut request = client.get(url).header("Accept", "text/event-stream");
        if let Some(last) = last_event_id {
            request = request.header("Last-Event-ID", last);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200, "{url}");
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Events { body: response.bytes_stream().boxed(), buffer: String::new(), retry_seen: false }
    }

    /// The next event within `wait`; None when none came or the stream ended.
    pub async fn next(&mut self, wait: Duration) -> Option<Event> {
        self.next_or_end(wait).await.flatten()
    }

    /// The next event within `wait` (`Some(Some(event))`), the stream's end (`Some(None)`), or
    /// None when neither came.
    pub async fn next_or_end(&mut self, wait: Duration) -> Option<Option<Event>> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut id, mut name, mut data) = (String::new(), String::new(), String::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        id = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("event:") {
                        name = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim());
                    } else if line.starts_with("retry:") {
                        self.retry_seen = true;
                    }
                }
                if name.is_empty() {
                    continue; // a comment (the heartbeat) or a retry hint
                }
                return Some(Some((id, name, serde_json::from_str(&data).unwrap_or(Value::Null))));
            }
            match tokio::time::timeout_at(deadline, self.body.next()).await.ok()? {
                Some(Ok(chunk)) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                None | Some(Err(_)) => return Some(None),
            }
        }
    }

    /// The events that come within `wait`.
    pub async fn drain(&mut self, wait: Duration) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(event) = self.next(wait).await {
            out.push(event);
        }
        out
    }

    /// Waits for an event named `name` (skipping others) and answers it.
    pub async fn expect(&mut self, name: &str) -> Event {
        loop {
            let event = self.next(Duration::from_secs(5)).await.unwrap_or_else(|| panic!("no {name} event came"));
            if event.1 == name {
                return event;
            }
        }
    }
}

pub(crate) const QUIET: Duration = Duration::from_millis(400);

pub(crate) async fn stream(app: &TestApp, who: &Member, query: &str) -> Events {
    let mut events = Events::open(&who.client, &app.url(&format!("/api/events{query}")), None).await;
    events.expect("hello").await;
    events
}

fn names(events: &[Event]) -> Vec<&str> {
    events.iter().map(|e| e.1.as_str()).collect()
}

async fn a_like_reaches_its_authors_streams_and_nobody_elses(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = id(&write(&app, &ada, "Ada's post").await);
    let mut ada_tab_1 = stream(&app, &ada, "").await;
    let mut ada_tab_2 = stream(&app, &ada, "").await;
    let mut bobs = stream(&app, &bob, "").await;
    like(&app, &bob, adas).await;
    for tab in [&mut ada_tab_1, &mut ada_tab_2] {
        tab.expect("notification").await;
        assert_eq!(tab.expect("unread-count").await.2, json!({ "count": 1 }));
    }
    assert_eq!(names(&bobs.drain(QUIET).await), Vec::<&str>::new(), "Bob's stream carries nothing of Ada's");
    // Reading them in one tab sets the count in the others.
    let (status, _) = crate::posts::put(&app, &ada, "/api/notifications/read-all", None).await;
    assert_eq!(status, 204);
    assert_eq!(ada_tab_2.expect("unread-count").await.2, json!({ "count": 0 }));
}

async fn followers_hear_of_new_posts_unless_they_muted_the_author(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &bob, &ada).await;
    follow(&app, &cyd, &ada).await;
    let (status, body) = post(&app, &cyd, "/api/mutes", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201, "{body}");
    let mut adas = stream(&app, &ada, "").await;
    let mut bobs = stream(&app, &bob, "").await;
    let mut cyds = stream(&app, &cyd, "").await;
    let new = id(&write(&app, &ada, "Fresh news").await);
    assert_eq!(bobs.expect("feed").await.2, json!({ "postIds": [new] }));
    assert!(!names(&cyds.drain(QUIET).await).contains(&"feed"), "Cyd muted Ada");
    assert!(!names(&adas.drain(QUIET).await).contains(&"feed"), "Ada's own post is not news to her");
}

async fn the_web_stream_is_not_told_of_edits_and_deletions(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let adas = id(&write(&app, &ada, "First take").await);
    let mut bobs = stream(&app, &bob, "").await;
    let mut adas_tab = stream(&app, &ada, "").await;
    let edited = ada.client.patch(app.url(&format!("/api/posts/{adas}"))).json(&json!({ "content": "Second take" }));
    assert_eq!(edited.send().await.unwrap().status(), 200);
    let (status, _) = crate::posts::delete(&app, &ada, &format!("/api/posts/{adas}")).await;
    assert_eq!(status, 204);
    // Those are for Mastodon apps' streams (docs/live.md); the tab reads posts again instead.
    // (On PostgreSQL the first post's `feed` may still be on its way.)
    for tab in [&mut bobs, &mut adas_tab] {
        let heard = tab.drain(QUIET).await;
        assert!(!names(&heard).iter().any(|name| ["post-edited", "post-deleted"].contains(name)), "{heard:?}");
    }
    let new = id(&write(&app, &ada, "Third take").await);
    assert_eq!(bobs.expect("feed").await.2, json!({ "postIds": [new] }), "the stream goes on");
}

async fn a_thread_stream_follows_its_posts_counts(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = id(&write(&app, &ada, "Count me").await);
    let other = id(&write(&app, &ada, "Not this one").await);
    let mut watching = stream(&app, &bob, &format!("?post={adas}")).await;
    let mut elsewhere = stream(&app, &bob, "").await;
    like(&app, &bob, other).await;
    like(&app, &ada, adas).await;
    let counts = watching.expect("post-counts").await.2;
    assert_eq!(counts, json!({ "postId": adas, "likeCount": 1, "repostCount": 0, "replyCount": 0 }));
    assert!(!names(&elsewhere.drain(QUIET).await).contains(&"post-counts"));
    let (status, body) = crate::posts::get(&app, &bob, "/api/events?post=0").await;
    assert_eq!((status, body["message"].as_str()), (400, Some("post must be a post's id")));
}

async fn a_reconnect_replays_exactly_what_was_missed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = id(&write(&app, &ada, "One").await);
    let second = id(&write(&app, &ada, "Two").await);
    let url = app.url("/api/events");
    let mut events = Events::open(&ada.client, &url, None).await;
    let (last_seen, _, _) = events.expect("hello").await;
    drop(events);
    // A second tab of Ada's hears both likes: the broker has them (on PostgreSQL a change
    // reaches it through the bus a moment after the write was answered).
    let mut witness = stream(&app, &ada, "").await;
    like(&app, &bob, first).await;
    like(&app, &bob, second).await;
    witness.expect("notification").await;
    witness.expect("notification").await;
    let mut events = Events::open(&ada.client, &url, Some(&last_seen)).await;
    let replayed = events.drain(QUIET).await;
    assert_eq!(
        names(&replayed),
        ["notification", "unread-count", "notification", "unread-count", "hello"],
        "{replayed:?}"
    );
    let ids: Vec<&str> = replayed.iter().map(|e| e.0.as_str()).collect();
    assert!(ids.windows(2).all(|w| w[0] <= w[1] || w[0].len() < w[1].len()), "in order: {ids:?}");
    // Nothing missed: nothing replayed.
    let (now_seen, _, _) = replayed.last().unwrap().clone();
    let mut events = Events::open(&ada.client, &url, Some(&now_seen)).await;
    assert_eq!(names(&events.drain(QUIET).await), ["hello"]);
    // An id of another process (or of before a restart): the app must refetch.
    let mut events = Events::open(&ada.client, &url, Some("7-3")).await;
    assert_eq!(names(&events.drain(QUIET).await), ["reset", "hello"]);
    let (status, _) = crate::posts::get(&app, &ada, &format!("/api/events?lastEventId={}", "9".repeat(60))).await;
    assert_eq!(status, 400);
}

async fn a_stream_ends_with_its_session(app: TestApp) {
    let ada = app.member("ada").await;
    // A second browser of Ada's.
    let token = murmur::sessions::create(&app.state.db.write, ada.id, app.clock.now()).await.unwrap();
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    let other_browser = crate::common::client_for(&app.base, Some(&cookie));
    let mut there = Events::open(&other_browser, &app.url("/api/events"), None).await;
    there.expect("hello").await;
    let mut here = stream(&app, &ada, "").await;
    let (status, _) = post_empty(&app, &ada, "/api/auth/logout-others").await;
    assert_eq!(status, 204);
    there.expect("session-ended").await;
    assert!(there.next(Duration::from_secs(2)).await.is_none(), "the stream is closed after it");
    assert!(!names(&here.drain(QUIET).await).contains(&"session-ended"), "this browser's session lives on");
}

async fn a_member_holds_at_most_five_streams(app: TestApp) {
    let ada = app.member("ada").await;
    let mut oldest = stream(&app, &ada, "").await;
    let mut others = Vec::new();
    for _ in 0..5 {
        others.push(stream(&app, &ada, "").await);
    }
    assert!(oldest.next(Duration::from_secs(2)).await.is_none(), "the sixth closed the first");
    assert!(oldest.retry_seen, "and told it to wait before coming back");
    assert_eq!(app.state.live.broker.open_streams(), 5);
}

async fn a_reader_that_stops_reading_is_cut_off(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let broker = &app.state.live.broker;
    // Bob's stream as the route opens it, never read.
    let opened = broker
        .open(
            bob.id,
            std::sync::Arc::new(murmur::sessions::Credential::Session("a-session".into())),
            Default::default(),
            None,
        )
        .unwrap();
    for post in 0..(murmur::live::broker::STREAM_BUFFER as i64 + 10) {
        let change = murmur::live::Change::Published { author: ada.id, post };
        broker.deliver(&app.state.db, change, app.clock.now()).await.unwrap();
    }
    assert_eq!(broker.open_streams(), 0, "cut off");
    let mut frames = opened.frames;
    let mut held = 0;
    while frames.recv().await.is_some() {
        held += 1;
    }
    assert_eq!(held, murmur::live::broker::STREAM_BUFFER, "it held no more than its buffer");
}

async fn the_stream_is_never_compressed_and_needs_a_session(app: TestApp) {
    let ada = app.member("ada").await;
    let response = ada.client.get(app.url("/api/events")).header("Accept-Encoding", "gzip, br").send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("content-encoding").is_none(), "{:?}", response.headers());
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let visitor = app.client.get(app.url("/api/events")).send().await.unwrap();
    assert_eq!(visitor.status(), 401);
}

async fn a_closing_server_ends_its_streams_with_a_retry_hint(mut app: TestApp) {
    let ada = app.member("ada").await;
    let mut events = stream(&app, &ada, "").await;
    app.begin_shutdown();
    assert!(events.next(Duration::from_secs(5)).await.is_none(), "ended");
    assert!(events.retry_seen, "told when to come back");
    let server = app.take_server().unwrap();
    tokio::time::timeout(Duration::from_secs(10), server).await.expect("the server stopped").unwrap().unwrap();
}

/// The number of the last change this process's broker took (the `seq` of an event id): a
/// stream opened now says it in its `hello`.
async fn last_change(app: &TestApp, who: &Member) -> u64 {
    let mut events = Events::open(&who.client, &app.url("/api/events"), None).await;
    let (id, _, _) = events.expect("hello").await;
    id.split_once('-').and_then(|(_, seq)| seq.parse().ok()).unwrap_or_else(|| panic!("an event id: {id}"))
}

/// A member blocked by an author hears nothing of the author's post from a thread left open.
async fn a_blocked_member_hears_no_counts_of_the_blockers_post(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let adas = id(&write(&app, &ada, "Count me").await);
    let mut watching = stream(&app, &bob, &format!("?post={adas}")).await;
    like(&app, &cyd, adas).await;
    assert_eq!(watching.expect("post-counts").await.2["likeCount"], 1);
    let (status, body) = post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201, "{body}");

    let (status, body) = post(&app, &ada, "/api/posts", json!({ "content": "Ada answers", "replyToId": adas })).await;
    assert_eq!(status, 201, "{body}");
    like(&app, &ada, adas).await;
    assert!(!names(&watching.drain(QUIET).await).contains(&"post-counts"), "Bob is blocked");
    let mut opened_after = stream(&app, &bob, &format!("?post={adas}")).await;
    like(&app, &bob, id(&write(&app, &cyd, "Elsewhere").await)).await;
    crate::posts::delete(&app, &cyd, &format!("/api/posts/{adas}/like")).await;
    assert!(!names(&opened_after.drain(QUIET).await).contains(&"post-counts"));
}

async fn mark(app: &TestApp, who: &Member, path: &str) -> (u16, Value) {
    crate::posts::put(app, who, path, None).await
}

/// Marking read tells the member's tabs only of what changed, so calls that change nothing
/// take no place among the changes kept for catch-up; and it is limited like other writes.
async fn marking_notifications_read_publishes_only_real_changes_and_is_limited(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let (_, list) = crate::posts::get(&app, &ada, "/api/notifications").await;
    let notification = list[0]["id"].as_i64().unwrap();
    tokio::time::sleep(QUIET).await;
    app.at_start_of_window(murmur::clock::MINUTE);
    let before = last_change(&app, &bob).await;
    let mut adas = stream(&app, &ada, "").await;

    assert_eq!(mark(&app, &ada, "/api/notifications/999999/read").await.0, 404);
    assert_eq!(mark(&app, &ada, &format!("/api/notifications/{notification}/read")).await.0, 204);
    assert_eq!(adas.expect("unread-count").await.2, json!({ "count": 0 }));
    assert_eq!(mark(&app, &ada, &format!("/api/notifications/{notification}/read")).await.0, 204, "read already");
    assert_eq!(mark(&app, &ada, "/api/notifications/read-all").await.0, 204, "nothing unread");
    assert_eq!(names(&adas.drain(QUIET).await), Vec::<&str>::new());
    assert_eq!(last_change(&app, &bob).await, before + 1, "only the one read took a place");

    let mut answered = 4;
    let refused = loop {
        let (status, body) = mark(&app, &ada, "/api/notifications/999999/read").await;
        if status != 404 {
            break (status, body);
        }
        answered += 1;
        assert!(answered < 1000, "never limited");
    };
    assert_eq!(refused.0, 429, "{}", refused.1);
    assert_eq!(answered, 120);
    assert_eq!(mark(&app, &ada, "/api/notifications/read-all").await.0, 429, "one allowance for both");
    assert_eq!(last_change(&app, &bob).await, before + 1);
}

/// A mention of a member who blocked its author writes no notification, and tells their tabs
/// nothing.
async fn a_mention_across_a_block_tells_the_mentioned_members_tabs_nothing(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, body) = post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201, "{body}");
    let mut adas = stream(&app, &ada, "").await;
    write(&app, &bob, "Hello @ada").await;
    assert_eq!(names(&adas.drain(QUIET).await), Vec::<&str>::new());
    // Unblocked, a mention is heard.
    let (status, _) = crate::posts::delete(&app, &ada, &format!("/api/blocks/{}", bob.id)).await;
    assert_eq!(status, 204);
    write(&app, &bob, "Hello again @ada").await;
    adas.expect("notification").await;
}

both_databases!(
    a_blocked_member_hears_no_counts_of_the_blockers_post,
    marking_notifications_read_publishes_only_real_changes_and_is_limited,
    a_mention_across_a_block_tells_the_mentioned_members_tabs_nothing,
    a_like_reaches_its_authors_streams_and_nobody_elses,
    followers_hear_of_new_posts_unless_they_muted_the_author,
    the_web_stream_is_not_told_of_edits_and_deletions,
    a_thread_stream_follows_its_posts_counts,
    a_reconnect_replays_exactly_what_was_missed,
    a_stream_ends_with_its_session,
    a_member_holds_at_most_five_streams,
    a_reader_that_stops_reading_is_cut_off,
    the_stream_is_never_compressed_and_needs_a_session,
    a_closing_server_ends_its_streams_with_a_retry_hint,
);

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(
    a_like_reaches_its_authors_streams_and_nobody_elses,
    followers_hear_of_new_posts_unless_they_muted_the_author,
);
