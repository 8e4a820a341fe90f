//! Posts as apps and the web app make them: image-only posts, polls of any length from five
//! minutes to a week with one or several choices, pinned posts, and image descriptions
//! corrected after posting.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::edits::patch;
use crate::fixtures::png;
use crate::mastodon::{AppClient, token_for};
use crate::media::uploaded;
use crate::posts::{get, id, post, seen_by};

/// An app's upload of a small picture with `description`: its media id.
async fn app_image(app_client: &AppClient<'_>, description: &str) -> String {
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(png(32, 24)).file_name("a.png").mime_str("image/png").unwrap())
        .text("description", description.to_string());
    let (status, media) = app_client.multipart(reqwest::Method::POST, "/api/v2/media", form).await;
    assert_eq!(status, 200, "{media}");
    media["id"].as_str().unwrap().to_string()
}

/// Signs `who` in to an app with every scope.
async fn app_of<'a>(app: &'a TestApp, who: &Member) -> AppClient<'a> {
    AppClient::new(app, &token_for(app, who, "read write follow").await)
}

async fn a_post_with_an_image_needs_no_text(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let url = uploaded(&app, &ada, png(40, 30)).await;
    let media = app_image(&ada_app, "A grey square").await;

    let (web_status, web_post) =
        post(&app, &ada, "/api/posts", json!({ "content": "  ", "images": [{ "url": url, "alt": "A heron" }] })).await;
    let (app_status, status) = ada_app.form("/api/v1/statuses", &[("media_ids[]", media.as_str())]).await;

    assert_eq!(web_status, 201, "{web_post}");
    assert_eq!((web_post["content"].as_str(), web_post["images"][0]["alt"].as_str()), (Some(""), Some("A heron")));
    assert_eq!(app_status, 200, "{status}");
    assert_eq!(status["media_attachments"][0]["description"], "A grey square", "{status}");
    let app_post: i64 = status["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(seen_by(&app, &ada, app_post).await["content"], "");
}

async fn a_post_with_neither_text_nor_image_is_still_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;

    let (web_status, web_refusal) = post(&app, &ada, "/api/posts", json!({ "content": " \n " })).await;
    let (app_status, app_refusal) = ada_app.form("/api/v1/statuses", &[("status", "  ")]).await;

    assert_eq!((web_status, web_refusal["message"].as_str()), (400, Some("A post cannot be empty")), "{web_refusal}");
    assert_eq!((app_status, app_refusal["error"].as_str()), (422, Some("A post cannot be empty")), "{app_refusal}");
}

async fn an_image_only_post_may_lose_its_text_by_an_edit_but_not_its_last_image_and_text(app: TestApp) {
    let ada = app.member("ada").await;
    let url = uploaded(&app, &ada, png(40, 30)).await;
    let (_, created) = post(&app, &ada, "/api/posts", json!({ "content": "Caption", "imageUrls": [url] })).await;
    let object = created["imageUrls"][0].clone();

    let (emptied, without_text) = patch(&app, &ada, id(&created), json!({ "content": "" })).await;
    let (bare, refusal) = patch(&app, &ada, id(&created), json!({ "content": "", "imageUrls": [] })).await;

    assert_eq!((emptied, without_text["content"].as_str()), (200, Some("")), "{without_text}");
    assert_eq!(without_text["imageUrls"], json!([object]));
    assert_eq!((bare, refusal["message"].as_str()), (400, Some("A post cannot be empty")), "{refusal}");
}

/// Milliseconds from a post's creation to its poll's end, from Murmur's post JSON.
fn poll_length(post: &Value) -> i64 {
    let at =
        |field: &str| chrono::DateTime::parse_from_rfc3339(post[field].as_str().unwrap()).unwrap().timestamp_millis();
    at("pollExpiresAt") - at("createdAt")
}

async fn a_five_minute_poll_lasts_five_minutes_from_an_app_and_the_web(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let poll = [("status", "Quick one"), ("poll[options][]", "Tea"), ("poll[options][]", "Coffee")];

    let (status, from_app) =
        ada_app.form("/api/v1/statuses", &[&poll[..], &[("poll[expires_in]", "300")]].concat()).await;
    let (_, from_web) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Quick", "pollOptions": ["Tea", "Coffee"], "pollDurationMinutes": 5 }),
    )
    .await;
    let (_, week) = ada_app.form("/api/v1/statuses", &[&poll[..], &[("poll[expires_in]", "604800")]].concat()).await;

    assert_eq!(status, 200, "{from_app}");
    let app_post = seen_by(&app, &ada, from_app["id"].as_str().unwrap().parse().unwrap()).await;
    assert_eq!(poll_length(&app_post), 5 * 60 * 1000, "{app_post}");
    assert_eq!(poll_length(&from_web), 5 * 60 * 1000, "{from_web}");
    assert!(week["poll"]["expires_at"].is_string(), "{week}");
    let (_, instance) = ada_app.get("/api/v2/instance").await;
    let limits = &instance["configuration"]["polls"];
    assert_eq!((limits["min_expiration"].as_i64(), limits["max_expiration"].as_i64()), (Some(300), Some(604_800)));
}

async fn a_poll_length_outside_five_minutes_to_seven_days_is_refused_naming_the_range(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let app_poll = |seconds: &'static str| {
        [("status", "Poll"), ("poll[options][]", "Tea"), ("poll[options][]", "Coffee"), ("poll[expires_in]", seconds)]
    };
    let web_poll = |length: Value| {
        let mut body = json!({ "content": "Poll", "pollOptions": ["Tea", "Coffee"] });
        body.as_object_mut().unwrap().extend(length.as_object().unwrap().clone());
        body
    };
    let app_range = "poll[expires_in] must be between 300 and 604800 seconds (5 minutes to 7 days)";
    let web_range = "pollDurationMinutes must be between 5 and 10080 (5 minutes to 7 days)";

    for seconds in ["299", "604801", "0"] {
        let (status, refusal) = ada_app.form("/api/v1/statuses", &app_poll(seconds)).await;
        assert_eq!((status, refusal["error"].as_str()), (422, Some(app_range)), "{seconds}: {refusal}");
    }
    for minutes in [4, 10081] {
        let (status, refusal) =
            post(&app, &ada, "/api/posts", web_poll(json!({ "pollDurationMinutes": minutes }))).await;
        assert_eq!((status, refusal["message"].as_str()), (400, Some(web_range)), "{minutes}: {refusal}");
    }
    let (status, refusal) = post(&app, &ada, "/api/posts", web_poll(json!({ "pollDurationHours": 169 }))).await;
    assert_eq!((status, refusal["message"].as_str()), (400, Some("pollDurationHours must be between 1 and 168")));
    let both = json!({ "pollDurationHours": 1, "pollDurationMinutes": 60 });
    let (status, refusal) = post(&app, &ada, "/api/posts", web_poll(both)).await;
    assert_eq!(
        (status, refusal["message"].as_str()),
        (400, Some("Send pollDurationHours or pollDurationMinutes, not both"))
    );
    let (_, mine) = get(&app, &ada, "/api/users/ada/posts").await;
    assert_eq!(mine, json!([]), "nothing was posted");
}

async fn a_multiple_choice_poll_takes_several_options_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let carl = app.member("carl").await;
    let carl_app = app_of(&app, &carl).await;
    let (_, poll) = post(
        &app,
        &ada,
        "/api/posts",
        json!({ "content": "Which?", "pollOptions": ["Tea", "Coffee", "Water"], "pollMultiple": true }),
    )
    .await;
    let vote_path = format!("/api/posts/{}/vote", id(&poll));

    let (status, voted) = post(&app, &bob, &vote_path, json!({ "options": ["Water", "Tea"] })).await;
    let (again, refusal) = post(&app, &bob, &vote_path, json!({ "options": ["Coffee"] })).await;
    let (app_status, app_poll) =
        carl_app.form(&format!("/api/v1/polls/{}/votes", id(&poll)), &[("choices[]", "0"), ("choices[]", "1")]).await;

    assert_eq!(poll["pollMultiple"], true, "{poll}");
    assert_eq!(status, 200, "{voted}");
    assert_eq!(voted["myVotes"], json!(["Tea", "Water"]));
    assert_eq!(voted["pollVotes"], json!({ "Tea": [bob.id], "Coffee": [], "Water": [bob.id] }));
    assert_eq!((again, refusal["message"].as_str()), (409, Some("You have already voted")));
    assert_eq!(app_status, 200, "{app_poll}");
    assert_eq!(app_poll["multiple"], true);
    assert_eq!(app_poll["own_votes"], json!([0, 1]));
    assert_eq!((app_poll["votes_count"].as_i64(), app_poll["voters_count"].as_i64()), (Some(4), Some(2)));
}

async fn a_single_choice_poll_takes_one_option_and_apps_may_ask_for_several(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    let (_, single) =
        post(&app, &ada, "/api/posts", json!({ "content": "One", "pollOptions": ["Tea", "Coffee"] })).await;
    let (_, from_app) = ada_app
        .form(
            "/api/v1/statuses",
            &[
                ("status", "Several"),
                ("poll[options][]", "Tea"),
                ("poll[options][]", "Coffee"),
                ("poll[multiple]", "true"),
            ],
        )
        .await;

    let vote_path = format!("/api/posts/{}/vote", id(&single));
    let (status, refusal) = post(&app, &bob, &vote_path, json!({ "options": ["Tea", "Coffee"] })).await;
    let (app_status, app_refusal) =
        bob_app.form(&format!("/api/v1/polls/{}/votes", id(&single)), &[("choices[]", "0"), ("choices[]", "1")]).await;
    let (neither, unclear) = post(&app, &bob, &vote_path, json!({ "option": "Tea", "options": ["Tea"] })).await;
    let (one, voted) = post(&app, &bob, &vote_path, json!({ "options": ["Coffee"] })).await;

    assert_eq!((single["pollMultiple"].as_bool(), from_app["poll"]["multiple"].as_bool()), (Some(false), Some(true)));
    assert_eq!((status, refusal["message"].as_str()), (400, Some("This poll takes one choice")), "{refusal}");
    assert_eq!((app_status, app_refusal["error"].as_str()), (422, Some("This poll takes one choice")));
    assert_eq!((neither, unclear["message"].as_str()), (400, Some("Send option or options, not both")));
    assert_eq!((one, voted["myVote"].as_str(), voted["myVotes"].clone()), (200, Some("Coffee"), json!(["Coffee"])));
}

async fn a_member_pins_up_to_five_of_their_posts_shown_first_on_their_profile(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let mut posts = Vec::new();
    for n in 1..=6 {
        posts.push(id(&crate::posts::write(&app, &ada, &format!("Post {n}")).await));
    }

    for &post_id in &posts[..5] {
        let (status, pinned) = post(&app, &ada, &format!("/api/posts/{post_id}/pin"), json!({})).await;
        assert_eq!((status, pinned["pinned"].as_bool()), (200, Some(true)), "{pinned}");
    }
    let (again, _) = post(&app, &ada, &format!("/api/posts/{}/pin", posts[0]), json!({})).await;
    let (sixth, refusal) = post(&app, &ada, &format!("/api/posts/{}/pin", posts[5]), json!({})).await;
    let (_, seen_by_bob) = get(&app, &bob, "/api/users/ada/pinned").await;
    let (_, seen_by_ada) = get(&app, &ada, "/api/users/ada/pinned").await;

    assert_eq!(again, 200, "pinning twice changes nothing");
    assert_eq!((sixth, refusal["message"].as_str()), (400, Some("You can pin at most 5 posts: unpin one first")));
    let newest_pin_first: Vec<i64> = posts[..5].iter().rev().copied().collect();
    assert_eq!(crate::posts::ids(&seen_by_bob), newest_pin_first);
    assert!(seen_by_bob.as_array().unwrap().iter().all(|p| p["pinned"] == false), "only the author sees pinned");
    assert!(seen_by_ada.as_array().unwrap().iter().all(|p| p["pinned"] == true), "{seen_by_ada}");
    assert_eq!(seen_by(&app, &ada, posts[5]).await["pinned"], false);

    // Unpinning frees a place; deleting a pinned post leaves the pins.
    let (status, unpinned) = crate::posts::delete(&app, &ada, &format!("/api/posts/{}/pin", posts[0])).await;
    assert_eq!((status, unpinned["pinned"].as_bool()), (200, Some(false)), "{unpinned}");
    assert_eq!(crate::posts::delete(&app, &ada, &format!("/api/posts/{}", posts[1])).await.0, 204);
    let (_, left) = get(&app, &ada, "/api/users/ada/pinned").await;
    assert_eq!(crate::posts::ids(&left), vec![posts[4], posts[3], posts[2]]);
    let pins: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM pinned_posts")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(pins, 3);
}

async fn only_the_author_pins_a_post(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let adas = id(&crate::posts::write(&app, &ada, "Mine").await);
    let repost = id(&crate::posts::repost(&app, &ada, id(&crate::posts::write(&app, &bob, "Bob's").await)).await);
    let bob_app = app_of(&app, &bob).await;
    let ada_app = app_of(&app, &ada).await;

    let (web_status, web_refusal) = post(&app, &bob, &format!("/api/posts/{adas}/pin"), json!({})).await;
    let (web_unpin, _) = crate::posts::delete(&app, &bob, &format!("/api/posts/{adas}/pin")).await;
    let (repost_status, _) = post(&app, &ada, &format!("/api/posts/{repost}/pin"), json!({})).await;
    let (app_status, app_refusal) = bob_app.post(&format!("/api/v1/statuses/{adas}/pin"), json!({})).await;
    let (missing, _) = bob_app.post("/api/v1/statuses/999999/pin", json!({})).await;

    assert_eq!((web_status, web_refusal["message"].as_str()), (404, Some("Post not found")));
    assert_eq!((web_unpin, repost_status), (404, 404));
    assert_eq!(app_status, 422, "{app_refusal}");
    assert!(app_refusal["error"].as_str().unwrap().starts_with("Validation failed"), "{app_refusal}");
    assert_eq!(missing, 404);
    let (_, pinned) = ada_app.get(&format!("/api/v1/accounts/{}/statuses?pinned=true", ada.id)).await;
    assert_eq!(pinned, json!([]), "nothing was pinned");
}

async fn an_app_pins_and_unpins_and_lists_the_pinned(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    let first = id(&crate::posts::write(&app, &ada, "First").await);
    let second = id(&crate::posts::write(&app, &ada, "Second").await);

    let (status, pinned) = ada_app.post(&format!("/api/v1/statuses/{first}/pin"), json!({})).await;
    ada_app.post(&format!("/api/v1/statuses/{second}/pin"), json!({})).await;
    let (unpin_status, unpinned) = ada_app.post(&format!("/api/v1/statuses/{second}/unpin"), json!({})).await;
    let (_, listed) = bob_app.get(&format!("/api/v1/accounts/{}/statuses?pinned=true", ada.id)).await;
    let (_, own) = ada_app.get(&format!("/api/v1/statuses/{first}")).await;

    assert_eq!((status, pinned["pinned"].as_bool()), (200, Some(true)), "{pinned}");
    assert_eq!((unpin_status, unpinned["pinned"].as_bool()), (200, Some(false)), "{unpinned}");
    let listed_ids: Vec<&str> = listed.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(listed_ids, vec![first.to_string()]);
    assert_eq!(own["pinned"], true);
}

both_databases!(
    a_post_with_an_image_needs_no_text,
    a_post_with_neither_text_nor_image_is_still_refused,
    an_image_only_post_may_lose_its_text_by_an_edit_but_not_its_last_image_and_text,
    a_five_minute_poll_lasts_five_minutes_from_an_app_and_the_web,
    a_poll_length_outside_five_minutes_to_seven_days_is_refused_naming_the_range,
    a_multiple_choice_poll_takes_several_options_once,
    a_single_choice_poll_takes_one_option_and_apps_may_ask_for_several,
    a_member_pins_up_to_five_of_their_posts_shown_first_on_their_profile,
    only_the_author_pins_a_post,
    an_app_pins_and_unpins_and_lists_the_pinned,
);
