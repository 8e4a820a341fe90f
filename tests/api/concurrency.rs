//! Concurrency, with the figures: many identical requests at once have the effect of
//! one (a link logs in once, an invite makes one account, a like counts once, a vote is one
//! vote), and counters agree with their rows. Where the volume would meet a rate limit the
//! work is spread across members, and a 429 is asserted where it is the right answer.

use std::time::Duration;

use murmur::clock::{HOUR, MINUTE};
use serde_json::json;

use crate::accounts::{follow as verify, operator_code, outbox, request_login, request_sign_up};
use crate::both_databases;
use crate::common::{Member, TestApp, json};
use crate::mailbox;
use crate::posts::{id, post, seen_by, write};

async fn count(app: &TestApp, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&app.state.db.read).await.unwrap()
}

/// The statuses of `n` copies of one request sent at once.
async fn all_at_once<F, Fut>(n: usize, send: F) -> Vec<u16>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = reqwest::Result<reqwest::Response>> + Send + 'static,
{
    let tasks: Vec<_> = (0..n).map(|_| tokio::spawn(send())).collect();
    let mut statuses = Vec::with_capacity(n);
    for task in tasks {
        statuses.push(task.await.unwrap().expect("an answer").status().as_u16());
    }
    statuses
}

fn tally(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

async fn fifty_parallel_verifies_of_one_link_make_one_session(app: TestApp) {
    let ada = app.member("ada").await;
    let (status, _) = request_login(&app, &ada.email).await;
    assert_eq!(status, 200);
    let link = mailbox::nth_mail(&outbox(&app), &ada.email, 1).await.verify_link();
    let sessions_before = count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions").await;

    let url = app.url(&mailbox::api_verify_path(&link));
    let statuses = all_at_once(50, || crate::common::client_for(&app.base, None).get(&url).send()).await;

    assert_eq!((tally(&statuses, 200), tally(&statuses, 400)), (1, 49), "{statuses:?}");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions").await, sessions_before + 1);
    // And the link is spent.
    let (_, status, _) = verify(&app, &link).await;
    assert_eq!(status, 400);
}

async fn twenty_parallel_sign_ups_with_one_invite_make_one_account(app: TestApp) {
    app.at_start_of_window(HOUR);
    let code = operator_code(&app).await;
    let emails: Vec<String> = (0..20).map(|i| format!("person{i:02}@example.com")).collect();
    // Twenty requests from one network: exactly its hourly allowance of links.
    let requests = futures::future::join_all(emails.iter().map(|e| request_sign_up(&app, e, &code))).await;
    assert!(requests.iter().all(|(status, _)| *status == 200), "{requests:?}");
    let mut links = Vec::new();
    for email in &emails {
        links.push(mailbox::nth_mail(&outbox(&app), email, 1).await.verify_link());
    }
    let (status, body) = request_sign_up(&app, "one-too-many@example.com", &code).await;
    assert_eq!(status, 429, "the network's 21st link this hour: {body}");

    let verifies = futures::future::join_all(links.iter().map(|link| verify(&app, link))).await;
    let statuses: Vec<u16> = verifies.iter().map(|(_, status, _)| *status).collect();

    assert_eq!((tally(&statuses, 200), tally(&statuses, 400)), (1, 19), "{statuses:?}");
    assert!(
        verifies
            .iter()
            .filter(|(_, status, _)| *status == 400)
            .all(|(_, _, body)| body["message"] == "Invalid or expired invite code")
    );
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM users").await, 1);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM sessions").await, 1);
    let used_by: Vec<Option<i64>> = sqlx::query_scalar("SELECT used_by FROM invites WHERE code = $1")
        .bind(&code)
        .fetch_all(&app.state.db.read)
        .await
        .unwrap();
    let member: i64 = count(&app, "SELECT id FROM users").await;
    assert_eq!(used_by, vec![Some(member)], "the invite is used once, by the one account");
}

/// The sign-up link of each address, each asked for with an invite code of its own.
async fn sign_up_links(app: &TestApp, emails: &[String]) -> Vec<String> {
    let mut links = Vec::new();
    for email in emails {
        let code = operator_code(app).await;
        let (status, body) = request_sign_up(app, email, &code).await;
        assert_eq!(status, 200, "{body}");
        links.push(mailbox::nth_mail(&outbox(app), email, 1).await.verify_link());
    }
    links
}

async fn people_with_one_name_signing_up_at_once_each_get_an_account(app: TestApp) {
    app.at_start_of_window(HOUR);
    // Twenty addresses with one local part: their usernames all start from "sam".
    let emails: Vec<String> = (0..20).map(|i| format!("sam@site{i:02}.example")).collect();
    let links = sign_up_links(&app, &emails).await;

    let verifies = futures::future::join_all(links.iter().map(|link| verify(&app, link))).await;

    let statuses: Vec<u16> = verifies.iter().map(|(_, status, _)| *status).collect();
    assert_eq!(tally(&statuses, 200), 20, "{statuses:?}");
    let mut usernames: Vec<String> =
        verifies.iter().map(|(_, _, user)| user["username"].as_str().unwrap().to_string()).collect();
    usernames.sort();
    usernames.dedup();
    assert_eq!(usernames.len(), 20, "{usernames:?}");
    assert!(usernames.iter().all(|u| u.starts_with("sam")), "{usernames:?}");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM users").await, 20);
}

async fn of_people_signing_up_at_once_on_an_empty_instance_one_is_admin(app: TestApp) {
    app.at_start_of_window(HOUR);
    let emails: Vec<String> = (0..10).map(|i| format!("founder{i:02}@example.com")).collect();
    let links = sign_up_links(&app, &emails).await;

    let verifies = futures::future::join_all(links.iter().map(|link| verify(&app, link))).await;

    let roles: Vec<&str> = verifies.iter().map(|(_, _, user)| user["role"].as_str().unwrap_or("none")).collect();
    assert_eq!(roles.iter().filter(|role| **role == "admin").count(), 1, "{roles:?}");
    assert_eq!(roles.iter().filter(|role| **role == "member").count(), 9, "{roles:?}");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM users WHERE role = 'admin'").await, 1);
}

async fn a_hundred_parallel_likes_make_one_like(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Like me").await);
    let url = app.url(&format!("/api/posts/{hers}/like"));
    app.at_start_of_window(MINUTE);

    let statuses = all_at_once(100, || bob.client.post(&url).send()).await;
    assert_eq!(tally(&statuses, 200), 100, "under the limit of 120 a minute: {statuses:?}");
    assert_eq!(seen_by(&app, &ada, hers).await["likeCount"], 1);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM likes").await, 1);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications").await, 1);

    let statuses = all_at_once(100, || bob.client.delete(&url).send()).await;
    assert_eq!(tally(&statuses, 200), 100, "{statuses:?}");
    assert_eq!(seen_by(&app, &ada, hers).await["likeCount"], 0);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM likes").await, 0);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications").await, 0);

    // The 121st like within a minute is refused; a minute later liking works again.
    let statuses = all_at_once(30, || bob.client.post(&url).send()).await;
    assert_eq!((tally(&statuses, 200), tally(&statuses, 429)), (20, 10), "{statuses:?}");
    assert_eq!(seen_by(&app, &ada, hers).await["likeCount"], 1);
    app.clock.advance(Duration::from_secs(61));
    assert_eq!(bob.client.delete(&url).send().await.unwrap().status(), 200);
    assert_eq!(bob.client.post(&url).send().await.unwrap().status(), 200);
}

async fn parallel_invite_generation_never_overdraws(app: TestApp) {
    let ada = app.member("ada").await;
    let url = app.url("/api/invites");
    app.at_start_of_window(MINUTE);

    let statuses = all_at_once(30, || ada.client.post(&url).send()).await;

    // Ten a minute pass the rate limit; three of those find an invite to take.
    assert_eq!((tally(&statuses, 201), tally(&statuses, 400), tally(&statuses, 429)), (3, 7, 20), "{statuses:?}");
    let made: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM invites WHERE owner_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(made, 3);
    let available: i64 = sqlx::query_scalar("SELECT invites_available FROM users WHERE id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(available, 0, "never negative");
}

async fn thirty_parallel_follows_are_counted_exactly(app: TestApp) {
    let star = app.member("star").await;
    let mut fans: Vec<Member> = Vec::new();
    for i in 0..30 {
        fans.push(app.member(&format!("fan{i:02}")).await);
    }
    let body = json!({ "followingId": star.id });
    app.at_start_of_window(MINUTE);

    let answers =
        futures::future::join_all(fans.iter().map(|fan| fan.client.post(app.url("/api/follows")).json(&body).send()))
            .await;

    assert!(answers.iter().all(|a| a.as_ref().unwrap().status() == 200));
    let (_, profile) = crate::posts::get(&app, &star, "/api/users/star").await;
    assert_eq!(profile["followerCount"], 30);
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM follows").await, 30);
    let stored: i64 = sqlx::query_scalar("SELECT follower_count FROM users WHERE id = $1")
        .bind(star.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, 30);
}

async fn fifty_parallel_votes_make_one_vote(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, poll) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Tea or coffee?", "pollOptions": ["Tea", "Coffee"], "pollDurationHours": 1 }),
    )
    .await;
    assert_eq!(status, 201);
    let url = app.url(&format!("/api/posts/{}/vote", id(&poll)));

    let statuses = all_at_once(50, || bob.client.post(&url).json(&json!({ "option": "Tea" })).send()).await;

    assert_eq!((tally(&statuses, 200), tally(&statuses, 409)), (1, 49), "{statuses:?}");
    assert_eq!(count(&app, "SELECT CAST(COUNT(*) AS BIGINT) FROM poll_votes").await, 1);
    assert_eq!(seen_by(&app, &ada, id(&poll)).await["pollVotes"], json!({ "Tea": [bob.id], "Coffee": [] }));
}

async fn a_post_deleted_while_others_act_on_it_keeps_nothing_of_theirs(app: TestApp) {
    let ada = app.member("ada").await;
    let mut others: Vec<Member> = Vec::new();
    for i in 0..10 {
        others.push(app.member(&format!("member{i:02}")).await);
    }
    for round in 0..5 {
        let (status, poll) = post(
            &app,
            &ada,
            "/api/posts",
            json!({ "content": format!("Round {round}"), "pollOptions": ["Tea", "Coffee"], "pollDurationHours": 1 }),
        )
        .await;
        assert_eq!(status, 201);
        let post_id = id(&poll);
        let mut actions = Vec::new();
        for member in &others {
            let client = &member.client;
            actions.push(
                client.post(app.url(&format!("/api/posts/{post_id}/vote"))).json(&json!({ "option": "Tea" })).send(),
            );
            actions.push(client.post(app.url(&format!("/api/posts/{post_id}/like"))).send());
            actions.push(
                client.post(app.url("/api/posts")).json(&json!({ "content": "♻️", "repostOfId": post_id })).send(),
            );
        }
        let deletion = ada.client.delete(app.url(&format!("/api/posts/{post_id}"))).send();
        let (deleted, answers) = tokio::join!(deletion, futures::future::join_all(actions));

        assert_eq!(deleted.unwrap().status(), 204);
        for answer in answers {
            let status = answer.unwrap().status().as_u16();
            assert!([200, 201, 400, 404].contains(&status), "an action answered {status}");
        }
        for (what, sql) in [
            ("votes", "SELECT CAST(COUNT(*) AS BIGINT) FROM poll_votes WHERE post_id = $1"),
            ("likes", "SELECT CAST(COUNT(*) AS BIGINT) FROM likes WHERE post_id = $1"),
            ("reposts", "SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE repost_of_id = $1"),
            ("notifications", "SELECT CAST(COUNT(*) AS BIGINT) FROM notifications WHERE post_id = $1"),
            ("counts", "SELECT like_count + repost_count FROM posts WHERE id = $1"),
        ] {
            let left: i64 = sqlx::query_scalar(sql).bind(post_id).fetch_one(&app.state.db.read).await.unwrap();
            assert_eq!(left, 0, "round {round}: {what} left on the deleted post");
        }
    }
}

async fn ten_parallel_puts_to_one_upload_url_store_one_image(app: TestApp) {
    let ada = app.member("ada").await;
    let url = crate::media::upload_url(&app, &ada).await;
    let image = crate::fixtures::png(8, 8);

    let statuses =
        all_at_once(10, || ada.client.put(&url).header("content-type", "image/png").body(image.clone()).send()).await;

    assert_eq!((tally(&statuses, 200), tally(&statuses, 409)), (1, 9), "{statuses:?}");
    let served = app.client.get(app.url(&format!("/objects/{}", crate::media::id_of(&url)))).send().await.unwrap();
    assert_eq!(served.status(), 200, "the winner's image is still there");
    assert_eq!(served.headers()["content-type"], "image/png");
}

async fn parallel_link_requests_never_pass_the_hourly_limit(app: TestApp) {
    let ada = app.member("ada").await;
    app.at_start_of_window(HOUR);
    let url = app.url("/api/auth/request-login-link");
    let body = json!({ "email": ada.email });

    let statuses = all_at_once(12, || app.client.post(&url).json(&body).send()).await;

    assert_eq!((tally(&statuses, 200), tally(&statuses, 429)), (5, 7), "five an hour per address: {statuses:?}");
    mailbox::wait_for_mail(&outbox(&app), &ada.email, 5).await;
    let links: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM magic_links WHERE email = $1")
        .bind(&ada.email)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(links, 5);
}

/// A write request's statements (its session, its transaction, the post it answers) have
/// connections of their own: with every reading connection taken, as a full reading load takes
/// them, a like is still answered at once instead of queueing behind the readers.
async fn a_like_does_not_wait_for_the_readers_connections(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let hers = id(&write(&app, &ada, "Like me").await);
    let readers = &app.state.db.read;
    let mut taken = Vec::new();
    for _ in 0..readers.sqlx().options().get_max_connections() {
        taken.push(readers.acquire().await.unwrap());
    }

    let like = bob.client.post(app.url(&format!("/api/posts/{hers}/like"))).send();
    let answer = tokio::time::timeout(Duration::from_secs(10), like)
        .await
        .expect("the like is answered while every reading connection is taken")
        .unwrap();
    let (status, body) = json(answer).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!((body["isLiked"].clone(), body["likeCount"].clone()), (json!(true), json!(1)));
    drop(taken);
}

/// Sessions read together (`sessions::reads`): many members' requests at once, with
/// ended and unknown sessions among them, each answered as its own member or as nobody.
async fn requests_at_once_are_each_answered_for_their_own_session(app: TestApp) {
    let mut members = Vec::new();
    for i in 0..12 {
        let member = app.member(&format!("reader{i}")).await;
        write(&app, &member, &format!("the post of reader{i}")).await;
        members.push(member);
    }
    let gone = app.member("gone").await;
    assert_eq!(gone.client.post(app.url("/api/auth/logout")).send().await.unwrap().status(), 204);
    let name = murmur::session_cookie::name(&app.state.config);
    let stranger = crate::common::client_for(&app.base, Some(&format!("{name}={}", "x".repeat(43))));

    let mut asks = Vec::new();
    for round in 0..8 {
        for member in &members {
            // Both kinds of reading: the session alone (`/me`) and with the feed's marks.
            let path = if round % 2 == 0 { "/api/auth/me" } else { "/api/posts/feed?limit=1" };
            asks.push((Some(member.username.clone()), member.client.get(app.url(path)).send()));
        }
        asks.push((None, gone.client.get(app.url("/api/auth/me")).send()));
        asks.push((None, stranger.get(app.url("/api/posts/feed")).send()));
    }
    let tasks: Vec<_> = asks.into_iter().map(|(who, ask)| (who, tokio::spawn(ask))).collect();
    for (who, task) in tasks {
        let (status, body) = json(task.await.unwrap().unwrap()).await;
        let Some(who) = who else {
            assert_eq!(status, 401, "{body}");
            continue;
        };
        assert_eq!(status, 200, "{body}");
        let username = if body.is_array() { &body[0]["author"]["username"] } else { &body["username"] };
        assert_eq!(username, who.as_str(), "{body}");
    }
}

both_databases!(
    requests_at_once_are_each_answered_for_their_own_session,
    fifty_parallel_verifies_of_one_link_make_one_session,
    twenty_parallel_sign_ups_with_one_invite_make_one_account,
    people_with_one_name_signing_up_at_once_each_get_an_account,
    of_people_signing_up_at_once_on_an_empty_instance_one_is_admin,
    a_hundred_parallel_likes_make_one_like,
    parallel_invite_generation_never_overdraws,
    thirty_parallel_follows_are_counted_exactly,
    fifty_parallel_votes_make_one_vote,
    a_post_deleted_while_others_act_on_it_keeps_nothing_of_theirs,
    ten_parallel_puts_to_one_upload_url_store_one_image,
    parallel_link_requests_never_pass_the_hourly_limit,
    a_like_does_not_wait_for_the_readers_connections,
);
