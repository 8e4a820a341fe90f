//! Who is calling: the holder of the bearer token (`Authorization: Bearer …`, or the
//! `access_token` parameter streaming clients use). The session cookie is never read here.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};

use super::error::{MastodonError, Result};
use crate::state::AppState;
use murmur_core::error::Error;
use murmur_domain::apps::{self, Holder};

/// A request with a live token (the app's own or a member's).
#[derive(Clone, Debug)]
pub struct Token(pub Holder);

impl Token {
    /// The member the token acts for, if its scopes allow `scope`: 403 when they do not, 422
    /// for an app's own token (as Mastodon answers both).
    pub fn member(&self, scope: &str) -> Result<i64> {
        self.allow(scope)?;
        self.0.member.ok_or_else(|| MastodonError::unprocessable("This method requires an authenticated user"))
    }

    /// The member the token acts for, whatever its scopes (for lists that are always empty).
    pub fn any_member(&self) -> Result<i64> {
        self.0.member.ok_or_else(|| MastodonError::unprocessable("This method requires an authenticated user"))
    }

    /// Refuses (403) unless the token's scopes allow `scope`.
    pub fn allow(&self, scope: &str) -> Result<()> {
        if self.0.scopes.allow(scope) {
            Ok(())
        } else {
            Err(MastodonError::forbidden("This action is outside the authorized scopes"))
        }
    }
}

/// The token a request carries, as sent: the `Authorization` header, the `access_token`
/// parameter, or (a browser's WebSocket cannot set headers) the WebSocket subprotocol.
pub fn bearer_of(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    if let Some(value) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        let (scheme, token) = value.split_once(' ')?;
        return scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string());
    }
    let from_query = query.and_then(|query| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == "access_token")
            .map(|(_, v)| v.into_owned())
    });
    from_query.or_else(|| headers.get(header::SEC_WEBSOCKET_PROTOCOL)?.to_str().ok().map(|v| v.trim().to_string()))
}

impl FromRequestParts<AppState> for Token {
    type Rejection = MastodonError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self> {
        if let Some(token) = parts.extensions.get::<Token>() {
            return Ok(token.clone());
        }
        let secret = bearer_of(&parts.headers, parts.uri.query()).ok_or(MastodonError(Error::Unauthorized))?;
        let holder = apps::holder(&state.credentials.tokens, &state.db.write, &secret, state.clock.now())
            .await?
            .ok_or(MastodonError(Error::Unauthorized))?;
        if let Some(member) = holder.member {
            crate::extract::Writer::note(parts, member);
        }
        let token = Token(holder);
        parts.extensions.insert(token.clone());
        Ok(token)
    }
}
