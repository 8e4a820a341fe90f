//! Follows: following, unfollowing, status, and exact counts under concurrency.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, post};

async fn counts(app: &TestApp, who: &Member, username: &str) -> (i64, i64) {
    let (status, user) = get(app, who, &format!("/api/users/{username}")).await;
    assert_eq!(status, 200, "{user}");
    (user["followerCount"].as_i64().unwrap(), user["followingCount"].as_i64().unwrap())
}

async fn status_of(app: &TestApp, who: &Member, whom: i64) -> Value {
    let (status, body) = get(app, who, &format!("/api/follows/{whom}/status")).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn a_member_follows_and_unfollows(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    assert_eq!(status_of(&app, &ada, bob.id).await, json!({ "isFollowing": false }));

    let (status, body) = post(&app, &ada, "/api/follows", json!({ "followingId": bob.id })).await;
    assert_eq!((status, body), (200, json!({ "isFollowing": true })));
    assert_eq!(status_of(&app, &ada, bob.id).await, json!({ "isFollowing": true }));
    assert_eq!(status_of(&app, &bob, ada.id).await, json!({ "isFollowing": false }));
    // Twice is still one follow.
    follow(&app, &ada, &bob).await;
    assert_eq!(counts(&app, &ada, "bob").await, (1, 0));
    assert_eq!(counts(&app, &ada, "ada").await, (0, 1));

    let (status, body) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!((status, body), (200, json!({ "isFollowing": false })));
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!(status, 200);
    assert_eq!(counts(&app, &ada, "bob").await, (0, 0));
    assert_eq!(counts(&app, &ada, "ada").await, (0, 0));
}

async fn following_yourself_or_nobody_is_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, body) = post(&app, &ada, "/api/follows", json!({ "followingId": ada.id })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (400, "You cannot follow yourself"));
    let (status, body) = post(&app, &ada, "/api/follows", json!({ "followingId": 999_999 })).await;
    assert_eq!((status, body["message"].as_str().unwrap()), (404, "User not found"));
    let (status, _) = post(&app, &ada, "/api/follows", json!({ "followingId": "bob" })).await;
    assert_eq!(status, 400);
    assert_eq!(counts(&app, &ada, "ada").await, (0, 0));
}

async fn concurrent_follows_are_counted_exactly(app: TestApp) {
    let star = app.member("star").await;
    let mut fans = Vec::new();
    for i in 0..20 {
        fans.push(app.member(&format!("fan{i:02}")).await);
    }
    let body = json!({ "followingId": star.id });
    let answers =
        futures::future::join_all(fans.iter().map(|f| f.client.post(app.url("/api/follows")).json(&body).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(counts(&app, &star, "star").await, (20, 0));

    // One member following ten times at once is one follow.
    let eager = app.member("eager").await;
    let answers =
        futures::future::join_all((0..10).map(|_| eager.client.post(app.url("/api/follows")).json(&body).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(counts(&app, &star, "star").await, (21, 0));
    assert_eq!(counts(&app, &star, "eager").await, (0, 1));
    let path = app.url(&format!("/api/follows/{}", star.id));
    let answers = futures::future::join_all((0..10).map(|_| eager.client.delete(&path).send())).await;
    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    assert_eq!(counts(&app, &star, "star").await, (20, 0));

    // Members following each other at the same moment never deadlock into an error.
    for fan in &fans[..5] {
        let back = json!({ "followingId": fan.id });
        let (a, b) = tokio::join!(
            star.client.post(app.url("/api/follows")).json(&back).send(),
            fan.client.delete(app.url(&format!("/api/follows/{}", star.id))).send(),
        );
        assert_eq!((a.unwrap().status().as_u16(), b.unwrap().status().as_u16()), (200, 200));
    }
    assert_eq!(counts(&app, &star, "star").await, (15, 5));
}

async fn following_too_fast_is_limited(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    for _ in 0..59 {
        follow(&app, &ada, &bob).await;
    }
    // A follow of nobody fails, and still counts (the count commits before the follow's own
    // transaction, on the same connection).
    let (status, body) = post(&app, &ada, "/api/follows", json!({ "followingId": 999999 })).await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = post(&app, &ada, "/api/follows", json!({ "followingId": bob.id })).await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["message"], "You are following too fast. Please wait a minute.");
    // The refused follow left the follow as it was.
    assert_eq!(status_of(&app, &ada, bob.id).await["isFollowing"], true);
}

both_databases!(
    a_member_follows_and_unfollows,
    following_yourself_or_nobody_is_refused,
    concurrent_follows_are_counted_exactly,
    following_too_fast_is_limited,
);

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(a_member_follows_and_unfollows, concurrent_follows_are_counted_exactly,);
