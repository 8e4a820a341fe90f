//! Passkeys: WebAuthn credentials a member adds beside magic links and signs in with
//! (docs/auth.md). The relying party is the instance's public URL: its host is the RP id, its
//! origin the only origin accepted. Each ceremony (adding a passkey, signing in) is two
//! requests; the state between them is kept in the database under the SHA-256 of a random id
//! the browser holds, so any process can finish a ceremony another began. A ceremony works once
//! and for `CEREMONY_LIFETIME`.
//!
//! Sign-in is discoverable: the browser offers the member's passkeys for this site, and the one
//! chosen names its member (its user handle). A suspended or deleted member's passkeys sign
//! nobody in.

pub(crate) mod store;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder, WebauthnError,
};

use crate::sessions;
use murmur_core::clock::{MINUTE, Millis};
use murmur_core::config::Config;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};
use murmur_core::secrets::random_bytes;
pub use store::Listed;

/// How long a begun ceremony can be finished: the browser's own timeout (webauthn-rs asks for
/// five minutes) and a little more for the request.
pub const CEREMONY_LIFETIME: Millis = 6 * MINUTE;
/// The longest name a member can give a passkey, in characters.
pub const MAX_NAME: usize = 64;
/// The most passkeys one member keeps.
pub const MAX_PER_MEMBER: i64 = 20;

pub const EXPIRED: &str = "This passkey request expired. Please try again.";
pub const UNKNOWN_CEREMONY: &str = "This passkey request is no longer valid. Please try again.";
pub const UNKNOWN_PASSKEY: &str =
    "This passkey is not known here. It may have been removed: sign in with an e-mailed link instead.";
pub const WRONG_ORIGIN: &str = "This passkey cannot be used on this site's address.";
pub const NOT_VERIFIED: &str = "The passkey could not be verified. Please try again.";
pub const MALFORMED: &str = "The browser's answer was not a passkey response.";
pub const NOT_FOUND: &str = "Passkey not found";
pub const NAME_MISSING: &str = "Please give the passkey a name.";
pub const NAME_TOO_LONG: &str = "A passkey's name can be at most 64 characters.";
pub const ALREADY_ADDED: &str = "This passkey is already added.";
pub const TOO_MANY: &str = "You have as many passkeys as an account can keep (20). Remove one first.";
pub const ANOTHER_ACCOUNT: &str = "This passkey signs in to another account: use one of your own.";
pub const NO_DOMAIN: &str = "Passkeys need the instance to be reached by a domain name, not an IP address.";

/// What a ceremony is for; a ceremony of one kind cannot finish the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Register,
    Login,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Register => "register",
            Kind::Login => "login",
        }
    }
}

/// A begun ceremony: the id the browser sends back with its answer, and the options for
/// `navigator.credentials.create` or `.get` (as WebAuthn's JSON, `publicKey` inside).
#[derive(Debug)]
pub struct Begun {
    pub ceremony: String,
    pub options: Value,
}

/// The relying party this instance is: its public URL's host and origin.
fn relying_party(config: &Config) -> Result<Webauthn> {
    let url: &Url = &config.public_url;
    // WebAuthn takes a domain as RP id, never an IP address (browsers refuse one).
    let rp_id = url.domain().ok_or_else(|| Error::Unavailable(NO_DOMAIN.into()))?;
    WebauthnBuilder::new(rp_id, url)
        .and_then(|builder| builder.rp_name("Murmur").build())
        .map_err(|e| Error::Internal(anyhow::anyhow!("the relying party cannot be built: {e:?}")))
}

/// What the registration ceremony keeps between its two requests.
#[derive(Serialize, Deserialize)]
struct Registering {
    handle: Uuid,
    state: PasskeyRegistration,
}

/// Begins adding a passkey for `member`: answers the creation options, which ask for a
/// discoverable credential and exclude the member's passkeys already added. Only from a session
/// signed in recently (`sessions::require_recent_sign_in`): a copied cookie alone cannot add a
/// passkey that would outlive logging out everywhere.
pub async fn start_registration(
    db: &Db,
    config: &Config,
    session: sessions::Current<'_>,
    now: Millis,
) -> Result<Begun> {
    let webauthn = relying_party(config)?;
    sessions::require_recent_sign_in(&db.write, session.hash, now).await?;
    let member = session.member;
    if store::count(&db.read, member).await? >= MAX_PER_MEMBER {
        return Err(Error::conflict(TOO_MANY));
    }
    let (username, display_name) = store::names(&db.read, member).await?.ok_or(Error::Unauthorized)?;
    let handle = match store::user_handle(&db.read, member).await? {
        Some(handle) => handle,
        None => Uuid::from_bytes(random_bytes::<16>()),
    };
    let exclude = store::credential_ids(&db.read, member).await?;
    let (options, state) = webauthn
        .start_passkey_registration(handle, &username, &display_name, Some(exclude))
        .map_err(|e| Error::Internal(anyhow::anyhow!("starting a passkey registration: {e:?}")))?;
    let mut options = serde_json::to_value(options).map_err(internal)?;
    // Sign-in names no member, so the passkey must be discoverable (kept on the authenticator
    // with its user handle), as platform and synced passkeys are; webauthn-rs asks for none.
    options["publicKey"]["authenticatorSelection"]["residentKey"] = "required".into();
    options["publicKey"]["authenticatorSelection"]["requireResidentKey"] = true.into();
    let state = serde_json::to_string(&Registering { handle, state }).map_err(internal)?;
    let ceremony = store::begin(&db.write, Kind::Register, Some(member), &state, now).await?;
    Ok(Begun { ceremony, options })
}

/// Finishes adding a passkey: the browser's `credential` must answer the ceremony `member`
/// began, from a session still signed in recently; the passkey is stored under `name`.
pub async fn finish_registration(
    db: &Db,
    config: &Config,
    session: sessions::Current<'_>,
    ceremony: &str,
    name: &str,
    credential: Value,
    now: Millis,
) -> Result<Listed> {
    let name = clean_name(name)?;
    let webauthn = relying_party(config)?;
    sessions::require_recent_sign_in(&db.write, session.hash, now).await?;
    let member = session.member;
    let state = store::finish(&db.write, Kind::Register, ceremony, now).await?;
    // Another member's ceremony is as unknown as none.
    if state.member != Some(member) {
        return Err(Error::bad_request(UNKNOWN_CEREMONY));
    }
    let Registering { handle, state } = serde_json::from_str(&state.state).map_err(internal)?;
    let credential: RegisterPublicKeyCredential =
        serde_json::from_value(credential).map_err(|_| Error::bad_request(MALFORMED))?;
    let passkey = webauthn.finish_passkey_registration(&credential, &state).map_err(refusal)?;
    if store::count(&db.read, member).await? >= MAX_PER_MEMBER {
        return Err(Error::conflict(TOO_MANY));
    }
    store::insert(&db.write, member, &handle, &name, &passkey, now).await
}

/// Begins a sign-in: answers request options that name no member (the browser offers the
/// passkeys it holds for this site).
pub async fn start_login(db: &Db, config: &Config, now: Millis) -> Result<Begun> {
    let webauthn = relying_party(config)?;
    let (options, state) = webauthn
        .start_discoverable_authentication()
        .map_err(|e| Error::Internal(anyhow::anyhow!("starting a passkey sign-in: {e:?}")))?;
    let state = serde_json::to_string(&state).map_err(internal)?;
    let ceremony = store::begin(&db.write, Kind::Login, None, &state, now).await?;
    // Only `publicKey`: how the browser is asked (a button, or autofill's conditional
    // mediation) is the web app's choice.
    Ok(Begun { ceremony, options: serde_json::to_value(options).map_err(internal)? })
}

/// A sign-in ceremony's answer, verified: the passkey that signed, and its credential as the
/// answer updated it (its counter, its backup state; None when unchanged).
struct Signed {
    stored: store::Stored,
    credential: Option<String>,
}

/// Checks the browser's `credential` against the sign-in ceremony: a passkey kept here, of the
/// member its user handle names, that verifies.
async fn verify_sign_in(db: &Db, config: &Config, ceremony: &str, credential: Value, now: Millis) -> Result<Signed> {
    let webauthn = relying_party(config)?;
    let begun = store::finish(&db.write, Kind::Login, ceremony, now).await?;
    let state: DiscoverableAuthentication = serde_json::from_str(&begun.state).map_err(internal)?;
    let credential: PublicKeyCredential =
        serde_json::from_value(credential).map_err(|_| Error::bad_request(MALFORMED))?;
    let (handle, credential_id) =
        webauthn.identify_discoverable_authentication(&credential).map_err(|_| Error::bad_request(UNKNOWN_PASSKEY))?;
    let stored = store::find_by_credential(&db.read, credential_id)
        .await?
        .filter(|stored| stored.user_handle == handle.to_string())
        .ok_or_else(|| Error::bad_request(UNKNOWN_PASSKEY))?;
    let mut passkey: Passkey = serde_json::from_str(&stored.credential).map_err(internal)?;
    let result = webauthn
        .finish_discoverable_authentication(&credential, state, &[DiscoverableKey::from(&passkey)])
        .map_err(refusal)?;
    let updated = passkey.update_credential(&result).unwrap_or(false);
    let credential = if updated { Some(serde_json::to_string(&passkey).map_err(internal)?) } else { None };
    Ok(Signed { stored, credential })
}

/// Finishes a sign-in: the browser's `credential` must answer the ceremony, with a passkey of
/// a member who may sign in. The passkey's counter and backup state are updated, its last use
/// recorded, and a session started in `browser` (its member's id and the session's token).
pub async fn finish_login(
    db: &Db,
    config: &Config,
    ceremony: &str,
    credential: Value,
    browser: sessions::Browser<'_>,
    now: Millis,
) -> Result<(i64, String)> {
    let Signed { stored, credential } = verify_sign_in(db, config, ceremony, credential, now).await?;
    // One transaction: the passkey's new counter, its last use and the session, or none.
    let mut tx = db.write.begin().await?;
    if crate::users::store::is_suspended(&mut tx, stored.member, now).await? {
        return Err(Error::forbidden(crate::users::model::SUSPENDED));
    }
    if !store::used(&mut tx, stored.id, stored.member, credential.as_deref(), now).await? {
        // Removed between the look-up and here.
        return Err(Error::bad_request(UNKNOWN_PASSKEY));
    }
    let token = sessions::create_in_browser(&mut *tx, stored.member, browser, now).await?;
    tx.commit().await?;
    Ok((stored.member, token))
}

/// Confirms with one of its member's passkeys that the session is still theirs:
/// its sign-in becomes now (`sessions::RECENT_SIGN_IN`). The ceremony is a sign-in's
/// (`start_login`); a passkey of another account is refused.
pub async fn reauthenticate(
    db: &Db,
    config: &Config,
    session: sessions::Current<'_>,
    ceremony: &str,
    credential: Value,
    now: Millis,
) -> Result<()> {
    let Signed { stored, credential } = verify_sign_in(db, config, ceremony, credential, now).await?;
    if stored.member != session.member {
        return Err(Error::bad_request(ANOTHER_ACCOUNT));
    }
    let mut tx = db.write.begin().await?;
    if !store::used(&mut tx, stored.id, stored.member, credential.as_deref(), now).await? {
        return Err(Error::bad_request(UNKNOWN_PASSKEY));
    }
    if !sessions::reauthenticated(&mut tx, session.hash, now).await? {
        return Err(Error::Unauthorized);
    }
    tx.commit().await?;
    Ok(())
}

/// A member's passkeys, newest first.
pub async fn list(db: &Db, member: i64) -> Result<Vec<Listed>> {
    store::list(&db.read, member).await
}

/// Removes one of `member`'s passkeys; another member's, or one already gone: 404.
pub async fn remove(db: &Db, member: i64, id: i64) -> Result<()> {
    if store::remove(&db.write, member, id).await? { Ok(()) } else { Err(Error::not_found(NOT_FOUND)) }
}

/// Removes ceremonies that expired unfinished (upkeep).
pub async fn prune(db: &Db, now: Millis) -> Result<u64> {
    store::prune(&db.write, now).await
}

/// A passkey's name as kept: trimmed, 1 to `MAX_NAME` characters, without control characters.
pub fn clean_name(name: &str) -> Result<String> {
    let name: String = name.trim().chars().filter(|c| !c.is_control()).collect();
    if name.is_empty() {
        return Err(Error::bad_request(NAME_MISSING));
    }
    if name.chars().count() > MAX_NAME {
        return Err(Error::bad_request(NAME_TOO_LONG));
    }
    Ok(name)
}

/// The person's words for a ceremony webauthn-rs refused.
fn refusal(error: WebauthnError) -> Error {
    match error {
        WebauthnError::InvalidRPOrigin | WebauthnError::InvalidRPIDHash => Error::bad_request(WRONG_ORIGIN),
        WebauthnError::CredentialAlteredAlgFromRequest
        | WebauthnError::ParseNOMFailure
        | WebauthnError::ParseBase64Failure(_)
        | WebauthnError::ParseCBORFailure(_)
        | WebauthnError::ParseJSONFailure(_) => Error::bad_request(MALFORMED),
        other => {
            tracing::info!(error = ?other, "a passkey ceremony was refused");
            Error::bad_request(NOT_VERIFIED)
        }
    }
}

fn internal(error: serde_json::Error) -> Error {
    Error::Internal(error.into())
}
