//! Text no person types but a client can send: U+0000, which PostgreSQL cannot store or take as
//! a parameter. Found by the cargo-fuzz targets (fuzz/); every such call is a 4xx with a
//! message on both databases, never a 500.

use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;
use crate::posts::{get, post, put, write};

async fn text_holding_nul_is_refused_with_a_message_not_a_500(app: TestApp) {
    let ada = app.member("ada").await;
    let poll = post(&app, &ada, "/api/posts", json!({"content": "Tea?", "pollOptions": ["yes", "no"]})).await;
    assert_eq!(poll.0, 201, "{}", poll.1);
    let poll_id = poll.1["id"].as_i64().unwrap();
    write(&app, &ada, "a fine post").await;

    let answers = [
        post(&app, &ada, "/api/posts", json!({"content": "hello\u{0}world"})).await,
        post(&app, &ada, "/api/posts", json!({"content": "poll", "pollOptions": ["a\u{0}", "b"]})).await,
        post(&app, &ada, &format!("/api/posts/{poll_id}/vote"), json!({"option": "yes\u{0}"})).await,
        put(&app, &ada, "/api/users/profile", Some(json!({"displayName": "Ada\u{0}"}))).await,
        put(&app, &ada, "/api/users/profile", Some(json!({"displayName": "Ada", "bio": "\u{0}"}))).await,
        get(&app, &ada, "/api/users/search?q=ad%00a").await,
        get(&app, &ada, "/api/users/ad%00a").await,
        get(&app, &ada, "/api/users/ad%00a/posts").await,
    ];

    for (i, (status, body)) in answers.iter().enumerate() {
        assert!((400..500).contains(status), "call {i}: {status} {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "call {i}: {body}");
    }
    let (_, me) = get(&app, &ada, "/api/users/ada").await;
    assert_eq!(me["displayName"], "Ada", "the profile is unchanged");
}

both_databases!(text_holding_nul_is_refused_with_a_message_not_a_500);
