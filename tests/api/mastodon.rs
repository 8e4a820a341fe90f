//! The Mastodon client API: OAuth 2 with PKCE through Murmur's consent calls, tokens and their
//! ends, scopes, and the entities and lists apps read, checked with a second member for every
//! object an app can name. The real clients (Mastodon.py, masto.js) are driven in
//! `mastodon_clients`.

use base64::Engine;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::both_databases;
use crate::common::{Member, Served, TestApp, json};

pub const REDIRECT: &str = "https://app.example/callback";

/// An app registered as a Mastodon app registers (a form body).
pub async fn register_app(app: &impl Served, scopes: &str) -> (String, String) {
    let response = reqwest::Client::new()
        .post(app.url("/api/v1/apps"))
        .form(&[
            ("client_name", "Test App"),
            ("redirect_uris", REDIRECT),
            ("scopes", scopes),
            ("website", "https://app.example"),
        ])
        .send()
        .await
        .unwrap();
    let (status, body) = json(response).await;
    assert_eq!(status, 200, "{body}");
    (body["client_id"].as_str().unwrap().to_string(), body["client_secret"].as_str().unwrap().to_string())
}

pub fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// The member consents on Murmur's consent page (its two calls, with their session); answers
/// the code the app receives at its redirect URI.
pub async fn consent(app: &impl Served, member: &Member, client_id: &str, scope: &str, verifier: &str) -> String {
    let query = [("client_id", client_id), ("redirect_uri", REDIRECT), ("scope", scope)];
    let (status, asked) =
        json(member.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["appName"], "Test App");
    let answer = json!({
        "clientId": client_id, "redirectUri": REDIRECT, "scope": scope, "state": "xyz",
        "codeChallenge": challenge(verifier), "codeChallengeMethod": "S256", "allow": true,
    });
    let (status, result) =
        json(member.client.post(app.url("/api/oauth/authorization")).json(&answer).send().await.unwrap()).await;
    assert_eq!(status, 200, "{result}");
    let to = url::Url::parse(result["redirectTo"].as_str().unwrap()).unwrap();
    assert!(to.as_str().starts_with(REDIRECT));
    let pairs: std::collections::HashMap<_, _> = to.query_pairs().into_owned().collect();
    assert_eq!(pairs["state"], "xyz");
    pairs["code"].clone()
}

/// Exchanges a code for a token: the answer's status and body.
pub async fn exchange(
    app: &impl Served,
    client_id: &str,
    secret: Option<&str>,
    code: &str,
    verifier: &str,
) -> (u16, Value) {
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier),
    ];
    if let Some(secret) = secret {
        form.push(("client_secret", secret));
    }
    json(reqwest::Client::new().post(app.url("/oauth/token")).form(&form).send().await.unwrap()).await
}

/// A token for `member` with `scope`, through the whole flow.
pub async fn token_for(app: &impl Served, member: &Member, scope: &str) -> String {
    let (client_id, secret) = register_app(app, "read write follow push").await;
    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let code = consent(app, member, &client_id, scope, verifier).await;
    let (status, body) = exchange(app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token_type"], "Bearer");
    body["access_token"].as_str().unwrap().to_string()
}

/// A client that speaks as an app with `token`: no cookie, no Origin.
pub struct AppClient<'a> {
    app: &'a dyn Served,
    token: String,
    http: reqwest::Client,
}

impl<'a> AppClient<'a> {
    pub fn new(app: &'a dyn Served, token: &str) -> AppClient<'a> {
        AppClient { app, token: token.to_string(), http: reqwest::Client::new() }
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        json(self.http.get(self.app.url(path)).bearer_auth(&self.token).send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        json(self.http.post(self.app.url(path)).bearer_auth(&self.token).json(&body).send().await.unwrap()).await
    }

    pub async fn form(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        json(self.http.post(self.app.url(path)).bearer_auth(&self.token).form(form).send().await.unwrap()).await
    }

    pub async fn put(&self, path: &str, body: Value) -> (u16, Value) {
        json(self.http.put(self.app.url(path)).bearer_auth(&self.token).json(&body).send().await.unwrap()).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        json(self.http.delete(self.app.url(path)).bearer_auth(&self.token).send().await.unwrap()).await
    }

    /// `method` on `path` with a multipart form, as apps send files.
    pub async fn multipart(&self, method: reqwest::Method, path: &str, form: reqwest::multipart::Form) -> (u16, Value) {
        let request = self.http.request(method, self.app.url(path)).bearer_auth(&self.token).multipart(form);
        json(request.send().await.unwrap()).await
    }

    pub async fn patch_form(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        json(self.http.patch(self.app.url(path)).bearer_auth(&self.token).form(form).send().await.unwrap()).await
    }
}

async fn a_member_signs_in_an_app_and_posts_reads_and_is_notified(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write follow").await);

    let (status, me) = ada_app.get("/api/v1/accounts/verify_credentials").await;
    assert_eq!(status, 200, "{me}");
    assert_eq!((me["id"].as_str(), me["acct"].as_str()), (Some(ada.id.to_string().as_str()), Some("ada")));
    assert_eq!(me["source"]["privacy"], "public");

    // A form body with a poll, as Mastodon.py sends one.
    let (status, status_body) = ada_app
        .form(
            "/api/v1/statuses",
            &[
                ("status", "Hello @bob #rust <b>"),
                ("poll[options][]", "tea"),
                ("poll[options][]", "coffee"),
                ("poll[expires_in]", "3600"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{status_body}");
    let post_id = status_body["id"].as_str().unwrap().to_string();
    let content = status_body["content"].as_str().unwrap();
    assert!(content.contains("class=\"u-url mention\"") && content.contains("&lt;b&gt;"), "{content}");
    assert_eq!(status_body["tags"][0]["name"], "rust");
    assert_eq!(status_body["mentions"][0]["id"], bob.id.to_string());
    assert_eq!(status_body["poll"]["options"][1]["title"], "coffee");
    assert!(status_body["created_at"].as_str().unwrap().ends_with('Z'));

    // Bob follows Ada, sees the post at home, votes, likes and reposts it.
    let (status, relationship) = bob_app.post(&format!("/api/v1/accounts/{}/follow", ada.id), json!({})).await;
    assert_eq!((status, relationship["following"].as_bool()), (200, Some(true)), "{relationship}");
    let (status, home) = bob_app.get("/api/v1/timelines/home").await;
    assert_eq!(status, 200);
    assert!(home.as_array().unwrap().iter().any(|s| s["id"] == post_id.as_str()), "{home}");
    let (status, poll) = bob_app.post(&format!("/api/v1/polls/{post_id}/votes"), json!({"choices": ["1"]})).await;
    assert_eq!((status, poll["own_votes"].clone()), (200, json!([1])), "{poll}");
    let (status, liked) = bob_app.post(&format!("/api/v1/statuses/{post_id}/favourite"), json!({})).await;
    assert_eq!((status, liked["favourited"].as_bool(), liked["favourites_count"].as_i64()), (200, Some(true), Some(1)));
    let (status, reblog) = bob_app.post(&format!("/api/v1/statuses/{post_id}/reblog"), json!({})).await;
    assert_eq!(status, 200, "{reblog}");
    assert_eq!(reblog["reblog"]["id"], post_id.as_str());

    // Ada's notifications: the repost, the like and the follow, newest first.
    let (status, notes) = ada_app.get("/api/v1/notifications").await;
    assert_eq!(status, 200, "{notes}");
    let kinds: Vec<&str> = notes.as_array().unwrap().iter().map(|n| n["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["reblog", "favourite", "follow"], "{notes}");
    // Each names its actor, and its post's author, whole.
    for note in notes.as_array().unwrap() {
        assert_eq!(note["account"]["id"], bob.id.to_string(), "{note}");
        assert_eq!(note["account"]["following_count"], 1, "{note}");
    }
    assert_eq!(notes[0]["status"]["account"]["id"], ada.id.to_string(), "{notes}");
    assert_eq!(notes[0]["status"]["account"]["followers_count"], 1, "{notes}");
    let (_, only) = ada_app.get("/api/v1/notifications?types[]=favourite").await;
    assert_eq!(only.as_array().unwrap().len(), 1);
    assert_eq!(only[0]["status"]["id"], post_id.as_str());
    // Grouped (v2): the like and the repost of one post are two groups of their kind; a third
    // member's like of it joins the like's group.
    let carl = app.member("carl").await;
    let carl_app = AppClient::new(&app, &token_for(&app, &carl, "read write").await);
    carl_app.post(&format!("/api/v1/statuses/{post_id}/favourite"), json!({})).await;
    let (status, grouped) = ada_app.get("/api/v2/notifications").await;
    assert_eq!(status, 200, "{grouped}");
    let groups = grouped["notification_groups"].as_array().unwrap();
    let summary: Vec<(&str, i64)> =
        groups.iter().map(|g| (g["type"].as_str().unwrap(), g["notifications_count"].as_i64().unwrap())).collect();
    assert_eq!(summary, [("favourite", 2), ("reblog", 1), ("follow", 1)], "{grouped}");
    assert_eq!(groups[0]["sample_account_ids"], json!([carl.id.to_string(), bob.id.to_string()]));
    assert_eq!(grouped["statuses"].as_array().unwrap().len(), 1);
    assert_eq!(grouped["accounts"].as_array().unwrap().len(), 2);
    carl_app.post(&format!("/api/v1/statuses/{post_id}/unfavourite"), json!({})).await;
    let (_, without) = ada_app.get("/api/v1/notifications?exclude_types[]=follow&exclude_types[]=reblog").await;
    assert_eq!(without.as_array().unwrap().len(), 1);

    // Dismissing one of Bob's notifications is Ada's to do only for her own.
    let note_id = notes[0]["id"].as_str().unwrap();
    let (status, _) = bob_app.post(&format!("/api/v1/notifications/{note_id}/dismiss"), json!({})).await;
    assert_eq!(status, 404, "another member's notification is not found");
    let (status, _) = ada_app.post(&format!("/api/v1/notifications/{note_id}/dismiss"), json!({})).await;
    assert_eq!(status, 200);
    let (_, after) = ada_app.get("/api/v1/notifications").await;
    assert_eq!(after.as_array().unwrap().len(), 2);

    // Context, account, statuses of the account, relationships.
    let (status, reply) = bob_app.post("/api/v1/statuses", json!({"status": "Tea!", "in_reply_to_id": post_id})).await;
    assert_eq!(status, 200, "{reply}");
    let (_, context) = ada_app.get(&format!("/api/v1/statuses/{post_id}/context")).await;
    assert_eq!(context["descendants"][0]["id"], reply["id"]);
    let (_, account) = bob_app.get(&format!("/api/v1/accounts/{}", ada.id)).await;
    assert_eq!((account["username"].as_str(), account["statuses_count"].as_i64()), (Some("ada"), Some(1)));
    let (_, statuses) = ada_app.get(&format!("/api/v1/accounts/{}/statuses", bob.id)).await;
    let ids: Vec<&str> = statuses.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2, "Bob's reply and repost: {statuses}");
    let (_, relationships) = ada_app.get(&format!("/api/v1/accounts/relationships?id[]={}", bob.id)).await;
    assert_eq!(relationships[0]["followed_by"], true);
    let (_, found) = ada_app.get("/api/v1/accounts/lookup?acct=bob").await;
    assert_eq!(found["id"], bob.id.to_string());
}

async fn pages_follow_the_link_header(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let mut made = Vec::new();
    for n in 0..5 {
        let (status, body) = ada_app.post("/api/v1/statuses", json!({"status": format!("post {n}")})).await;
        assert_eq!(status, 200, "{body}");
        made.push(body["id"].as_str().unwrap().to_string());
    }
    let response = reqwest::Client::new()
        .get(app.url("/api/v1/timelines/home?limit=2"))
        .bearer_auth(&ada_app.token)
        .send()
        .await
        .unwrap();
    let link = response.headers()["link"].to_str().unwrap().to_string();
    let (_, first) = json(response).await;
    let first: Vec<&str> = first.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(first, [made[4].as_str(), made[3].as_str()]);
    let next = link.split(", ").find(|l| l.ends_with("rel=\"next\"")).unwrap();
    let next = next.trim_start_matches('<').split('>').next().unwrap();
    assert!(next.starts_with(&app.base), "absolute, as apps expect: {link}");
    assert!(next.contains(&format!("max_id={}", made[3])) && next.contains("limit=2"), "{link}");
    let (_, second) = ada_app.get(next.trim_start_matches(&app.base)).await;
    let second: Vec<&str> = second.as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(second, [made[2].as_str(), made[1].as_str()]);
    let (_, newer) = ada_app.get(&format!("/api/v1/timelines/home?since_id={}", made[2])).await;
    assert_eq!(newer.as_array().unwrap().len(), 2);
    let (_, public) = ada_app.get(&format!("/api/v1/timelines/public?max_id={}&limit=1", made[1])).await;
    assert_eq!(public[0]["id"], made[0].as_str());
}

async fn codes_are_single_use_bound_to_their_app_and_verifier(app: TestApp) {
    let ada = app.member("ada").await;
    let (client_id, secret) = register_app(&app, "read write").await;
    let (other_client, other_secret) = register_app(&app, "read write").await;
    let verifier = "the-right-verifier-0123456789-0123456789-abcdef";

    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (status, body) =
        exchange(&app, &client_id, Some(&secret), &code, "a-wrong-verifier-0123456789-0123456789-abcdef").await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")), "{body}");
    let (status, _) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 400, "a code refused once is gone");

    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (status, body) = exchange(&app, &other_client, Some(&other_secret), &code, verifier).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")), "another app's code: {body}");

    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (status, body) = exchange(&app, &client_id, Some("not-the-secret"), &code, verifier).await;
    assert_eq!((status, body["error"].as_str()), (401, Some("invalid_client")), "{body}");

    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (status, body) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!((status, body["scope"].as_str()), (200, Some("read")), "{body}");
    let (status, _) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 400, "a code is used once");

    // An expired code is refused.
    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    app.clock.advance(std::time::Duration::from_millis(murmur::apps::CODE_LIFETIME as u64 + 1));
    let (status, _) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 400);

    // The consent calls refuse a redirect URI the app did not register, and scopes beyond its own.
    let query = [("client_id", client_id.as_str()), ("redirect_uri", "https://evil.example/"), ("scope", "read")];
    let (status, _) =
        json(ada.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(status, 400);
    let query = [("client_id", client_id.as_str()), ("redirect_uri", REDIRECT), ("scope", "read push")];
    let (status, asked) =
        json(ada.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!((status, &asked["scopesBeyondApp"]), (200, &json!(["push"])), "named for the page to refuse");
    // U+0000 (which PostgreSQL refuses in a parameter) is nobody's client id.
    let query = [("client_id", "\u{0}"), ("scope", "read")];
    let (status, _) =
        json(ada.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(status, 400);
    let form = [("grant_type", "authorization_code"), ("code", "x"), ("client_id", "\u{0}")];
    let (status, _) =
        json(reqwest::Client::new().post(app.url("/oauth/token")).form(&form).send().await.unwrap()).await;
    assert_eq!(status, 401);
    // Without a session there is no consent.
    let (status, _) =
        json(app.client.get(app.url("/api/oauth/authorization")).query(&query).send().await.unwrap()).await;
    assert_eq!(status, 401);
    // Denied: the app hears access_denied.
    let answer = json!({"clientId": client_id, "redirectUri": REDIRECT, "scope": "read", "allow": false});
    let (status, result) =
        json(ada.client.post(app.url("/api/oauth/authorization")).json(&answer).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(result["redirectTo"].as_str().unwrap().contains("error=access_denied"), "{result}");
}

async fn scopes_are_enforced_and_errors_have_mastodons_shape(app: TestApp) {
    let ada = app.member("ada").await;
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let (status, body) = reader.post("/api/v1/statuses", json!({"status": "hi"})).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("This action is outside the authorized scopes")));
    let (status, _) = reader.get("/api/v1/timelines/home").await;
    assert_eq!(status, 200);

    let writer = AppClient::new(&app, &token_for(&app, &ada, "write:statuses read:statuses").await);
    let (status, body) = writer.post("/api/v1/statuses", json!({"status": "hi", "visibility": "private"})).await;
    assert_eq!(status, 422, "{body}");
    assert!(body["error"].as_str().unwrap().contains("public"));
    let (status, body) = writer.post("/api/v1/statuses", json!({"status": ""})).await;
    assert_eq!(status, 422, "{body}");
    let (status, _) = writer.get("/api/v1/notifications").await;
    assert_eq!(status, 403, "read:statuses is not read:notifications");

    let (status, body) = writer.get("/api/v1/no-such-thing").await;
    assert_eq!((status, body), (404, json!({"error": "Record not found"})));
    let (status, body) =
        json(reqwest::Client::new().get(app.url("/api/v1/timelines/home")).send().await.unwrap()).await;
    assert_eq!((status, body["error"].is_string()), (401, true));
    // The session cookie is no key to the Mastodon API.
    let (status, _) = json(ada.client.get(app.url("/api/v1/accounts/verify_credentials")).send().await.unwrap()).await;
    assert_eq!(status, 401);
    let (status, body) = json(
        reqwest::Client::new()
            .post(app.url("/api/v1/accounts"))
            .form(&[("username", "eve"), ("email", "eve@example.com")])
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403);
    assert!(body["error"].as_str().unwrap().contains("invite-only"), "{body}");
}

async fn a_second_members_token_cannot_touch_the_firsts_posts(app: TestApp) {
    let ada = app.member("ada").await;
    let eve = app.member("eve").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let eve_app = AppClient::new(&app, &token_for(&app, &eve, "read write").await);
    let (_, post) = ada_app.post("/api/v1/statuses", json!({"status": "mine"})).await;
    let id = post["id"].as_str().unwrap();
    let (status, _) = eve_app.delete(&format!("/api/v1/statuses/{id}")).await;
    assert_eq!(status, 403);
    let (status, _) = json(
        reqwest::Client::new()
            .put(app.url(&format!("/api/v1/statuses/{id}")))
            .bearer_auth(&eve_app.token)
            .json(&json!({"status": "yours now"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403);
    let (_, still) = ada_app.get(&format!("/api/v1/statuses/{id}")).await;
    assert_eq!(still["content"], "<p>mine</p>");
    // A block hides each from the other.
    let (status, _) = ada_app.post(&format!("/api/v1/accounts/{}/block", eve.id), json!({})).await;
    assert_eq!(status, 200);
    let (status, _) = eve_app.get(&format!("/api/v1/statuses/{id}")).await;
    assert_eq!(status, 404);
    let (status, body) = eve_app.post(&format!("/api/v1/statuses/{id}/favourite"), json!({})).await;
    assert_eq!(status, 403, "as in Murmur's own API: {body}");
    let (status, account) = eve_app.get(&format!("/api/v1/accounts/{}", ada.id)).await;
    assert_eq!((status, &account["statuses_count"]), (200, &json!(0)), "who it is, nothing more: {account}");
    // Ada deletes her post: Mastodon's delete-and-redraft gets its text back.
    let (status, deleted) = ada_app.delete(&format!("/api/v1/statuses/{id}")).await;
    assert_eq!((status, deleted["text"].as_str()), (200, Some("mine")));
    let (status, _) = ada_app.get(&format!("/api/v1/statuses/{id}")).await;
    assert_eq!(status, 404);
}

async fn tokens_end_with_revocation_logging_out_everywhere_and_suspension(app: TestApp) {
    let ada = app.member("ada").await;
    let (client_id, secret) = register_app(&app, "read write").await;
    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (_, body) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    let token = body["access_token"].as_str().unwrap().to_string();
    let ada_app = AppClient::new(&app, &token);
    assert_eq!(ada_app.get("/api/v1/accounts/verify_credentials").await.0, 200);
    // The token is stored hashed only.
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM app_tokens WHERE token_hash = $1")
        .bind(&token)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(stored, 0);

    // Revoked by the app.
    let revoke = [("client_id", client_id.as_str()), ("client_secret", secret.as_str()), ("token", token.as_str())];
    let response = reqwest::Client::new().post(app.url("/oauth/revoke")).form(&revoke).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(ada_app.get("/api/v1/accounts/verify_credentials").await.0, 401);

    // Listed in settings, and revoked there.
    let second = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let (_, listed) = json(ada.client.get(app.url("/api/apps")).send().await.unwrap()).await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["name"], "Test App");
    let eve = app.member("eve").await;
    let app_id = listed[0]["id"].as_i64().unwrap();
    let status = eve.client.delete(app.url(&format!("/api/apps/{app_id}"))).send().await.unwrap().status();
    assert_eq!(status.as_u16(), 404, "another member cannot revoke Ada's app");
    assert_eq!(second.get("/api/v1/accounts/verify_credentials").await.0, 200);
    let status = ada.client.delete(app.url(&format!("/api/apps/{app_id}"))).send().await.unwrap().status();
    assert_eq!(status.as_u16(), 204);
    assert_eq!(second.get("/api/v1/accounts/verify_credentials").await.0, 401);

    // Logging out everywhere ends the apps' tokens too.
    let third = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    let status = ada.client.post(app.url("/api/auth/logout-others")).send().await.unwrap().status();
    assert!(status.is_success());
    assert_eq!(third.get("/api/v1/accounts/verify_credentials").await.0, 401);

    // A suspension ends them.
    let fourth = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(eve.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let suspend = eve
        .client
        .post(app.url(&format!("/api/moderation/members/{}/suspend", ada.id)))
        .json(&json!({"reason": "Spam wave"}))
        .send()
        .await
        .unwrap();
    assert!(suspend.status().is_success(), "{}", suspend.status());
    assert_eq!(fourth.get("/api/v1/accounts/verify_credentials").await.0, 401);
}

async fn instance_and_cors_answer_apps(app: TestApp) {
    let (status, v2) = json(reqwest::Client::new().get(app.url("/api/v2/instance")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(v2["version"].as_str().unwrap().starts_with("4.3.0 (compatible; Murmur "));
    assert_eq!(v2["configuration"]["statuses"]["max_characters"], 500);
    assert_eq!(v2["configuration"]["polls"]["max_options"], 4);
    assert_eq!(v2["registrations"]["enabled"], false);
    assert_eq!(v2["api_versions"]["mastodon"], 2);
    assert!(v2["configuration"]["urls"]["streaming"].as_str().unwrap().starts_with("ws://"));
    let (_, nodeinfo) = json(reqwest::Client::new().get(app.url("/nodeinfo/2.0")).send().await.unwrap()).await;
    assert_eq!(nodeinfo["software"]["name"], "murmur");

    // A browser app on another origin: the preflight names Authorization, and no cookie is asked for.
    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, app.url("/api/v1/statuses"))
        .header("origin", "https://elk.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "authorization,content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    let headers = preflight.headers();
    assert_eq!(headers["access-control-allow-origin"], "*");
    assert!(headers["access-control-allow-headers"].to_str().unwrap().contains("authorization"));
    assert!(headers.get("access-control-allow-credentials").is_none());
    // Murmur's own API stays same-origin.
    let response = reqwest::Client::new()
        .get(app.url("/api/posts/feed"))
        .header("origin", "https://elk.example")
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("access-control-allow-origin").is_none());
}

async fn lists_search_and_reports(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let eve = app.member("eve").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write follow").await);
    let (_, post) = bob_app.post("/api/v1/statuses", json!({"status": "Sourdough starters #baking"})).await;
    let id = post["id"].as_str().unwrap();
    ada_app.post(&format!("/api/v1/statuses/{id}/favourite"), json!({})).await;
    ada_app.post(&format!("/api/v1/statuses/{id}/bookmark"), json!({})).await;
    let (_, favourites) = ada_app.get("/api/v1/favourites").await;
    assert_eq!(favourites[0]["id"], id);
    let (_, bookmarks) = ada_app.get("/api/v1/bookmarks").await;
    assert_eq!(bookmarks[0]["bookmarked"], true);
    let (_, nobody) = bob_app.get("/api/v1/bookmarks").await;
    assert_eq!(nobody, json!([]), "bookmarks are their member's alone");

    let (status, found) = ada_app.get("/api/v2/search?q=sourdough").await;
    assert_eq!(status, 200, "{found}");
    assert_eq!(found["statuses"][0]["id"], id);
    let (_, found) = ada_app.get("/api/v2/search?q=bo&type=accounts").await;
    assert_eq!(found["accounts"][0]["username"], "bob");
    assert_eq!(found["statuses"], json!([]));
    let (_, found) = ada_app.get("/api/v2/search?q=%23baking").await;
    assert_eq!(found["hashtags"][0]["name"], "baking");
    let (status, _) = ada_app.get("/api/v2/search?q=x&type=everything").await;
    assert_eq!(status, 422);

    ada_app.post(&format!("/api/v1/accounts/{}/mute", eve.id), json!({"duration": 3600})).await;
    let (_, mutes) = ada_app.get("/api/v1/mutes").await;
    assert_eq!(mutes[0]["username"], "eve");
    let (_, relationship) = ada_app.get(&format!("/api/v1/accounts/relationships?id[]={}", eve.id)).await;
    assert!(relationship[0]["muting_expires_at"].is_string(), "{relationship}");
    ada_app.post(&format!("/api/v1/accounts/{}/block", eve.id), json!({})).await;
    let (_, blocks) = ada_app.get("/api/v1/blocks").await;
    assert_eq!(blocks[0]["id"], eve.id.to_string());
    let (_, none) = bob_app.get("/api/v1/blocks").await;
    assert_eq!(none, json!([]));

    let (status, report) = ada_app
        .post(
            "/api/v1/reports",
            json!({"account_id": bob.id.to_string(), "status_ids": [id], "category": "spam", "comment": "ads"}),
        )
        .await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["category"], "spam");
    let reported: i64 = sqlx::query_scalar("SELECT post_id FROM reports WHERE reporter_id = $1")
        .bind(ada.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(reported.to_string(), id);
    let (status, _) = bob_app.post("/api/v1/reports", json!({"account_id": bob.id.to_string()})).await;
    assert_eq!(status, 422, "nobody reports themselves");

    let (_, likers) = bob_app.get(&format!("/api/v1/statuses/{id}/favourited_by")).await;
    assert_eq!(likers[0]["username"], "ada", "{likers}");
    let (_, reposters) = bob_app.get(&format!("/api/v1/statuses/{id}/reblogged_by")).await;
    assert_eq!(reposters, json!([]));

    // Markers: kept per member, a version counting their changes.
    let (status, set) =
        ada_app.form("/api/v1/markers", &[("home[last_read_id]", id), ("notifications[last_read_id]", "7")]).await;
    assert_eq!(status, 200, "{set}");
    assert_eq!((set["home"]["last_read_id"].as_str(), set["home"]["version"].as_i64()), (Some(id), Some(1)));
    let (_, set) = ada_app.post("/api/v1/markers", json!({"home": {"last_read_id": "1"}})).await;
    assert_eq!(set["home"]["version"], 2);
    let (_, read) = ada_app.get("/api/v1/markers?timeline[]=home&timeline[]=notifications").await;
    assert_eq!(
        (read["home"]["last_read_id"].as_str(), read["notifications"]["last_read_id"].as_str()),
        (Some("1"), Some("7"))
    );
    let (_, bobs) = bob_app.get("/api/v1/markers?timeline[]=home").await;
    assert_eq!(bobs, json!({}), "markers are their member's own");
    let (status, _) = ada_app.get("/api/v1/markers?timeline[]=public").await;
    assert_eq!(status, 422);

    let (status, trends) = ada_app.get("/api/v1/trends/tags").await;
    assert_eq!((status, trends.is_array()), (200, true));
    let (status, suggestions) = ada_app.get("/api/v2/suggestions").await;
    assert_eq!((status, suggestions.is_array()), (200, true));
    let (status, trends) = json(reqwest::Client::new().get(app.url("/api/v1/trends/tags")).send().await.unwrap()).await;
    assert_eq!(status, 401, "Murmur is closed: {trends}");
}

/// Opens `url`, a Mastodon stream over Server-Sent Events, as an app holding `token`.
pub async fn open_stream(url: &str, token: &str) -> crate::live::Events {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(reqwest::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    let client = reqwest::Client::builder().default_headers(headers).build().unwrap();
    crate::live::Events::open(&client, url, None).await
}

/// The next event of a Mastodon stream within `wait`: its name and payload.
pub async fn next_event(stream: &mut crate::live::Events, wait: std::time::Duration) -> Option<(String, Value)> {
    stream.next(wait).await.map(|(_, name, payload)| (name, payload))
}

async fn the_user_stream_carries_updates_and_notifications(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write follow").await);
    let eve = app.member("eve").await;
    let eve_app = AppClient::new(&app, &token_for(&app, &eve, "read write").await);
    ada_app.post(&format!("/api/v1/accounts/{}/follow", bob.id), json!({})).await;
    let (_, mine) = ada_app.post("/api/v1/statuses", json!({"status": "mine"})).await;

    let (status, health) =
        json(reqwest::Client::new().get(app.url("/api/v1/streaming/health")).send().await.unwrap()).await;
    assert_eq!((status, health), (200, json!("OK")));
    let mut stream = open_stream(&app.url("/api/v1/streaming/user"), &ada_app.token).await;
    let wait = std::time::Duration::from_secs(5);
    let (_, post) = bob_app.post("/api/v1/statuses", json!({"status": "live from Bob"})).await;
    let post_id = post["id"].as_str().unwrap();
    bob_app.post(&format!("/api/v1/statuses/{}/favourite", mine["id"].as_str().unwrap()), json!({})).await;
    let (name, update) = next_event(&mut stream, wait).await.expect("an update");
    assert_eq!((name.as_str(), &update["id"]), ("update", &post["id"]), "{update}");
    let (name, notification) = next_event(&mut stream, wait).await.expect("a notification");
    assert_eq!(name, "notification", "{notification}");
    assert_eq!(notification["type"], "favourite");
    assert_eq!(notification["account"]["username"], "bob");

    // A stranger's post, deleted, is nobody's business here: the next events are Bob's.
    let (_, strangers) = eve_app.post("/api/v1/statuses", json!({"status": "not followed"})).await;
    let (status, _) = eve_app.delete(&format!("/api/v1/statuses/{}", strangers["id"].as_str().unwrap())).await;
    assert_eq!(status, 200);
    // Bob edits his post, then deletes it: the edited status, then its id alone.
    let (status, _) = bob_app.put(&format!("/api/v1/statuses/{post_id}"), json!({"status": "live, edited"})).await;
    assert_eq!(status, 200);
    let (name, edited) = next_event(&mut stream, wait).await.expect("a status.update");
    assert_eq!((name.as_str(), &edited["id"]), ("status.update", &post["id"]), "{edited}");
    assert!(edited["content"].as_str().unwrap().contains("live, edited"), "{edited}");
    assert!(edited["edited_at"].is_string(), "{edited}");
    let (status, _) = bob_app.delete(&format!("/api/v1/statuses/{post_id}")).await;
    assert_eq!(status, 200);
    let (name, deleted) = next_event(&mut stream, wait).await.expect("a delete");
    assert_eq!((name.as_str(), deleted.to_string()), ("delete", post_id.to_string()));

    // The same over a WebSocket, the token as its subprotocol, as a browser app sends it.
    use futures::StreamExt;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request =
        format!("ws://{}/api/v1/streaming?stream=user:notification", app.addr).into_client_request().unwrap();
    request.headers_mut().insert("sec-websocket-protocol", ada_app.token.parse().unwrap());
    let (mut socket, answer) = tokio_tungstenite::connect_async(request).await.expect("the WebSocket opens");
    assert_eq!(answer.headers()["sec-websocket-protocol"], ada_app.token.as_str());
    let (_, reply) = bob_app.post("/api/v1/statuses", json!({"status": "a reply", "in_reply_to_id": mine["id"]})).await;
    let message =
        tokio::time::timeout(std::time::Duration::from_secs(5), socket.next()).await.unwrap().unwrap().unwrap();
    let message: Value = serde_json::from_str(message.to_text().unwrap()).unwrap();
    assert_eq!(
        (message["stream"].clone(), message["event"].clone()),
        (json!(["user:notification"]), json!("notification"))
    );
    let payload: Value = serde_json::from_str(message["payload"].as_str().unwrap()).unwrap();
    assert_eq!((payload["type"].as_str(), payload["status"]["id"].clone()), (Some("mention"), reply["id"].clone()));
    socket.close(None).await.unwrap();

    // No token, no stream.
    let (status, _) = json(reqwest::Client::new().get(app.url("/api/v1/streaming/user")).send().await.unwrap()).await;
    assert_eq!(status, 401);
}

async fn an_app_uploads_described_images_and_posts_them(app: TestApp) {
    let ada = app.member("ada").await;
    let eve = app.member("eve").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let eve_app = AppClient::new(&app, &token_for(&app, &eve, "read write").await);
    let form = reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(crate::fixtures::png(64, 48))
                .file_name("a.png")
                .mime_str("image/png")
                .unwrap(),
        )
        .text("description", "A grey square");
    let (status, media) = json(
        reqwest::Client::new()
            .post(app.url("/api/v2/media"))
            .bearer_auth(&ada_app.token)
            .multipart(form)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{media}");
    assert_eq!((media["type"].as_str(), media["description"].as_str()), (Some("image"), Some("A grey square")));
    assert_eq!(media["meta"]["original"]["width"], 64);
    let id = media["id"].as_str().unwrap().to_string();

    // Only its owner sees it, describes it, or posts it.
    assert_eq!(eve_app.get(&format!("/api/v1/media/{id}")).await.0, 404);
    let (status, _) = json(
        reqwest::Client::new()
            .put(app.url(&format!("/api/v1/media/{id}")))
            .bearer_auth(&eve_app.token)
            .json(&json!({"description": "mine now"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = eve_app.post("/api/v1/statuses", json!({"status": "stolen", "media_ids": [id]})).await;
    assert_eq!(status, 422);

    let (status, described) = json(
        reqwest::Client::new()
            .put(app.url(&format!("/api/v1/media/{id}")))
            .bearer_auth(&ada_app.token)
            .json(&json!({"description": "A grey square, 64 by 48"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!((status, described["description"].as_str()), (200, Some("A grey square, 64 by 48")));
    let (status, post) = ada_app.post("/api/v1/statuses", json!({"status": "a picture", "media_ids": [id]})).await;
    assert_eq!(status, 200, "{post}");
    let attachment = &post["media_attachments"][0];
    assert_eq!(
        (attachment["id"].as_str(), attachment["description"].as_str()),
        (Some(id.as_str()), Some("A grey square, 64 by 48"))
    );
    assert!(attachment["url"].as_str().unwrap().starts_with(&app.base));

    // Not an image: refused with the image checks' reason.
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(b"not an image".to_vec()).file_name("x.png"));
    let (status, refusal) = ada_app.multipart(reqwest::Method::POST, "/api/v1/media", form).await;
    assert!((400..500).contains(&status), "{status} {refusal}");
}

/// A post written from an app names the app, in both interfaces and to moderators; a post
/// written in Murmur's web app names none.
async fn a_post_names_the_app_it_was_written_from(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let (status, from_app) = ada_app.post("/api/v1/statuses", json!({"status": "from my phone"})).await;
    assert_eq!(status, 200, "{from_app}");
    assert_eq!(from_app["application"], json!({"name": "Test App", "website": "https://app.example"}));
    let id = from_app["id"].as_str().unwrap().to_string();

    // Murmur's own API, to another member: the same app.
    let (status, thread) =
        json(bob.client.get(app.url(&format!("/api/posts/{id}/thread"))).send().await.unwrap()).await;
    assert_eq!(status, 200, "{thread}");
    assert_eq!(thread["post"]["application"], json!({"name": "Test App", "website": "https://app.example"}));

    // A post of the web app names none, in either interface.
    let (status, web_post) =
        json(ada.client.post(app.url("/api/posts")).json(&json!({"content": "from the web"})).send().await.unwrap())
            .await;
    assert_eq!(status, 201, "{web_post}");
    assert_eq!(web_post["application"], Value::Null);
    let (_, as_status) = ada_app.get(&format!("/api/v1/statuses/{}", web_post["id"])).await;
    assert_eq!(as_status["application"], Value::Null);

    // Moderators see it on a reported post.
    let (status, _) = json(
        bob.client
            .post(app.url("/api/reports"))
            .json(&json!({"postId": id.parse::<i64>().unwrap(), "reason": "spam"}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201);
    sqlx::query("UPDATE users SET role = 'moderator' WHERE id = $1")
        .bind(bob.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let (status, queue) = json(bob.client.get(app.url("/api/moderation/reports")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{queue}");
    assert_eq!(queue[0]["post"]["application"]["name"], "Test App");
}

const UPDATE_CREDENTIALS: &str = "/api/v1/accounts/update_credentials";

/// `update_credentials` as apps send it: a multipart form with an avatar and a header (through
/// Murmur's image checks) and text fields, or a plain form.
async fn an_app_changes_the_profile_with_images(app: TestApp) {
    let ada = app.member("ada").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write").await);
    let image = |width, height| {
        reqwest::multipart::Part::bytes(crate::fixtures::png(width, height))
            .file_name("a.png")
            .mime_str("image/png")
            .unwrap()
    };
    let form = reqwest::multipart::Form::new()
        .text("display_name", "Ada L.")
        .text("note", "Counts things")
        .part("avatar", image(64, 64))
        .part("header", image(300, 100));
    let (status, account) = ada_app.multipart(reqwest::Method::PATCH, UPDATE_CREDENTIALS, form).await;
    assert_eq!(status, 200, "{account}");
    assert_eq!(
        (account["display_name"].as_str(), account["source"]["note"].as_str()),
        (Some("Ada L."), Some("Counts things"))
    );
    let avatar = account["avatar"].as_str().unwrap();
    let header = account["header"].as_str().unwrap();
    assert!(avatar.starts_with(&app.base) && header.starts_with(&app.base), "{account}");
    assert_ne!(avatar, header);
    // The images are served, and Murmur's own profile shows the same avatar.
    let served = reqwest::get(avatar).await.unwrap();
    assert_eq!(served.status(), 200);
    let (_, me) = json(ada.client.get(app.url("/api/auth/me")).send().await.unwrap()).await;
    assert!(avatar.ends_with(me["profileImageUrl"].as_str().unwrap()), "{me}");

    // Something that is not an image is refused with a 4xx, and the profile stays.
    let form = reqwest::multipart::Form::new()
        .part("avatar", reqwest::multipart::Part::bytes(b"not an image".to_vec()).file_name("x.png"));
    let (status, refusal) = ada_app.multipart(reqwest::Method::PATCH, UPDATE_CREDENTIALS, form).await;
    assert!((400..500).contains(&status), "{status} {refusal}");
    let (_, after) = ada_app.get("/api/v1/accounts/verify_credentials").await;
    assert_eq!(after["avatar"].as_str(), Some(avatar));

    // A refused name keeps the valid image that came with it out too: nothing half-written.
    let form = reqwest::multipart::Form::new().text("display_name", "x".repeat(200)).part("avatar", image(32, 32));
    let (status, refusal) = ada_app.multipart(reqwest::Method::PATCH, UPDATE_CREDENTIALS, form).await;
    assert_eq!(status, 422, "{refusal}");
    let (_, after) = ada_app.get("/api/v1/accounts/verify_credentials").await;
    assert_eq!((after["avatar"].as_str(), after["display_name"].as_str()), (Some(avatar), Some("Ada L.")));

    // A plain form changes the text only; a read token changes nothing.
    let (status, account) = ada_app.patch_form(UPDATE_CREDENTIALS, &[("display_name", "Ada")]).await;
    assert_eq!(
        (status, account["display_name"].as_str(), account["avatar"].as_str()),
        (200, Some("Ada"), Some(avatar))
    );
    let reader = AppClient::new(&app, &token_for(&app, &ada, "read").await);
    assert_eq!(reader.patch_form(UPDATE_CREDENTIALS, &[("display_name", "Mallory")]).await.0, 403);
}

/// Home pages are kept ready as Friends' are (crates/domain/src/feeds/cache.rs): what the member
/// does shows at once, what others do to posts on the page within the 5 s a page is kept, and
/// a kept page keeps its `Link` header.
async fn a_kept_home_page_shows_what_its_reader_does_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write follow").await);
    let (status, _) = ada_app.post(&format!("/api/v1/accounts/{}/follow", bob.id), json!({})).await;
    assert_eq!(status, 200);
    let (_, first) = bob_app.post("/api/v1/statuses", json!({"status": "hello"})).await;
    let first = first["id"].as_str().unwrap().to_string();
    let home = |client: &AppClient<'_>| {
        let request = reqwest::Client::new().get(app.url("/api/v1/timelines/home")).bearer_auth(client.token.clone());
        async move {
            let response = request.send().await.unwrap();
            let link = response.headers().get("link").map(|l| l.to_str().unwrap().to_string());
            let (status, body) = json(response).await;
            assert_eq!(status, 200, "{body}");
            (body.as_array().unwrap().clone(), link)
        }
    };
    let (page, link) = home(&ada_app).await;
    assert_eq!((page.len(), page[0]["favourited"].clone()), (1, json!(false)));
    assert_eq!(home(&ada_app).await, (page.clone(), link.clone()), "the kept page, its Link header with it");
    assert!(link.is_some_and(|link| link.contains(&format!("max_id={first}"))));
    // No list id names a kept page of another feed.
    let (_, friends) = crate::posts::get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(friends.as_array().map(Vec::len), Some(1));
    for list in [0, -1] {
        let (status, body) = crate::posts::get(&app, &ada, &format!("/api/lists/{list}/posts")).await;
        assert_eq!(status, 404, "{body}");
    }

    // Her own like shows at once; Bob's page is his own.
    let (status, _) = ada_app.post(&format!("/api/v1/statuses/{first}/favourite"), json!({})).await;
    assert_eq!(status, 200);
    let (page, _) = home(&ada_app).await;
    assert_eq!((page[0]["favourited"].clone(), page[0]["favourites_count"].clone()), (json!(true), json!(1)));
    let (bobs, _) = home(&bob_app).await;
    assert_eq!(bobs[0]["favourited"], false);

    // Another's like waits for the page's time; a new post makes it anew at once.
    let (status, _) = bob_app.post(&format!("/api/v1/statuses/{first}/favourite"), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(home(&ada_app).await.0[0]["favourites_count"], 1, "the kept page answers");
    // A post that reaches other members' timelines but not hers leaves her page kept.
    let carol = app.member("carol").await;
    crate::posts::write(&app, &carol, "elsewhere").await;
    assert_eq!(home(&ada_app).await.0[0]["favourites_count"], 1, "still the kept page");
    app.clock.advance(std::time::Duration::from_secs(5));
    assert_eq!(home(&ada_app).await.0[0]["favourites_count"], 2, "kept for 5 s at most");
    let (_, second) = bob_app.post("/api/v1/statuses", json!({"status": "news"})).await;
    let (page, _) = home(&ada_app).await;
    assert_eq!(page[0]["id"], second["id"]);
}

/// Tokens read together (`apps::TokenReads`): many apps' requests at once, with an app's own
/// token and revoked, unknown and over-long tokens among them, each answered as its own
/// member, as its app, or as nobody.
async fn requests_at_once_are_each_answered_for_their_own_token(app: TestApp) {
    let mut readers = Vec::new();
    for i in 0..8 {
        let member = app.member(&format!("reader{i}")).await;
        crate::posts::write(&app, &member, &format!("the post of reader{i}")).await;
        readers.push((member.username.clone(), token_for(&app, &member, "read").await));
    }
    let (client_id, secret) = register_app(&app, "read").await;
    let form = [("grant_type", "client_credentials"), ("client_id", &client_id), ("client_secret", &secret)];
    let (status, body) =
        json(reqwest::Client::new().post(app.url("/oauth/token")).form(&form).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    let app_only = body["access_token"].as_str().unwrap().to_string();
    let verifier = "a-verifier-of-enough-length-0123456789-abcdefghij";
    let code = consent(&app, &app.member("gone").await, &client_id, "read", verifier).await;
    let (_, body) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    let revoked = body["access_token"].as_str().unwrap().to_string();
    let revoke = [("client_id", client_id.as_str()), ("client_secret", secret.as_str()), ("token", revoked.as_str())];
    let response = reqwest::Client::new().post(app.url("/oauth/revoke")).form(&revoke).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert_eq!(AppClient::new(&app, &revoked).get("/api/v1/accounts/verify_credentials").await.0, 401);

    enum Who {
        Member(String),
        App,
        Nobody,
    }
    let ask = |token: &str, path: &str| reqwest::Client::new().get(app.url(path)).bearer_auth(token).send();
    let mut asks = Vec::new();
    for round in 0..6 {
        for (username, token) in &readers {
            // Both kinds of answer: the account alone, and the home page read with the marks.
            let path = if round % 2 == 0 { "/api/v1/accounts/verify_credentials" } else { "/api/v1/timelines/home" };
            asks.push((Who::Member(username.clone()), ask(token, path)));
        }
        asks.push((Who::App, ask(&app_only, "/api/v1/apps/verify_credentials")));
        for token in [revoked.clone(), "x".repeat(43), "y".repeat(101)] {
            asks.push((Who::Nobody, ask(&token, "/api/v1/accounts/verify_credentials")));
        }
    }
    let tasks: Vec<_> = asks.into_iter().map(|(who, ask)| (who, tokio::spawn(ask))).collect();
    for (who, task) in tasks {
        let (status, body) = json(task.await.unwrap().unwrap()).await;
        match who {
            Who::Nobody => assert_eq!(status, 401, "{body}"),
            Who::App => assert_eq!((status, body["name"].clone()), (200, json!("Test App")), "{body}"),
            Who::Member(username) => {
                assert_eq!(status, 200, "{body}");
                let answered = if body.is_array() { &body[0]["account"]["username"] } else { &body["username"] };
                assert_eq!(answered, username.as_str(), "{body}");
            }
        }
    }
}

/// Registers an app named `name` with `redirect_uris`: the answer's status and body.
async fn register_named(app: &TestApp, name: &str, redirect_uris: &str) -> (u16, Value) {
    let form = [("client_name", name), ("redirect_uris", redirect_uris), ("scopes", "read write")];
    json(reqwest::Client::new().post(app.url("/api/v1/apps")).form(&form).send().await.unwrap()).await
}

/// What the consent page is told of an authorization request.
async fn asked(app: &TestApp, member: &Member, query: &[(&str, &str)]) -> Value {
    let (status, asked) =
        json(member.client.get(app.url("/api/oauth/authorization")).query(query).send().await.unwrap()).await;
    assert_eq!(status, 200, "{asked}");
    asked
}

async fn an_app_cannot_pass_for_the_instance_and_the_consent_page_says_where_the_answer_goes(app: TestApp) {
    let ada = app.member("ada").await;
    for name in ["Murmur", "MURMUR team", "Adm1n", "Murmur Support"] {
        let (status, body) = register_named(&app, name, REDIRECT).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (422, Some("An app's name looks like the name of Murmur or of its staff")),
            "{name:?}"
        );
    }
    let (status, web) = register_named(&app, "Murmuring Reader", REDIRECT).await;
    assert_eq!(status, 200, "{web}");
    let asked_web =
        asked(&app, &ada, &[("client_id", web["client_id"].as_str().unwrap()), ("redirect_uri", REDIRECT)]).await;
    assert_eq!(
        (&asked_web["appName"], &asked_web["redirectHost"]),
        (&json!("Murmuring Reader"), &json!("app.example"))
    );

    let (_, copy) = register_named(&app, "Copy Reader", murmur::apps::OUT_OF_BAND).await;
    let asked_copy = asked(&app, &ada, &[("client_id", copy["client_id"].as_str().unwrap())]).await;
    assert_eq!(asked_copy["redirectHost"], Value::Null, "the code shows on the page: {asked_copy}");
}

async fn a_token_request_names_the_redirect_uri_its_authorization_request_named(app: TestApp) {
    let ada = app.member("ada").await;
    let (client_id, secret) = register_app(&app, "read").await;
    let verifier = "the-verifier-0123456789-0123456789-0123456789-abc";
    let exchange_without_uri = |code: String| {
        let form = [
            ("grant_type", "authorization_code".to_string()),
            ("code", code),
            ("client_id", client_id.clone()),
            ("client_secret", secret.clone()),
            ("code_verifier", verifier.to_string()),
        ];
        let request = reqwest::Client::new().post(app.url("/oauth/token")).form(&form);
        async move { json(request.send().await.unwrap()).await }
    };

    let code = consent(&app, &ada, &client_id, "read", verifier).await;
    let (status, body) = exchange_without_uri(code.clone()).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")), "{body}");
    let (status, _) = exchange(&app, &client_id, Some(&secret), &code, verifier).await;
    assert_eq!(status, 400, "a code refused once is gone");

    // An authorization request without one (the app's only URI) needs none at the exchange.
    let answer = json!({
        "clientId": client_id, "scope": "read", "codeChallenge": challenge(verifier),
        "codeChallengeMethod": "S256", "allow": true,
    });
    let (status, result) =
        json(ada.client.post(app.url("/api/oauth/authorization")).json(&answer).send().await.unwrap()).await;
    assert_eq!(status, 200, "{result}");
    let to = url::Url::parse(result["redirectTo"].as_str().unwrap()).unwrap();
    let code = to.query_pairs().find(|(key, _)| key == "code").unwrap().1.into_owned();
    let (status, body) = exchange_without_uri(code).await;
    assert_eq!((status, body["token_type"].as_str()), (200, Some("Bearer")), "{body}");
}

async fn apps_exploring_get_empty_featured_tags_and_searches_they_can_always_run(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let eve = app.member("eve").await;
    let ada_app = AppClient::new(&app, &token_for(&app, &ada, "read write follow").await);

    for whom in [bob.id, ada.id] {
        let (status, tags) = ada_app.get(&format!("/api/v1/accounts/{whom}/featured_tags")).await;
        assert_eq!((status, tags), (200, json!([])));
    }
    for unknown in ["999999", "abc"] {
        let (status, body) = ada_app.get(&format!("/api/v1/accounts/{unknown}/featured_tags")).await;
        assert_eq!((status, body["error"].as_str()), (404, Some("Record not found")), "{unknown}");
    }
    crate::common::suspend_in_database(&app, eve.id).await;
    let (status, _) = ada_app.get(&format!("/api/v1/accounts/{}/featured_tags", eve.id)).await;
    assert_eq!(status, 404, "hidden from Ada as Eve's profile is");

    // A query Murmur's syntax refuses is searched as plain words through the Mastodon API.
    let bob_app = AppClient::new(&app, &token_for(&app, &bob, "read write").await);
    let (_, post) = bob_app.post("/api/v1/statuses", json!({"status": "Greetings from the lighthouse"})).await;
    for q in ["from%3A", "from%3A%20lighthouse", "%23%20from"] {
        let (status, found) = ada_app.get(&format!("/api/v2/search?q={q}&type=statuses")).await;
        assert_eq!(status, 200, "{q}: {found}");
        assert_eq!(found["statuses"][0]["id"], post["id"], "{q}: {found}");
    }
    let (status, found) = ada_app.get("/api/v2/search?q=%23&type=statuses").await;
    assert_eq!((status, &found["statuses"]), (200, &json!([])), "nothing to search for finds nothing");
    // Murmur's own search still says what is wrong.
    let (status, body) = json(ada.client.get(app.url("/api/posts/search?q=from%3A")).send().await.unwrap()).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("from: needs a username, like from:ada")));
}

both_databases!(
    an_app_cannot_pass_for_the_instance_and_the_consent_page_says_where_the_answer_goes,
    a_token_request_names_the_redirect_uri_its_authorization_request_named,
    apps_exploring_get_empty_featured_tags_and_searches_they_can_always_run,
    a_kept_home_page_shows_what_its_reader_does_at_once,
    requests_at_once_are_each_answered_for_their_own_token,
    a_post_names_the_app_it_was_written_from,
    an_app_changes_the_profile_with_images,
    an_app_uploads_described_images_and_posts_them,
    the_user_stream_carries_updates_and_notifications,
    lists_search_and_reports,
    a_member_signs_in_an_app_and_posts_reads_and_is_notified,
    pages_follow_the_link_header,
    codes_are_single_use_bound_to_their_app_and_verifier,
    scopes_are_enforced_and_errors_have_mastodons_shape,
    a_second_members_token_cannot_touch_the_firsts_posts,
    tokens_end_with_revocation_logging_out_everywhere_and_suspension,
    instance_and_cors_answer_apps,
);
