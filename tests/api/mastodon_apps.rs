//! What a member meets in a Mastodon app (issue 62, "From an app"): paths with a trailing slash,
//! unblocking, a full handle in search, lists made and filled from the app, settings Murmur does
//! not offer refused by name, default pictures, followed tags, the calls apps make on start,
//! scopes an app never registered, and image descriptions corrected by an edit.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp, json};
use crate::mastodon::{AppClient, REDIRECT, register_app, token_for};

const UPDATE_CREDENTIALS: &str = "/api/v1/accounts/update_credentials";

/// A token with every scope `toot` asks for.
async fn app_of<'a>(app: &'a TestApp, member: &Member) -> AppClient<'a> {
    AppClient::new(app, &token_for(app, member, "read write follow").await)
}

/// The instance's host as handles name it, and with its port.
fn hosts(app: &TestApp) -> (String, String) {
    let url = &app.state.config.public_url;
    let host = url.host_str().unwrap().to_string();
    let with_port = format!("{host}:{}", url.port_or_known_default().unwrap());
    (host, with_port)
}

async fn an_api_or_oauth_path_answers_the_same_with_a_trailing_slash(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let (status, me) = json(ada.client.get(app.url("/api/auth/me/")).send().await.unwrap()).await;
    assert_eq!((status, me["username"].as_str()), (200, Some("ada")), "Murmur's own API: {me}");
    let (status, lists) = ada_app.get("/api/v1/lists/").await;
    assert_eq!((status, lists), (200, json!([])));
    let (client_id, _) = register_app(&app, "read write follow").await;
    let query = format!("client_id={client_id}&redirect_uri={}&scope=read", urlencode(REDIRECT));
    let (status, asked) =
        json(ada.client.get(app.url(&format!("/api/oauth/authorization/?{query}"))).send().await.unwrap()).await;
    assert_eq!((status, asked["appName"].as_str()), (200, Some("Test App")), "{asked}");
    // `toot login` opens the consent page with a slash: the same page as without.
    let page = |path: String| {
        let client = ada.client.clone();
        async move {
            let response = client.get(path).send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    let with = page(app.url(&format!("/oauth/authorize/?response_type=code&{query}"))).await;
    let without = page(app.url(&format!("/oauth/authorize?response_type=code&{query}"))).await;
    // The web app's page (503 when the web app is not built, as for every page).
    assert!(matches!(with.0, 200 | 503), "{}", with.0);
    assert_eq!(with, without);
    let form = [("grant_type", "authorization_code"), ("code", "x"), ("client_id", "nobody")];
    let (status, refused) =
        json(reqwest::Client::new().post(app.url("/oauth/token/")).form(&form).send().await.unwrap()).await;
    assert_eq!((status, refused["error"].as_str()), (401, Some("invalid_client")), "{refused}");
    // Nothing else changes: a web page's path stays the web app's.
    let (status, _) = json(ada.client.get(app.url("/api/no-such-thing/")).send().await.unwrap()).await;
    assert_eq!(status, 404);
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

async fn a_blocker_still_reads_the_blocked_members_account_and_unblocks_them(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    bob_app.patch_form(UPDATE_CREDENTIALS, &[("note", "Bakes bread")]).await;
    let (_, post) = bob_app.post("/api/v1/statuses", json!({"status": "Rye today"})).await;
    assert!(post["id"].is_string(), "{post}");

    let (status, relationship) = ada_app.post(&format!("/api/v1/accounts/{}/block", bob.id), json!({})).await;
    assert_eq!((status, relationship["blocking"].as_bool()), (200, Some(true)), "{relationship}");
    // The account reads, by id, by handle and in search, as blocked; the posts do not.
    let (status, account) = ada_app.get(&format!("/api/v1/accounts/{}", bob.id)).await;
    assert_eq!(
        (status, account["username"].as_str(), account["note"].as_str()),
        (200, Some("bob"), Some("<p>Bakes bread</p>"))
    );
    assert_eq!(account["statuses_count"], 0, "{account}");
    let (status, looked_up) = ada_app.get("/api/v1/accounts/lookup?acct=bob").await;
    assert_eq!((status, looked_up["id"].as_str()), (200, Some(bob.id.to_string().as_str())), "{looked_up}");
    let (_, relationships) = ada_app.get(&format!("/api/v1/accounts/relationships?id[]={}", bob.id)).await;
    assert_eq!(relationships[0]["blocking"], true, "{relationships}");
    let (_, blocks) = ada_app.get("/api/v1/blocks").await;
    assert_eq!(blocks[0]["username"], "bob", "{blocks}");
    let (_, found) = ada_app.get("/api/v2/search?q=bob&type=accounts&resolve=true").await;
    assert_eq!(found["accounts"][0]["username"], "bob", "an app finds whom to unblock: {found}");
    let (status, posts) = ada_app.get(&format!("/api/v1/accounts/{}/statuses", bob.id)).await;
    assert_eq!((status, posts), (200, json!([])));
    let (status, followers) = ada_app.get(&format!("/api/v1/accounts/{}/followers", bob.id)).await;
    assert_eq!((status, followers), (200, json!([])));
    // The blocked member reads who the blocker is and nothing more, as Murmur's profile shows
    // it; search does not offer the blocker.
    let (status, account) = bob_app.get(&format!("/api/v1/accounts/{}", ada.id)).await;
    assert_eq!((status, &account["note"], &account["statuses_count"]), (200, &json!(""), &json!(0)), "{account}");
    let (status, looked_up) = bob_app.get("/api/v1/accounts/lookup?acct=ada").await;
    assert_eq!((status, &looked_up["username"]), (200, &json!("ada")), "{looked_up}");
    let (_, posts) = bob_app.get(&format!("/api/v1/accounts/{}/statuses", ada.id)).await;
    assert_eq!(posts, json!([]));
    let (_, found) = bob_app.get("/api/v2/search?q=ada&type=accounts").await;
    assert_eq!(found["accounts"], json!([]));

    // Blocked both ways: the blocker reads who it is, nothing of what they wrote.
    bob_app.post(&format!("/api/v1/accounts/{}/block", ada.id), json!({})).await;
    let (status, account) = ada_app.get(&format!("/api/v1/accounts/{}", bob.id)).await;
    assert_eq!((status, account["username"].as_str(), account["note"].as_str()), (200, Some("bob"), Some("")));
    bob_app.post(&format!("/api/v1/accounts/{}/unblock", ada.id), json!({})).await;

    let (status, relationship) = ada_app.post(&format!("/api/v1/accounts/{}/unblock", bob.id), json!({})).await;
    assert_eq!((status, relationship["blocking"].as_bool()), (200, Some(false)), "{relationship}");
    let (_, posts) = ada_app.get(&format!("/api/v1/accounts/{}/statuses", bob.id)).await;
    assert_eq!(posts[0]["content"], "<p>Rye today</p>");
    let (_, blocks) = ada_app.get("/api/v1/blocks").await;
    assert_eq!(blocks, json!([]));

    // A suspended member stays unread, blocked or not.
    ada_app.post(&format!("/api/v1/accounts/{}/block", bob.id), json!({})).await;
    crate::common::suspend_in_database(&app, bob.id).await;
    let (status, _) = ada_app.get(&format!("/api/v1/accounts/{}", bob.id)).await;
    assert_eq!(status, 404);
}

async fn a_full_handle_of_this_instance_finds_the_member_in_search(app: TestApp) {
    let ada = app.member("ada").await;
    app.member("member44").await;
    let ada_app = app_of(&app, &ada).await;
    let (host, with_port) = hosts(&app);
    for handle in [format!("member44@{host}"), format!("@member44@{host}"), format!("member44@{with_port}")] {
        let (status, found) = ada_app.get(&format!("/api/v2/search?q={}", urlencode(&handle))).await;
        assert_eq!(status, 200, "{found}");
        assert_eq!(found["accounts"][0]["acct"], "member44", "{handle}: {found}");
        let (_, found) = ada_app.get(&format!("/api/v1/accounts/search?q={}", urlencode(&handle))).await;
        assert_eq!(found[0]["acct"], "member44", "{handle}: {found}");
    }
    let (_, found) = ada_app.get("/api/v2/search?q=member44%40elsewhere.example&type=accounts").await;
    assert_eq!(found["accounts"], json!([]), "another server's handle is nobody here");
}

async fn lists_are_made_changed_and_filled_from_an_app(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    for member in [&bob, &dee] {
        ada_app.post(&format!("/api/v1/accounts/{}/follow", member.id), json!({})).await;
    }

    let (status, list) = ada_app.post("/api/v1/lists", json!({"title": "Bakers", "replies_policy": "none"})).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!((list["title"].as_str(), list["replies_policy"].as_str()), (Some("Bakers"), Some("none")));
    let id = list["id"].as_str().unwrap().to_string();
    let (status, renamed) = ada_app.put(&format!("/api/v1/lists/{id}"), json!({"title": "Bread people"})).await;
    assert_eq!((status, renamed["title"].as_str()), (200, Some("Bread people")), "{renamed}");
    let (_, lists) = ada_app.get("/api/v1/lists").await;
    assert_eq!(lists[0]["title"], "Bread people");

    // People are added as apps send them: a form's `account_ids[]`, or JSON.
    let (status, added) =
        ada_app.form(&format!("/api/v1/lists/{id}/accounts"), &[("account_ids[]", &bob.id.to_string())]).await;
    assert_eq!((status, added), (200, json!({})));
    let (status, _) =
        ada_app.post(&format!("/api/v1/lists/{id}/accounts"), json!({"account_ids": [dee.id.to_string()]})).await;
    assert_eq!(status, 200);
    let (_, accounts) = ada_app.get(&format!("/api/v1/lists/{id}/accounts")).await;
    let names: Vec<&str> = accounts.as_array().unwrap().iter().map(|a| a["username"].as_str().unwrap()).collect();
    assert_eq!(names, ["bob", "dee"]);
    let (_, holding) = ada_app.get(&format!("/api/v1/accounts/{}/lists", bob.id)).await;
    assert_eq!(holding[0]["id"].as_str(), Some(id.as_str()), "{holding}");
    let (_, none) = ada_app.get(&format!("/api/v1/accounts/{}/lists", cyd.id)).await;
    assert_eq!(none, json!([]));
    // Pages follow the Link header.
    let response = reqwest::Client::new()
        .get(app.url(&format!("/api/v1/lists/{id}/accounts?limit=1")))
        .bearer_auth(token_of(&app, &ada).await)
        .send()
        .await
        .unwrap();
    let next = link_next(&response).expect("a next page");
    let (_, first) = json(response).await;
    assert_eq!(first[0]["username"], "bob");
    let second = reqwest::Client::new().get(next).bearer_auth(token_of(&app, &ada).await).send().await.unwrap();
    assert!(link_next(&second).is_none(), "the last page names no next one");
    let (_, second) = json(second).await;
    assert_eq!(second[0]["username"], "dee");

    // Murmur's rules hold: only people followed; no exclusive lists; a title; another's list is none.
    let (status, refused) =
        ada_app.post(&format!("/api/v1/lists/{id}/accounts"), json!({"account_ids": [cyd.id]})).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (422, Some("Only people you follow can be added to a list")),
        "{refused}"
    );
    let (status, refused) = ada_app.post("/api/v1/lists", json!({"title": "Solo", "exclusive": true})).await;
    assert_eq!(status, 422);
    assert!(refused["error"].as_str().unwrap().contains("exclusive"), "{refused}");
    let (status, _) = ada_app.post("/api/v1/lists", json!({"title": "Odd", "replies_policy": "everyone"})).await;
    assert_eq!(status, 422);
    let (status, _) = ada_app.post("/api/v1/lists", json!({"title": "  "})).await;
    assert_eq!(status, 422);
    let (status, _) = ada_app.post("/api/v1/lists", json!({})).await;
    assert_eq!(status, 422);
    for (status, body) in [
        bob_app.get(&format!("/api/v1/lists/{id}/accounts")).await,
        bob_app.put(&format!("/api/v1/lists/{id}"), json!({"title": "Mine"})).await,
        bob_app.post(&format!("/api/v1/lists/{id}/accounts"), json!({"account_ids": [ada.id]})).await,
        bob_app.delete(&format!("/api/v1/lists/{id}")).await,
    ] {
        assert_eq!((status, body["error"].as_str()), (404, Some("Record not found")));
    }
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let (status, _) = reader.post("/api/v1/lists", json!({"title": "Read only"})).await;
    assert_eq!(status, 403);
    // At most 20 lists, as in Murmur.
    for n in 2..=20 {
        let (status, _) = ada_app.post("/api/v1/lists", json!({"title": format!("List {n}")})).await;
        assert_eq!(status, 200);
    }
    let (status, refused) = ada_app.post("/api/v1/lists", json!({"title": "One more"})).await;
    assert_eq!((status, refused["error"].as_str()), (422, Some("You can have at most 20 lists")));

    // Removing takes `account_ids` from the body of a DELETE, as toot sends it.
    let removed = reqwest::Client::new()
        .delete(app.url(&format!("/api/v1/lists/{id}/accounts")))
        .bearer_auth(token_of(&app, &ada).await)
        .json(&json!({"account_ids": [bob.id.to_string()]}))
        .send()
        .await
        .unwrap();
    assert_eq!(json(removed).await, (200, json!({})));
    let (_, accounts) = ada_app.get(&format!("/api/v1/lists/{id}/accounts")).await;
    assert_eq!(accounts[0]["username"], "dee");
    assert_eq!(accounts.as_array().unwrap().len(), 1);
    let (status, deleted) = ada_app.delete(&format!("/api/v1/lists/{id}")).await;
    assert_eq!((status, deleted), (200, json!({})));
    let (status, _) = ada_app.get(&format!("/api/v1/lists/{id}")).await;
    assert_eq!(status, 404);
}

/// A fresh token of `member` with toot's scopes (for requests `AppClient` does not make).
async fn token_of(app: &TestApp, member: &Member) -> String {
    token_for(app, member, "read write follow").await
}

fn link_next(response: &reqwest::Response) -> Option<String> {
    let link = response.headers().get("link")?.to_str().ok()?;
    let next = link.split(", ").find(|part| part.ends_with("rel=\"next\""))?;
    Some(next.trim_start_matches('<').split('>').next()?.to_string())
}

async fn settings_murmur_does_not_offer_are_refused_by_name(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    for (field, value, named) in [
        ("locked", "true", "locked accounts (locked)"),
        ("bot", "true", "bot accounts (bot)"),
        ("discoverable", "false", "(discoverable)"),
        ("source[privacy]", "private", "posts that are not public (source[privacy])"),
        ("source[sensitive]", "true", "(source[sensitive])"),
    ] {
        let (status, refused) =
            ada_app.patch_form(UPDATE_CREDENTIALS, &[("display_name", "Ada L."), (field, value)]).await;
        assert_eq!(status, 422, "{field}={value}: {refused}");
        let message = refused["error"].as_str().unwrap();
        assert!(message.starts_with("Murmur does not offer ") && message.contains(named), "{message}");
    }
    let refused = json(
        reqwest::Client::new()
            .patch(app.url(UPDATE_CREDENTIALS))
            .bearer_auth(token_of(&app, &ada).await)
            .json(&json!({"display_name": "Ada L.", "source": {"privacy": "unlisted"}, "bot": true}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(refused.0, 422);
    assert_eq!(
        refused.1["error"],
        "Murmur does not offer bot accounts (bot), posts that are not public (source[privacy])"
    );
    let form = reqwest::multipart::Form::new().text("display_name", "Ada L.").text("locked", "1");
    let (status, refused) = ada_app.multipart(reqwest::Method::PATCH, UPDATE_CREDENTIALS, form).await;
    assert_eq!(status, 422, "{refused}");
    let (_, me) = ada_app.get("/api/v1/accounts/verify_credentials").await;
    assert_eq!(me["display_name"], "Ada", "a refusal changes nothing");

    // What every Murmur account is may be sent back as it is.
    let (status, me) = ada_app
        .patch_form(
            UPDATE_CREDENTIALS,
            &[
                ("display_name", "Ada L."),
                ("locked", "false"),
                ("bot", "false"),
                ("discoverable", "true"),
                ("source[privacy]", "public"),
                ("source[sensitive]", "false"),
            ],
        )
        .await;
    assert_eq!((status, me["display_name"].as_str()), (200, Some("Ada L.")), "{me}");
}

async fn a_member_without_pictures_has_mastodons_default_ones(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = app_of(&app, &ada).await;
    let (_, me) = ada_app.get("/api/v1/accounts/verify_credentials").await;
    let (_, account) = ada_app.get(&format!("/api/v1/accounts/{}", ada.id)).await;
    for (field, path) in [
        ("avatar", "/avatars/original/missing.png"),
        ("avatar_static", "/avatars/original/missing.png"),
        ("header", "/headers/original/missing.png"),
        ("header_static", "/headers/original/missing.png"),
    ] {
        assert_eq!(me[field].as_str(), Some(app.url(path).as_str()), "{field}: {me}");
        assert_eq!(account[field], me[field]);
    }
    for path in ["/avatars/original/missing.png", "/headers/original/missing.png"] {
        let response = reqwest::get(app.url(path)).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "image/png");
        let picture = image::load_from_memory(&response.bytes().await.unwrap()).unwrap();
        assert!(picture.width() >= 100 && picture.height() >= 100, "{path}");
    }
}

async fn tags_say_whether_the_member_follows_them(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    bob_app.post("/api/v1/statuses", json!({"status": "A loaf #Baking"})).await;
    let (_, found) = ada_app.get("/api/v2/search?q=%23baking&type=hashtags").await;
    assert_eq!(
        (found["hashtags"][0]["name"].as_str(), found["hashtags"][0]["following"].as_bool()),
        (Some("baking"), Some(false))
    );
    let (status, _) = ada_app.post("/api/v1/tags/baking/follow", json!({})).await;
    assert_eq!(status, 200);
    let (_, found) = ada_app.get("/api/v2/search?q=%23baking").await;
    assert_eq!(found["hashtags"][0]["following"], true, "{found}");
    let (_, tag) = ada_app.get("/api/v1/tags/Baking").await;
    assert_eq!((tag["name"].as_str(), tag["following"].as_bool()), (Some("baking"), Some(true)));
    let (_, found) = bob_app.get("/api/v2/search?q=baking&type=hashtags").await;
    assert_eq!(found["hashtags"][0]["following"], false, "each member's own: {found}");
}

async fn the_calls_apps_make_on_start_answer_as_mastodon_does(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let dee = app.member("dee").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;

    // Unread notifications: a like and a follow, until read in Murmur.
    let (_, post) = ada_app.post("/api/v1/statuses", json!({"status": "Morning"})).await;
    bob_app.post(&format!("/api/v1/statuses/{}/favourite", post["id"].as_str().unwrap()), json!({})).await;
    bob_app.post(&format!("/api/v1/accounts/{}/follow", ada.id), json!({})).await;
    let (status, unread) = ada_app.get("/api/v1/notifications/unread_count").await;
    assert_eq!((status, unread), (200, json!({"count": 2})));
    let (_, unread) = bob_app.get("/api/v1/notifications/unread_count").await;
    assert_eq!(unread, json!({"count": 0}));
    let response = ada.client.put(app.url("/api/notifications/read-all")).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let (_, unread) = ada_app.get("/api/v1/notifications/unread_count").await;
    assert_eq!(unread, json!({"count": 0}));

    // The notification policy: Murmur filters nothing, and says so when asked to.
    let accepted = json!({
        "for_not_following": "accept", "for_not_followers": "accept", "for_new_accounts": "accept",
        "for_private_mentions": "accept", "for_limited_accounts": "accept",
        "summary": {"pending_requests_count": 0, "pending_notifications_count": 0},
    });
    let (status, policy) = ada_app.get("/api/v2/notifications/policy").await;
    assert_eq!((status, policy), (200, accepted.clone()));
    let token = token_of(&app, &ada).await;
    let patch = |form: Vec<(&'static str, &'static str)>| {
        let request = reqwest::Client::new().patch(app.url("/api/v2/notifications/policy")).bearer_auth(&token);
        async move { json(request.form(&form).send().await.unwrap()).await }
    };
    assert_eq!(patch(vec![("for_not_following", "accept")]).await, (200, accepted));
    let (status, refused) = patch(vec![("for_not_following", "filter"), ("for_new_accounts", "drop")]).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (422, Some("Murmur does not filter notifications: for_not_following, for_new_accounts can only be accept"))
    );

    // Familiar followers: whom the member follows among an account's followers, hidden ones left out.
    for (follower, followed) in [(&ada, &bob), (&ada, &dee), (&bob, &cyd), (&dee, &cyd)] {
        let follower_app = app_of(&app, follower).await;
        follower_app.post(&format!("/api/v1/accounts/{}/follow", followed.id), json!({})).await;
    }
    let (status, familiar) =
        ada_app.get(&format!("/api/v1/accounts/familiar_followers?id[]={}&id[]={}", cyd.id, bob.id)).await;
    assert_eq!(status, 200, "{familiar}");
    let names = |entry: &Value| -> Vec<String> {
        entry["accounts"].as_array().unwrap().iter().map(|a| a["username"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(familiar[0]["id"].as_str(), Some(cyd.id.to_string().as_str()));
    let mut known = names(&familiar[0]);
    known.sort();
    assert_eq!(known, ["bob", "dee"]);
    assert_eq!(names(&familiar[1]), Vec::<String>::new(), "nobody ada follows follows bob");
    crate::common::suspend_in_database(&app, dee.id).await;
    let (_, familiar) = ada_app.get(&format!("/api/v1/accounts/familiar_followers?id[]={}", cyd.id)).await;
    assert_eq!(names(&familiar[0]), ["bob"]);

    let (status, blocks) = ada_app.get("/api/v1/domain_blocks").await;
    assert_eq!((status, blocks), (200, json!([])));
    let (status, languages) =
        json(reqwest::Client::new().get(app.url("/api/v1/instance/languages")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(languages.as_array().unwrap().contains(&json!({"code": "en", "name": "English"})), "{languages}");

    // Each asks for its scope.
    let statuses_only = AppClient::new(&app, &token_for(&app, &ada, "read:statuses write:statuses").await);
    for path in [
        "/api/v1/notifications/unread_count",
        "/api/v2/notifications/policy",
        "/api/v1/domain_blocks",
        &format!("/api/v1/accounts/familiar_followers?id[]={}", cyd.id),
    ] {
        assert_eq!(statuses_only.get(path).await.0, 403, "{path}");
    }
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let (status, _) = json(
        reqwest::Client::new()
            .patch(app.url("/api/v2/notifications/policy"))
            .bearer_auth(token_for(&app, &ada, "read").await)
            .form(&[("for_not_following", "accept")])
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(reader.get("/api/v1/notifications/unread_count").await.0, 200);
}

async fn an_app_asking_for_scopes_it_never_registered_is_sent_back(app: TestApp) {
    let ada = app.member("ada").await;
    let (client_id, _) = register_app(&app, "read write").await;
    let query = [("client_id", client_id.as_str()), ("redirect_uri", REDIRECT), ("scope", "read push write:lists")];
    let (status, asked) =
        json(ada.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["scopesBeyondApp"], json!(["push"]), "{asked}");
    assert_eq!(asked["redirectUri"], REDIRECT, "the way back is the app's own redirect URI");
    let answer = json!({"clientId": client_id, "redirectUri": REDIRECT, "scope": "read push", "allow": true});
    let (status, refused) =
        json(ada.client.post(app.url("/api/oauth/authorization")).json(&answer).send().await.unwrap()).await;
    assert_eq!(
        (status, refused["message"].as_str()),
        (400, Some("Test App asks for scopes it did not register (push), so it cannot connect"))
    );
    let query = [("client_id", client_id.as_str()), ("redirect_uri", REDIRECT), ("scope", "read")];
    let (_, asked) =
        json(ada.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(asked["scopesBeyondApp"], json!([]));
}

both_databases!(
    an_api_or_oauth_path_answers_the_same_with_a_trailing_slash,
    a_blocker_still_reads_the_blocked_members_account_and_unblocks_them,
    a_full_handle_of_this_instance_finds_the_member_in_search,
    lists_are_made_changed_and_filled_from_an_app,
    settings_murmur_does_not_offer_are_refused_by_name,
    a_member_without_pictures_has_mastodons_default_ones,
    tags_say_whether_the_member_follows_them,
    the_calls_apps_make_on_start_answer_as_mastodon_does,
    an_app_asking_for_scopes_it_never_registered_is_sent_back,
    an_app_corrects_an_images_description_and_the_history_shows_each_versions,
);

async fn an_app_corrects_an_images_description_and_the_history_shows_each_versions(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = app_of(&app, &ada).await;
    let bob_app = app_of(&app, &bob).await;
    let url = crate::media::uploaded(&app, &ada, crate::fixtures::png(8, 8)).await;
    let media_id = crate::media::id_of(&url);
    let (status, made) = ada_app.post("/api/v1/statuses", json!({"status": "A view", "media_ids": [media_id]})).await;
    assert_eq!(status, 200, "{made}");
    let path = format!("/api/v1/statuses/{}", made["id"].as_str().unwrap());

    // An image the post does not show, or another member's edit, is refused.
    let (status, body) = ada_app
        .put(&path, json!({"status": "A view", "media_attributes": [{"id": "nothing", "description": "?"}]}))
        .await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = bob_app
        .put(&path, json!({"status": "A view", "media_attributes": [{"id": media_id, "description": "Mine"}]}))
        .await;
    assert!(status == 403 || status == 404, "{status}: {body}");

    let (status, edited) = ada_app
        .put(&path, json!({"status": "A view", "media_attributes": [{"id": media_id, "description": "Hills at dusk"}]}))
        .await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["media_attachments"][0]["description"], "Hills at dusk", "{edited}");
    let (status, history) = bob_app.get(&format!("{path}/history")).await;
    assert_eq!(status, 200, "{history}");
    let descriptions: Vec<&Value> =
        history.as_array().unwrap().iter().map(|v| &v["media_attachments"][0]["description"]).collect();
    assert_eq!(descriptions, [&Value::Null, &json!("Hills at dusk")], "{history}");
    assert_eq!(history[0]["media_attachments"][0]["id"], media_id.as_str());
}
