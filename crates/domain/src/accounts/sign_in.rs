//! Using an e-mailed sign-in link: a sign-up link creates the member, uses up their invite and
//! follows the inviter; a login link logs an existing member in. Either starts a session.

use super::magic_link::{self, INVALID_LINK, Purpose};
use super::{Email, store};
use crate::invites::code::INVALID as INVALID_INVITE;
use crate::invites::store::Claimed;
use crate::sessions;
use murmur_core::clock::Millis;
use murmur_core::db::Db;
use murmur_core::error::{Error, Result};

/// Uses the link `token` from `browser`: answers the member and their new session's token.
/// 400 for a link that is not live, 403 while the member is suspended.
pub async fn use_link(db: &Db, token: &str, browser: sessions::Browser<'_>, now: Millis) -> Result<(i64, String)> {
    // One transaction: using the link, creating the member, using up the invite and starting
    // the session happen together or not at all.
    let mut tx = db.write.begin().await?;
    let link = magic_link::consume(&mut tx, token, magic_link::Use::SignIn, now)
        .await?
        .ok_or_else(|| Error::bad_request(INVALID_LINK))?;
    let user_id = match (store::member_id_by_email(&mut tx, &link.email).await?, link.purpose) {
        // A login link; or a sign-up link for an address that became a member meanwhile (it
        // logs them in and leaves the invite unused). Not while suspended: a link asked for
        // before the suspension stays unused.
        (Some(id), _) => {
            if crate::users::store::is_suspended(&mut tx, id, now).await? {
                return Err(Error::forbidden(crate::users::model::SUSPENDED));
            }
            id
        }
        // A stranger's login link (never sent) or a member who is gone.
        (None, Purpose::Login | Purpose::Email | Purpose::DeleteAccount) => {
            return Err(Error::bad_request(INVALID_LINK));
        }
        (None, Purpose::Signup) => {
            let code = link.invite_code.as_deref().ok_or_else(|| Error::bad_request(INVALID_LINK))?;
            let email = Email::parse(&link.email)?;
            let id = store::create_member(&mut tx, db.backend, &email, now).await?;
            // The conditional update decides which of several sign-ups with one code wins;
            // the losers roll back, member row included.
            let inviter = match crate::invites::store::claim(&mut tx, code, id, now).await? {
                Some(Claimed::From(owner)) => Some(owner),
                Some(Claimed::FromTheInstance) => None,
                None => return Err(Error::bad_request(INVALID_INVITE)),
            };
            store::set_invited_by(&mut tx, id, inviter).await?;
            if let Some(inviter) = inviter {
                crate::follows::writes::follow_inviter(&mut tx, id, inviter, now).await?;
            }
            id
        }
    };
    let session_token = sessions::create_in_browser(&mut *tx, user_id, browser, now).await?;
    tx.commit().await?;
    Ok((user_id, session_token))
}

/// What a member reads about someone else's login link used to confirm their session.
pub const ANOTHER_ACCOUNTS_LINK: &str = "This link was sent to another account's address.";

/// Uses the login link `token` to confirm that `session` is still its member's: the link must
/// have been sent to that member's address. The session's sign-in becomes now
/// (`sessions::RECENT_SIGN_IN`). 400 for a link that is not live or is another account's (it
/// stays unused).
pub async fn reauthenticate_with_link(db: &Db, token: &str, session: sessions::Current<'_>, now: Millis) -> Result<()> {
    let mut tx = db.write.begin().await?;
    let link = magic_link::consume(&mut tx, token, magic_link::Use::SignIn, now)
        .await?
        .filter(|link| link.purpose == Purpose::Login)
        .ok_or_else(|| Error::bad_request(INVALID_LINK))?;
    // Returning before the commit rolls the use back: the link still signs its owner in.
    if store::member_id_by_email(&mut tx, &link.email).await? != Some(session.member) {
        return Err(Error::bad_request(ANOTHER_ACCOUNTS_LINK));
    }
    if !sessions::reauthenticated(&mut tx, session.hash, now).await? {
        return Err(Error::Unauthorized);
    }
    tx.commit().await?;
    Ok(())
}

/// What logging out everywhere does with the member's passkeys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passkeys {
    Keep,
    /// Removed too: a passkey someone added with a copied session would sign them in again.
    Remove,
}

/// Logs a member out everywhere but the session `keep_hash`: every other session and every
/// app's token end, and their passkeys too when asked, in one transaction. Answers how many
/// sessions ended.
pub async fn log_out_everywhere(db: &Db, member: i64, keep_hash: &str, passkeys: Passkeys) -> Result<u64> {
    let mut tx = db.write.begin().await?;
    let ended = sessions::delete_others(&mut tx, member, keep_hash).await?;
    if passkeys == Passkeys::Remove {
        crate::passkeys::store::remove_all_of(&mut tx, member).await?;
    }
    tx.commit().await?;
    Ok(ended)
}
