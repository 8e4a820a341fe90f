//! Lists: a member's private lists of people they follow, each a feed of its own. Making,
//! renaming and deleting lists within their bounds, adding only followed people, unfollowing
//! taking people out, the feed's content and paging, hidden people, and privacy.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json as read};
use crate::mastodon::{AppClient, token_for};
use crate::posts::{delete, get, id, ids, post, put, reply, repost, write};

async fn make(app: &TestApp, who: &Member, title: &str) -> Value {
    let (status, body) = post(app, who, "/api/lists", json!({ "title": title })).await;
    assert_eq!(status, 201, "{body}");
    body
}

async fn follow(app: &TestApp, who: &Member, whom: &Member) {
    crate::posts::follow(app, who, whom).await;
}

async fn members_request(app: &TestApp, who: &Member, list: i64, method: reqwest::Method, ids: &[i64]) -> (u16, Value) {
    let url = app.url(&format!("/api/lists/{list}/members"));
    read(who.client.request(method, url).json(&json!({ "userIds": ids })).send().await.unwrap()).await
}

async fn add(app: &TestApp, who: &Member, list: i64, ids: &[i64]) -> (u16, Value) {
    members_request(app, who, list, reqwest::Method::POST, ids).await
}

async fn member_names(app: &TestApp, who: &Member, list: i64) -> Vec<String> {
    let (status, body) = get(app, who, &format!("/api/lists/{list}/members")).await;
    assert_eq!(status, 200, "{body}");
    body.as_array().unwrap().iter().map(|u| u["username"].as_str().unwrap().to_string()).collect()
}

async fn feed(app: &TestApp, who: &Member, list: i64, query: &str) -> Vec<i64> {
    let (status, body) = get(app, who, &format!("/api/lists/{list}/posts{query}")).await;
    assert_eq!(status, 200, "{body}");
    ids(&body)
}

async fn stored(app: &TestApp, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string())).fetch_one(&app.state.db.read).await.unwrap()
}

/// Ada follows Bob, Cyd and Dee, and lists Bob and Cyd: `(ada, bob, cyd, dee, list)`.
async fn ada_lists_bob_and_cyd(app: &TestApp) -> (Member, Member, Member, Member, i64) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    for whom in [&bob, &cyd, &dee] {
        follow(app, &ada, whom).await;
    }
    let list = id(&make(app, &ada, "Bob and Cyd").await);
    add(app, &ada, list, &[bob.id, cyd.id]).await;
    (ada, bob, cyd, dee, list)
}

async fn lists_are_made_renamed_and_deleted_within_their_bounds(app: TestApp) {
    let ada = app.member("ada").await;

    let made = make(&app, &ada, "  Cafe\u{301} people  ").await;
    assert_eq!((&made["title"], &made["memberCount"]), (&json!("Caf\u{e9} people"), &json!(0)), "{made}");
    let list = id(&made);
    let (status, renamed) = put(&app, &ada, &format!("/api/lists/{list}"), Some(json!({ "title": "Engines" }))).await;
    assert_eq!((status, &renamed["title"]), (200, &json!("Engines")), "{renamed}");
    let (_, one) = get(&app, &ada, &format!("/api/lists/{list}")).await;
    assert_eq!(one["title"], "Engines", "{one}");

    let refused = [
        (json!({ "title": "" }), "A list's title cannot be empty"),
        (json!({ "title": " \u{200b} " }), "A list's title cannot be only invisible characters"),
        (json!({ "title": "w".repeat(51) }), "A list's title can be at most 50 characters"),
        (json!({ "title": "two\nlines" }), "A list's title cannot contain line breaks or other control characters"),
    ];
    for (body, message) in refused {
        let (status, answer) = post(&app, &ada, "/api/lists", body.clone()).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{body}");
        let (status, answer) = put(&app, &ada, &format!("/api/lists/{list}"), Some(body.clone())).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{body}");
    }
    let (status, _) = post(&app, &ada, "/api/lists", json!({})).await;
    assert_eq!(status, 400);
    make(&app, &ada, &"é".repeat(50)).await;
    for n in 2..20 {
        make(&app, &ada, &format!("List {n}")).await;
    }
    let (status, body) = post(&app, &ada, "/api/lists", json!({ "title": "One too many" })).await;
    assert_eq!((status, body["message"].as_str()), (422, Some("You can have at most 20 lists")), "{body}");

    let (_, all) = get(&app, &ada, "/api/lists").await;
    let all = ids(&all);
    assert_eq!((all.len(), all[0]), (20, list));
    let (status, _) = delete(&app, &ada, &format!("/api/lists/{list}")).await;
    assert_eq!(status, 204);
    let (status, body) = get(&app, &ada, &format!("/api/lists/{list}")).await;
    assert_eq!((status, body["message"].as_str()), (404, Some("List not found")));
    let (status, _) = delete(&app, &ada, &format!("/api/lists/{list}")).await;
    assert_eq!(status, 404);
    // A place is free again.
    make(&app, &ada, "Back to 20").await;
}

async fn only_followed_people_are_added_and_unfollowing_takes_them_out(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &ada, &cyd).await;
    follow(&app, &bob, &dee).await;
    let list = id(&make(&app, &ada, "Friends of engines").await);
    let other = id(&make(&app, &ada, "Also").await);

    let (status, added) = add(&app, &ada, list, &[bob.id, cyd.id, bob.id]).await;
    assert_eq!((status, &added["memberCount"]), (200, &json!(2)), "{added}");
    let (status, again) = add(&app, &ada, list, &[bob.id]).await;
    assert_eq!((status, &again["memberCount"]), (200, &json!(2)), "{again}");
    add(&app, &ada, other, &[bob.id]).await;
    assert_eq!(member_names(&app, &ada, list).await, ["bob", "cyd"]);

    // Dee is not followed by Ada (Bob follows her), Ada is herself, 999 is nobody: 422, and
    // nothing of the request is written.
    for refused in [vec![dee.id], vec![cyd.id, dee.id], vec![ada.id], vec![999_999]] {
        let (status, body) = add(&app, &ada, list, &refused).await;
        assert_eq!(
            (status, body["message"].as_str()),
            (422, Some("Only people you follow can be added to a list")),
            "{refused:?}"
        );
    }
    assert_eq!(member_names(&app, &ada, list).await, ["bob", "cyd"]);
    for (body, status) in [(json!({ "userIds": [] }), 400), (json!({ "userIds": [0] }), 400), (json!({}), 400)] {
        let url = app.url(&format!("/api/lists/{list}/members"));
        let (got, answer) = read(ada.client.post(url).json(&body).send().await.unwrap()).await;
        assert_eq!(got, status, "{body}: {answer}");
    }
    let too_many: Vec<i64> = (1..=101).collect();
    let (status, body) = add(&app, &ada, list, &too_many).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Name 1 to 100 members to add or remove at once")));

    let (status, removed) = members_request(&app, &ada, list, reqwest::Method::DELETE, &[cyd.id, dee.id]).await;
    assert_eq!((status, &removed["memberCount"]), (200, &json!(1)), "{removed}");
    assert_eq!(member_names(&app, &ada, list).await, ["bob"]);

    // Unfollowing Bob takes him out of all of Ada's lists; following again does not put him back.
    add(&app, &ada, list, &[cyd.id]).await;
    let (status, _) = delete(&app, &ada, &format!("/api/follows/{}", bob.id)).await;
    assert_eq!(status, 200);
    assert_eq!(member_names(&app, &ada, list).await, ["cyd"]);
    assert_eq!(member_names(&app, &ada, other).await, Vec::<String>::new());
    follow(&app, &ada, &bob).await;
    assert_eq!(member_names(&app, &ada, list).await, ["cyd"]);
    // A block ends the follow, and so the membership.
    let (status, _) = post(&app, &cyd, "/api/blocks", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201);
    assert_eq!(member_names(&app, &ada, list).await, Vec::<String>::new());
    assert_eq!(stored(&app, "SELECT COUNT(*) FROM list_members").await, 0);
}

async fn the_feed_holds_the_members_posts_and_reposts_newest_first_across_pages(app: TestApp) {
    let (ada, bob, cyd, dee, list) = ada_lists_bob_and_cyd(&app).await;
    assert_eq!(feed(&app, &ada, list, "").await, Vec::<i64>::new());

    let mut expected = Vec::new();
    let mut bob_posts = Vec::new();
    for i in 0..9 {
        bob_posts.push(id(&write(&app, &bob, &format!("bob {i}")).await));
        expected.push(*bob_posts.last().unwrap());
        expected.push(id(&write(&app, &cyd, &format!("cyd {i}")).await));
        write(&app, &dee, &format!("dee {i}")).await;
        write(&app, &ada, &format!("ada {i}")).await;
    }
    let deesp = write(&app, &dee, "Dee's post that Cyd shares").await;
    expected.push(id(&repost(&app, &cyd, id(&deesp)).await));
    // Replies are read in threads, as on Friends.
    reply(&app, &bob, expected[1], "bob answers cyd").await;
    expected.reverse();
    bob_posts.reverse();

    let first = feed(&app, &ada, list, "").await;
    assert_eq!(first, expected, "the default page holds all 19 newest first");
    let mut seen = Vec::new();
    for offset in (0..25).step_by(5) {
        seen.extend(feed(&app, &ada, list, &format!("?limit=5&offset={offset}")).await);
    }
    assert_eq!(seen, expected, "pages of 5 hold every post once, in order");
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), seen.len());
    for bad in ["?limit=0", "?limit=51", "?offset=-1", "?limit=x"] {
        let (status, _) = get(&app, &ada, &format!("/api/lists/{list}/posts{bad}")).await;
        assert_eq!(status, 400, "{bad}");
    }
    // Ada's own change of who is in the list shows at once, though her page was kept
    // (`feeds::cache`): Cyd taken out takes his posts and repost with him.
    let cyds: Vec<i64> = expected.iter().copied().filter(|post| !bob_posts.contains(post)).collect();
    let (status, _) = members_request(&app, &ada, list, reqwest::Method::DELETE, &[cyd.id]).await;
    assert_eq!(status, 200);
    let without_cyd = feed(&app, &ada, list, "").await;
    assert!(cyds.iter().all(|post| !without_cyd.contains(post)), "{without_cyd:?} holds one of Cyd's {cyds:?}");
    assert_eq!(without_cyd, bob_posts, "Bob's posts stay, newest first");
    // A post deleted by someone else leaves the feed within the few seconds a kept page is
    // answered, as on Friends (Bob's newest).
    let (status, _) = delete(&app, &bob, &format!("/api/posts/{}", bob_posts[0])).await;
    assert_eq!(status, 204);
    app.clock.advance(std::time::Duration::from_secs(6));
    assert!(!feed(&app, &ada, list, "").await.contains(&bob_posts[0]));
}

/// A list of 60 people reads its feed with SQLite's other form (`lists::feed`): the same posts.
async fn a_long_list_reads_the_same_feed(app: TestApp) {
    let ada = app.member("ada").await;
    let mut people = Vec::new();
    for n in 0..60 {
        let member = app.member(&format!("member{n}")).await;
        follow(&app, &ada, &member).await;
        people.push(member);
    }
    let list = id(&make(&app, &ada, "Many").await);
    let few = id(&make(&app, &ada, "Few").await);
    let all: Vec<i64> = people.iter().map(|m| m.id).collect();
    add(&app, &ada, list, &all).await;
    add(&app, &ada, few, &all[..2]).await;
    let mut expected = Vec::new();
    for (n, member) in people.iter().enumerate().take(12) {
        expected.push(id(&write(&app, member, &format!("post {n}")).await));
    }
    expected.reverse();
    assert_eq!(feed(&app, &ada, list, "?limit=50").await, expected);
    let mut paged = feed(&app, &ada, list, "?limit=7").await;
    paged.extend(feed(&app, &ada, list, "?limit=7&offset=7").await);
    assert_eq!(paged, expected);
    assert_eq!(feed(&app, &ada, few, "").await, expected[10..]);
}

async fn hidden_people_leave_the_feed_before_the_page_is_cut(app: TestApp) {
    let moderator = app.member("mod").await;
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(moderator.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let eve = app.member("eve").await;
    for whom in [&bob, &cyd] {
        follow(&app, &ada, whom).await;
    }
    let list = id(&make(&app, &ada, "Hidden").await);
    add(&app, &ada, list, &[bob.id, cyd.id]).await;
    let eves = write(&app, &eve, "Eve's words").await;
    let cyds_repost_of_eve = id(&repost(&app, &cyd, id(&eves)).await);
    let mut cyds = Vec::new();
    let mut bobs = Vec::new();
    for i in 0..6 {
        cyds.push(id(&write(&app, &cyd, &format!("cyd {i}")).await));
        bobs.push(id(&write(&app, &bob, &format!("bob {i}")).await));
    }
    assert!(feed(&app, &ada, list, "").await.contains(&cyds_repost_of_eve));

    // Ada blocks Eve: Cyd's repost of Eve goes. Ada mutes Bob: his posts go, and a page of 5
    // is still 5 of Cyd's.
    let (status, _) = post(&app, &ada, "/api/blocks", json!({ "userId": eve.id })).await;
    assert_eq!(status, 201);
    let (status, _) = post(&app, &ada, "/api/mutes", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201);
    let page = feed(&app, &ada, list, "?limit=5").await;
    let mut newest_cyds = cyds.clone();
    newest_cyds.reverse();
    assert_eq!(page, newest_cyds[..5], "{page:?}");
    assert!(!feed(&app, &ada, list, "").await.contains(&cyds_repost_of_eve));

    // A moderator removes one of Cyd's posts, then suspends Cyd: the list is empty.
    let path = format!("/api/moderation/posts/{}/remove", cyds[5]);
    let (status, body) = post(&app, &moderator, &path, json!({ "reason": "Spam" })).await;
    assert_eq!(status, 200, "{body}");
    assert!(!feed(&app, &ada, list, "").await.contains(&cyds[5]));
    let path = format!("/api/moderation/members/{}/suspend", cyd.id);
    let (status, body) = post(&app, &moderator, &path, json!({ "reason": "Spam" })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(feed(&app, &ada, list, "").await, Vec::<i64>::new());
    assert_eq!(member_names(&app, &ada, list).await, ["bob"]);
}

/// A page read from the owner's home timeline goes on below its floor, read by author
/// (`lists::feed`): a trimmed timeline (upkeep keeps the newest rows and raises the floor)
/// still gives every page whole, with no post twice and none missing.
async fn pages_go_on_below_the_timelines_floor(app: TestApp) {
    let (ada, bob, cyd, dee, list) = ada_lists_bob_and_cyd(&app).await;
    let mut expected = Vec::new();
    for i in 0..8 {
        expected.push(id(&write(&app, &bob, &format!("bob {i}")).await));
        write(&app, &dee, &format!("dee {i}")).await;
        expected.push(id(&write(&app, &cyd, &format!("cyd {i}")).await));
    }
    expected.reverse();
    // Ada's timeline trimmed to the rows from Cyd's fifth-newest post up.
    let floor = expected[8];
    for sql in [
        "UPDATE users SET home_floor = $1 WHERE id = $2",
        "DELETE FROM home_timeline WHERE post_id < $1 AND member_id = $2",
    ] {
        sqlx::query(sql).bind(floor).bind(ada.id).execute(&app.state.db.write).await.unwrap();
    }
    assert_eq!(feed(&app, &ada, list, "?limit=20").await, expected, "9 from the timeline, 7 below it");
    for limit in [3, 5, 9] {
        let mut seen = Vec::new();
        for offset in (0..expected.len()).step_by(limit) {
            seen.extend(feed(&app, &ada, list, &format!("?limit={limit}&offset={offset}")).await);
        }
        assert_eq!(seen, expected, "pages of {limit}");
    }
}

async fn a_list_is_its_owners_alone(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    follow(&app, &bob, &ada).await;
    let list = id(&make(&app, &ada, "Private").await);
    add(&app, &ada, list, &[bob.id]).await;
    write(&app, &bob, "in the list").await;

    let path = format!("/api/lists/{list}");
    let answers = [
        get(&app, &bob, &path).await,
        put(&app, &bob, &path, Some(json!({ "title": "Mine now" }))).await,
        get(&app, &bob, &format!("{path}/members")).await,
        add(&app, &bob, list, &[ada.id]).await,
        members_request(&app, &bob, list, reqwest::Method::DELETE, &[bob.id]).await,
        get(&app, &bob, &format!("{path}/posts")).await,
        delete(&app, &bob, &path).await,
    ];
    for (status, body) in answers {
        assert_eq!((status, body["message"].as_str()), (404, Some("List not found")), "{body}");
    }
    let (_, bobs) = get(&app, &bob, "/api/lists").await;
    assert_eq!(bobs, json!([]));
    let (_, adas) = get(&app, &ada, &path).await;
    assert_eq!((&adas["title"], &adas["memberCount"]), (&json!("Private"), &json!(1)), "{adas}");
    assert_eq!(feed(&app, &ada, list, "").await.len(), 1);
    // Without a session: 401.
    let (status, _) = read(app.client.get(app.url("/api/lists")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

async fn mastodon_apps_read_the_lists_and_their_timelines(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let list = id(&make(&app, &ada, "Engines").await);
    add(&app, &ada, list, &[bob.id]).await;
    let mut bobs = Vec::new();
    for i in 0..3 {
        bobs.push(id(&write(&app, &bob, &format!("bob {i}")).await).to_string());
    }
    write(&app, &ada, "Ada's own post is not in the list").await;
    let adas_app = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let bobs_app = AppClient::new(&app, &token_for(&app, &bob, "read").await);

    let (status, lists) = adas_app.get("/api/v1/lists").await;
    let entity = json!({ "id": list.to_string(), "title": "Engines", "replies_policy": "none", "exclusive": false });
    assert_eq!((status, &lists), (200, &json!([entity.clone()])));
    let (_, one) = adas_app.get(&format!("/api/v1/lists/{list}")).await;
    assert_eq!(one, entity);
    let (status, timeline) = adas_app.get(&format!("/api/v1/timelines/list/{list}?limit=2")).await;
    let ids: Vec<&str> = timeline.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!((status, ids), (200, vec![bobs[2].as_str(), bobs[1].as_str()]), "{timeline}");
    let (_, older) = adas_app.get(&format!("/api/v1/timelines/list/{list}?max_id={}", bobs[1])).await;
    assert_eq!(older[0]["id"], bobs[0], "{older}");
    assert_eq!(older.as_array().unwrap().len(), 1);

    // Bob's app: Ada's list is nobody's to him.
    assert_eq!(bobs_app.get("/api/v1/lists").await, (200, json!([])));
    for path in [format!("/api/v1/lists/{list}"), format!("/api/v1/timelines/list/{list}"), "/api/v1/lists/x".into()] {
        let (status, body) = bobs_app.get(&path).await;
        assert_eq!((status, &body["error"]), (404, &json!("Record not found")), "{path}");
    }
}

both_databases!(
    pages_go_on_below_the_timelines_floor,
    lists_are_made_renamed_and_deleted_within_their_bounds,
    only_followed_people_are_added_and_unfollowing_takes_them_out,
    the_feed_holds_the_members_posts_and_reposts_newest_first_across_pages,
    a_long_list_reads_the_same_feed,
    hidden_people_leave_the_feed_before_the_page_is_cut,
    a_list_is_its_owners_alone,
    mastodon_apps_read_the_lists_and_their_timelines,
);
