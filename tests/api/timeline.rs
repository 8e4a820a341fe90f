//! The home timeline (fan-out on write) behind the Friends feed: it must answer exactly what the
//! fan-in read from posts and follows answers, through posts, reposts, follows, unfollows,
//! deletes, trims and concurrent writers, and hand deep pages to the fan-in read.

use murmur::api::Page;
use murmur::feeds::friends;
use murmur::seed::{self, Options};
use murmur::timelines as timeline;

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, id, ids, repost, write};

/// The whole Friends feed of `member`, read with the fan-in query (the reference).
async fn fan_in_all(app: &TestApp, member: i64) -> Vec<i64> {
    let page = Page::new(50, 0);
    let mut all = Vec::new();
    loop {
        let page = Page { offset: all.len() as i64, ..page };
        let rows = friends::fan_in_page(&app.state.db.read, app.state.db.backend, member, page, app.state.clock.now())
            .await
            .unwrap();
        let done = rows.len() < page.limit as usize;
        all.extend(rows.iter().map(|r| r.id));
        if done {
            return all;
        }
    }
}

/// The whole Friends feed of `member` as the API pages it (`limit` a page).
async fn feed_all(app: &TestApp, who: &Member, limit: usize) -> Vec<i64> {
    let mut all = Vec::new();
    loop {
        let (status, body) = get(app, who, &format!("/api/posts/feed?limit={limit}&offset={}", all.len())).await;
        assert_eq!(status, 200, "{body}");
        let page = ids(&body);
        let done = page.len() < limit;
        all.extend(page);
        if done {
            return all;
        }
    }
}

/// The post ids in `member`'s timeline at or above the floor, newest first.
async fn timeline_rows(app: &TestApp, member: i64) -> Vec<i64> {
    sqlx::query_scalar(
        "SELECT post_id FROM home_timeline WHERE member_id = $1 \
         AND post_id >= (SELECT home_floor FROM users WHERE id = $1) ORDER BY post_id DESC",
    )
    .bind(member)
    .fetch_all(&app.state.db.read)
    .await
    .unwrap()
}

/// Every timeline row names its post's author and, for a repost, the original's author, as the
/// posts do (the page's visibility rule reads them from the row); answers the rows checked.
async fn rows_name_their_authors(app: &TestApp) -> i64 {
    let (rows, wrong): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COUNT(*) AS BIGINT), \
                CAST(COALESCE(SUM(CASE WHEN t.author_id = p.author_id \
                     AND COALESCE(t.original_author_id, 0) = COALESCE(o.author_id, 0) THEN 0 ELSE 1 END), 0) AS BIGINT) \
         FROM home_timeline t JOIN posts p ON p.id = t.post_id LEFT JOIN posts o ON o.id = p.repost_of_id",
    )
    .fetch_one(&app.state.db.read)
    .await
    .unwrap();
    assert_eq!(wrong, 0, "of {rows} timeline rows");
    rows
}

/// The page as the timeline answers it (None: it hands the page to the fan-in read).
async fn served(app: &TestApp, member: i64, limit: i64, offset: i64) -> Option<Vec<i64>> {
    let page = Page::new(limit, offset);
    let rows = friends::whole_page(&app.state.db.read, app.state.db.backend, member, page, app.state.clock.now())
        .await
        .unwrap();
    rows.map(|rows| rows.iter().map(|r| r.id).collect())
}

async fn floor(app: &TestApp, member: i64) -> i64 {
    sqlx::query_scalar("SELECT home_floor FROM users WHERE id = $1")
        .bind(member)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn the_timeline_follows_posts_reposts_follows_unfollows_and_deletes(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let before = write(&app, &bob, "before ada followed").await;
    follow(&app, &ada, &bob).await;
    let mine = write(&app, &ada, "mine").await;
    let after = write(&app, &bob, "after").await;
    let carols = write(&app, &carol, "not followed").await;
    let bobs_repost = repost(&app, &bob, id(&carols)).await;
    // ada's timeline holds the feed: her post, bob's posts (also those from before the follow)
    // and bob's repost; carol's own post is not there.
    let expected = vec![id(&bobs_repost), id(&after), id(&mine), id(&before)];
    assert_eq!(timeline_rows(&app, ada.id).await, expected);
    assert_eq!(fan_in_all(&app, ada.id).await, expected);
    // A full page is served by the timeline (a short one goes to the fan-in read).
    let page = served(&app, ada.id, 4, 0).await;
    assert_eq!(page.expect("served by the timeline"), expected);
    assert!(rows_name_their_authors(&app).await >= 6);

    // Undoing the repost, deleting a post and unfollowing take rows out.
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}/repost", id(&carols))).await;
    assert_eq!(status, 204);
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}", id(&after))).await;
    assert_eq!(status, 204);
    assert_eq!(timeline_rows(&app, ada.id).await, [id(&mine), id(&before)]);
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!(status, 200);
    assert_eq!(timeline_rows(&app, ada.id).await, [id(&mine)]);
    assert_eq!(feed_all(&app, &ada, 20).await, [id(&mine)]);
    // Bob's timeline never lost his own post.
    assert_eq!(timeline_rows(&app, bob.id).await, [id(&before)]);
}

/// Waits (up to 10 s) until the server's worker has emptied the fan-out queue.
async fn fan_out_done(app: &TestApp) {
    for _ in 0..200 {
        let queued: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM timeline_fanouts").fetch_one(&app.state.db.read).await.unwrap();
        if queued == 0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the fan-out queue was not worked");
}

async fn a_post_by_a_member_with_many_followers_reaches_them_in_chunks(app: TestApp) {
    let star = app.member("star").await;
    let mut fans = Vec::new();
    // Two full chunks and a short one.
    for i in 0..(2 * timeline::CHUNK + 10) {
        let fan = app.member(&format!("fan{i}")).await;
        follow(&app, &fan, &star).await;
        fans.push(fan);
    }
    let post = write(&app, &star, "hello, everyone").await;
    // The author has it at once (their own feed is never behind).
    assert_eq!(timeline_rows(&app, star.id).await, [id(&post)]);
    fan_out_done(&app).await;
    for fan in &fans {
        assert_eq!(timeline_rows(&app, fan.id).await, [id(&post)], "{}", fan.username);
        assert_eq!(feed_all(&app, fan, 20).await, [id(&post)]);
    }
    // A post deleted while on its way reaches nobody more, and leaves every timeline.
    let regretted = write(&app, &star, "oops").await;
    let (status, _) = delete(&app, &star, &format!("/api/posts/{}", id(&regretted))).await;
    assert_eq!(status, 204);
    fan_out_done(&app).await;
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM home_timeline WHERE post_id = $1")
        .bind(id(&regretted))
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    // A member with few followers still reaches them in the post's own transaction.
    let fan = &fans[0];
    let small = write(&app, fan, "just a few followers").await;
    let queued: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM timeline_fanouts").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(queued, 0);
    assert_eq!(timeline_rows(&app, fan.id).await, [id(&small), id(&post)]);
    // A repost reaches them in chunks too, naming the original's author.
    let shared = repost(&app, &star, id(&small)).await;
    fan_out_done(&app).await;
    assert_eq!(timeline_rows(&app, fans[1].id).await, [id(&shared), id(&post)]);
    assert!(rows_name_their_authors(&app).await > 2 * (2 * timeline::CHUNK + 10));
}

async fn a_trimmed_timeline_hands_older_pages_to_the_fan_in_read(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let mut written = Vec::new();
    for i in 0..12 {
        let who = if i % 3 == 0 { &ada } else { &bob };
        written.push(id(&write(&app, who, &format!("post {i}")).await));
    }
    written.reverse();
    // Over 10 rows: keep the newest 5.
    let removed = timeline::trim(&app.state.db, ada.id, 5, 10, 3).await.unwrap();
    assert_eq!(removed, 7);
    assert_eq!(floor(&app, ada.id).await, written[4]);
    assert_eq!(timeline_rows(&app, ada.id).await, written[..5]);
    // Not over the threshold: nothing to do.
    assert_eq!(timeline::trim(&app.state.db, ada.id, 5, 10, 3).await.unwrap(), 0);
    // The first page still comes from the timeline, the rest from the fan-in read, seamlessly.
    let first = served(&app, ada.id, 3, 0).await;
    assert_eq!(first.map(|ids| ids.len()), Some(3));
    let crossing = served(&app, ada.id, 3, 3).await;
    assert!(crossing.is_none(), "a page reaching below the floor is not the timeline's to answer");
    for limit in [3, 5, 7, 20] {
        assert_eq!(feed_all(&app, &ada, limit).await, written, "pages of {limit}");
    }
    // New posts land above the floor and are served at once.
    let newest = write(&app, &bob, "newest").await;
    assert_eq!(timeline_rows(&app, ada.id).await[0], id(&newest));
}

async fn following_a_prolific_member_copies_their_newest_posts_and_raises_the_floor(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let mine = write(&app, &ada, "ada's older post").await;
    // More posts than a timeline keeps, written straight to the table (the API limits the rate).
    let extra = timeline::KEEP + 5;
    for i in 0..extra {
        sqlx::query("INSERT INTO posts (author_id, content, created_at) VALUES ($1, $2, $3)")
            .bind(bob.id)
            .bind(format!("bob {i}"))
            .bind(1_000 + i)
            .execute(&app.state.db.write)
            .await
            .unwrap();
    }
    follow(&app, &ada, &bob).await;
    let rows = timeline_rows(&app, ada.id).await;
    assert_eq!(rows.len() as i64, timeline::KEEP, "only the newest {} are copied", timeline::KEEP);
    assert_eq!(floor(&app, ada.id).await, *rows.last().unwrap());
    // Every page, across the floor too, equals the fan-in read, ada's own older post included.
    let all = fan_in_all(&app, ada.id).await;
    assert_eq!(all.len() as i64, extra + 1);
    assert_eq!(*all.last().unwrap(), id(&mine));
    assert_eq!(feed_all(&app, &ada, 50).await, all);
}

async fn the_seeded_timelines_equal_the_fan_in_read(app: TestApp) {
    let options = Options {
        members: 60,
        posts: 3_000,
        follows_per_member: 15.0,
        now: Some("2026-06-01T00:00:00Z".into()),
        ..Options::default()
    };
    let report = seed::run(&app.state.db, &options).await.expect("seeds");
    assert!(report.timeline_rows > 0);
    assert_eq!(rows_name_their_authors(&app).await, report.timeline_rows as i64);
    let members: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM users ORDER BY id").fetch_all(&app.state.db.read).await.unwrap();
    let mut trimmed = 0;
    for member in members {
        let all = fan_in_all(&app, member).await;
        let rows = timeline_rows(&app, member).await;
        assert_eq!(rows.len(), all.len().min(timeline::KEEP as usize), "member {member}");
        assert_eq!(rows, all[..rows.len()], "member {member}: the timeline is the feed's newest part");
        if floor(&app, member).await > 0 {
            trimmed += 1;
            // Pages on both sides of the floor and across it.
            for offset in [0, timeline::KEEP - 10, timeline::KEEP + 10] {
                let page = Page::new(20, offset);
                let served =
                    friends::read_page(&app.state.db.read, app.state.db.backend, member, page, app.state.clock.now())
                        .await
                        .unwrap();
                let entries: Vec<i64> = all.iter().skip(offset as usize).take(20).copied().collect();
                let want = one_card_per_post(&app, &entries).await;
                assert_eq!(served.iter().map(|r| r.id).collect::<Vec<_>>(), want, "member {member} offset {offset}");
            }
        }
    }
    assert!(trimmed > 0, "the network has members whose feed is longer than a timeline");
}

/// The entries of a page as its cards: the newest entry of each post (itself or a repost of it).
async fn one_card_per_post(app: &TestApp, entries: &[i64]) -> Vec<i64> {
    let mut seen = std::collections::HashSet::new();
    let mut cards = Vec::new();
    for &entry in entries {
        let original: Option<i64> = sqlx::query_scalar("SELECT repost_of_id FROM posts WHERE id = $1")
            .bind(entry)
            .fetch_one(&app.state.db.read)
            .await
            .unwrap();
        if seen.insert(original.unwrap_or(entry)) {
            cards.push(entry);
        }
    }
    cards
}

/// PostgreSQL runs writers at once: follows of an author racing the author's posts must still
/// leave every follower's timeline equal to the fan-in read (the author's row lock).
async fn follows_racing_posts_leave_exact_timelines(app: TestApp) {
    let author = app.member("author").await;
    let mut fans = Vec::new();
    for i in 0..8 {
        fans.push(app.member(&format!("fan{i}")).await);
    }
    let posts = async {
        for i in 0..8 {
            write(&app, &author, &format!("post {i}")).await;
        }
    };
    let follows = futures::future::join_all(fans.iter().map(|fan| follow(&app, fan, &author)));
    tokio::join!(posts, follows);
    for fan in &fans {
        let all = fan_in_all(&app, fan.id).await;
        assert_eq!(all.len(), 8);
        assert_eq!(timeline_rows(&app, fan.id).await, all, "{}", fan.username);
    }
}

/// Deletes racing follows of the author (PostgreSQL): no timeline may keep a row for a deleted
/// post, or every later page's offset would be off by one.
async fn deletes_racing_follows_leave_no_row_for_a_deleted_post(app: TestApp) {
    let author = app.member("author").await;
    let mut posts = Vec::new();
    for i in 0..8 {
        posts.push(id(&write(&app, &author, &format!("post {i}")).await));
    }
    let mut fans = Vec::new();
    for i in 0..8 {
        fans.push(app.member(&format!("fan{i}")).await);
    }
    let deletes = async {
        for post in &posts[..6] {
            let (status, _) = delete(&app, &author, &format!("/api/posts/{post}")).await;
            assert_eq!(status, 204);
        }
    };
    let follows = futures::future::join_all(fans.iter().map(|fan| follow(&app, fan, &author)));
    tokio::join!(deletes, follows);
    let stale: i64 = sqlx::query_scalar(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM home_timeline t JOIN posts p ON p.id = t.post_id \
         WHERE p.deleted_at IS NOT NULL",
    )
    .fetch_one(&app.state.db.read)
    .await
    .unwrap();
    assert_eq!(stale, 0, "timeline rows for deleted posts");
    for fan in &fans {
        assert_eq!(timeline_rows(&app, fan.id).await, fan_in_all(&app, fan.id).await, "{}", fan.username);
        assert_eq!(feed_all(&app, fan, 1).await, [posts[7], posts[6]]);
    }
}

/// A follow copying a member's reposts while the reposted posts are deleted (which removes the
/// reposts) must still succeed (PostgreSQL runs the two at once).
async fn follows_racing_deletes_of_reposted_posts_succeed(app: TestApp) {
    let author = app.member("author").await;
    let reposter = app.member("reposter").await;
    let mut originals = Vec::new();
    for i in 0..8 {
        let post = id(&write(&app, &author, &format!("post {i}")).await);
        repost(&app, &reposter, post).await;
        originals.push(post);
    }
    let mut fans = Vec::new();
    for i in 0..8 {
        fans.push(app.member(&format!("fan{i}")).await);
    }
    let deletes = async {
        for post in &originals {
            let (status, _) = delete(&app, &author, &format!("/api/posts/{post}")).await;
            assert_eq!(status, 204);
        }
    };
    let follows = futures::future::join_all(fans.iter().map(|fan| async {
        let (status, body) =
            crate::posts::post(&app, fan, "/api/follows", serde_json::json!({ "followingId": reposter.id })).await;
        (status, body)
    }));
    let ((), answers) = tokio::join!(deletes, follows);
    for (status, body) in answers {
        assert_eq!(status, 200, "{body}");
    }
    for fan in &fans {
        assert!(timeline_rows(&app, fan.id).await.is_empty(), "{}", fan.username);
    }
}

/// The page's safety net: were a deleted post's row ever left in a timeline (the writers never
/// leave one: the races above), the page is read with the fan-in query, which leaves it out.
async fn a_deleted_posts_row_sends_the_page_to_the_fan_in_read(app: TestApp) {
    let ada = app.member("ada").await;
    let mut written = Vec::new();
    for i in 0..4 {
        written.push(id(&write(&app, &ada, &format!("post {i}")).await));
    }
    assert_eq!(served(&app, ada.id, 3, 0).await, Some(vec![written[3], written[2], written[1]]));
    // Deleted behind the writers' back: its timeline row stays.
    sqlx::query("UPDATE posts SET deleted_at = $1 WHERE id = $2")
        .bind(app.state.clock.now())
        .bind(written[2])
        .execute(&app.state.db.write)
        .await
        .unwrap();
    assert_eq!(served(&app, ada.id, 3, 0).await, None);
    assert_eq!(feed_all(&app, &ada, 3).await, [written[3], written[1], written[0]]);
}

both_databases!(
    a_deleted_posts_row_sends_the_page_to_the_fan_in_read,
    the_timeline_follows_posts_reposts_follows_unfollows_and_deletes,
    a_post_by_a_member_with_many_followers_reaches_them_in_chunks,
    a_trimmed_timeline_hands_older_pages_to_the_fan_in_read,
    following_a_prolific_member_copies_their_newest_posts_and_raises_the_floor,
    the_seeded_timelines_equal_the_fan_in_read,
    follows_racing_posts_leave_exact_timelines,
    deletes_racing_follows_leave_no_row_for_a_deleted_post,
    follows_racing_deletes_of_reposted_posts_succeed,
);
