//! Passkeys (docs/auth.md): real WebAuthn ceremonies, driven by a software authenticator and
//! client (1Password's passkey-rs) the way a browser drives its authenticator. The instance's
//! public URL is `http://localhost:<port>` here: WebAuthn takes a domain as relying party, never
//! an IP address.

use std::collections::HashMap;
use std::time::Duration;

use passkey_authenticator::{
    Authenticator, CredentialStore, DiscoverabilitySupport, StoreInfo, UiHint, UserCheck, UserValidationMethod,
};
use passkey_client::{Client, DefaultClientData};
use passkey_crypto::AvailableBackend;
use passkey_types::Passkey;
use passkey_types::ctap2::make_credential::{Options, PublicKeyCredentialRpEntity, PublicKeyCredentialUserEntity};
use passkey_types::ctap2::{Aaguid, Ctap2Error, StatusCode};
use passkey_types::webauthn::{CredentialCreationOptions, CredentialRequestOptions, PublicKeyCredentialDescriptor};
use serde_json::{Value, json};
use url::Url;

use crate::accounts::outbox;
use crate::common::{TestApp, client_for, insert_member, json as read};
use crate::mailbox;

/// `both_databases!` on an instance whose public URL is `http://localhost:<port>`.
macro_rules! on_localhost {
    ($($name:ident),+ $(,)?) => {$(
        crate::both_databases_with!($name, |c: &mut murmur::Config| {
            c.public_url.set_host(Some("localhost")).unwrap();
        });
    )+};
}

on_localhost!(
    a_passkey_is_added_listed_and_signs_in,
    another_member_cannot_see_remove_or_finish_a_members_passkeys,
    a_removed_passkey_signs_nobody_in,
    a_suspended_members_passkey_signs_nobody_in,
    expired_and_replayed_ceremonies_are_refused,
    another_origin_is_refused,
    passkey_sign_ins_are_rate_limited,
    adding_a_passkey_needs_a_recent_sign_in,
    another_accounts_passkey_or_link_confirms_nothing,
    logging_out_everywhere_can_remove_the_passkeys_too,
);
crate::both_databases!(passkeys_need_a_domain_name);

/// A person who always says yes and is verified (a fingerprint, a device PIN).
struct Verified;

#[async_trait::async_trait]
impl UserValidationMethod for Verified {
    type PasskeyItem = Passkey;

    async fn check_user<'a>(
        &self,
        _hint: UiHint<'a, Passkey>,
        presence: bool,
        verification: bool,
    ) -> Result<UserCheck, Ctap2Error> {
        Ok(UserCheck { presence, verification })
    }

    fn is_presence_enabled(&self) -> bool {
        true
    }

    fn is_verification_enabled(&self) -> Option<bool> {
        Some(true)
    }
}

/// The passkeys a device holds, found by the credential ids a request allows or, when it allows
/// none (a discoverable sign-in), by the site (passkey-rs's `MemoryStore` finds only the former).
#[derive(Clone, Default)]
struct Held(HashMap<Vec<u8>, Passkey>);

#[async_trait::async_trait]
impl CredentialStore for Held {
    type PasskeyItem = Passkey;

    async fn find_credentials(
        &self,
        allowed: Option<&[PublicKeyCredentialDescriptor]>,
        rp_id: &str,
        _user_handle: Option<&[u8]>,
    ) -> Result<Vec<Passkey>, StatusCode> {
        let found: Vec<Passkey> = match allowed.filter(|allowed| !allowed.is_empty()) {
            Some(allowed) => allowed.iter().filter_map(|d| self.0.get(&*d.id)).cloned().collect(),
            None => self.0.values().filter(|p| p.rp_id == rp_id).cloned().collect(),
        };
        if found.is_empty() { Err(Ctap2Error::NoCredentials.into()) } else { Ok(found) }
    }

    async fn save_credential(
        &mut self,
        passkey: Passkey,
        _user: PublicKeyCredentialUserEntity,
        _rp: PublicKeyCredentialRpEntity,
        _options: Options,
    ) -> Result<(), StatusCode> {
        self.0.insert(passkey.credential_id.to_vec(), passkey);
        Ok(())
    }

    async fn update_credential(&mut self, passkey: &Passkey) -> Result<(), StatusCode> {
        self.0.insert(passkey.credential_id.to_vec(), passkey.clone());
        Ok(())
    }

    async fn get_info(&self) -> StoreInfo {
        StoreInfo { discoverability: DiscoverabilitySupport::Full }
    }
}

/// A device with a platform authenticator: the passkeys it holds, across ceremonies.
#[derive(Default)]
struct Device {
    passkeys: Held,
}

impl Device {
    /// The device's authenticator, holding its passkeys for one ceremony.
    fn authenticator(&mut self) -> Authenticator<Held, Verified, AvailableBackend> {
        let mut authenticator =
            Authenticator::new(Aaguid::new_empty(), std::mem::take(&mut self.passkeys), Verified, AvailableBackend);
        // A signature counter, so its updates after each use can be seen.
        authenticator.set_make_credentials_with_signature_counter(true);
        authenticator
    }

    /// `navigator.credentials.create` from a page at `origin`, with the server's options.
    async fn create(&mut self, origin: &Url, options: &Value) -> Value {
        let options: CredentialCreationOptions = serde_json::from_value(options.clone()).expect("creation options");
        let mut client = Client::new(self.authenticator()).allows_insecure_localhost(true);
        let created = client.register(origin, options, DefaultClientData).await;
        self.passkeys = client.authenticator().store().clone();
        serde_json::to_value(created.expect("the authenticator makes a passkey")).unwrap()
    }

    /// `navigator.credentials.get` from a page at `origin`, with the server's options.
    async fn get(&mut self, origin: &Url, options: &Value) -> Value {
        let options: CredentialRequestOptions = serde_json::from_value(options.clone()).expect("request options");
        let mut client = Client::new(self.authenticator()).allows_insecure_localhost(true);
        let got = client.authenticate(origin, options, DefaultClientData).await;
        self.passkeys = client.authenticator().store().clone();
        serde_json::to_value(got.expect("the authenticator signs with a passkey")).unwrap()
    }
}

/// The instance's public origin (`http://localhost:<port>`), where the web app's pages are.
fn origin(app: &TestApp) -> Url {
    app.state.config.public_url.clone()
}

/// A member with a client on the public origin (as the web app's page is).
async fn member(app: &TestApp, username: &str) -> (i64, reqwest::Client) {
    let (id, token) = insert_member(&app.state.db, app.clock.now(), username).await;
    let cookie = format!("{}={token}", murmur::session_cookie::name(&app.state.config));
    (id, client_for(origin(app).as_str().trim_end_matches('/'), Some(&cookie)))
}

/// A visitor's browser on the public origin (keeps the cookies it is given).
fn visitor(app: &TestApp) -> reqwest::Client {
    client_for(origin(app).as_str().trim_end_matches('/'), None)
}

async fn post(app: &TestApp, client: &reqwest::Client, path: &str, body: Value) -> (u16, Value) {
    read(client.post(app.url(path)).json(&body).send().await.unwrap()).await
}

async fn get(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, Value) {
    read(client.get(app.url(path)).send().await.unwrap()).await
}

/// Adds a passkey named `name` from `device`; answers the finish's status and body.
async fn add_passkey(app: &TestApp, client: &reqwest::Client, device: &mut Device, name: &str) -> (u16, Value) {
    let (status, begun) = post(app, client, "/api/auth/passkeys/register/start", json!({})).await;
    assert_eq!(status, 200, "{begun}");
    let credential = device.create(&origin(app), &begun["options"]).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": name, "credential": credential });
    post(app, client, "/api/auth/passkeys/register/finish", body).await
}

/// Begins a sign-in and has `device` answer it from `at`; answers the ceremony and the answer.
async fn sign_in_answer(app: &TestApp, browser: &reqwest::Client, device: &mut Device, at: &Url) -> (Value, Value) {
    let (status, begun) = post(app, browser, "/api/auth/passkeys/login/start", json!({})).await;
    assert_eq!(status, 200, "{begun}");
    let credential = device.get(at, &begun["options"]).await;
    (begun["ceremony"].clone(), credential)
}

/// Signs in from a new browser with `device`; answers the finish's status and body, and the browser.
async fn sign_in(app: &TestApp, device: &mut Device) -> (u16, Value, reqwest::Client) {
    let browser = visitor(app);
    let (ceremony, credential) = sign_in_answer(app, &browser, device, &origin(app)).await;
    let body = json!({ "ceremony": ceremony, "credential": credential });
    let (status, answer) = post(app, &browser, "/api/auth/passkeys/login/finish", body).await;
    (status, answer, browser)
}

/// The stored credential's signature counter.
async fn stored_counter(app: &TestApp, id: i64) -> i64 {
    let credential: String = sqlx::query_scalar("SELECT credential FROM passkeys WHERE id = $1")
        .bind(id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    let credential: Value = serde_json::from_str(&credential).unwrap();
    credential["cred"]["counter"].as_i64().expect("the credential keeps a counter")
}

async fn a_passkey_is_added_listed_and_signs_in(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let mut phone = Device::default();

    let (status, added) = add_passkey(&app, &ada, &mut phone, "  My phone ").await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["name"], "My phone");
    assert_eq!(added["lastUsedAt"], Value::Null);
    let id = added["id"].as_i64().unwrap();

    // The member is told, at their address.
    let notice = mailbox::nth_mail(&outbox(&app), "ada@example.com", 1).await;
    assert_eq!(notice.subject(), "A passkey was added to your account");
    assert!(notice.decoded.contains("My phone"), "{}", notice.decoded);

    let (status, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(status, 200);
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["id"], id);
    assert_eq!(listed[0]["name"], "My phone");
    assert!(listed[0]["createdAt"].is_string());
    assert_eq!(listed[0]["lastUsedAt"], Value::Null);
    assert_eq!(stored_counter(&app, id).await, 0);

    // Sign-in names no member: the browser offers what it holds for the site.
    let (_, begun) = post(&app, &visitor(&app), "/api/auth/passkeys/login/start", json!({})).await;
    let allowed = &begun["options"]["publicKey"]["allowCredentials"];
    assert!(allowed.is_null() || allowed.as_array().is_some_and(Vec::is_empty), "{begun}");

    app.clock.advance(Duration::from_secs(60));
    let (status, user, browser) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["username"], "ada");
    let (status, me) = get(&app, &browser, "/api/auth/me").await;
    assert_eq!((status, &me["username"]), (200, &json!("ada")), "the browser is signed in: {me}");

    // The last use is shown, and the credential's counter kept.
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert!(listed[0]["lastUsedAt"].is_string(), "{listed}");
    assert_eq!(stored_counter(&app, id).await, 1);
    let (status, _, _) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 200);
    assert_eq!(stored_counter(&app, id).await, 2, "the counter is updated after each use");

    // The session is listed as a passkey's; the one from the e-mailed link as a link's.
    let (_, sessions) = get(&app, &browser, "/api/auth/sessions").await;
    let sessions = sessions.as_array().unwrap();
    let this = sessions.iter().find(|s| s["current"] == true).unwrap();
    assert_eq!(this["signedInWith"], "passkey");
    assert!(sessions.iter().any(|s| s["signedInWith"] == "link"), "{sessions:?}");
}

async fn another_member_cannot_see_remove_or_finish_a_members_passkeys(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let (_, bob) = member(&app, "bob").await;
    let mut phone = Device::default();
    let (_, added) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    let id = added["id"].as_i64().unwrap();

    let (status, listed) = get(&app, &bob, "/api/auth/passkeys").await;
    assert_eq!((status, listed), (200, json!([])));
    let (status, body) = read(bob.delete(app.url(&format!("/api/auth/passkeys/{id}"))).send().await.unwrap()).await;
    assert_eq!(status, 404, "{body}");
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed.as_array().unwrap().len(), 1, "Ada's passkey stays");

    // Ada's ceremony cannot add a passkey to Bob's account.
    let (_, begun) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    let credential = Device::default().create(&origin(&app), &begun["options"]).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": "Stolen", "credential": credential });
    let (status, refused) = post(&app, &bob, "/api/auth/passkeys/register/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey request is no longer valid. Please try again.");
    let (_, listed) = get(&app, &bob, "/api/auth/passkeys").await;
    assert_eq!(listed, json!([]));

    // Visitors have none to list or remove.
    let (status, _) = get(&app, &visitor(&app), "/api/auth/passkeys").await;
    assert_eq!(status, 401);
}

async fn a_removed_passkey_signs_nobody_in(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let mut phone = Device::default();
    let (_, added) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    let id = added["id"].as_i64().unwrap();
    let (status, _, _) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 200);

    let response = ada.delete(app.url(&format!("/api/auth/passkeys/{id}"))).send().await.unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::NO_CONTENT);
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed, json!([]));

    let (status, refused, browser) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 400, "{refused}");
    assert!(refused["message"].as_str().unwrap().starts_with("This passkey is not known here."), "{refused}");
    let (status, _) = get(&app, &browser, "/api/auth/me").await;
    assert_eq!(status, 401, "the browser is not signed in");

    let (status, _) = read(ada.delete(app.url(&format!("/api/auth/passkeys/{id}"))).send().await.unwrap()).await;
    assert_eq!(status, 404, "removed once");
}

async fn a_suspended_members_passkey_signs_nobody_in(app: TestApp) {
    let (ada_id, ada) = member(&app, "ada").await;
    let mut phone = Device::default();
    let (status, _) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    assert_eq!(status, 201);

    sqlx::query("UPDATE users SET suspended_until = $1 WHERE id = $2")
        .bind(app.clock.now() + 86_400_000)
        .bind(ada_id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let (status, refused, browser) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["message"], "This account is suspended");
    let (status, _) = get(&app, &browser, "/api/auth/me").await;
    assert_eq!(status, 401);
    let last_used: Option<i64> = sqlx::query_scalar("SELECT last_used_at FROM passkeys WHERE user_id = $1")
        .bind(ada_id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(last_used, None, "a refused sign-in is no use");
}

async fn expired_and_replayed_ceremonies_are_refused(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let mut phone = Device::default();

    // A registration finished late.
    let (_, begun) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    let credential = phone.create(&origin(&app), &begun["options"]).await;
    app.clock.advance(Duration::from_secs(7 * 60));
    let body = json!({ "ceremony": begun["ceremony"], "name": "Late", "credential": credential });
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/finish", body.clone()).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey request expired. Please try again.");

    // A registration finished twice.
    let mut phone = Device::default();
    let (_, begun) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    let credential = phone.create(&origin(&app), &begun["options"]).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": "Phone", "credential": credential });
    let (status, _) = post(&app, &ada, "/api/auth/passkeys/register/finish", body.clone()).await;
    assert_eq!(status, 201);
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey request is no longer valid. Please try again.");

    // A sign-in finished late.
    let browser = visitor(&app);
    let (ceremony, credential) = sign_in_answer(&app, &browser, &mut phone, &origin(&app)).await;
    app.clock.advance(Duration::from_secs(7 * 60));
    let body = json!({ "ceremony": ceremony, "credential": credential });
    let (status, refused) = post(&app, &browser, "/api/auth/passkeys/login/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey request expired. Please try again.");

    // A sign-in replayed: as it was, and its answer with another ceremony.
    let (ceremony, credential) = sign_in_answer(&app, &browser, &mut phone, &origin(&app)).await;
    let body = json!({ "ceremony": ceremony, "credential": credential });
    let (status, _) = post(&app, &browser, "/api/auth/passkeys/login/finish", body.clone()).await;
    assert_eq!(status, 200);
    let eve = visitor(&app);
    let (status, refused) = post(&app, &eve, "/api/auth/passkeys/login/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey request is no longer valid. Please try again.");
    let (_, begun) = post(&app, &eve, "/api/auth/passkeys/login/start", json!({})).await;
    let body = json!({ "ceremony": begun["ceremony"], "credential": credential });
    let (status, refused) = post(&app, &eve, "/api/auth/passkeys/login/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "The passkey could not be verified. Please try again.");
    let (status, _) = get(&app, &eve, "/api/auth/me").await;
    assert_eq!(status, 401);

    // A ceremony of one kind does not finish the other; nonsense is refused as such. (Cyd has
    // just signed in: Ada's sign-in is too old by now to add a passkey at all.)
    let (_, cyd) = member(&app, "cyd").await;
    let (_, begun) = post(&app, &eve, "/api/auth/passkeys/login/start", json!({})).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": "Mixed", "credential": credential });
    let (status, _) = post(&app, &cyd, "/api/auth/passkeys/register/finish", body).await;
    assert_eq!(status, 400);
    let (_, begun) = post(&app, &eve, "/api/auth/passkeys/login/start", json!({})).await;
    let body = json!({ "ceremony": begun["ceremony"], "credential": { "id": "x" } });
    let (status, refused) = post(&app, &eve, "/api/auth/passkeys/login/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "The browser's answer was not a passkey response.");

    // Upkeep removes the ceremonies left unfinished once they expire.
    app.clock.advance(Duration::from_secs(7 * 60));
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.clock.now()).await.unwrap();
    let left: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM passkey_ceremonies").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(left, 0);
}

async fn another_origin_is_refused(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let port = origin(&app).port().unwrap();
    let elsewhere: Url = format!("http://evil.localhost:{port}").parse().unwrap();
    let mut phone = Device::default();

    let (_, begun) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    let credential = phone.create(&elsewhere, &begun["options"]).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": "Elsewhere", "credential": credential });
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey cannot be used on this site's address.");
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed, json!([]));

    // A passkey of this site, used from a page elsewhere.
    let mut phone = Device::default();
    let (status, _) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    assert_eq!(status, 201);
    let browser = visitor(&app);
    let (ceremony, credential) = sign_in_answer(&app, &browser, &mut phone, &elsewhere).await;
    let body = json!({ "ceremony": ceremony, "credential": credential });
    let (status, refused) = post(&app, &browser, "/api/auth/passkeys/login/finish", body).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey cannot be used on this site's address.");
    let (status, _) = get(&app, &browser, "/api/auth/me").await;
    assert_eq!(status, 401);
}

async fn passkey_sign_ins_are_rate_limited(app: TestApp) {
    let browser = visitor(&app);
    for _ in 0..60 {
        let (status, _) = post(&app, &browser, "/api/auth/passkeys/login/start", json!({})).await;
        assert_eq!(status, 200);
    }
    let (status, refused) = post(&app, &browser, "/api/auth/passkeys/login/start", json!({})).await;
    assert_eq!(status, 429, "{refused}");
    assert_eq!(refused["message"], "Too many passkey sign-ins from your network. Please try again later.");

    let (_, ada) = member(&app, "ada").await;
    for _ in 0..10 {
        let (status, _) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
        assert_eq!(status, 200);
    }
    let (status, _) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    assert_eq!(status, 429);
}

const SIGN_IN_AGAIN: &str = "Please confirm it's you first: sign in again with a passkey or an e-mailed link. \
                             Adding a passkey needs a sign-in within the last 10 minutes.";

/// A browser's user agent, kept with a session as at sign-in.
const FIREFOX_ON_LINUX: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// Confirms `browser`'s session with `device`'s passkey; answers the status and body.
async fn confirm_with_passkey(app: &TestApp, browser: &reqwest::Client, device: &mut Device) -> (u16, Value) {
    let (ceremony, credential) = sign_in_answer(app, browser, device, &origin(app)).await;
    let body = json!({ "ceremony": ceremony, "credential": credential });
    post(app, browser, "/api/auth/passkeys/reauthenticate", body).await
}

/// Asks for a link to confirm `browser`'s session; answers the link's token (the `nth` mail to `email`).
async fn confirmation_link(app: &TestApp, browser: &reqwest::Client, email: &str, nth: usize) -> String {
    let (status, sent) = post(app, browser, "/api/auth/reauthenticate/request-link", json!({})).await;
    assert_eq!(status, 200, "{sent}");
    let mail = mailbox::nth_mail(&outbox(app), email, nth).await;
    assert_eq!(mail.subject(), "Confirm it's you on Murmur");
    mailbox::token_of(&mail.link_starting("/auth/reauthenticate?token=").expect("a confirmation link"))
}

async fn sessions_of(app: &TestApp, member: i64) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE user_id = $1")
        .bind(member)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

/// A copied session cookie alone cannot add a passkey (which would outlive "log out
/// everywhere"): adding one takes a sign-in within 10 minutes, or a confirmation since with an
/// e-mailed link or a passkey, which keeps the session.
async fn adding_a_passkey_needs_a_recent_sign_in(app: TestApp) {
    let (ada_id, ada) = member(&app, "ada").await;
    sqlx::query("UPDATE sessions SET user_agent = $1 WHERE user_id = $2")
        .bind(FIREFOX_ON_LINUX)
        .bind(ada_id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let mut laptop = Device::default();

    // Nine minutes after signing in, still; two minutes later, no more.
    app.clock.advance(Duration::from_secs(9 * 60));
    let (_, begun) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    assert!(begun["ceremony"].is_string(), "{begun}");
    app.clock.advance(Duration::from_secs(2 * 60));
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    assert_eq!((status, refused["message"].as_str()), (403, Some(SIGN_IN_AGAIN)), "{refused}");
    // A ceremony begun in time is not finished after it.
    let credential = Device::default().create(&origin(&app), &begun["options"]).await;
    let body = json!({ "ceremony": begun["ceremony"], "name": "Late", "credential": credential });
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/finish", body).await;
    assert_eq!((status, refused["message"].as_str()), (403, Some(SIGN_IN_AGAIN)), "{refused}");

    // An e-mailed link confirms this very session: no new one, and the link works once.
    let token = confirmation_link(&app, &ada, "ada@example.com", 1).await;
    let (status, body) = post(&app, &ada, "/api/auth/reauthenticate/verify", json!({ "token": token })).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(sessions_of(&app, ada_id).await, 1, "the session is confirmed, not replaced");
    let (status, refused) = post(&app, &ada, "/api/auth/reauthenticate/verify", json!({ "token": token })).await;
    assert_eq!((status, refused["message"].as_str()), (400, Some("Invalid or expired link")), "{refused}");
    let (status, added) = add_passkey(&app, &ada, &mut laptop, "Laptop").await;
    assert_eq!(status, 201, "{added}");

    // The notice names the passkey and the browser it came from, and links to Settings.
    let notice = mailbox::nth_mail(&outbox(&app), "ada@example.com", 2).await;
    assert_eq!(notice.subject(), "A passkey was added to your account");
    assert!(notice.decoded.contains("\"Laptop\""), "{}", notice.decoded);
    assert!(notice.decoded.contains("from Firefox 128 on Linux"), "{}", notice.decoded);
    assert!(notice.decoded.contains(&format!("{}settings", origin(&app))), "{}", notice.decoded);

    // Later again, the passkey itself confirms the session.
    app.clock.advance(Duration::from_secs(11 * 60));
    let mut phone = Device::default();
    let (status, refused) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    assert_eq!(status, 403, "{refused}");
    let (status, body) = confirm_with_passkey(&app, &ada, &mut laptop).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(sessions_of(&app, ada_id).await, 1);
    let (status, added) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    assert_eq!(status, 201, "{added}");

    // A visitor has no session to confirm.
    let (status, _) = post(&app, &visitor(&app), "/api/auth/reauthenticate/request-link", json!({})).await;
    assert_eq!(status, 401);
}

async fn another_accounts_passkey_or_link_confirms_nothing(app: TestApp) {
    let (_, ada) = member(&app, "ada").await;
    let (_, bob) = member(&app, "bob").await;
    let mut bobs_phone = Device::default();
    let (status, _) = add_passkey(&app, &bob, &mut bobs_phone, "Bob's phone").await;
    assert_eq!(status, 201);
    app.clock.advance(Duration::from_secs(11 * 60));

    let (status, refused) = confirm_with_passkey(&app, &ada, &mut bobs_phone).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["message"], "This passkey signs in to another account: use one of your own.");
    let bobs_link = confirmation_link(&app, &bob, "bob@example.com", 2).await;
    let (status, refused) = post(&app, &ada, "/api/auth/reauthenticate/verify", json!({ "token": bobs_link })).await;
    assert_eq!((status, refused["message"].as_str()), (400, Some("This link was sent to another account's address.")));
    let (status, _) = post(&app, &ada, "/api/auth/passkeys/register/start", json!({})).await;
    assert_eq!(status, 403, "Ada's session is not confirmed");

    // Bob's link stays unused: it still signs Bob in, in a browser without his session.
    let (status, user) =
        read(visitor(&app).get(app.url(&format!("/api/auth/verify?token={bobs_link}"))).send().await.unwrap()).await;
    assert_eq!((status, &user["username"]), (200, &json!("bob")), "{user}");
}

async fn logging_out_everywhere_can_remove_the_passkeys_too(app: TestApp) {
    let (ada_id, ada) = member(&app, "ada").await;
    let mut phone = Device::default();
    let (status, _) = add_passkey(&app, &ada, &mut phone, "Phone").await;
    assert_eq!(status, 201);
    let logout_others = |body: Option<Value>| {
        let request = ada.post(app.url("/api/auth/logout-others"));
        let request = match body {
            Some(body) => request.json(&body),
            None => request,
        };
        async move { read(request.send().await.unwrap()).await }
    };

    // As the web app calls it without a choice: the passkeys stay, and sign in.
    let (status, body) = logout_others(None).await;
    assert_eq!(status, 204, "{body}");
    let (status, _, _) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 200);
    let (status, body) = logout_others(Some(json!({ "removePasskeys": false }))).await;
    assert_eq!(status, 204, "{body}");
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // A body that is not as expected is refused, and nothing ends.
    let (status, refused) = logout_others(Some(json!({ "removePasskeys": "yes" }))).await;
    assert_eq!(status, 400, "{refused}");
    let (status, refused) = logout_others(Some(json!({ "removePasskey": true }))).await;
    assert_eq!(status, 400, "{refused}");
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed.as_array().unwrap().len(), 1);

    // Asked to, the passkeys go with the other sessions: one added with a copied cookie signs
    // nobody in afterwards.
    let (status, _, elsewhere) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 200);
    let (status, body) = logout_others(Some(json!({ "removePasskeys": true }))).await;
    assert_eq!(status, 204, "{body}");
    let (status, _) = get(&app, &elsewhere, "/api/auth/me").await;
    assert_eq!(status, 401, "the other session ended");
    let (_, listed) = get(&app, &ada, "/api/auth/passkeys").await;
    assert_eq!(listed, json!([]));
    let (status, refused, _) = sign_in(&app, &mut phone).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(sessions_of(&app, ada_id).await, 1, "this session stays");
}

/// An instance reached by an IP address cannot be a relying party: it says so.
async fn passkeys_need_a_domain_name(app: TestApp) {
    let member = app.member("ada").await;
    let (status, refused) =
        read(member.client.post(app.url("/api/auth/passkeys/register/start")).send().await.unwrap()).await;
    assert_eq!(status, 503, "{refused}");
    assert_eq!(refused["message"], "Passkeys need the instance to be reached by a domain name, not an IP address.");
    let (status, _) = read(app.client.post(app.url("/api/auth/passkeys/login/start")).send().await.unwrap()).await;
    assert_eq!(status, 503);
}
