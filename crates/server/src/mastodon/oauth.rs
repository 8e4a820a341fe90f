//! OAuth 2 as Mastodon apps expect it: registering an app, exchanging a member's consent (given
//! on Murmur's consent page, `routes::apps`) for a token, revoking it, and the server's metadata
//! (RFC 8414). The rules are `murmur_domain::apps`.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::Token;
use super::error::Result;
use super::params::Params;
use crate::client_ip::{ClientIp, peer};
use crate::state::AppState;
use murmur_core::error::Error;
use murmur_domain::apps::{self, Client, NewApp};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/apps", post(register))
        .route("/api/v1/apps/verify_credentials", get(verify_app))
        .route("/oauth/token", post(token))
        .route("/oauth/revoke", post(revoke))
        .route("/.well-known/oauth-authorization-server", get(metadata))
}

#[derive(Deserialize)]
struct Registration {
    client_name: String,
    /// One URI, several separated by new lines, or a list.
    redirect_uris: Value,
    scopes: Option<String>,
    website: Option<String>,
}

fn redirect_uris(value: &Value) -> Result<Vec<String>> {
    match value {
        Value::String(text) => {
            Ok(text.split('\n').map(str::trim).filter(|u| !u.is_empty()).map(str::to_string).collect())
        }
        Value::Array(items) => items
            .iter()
            .map(|item| item.as_str().map(str::to_string).ok_or(()))
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| Error::bad_request("redirect_uris must be URIs").into()),
        _ => Err(Error::bad_request("redirect_uris must be URIs").into()),
    }
}

async fn register(
    State(state): State<AppState>,
    parts: axum::http::request::Parts,
    Params(body): Params<Registration>,
) -> Result<Json<Value>> {
    let network = ClientIp::resolve(peer(&parts.extensions), &parts.headers, &state.config.trusted_proxies).limit_key();
    let new = NewApp {
        name: &body.client_name,
        website: body.website.as_deref(),
        redirect_uris: redirect_uris(&body.redirect_uris)?,
        scopes: body.scopes.as_deref(),
    };
    let registered = apps::register(&state.db, new, &network, state.clock.now()).await?;
    let app = &registered.app;
    Ok(Json(json!({
        "id": app.id.to_string(),
        "name": app.name,
        "website": app.website,
        "scopes": app.scopes.iter().collect::<Vec<_>>(),
        "redirect_uri": app.redirect_uris.join("\n"),
        "redirect_uris": app.redirect_uris,
        "client_id": app.client_id,
        "client_secret": registered.client_secret,
        "client_secret_expires_at": 0,
        "vapid_key": state.push.keys.public_key(),
    })))
}

async fn verify_app(State(state): State<AppState>, token: Token) -> Json<Value> {
    Json(json!({
        "name": token.0.app_name,
        "website": token.0.app_website,
        "scopes": token.0.scopes.iter().collect::<Vec<_>>(),
        "vapid_key": state.push.keys.public_key(),
    }))
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: Option<String>,
    code: Option<String>,
    redirect_uri: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
    code_verifier: Option<String>,
    scope: Option<String>,
}

/// A refusal of the token endpoints, as RFC 6749 §5.2 words it.
struct OAuthError(Error);

impl From<Error> for OAuthError {
    fn from(error: Error) -> Self {
        OAuthError(error)
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        let (status, error, description) = match &self.0 {
            Error::Unauthorized => {
                (StatusCode::UNAUTHORIZED, "invalid_client", "Client authentication failed".to_string())
            }
            Error::BadRequest(message) => match message.split_once(": ") {
                Some((
                    code @ ("invalid_grant" | "invalid_scope" | "unsupported_grant_type" | "invalid_request"),
                    rest,
                )) => (StatusCode::BAD_REQUEST, code, rest.to_string()),
                _ => (StatusCode::BAD_REQUEST, "invalid_request", message.clone()),
            },
            other => {
                return super::MastodonError(match other {
                    Error::TooManyRequests { message, retry_after_secs } => {
                        Error::TooManyRequests { message: message.clone(), retry_after_secs: *retry_after_secs }
                    }
                    _ => Error::Internal(anyhow::anyhow!(crate::error::public_message(other))),
                })
                .into_response();
            }
        };
        (status, Json(json!({ "error": error, "error_description": description }))).into_response()
    }
}

/// The client of a token request: HTTP Basic credentials, or `client_id` and `client_secret` in
/// the body.
fn client<'a>(
    basic: &'a Option<(String, String)>,
    body: &'a TokenRequest,
) -> std::result::Result<Client<'a>, OAuthError> {
    if let Some((id, secret)) = basic {
        return Ok(Client { id, secret: Some(secret) });
    }
    let id = body.client_id.as_deref().ok_or(OAuthError(Error::Unauthorized))?;
    Ok(Client { id, secret: body.client_secret.as_deref() })
}

fn basic_credentials(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let encoded = value.strip_prefix("Basic ").or_else(|| value.strip_prefix("basic "))?;
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let (id, secret) = std::str::from_utf8(&decoded).ok()?.split_once(':')?;
    let unescape = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8().ok().map(|s| s.into_owned());
    Some((unescape(id)?, unescape(secret)?))
}

async fn token(
    State(state): State<AppState>,
    headers: HeaderMap,
    Params(body): Params<TokenRequest>,
) -> std::result::Result<Json<Value>, Response> {
    let basic = basic_credentials(&headers);
    let client = client(&basic, &body).map_err(IntoResponse::into_response)?;
    let now = state.clock.now();
    let issued = match body.grant_type.as_deref() {
        Some("authorization_code") => {
            let code = body.code.as_deref().ok_or_else(|| missing("code"))?;
            apps::exchange_code(
                &state.db,
                client,
                code,
                body.redirect_uri.as_deref(),
                body.code_verifier.as_deref(),
                now,
            )
            .await
        }
        Some("client_credentials") => apps::app_token(&state.db, client, body.scope.as_deref(), now).await,
        Some(_) => Err(Error::bad_request("unsupported_grant_type: use authorization_code or client_credentials")),
        None => Err(Error::bad_request("invalid_request: grant_type is required")),
    }
    .map_err(|e| OAuthError(e).into_response())?;
    Ok(Json(json!({
        "access_token": issued.token,
        "token_type": "Bearer",
        "scope": issued.scopes.to_string(),
        "created_at": issued.created_at / 1000,
    })))
}

fn missing(field: &str) -> Response {
    OAuthError(Error::bad_request(format!("invalid_request: {field} is required"))).into_response()
}

#[derive(Deserialize)]
struct RevokeRequest {
    token: Option<String>,
    client_id: Option<String>,
    client_secret: Option<String>,
}

async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    Params(body): Params<RevokeRequest>,
) -> std::result::Result<Json<Value>, Response> {
    let basic = basic_credentials(&headers);
    let as_token_request = TokenRequest {
        grant_type: None,
        code: None,
        redirect_uri: None,
        client_id: body.client_id,
        client_secret: body.client_secret,
        code_verifier: None,
        scope: None,
    };
    let client = client(&basic, &as_token_request).map_err(IntoResponse::into_response)?;
    let token = body.token.as_deref().ok_or_else(|| missing("token"))?;
    apps::revoke(&state.db, client, token).await.map_err(|e| OAuthError(e).into_response())?;
    Ok(Json(json!({})))
}

async fn metadata(State(state): State<AppState>) -> Json<Value> {
    let base = state.config.public_origin();
    Json(json!({
        "issuer": format!("{base}/"),
        "service_documentation": format!("{base}/docs/mastodon-api"),
        "authorization_endpoint": format!("{base}/oauth/authorize"),
        "token_endpoint": format!("{base}/oauth/token"),
        "revocation_endpoint": format!("{base}/oauth/revoke"),
        "app_registration_endpoint": format!("{base}/api/v1/apps"),
        "scopes_supported": ["read", "write", "follow", "push", "profile"],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query", "fragment", "form_post"],
        "code_challenge_methods_supported": ["S256"],
        "grant_types_supported": ["authorization_code", "client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
    }))
}
