//! The skeleton every area stands on: health, the web app fallback, the error shape, the
//! OpenAPI document, the cross-site guard and graceful shutdown.

use std::time::Duration;

use crate::both_databases;
use crate::common::{Backend, TestApp, json};

async fn healthz_and_readyz_answer_ok(app: TestApp) {
    let health = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let (status, body) = json(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ready");
    // Each dependency by name; no mail server is configured here, so none is checked.
    let names: Vec<&str> = body["checks"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["database", "objectStore", "workers"]);
    assert!(body["checks"].as_array().unwrap().iter().all(|c| c["ok"] == true), "{body}");
}

// The mail check does not depend on the database: SQLite is enough.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_fails_naming_a_mail_server_that_does_not_answer() {
    // A port nobody listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let app =
        TestApp::spawn_with(Backend::Sqlite, |config| config.smtp_url = Some(format!("smtp://127.0.0.1:{closed}")))
            .await
            .unwrap();
    let (status, body) = json(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
    assert_eq!(status, 503, "{body}");
    let mail = body["checks"].as_array().unwrap().iter().find(|c| c["name"] == "mail").expect("a mail check");
    assert_eq!(mail["ok"], false);
    assert!(mail["problem"].as_str().unwrap().starts_with("The mail server"), "{mail}");
    assert_eq!(body["message"], mail["problem"]);
}

async fn readyz_fails_when_the_database_is_gone(app: TestApp) {
    app.state.db.close().await;
    let (status, body) = json(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
    assert_eq!(status, 503);
    assert_eq!(body["status"], "unavailable");
}

async fn unknown_api_routes_answer_json_404(app: TestApp) {
    for path in ["/api/nope", "/api", "/api/posts/feed/extra/deep"] {
        let (status, body) = json(app.client.get(app.url(path)).send().await.unwrap()).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["message"], "Not found", "{path}");
    }
}

async fn every_answer_has_a_request_id_and_errors_carry_it_in_their_body(app: TestApp) {
    // A fresh id when none is sent; an error's body names the same id.
    let ada = app.member("ada").await;
    let response = ada.client.get(app.url("/api/posts/999999/thread")).send().await.unwrap();
    let id = response.headers()["x-request-id"].to_str().unwrap().to_string();
    assert_eq!(id.len(), 24);
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Post not found");
    assert_eq!(body["requestId"], id.as_str());
    // The caller's plain id is kept; an unsafe one is replaced.
    let response =
        app.client.get(app.url("/api/nope")).header("x-request-id", "support-ticket-42").send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "support-ticket-42");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["requestId"], "support-ticket-42");
    let response = app.client.get(app.url("/healthz")).header("x-request-id", "<script>").send().await.unwrap();
    let id = response.headers()["x-request-id"].to_str().unwrap();
    assert_ne!(id, "<script>");
    assert_eq!(id.len(), 24);
}

async fn other_paths_answer_the_web_app(app: TestApp) {
    for path in ["/", "/discover", "/profile/ada", "/some/unknown/page"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        let content_type = response.headers()["content-type"].to_str().unwrap().to_string();
        let status = response.status().as_u16();
        // 200 with index.html when the web app is built, 503 with a hint when it is not:
        // never the API's JSON 404.
        assert!(status == 200 || status == 503, "{path}: {status}");
        assert!(content_type.starts_with("text/"), "{path}: {content_type}");
        if status == 200 {
            let body = response.text().await.unwrap();
            assert!(body.contains("<div id=\"root\">"), "{path} should answer index.html");
        }
    }
}

async fn built_assets_are_cached_for_a_year_and_compressed(app: TestApp) {
    let index = app.client.get(app.url("/")).send().await.unwrap();
    if index.status() != 200 {
        eprintln!("skipped: the web app is not built (npm --prefix web run build)");
        return;
    }
    assert_eq!(index.headers()["cache-control"], "private, no-cache");
    let html = index.text().await.unwrap();
    let start = html.find("/assets/").expect("index.html links a built asset");
    let end = start + html[start..].find('"').unwrap();
    let asset = &html[start..end];
    let response = app.client.get(app.url(asset)).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(response.status(), 200, "{asset}");
    assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(response.headers()["content-encoding"], "gzip", "{asset} is compressed");
}

async fn malformed_json_is_a_400_with_a_message(app: TestApp) {
    let response = app
        .client
        .post(app.url("/api/waitlist"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    let (status, body) = json(response).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Malformed JSON"), "{body}");

    let wrong_type = app.client.post(app.url("/api/waitlist")).body("email=a@b.co").send().await.unwrap();
    let (status, body) = json(wrong_type).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("Content-Type: application/json"), "{body}");

    let missing_field = app.client.post(app.url("/api/waitlist")).json(&serde_json::json!({})).send().await.unwrap();
    let (status, body) = json(missing_field).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("missing field `email`"), "{body}");
}

async fn oversized_json_bodies_are_refused_with_413(app: TestApp) {
    let big = format!("{{\"email\": \"{}\"}}", "a".repeat(70 * 1024));
    let response = app
        .client
        .post(app.url("/api/waitlist"))
        .header("content-type", "application/json")
        .body(big)
        .send()
        .await
        .unwrap();
    let (status, body) = json(response).await;
    assert_eq!(status, 413);
    assert!(body["message"].is_string());
}

async fn the_openapi_document_is_served(app: TestApp) {
    let (status, doc) = json(app.client.get(app.url("/api/openapi.json")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    assert!(doc["paths"]["/api/waitlist"]["post"].is_object());
    assert!(doc["paths"]["/api/auth/me"]["get"].is_object());
    // The web's generated types name each operation by its id: two alike do not compile.
    let mut ids: Vec<&str> = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|item| item.as_object().unwrap().values())
        .filter_map(|operation| operation["operationId"].as_str())
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "two operations share an operationId (name one with `operation_id`)");

    // The web app's API types are generated from a committed copy of this document
    // (web/openapi.json → web/src/lib/api-schema.ts): the copy must be what the server serves.
    // MURMUR_UPDATE_OPENAPI=1 rewrites it; the web build then regenerates the types.
    let committed_path = concat!(env!("CARGO_MANIFEST_DIR"), "/web/openapi.json");
    if std::env::var_os("MURMUR_UPDATE_OPENAPI").is_some() {
        std::fs::write(committed_path, format!("{}\n", serde_json::to_string_pretty(&doc).unwrap())).unwrap();
    }
    let committed: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(committed_path).expect("web/openapi.json")).expect("JSON");
    assert!(
        committed == doc,
        "web/openapi.json is not the document the server serves: run `MURMUR_UPDATE_OPENAPI=1 cargo test --test api \
         the_openapi_document_is_served`, then `npm --prefix web run build`"
    );
}

async fn cross_site_state_changes_are_refused(app: TestApp) {
    let stranger = reqwest::Client::new();
    let body = serde_json::json!({ "email": "eve@example.com" });
    let cross = stranger
        .post(app.url("/api/waitlist"))
        .header("origin", "https://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, answer) = json(cross).await;
    assert_eq!(status, 403);
    assert_eq!(answer["message"], "Cross-site request refused");
    // Neither Origin nor Referer nor the custom header: refused as well.
    let bare = stranger.post(app.url("/api/waitlist")).json(&body).send().await.unwrap();
    assert_eq!(bare.status(), 403);
    // The custom header a cross-site form cannot send is accepted.
    let custom =
        stranger.post(app.url("/api/waitlist")).header("x-requested-with", "murmur").json(&body).send().await.unwrap();
    assert_eq!(custom.status(), 200);
    // Same origin is accepted.
    let same = app.client.post(app.url("/api/waitlist")).json(&body).send().await.unwrap();
    assert_eq!(same.status(), 200);
}

async fn a_request_naming_its_own_host_as_origin_is_still_cross_site(app: TestApp) {
    // The Host header is the sender's to choose; only the public URL counts.
    let answer = reqwest::Client::new()
        .post(app.url("/api/waitlist"))
        .header("host", "evil.example")
        .header("origin", "http://evil.example")
        .json(&serde_json::json!({ "email": "eve@example.com" }))
        .send()
        .await
        .unwrap();
    let (status, body) = json(answer).await;
    assert_eq!(status, 403);
    assert_eq!(body["message"], "Cross-site request refused");
}

async fn answers_carry_security_headers(app: TestApp) {
    let response = app.client.get(app.url("/")).send().await.unwrap();
    let headers = response.headers();
    let csp = headers["content-security-policy"].to_str().unwrap();
    for directive in ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"] {
        assert!(csp.contains(directive), "CSP lacks {directive}: {csp}");
    }
    assert!(!csp.contains("script-src 'self' 'unsafe-inline'"));
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(headers.contains_key("referrer-policy"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_instances_send_hsts_for_a_year() {
    let app = crate::common::TestApp::spawn_with(crate::common::Backend::Sqlite, |c| {
        c.public_url = "https://murmur.example".parse().unwrap();
    })
    .await
    .unwrap();
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    let hsts = response.headers()["strict-transport-security"].to_str().unwrap();
    assert!(hsts.contains("max-age=31536000"), "{hsts}");
    // Over plain http (the default public URL in the other tests) there is none.
    let plain = crate::common::TestApp::spawn(crate::common::Backend::Sqlite).await.unwrap();
    let response = plain.client.get(plain.url("/healthz")).send().await.unwrap();
    assert!(!response.headers().contains_key("strict-transport-security"));
}

async fn graceful_shutdown_completes_an_in_flight_request(mut app: TestApp) {
    // A request whose body arrives slowly is in flight when shutdown begins.
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let stream = tokio_stream_from(rx);
    let request = app
        .client
        .post(app.url("/api/waitlist"))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(stream))
        .send();
    let in_flight = tokio::spawn(request);
    tx.send(Ok(b"{\"email\": ".to_vec())).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    app.begin_shutdown();
    tokio::time::sleep(Duration::from_millis(300)).await;
    tx.send(Ok(b"\"late@example.com\"}".to_vec())).await.unwrap();
    drop(tx);
    let response = in_flight.await.unwrap().expect("the in-flight request is answered");
    assert_eq!(response.status(), 200);
    let server = app.take_server().unwrap();
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the server stops after finishing the request")
        .unwrap()
        .unwrap();
    // New connections are no longer accepted.
    assert!(reqwest::Client::new().get(app.url("/healthz")).send().await.is_err());
}

/// The settings each pool's connections get when opened (`db::sqlite_pool`, `db::postgres_pool`),
/// on every pool: the readers', the writer's and the write requests'.
async fn every_connection_gets_its_settings(app: TestApp) {
    let db = &app.state.db;
    for pool in [&db.read, &db.write, &db.for_writes().read, &db.for_writes().write] {
        match app.backend {
            Backend::Sqlite => {
                let on: i64 = sqlx::query_scalar("PRAGMA foreign_keys").fetch_one(pool).await.unwrap();
                assert_eq!(on, 1, "foreign keys are checked");
            }
            Backend::Postgres => {
                let mode: String = sqlx::query_scalar("SHOW plan_cache_mode").fetch_one(pool).await.unwrap();
                assert_eq!(mode, "force_generic_plan", "a statement is planned once per connection");
            }
        }
    }
}

fn tokio_stream_from(
    mut rx: tokio::sync::mpsc::Receiver<Result<Vec<u8>, std::io::Error>>,
) -> impl futures::Stream<Item = Result<Vec<u8>, std::io::Error>> {
    futures::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

both_databases!(
    healthz_and_readyz_answer_ok,
    readyz_fails_when_the_database_is_gone,
    unknown_api_routes_answer_json_404,
    every_answer_has_a_request_id_and_errors_carry_it_in_their_body,
    other_paths_answer_the_web_app,
    built_assets_are_cached_for_a_year_and_compressed,
    malformed_json_is_a_400_with_a_message,
    oversized_json_bodies_are_refused_with_413,
    the_openapi_document_is_served,
    cross_site_state_changes_are_refused,
    a_request_naming_its_own_host_as_origin_is_still_cross_site,
    answers_carry_security_headers,
    graceful_shutdown_completes_an_in_flight_request,
    every_connection_gets_its_settings,
);
