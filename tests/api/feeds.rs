//! The Friends and For You feeds: contents, order, paging, and For You's rules.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Member, TestApp};
use crate::posts::{delete, follow, get, id, ids, like, post, put, reply, repost, write};
use crate::{both_databases, both_databases_with};

async fn friends_page(app: &TestApp, who: &Member, limit: i64, offset: i64) -> Vec<i64> {
    let (status, body) = get(app, who, &format!("/api/posts/feed?limit={limit}&offset={offset}")).await;
    assert_eq!(status, 200, "{body}");
    ids(&body)
}

async fn for_you_page(app: &TestApp, who: &Member, limit: i64, offset: i64) -> Value {
    let (status, body) = get(app, who, &format!("/api/posts/for-you?limit={limit}&offset={offset}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn friends_shows_own_and_followed_posts_and_reposts_newest_first(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    follow(&app, &ada, &bob).await;
    let mine = write(&app, &ada, "mine").await;
    let bobs = write(&app, &bob, "bob's").await;
    let carols = write(&app, &carol, "carol's, not followed").await;
    let bobs_repost = repost(&app, &bob, id(&carols)).await;
    let _bobs_reply = reply(&app, &bob, id(&mine), "replies live in threads").await;

    let (status, feed) = get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(status, 200);
    assert_eq!(ids(&feed), [id(&bobs_repost), id(&bobs), id(&mine)]);
    assert_eq!(feed[0]["repostOf"]["id"], id(&carols));

    // Unfollowing takes bob's posts out; deleted posts never show.
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!(status, 200);
    assert_eq!(friends_page(&app, &ada, 20, 0).await, [id(&mine)]);
    delete(&app, &ada, &format!("/api/posts/{}", id(&mine))).await;
    assert!(friends_page(&app, &ada, 20, 0).await.is_empty());
}

async fn friends_pages_have_no_repeats_or_gaps(app: TestApp) {
    let ada = app.member("ada").await;
    let mut written = Vec::new();
    for name in ["bob", "carol", "dave"] {
        let m = app.member(name).await;
        follow(&app, &ada, &m).await;
        for i in 0..9 {
            written.push(id(&write(&app, &m, &format!("{name} {i}")).await));
        }
    }
    written.sort_unstable_by(|a, b| b.cmp(a));
    let mut paged = Vec::new();
    for offset in (0..30).step_by(10) {
        paged.extend(friends_page(&app, &ada, 10, offset).await);
    }
    assert_eq!(paged, written);
    // The default page is 20.
    assert_eq!(friends_page(&app, &ada, 20, 0).await.len(), 20);
    let (_, default) = get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(default.as_array().unwrap().len(), 20);
}

async fn home_shows_one_card_per_post_when_it_is_reposted_within_a_page(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &ada, &carol).await;
    let lighthouse = id(&write(&app, &bob, "The lighthouse at dawn").await);
    let other = id(&write(&app, &bob, "Breakfast").await);
    let carols = id(&repost(&app, &carol, lighthouse).await);

    // A short feed (the fan-in read) and a page of the timeline alike: the repost stands in the
    // newest entry's place, "Reposted by" Carol, and the post itself is not shown again.
    let (status, feed) = get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(status, 200, "{feed}");
    assert_eq!(ids(&feed), [carols, other]);
    assert_eq!((&feed[0]["author"]["username"], &feed[0]["repostOf"]["id"]), (&json!("carol"), &json!(lighthouse)));
    // The card stands for both entries, so the client can tell a full page from the feed's end.
    assert_eq!((&feed[0]["feedEntries"], &feed[1].get("feedEntries")), (&json!(2), &None), "{feed}");
    assert_eq!(friends_page(&app, &ada, 3, 0).await, [carols, other]);
    // Pages still count the feed's entries: the next page starts after them, nothing skipped.
    assert_eq!(friends_page(&app, &ada, 2, 0).await, [carols, other]);
    assert_eq!(friends_page(&app, &ada, 2, 2).await, [lighthouse], "another page: its own card");
    assert_eq!(friends_page(&app, &ada, 2, 4).await, Vec::<i64>::new(), "an empty page ends the feed");

    // Her own repost is newer still: one card, hers, kept pages included.
    let hers = id(&repost(&app, &ada, lighthouse).await);
    for _ in 0..2 {
        let (_, feed) = get(&app, &ada, "/api/posts/feed").await;
        assert_eq!(ids(&feed), [hers, other]);
        assert_eq!((&feed[0]["repostOf"]["isReposted"], &feed[0]["feedEntries"]), (&json!(true), &json!(3)), "{feed}");
    }
    // Bob, who follows nobody, sees his own posts as they are.
    assert_eq!(friends_page(&app, &bob, 20, 0).await, [other, lighthouse]);
}

async fn bad_paging_is_refused(app: TestApp) {
    let ada = app.member("ada").await;
    for feed in [
        "/api/posts/feed",
        "/api/posts/for-you",
        "/api/users/ada/posts",
        "/api/users/ada/replies",
        "/api/users/ada/media",
        "/api/users/ada/likes",
    ] {
        for query in ["limit=0", "limit=51", "offset=-1", "limit=abc"] {
            let (status, body) = get(&app, &ada, &format!("{feed}?{query}")).await;
            assert_eq!(status, 400, "{feed}?{query}: {body}");
            assert!(body["message"].is_string());
        }
    }
}

async fn for_you_shows_others_original_posts_ranked(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let own = write(&app, &ada, "my own post").await;
    let quiet = write(&app, &bob, "quiet").await;
    let loved = write(&app, &carol, "loved").await;
    let _reply = reply(&app, &bob, id(&loved), "a reply").await;
    let _repost = repost(&app, &bob, id(&own)).await;
    like(&app, &bob, id(&loved)).await;

    let feed = for_you_page(&app, &ada, 20, 0).await;
    // Own posts, replies and reposts are left out; engagement ranks `loved` first.
    assert_eq!(ids(&feed), [id(&loved), id(&quiet)]);
    // Deleted posts are left out.
    delete(&app, &carol, &format!("/api/posts/{}", id(&loved))).await;
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&quiet)]);
    // An empty network is an empty list.
    let newcomer = app.member("newcomer").await;
    let (status, _) = get(&app, &newcomer, "/api/posts/for-you").await;
    assert_eq!(status, 200);
}

async fn for_you_never_shows_three_in_a_row_by_one_author(app: TestApp) {
    let reader = app.member("reader").await;
    let prolific = app.member("prolific").await;
    let other = app.member("other").await;
    let third = app.member("third").await;
    write(&app, &other, "other's").await;
    write(&app, &third, "third's").await;
    for i in 0..6 {
        write(&app, &prolific, &format!("post {i}")).await;
    }
    let feed = for_you_page(&app, &reader, 20, 0).await;
    let authors: Vec<i64> = feed.as_array().unwrap().iter().map(|p| p["author"]["id"].as_i64().unwrap()).collect();
    // The newest six are prolific's: two of them, then the others' posts move up between them.
    let (p, o, t) = (prolific.id, other.id, third.id);
    assert_eq!(authors, [p, p, t, p, p, o, p, p]);
    for run in authors.windows(3) {
        assert!(!(run[0] == run[1] && run[1] == run[2]), "three in a row: {authors:?}");
    }
}

async fn for_you_pages_stay_stable_while_the_network_moves(app: TestApp) {
    let reader = app.member("reader").await;
    let mut authors = Vec::new();
    for i in 0..10 {
        authors.push(app.member(&format!("author{i}")).await);
    }
    for round in 0..3 {
        for (i, author) in authors.iter().enumerate() {
            write(&app, author, &format!("post {round} by {i}")).await;
        }
        app.clock.advance(Duration::from_secs(600));
    }
    let everything = ids(&for_you_page(&app, &reader, 50, 0).await);
    assert_eq!(everything.len(), 30);

    let first = ids(&for_you_page(&app, &reader, 10, 0).await);
    // The network moves between pages: likes reorder the ranking, and a new post arrives.
    for post_id in everything.iter().rev().take(5) {
        like(&app, &authors[0], *post_id).await;
    }
    write(&app, &authors[1], "brand new").await;
    let second = ids(&for_you_page(&app, &reader, 10, 10).await);
    let third = ids(&for_you_page(&app, &reader, 10, 20).await);
    let paged: Vec<i64> = [first, second, third].concat();
    assert_eq!(paged, everything, "pages continue the ranking they started with");
    assert_eq!(paged.iter().collect::<HashSet<_>>().len(), 30);
    assert!(ids(&for_you_page(&app, &reader, 10, 30).await).is_empty());

    // Back at the top within the minute, the same ranking (kept ready for everyone).
    assert_eq!(ids(&for_you_page(&app, &reader, 50, 0).await), everything);
    // A minute later the network is ranked again: the liked posts rise and the new post is in.
    app.clock.advance(Duration::from_millis(murmur::feeds::for_you::RANK_EVERY as u64));
    let fresh = ids(&for_you_page(&app, &reader, 50, 0).await);
    assert_eq!(fresh.len(), 31);
    assert_ne!(fresh, everything);
}

async fn a_stale_for_you_ranking_is_not_continued(app: TestApp) {
    let reader = app.member("reader").await;
    let quiet = app.member("quiet").await;
    let loud = app.member("loud").await;
    let older = write(&app, &quiet, "older").await;
    let newer = write(&app, &loud, "newer").await;
    assert_eq!(ids(&for_you_page(&app, &reader, 1, 0).await), [id(&newer)]);
    // Within the hour, page 2 continues the first ranking, even though `older` is now loved.
    for i in 0..3 {
        let fan = app.member(&format!("fan{i}")).await;
        like(&app, &fan, id(&older)).await;
    }
    assert_eq!(ids(&for_you_page(&app, &reader, 1, 1).await), [id(&older)]);
    // An hour later the stored ranking is stale: a later page ranks afresh.
    app.clock.advance(Duration::from_secs(3601));
    assert_eq!(ids(&for_you_page(&app, &reader, 1, 1).await), [id(&newer)]);
}

async fn for_you_is_ranked_once_a_minute_for_everyone(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let by_ada = write(&app, &ada, "ada's").await;
    let by_bob = write(&app, &bob, "bob's").await;
    let rankings = || async {
        let n: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM for_you_rankings").fetch_one(&app.state.db.read).await.unwrap();
        n
    };
    // One ranking serves everyone; each member sees it without their own posts.
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&by_bob)]);
    assert_eq!(ids(&for_you_page(&app, &bob, 20, 0).await), [id(&by_ada)]);
    assert_eq!(ids(&for_you_page(&app, &carol, 20, 0).await), [id(&by_bob), id(&by_ada)]);
    assert_eq!(rankings().await, 1);
    // A post written now waits for the next ranking, a minute later.
    let later = write(&app, &carol, "carol's").await;
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&by_bob)]);
    app.clock.advance(Duration::from_millis(murmur::feeds::for_you::RANK_EVERY as u64));
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&later), id(&by_bob)]);
    assert_eq!(rankings().await, 2);
    // Upkeep removes rankings no page can continue (over an hour old), never the newest.
    app.clock.advance(Duration::from_secs(2 * 3600));
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.state.clock.now()).await.unwrap();
    assert_eq!(rankings().await, 1);
    let pointers: Vec<i64> =
        sqlx::query_scalar("SELECT user_id FROM for_you_snapshots").fetch_all(&app.state.db.read).await.unwrap();
    assert_eq!(pointers, [ada.id], "bob's and carol's pointed at the removed ranking");
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 1).await), [id(&by_bob)], "a later page ranks afresh");
}

async fn for_you_answers_from_the_last_ranking_while_the_next_is_made(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = write(&app, &bob, "first").await;
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&first)]);
    let second = write(&app, &bob, "second").await;
    app.clock.advance(Duration::from_millis(murmur::feeds::for_you::RANK_EVERY as u64));
    {
        // Another request is making the next ranking: this one answers from the last.
        let _ranking = app.state.for_you.hold().await;
        let page = tokio::time::timeout(Duration::from_secs(5), for_you_page(&app, &ada, 20, 0))
            .await
            .expect("a first page does not wait for a ranking in progress");
        assert_eq!(ids(&page), [id(&first)]);
    }
    // Once nobody is ranking, the next first page makes the new ranking and shows it.
    assert_eq!(ids(&for_you_page(&app, &ada, 20, 0).await), [id(&second), id(&first)]);
}

async fn feeds_show_the_callers_likes_and_reposts(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let p = write(&app, &bob, "hello").await;
    like(&app, &ada, id(&p)).await;
    repost(&app, &ada, id(&p)).await;
    let (_, feed) = get(&app, &ada, "/api/posts/feed").await;
    // ada's repost first, then bob's post: both describe the original's state.
    for card in feed.as_array().unwrap() {
        assert_eq!(card["isLiked"], true, "{card}");
        assert_eq!(card["isReposted"], true, "{card}");
        assert_eq!(card["likeCount"], 1, "{card}");
        assert_eq!(card["repostCount"], 1, "{card}");
    }
    let (_, bobs_view) = get(&app, &bob, "/api/posts/feed").await;
    assert_eq!(bobs_view.as_array().unwrap().len(), 1);
    assert_eq!(bobs_view[0]["isLiked"], false);
}

/// The first card of `who`'s Friends page showing this post: itself, or the original inside a
/// repost's card (a page holds one card per post).
async fn card(app: &TestApp, who: &Member, post: i64) -> Value {
    let (status, feed) = get(app, who, "/api/posts/feed").await;
    assert_eq!(status, 200, "{feed}");
    let found = feed.as_array().unwrap().iter().find_map(|card| {
        if card["id"] == post {
            Some(card.clone())
        } else {
            (card["repostOf"]["id"] == post).then(|| card["repostOf"].clone())
        }
    });
    found.unwrap_or_else(|| panic!("post {post} is not on the page: {feed}"))
}

/// A page a process keeps ready (crates/domain/src/feeds/cache.rs) never hides what its reader just did.
async fn a_kept_friends_page_shows_what_its_reader_does_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    let carols = write(&app, &carol, "older than everything ada sees").await;
    follow(&app, &ada, &bob).await;
    let (_, poll) =
        post(&app, &bob, "/api/posts", json!({ "content": "tea or coffee?", "pollOptions": ["tea", "coffee"] })).await;
    let p = write(&app, &bob, "hello").await;
    let mine = write(&app, &ada, "mine").await;
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 0);

    like(&app, &ada, id(&p)).await;
    let liked = card(&app, &ada, id(&p)).await;
    assert_eq!((liked["isLiked"].clone(), liked["likeCount"].clone()), (json!(true), json!(1)), "{liked}");
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}/like", id(&p))).await;
    assert_eq!(status, 200);
    assert_eq!(card(&app, &ada, id(&p)).await["isLiked"], false);

    reply(&app, &ada, id(&p), "a reply").await;
    assert_eq!(card(&app, &ada, id(&p)).await["replyCount"], 1);
    let (status, body) = post(&app, &ada, &format!("/api/posts/{}/vote", id(&poll)), json!({ "option": "tea" })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(card(&app, &ada, id(&poll)).await["myVote"], "tea");
    repost(&app, &ada, id(&p)).await;
    assert_eq!(card(&app, &ada, id(&p)).await["isReposted"], true);
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}/repost", id(&p))).await;
    assert_eq!(status, 204);
    assert_eq!(card(&app, &ada, id(&p)).await["isReposted"], false);

    // A follow copies in posts older than the newest one on the page, an unfollow takes them out.
    follow(&app, &ada, &carol).await;
    assert_eq!(friends_page(&app, &ada, 20, 0).await.last(), Some(&id(&carols)));
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", carol.id)).await;
    assert_eq!(status, 200);
    assert!(!friends_page(&app, &ada, 20, 0).await.contains(&id(&carols)));

    let (status, body) =
        put(&app, &ada, "/api/users/profile", Some(json!({ "displayName": "Ada L.", "bio": "", "website": "" }))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(card(&app, &ada, id(&mine)).await["author"]["displayName"], "Ada L.");
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&mine))).await;
    assert_eq!(status, 204);
    assert!(!friends_page(&app, &ada, 20, 0).await.contains(&id(&mine)));
}

/// What others do shows at once when it brings a new post, and otherwise within the time a
/// page is kept (5 s): the kept page is what answers meanwhile.
async fn others_changes_reach_a_kept_friends_page_within_its_time(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carol = app.member("carol").await;
    follow(&app, &ada, &bob).await;
    let p = write(&app, &bob, "hello").await;
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 0);

    like(&app, &carol, id(&p)).await;
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 0, "the kept page answers");
    assert_eq!(card(&app, &bob, id(&p)).await["likeCount"], 1, "a page not kept yet is made afresh");
    app.clock.advance(Duration::from_secs(5));
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 1, "kept for 5 s at most");

    // A new post in the timeline makes the page anew.
    like(&app, &bob, id(&p)).await;
    let q = write(&app, &bob, "news").await;
    assert_eq!(friends_page(&app, &ada, 20, 0).await, [id(&q), id(&p)]);
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 2);
}

/// `--feed-cache-seconds 0`: every page is made afresh.
async fn with_keeping_off_every_friends_page_is_made_afresh(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let p = write(&app, &bob, "hello").await;
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 0);
    like(&app, &bob, id(&p)).await;
    assert_eq!(card(&app, &ada, id(&p)).await["likeCount"], 1);
}

both_databases!(
    friends_shows_own_and_followed_posts_and_reposts_newest_first,
    friends_pages_have_no_repeats_or_gaps,
    home_shows_one_card_per_post_when_it_is_reposted_within_a_page,
    bad_paging_is_refused,
    for_you_shows_others_original_posts_ranked,
    for_you_never_shows_three_in_a_row_by_one_author,
    for_you_pages_stay_stable_while_the_network_moves,
    a_stale_for_you_ranking_is_not_continued,
    for_you_is_ranked_once_a_minute_for_everyone,
    for_you_answers_from_the_last_ranking_while_the_next_is_made,
    feeds_show_the_callers_likes_and_reposts,
    a_kept_friends_page_shows_what_its_reader_does_at_once,
    others_changes_reach_a_kept_friends_page_within_its_time,
);

both_databases_with!(with_keeping_off_every_friends_page_is_made_afresh, |config: &mut murmur::Config| {
    config.feed_cache.keep_for = 0;
});

// The API suite's core, once more through PgBouncer in transaction mode (`poolers`).
crate::through_pgbouncer!(
    friends_shows_own_and_followed_posts_and_reposts_newest_first,
    for_you_shows_others_original_posts_ranked,
);
