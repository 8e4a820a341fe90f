//! Apps: programs that act for a member through the Mastodon client API (`murmur_server`'s
//! `mastodon`). An app registers (a client id and secret), a member consents through OAuth 2's
//! authorization-code flow (a single-use code bound to the app, the redirect URI and, with PKCE,
//! a verifier), and the app holds a bearer token with the scopes consented to. Secrets, codes
//! and tokens come from the OS CSPRNG and are stored as their SHA-256 only. A member's tokens
//! end with their sessions (`end_all_of`: logging out everywhere, a suspension, leaving).

pub mod markers;
pub mod scopes;

use base64::Engine;
use sha2::{Digest, Sha256};
use sqlx::AnyConnection;
use std::sync::LazyLock;

use murmur_core::clock::{MINUTE, Millis};
use murmur_core::db::batched::{self, BatchedReads, KeyedRead};
use murmur_core::db::{Db, Pool};
use murmur_core::error::{Error, Result};
use murmur_core::rate_limit::{self, Limit};
use murmur_core::secrets::{hash_token, random_token};
use murmur_core::text::Kind;

use crate::timelines::marks::FeedMarks;
pub use scopes::Scopes;

/// The redirect URI of apps that show the code to the member to copy (no browser redirect).
pub const OUT_OF_BAND: &str = "urn:ietf:wg:oauth:2.0:oob";
/// How long a member's consent waits to be exchanged for a token.
pub const CODE_LIFETIME: Millis = 10 * MINUTE;
/// A token's last use is written at most this often.
const TOUCH_EVERY: Millis = 5 * MINUTE;
/// Registrations from one network: enough for a person trying several apps.
const REGISTRATIONS: Limit = Limit { max: 20, window: murmur_core::clock::HOUR };
const MAX_NAME: usize = 100;
const MAX_URI: usize = 500;
const MAX_REDIRECT_URIS: usize = 5;

/// An app as registered.
#[derive(Clone, Debug)]
pub struct App {
    pub id: i64,
    pub client_id: String,
    pub name: String,
    pub website: Option<String>,
    pub redirect_uris: Vec<String>,
    pub scopes: Scopes,
}

/// What registering an app answers, once: the only time its secret is seen.
#[derive(Debug)]
pub struct Registered {
    pub app: App,
    pub client_secret: String,
}

/// An app's registration as asked for.
pub struct NewApp<'a> {
    pub name: &'a str,
    pub website: Option<&'a str>,
    pub redirect_uris: Vec<String>,
    pub scopes: Option<&'a str>,
}

/// Registers an app (anyone may: an app is nothing until a member consents). `network` keys
/// the rate limit.
pub async fn register(db: &Db, new: NewApp<'_>, network: &str, now: Millis) -> Result<Registered> {
    let name = murmur_core::text::normalize(Kind::AppName, new.name.trim())?;
    if name.is_empty() || name.chars().count() > MAX_NAME {
        return Err(Error::bad_request("client_name must be 1 to 100 characters"));
    }
    // Members read the name on the consent page: it must not pass for the instance's own.
    murmur_core::text::refuse_reserved_name(Kind::AppName, &name)?;
    let website = match new.website.map(str::trim).filter(|w| !w.is_empty()) {
        Some(website) => {
            Some(web_url(website).ok_or_else(|| Error::bad_request("website must be an http or https URL"))?)
        }
        None => None,
    };
    if new.redirect_uris.is_empty() || new.redirect_uris.len() > MAX_REDIRECT_URIS {
        return Err(Error::bad_request("redirect_uris must name 1 to 5 URIs"));
    }
    for uri in &new.redirect_uris {
        check_redirect_uri(uri)?;
    }
    let scopes = Scopes::parse(new.scopes)?;
    rate_limit::hit(db, &format!("apps:{network}"), REGISTRATIONS, now, "Too many apps registered; try again later")
        .await?;
    let client_id = random_token();
    let client_secret = random_token();
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO apps (client_id, secret_hash, name, website, redirect_uris, scopes, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(&client_id)
    .bind(hash_token(&client_secret))
    .bind(&name)
    .bind(&website)
    .bind(new.redirect_uris.join("\n"))
    .bind(scopes.to_string())
    .bind(now)
    .fetch_one(&db.write)
    .await?;
    let app = App { id, client_id, name, website, redirect_uris: new.redirect_uris, scopes };
    Ok(Registered { app, client_secret })
}

/// An absolute http(s) URL without credentials, as given.
fn web_url(text: &str) -> Option<String> {
    if text.chars().any(char::is_control) {
        return None;
    }
    let url = url::Url::parse(text).ok()?;
    let fine = matches!(url.scheme(), "http" | "https") && url.username().is_empty() && url.password().is_none();
    (fine && text.len() <= MAX_URI).then(|| text.to_string())
}

/// A redirect URI is the out-of-band one or an absolute URL without a fragment or credentials:
/// an app's own scheme (`ivory://…`) or http(s). `javascript:` and `data:` are refused: the
/// consent page sends the member's browser there.
fn check_redirect_uri(uri: &str) -> Result<()> {
    if uri == OUT_OF_BAND {
        return Ok(());
    }
    let refused =
        || Error::bad_request("redirect_uris must be absolute URIs without a fragment, or urn:ietf:wg:oauth:2.0:oob");
    if uri.len() > MAX_URI || uri.chars().any(char::is_control) {
        return Err(refused());
    }
    let url = url::Url::parse(uri).map_err(|_| refused())?;
    let dangerous = matches!(url.scheme(), "javascript" | "data" | "vbscript" | "file" | "blob");
    if dangerous || url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return Err(refused());
    }
    Ok(())
}

type AppRow = (i64, String, String, Option<String>, String, String);

fn app_of((id, client_id, name, website, redirect_uris, scopes): AppRow) -> Result<App> {
    Ok(App {
        id,
        client_id,
        name,
        website,
        redirect_uris: redirect_uris.lines().map(str::to_string).collect(),
        scopes: Scopes::parse(Some(&scopes))?,
    })
}

/// Whether `text` can be one of our ids or secrets at all (ours are 43 base64url characters;
/// anything else, U+0000 included, which PostgreSQL refuses in a parameter, is nobody's).
fn plausible(text: &str) -> bool {
    text.len() <= 100 && !text.chars().any(char::is_control)
}

/// The app with this client id.
pub async fn find(read: &Pool, client_id: &str) -> Result<Option<App>> {
    if !plausible(client_id) {
        return Ok(None);
    }
    let row: Option<AppRow> =
        sqlx::query_as("SELECT id, client_id, name, website, redirect_uris, scopes FROM apps WHERE client_id = $1")
            .bind(client_id)
            .fetch_optional(read)
            .await?;
    row.map(app_of).transpose()
}

/// The app with this client id, if `secret` is its secret.
async fn find_with_secret(read: &Pool, client_id: &str, secret: &str) -> Result<Option<App>> {
    if !plausible(client_id) {
        return Ok(None);
    }
    let row: Option<AppRow> = sqlx::query_as(
        "SELECT id, client_id, name, website, redirect_uris, scopes FROM apps WHERE client_id = $1 AND secret_hash = $2",
    )
    .bind(client_id)
    .bind(hash_token(secret))
    .fetch_optional(read)
    .await?;
    row.map(app_of).transpose()
}

/// What a member is asked to consent to, checked against the app's registration.
#[derive(Debug)]
pub struct Request {
    pub app: App,
    pub redirect_uri: String,
    /// Whether the request named `redirect_uri` (else it is the app's only one): the token
    /// request must name it again when it did (RFC 6749 §4.1.3).
    pub redirect_uri_named: bool,
    pub scopes: Scopes,
}

impl Request {
    /// The scopes asked for that the app did not register (none for a request that may be
    /// allowed).
    pub fn scopes_beyond_app(&self) -> Vec<&str> {
        self.scopes.beyond(&self.app.scopes)
    }

    /// Where the member's answer sends their browser, as the consent page shows it: the redirect
    /// URI's host (with its port, if any) for a web address, the scheme and host of an app's own
    /// (`ivory://oauth`), or None for the out-of-band URI, which shows the code on the page.
    pub fn destination(&self) -> Option<String> {
        destination(&self.redirect_uri)
    }
}

fn destination(redirect_uri: &str) -> Option<String> {
    if redirect_uri == OUT_OF_BAND {
        return None;
    }
    // Registered URIs were parsed at registration (`check_redirect_uri`).
    let url = url::Url::parse(redirect_uri).ok()?;
    let host = url.host_str().unwrap_or_default();
    let host = match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_string(),
    };
    Some(match url.scheme() {
        "http" | "https" => host,
        scheme if host.is_empty() => format!("{scheme}:"),
        scheme => format!("{scheme}://{host}"),
    })
}

/// Checks an authorization request: the app exists, the redirect URI is one it registered, and
/// the scopes are within its own. Refusals here are shown to the member, never redirected
/// (a redirect to an unchecked URI would be an open redirect).
pub async fn check_request(
    read: &Pool,
    client_id: &str,
    redirect_uri: Option<&str>,
    scope: Option<&str>,
) -> Result<Request> {
    let request = read_request(read, client_id, redirect_uri, scope).await?;
    let beyond = request.scopes_beyond_app();
    if !beyond.is_empty() {
        return Err(Error::bad_request(format!(
            "{} asks for scopes it did not register ({}), so it cannot connect",
            request.app.name,
            beyond.join(", ")
        )));
    }
    Ok(request)
}

/// An authorization request whose app and redirect URI are checked, its scopes read but not yet
/// held against the app's (`Request::scopes_beyond_app`): the consent page shows such a
/// request refused, with a way back to the app's redirect URI, which is checked.
pub async fn read_request(
    read: &Pool,
    client_id: &str,
    redirect_uri: Option<&str>,
    scope: Option<&str>,
) -> Result<Request> {
    let app = find(read, client_id).await?.ok_or_else(|| Error::bad_request("Unknown client_id"))?;
    let redirect_uri_named = redirect_uri.is_some();
    let redirect_uri = match redirect_uri {
        Some(uri) => uri.to_string(),
        None if app.redirect_uris.len() == 1 => app.redirect_uris[0].clone(),
        None => return Err(Error::bad_request("redirect_uri is required")),
    };
    if !app.redirect_uris.contains(&redirect_uri) {
        return Err(Error::bad_request("redirect_uri is not one this app registered"));
    }
    let scopes = match scope {
        Some(scope) => Scopes::parse(Some(scope))?,
        None => app.scopes.clone(),
    };
    Ok(Request { app, redirect_uri, redirect_uri_named, scopes })
}

/// PKCE's `S256`: the challenge is the base64url SHA-256 of the verifier. Only S256 is taken
/// (`plain` would show the verifier to whoever sees the authorization request).
pub fn check_challenge(challenge: Option<&str>, method: Option<&str>) -> Result<Option<String>> {
    match (challenge, method) {
        (None, _) => Ok(None),
        (Some(challenge), Some("S256") | None) => {
            let fine = (43..=128).contains(&challenge.len())
                && challenge.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !fine {
                return Err(Error::bad_request("code_challenge must be a base64url SHA-256 (43 characters)"));
            }
            Ok(Some(challenge.to_string()))
        }
        (Some(_), Some(_)) => Err(Error::bad_request("code_challenge_method must be S256")),
    }
}

fn challenge_of(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Records `member`'s consent to `request`; answers the code to hand to the app.
pub async fn consent(db: &Db, member: i64, request: &Request, challenge: Option<&str>, now: Millis) -> Result<String> {
    let code = random_token();
    sqlx::query(
        "INSERT INTO app_codes (code_hash, app_id, member_id, redirect_uri, redirect_uri_named, scopes, \
         code_challenge, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(hash_token(&code))
    .bind(request.app.id)
    .bind(member)
    .bind(&request.redirect_uri)
    .bind(i64::from(request.redirect_uri_named))
    .bind(request.scopes.to_string())
    .bind(challenge)
    .bind(now + CODE_LIFETIME)
    .execute(&db.write)
    .await?;
    Ok(code)
}

/// A token as handed to an app.
#[derive(Debug)]
pub struct Issued {
    pub token: String,
    pub scopes: Scopes,
    pub created_at: Millis,
}

/// A token request's client: its id, and its secret when it showed one.
pub struct Client<'a> {
    pub id: &'a str,
    pub secret: Option<&'a str>,
}

/// What refuses a token request, as OAuth 2 names it (RFC 6749 §5.2).
fn invalid_grant() -> Error {
    Error::bad_request("invalid_grant: the code is unknown, used, expired or not this app's")
}

/// Exchanges a member's consent for a token: the code is taken (once; a second exchange finds
/// nothing), and must be this app's, unexpired, with the verifier of its PKCE challenge, and
/// name the redirect URI the authorization request named (left out only when that request left
/// it out too, RFC 6749 §4.1.3). A client with a challenge-less code must show its secret.
pub async fn exchange_code(
    db: &Db,
    client: Client<'_>,
    code: &str,
    redirect_uri: Option<&str>,
    verifier: Option<&str>,
    now: Millis,
) -> Result<Issued> {
    let app = match client.secret {
        Some(secret) => find_with_secret(&db.read, client.id, secret).await?,
        None => find(&db.read, client.id).await?,
    }
    .ok_or_else(|| Error::Unauthorized)?;
    if code.len() > 100 {
        return Err(invalid_grant());
    }
    let mut tx = db.write.begin().await?;
    // (app_id, member_id, redirect_uri, redirect_uri_named, scopes, code_challenge, expires_at)
    type CodeRow = (i64, i64, String, i64, String, Option<String>, Millis);
    let taken: Option<CodeRow> = sqlx::query_as(
        "DELETE FROM app_codes WHERE code_hash = $1 \
         RETURNING app_id, member_id, redirect_uri, redirect_uri_named, scopes, code_challenge, expires_at",
    )
    .bind(hash_token(code))
    .fetch_optional(&mut *tx)
    .await?;
    // The code is gone whatever follows: a refused exchange does not leave it to be tried again.
    tx.commit().await?;
    let (app_id, member, bound_uri, uri_named, scopes, challenge, expires_at) = taken.ok_or_else(invalid_grant)?;
    let uri_fits = match redirect_uri {
        Some(uri) => uri == bound_uri,
        None => uri_named == 0,
    };
    if app_id != app.id || expires_at <= now || !uri_fits {
        return Err(invalid_grant());
    }
    match (challenge, verifier) {
        (Some(challenge), Some(verifier)) if challenge_of(verifier) == challenge => {}
        (Some(_), _) => return Err(Error::bad_request("invalid_grant: code_verifier does not match the challenge")),
        (None, _) if client.secret.is_none() => return Err(Error::Unauthorized),
        (None, _) => {}
    }
    issue(&db.write, app.id, Some(member), Scopes::parse(Some(&scopes))?, now).await
}

/// A token for the app itself (no member): what `client_credentials` gives, for the calls that
/// need only an app (verifying it, the instance's public parts).
pub async fn app_token(db: &Db, client: Client<'_>, scope: Option<&str>, now: Millis) -> Result<Issued> {
    let secret = client.secret.ok_or(Error::Unauthorized)?;
    let app = find_with_secret(&db.read, client.id, secret).await?.ok_or(Error::Unauthorized)?;
    let scopes = match scope {
        Some(scope) => Scopes::parse(Some(scope))?,
        None => app.scopes.clone(),
    };
    if !scopes.within(&app.scopes) {
        return Err(Error::bad_request("invalid_scope: the scopes asked for are not within the app's"));
    }
    issue(&db.write, app.id, None, scopes, now).await
}

async fn issue(write: &Pool, app: i64, member: Option<i64>, scopes: Scopes, now: Millis) -> Result<Issued> {
    let token = random_token();
    sqlx::query(
        "INSERT INTO app_tokens (token_hash, app_id, member_id, scopes, created_at, last_used_at) \
         VALUES ($1, $2, $3, $4, $5, $5)",
    )
    .bind(hash_token(&token))
    .bind(app)
    .bind(member)
    .bind(scopes.to_string())
    .bind(now)
    .execute(write)
    .await?;
    Ok(Issued { token, scopes, created_at: now })
}

/// Revokes a token of the client's (RFC 7009: an unknown token is no error).
pub async fn revoke(db: &Db, client: Client<'_>, token: &str) -> Result<()> {
    let app = match client.secret {
        Some(secret) => find_with_secret(&db.read, client.id, secret).await?,
        None => find(&db.read, client.id).await?,
    }
    .ok_or(Error::Unauthorized)?;
    let revoked: Option<Option<i64>> =
        sqlx::query_scalar("DELETE FROM app_tokens WHERE token_hash = $1 AND app_id = $2 RETURNING member_id")
            .bind(hash_token(token))
            .bind(app.id)
            .fetch_optional(&db.write)
            .await?;
    if let Some(Some(member)) = revoked {
        crate::live::credentials_ended(member);
    }
    Ok(())
}

/// Whether the token hashing to `hash` is live: not revoked, its member not suspended
/// (`sessions::Credential::holds`).
pub(crate) async fn token_holds(write: &Pool, hash: &str, now: Millis) -> Result<bool> {
    let found: Option<Option<Millis>> = sqlx::query_scalar(
        "SELECT u.suspended_until FROM app_tokens t LEFT JOIN users u ON u.id = t.member_id WHERE t.token_hash = $1",
    )
    .bind(hash)
    .fetch_optional(write)
    .await?;
    Ok(found.is_some_and(|suspended_until| !crate::users::model::is_suspended(suspended_until, now)))
}

/// Who holds a live token.
#[derive(Clone, Debug)]
pub struct Holder {
    pub token_id: i64,
    /// The member the app acts for; None for an app's own token.
    pub member: Option<i64>,
    pub app_id: i64,
    pub app_name: String,
    pub app_website: Option<String>,
    pub scopes: Scopes,
    /// The member's `FeedMarks`, read with the token so that a kept home page is answered
    /// after this one statement (default ones for an app's own token).
    pub marks: FeedMarks,
}

/// A token's row as read: `(token_hash, id, member_id, app_id, name, website, scopes,
/// last_used_at, suspended_until, feed version, newest)`.
type TokenRow =
    (String, i64, Option<i64>, i64, String, Option<String>, String, Millis, Option<Millis>, Option<i64>, Option<i64>);

/// How the tokens of a state's requests are read: together with those of other requests waiting
/// at the same moment, as sessions are (`murmur_core::db::batched`), or alone for writes.
/// Cheap to clone.
#[derive(Clone)]
pub struct TokenReads(BatchedReads<TokenRow>);

static TOKEN_READ: KeyedRead<TokenRow> = KeyedRead {
    statements: LazyLock::new(|| {
        batched::statements(|hashes| {
            format!(
                "SELECT t.token_hash, t.id, t.member_id, t.app_id, a.name, a.website, t.scopes, t.last_used_at, \
                 u.suspended_until, {} \
                 FROM app_tokens t JOIN apps a ON a.id = t.app_id LEFT JOIN users u ON u.id = t.member_id \
                 WHERE t.token_hash IN ({hashes})",
                crate::timelines::marks::columns("t.member_id")
            )
        })
    }),
    key: |row| &row.0,
};

impl TokenReads {
    /// Reads each token together with the others waiting (starts the batching task on the
    /// current runtime; it ends when the last clone is dropped).
    pub fn together(pool: &Pool) -> TokenReads {
        TokenReads(BatchedReads::together(pool, &TOKEN_READ))
    }

    /// Each request's token in a statement of its own, on `pool`.
    pub fn alone(pool: &Pool) -> TokenReads {
        TokenReads(BatchedReads::alone(pool, &TOKEN_READ))
    }
}

/// The holder of `token`, if it is live: not revoked, and its member neither suspended nor gone
/// (their tokens end with their sessions; the check here also covers a suspension's race).
/// Records its last use at most every few minutes, on `write`.
pub async fn holder(reads: &TokenReads, write: &Pool, token: &str, now: Millis) -> Result<Option<Holder>> {
    if token.len() > 100 {
        return Ok(None);
    }
    let hash = hash_token(token);
    let Some((
        _,
        token_id,
        member,
        app_id,
        app_name,
        app_website,
        scopes,
        last_used_at,
        suspended_until,
        version,
        newest,
    )) = reads.0.read(&hash).await?
    else {
        return Ok(None);
    };
    if member.is_some() && crate::users::model::is_suspended(suspended_until, now) {
        return Ok(None);
    }
    if now - last_used_at >= TOUCH_EVERY {
        sqlx::query("UPDATE app_tokens SET last_used_at = $1 WHERE token_hash = $2 AND last_used_at = $3")
            .bind(now)
            .bind(&hash)
            .bind(last_used_at)
            .execute(write)
            .await?;
    }
    let marks = FeedMarks { version: version.unwrap_or_default(), newest };
    Ok(Some(Holder { token_id, member, app_id, app_name, app_website, scopes: Scopes::parse(Some(&scopes))?, marks }))
}

/// An app a member has given access to, as their settings list it.
#[derive(Debug)]
pub struct Connected {
    pub app_id: i64,
    pub name: String,
    pub website: Option<String>,
    pub scopes: Scopes,
    pub connected_at: Millis,
    pub last_used_at: Millis,
}

/// The apps holding a token of `member`'s, most recently used first.
pub async fn connected(read: &Pool, member: i64) -> Result<Vec<Connected>> {
    // (app_id, name, website, scopes, first, last)
    type Row = (i64, String, Option<String>, String, Millis, Millis);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT a.id, a.name, a.website, MAX(t.scopes), MIN(t.created_at), MAX(t.last_used_at) \
         FROM app_tokens t JOIN apps a ON a.id = t.app_id WHERE t.member_id = $1 \
         GROUP BY a.id, a.name, a.website ORDER BY MAX(t.last_used_at) DESC, a.id DESC LIMIT 100",
    )
    .bind(member)
    .fetch_all(read)
    .await?;
    rows.into_iter()
        .map(|(app_id, name, website, scopes, connected_at, last_used_at)| {
            Ok(Connected { app_id, name, website, scopes: Scopes::parse(Some(&scopes))?, connected_at, last_used_at })
        })
        .collect()
}

/// Ends every token `member` gave `app`; answers whether there was one.
pub async fn disconnect(db: &Db, member: i64, app: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM app_tokens WHERE member_id = $1 AND app_id = $2")
        .bind(member)
        .bind(app)
        .execute(&db.write)
        .await?;
    sqlx::query("DELETE FROM app_codes WHERE member_id = $1 AND app_id = $2")
        .bind(member)
        .bind(app)
        .execute(&db.write)
        .await?;
    let any = done.rows_affected() > 0;
    if any {
        crate::live::credentials_ended(member);
    }
    Ok(any)
}

/// Ends every token and pending code of `member`, in the caller's transaction (with their
/// sessions: `sessions::end_all`, `sessions::delete_others`).
pub async fn end_all_of(conn: &mut AnyConnection, member: i64) -> Result<()> {
    sqlx::query("DELETE FROM app_tokens WHERE member_id = $1").bind(member).execute(&mut *conn).await?;
    sqlx::query("DELETE FROM app_codes WHERE member_id = $1").bind(member).execute(&mut *conn).await?;
    Ok(())
}

/// Removes codes past their time (upkeep).
pub async fn prune(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM app_codes WHERE expires_at <= $1").bind(now).execute(write).await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::{OUT_OF_BAND, challenge_of, check_challenge, check_redirect_uri, destination};

    #[test]
    fn redirect_uris_that_would_run_code_are_refused() {
        assert!(check_redirect_uri("urn:ietf:wg:oauth:2.0:oob").is_ok());
        assert!(check_redirect_uri("https://app.example/callback").is_ok());
        assert!(check_redirect_uri("ivory://oauth").is_ok());
        assert!(check_redirect_uri("javascript:alert(1)").is_err());
        assert!(check_redirect_uri("data:text/html,hi").is_err());
        assert!(check_redirect_uri("https://app.example/cb#x").is_err());
        assert!(check_redirect_uri("https://user:pw@app.example/cb").is_err());
        assert!(check_redirect_uri("/relative").is_err());
        assert!(check_redirect_uri("https://app.example/\u{0}").is_err());
    }

    #[test]
    fn the_consent_page_names_where_the_answer_goes() {
        assert_eq!(destination("https://app.example/callback?x=1").as_deref(), Some("app.example"));
        assert_eq!(destination("http://127.0.0.1:8080/cb").as_deref(), Some("127.0.0.1:8080"));
        assert_eq!(destination("ivory://oauth").as_deref(), Some("ivory://oauth"));
        assert_eq!(destination("com.example.app:/oauth").as_deref(), Some("com.example.app:"));
        assert_eq!(destination(OUT_OF_BAND), None);
    }

    #[test]
    fn pkce_takes_s256_only() {
        // RFC 7636, appendix B.
        assert_eq!(
            challenge_of("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        assert!(check_challenge(Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), Some("S256")).is_ok());
        assert!(check_challenge(Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"), Some("plain")).is_err());
        assert!(check_challenge(Some("short"), None).is_err());
        assert_eq!(check_challenge(None, None).unwrap(), None);
    }
}
