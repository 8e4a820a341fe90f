//! Direct messages (issue 63): conversations of 2 to 8 members that the same people always
//! reopen, who may start one (each member's setting, Requests and their limit), what a block,
//! a suspension, a deletion and leaving Murmur do, putting a conversation away, read state,
//! the daily limits, and that no one outside a conversation (a moderator included) reads it.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, make_moderator, suspend_in_database};
use crate::posts::{delete, follow, get, post, post_empty, put};

async fn open(app: &TestApp, who: &Member, others: &[&Member]) -> (u16, Value) {
    let ids: Vec<i64> = others.iter().map(|m| m.id).collect();
    post(app, who, "/api/conversations", json!({ "memberIds": ids })).await
}

/// Opens a new conversation and answers its id.
async fn started(app: &TestApp, who: &Member, others: &[&Member]) -> i64 {
    let (status, body) = open(app, who, others).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_i64().unwrap()
}

async fn send(app: &TestApp, who: &Member, conversation: i64, content: &str) -> (u16, Value) {
    post(app, who, &format!("/api/conversations/{conversation}/messages"), json!({ "content": content })).await
}

async fn sent(app: &TestApp, who: &Member, conversation: i64, content: &str) -> i64 {
    let (status, body) = send(app, who, conversation, content).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_i64().unwrap()
}

async fn listed(app: &TestApp, who: &Member, place: &str) -> Vec<Value> {
    let (status, body) = get(app, who, &format!("/api/conversations?box={place}")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().clone()
}

fn ids_of(list: &[Value]) -> Vec<i64> {
    list.iter().map(|c| c["id"].as_i64().unwrap()).collect()
}

async fn contents(app: &TestApp, who: &Member, conversation: i64, query: &str) -> Vec<String> {
    let (status, body) = get(app, who, &format!("/api/conversations/{conversation}/messages{query}")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap().to_string()).collect()
}

async fn unread(app: &TestApp, who: &Member) -> i64 {
    let (status, body) = get(app, who, "/api/conversations/unread-count").await;
    assert_eq!(status, 200, "{body}");
    body["count"].as_i64().unwrap()
}

async fn set_messages_from(app: &TestApp, who: &Member, from: &str) {
    let (status, body) = put(app, who, "/api/users/preferences", Some(json!({ "messagesFrom": from }))).await;
    assert_eq!((status, &body["messagesFrom"]), (200, &json!(from)), "{body}");
}

async fn a_conversation_opens_once_for_the_same_people_and_carries_their_messages(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let (_, me) = get(&app, &bob, "/api/auth/me").await;
    assert_eq!(me["messagesFrom"], "following", "the default: {me}");

    let id = started(&app, &ada, &[&bob]).await;
    let (status, again) = open(&app, &ada, &[&bob, &ada, &bob]).await;
    assert_eq!((status, again["id"].as_i64()), (200, Some(id)), "{again}");
    let (status, from_bob) = open(&app, &bob, &[&ada]).await;
    assert_eq!((status, from_bob["id"].as_i64()), (200, Some(id)), "{from_bob}");

    sent(&app, &ada, id, "  Hello Bob  ").await;
    sent(&app, &ada, id, "Tea later?\nAt four").await;
    let inbox = listed(&app, &bob, "inbox").await;
    assert_eq!(ids_of(&inbox), [id]);
    let one = &inbox[0];
    assert_eq!(one["members"][0]["username"], "ada", "{one}");
    assert_eq!(one["members"].as_array().unwrap().len(), 1, "the caller is not among the members: {one}");
    assert_eq!((&one["box"], &one["unread"], &one["canSend"]), (&json!("inbox"), &json!(true), &json!(true)));
    assert_eq!(one["lastMessage"]["content"], "Tea later?\nAt four", "{one}");
    assert_eq!(one["lastMessage"]["author"]["username"], "ada", "{one}");
    assert!(one["lastMessage"]["author"].get("email").is_none(), "{one}");
    assert_eq!(contents(&app, &bob, id, "").await, ["Tea later?\nAt four", "Hello Bob"]);
    assert_eq!(unread(&app, &bob).await, 1);
    assert_eq!(unread(&app, &ada).await, 0, "a member's own message is read");

    let (status, _) = post_empty(&app, &bob, &format!("/api/conversations/{id}/read")).await;
    assert_eq!(status, 204);
    assert_eq!(unread(&app, &bob).await, 0);
    let (_, seen) = get(&app, &bob, &format!("/api/conversations/{id}")).await;
    assert_eq!(seen["unread"], false, "{seen}");

    // Older messages page back by id.
    let reply = sent(&app, &bob, id, "Yes!").await;
    assert_eq!(contents(&app, &ada, id, "?limit=2").await, ["Yes!", "Tea later?\nAt four"]);
    assert_eq!(
        contents(&app, &ada, id, &format!("?limit=2&before={reply}")).await,
        ["Tea later?\nAt four", "Hello Bob"]
    );

    let refused = [
        (json!({ "content": "   " }), 400, "A message cannot be empty"),
        (json!({ "content": "m".repeat(1001) }), 400, "A message can be at most 1000 characters long"),
        (json!({ "content": "a\u{0}b" }), 400, "A message cannot contain"),
        (json!({ "text": "hi" }), 400, "content"),
    ];
    for (body, status, message) in refused {
        let (got, answer) = post(&app, &ada, &format!("/api/conversations/{id}/messages"), body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["message"].as_str().unwrap().contains(message), "{body}: {answer}");
    }
    let others: Vec<i64> = (1000..1008).collect();
    for (body, status) in [
        (json!({ "memberIds": [] }), 400),
        (json!({ "memberIds": [ada.id] }), 400),
        (json!({ "memberIds": [0] }), 400),
        (json!({ "memberIds": others }), 400),
        (json!({ "memberIds": [999_999] }), 404),
        (json!({ "memberIds": "bob" }), 400),
    ] {
        let (got, answer) = post(&app, &ada, "/api/conversations", body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["message"].is_string(), "{answer}");
    }
    let (status, body) = get(&app, &ada, "/api/conversations?box=outbox").await;
    assert_eq!(status, 400, "{body}");
}

async fn no_one_outside_a_conversation_reads_or_touches_it(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    follow(&app, &bob, &ada).await;
    let id = started(&app, &ada, &[&bob]).await;
    let message = sent(&app, &ada, id, "Only for Bob").await;
    // A moderator is no exception: no route reads a conversation it is not in.
    make_moderator(&app, &cyd).await;

    let reads = [
        format!("/api/conversations/{id}"),
        format!("/api/conversations/{id}/messages"),
        format!("/api/conversations/{}", id + 1),
    ];
    for path in &reads {
        let (status, body) = get(&app, &cyd, path).await;
        assert_eq!((status, &body["message"]), (404, &json!("Conversation not found")), "{path}: {body}");
    }
    for path in ["read", "accept"] {
        let (status, body) = post_empty(&app, &cyd, &format!("/api/conversations/{id}/{path}")).await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    let (status, _) = send(&app, &cyd, id, "Let me in").await;
    assert_eq!(status, 404);
    let (status, _) = put(&app, &cyd, &format!("/api/conversations/{id}/mute"), Some(json!({ "muted": true }))).await;
    assert_eq!(status, 404);
    let (status, _) = delete(&app, &cyd, &format!("/api/conversations/{id}")).await;
    assert_eq!(status, 404);
    let (status, body) = delete(&app, &cyd, &format!("/api/messages/{message}")).await;
    assert_eq!((status, &body["message"]), (404, &json!("Message not found")), "{body}");
    assert!(listed(&app, &cyd, "inbox").await.is_empty());

    // Inside it, only its author deletes a message.
    let (status, body) = delete(&app, &bob, &format!("/api/messages/{message}")).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(contents(&app, &bob, id, "").await, ["Only for Bob"]);

    // The moderators' routes name no conversation: the document has none under moderation.
    let (_, doc) = get(&app, &ada, "/api/openapi.json").await;
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    assert!(paths.iter().any(|p| p.starts_with("/api/conversations")), "{paths:?}");
    assert!(
        !paths
            .iter()
            .any(|p| p.starts_with("/api/moderation") && (p.contains("conversation") || p.contains("message"))),
        "{paths:?}"
    );
}

async fn each_member_says_who_may_start_a_conversation_and_strangers_arrive_as_requests(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;

    // Bob does not follow Ada; by default he takes new messages only from people he follows.
    let (status, body) = open(&app, &ada, &[&bob]).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["message"], "@bob takes new messages only from people they follow");
    set_messages_from(&app, &cyd, "nobody").await;
    follow(&app, &cyd, &ada).await;
    let (status, body) = open(&app, &ada, &[&cyd]).await;
    assert_eq!((status, &body["message"]), (403, &json!("@cyd does not take new messages")), "{body}");
    let (status, body) = put(&app, &bob, "/api/users/preferences", Some(json!({ "messagesFrom": "friends" }))).await;
    assert_eq!(status, 400, "{body}");

    // From everyone: a stranger's conversation waits under Requests.
    set_messages_from(&app, &bob, "everyone").await;
    let id = started(&app, &ada, &[&bob]).await;
    let (_, mine) = get(&app, &ada, &format!("/api/conversations/{id}")).await;
    assert_eq!((&mine["box"], &mine["sentAsRequest"]), (&json!("inbox"), &json!(true)), "{mine}");
    for n in 1..=3 {
        sent(&app, &ada, id, &format!("Hi, {n}")).await;
    }
    let (status, body) = send(&app, &ada, id, "Hi, 4").await;
    assert_eq!(
        (status, &body["message"]),
        (422, &json!("Sent as a request: you can send more messages once it is accepted"))
    );
    assert!(listed(&app, &bob, "inbox").await.is_empty());
    let requests = listed(&app, &bob, "requests").await;
    assert_eq!(ids_of(&requests), [id]);
    assert_eq!((&requests[0]["box"], &requests[0]["sentAsRequest"]), (&json!("requests"), &json!(false)));
    assert_eq!(unread(&app, &bob).await, 0, "requests are not counted in the inbox's unread");

    let (status, accepted) = post_empty(&app, &bob, &format!("/api/conversations/{id}/accept")).await;
    assert_eq!((status, &accepted["box"]), (200, &json!("inbox")), "{accepted}");
    assert_eq!(ids_of(&listed(&app, &bob, "inbox").await), [id]);
    let (_, mine) = get(&app, &ada, &format!("/api/conversations/{id}")).await;
    assert_eq!(mine["sentAsRequest"], false, "{mine}");
    sent(&app, &ada, id, "Hi, 4").await;

    // A declined request goes quietly: its sender sees it as before.
    let dee = app.member("dee").await;
    set_messages_from(&app, &dee, "everyone").await;
    let declined = started(&app, &ada, &[&dee]).await;
    sent(&app, &ada, declined, "Hello Dee").await;
    let (status, _) = delete(&app, &dee, &format!("/api/conversations/{declined}")).await;
    assert_eq!(status, 204);
    assert!(listed(&app, &dee, "requests").await.is_empty());
    let (status, _) = get(&app, &dee, &format!("/api/conversations/{declined}")).await;
    assert_eq!(status, 404);
    let (_, theirs) = get(&app, &ada, &format!("/api/conversations/{declined}")).await;
    assert_eq!(theirs["sentAsRequest"], true, "{theirs}");
    sent(&app, &ada, declined, "Still there?").await;
    assert!(listed(&app, &dee, "requests").await.is_empty(), "a new message does not bring it back");

    // Answering a request accepts it.
    let eve = app.member("eve").await;
    set_messages_from(&app, &eve, "everyone").await;
    let answered = started(&app, &ada, &[&eve]).await;
    sent(&app, &eve, answered, "Hi Ada").await;
    assert_eq!(ids_of(&listed(&app, &eve, "inbox").await), [answered]);
    let (_, mine) = get(&app, &ada, &format!("/api/conversations/{answered}")).await;
    assert_eq!(mine["sentAsRequest"], false, "{mine}");
}

async fn a_block_ends_new_messages_and_hides_the_conversation_from_the_blocker(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    for who in [&bob, &cyd] {
        follow(&app, who, &ada).await;
    }
    let pair = started(&app, &ada, &[&bob]).await;
    sent(&app, &bob, pair, "Hello").await;
    let group = started(&app, &ada, &[&bob, &cyd]).await;

    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201);
    assert_eq!(ids_of(&listed(&app, &ada, "inbox").await), Vec::<i64>::new(), "hidden from the blocker");
    let (status, _) = get(&app, &ada, &format!("/api/conversations/{pair}")).await;
    assert_eq!(status, 404);
    let (_, theirs) = get(&app, &bob, &format!("/api/conversations/{pair}")).await;
    assert_eq!(theirs["canSend"], false, "{theirs}");
    let (status, body) = send(&app, &bob, pair, "Why?").await;
    assert_eq!((status, &body["message"]), (403, &json!("This conversation takes no new messages")), "{body}");
    // Nor in a group that holds both, for anyone in it.
    let (status, _) = send(&app, &cyd, group, "Hi all").await;
    assert_eq!(status, 403);
    let (status, body) = open(&app, &bob, &[&ada]).await;
    assert_eq!(status, 200, "the conversation they have: {body}");
    let dee = app.member("dee").await;
    follow(&app, &dee, &bob).await;
    let (status, body) = post(&app, &dee, "/api/blocks", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = open(&app, &bob, &[&dee]).await;
    assert_eq!((status, &body["message"]), (403, &json!("You cannot message @dee")), "{body}");
}

async fn a_suspended_members_messages_are_withheld(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let id = started(&app, &ada, &[&bob]).await;
    sent(&app, &ada, id, "Hello").await;
    sent(&app, &bob, id, "Buy my coins").await;
    suspend_in_database(&app, bob.id).await;
    assert_eq!(contents(&app, &ada, id, "").await, ["Hello"]);
    let (_, conversation) = get(&app, &ada, &format!("/api/conversations/{id}")).await;
    assert!(conversation["lastMessage"].is_null(), "{conversation}");
    let (status, body) = send(&app, &bob, id, "Still here").await;
    assert_eq!(status, 403, "{body}");
}

async fn deleted_messages_and_members_who_leave_keep_their_place_without_words(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let id = started(&app, &ada, &[&bob]).await;
    let first = sent(&app, &ada, id, "Oops, wrong person").await;
    sent(&app, &ada, id, "Second thought").await;
    let (status, _) = delete(&app, &ada, &format!("/api/messages/{first}")).await;
    assert_eq!(status, 204);
    let (_, list) = get(&app, &bob, &format!("/api/conversations/{id}/messages")).await;
    assert_eq!((&list[1]["removed"], &list[1]["content"]), (&json!("deleted"), &json!("")), "{list}");
    assert_eq!(list[0]["removed"], Value::Null, "{list}");
    let stored: String = sqlx::query_scalar("SELECT content FROM messages WHERE id = $1")
        .bind(first)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, "", "a deleted message's words are gone from the database");

    crate::account_deletion::delete_account(&app, &ada).await;
    let (_, list) = get(&app, &bob, &format!("/api/conversations/{id}/messages")).await;
    for message in list.as_array().unwrap() {
        assert_eq!((&message["removed"], &message["content"]), (&json!("memberDeleted"), &json!("")), "{list}");
        assert!(message["author"].is_null(), "{list}");
    }
    let (_, conversation) = get(&app, &bob, &format!("/api/conversations/{id}")).await;
    assert_eq!((&conversation["canSend"], &conversation["members"]), (&json!(false), &json!([])), "{conversation}");
    crate::account_deletion::cleaned_up(&app).await;
    let words: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM messages WHERE content <> '' OR author_id IS NOT NULL")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(words, 0, "nothing of what Ada wrote, nor her name, stays");
    assert_eq!(contents(&app, &bob, id, "").await, ["", ""]);
}

async fn a_conversation_is_hidden_left_or_muted_by_each_member_alone(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    for who in [&bob, &cyd] {
        follow(&app, who, &ada).await;
    }
    let pair = started(&app, &ada, &[&bob]).await;
    sent(&app, &ada, pair, "One").await;
    let (status, _) = delete(&app, &bob, &format!("/api/conversations/{pair}")).await;
    assert_eq!(status, 204);
    assert!(listed(&app, &bob, "inbox").await.is_empty(), "hidden");
    assert_eq!(ids_of(&listed(&app, &ada, "inbox").await), [pair], "only for Bob");
    sent(&app, &ada, pair, "Two").await;
    assert_eq!(ids_of(&listed(&app, &bob, "inbox").await), [pair], "back with its next message");

    let group = started(&app, &ada, &[&bob, &cyd]).await;
    let (status, _) = delete(&app, &cyd, &format!("/api/conversations/{group}")).await;
    assert_eq!(status, 204);
    let (status, _) = get(&app, &cyd, &format!("/api/conversations/{group}")).await;
    assert_eq!(status, 404, "left for good");
    sent(&app, &ada, group, "Where is Cyd?").await;
    assert!(!ids_of(&listed(&app, &cyd, "inbox").await).contains(&group));
    let (_, seen) = get(&app, &bob, &format!("/api/conversations/{group}")).await;
    let names: Vec<&str> =
        seen["members"].as_array().unwrap().iter().map(|m| m["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["ada"], "{seen}");

    assert_eq!(unread(&app, &bob).await, 2);
    let (status, muted) =
        put(&app, &bob, &format!("/api/conversations/{group}/mute"), Some(json!({ "muted": true }))).await;
    assert_eq!((status, &muted["muted"]), (200, &json!(true)), "{muted}");
    assert_eq!(unread(&app, &bob).await, 1, "a muted conversation is not counted");
    let (status, _) =
        put(&app, &bob, &format!("/api/conversations/{group}/mute"), Some(json!({ "muted": "yes" }))).await;
    assert_eq!(status, 400);
}

async fn members_start_a_few_new_conversations_a_day(app: TestApp) {
    let ada = app.member("ada").await;
    let mut others = Vec::new();
    for n in 0..26 {
        let other = app.member(&format!("friend{n}")).await;
        follow(&app, &other, &ada).await;
        others.push(other);
    }
    // In her first day, five.
    for other in &others[..5] {
        started(&app, &ada, &[other]).await;
    }
    let (status, body) = open(&app, &ada, &[&others[5]]).await;
    assert_eq!(status, 429, "{body}");
    let (status, _) = open(&app, &ada, &[&others[0]]).await;
    assert_eq!(status, 200, "reopening is not starting");

    // Later, twenty a day.
    app.clock.advance(Duration::from_secs(25 * 3600));
    for other in &others[5..25] {
        started(&app, &ada, &[other]).await;
    }
    let (status, body) = open(&app, &ada, &[&others[25]]).await;
    assert_eq!(status, 429, "{body}");
}

async fn a_message_reaches_the_open_tabs_of_those_who_read_the_conversation_only(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    follow(&app, &bob, &ada).await;
    set_messages_from(&app, &dee, "everyone").await;
    let id = started(&app, &ada, &[&bob, &dee]).await;
    let (status, _) = delete(&app, &dee, &format!("/api/conversations/{id}")).await;
    assert_eq!(status, 204, "Dee declines");
    let mut adas = crate::live::stream(&app, &ada, "").await;
    let mut bobs = crate::live::stream(&app, &bob, "").await;
    let mut cyds = crate::live::stream(&app, &cyd, "").await;
    let mut dees = crate::live::stream(&app, &dee, "").await;

    let message = sent(&app, &ada, id, "Are you there?").await;
    assert_eq!(bobs.expect("message").await.2, json!({ "conversationId": id }));
    assert_eq!(adas.expect("message").await.2, json!({ "conversationId": id }), "her other tabs");
    for (name, tab) in [("Cyd", &mut cyds), ("Dee", &mut dees)] {
        let heard = tab.drain(crate::live::QUIET).await;
        assert!(!heard.iter().any(|event| event.1 == "message"), "{name} heard {heard:?}");
    }
    let (status, _) = delete(&app, &ada, &format!("/api/messages/{message}")).await;
    assert_eq!(status, 204);
    assert_eq!(bobs.expect("message").await.2, json!({ "conversationId": id }), "a deletion too");
    let (status, _) = post_empty(&app, &bob, &format!("/api/conversations/{id}/read")).await;
    assert_eq!(status, 204);
    assert_eq!(bobs.expect("message").await.2, json!({ "conversationId": id }), "read in another tab");
    let heard = adas.drain(crate::live::QUIET).await;
    assert!(heard.iter().filter(|event| event.1 == "message").count() == 1, "Bob's reading is his: {heard:?}");
}

async fn a_report_shows_the_moderators_the_chosen_messages_and_nothing_else(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let moderator = app.member("mod").await;
    make_moderator(&app, &moderator).await;
    follow(&app, &bob, &ada).await;
    follow(&app, &ada, &bob).await;
    let id = started(&app, &ada, &[&bob]).await;
    let context = sent(&app, &ada, id, "Please stop").await;
    let nasty = sent(&app, &bob, id, "You will regret this").await;
    sent(&app, &bob, id, "Something private and harmless").await;
    follow(&app, &cyd, &ada).await;
    let elsewhere = started(&app, &ada, &[&bob, &cyd]).await;
    let other = sent(&app, &bob, elsewhere, "In the group").await;

    let report = |ids: Vec<i64>| json!({ "messageIds": ids, "reason": "harassment", "comment": "Threats" });
    for (body, status) in [
        (report(vec![]), 400),
        (report(vec![context]), 400),
        (report(vec![nasty, other]), 400),
        (report(vec![nasty, 999_999]), 404),
        (report((1..=21).collect()), 400),
        (json!({ "messageIds": [nasty], "userId": bob.id, "reason": "spam" }), 400),
    ] {
        let (got, answer) = post(&app, &ada, "/api/reports", body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
    }
    // Someone outside the conversation cannot report its messages, nor learn they exist.
    let (status, _) = post(&app, &cyd, "/api/reports", report(vec![nasty])).await;
    assert_eq!(status, 404);

    let (status, made) = post(&app, &ada, "/api/reports", report(vec![context, nasty])).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["messages"], json!([]), "the reporter is not sent back what she chose: {made}");
    let (status, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    assert_eq!(status, 200, "{queue}");
    let group = &queue[0];
    assert_eq!((&group["target"], &group["member"]["username"]), (&json!("member"), &json!("bob")), "{group}");
    let shown: Vec<(&str, &str)> = group["reports"][0]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["authorUsername"].as_str().unwrap(), m["content"].as_str().unwrap()))
        .collect();
    assert_eq!(shown, [("ada", "Please stop"), ("bob", "You will regret this")]);
    let everything = queue.to_string();
    assert!(!everything.contains("Something private"), "only what was chosen: {everything}");
    let (status, _) = get(&app, &moderator, &format!("/api/conversations/{id}/messages")).await;
    assert_eq!(status, 404, "the report opens nothing more");

    // Deleting the message afterwards does not take it out of the report.
    let (status, _) = delete(&app, &bob, &format!("/api/messages/{nasty}")).await;
    assert_eq!(status, 204);
    let (_, queue) = get(&app, &moderator, "/api/moderation/reports").await;
    assert_eq!(queue[0]["reports"][0]["messages"][1]["content"], "You will regret this");

    // Leaving Murmur, Bob takes his words out of the report too; Ada's stay hers.
    crate::account_deletion::delete_account(&app, &bob).await;
    let kept: Vec<String> = sqlx::query_scalar("SELECT content FROM report_messages ORDER BY message_id")
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(kept, ["Please stop", ""]);
}

both_databases!(
    a_report_shows_the_moderators_the_chosen_messages_and_nothing_else,
    a_message_reaches_the_open_tabs_of_those_who_read_the_conversation_only,
    a_conversation_opens_once_for_the_same_people_and_carries_their_messages,
    no_one_outside_a_conversation_reads_or_touches_it,
    each_member_says_who_may_start_a_conversation_and_strangers_arrive_as_requests,
    a_block_ends_new_messages_and_hides_the_conversation_from_the_blocker,
    a_suspended_members_messages_are_withheld,
    deleted_messages_and_members_who_leave_keep_their_place_without_words,
    a_conversation_is_hidden_left_or_muted_by_each_member_alone,
    members_start_a_few_new_conversations_a_day,
);
