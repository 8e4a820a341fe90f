//! Authorization, endpoint by endpoint: a member who names another member's object gets a
//! 403 or 404 and nothing changes; visitors get 401 from every member call (read from the
//! OpenAPI document, so new endpoints are covered without editing this file); and no GET
//! changes what the database holds.

use std::collections::BTreeMap;

use reqwest::header::{HeaderMap, HeaderValue};
use serde_json::{Value, json};
use sqlx::{Column, Row};

use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::fixtures::png;
use crate::media::{id_of, put_bytes, upload_url, uploaded};
use crate::posts::{delete, get, id, like, post, post_empty, put, repost, seen_by, write};

// ---- helpers -------------------------------------------------------------------------------

async fn scalar(app: &TestApp, sql: &'static str, bind: i64) -> i64 {
    sqlx::query_scalar(sql).bind(bind).fetch_one(&app.state.db.read).await.unwrap()
}

async fn unread(app: &TestApp, who: &Member) -> i64 {
    let (status, body) = get(app, who, "/api/notifications/unread-count").await;
    assert_eq!(status, 200, "{body}");
    body["count"].as_i64().unwrap_or_else(|| panic!("no count in {body}"))
}

async fn poll(app: &TestApp, who: &Member) -> i64 {
    let (status, p) = post(
        app,
        who,
        "/api/posts",
        json!({ "content": "Tea or coffee?", "pollOptions": ["Tea", "Coffee"], "pollDurationHours": 1 }),
    )
    .await;
    assert_eq!(status, 201, "{p}");
    id(&p)
}

/// A visitor's client as a script would be: no cookie, no Origin, the custom header that
/// passes the cross-site guard (so the answer is about the session, not about CSRF).
fn visitor() -> reqwest::Client {
    let mut headers = HeaderMap::new();
    headers.insert("x-requested-with", HeaderValue::from_static("murmur"));
    reqwest::Client::builder().default_headers(headers).redirect(reqwest::redirect::Policy::none()).build().unwrap()
}

/// Every (method, path, operation) of the served OpenAPI document.
async fn operations(app: &TestApp) -> Vec<(String, String, Value)> {
    let (status, doc) = read(app.client.get(app.url("/api/openapi.json")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths in the OpenAPI document") {
        for (method, operation) in item.as_object().unwrap() {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                found.push((method.clone(), path.clone(), operation.clone()));
            }
        }
    }
    assert!(found.len() >= 30, "the document lists the API: {found:?}");
    found
}

/// `{name}` segments replaced by `fill(name)`.
fn fill_path(path: &str, fill: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        let end = rest[start..].find('}').expect("a closed path parameter") + start;
        out.push_str(&rest[..start]);
        out.push_str(&fill(&rest[start + 1..end]));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Calls open to visitors: they cannot need a session. Everything else must.
const VISITOR_CALLS: [(&str, &str); 9] = [
    ("post", "/api/waitlist"),
    ("post", "/api/auth/request-magic-link"),
    ("post", "/api/auth/request-login-link"),
    ("get", "/api/auth/verify"),
    // The e-mailed token names the member (tests/api/email_change.rs).
    ("post", "/api/auth/email/confirm"),
    ("get", "/api/login"),
    // Signing in with a passkey: the authenticator's signature is the credential
    // (tests/api/passkeys.rs).
    ("post", "/api/auth/passkeys/login/start"),
    ("post", "/api/auth/passkeys/login/finish"),
    // The signed URL is the authorisation (as with a presigned bucket URL, which the browser
    // PUTs to without our cookie); `an_upload_url_is_signed_for_one_object` covers it.
    ("put", "/api/objects/upload/{id}"),
];

/// The whole database as text, table by table, rows sorted: what a GET must not change. Left
/// out by design: the sessions' last_seen_at and network (a session is seen when used), the rate-limit
/// counters, the For You rankings (the network's ranking kept ready, which a read makes when
/// the newest is over a minute old) and `reader`'s own For You snapshot, the pointer to the
/// ranking their first page used (so later pages neither repeat nor skip; see docs/feeds.md).
/// Everybody else's snapshot is compared.
async fn snapshot(app: &TestApp, reader: i64) -> BTreeMap<String, Vec<String>> {
    // Every table the transfer copies: post search's full-text tables are derived from the posts.
    let mut conn = app.state.db.read.acquire().await.unwrap();
    let tables = murmur::db::transfer::tables_in_schema(&mut conn, app.state.db.backend).await.unwrap();
    drop(conn);
    assert!(tables.len() >= 14, "{tables:?}");
    let mut all = BTreeMap::new();
    for table in tables.into_iter().filter(|t| t != "rate_limits" && t != "for_you_rankings") {
        // The name comes from the database's own catalogue.
        // The columns the transfer copies: a generated one (post search's words) is derived.
        let mut conn = app.state.db.read.acquire().await.unwrap();
        let columns = murmur::db::transfer::columns(&mut conn, app.state.db.backend, &table).await.unwrap();
        drop(conn);
        let list = columns.iter().map(|c| format!("\"{}\"", c.name)).collect::<Vec<_>>().join(", ");
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {list} FROM {table}")))
            .fetch_all(&app.state.db.read)
            .await
            .unwrap();
        let mut lines: Vec<String> = rows
            .iter()
            .map(|row| {
                let mut line = String::new();
                for (i, column) in row.columns().iter().enumerate() {
                    if table == "sessions" && ["last_seen_at", "network"].contains(&column.name()) {
                        continue;
                    }
                    let value = if let Ok(v) = row.try_get::<Option<i64>, _>(i) {
                        format!("{v:?}")
                    } else if let Ok(v) = row.try_get::<Option<String>, _>(i) {
                        format!("{v:?}")
                    } else if let Ok(v) = row.try_get::<Option<f64>, _>(i) {
                        format!("{v:?}")
                    } else if let Ok(v) = row.try_get::<Option<Vec<u8>>, _>(i) {
                        format!("{v:?}")
                    } else {
                        panic!("{table}.{} has a type this snapshot cannot read", column.name())
                    };
                    line.push_str(&format!("{}={value} ", column.name()));
                }
                line
            })
            .collect();
        if table == "for_you_snapshots" {
            lines.retain(|line| !line.starts_with(&format!("user_id=Some({reader}) ")));
        }
        lines.sort();
        all.insert(table, lines);
    }
    all
}

// ---- visitors ------------------------------------------------------------------------------

async fn every_member_call_answers_visitors_401(app: TestApp) {
    let visitor = visitor();
    let operations = operations(&app).await;
    for (method, path) in VISITOR_CALLS {
        assert!(
            operations.iter().any(|(m, p, _)| m == method && p == path),
            "{method} {path} is still in the document (else drop it from VISITOR_CALLS)"
        );
    }
    let mut checked = 0;
    for (method, path, operation) in &operations {
        if VISITOR_CALLS.contains(&(method.as_str(), path.as_str())) {
            continue;
        }
        let url = app.url(&fill_path(path, |_| "1".to_string()));
        let request = visitor.request(method.to_uppercase().parse().unwrap(), &url);
        let request = if operation.get("requestBody").is_some() { request.json(&json!({})) } else { request };
        let (status, body) = read(request.send().await.unwrap()).await;
        assert_eq!((status, &body), (401, &json!({ "message": "Unauthorized" })), "{method} {path}");
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} member calls were checked");
}

// ---- GETs change nothing ---------------------------------------------------------------------

async fn no_get_changes_the_database(app: TestApp) {
    // Arrange a network with something of every kind to read.
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    crate::posts::follow(&app, &ada, &bob).await;
    crate::posts::follow(&app, &bob, &ada).await;
    let hers = write(&app, &ada, "Hello @bob").await;
    let poll_id = poll(&app, &bob).await;
    post(&app, &ada, &format!("/api/posts/{poll_id}/vote"), json!({ "option": "Tea" })).await;
    like(&app, &bob, id(&hers)).await;
    repost(&app, &bob, id(&hers)).await;
    crate::posts::reply(&app, &bob, id(&hers), "Hi").await;
    let (status, _) = post_empty(&app, &ada, "/api/invites").await;
    assert_eq!(status, 201);
    let image = uploaded(&app, &ada, png(4, 4)).await;
    let (status, _) = post(&app, &ada, "/api/posts", json!({ "content": "A picture", "imageUrls": [image] })).await;
    assert_eq!(status, 201);
    upload_url(&app, &ada).await; // and one pending upload
    let (status, _) = post(&app, &ada, "/api/waitlist", json!({ "email": "someone@example.com" })).await;
    assert!(status == 200 || status == 201, "{status}");
    assert_eq!(get(&app, &bob, "/api/posts/for-you").await.0, 200, "Bob's ranking is cached");
    // His page's pointer is written after the answer (not waited for): let it land first.
    for _ in 0..100 {
        let pointers: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM for_you_snapshots WHERE user_id = $1")
            .bind(bob.id)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
        if pointers > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    read_everything_changes_nothing(&app, &ada, &bob, id(&hers)).await;

    // A new month: the allowance shown grows by three, yet reading it writes nothing.
    move_to_next_month(&app);
    let token = murmur::sessions::create(&app.state.db.write, ada.id, app.clock.now()).await.unwrap();
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    let ada = Member { client: crate::common::client_for(&app.base, Some(&cookie)), ..ada };
    read_everything_changes_nothing(&app, &ada, &bob, id(&hers)).await;
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["invitesAvailable"], 5, "two left and three new");
    let (status, _) = post_empty(&app, &ada, "/api/invites").await;
    assert_eq!(status, 201);
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["invitesAvailable"], 4);
}

/// Calls every GET of the OpenAPI document twice as `reader` (a first read that set something
/// up would show on the second) and asserts the database is as before.
async fn read_everything_changes_nothing(app: &TestApp, reader: &Member, other: &Member, post_id: i64) {
    let before = snapshot(app, reader.id).await;
    let mut called = 0;
    for (method, path, operation) in operations(app).await {
        if method != "get" {
            continue;
        }
        // Another member's and the reader's own profile.
        for username in [&other.username, &reader.username] {
            let path = fill_path(&path, |name| match name {
                "username" => username.clone(),
                "userId" => other.id.to_string(),
                _ => post_id.to_string(),
            });
            let mut query = Vec::new();
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                if parameter["in"] == "query" {
                    match parameter["name"].as_str().unwrap() {
                        "q" => query.push(("q", "a")),
                        "limit" => query.push(("limit", "10")),
                        "offset" => query.push(("offset", "0")),
                        _ => {}
                    }
                }
            }
            for _ in 0..2 {
                let response = reader.client.get(app.url(&path)).query(&query).send().await.unwrap();
                let status = response.status().as_u16();
                assert!(status < 500, "GET {path}: {status}");
                assert_ne!(status, 401, "GET {path}: the reader is logged in");
            }
            called += 1;
        }
    }
    assert!(called >= 30, "only {called} GET calls");
    let after = snapshot(app, reader.id).await;
    for (table, rows) in &before {
        assert_eq!(Some(rows), after.get(table), "GET calls changed table {table}");
    }
    assert_eq!(before.len(), after.len());
}

/// Moves the clock to one hour into the next calendar month (UTC).
fn move_to_next_month(app: &TestApp) {
    use chrono::{Datelike, TimeZone, Utc};
    let now = Utc.timestamp_millis_opt(app.clock.now()).unwrap();
    let (year, month) = if now.month() == 12 { (now.year() + 1, 1) } else { (now.year(), now.month() + 1) };
    let next_month = Utc.with_ymd_and_hms(year, month, 1, 1, 0, 0).unwrap();
    app.clock.advance((next_month - now).to_std().unwrap());
}

// ---- naming another member's object --------------------------------------------------------

async fn only_the_recipient_marks_a_notification_read(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = write(&app, &ada, "Mine").await;
    like(&app, &bob, id(&hers)).await;
    let (_, list) = get(&app, &ada, "/api/notifications").await;
    let notification = id(&list[0]);

    let (status, body) = put(&app, &bob, &format!("/api/notifications/{notification}/read"), None).await;
    assert_eq!((status, &body["message"]), (404, &json!("Notification not found")));
    let (status, _) = put(&app, &bob, "/api/notifications/read-all", None).await;
    assert_eq!(status, 204);

    assert_eq!(unread(&app, &ada).await, 1, "still unread for its owner");
    let (_, list) = get(&app, &ada, "/api/notifications").await;
    assert_eq!(list[0]["isRead"], false);
    let read_at: Option<i64> = sqlx::query_scalar("SELECT read_at FROM notifications WHERE id = $1")
        .bind(notification)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(read_at, None);
}

async fn only_the_author_deletes_a_post(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Mine to delete").await);
    like(&app, &carol, hers).await;
    let carols_repost = id(&repost(&app, &carol, hers).await);

    let (status, body) = delete(&app, &bob, &format!("/api/posts/{hers}")).await;
    assert_eq!((status, &body["message"]), (403, &json!("You can only delete your own posts")));
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{carols_repost}")).await;
    assert_eq!(status, 403);

    let seen = seen_by(&app, &ada, hers).await;
    assert_eq!(seen["content"], "Mine to delete");
    assert_eq!((seen["likeCount"].as_i64(), seen["repostCount"].as_i64()), (Some(1), Some(1)));
    assert_eq!(
        scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE id = $1 AND deleted_at IS NULL", hers).await,
        1
    );
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE id = $1", carols_repost).await, 1);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM likes WHERE post_id = $1", hers).await, 1);
}

async fn only_the_reposter_undoes_a_repost(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Worth sharing").await);
    let carols_repost = id(&repost(&app, &carol, hers).await);

    for target in [hers, carols_repost] {
        let (status, body) = delete(&app, &bob, &format!("/api/posts/{target}/repost")).await;
        assert_eq!((status, &body["message"]), (404, &json!("You have not reposted this post")), "{target}");
    }

    assert_eq!(seen_by(&app, &ada, hers).await["repostCount"], 1);
    assert_eq!(seen_by(&app, &carol, hers).await["isReposted"], true);
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE id = $1", carols_repost).await, 1);
    assert_eq!(unread(&app, &ada).await, 1, "the repost notification stays");
}

async fn a_vote_counts_once_and_only_for_the_caller(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let poll = poll(&app, &ada).await;
    let vote = format!("/api/posts/{poll}/vote");

    // The body cannot name a voter: the vote is the caller's.
    let (status, body) = post(&app, &bob, &vote, json!({ "option": "Tea", "userId": carol.id })).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(&app, &bob, &vote, json!({ "option": "Coffee" })).await;
    assert_eq!((status, &body["message"]), (409, &json!("You have already voted")));

    let voters: Vec<i64> = sqlx::query_scalar("SELECT user_id FROM poll_votes WHERE post_id = $1")
        .bind(poll)
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(voters, vec![bob.id]);
    assert_eq!(seen_by(&app, &carol, poll).await["myVote"], Value::Null);
    let (status, body) = post(&app, &carol, &vote, json!({ "option": "Coffee" })).await;
    assert_eq!(status, 200, "carol still has her own vote: {body}");
    assert_eq!(body["pollVotes"], json!({ "Tea": [bob.id], "Coffee": [carol.id] }));
}

async fn another_members_upload_cannot_be_claimed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = uploaded(&app, &ada, png(6, 6)).await;
    let media = id_of(&adas);
    let object = format!("/objects/{media}");

    for url in [&adas, &object] {
        for path in ["/api/profile-images", "/api/header-images"] {
            let (status, body) = put(&app, &bob, path, Some(json!({ "imageURL": url }))).await;
            assert_eq!(
                (status, &body["message"]),
                (400, &json!("Image URL is not an upload of yours")),
                "{path} {url}"
            );
        }
        let (status, body) = post(&app, &bob, "/api/posts", json!({ "content": "Stolen", "imageUrls": [url] })).await;
        assert_eq!((status, &body["message"]), (400, &json!("Image URL is not an upload of yours")));
    }

    let (_, me) = get(&app, &bob, "/api/auth/me").await;
    assert_eq!((&me["profileImageUrl"], &me["headerImageUrl"]), (&Value::Null, &Value::Null));
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE author_id = $1", bob.id).await, 0);
    let attached: Option<i64> = sqlx::query_scalar("SELECT attached_at FROM media WHERE id = $1")
        .bind(&media)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(attached, None, "the image is still not attached");
    assert_eq!(scalar(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM post_images WHERE post_id > $1", 0).await, 0);
}

async fn an_upload_url_is_signed_for_one_object(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = upload_url(&app, &ada).await;
    let bobs = upload_url(&app, &bob).await;
    // Bob's signature on Ada's upload id.
    let query = bobs.split_once('?').unwrap().1;
    let forged = format!("{}?{query}", adas.split_once('?').unwrap().0);

    let (status, body) = put_bytes(&bob, &forged, png(3, 3)).await;
    assert_eq!(status, 403, "{body}");

    let status: String = sqlx::query_scalar("SELECT status FROM media WHERE id = $1")
        .bind(id_of(&adas))
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(status, "pending", "nothing was stored for Ada's upload");
    let (status, body) = put_bytes(&ada, &adas, png(3, 3)).await;
    assert_eq!(status, 200, "Ada's own URL still works: {body}");
}

async fn a_profile_edit_acts_on_the_caller_only(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let edit =
        json!({ "displayName": "Not Ada", "bio": "bob was here", "website": "", "id": ada.id, "username": "ada" });

    // Ada's username is hers: Bob cannot take it (issue 43 made `username` part of the edit).
    let (status, body) = put(&app, &bob, "/api/users/profile", Some(edit.clone())).await;
    assert_eq!((status, &body["message"]), (409, &json!("That username is taken.")), "{body}");
    let mut edit = edit;
    edit.as_object_mut().unwrap().remove("username");
    let (status, body) = put(&app, &bob, "/api/users/profile", Some(edit.clone())).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((&body["id"], &body["username"]), (&json!(bob.id), &json!("bob")));
    for path in ["/api/users/ada", &format!("/api/users/{}", ada.id)] {
        let (status, _) = put(&app, &bob, path, Some(edit.clone())).await;
        assert!(status == 404 || status == 405, "PUT {path}: {status}");
    }

    let (_, adas) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!((&adas["displayName"], &adas["bio"]), (&json!("Ada"), &json!("")));
}

async fn invites_are_shown_only_to_their_owner(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, invite) = post_empty(&app, &ada, "/api/invites").await;
    assert_eq!(status, 201, "{invite}");
    let code = invite["code"].as_str().unwrap().to_string();

    let (status, list) = get(&app, &bob, "/api/invites").await;
    assert_eq!((status, &list), (200, &json!([])));
    for path in ["/api/users/ada", "/api/users/ada/posts", "/api/users/search?q=ada", "/api/users/suggested"] {
        let (status, body) = get(&app, &bob, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(!body.to_string().contains(&code), "{path} reveals Ada's code");
    }
    let (_, mine) = post_empty(&app, &bob, "/api/invites").await;
    let (_, list) = get(&app, &bob, "/api/invites").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["code"], mine["code"]);

    let (_, list) = get(&app, &ada, "/api/invites").await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["code"], code);
    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(me["invitesAvailable"], 2);
}

async fn logout_others_ends_only_the_callers_other_sessions(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    // A second device each.
    for member in [&ada, &bob] {
        murmur::sessions::create(&app.state.db.write, member.id, app.clock.now()).await.unwrap();
    }
    let sessions = "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions WHERE user_id = $1";

    let (status, _) = post_empty(&app, &bob, "/api/auth/logout-others").await;
    assert_eq!(status, 204);

    assert_eq!(scalar(&app, sessions, bob.id).await, 1, "Bob keeps this session only");
    assert_eq!(get(&app, &bob, "/api/auth/me").await.0, 200);
    assert_eq!(scalar(&app, sessions, ada.id).await, 2, "Ada's sessions are not Bob's to end");
    assert_eq!(get(&app, &ada, "/api/auth/me").await.0, 200);
}

async fn follows_and_likes_are_always_the_callers(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let hers = id(&write(&app, &ada, "Like me").await);
    crate::posts::follow(&app, &carol, &ada).await;
    like(&app, &carol, hers).await;

    // The body cannot name a follower: the follow is Bob's.
    let (status, body) =
        post(&app, &bob, "/api/follows", json!({ "followingId": ada.id, "followerId": carol.id })).await;
    assert_eq!(status, 200, "{body}");
    let follow = "SELECT CAST(COUNT(*) AS BIGINT) FROM follows WHERE follower_id = $1";
    assert_eq!((scalar(&app, follow, bob.id).await, scalar(&app, follow, carol.id).await), (1, 1));
    // Unfollowing and unliking end Bob's follow and like only (he has no like to end).
    let (status, _) = delete(&app, &bob, &format!("/api/follows/{}", ada.id)).await;
    assert_eq!(status, 200);
    let (status, body) = delete(&app, &bob, &format!("/api/posts/{hers}/like")).await;
    assert_eq!(status, 200, "{body}");

    assert_eq!((scalar(&app, follow, bob.id).await, scalar(&app, follow, carol.id).await), (0, 1));
    let (_, profile) = get(&app, &ada, "/api/users/ada").await;
    assert_eq!(profile["followerCount"], 1);
    let seen = seen_by(&app, &carol, hers).await;
    assert_eq!((&seen["likeCount"], &seen["isLiked"]), (&json!(1), &json!(true)));
    assert_eq!(unread(&app, &ada).await, 2, "Carol's follow and like are still announced");
}

async fn a_list_answers_only_its_owner(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    crate::posts::follow(&app, &ada, &bob).await;
    crate::posts::follow(&app, &bob, &ada).await;
    let (status, list) = post(&app, &ada, "/api/lists", json!({ "title": "Ada's" })).await;
    assert_eq!(status, 201, "{list}");
    let list = id(&list);
    let (status, _) = post(&app, &ada, &format!("/api/lists/{list}/members"), json!({ "userIds": [bob.id] })).await;
    assert_eq!(status, 200);
    let before = snapshot(&app, bob.id).await;

    // Every list route, with Ada's list's id, as Bob: 404 as for no list at all.
    let path = format!("/api/lists/{list}");
    let members = app.url(&format!("{path}/members"));
    let answers = [
        get(&app, &bob, &path).await,
        get(&app, &bob, &format!("{path}/members")).await,
        get(&app, &bob, &format!("{path}/posts")).await,
        put(&app, &bob, &path, Some(json!({ "title": "Bob's now" }))).await,
        post(&app, &bob, &format!("{path}/members"), json!({ "userIds": [ada.id] })).await,
        read(bob.client.delete(members).json(&json!({ "userIds": [bob.id] })).send().await.unwrap()).await,
        delete(&app, &bob, &path).await,
    ];
    for (status, body) in answers {
        assert_eq!(status, 404, "{body}");
    }
    let after = snapshot(&app, bob.id).await;
    assert_eq!(before, after, "Bob's calls changed nothing");
    let (_, bobs) = get(&app, &bob, "/api/lists").await;
    assert_eq!(bobs, json!([]));
}

async fn muted_words_are_their_members_alone(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, word) = post(&app, &ada, "/api/muted-words", json!({ "text": "spoilers" })).await;
    assert_eq!(status, 201, "{word}");

    let (status, body) = delete(&app, &bob, &format!("/api/muted-words/{}", id(&word))).await;
    assert_eq!(status, 404, "{body}");
    let (_, bobs) = get(&app, &bob, "/api/muted-words").await;
    assert_eq!(bobs, json!([]));
    let (_, adas) = get(&app, &ada, "/api/muted-words").await;
    assert_eq!(adas.as_array().map(Vec::len), Some(1), "{adas}");
    let (status, _) = delete(&app, &ada, &format!("/api/muted-words/{}", id(&word))).await;
    assert_eq!(status, 204);
}

both_databases!(
    a_list_answers_only_its_owner,
    muted_words_are_their_members_alone,
    follows_and_likes_are_always_the_callers,
    every_member_call_answers_visitors_401,
    no_get_changes_the_database,
    only_the_recipient_marks_a_notification_read,
    only_the_author_deletes_a_post,
    only_the_reposter_undoes_a_repost,
    a_vote_counts_once_and_only_for_the_caller,
    another_members_upload_cannot_be_claimed,
    an_upload_url_is_signed_for_one_object,
    a_profile_edit_acts_on_the_caller_only,
    invites_are_shown_only_to_their_owner,
    logout_others_ends_only_the_callers_other_sessions,
);
