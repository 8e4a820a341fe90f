//! `/metrics`: scraped from its own address in the Prometheus text format, with what an
//! operator watches (requests by route, the database, jobs, mail, image checks, rate limits).

use std::time::Duration;

use serde_json::json;

use crate::accounts::request_login;
use crate::common::{TestApp, json};
use crate::fixtures::png;
use crate::media::{put_bytes, upload_url};
use crate::posts::post;

/// Metrics on any free port of the loopback address; the app's state holds the one bound.
pub fn on_a_free_port(c: &mut murmur::Config) {
    c.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
}

async fn scrape(addr: std::net::SocketAddr) -> String {
    let response = reqwest::get(format!("http://{addr}/metrics")).await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    response.text().await.unwrap()
}

/// The value of the sample whose line starts with `series` (name and labels as written).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|line| line.starts_with(series) && line[series.len()..].starts_with(' '))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

crate::both_databases_with!(an_operator_scrapes_what_the_instance_is_doing, crate::metrics::on_a_free_port);
async fn an_operator_scrapes_what_the_instance_is_doing(app: TestApp) {
    let metrics = app.state.config.metrics_addr.unwrap();
    let ada = app.member("ada").await;

    // A post read by its route's template, not by its id.
    let (status, body) = post(&app, &ada, "/api/posts", json!({ "content": "hello metrics" })).await;
    assert_eq!(status, 201, "{body}");
    let id = body["id"].as_i64().unwrap();
    let (status, _) = json(ada.client.get(app.url(&format!("/api/posts/{id}/thread"))).send().await.unwrap()).await;
    assert_eq!(status, 200);
    // An e-mail (to the outbox), then a login link too many for one address.
    for _ in 0..6 {
        request_login(&app, "ada@example.com").await;
    }
    // An image taken and a file refused.
    let url = upload_url(&app, &ada).await;
    assert_eq!(put_bytes(&ada, &url, b"not a picture".to_vec()).await.0, 400);
    assert_eq!(put_bytes(&ada, &url, png(4, 4)).await.0, 200);
    // The fan-out worker goes round now rather than at its next sweep.
    app.state.fan_out.wake();

    // A busy machine may take a while: waits past the worker's unwoken sweep too.
    let deadline = tokio::time::Instant::now() + 3 * murmur::jobs::FAN_OUT_SWEEP;
    let mut text = scrape(metrics).await;
    while !text.contains(r#"murmur_job_last_success_timestamp_seconds{job="fan-out"}"#)
        && tokio::time::Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(100)).await;
        text = scrape(metrics).await;
    }
    let at_least_one = |series: &str| {
        let value = sample(&text, series).unwrap_or_else(|| panic!("no {series} in\n{text}"));
        assert!(value >= 1.0, "{series} = {value}");
    };
    at_least_one(r#"murmur_http_requests_total{route="/api/posts/{id}/thread",method="GET",status="200"}"#);
    at_least_one(r#"murmur_http_requests_total{route="/api/posts",method="POST",status="201"}"#);
    at_least_one(r#"murmur_http_requests_total{route="/api/auth/request-login-link",method="POST",status="429"}"#);
    at_least_one(r#"murmur_http_request_duration_seconds_count{route="/api/posts/{id}/thread"}"#);
    at_least_one(r#"murmur_http_request_duration_seconds_bucket{route="/api/posts/{id}/thread",le="+Inf"}"#);
    at_least_one(r#"murmur_emails_total{outcome="sent"}"#);
    at_least_one(r#"murmur_image_checks_total{outcome="accepted"}"#);
    at_least_one(r#"murmur_image_checks_total{outcome="refused"}"#);
    at_least_one(r#"murmur_rate_limit_refusals_total{kind="link:email"}"#);
    at_least_one(r#"murmur_db_pool_max_connections{pool="read"}"#);
    at_least_one(r#"murmur_db_writer_wait_seconds_count"#);
    at_least_one(r#"murmur_sessions_open"#);
    at_least_one(r#"murmur_job_last_success_timestamp_seconds{job="fan-out"}"#);
    for series in [
        r#"murmur_db_pool_connections{pool="read",state="idle"}"#,
        r#"murmur_db_pool_connections{pool="read",state="in_use"}"#,
        "murmur_write_requests_in_flight",
        "murmur_fan_out_queue_posts",
        "murmur_fan_out_lag_seconds",
    ] {
        assert!(sample(&text, series).is_some(), "no {series} in\n{text}");
    }
    // No member, address or id in a label.
    assert!(!text.contains("ada@example.com") && !text.contains(r#""ada""#), "{text}");
    assert!(!text.contains(&format!("/api/posts/{id}/")), "{text}");
}

crate::both_databases_with!(metrics_are_not_served_on_the_public_address, crate::metrics::on_a_free_port);
async fn metrics_are_not_served_on_the_public_address(app: TestApp) {
    let response = app.client.get(app.url("/metrics")).send().await.unwrap();
    let body = response.text().await.unwrap();
    assert!(!body.contains("murmur_http_requests_total"), "{body}");
    // And the metrics address answers nothing but /metrics.
    let metrics = app.state.config.metrics_addr.unwrap();
    let other = reqwest::get(format!("http://{metrics}/api/posts/1")).await.unwrap();
    assert_eq!(other.status(), 404);
}

/// The label values of `label` in every series of `metric` in a scrape.
fn label_values(text: &str, metric: &str, label: &str) -> Vec<String> {
    let start = format!("{metric}{{");
    let key = format!("{label}=\"");
    text.lines()
        .filter_map(|line| line.strip_prefix(start.as_str()))
        .filter_map(|labels| labels.split(&key).nth(1))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_string)
        .collect()
}

crate::both_databases_with!(made_up_methods_and_paths_share_one_label_value, crate::metrics::on_a_free_port);
async fn made_up_methods_and_paths_share_one_label_value(app: TestApp) {
    let metrics = app.state.config.metrics_addr.unwrap();
    let ada = app.member("ada").await;
    for i in 0..50 {
        let method = reqwest::Method::from_bytes(format!("MADEUP{i}").as_bytes()).unwrap();
        ada.client.request(method, app.url("/api/posts")).send().await.unwrap();
        ada.client.get(app.url(&format!("/api/made-up-{i}"))).send().await.unwrap();
        ada.client.get(app.url(&format!("/made-up-page-{i}"))).send().await.unwrap();
    }

    let text = scrape(metrics).await;
    let methods = label_values(&text, "murmur_http_requests_total", "method");
    let known = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE", "other"];
    let unknown: Vec<&String> = methods.iter().filter(|m| !known.contains(&m.as_str())).collect();
    assert!(unknown.is_empty(), "methods named by the request: {unknown:?}");
    let made_up: f64 = text
        .lines()
        .filter(|line| line.starts_with("murmur_http_requests_total{") && line.contains(r#"method="other""#))
        .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert!(made_up >= 50.0, "the made-up methods count under one value: {made_up}\n{text}");
    // Paths no route knows fold into the API's catch-all and the web app's pages.
    for metric in ["murmur_http_requests_total", "murmur_http_request_duration_seconds_count"] {
        let routes = label_values(&text, metric, "route");
        assert!(routes.iter().all(|r| !r.contains("made-up")), "{metric}: {routes:?}");
        assert!(routes.iter().any(|r| r == "/api/{*rest}") && routes.iter().any(|r| r == "(web app)"), "{routes:?}");
    }
}
