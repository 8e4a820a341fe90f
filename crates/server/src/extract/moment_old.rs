//! Where a read that may be a moment old goes: to a replica that has replayed past the reader's
//! last write, else to the primary (`Db::a_moment_old`, docs/scaling.md). The handlers of For
//! You, profiles and their tabs, threads, search, tag pages, Trending and suggestions take
//! `MomentOld`; every other read, and everything a write request does, uses the primary.

use std::sync::{Arc, OnceLock};

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;

use super::CurrentUser;
use crate::error::{ApiError, Error, Result};
use crate::state::AppState;
use murmur_core::db::replicas;

/// The state for a request whose reads may be a moment old: its `db` reads from a replica
/// when one has replayed far enough (`Db::a_moment_old`); its writes go to the primary.
pub struct MomentOld(pub AppState);

impl FromRequestParts<AppState> for MomentOld {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        let Some(replica_read) = parts.extensions.get::<ReplicaRead>().cloned() else {
            return Ok(MomentOld(state.clone()));
        };
        let position = match CurrentUser::from_request_parts(parts, state).await {
            Ok(user) => replicas::position_of(&state.db.write, user.id).await.map_err(murmur_core::Error::from)?,
            Err(ApiError(Error::Unauthorized)) => None,
            Err(other) => return Err(other),
        };
        let (db, replica) = state.db.a_moment_old(position);
        if let Some(index) = replica {
            let _ = replica_read.0.set(index);
        }
        Ok(MomentOld(AppState { db, ..state.clone() }))
    }
}

/// Which replica a read was sent to, told by `MomentOld` to `fall_back_to_primary`; absent
/// (the read goes to the primary) without replicas, and when the primary must answer.
#[derive(Clone, Default)]
struct ReplicaRead(Arc<OnceLock<usize>>);

/// With replicas set: a read whose replica stopped answering under it (a 503) is answered again
/// by the primary, and the replica set aside until a poll finds it answering (`replicas`).
/// Only reads (GET, HEAD) are, as they may be run twice.
pub async fn fall_back_to_primary(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if state.db.replicas.is_empty() || !crate::http::is_safe_method(request.method()) {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let again = parts.clone();
    let replica_read = ReplicaRead::default();
    parts.extensions.insert(replica_read.clone());
    let response = next.clone().run(Request::from_parts(parts, body)).await;
    match replica_read.0.get() {
        Some(&index) if response.status().is_server_error() => {
            if response.status() == axum::http::StatusCode::SERVICE_UNAVAILABLE {
                state.db.replicas.set_aside(index);
            }
            tracing::warn!(replica = index, status = %response.status(), "a replica's read failed; the primary answers");
            murmur_core::metrics::moment_old_read("primary");
            next.run(Request::from_parts(again, axum::body::Body::empty())).await
        }
        _ => response,
    }
}

/// The member a write request acts for, told by the extractor that found them (`CurrentUser`,
/// the Mastodon API's token) to `remember_positions`.
#[derive(Clone, Default)]
pub struct Writer(Arc<OnceLock<i64>>);

impl Writer {
    /// Notes the member a request acts for, when it is a write request with replicas set.
    pub fn note(parts: &Parts, member: i64) {
        if let Some(writer) = parts.extensions.get::<Writer>() {
            let _ = writer.0.set(member);
        }
    }
}

/// After a write request of a member, with replicas set: keeps the member's position, so their
/// next reads wait for a replica that has replayed their write (`replicas::remember`).
pub async fn remember_positions(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    if state.db.replicas.is_empty() {
        return next.run(request).await;
    }
    let writer = Writer::default();
    request.extensions_mut().insert(writer.clone());
    let response = next.run(request).await;
    if let Some(&member) = writer.0.get()
        && let Err(error) = replicas::remember(&state.db.write, member).await
    {
        // The member's next reads may then come from a replica a moment behind their write.
        tracing::warn!(%error, "could not keep a member's position for the replicas");
    }
    response
}
