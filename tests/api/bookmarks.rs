//! Bookmarks (issue 29): a member's private list of posts, newest bookmark first, which nobody
//! else sees and which tells nobody.

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, get, id, ids, post, post_empty, repost, seen_by, write};

async fn bookmark(app: &TestApp, who: &Member, post_id: i64) -> Value {
    let (status, body) = post_empty(app, who, &format!("/api/posts/{post_id}/bookmark")).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn bookmarks(app: &TestApp, who: &Member, query: &str) -> Vec<i64> {
    let (status, body) = get(app, who, &format!("/api/bookmarks{query}")).await;
    assert_eq!(status, 200, "{body}");
    ids(&body)
}

both_databases!(
    a_member_finds_their_bookmarks_newest_first_page_by_page,
    a_second_member_can_neither_see_nor_remove_your_bookmarks,
    a_bookmark_of_a_deleted_or_hidden_post_leaves_the_list,
);

async fn a_member_finds_their_bookmarks_newest_first_page_by_page(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = id(&write(&app, &bob, "One").await);
    let second = id(&write(&app, &bob, "Two").await);
    let third = id(&write(&app, &bob, "Three").await);
    assert_eq!(bookmarks(&app, &ada, "").await, Vec::<i64>::new());

    // Bookmarked in another order than written; the list is by when each was bookmarked.
    for post_id in [second, third, first] {
        let marked = bookmark(&app, &ada, post_id).await;
        assert_eq!(marked["isBookmarked"], true, "{marked}");
        app.clock.advance(Duration::from_secs(1));
    }
    bookmark(&app, &ada, second).await;
    assert_eq!(bookmarks(&app, &ada, "").await, [first, third, second], "twice changes nothing");
    assert_eq!(bookmarks(&app, &ada, "?limit=2").await, [first, third]);
    assert_eq!(bookmarks(&app, &ada, "?limit=2&offset=2").await, [second]);
    for bad in ["?limit=0", "?limit=51", "?offset=-1"] {
        let (status, body) = get(&app, &ada, &format!("/api/bookmarks{bad}")).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }

    // Every card shows the mark, the author is told nothing.
    assert_eq!(seen_by(&app, &ada, first).await["isBookmarked"], true);
    let (_, bobs) = get(&app, &ada, "/api/users/bob/posts").await;
    assert!(bobs.as_array().unwrap().iter().all(|p| p["isBookmarked"] == true), "{bobs}");
    let (_, told) = get(&app, &bob, "/api/notifications").await;
    assert_eq!(told, json!([]));

    // A repost stands for its original.
    let cyd = app.member("cyd").await;
    let shared = repost(&app, &cyd, first).await;
    let (status, body) = delete_bookmark(&app, &ada, id(&shared)).await;
    assert_eq!((status, &body["id"], &body["isBookmarked"]), (200, &json!(first), &json!(false)), "the original's");
    assert_eq!(bookmarks(&app, &ada, "").await, [third, second]);
    let (status, _) = delete_bookmark(&app, &ada, first).await;
    assert_eq!(status, 200, "taking away a bookmark not there changes nothing");
    let (status, _) = post_empty(&app, &ada, "/api/posts/999999/bookmark").await;
    assert_eq!(status, 404);
}

async fn delete_bookmark(app: &TestApp, who: &Member, post_id: i64) -> (u16, Value) {
    delete(app, who, &format!("/api/posts/{post_id}/bookmark")).await
}

async fn a_second_member_can_neither_see_nor_remove_your_bookmarks(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post_id = id(&write(&app, &bob, "Worth keeping").await);
    bookmark(&app, &ada, post_id).await;

    assert_eq!(bookmarks(&app, &bob, "").await, Vec::<i64>::new());
    assert_eq!(seen_by(&app, &bob, post_id).await["isBookmarked"], false);
    let (status, body) = delete_bookmark(&app, &bob, post_id).await;
    assert_eq!((status, &body["isBookmarked"]), (200, &json!(false)));
    assert_eq!(bookmarks(&app, &ada, "").await, [post_id], "Bob's call took only his own bookmark");
    assert_eq!(seen_by(&app, &ada, post_id).await["isBookmarked"], true);
}

async fn a_bookmark_of_a_deleted_or_hidden_post_leaves_the_list(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let bobs = id(&write(&app, &bob, "Bob's").await);
    let cyds = id(&write(&app, &cyd, "Cyd's").await);
    let gone = id(&write(&app, &cyd, "Soon gone").await);
    for post_id in [bobs, cyds, gone] {
        bookmark(&app, &ada, post_id).await;
    }
    let (status, _) = delete(&app, &cyd, &format!("/api/posts/{gone}")).await;
    assert_eq!(status, 204);
    assert_eq!(bookmarks(&app, &ada, "").await, [cyds, bobs]);
    let (status, _) = post_empty(&app, &ada, &format!("/api/posts/{gone}/bookmark")).await;
    assert_eq!(status, 404, "a deleted post cannot be bookmarked");

    // Bob blocks Ada: his post leaves her list (a page of 1 is still 1), and comes back with the block's end.
    let (status, body) = post(&app, &bob, "/api/blocks", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(bookmarks(&app, &ada, "?limit=1").await, [cyds]);
    assert_eq!(bookmarks(&app, &ada, "").await, [cyds]);
    let (status, _) = delete(&app, &bob, &format!("/api/blocks/{}", ada.id)).await;
    assert_eq!(status, 204);
    assert_eq!(bookmarks(&app, &ada, "").await, [cyds, bobs]);
}
