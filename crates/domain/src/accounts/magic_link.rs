//! Magic links: a 256-bit token from the OS CSPRNG, e-mailed as a link; the database keeps
//! only its SHA-256, so a leaked database holds no working link. A link is valid for 15
//! minutes and works once. Links log in, sign up, confirm a member's new address, or confirm
//! deleting an account; each use takes only the purposes it is for (`consume`).

use sqlx::AnyConnection;

use crate::mail::{Email, Mailer};
use murmur_core::clock::{MINUTE, Millis};
use murmur_core::config::Config;
use murmur_core::db::Pool;
use murmur_core::error::Result;
use murmur_core::secrets::{hash_token, random_token};

/// What a person reads about a link that is not (or no longer) live.
pub const INVALID_LINK: &str = "Invalid or expired link";

pub const LIFETIME: Millis = 15 * MINUTE;

/// What following the link does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Creates the member (with the invite code stored beside it), then logs them in.
    Signup,
    /// Logs a member in.
    Login,
    /// Makes the address the link was sent to the address of the member who asked
    /// (`email_change`); never logs anyone in.
    Email,
    /// Confirms that the member asked to delete their account (`accounts::leaving`); it opens
    /// a screen that asks once more, and logs nobody in.
    DeleteAccount,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::Signup => "signup",
            Purpose::Login => "login",
            Purpose::Email => "email",
            Purpose::DeleteAccount => "delete_account",
        }
    }

    fn parse(stored: &str) -> Purpose {
        match stored {
            "signup" => Purpose::Signup,
            "email" => Purpose::Email,
            "delete_account" => Purpose::DeleteAccount,
            _ => Purpose::Login,
        }
    }
}

/// What a use of a link accepts: the verify call signs up or logs in, the address change
/// confirms an address, the deletion's confirmation deletes; none takes another's links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    SignIn,
    EmailChange,
    DeleteAccount,
}

impl Use {
    /// The SQL condition on `purpose` (ours, never input).
    fn purposes(self) -> &'static str {
        match self {
            Use::SignIn => "purpose IN ('signup', 'login')",
            Use::EmailChange => "purpose = 'email'",
            Use::DeleteAccount => "purpose = 'delete_account'",
        }
    }
}

/// A link that has just been used.
#[derive(Debug)]
pub struct UsedLink {
    pub email: String,
    pub purpose: Purpose,
    pub invite_code: Option<String>,
    /// The member an `Email` link is for (None for the others).
    pub member: Option<i64>,
}

/// A link that was stored and can be e-mailed.
#[derive(Debug)]
pub struct IssuedLink {
    pub token_hash: String,
    pub url: String,
}

/// Stores a new link (after removing expired ones) and answers its URL:
/// `<public URL>/auth/verify?token=…` (and `&invite=CODE` for sign-up), or, to delete an
/// account, `<public URL>/account/delete?token=…`.
pub async fn issue(
    write: &Pool,
    config: &Config,
    email: &str,
    purpose: Purpose,
    invite_code: Option<&str>,
    now: Millis,
) -> Result<IssuedLink> {
    let (token, token_hash) = store(write, email, purpose, invite_code, None, now).await?;
    // The token is URL-safe base64 and the code A–Z0–9: nothing to escape.
    let url = match (purpose, invite_code) {
        (Purpose::DeleteAccount, _) => config.link(&format!("/account/delete?token={token}")),
        (_, Some(code)) => config.link(&format!("/auth/verify?token={token}&invite={code}")),
        (_, None) => config.link(&format!("/auth/verify?token={token}")),
    };
    Ok(IssuedLink { token_hash, url })
}

/// Stores a new login link for a signed-in member to confirm it is them (adding a passkey asks
/// for a recent sign-in), and answers its URL: `<public URL>/auth/reauthenticate?token=…`, a page
/// that confirms the browser's session, or signs the browser in like any login link.
pub async fn issue_reauthentication(write: &Pool, config: &Config, email: &str, now: Millis) -> Result<IssuedLink> {
    let (token, token_hash) = store(write, email, Purpose::Login, None, None, now).await?;
    Ok(IssuedLink { token_hash, url: config.link(&format!("/auth/reauthenticate?token={token}")) })
}

impl IssuedLink {
    /// The link, leading on to `next` once the member is signed in (`&next=…`, which the web
    /// app checks again before it goes there).
    pub fn leading_to(mut self, next: Option<&ReturnPath>) -> IssuedLink {
        if let Some(next) = next {
            let encoded: String = url::form_urlencoded::byte_serialize(next.as_str().as_bytes()).collect();
            self.url = format!("{}&next={encoded}", self.url);
        }
        self
    }
}

/// The longest page a sign-in link leads on to.
pub const RETURN_PATH_MAX: usize = 512;

const NOT_A_RETURN_PATH: &str = "next must be a page of this site, such as /post/42";

/// A page of this site a member goes to once signed in (the shared post they opened): a path
/// that starts with one `/`, never `//` (another site), a backslash (which browsers read as `/`),
/// a scheme, spaces or control characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReturnPath(String);

impl ReturnPath {
    pub fn parse(input: &str) -> Result<ReturnPath> {
        let plain = input.len() <= RETURN_PATH_MAX
            && input.starts_with('/')
            && !input.contains("//")
            && !input.contains('\\')
            && input.bytes().all(|b| b.is_ascii_graphic());
        // However a browser reads it, it stays on this site.
        let base = url::Url::parse("https://murmur.invalid/").expect("a URL");
        let same_site = plain && base.join(input).is_ok_and(|joined| joined.origin() == base.origin());
        if !same_site {
            return Err(murmur_core::error::Error::bad_request(NOT_A_RETURN_PATH));
        }
        Ok(ReturnPath(input.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Stores a new link that makes `new_email` the address of `member`, and answers its URL:
/// `<public URL>/auth/confirm-email?token=…` (a page of its own: following it changes an
/// address, it does not log in).
pub async fn issue_email_change(
    write: &Pool,
    config: &Config,
    member: i64,
    new_email: &str,
    now: Millis,
) -> Result<IssuedLink> {
    let (token, token_hash) = store(write, new_email, Purpose::Email, None, Some(member), now).await?;
    Ok(IssuedLink { token_hash, url: config.link(&format!("/auth/confirm-email?token={token}")) })
}

/// Stores a new link (after removing expired ones); answers its token and the token's hash.
async fn store(
    write: &Pool,
    email: &str,
    purpose: Purpose,
    invite_code: Option<&str>,
    member: Option<i64>,
    now: Millis,
) -> Result<(String, String)> {
    // Expired links are of no use to anyone; removing them here keeps the table small
    // without a separate job (the index on expires_at makes it cheap).
    prune(write, now).await?;
    let token = random_token();
    let token_hash = hash_token(&token);
    sqlx::query(
        "INSERT INTO magic_links (token_hash, email, purpose, invite_code, created_at, expires_at, user_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&token_hash)
    .bind(email)
    .bind(purpose.as_str())
    .bind(invite_code)
    .bind(now)
    .bind(now + LIFETIME)
    .bind(member)
    .execute(write)
    .await?;
    Ok((token, token_hash))
}

impl IssuedLink {
    /// E-mails the link; when it cannot be sent, withdraws it (nothing half-done remains) and
    /// answers the failure, which the person is told so they ask again.
    pub async fn send(&self, write: &Pool, mailer: &Mailer, email: impl FnOnce(&str) -> Email) -> Result<()> {
        if let Err(e) = mailer.send_link(email(&self.url), &self.url).await {
            withdraw(write, &self.token_hash).await?;
            return Err(e);
        }
        Ok(())
    }

    /// E-mails the link from a task of its own, so the answer does not wait for the mail server
    /// (and takes as long whether or not a link is sent). A failure cannot be told to the
    /// person: it is logged and the link withdrawn, and the person asks again.
    pub fn send_later(self, write: Pool, mailer: Mailer, email: impl FnOnce(&str) -> Email + Send + 'static) {
        tokio::spawn(async move {
            if let Err(e) = self.send(&write, &mailer, email).await {
                tracing::warn!(error = %e, "a link could not be e-mailed; it was withdrawn");
            }
        });
    }
}

/// Removes a link that could not be sent, so nothing half-done remains.
pub async fn withdraw(write: &Pool, token_hash: &str) -> Result<()> {
    sqlx::query("DELETE FROM magic_links WHERE token_hash = $1").bind(token_hash).execute(write).await?;
    Ok(())
}

/// Uses a link: answers it when it exists, is for this use, is unused and unexpired, and marks
/// it used. One conditional statement, so of two concurrent uses exactly one gets the row. Run
/// it in the transaction that acts on the link: if that rolls back, the link is unused again.
pub async fn consume(conn: &mut AnyConnection, token: &str, what: Use, now: Millis) -> Result<Option<UsedLink>> {
    let sql = format!(
        "UPDATE magic_links SET used_at = $1 \
         WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 AND {} \
         RETURNING email, purpose, invite_code, user_id",
        what.purposes()
    );
    let row: Option<(String, String, Option<String>, Option<i64>)> =
        sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(now).bind(hash_token(token)).fetch_optional(conn).await?;
    Ok(row.map(|(email, purpose, invite_code, member)| UsedLink {
        email,
        purpose: Purpose::parse(&purpose),
        invite_code,
        member,
    }))
}

/// Removes a member's unused address-change links (once one of them changed the address, the
/// others would change it back or to a third), in the caller's transaction.
pub async fn withdraw_email_changes(conn: &mut AnyConnection, member: i64) -> Result<()> {
    sqlx::query("DELETE FROM magic_links WHERE user_id = $1 AND purpose = 'email' AND used_at IS NULL")
        .bind(member)
        .execute(conn)
        .await?;
    Ok(())
}

/// True when a string can be a token we issued (43 characters of URL-safe base64); anything
/// else is refused without a query.
pub fn is_well_formed(token: &str) -> bool {
    murmur_core::secrets::is_token(token)
}

/// Removes every link of an address (a deleted account's pending links), in the caller's
/// transaction.
pub async fn remove_all_of(conn: &mut AnyConnection, email: &str) -> Result<()> {
    sqlx::query("DELETE FROM magic_links WHERE email = $1").bind(email).execute(conn).await?;
    Ok(())
}

/// Removes links that expired (used or not); they can never be used again.
pub async fn prune(write: &Pool, now: Millis) -> Result<u64> {
    let done = sqlx::query("DELETE FROM magic_links WHERE expires_at <= $1").bind(now).execute(write).await?;
    Ok(done.rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_return_path_is_a_page_of_this_site() {
        for good in ["/post/42", "/profile/ada?tab=likes", "/tag/caf%C3%A9", "/"] {
            assert_eq!(ReturnPath::parse(good).map(|p| p.as_str().to_string()).ok().as_deref(), Some(good));
        }
        for bad in [
            "//evil.example",
            "//evil.example/post/1",
            "/\\evil.example",
            "\\\\evil.example",
            "https://evil.example/",
            "javascript:alert(1)",
            "post/42",
            "",
            "/post/42 x",
            "/post/\n42",
            "/a//b",
        ] {
            assert!(ReturnPath::parse(bad).is_err(), "{bad:?}");
        }
        assert!(ReturnPath::parse(&format!("/{}", "a".repeat(RETURN_PATH_MAX))).is_err());
    }

    #[test]
    fn a_link_leads_on_to_its_page_encoded() {
        let link = IssuedLink { token_hash: String::new(), url: "https://m.example/auth/verify?token=t".into() };
        let next = ReturnPath::parse("/profile/ada?tab=likes").unwrap();
        assert_eq!(
            link.leading_to(Some(&next)).url,
            "https://m.example/auth/verify?token=t&next=%2Fprofile%2Fada%3Ftab%3Dlikes"
        );
    }

    #[test]
    fn only_token_shaped_strings_are_looked_up() {
        assert!(is_well_formed(&random_token()));
        assert!(!is_well_formed(""));
        assert!(!is_well_formed(&"a".repeat(44)));
        assert!(!is_well_formed(&format!("{}=", "a".repeat(42))));
    }
}
