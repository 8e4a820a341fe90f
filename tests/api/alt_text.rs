//! Image descriptions (alt text): written with a post's images, read on every card with each
//! image's size, bounded and checked as post text is, and only ever on the author's own uploads.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::fixtures::png;
use crate::media::{id_of, uploaded};
use crate::posts::{follow, get, id, post, repost, seen_by};

/// An upload of `who`, `width` × `height` pixels: its upload URL and its `/objects/{id}`.
async fn picture(app: &TestApp, who: &Member, width: u32, height: u32) -> (String, String) {
    let url = uploaded(app, who, png(width, height)).await;
    let object = format!("/objects/{}", id_of(&url));
    (url, object)
}

async fn post_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM posts").fetch_one(&app.state.db.read).await.unwrap()
}

async fn a_description_round_trips_with_each_images_size(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &bob, &ada).await;
    let (heron_url, heron) = picture(&app, &ada, 64, 48).await;
    let (pier_url, pier) = picture(&app, &ada, 30, 20).await;

    let (status, created) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "At the lake", "images": [
            { "url": heron_url, "alt": "  A grey heron on one leg, cafe\u{301} in the back  " },
            { "url": pier_url },
        ] }),
    )
    .await;

    assert_eq!(status, 201, "{created}");
    let expected = json!([
        { "url": heron, "alt": "A grey heron on one leg, caf\u{e9} in the back", "width": 64, "height": 48 },
        { "url": pier, "alt": null, "width": 30, "height": 20 },
    ]);
    assert_eq!(created["images"], expected);
    assert_eq!(created["imageUrls"], json!([heron, pier]));
    let (_, feed) = get(&app, &bob, "/api/posts/feed").await;
    assert_eq!(feed[0]["images"], expected, "{feed}");
    assert_eq!(seen_by(&app, &bob, id(&created)).await["images"], expected);
    // A repost's card shows its original's images, descriptions included.
    repost(&app, &bob, id(&created)).await;
    let (_, bobs) = get(&app, &bob, "/api/users/bob/posts").await;
    assert_eq!(bobs[0]["repostOf"]["images"], expected, "{bobs}");
}

async fn a_post_without_descriptions_keeps_the_specs_shape(app: TestApp) {
    let ada = app.member("ada").await;
    let (url, object) = picture(&app, &ada, 40, 30).await;

    let (status, created) = post(&app, &ada, "/api/posts", json!({ "content": "Plain", "imageUrls": [url] })).await;
    let (_, words) = post(&app, &ada, "/api/posts", json!({ "content": "Words only" })).await;
    // A blank description is no description.
    let (url, blank_object) = picture(&app, &ada, 40, 30).await;
    let (_, blank) =
        post(&app, &ada, "/api/posts", json!({ "content": "Blank", "images": [{ "url": url, "alt": "   " }] })).await;

    assert_eq!(status, 201, "{created}");
    assert_eq!(created["imageUrls"], json!([object]));
    assert_eq!(created["images"], json!([{ "url": object, "alt": null, "width": 40, "height": 30 }]));
    assert_eq!((&words["imageUrls"], &words["images"]), (&json!([]), &json!([])));
    assert_eq!(blank["images"], json!([{ "url": blank_object, "alt": null, "width": 40, "height": 30 }]), "{blank}");
}

async fn a_description_too_long_or_with_direction_controls_is_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let (url, _) = picture(&app, &ada, 20, 20).await;
    let with_alt = |alt: &str| json!({ "content": "Look", "images": [{ "url": url, "alt": alt }] });

    let cases = [
        (with_alt(&"é".repeat(1501)), "An image description can be at most 1500 characters long"),
        (with_alt("a heron \u{202e}gnp.exe"), "An image description cannot contain text-direction control characters"),
        (with_alt("\u{200b}\u{3164}"), "An image description cannot be only invisible characters"),
        (
            with_alt("nul\0here"),
            "An image description cannot contain control characters other than line breaks and tabs",
        ),
        (
            json!({ "content": "Both", "imageUrls": [url], "images": [{ "url": url, "alt": "x" }] }),
            "Send imageUrls or images, not both",
        ),
        (
            json!({ "content": "Many", "images": (0..5).map(|_| json!({ "url": url })).collect::<Vec<Value>>() }),
            "A post can have at most 4 images",
        ),
        (
            json!({ "content": "♻️", "repostOfId": 1, "images": [{ "url": url, "alt": "x" }] }),
            "A repost cannot have images, a poll or a reply",
        ),
    ];
    for (body, message) in cases {
        let (status, answer) = post(&app, &ada, "/api/posts", body).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{answer}");
    }
    assert_eq!(post_count(&app).await, 0);

    // 1500 characters, counted as code points after NFC (3000 typed), is the limit, not over it.
    let (status, created) = post(&app, &ada, "/api/posts", with_alt(&"e\u{301}".repeat(1500))).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["images"][0]["alt"].as_str().map(|a| a.chars().count()), Some(1500));
}

async fn a_member_cannot_describe_another_members_image(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (url, object) = picture(&app, &ada, 20, 20).await;
    let (_, adas) =
        post(&app, &ada, "/api/posts", json!({ "content": "Mine", "images": [{ "url": url, "alt": "Ada's cat" }] }))
            .await;

    for stolen in [&url, &object] {
        let (status, body) = post(
            &app,
            &bob,
            "/api/posts",
            json!({ "content": "Stolen", "images": [{ "url": stolen, "alt": "Bob's cat now" }] }),
        )
        .await;
        assert_eq!((status, &body["message"]), (400, &json!("Image URL is not an upload of yours")), "{body}");
    }

    assert_eq!(post_count(&app).await, 1);
    assert_eq!(seen_by(&app, &bob, id(&adas)).await["images"][0]["alt"], "Ada's cat");
}

both_databases!(
    a_description_round_trips_with_each_images_size,
    a_post_without_descriptions_keeps_the_specs_shape,
    a_description_too_long_or_with_direction_controls_is_refused,
    a_member_cannot_describe_another_members_image,
);
