//! Prometheus metrics on a listen address of their own (`--metrics-addr`), never on the public
//! one: an operator's view of requests, the database, the background jobs, mail, image checks
//! and rate limits.
//!
//! The `metrics` macros are used where things happen (counters, histograms); what is a state
//! rather than an event (pool sizes, queue depths, open sessions) is read from the database and
//! the pools when Prometheus scrapes. Without `--metrics-addr` no recorder is installed and every
//! macro is a no-op, so an instance that does not ask for metrics pays nothing for them.

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics::{counter, gauge, histogram};

/// The replicas' labels, by index: a bounded set (`replicas::MOST_REPLICAS`).
const REPLICA_LABELS: [&str; murmur_core::db::replicas::MOST_REPLICAS] = ["0", "1", "2", "3", "4", "5", "6", "7"];
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;

use crate::state::AppState;

/// The process's recorder: metrics are process-wide, like the Prometheus registry they feed.
static RECORDER: OnceLock<PrometheusHandle> = OnceLock::new();

/// Latency buckets, in seconds, of every histogram: most answers take a few milliseconds, an
/// upload seconds.
const LATENCY_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// How often recorded histogram samples are folded into their buckets between scrapes, so
/// they take constant memory however rarely Prometheus comes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Installs the process's recorder once (later calls answer the same one).
pub fn install() -> anyhow::Result<PrometheusHandle> {
    if let Some(handle) = RECORDER.get() {
        return Ok(handle.clone());
    }
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)?
        .install_recorder()?;
    murmur_core::metrics::describe();
    Ok(RECORDER.get_or_init(|| handle).clone())
}

fn is_on() -> bool {
    RECORDER.get().is_some()
}

/// A listener for `/metrics`, bound at start-up so a taken port fails the start.
pub async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    install()?;
    Ok(TcpListener::bind(addr).await?)
}

/// Serves `/metrics` on `listener` (and keeps histograms folded) until the task is aborted.
pub fn spawn(listener: TcpListener, state: AppState) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let upkeep = tokio::spawn(async {
            loop {
                tokio::time::sleep(UPKEEP_EVERY).await;
                if let Some(handle) = RECORDER.get() {
                    handle.run_upkeep();
                }
            }
        });
        let app = axum::Router::new().route("/metrics", axum::routing::get(scrape)).with_state(state);
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "the metrics listener stopped");
        }
        upkeep.abort();
    })
}

/// The Prometheus text format: the states read now, then everything recorded.
async fn scrape(State(state): State<AppState>) -> Response {
    let Some(handle) = RECORDER.get() else {
        return axum::http::StatusCode::NOT_FOUND.into_response();
    };
    if let Err(e) = record_states(&state).await {
        tracing::warn!(error = %e, "reading the database's figures for /metrics failed");
    }
    ([(axum::http::header::CONTENT_TYPE, "text/plain; version=0.0.4")], handle.render()).into_response()
}

async fn record_states(state: &AppState) -> anyhow::Result<()> {
    for (pool, size, idle, max) in state.db.pool_figures() {
        gauge!("murmur_db_pool_connections", "pool" => pool, "state" => "idle").set(idle as f64);
        gauge!("murmur_db_pool_connections", "pool" => pool, "state" => "in_use")
            .set((size as usize).saturating_sub(idle) as f64);
        gauge!("murmur_db_pool_max_connections", "pool" => pool).set(max as f64);
    }
    for (index, replica) in state.db.replicas.states().into_iter().enumerate() {
        // The index in `--database-replica-url`, never the URL: it may hold a password.
        let Some(&label) = REPLICA_LABELS.get(index) else { break };
        gauge!("murmur_db_replica_in_use", "replica" => label).set(if replica.in_use { 1.0 } else { 0.0 });
        gauge!("murmur_db_replica_lag_seconds", "replica" => label).set(replica.lag.as_secs_f64());
    }
    gauge!("murmur_write_requests_in_flight").set(state.db.member_writes.in_flight() as f64);
    let now = state.clock.now();
    let (queued, oldest): (i64, Option<i64>) =
        sqlx::query_as("SELECT COUNT(*), MIN(p.created_at) FROM timeline_fanouts f JOIN posts p ON p.id = f.post_id")
            .fetch_one(&state.db.read)
            .await?;
    gauge!("murmur_fan_out_queue_posts").set(queued as f64);
    let lag_ms = oldest.map_or(0, |created| (now - created).max(0));
    gauge!("murmur_fan_out_lag_seconds").set(lag_ms as f64 / 1000.0);
    let sessions: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE expires_at > $1")
        .bind(now)
        .fetch_one(&state.db.read)
        .await?;
    gauge!("murmur_sessions_open").set(sessions as f64);
    Ok(())
}

/// The route a request was routed to, as its template (`/api/posts/{id}`), carried out of the
/// inner router in the answer's extensions for `record_requests`.
#[derive(Clone)]
struct RouteTemplate(String);

/// Inside the router: notes the matched route's template on the answer.
pub async fn note_route(request: Request, next: Next) -> Response {
    if !is_on() {
        return next.run(request).await;
    }
    let template = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_string());
    let mut response = next.run(request).await;
    // The web app's fallback has no template: every page path counts as one route.
    let template = template.unwrap_or_else(|| "(web app)".to_string());
    response.extensions_mut().insert(RouteTemplate(template));
    response
}

/// Around everything: counts each answer and its time by route template and status, including
/// the answers of the outer layers (the cross-site guard, the time-out).
pub async fn record_requests(request: Request, next: Next) -> Response {
    if !is_on() {
        return next.run(request).await;
    }
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let route = response
        .extensions()
        .get::<RouteTemplate>()
        .map_or_else(|| "(refused before routing)".to_string(), |r| r.0.clone());
    let status = response.status().as_u16().to_string();
    histogram!("murmur_http_request_duration_seconds", "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    counter!("murmur_http_requests_total", "route" => route, "method" => method, "status" => status).increment(1);
    response
}

/// A request method as its label: the methods of HTTP itself by name, any other `other`. A
/// client may send any token as a method, and each label value is a series kept for the life of
/// the process, so a label never takes a value from the request.
fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    const KNOWN: [(Method, &str); 9] = [
        (Method::GET, "GET"),
        (Method::HEAD, "HEAD"),
        (Method::POST, "POST"),
        (Method::PUT, "PUT"),
        (Method::PATCH, "PATCH"),
        (Method::DELETE, "DELETE"),
        (Method::OPTIONS, "OPTIONS"),
        (Method::CONNECT, "CONNECT"),
        (Method::TRACE, "TRACE"),
    ];
    KNOWN.iter().find(|(known, _)| known == method).map_or("other", |(_, label)| label)
}
