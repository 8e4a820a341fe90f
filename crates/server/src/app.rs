//! Application assembly: the router, its middleware, and the server's life cycle (the state
//! is in `state`, the background jobs in `jobs`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, NotForContentType, Predicate as _};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;

use crate::error::{ApiError, Error};
use crate::state::AppState;
use murmur_core::clock::Clock;
use murmur_core::config::Config;
use murmur_core::db::Db;
use murmur_domain::mail::Mailer;
use murmur_domain::media::MediaStore;

mod http1;
mod write_thread;
use write_thread::WriteThread;

/// JSON bodies are small; uploads have their own, larger limit on their own route.
pub const JSON_BODY_LIMIT: usize = 64 * 1024;

/// Answers once the connections the request held have committed: behind a pooler they commit
/// as they are given back, a moment later (`db::Pool`); without one at once. A 503 when one of
/// them could not commit, whatever the handler answered: its writes are not there.
async fn settle_commits(
    State(db): State<Db>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    match db.read.settling(next.run(request)).await {
        (response, true) => response,
        (_, false) => ApiError(Error::Unavailable(murmur_core::error::UNAVAILABLE.to_string())).into_response(),
    }
}

/// The API routes of every area, with their OpenAPI description.
pub fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(crate::openapi::base()).merge(crate::routes::api())
}

pub fn router(state: AppState) -> Router {
    // Each request is routed once, by the router of the thread that serves it: the write
    // thread's handlers read through the write requests' pool (`Db::for_writes`).
    // What a request changed is published once it answered (`live::publish_noted`), from the
    // thread that served it.
    let publishing = crate::live::Publishing { live: state.live.clone(), pushes: state.push.queue.clone() };
    let noting = || axum::middleware::from_fn_with_state(publishing.clone(), crate::live::publish_noted);
    // A read whose replica stopped answering under it is answered by the primary.
    let falling_back = axum::middleware::from_fn_with_state(state.clone(), crate::extract::fall_back_to_primary);
    // Behind a pooler, what a request wrote has committed before it is published or answered.
    let settling = || axum::middleware::from_fn_with_state(state.db.clone(), settle_commits);
    let reads = routes().layer(settling()).layer(noting()).layer(falling_back).with_state(state.clone());
    let for_writes = state.for_writes();
    // Each write request leaves its member's position for the replicas (`extract::MomentOld`).
    let remembering = axum::middleware::from_fn_with_state(for_writes.clone(), crate::extract::remember_positions);
    let writes =
        WriteThread::start(routes().layer(settling()).layer(noting()).layer(remembering).with_state(for_writes))
            .expect("a thread for writes can be started");
    let member_writes = state.db.member_writes.clone();
    let config = state.config.clone();
    let by_method = tower::service_fn(move |request: axum::extract::Request| {
        let (reads, writes, member_writes) = (reads.clone(), writes.clone(), member_writes.clone());
        async move {
            if crate::http::is_safe_method(request.method()) {
                tower::ServiceExt::oneshot(reads, request).await
            } else {
                // Counted until answered: background writes give way meanwhile (`db::member_writes`).
                let _in_progress = member_writes.started();
                Ok(writes.call(request).await)
            }
        }
    });
    Router::new()
        .fallback_service(by_method)
        .layer(axum::middleware::map_request(crate::mastodon::without_trailing_slash))
        .layer(axum::middleware::from_fn_with_state(crate::security::Guard::new(state), crate::security::guard))
        .layer(axum::middleware::from_fn(crate::request_id::in_error_bodies))
        // Not data archives: zipped already, and often large.
        .layer(
            CompressionLayer::new()
                .compress_when(DefaultPredicate::new().and(NotForContentType::const_new("application/zip"))),
        )
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, Duration::from_secs(60)))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(move |request: &axum::extract::Request| request_span(&config, request)),
        )
        .layer(axum::middleware::from_fn(crate::request_id::assign))
        .layer(axum::middleware::from_fn(crate::metrics::record_requests))
}

/// The span every log line of a request is in: method, path, request id and the client's address. The path
/// only, as a query can carry a login link's token; the address is worked out only when the
/// span is logged at all.
fn request_span(config: &Config, request: &axum::extract::Request) -> tracing::Span {
    let span = tracing::info_span!(
        "request",
        method = %request.method(),
        path = request.uri().path(),
        request_id = crate::request_id::of(request).and_then(|id| id.to_str().ok()).unwrap_or_default(),
        client = tracing::field::Empty,
    );
    if !span.is_disabled() {
        let peer = crate::client_ip::peer(request.extensions());
        let trusted = &config.trusted_proxies;
        let client = crate::client_ip::ClientIp::resolve(peer, request.headers(), trusted);
        span.record("client", tracing::field::display(client));
    }
    span
}

/// Every route of the product: the API with its OpenAPI document, images, health, and the web
/// app for every other path.
fn routes() -> Router<AppState> {
    let (api, openapi) = api_routes().split_for_parts();
    let openapi = Arc::new(crate::openapi::finish(openapi));
    let api = api
        .route(
            "/api/openapi.json",
            get(move || {
                let doc = openapi.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(DefaultBodyLimit::max(JSON_BODY_LIMIT));

    Router::new()
        .merge(api)
        .merge(crate::mastodon::router().layer(DefaultBodyLimit::max(JSON_BODY_LIMIT)))
        .merge(crate::routes::media::object_routes())
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/terms", get(crate::web::terms))
        .route("/privacy", get(crate::web::privacy))
        .fallback(crate::web::serve_app)
        .layer(axum::middleware::from_fn(crate::metrics::note_route))
}

async fn api_not_found() -> ApiError {
    ApiError(Error::not_found("Not found"))
}

/// The process is alive.
async fn healthz() -> impl IntoResponse {
    axum::Json(serde_json::json!({ "status": "ok" }))
}

/// The database answers: the instance can serve requests.
/// Ready while every dependency answers and the background workers go round: the database,
/// the object store, the mail server (when configured), the workers; each named in the answer.
async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let (database, object_store, mail) = tokio::join!(
        crate::health::database(&state.db),
        crate::health::object_store(&state.media),
        crate::health::mail(&state.mailer),
    );
    let workers = state.heartbeats.workers(crate::jobs::FAN_OUT_SWEEP, crate::jobs::UPKEEP_EVERY);
    let checks: Vec<_> = [Some(database), Some(object_store), mail, Some(workers)].into_iter().flatten().collect();
    let ready = checks.iter().all(|c| c.ok);
    let (status, word) =
        if ready { (StatusCode::OK, "ready") } else { (StatusCode::SERVICE_UNAVAILABLE, "unavailable") };
    let mut body = serde_json::json!({ "status": word, "checks": checks });
    if !state.db.replicas.is_empty() {
        body["replicas"] = crate::health::replicas(&state.db).into();
    }
    if let Some(problem) = checks.iter().find_map(|c| c.problem.clone()) {
        body["message"] = problem.into();
    }
    (status, axum::Json(body))
}

/// A built application: bound to its port, migrated, ready to run.
pub struct Application {
    listener: TcpListener,
    /// `/metrics`, when `--metrics-addr` asks for it.
    metrics: Option<TcpListener>,
    state: AppState,
}

impl Application {
    pub async fn build(config: Config) -> anyhow::Result<Application> {
        Self::build_listening(config, Clock::default(), None).await
    }

    /// Builds on a listener the caller bound, ignoring `config.addr`, with a given clock (tests
    /// move it). Tests bind port 0 and keep the socket until the app takes it: a port chosen,
    /// let go and bound again can be taken in between by any socket of the machine.
    pub async fn build_on(
        listener: std::net::TcpListener,
        config: Config,
        clock: Clock,
    ) -> anyhow::Result<Application> {
        Self::build_listening(config, clock, Some(listener)).await
    }

    async fn build_listening(
        mut config: Config,
        clock: Clock,
        bound: Option<std::net::TcpListener>,
    ) -> anyhow::Result<Application> {
        std::fs::create_dir_all(&config.data_dir)?;
        let db = Db::connect_with_options(
            &config.database_url,
            murmur_core::db::Checkpoints::Background,
            config.database.clone(),
        )
        .await?;
        db.migrate().await?;
        let mailer = Mailer::from_config(&config)?;
        let media = MediaStore::from_config(&config).await?;
        let listener = match bound {
            Some(listener) => {
                listener.set_nonblocking(true)?;
                TcpListener::from_std(listener)?
            }
            None => TcpListener::bind(config.addr).await?,
        };
        let metrics = match config.metrics_addr {
            Some(addr) => Some(crate::metrics::bind(addr).await?),
            None => None,
        };
        // Port 0 asks for any free port: the state then holds the one bound.
        if let Some(listener) = &metrics {
            config.metrics_addr = Some(listener.local_addr()?);
        }
        let feed_cache =
            murmur_domain::feeds::cache::FeedCache::new(config.feed_cache.bytes, config.feed_cache.keep_for);
        let credentials = crate::state::CredentialReads::together(&db.read);
        let keys = crate::push::PushKeys::load(&db, &config, clock.now()).await?;
        let push = crate::push::Push { keys: Arc::new(keys), queue: Default::default() };
        let outbound = crate::outbound::Outbound::new(config.outbound_allow.clone());
        let state = AppState {
            db,
            credentials,
            config: Arc::new(config),
            clock,
            mailer,
            media,
            fan_out: Default::default(),
            leaving: Default::default(),
            exports: Default::default(),
            for_you: Default::default(),
            feed_cache,
            heartbeats: Default::default(),
            live: Default::default(),
            push,
            link_cards: Default::default(),
            outbound,
        };
        Ok(Application { listener, metrics, state })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("bound listener has an address")
    }

    pub fn port(&self) -> u16 {
        self.local_addr().port()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` completes, then lets in-flight requests finish.
    pub async fn run_until(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let state = self.state.clone();
        let jobs = crate::jobs::start(&state);
        let metrics = self.metrics.map(|listener| crate::metrics::spawn(listener, state.clone()));
        let app = router(state.clone());
        // Open event streams never end by themselves: at shutdown each is told when to come
        // back (to another process) and closed, so in-flight requests can finish.
        let broker = state.live.broker.clone();
        let shutdown = async move {
            shutdown.await;
            broker.close_all();
        };
        http1::serve(self.listener, app, shutdown).await;
        jobs.stop();
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        state.db.close().await;
        Ok(())
    }
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
    tracing::info!("shutdown signal received; finishing in-flight requests");
}
