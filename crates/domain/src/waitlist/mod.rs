//! The waitlist: visitors without an invite leave their address and are invited later.

pub(crate) mod store;

use anyhow::Context;

use crate::invites::store as invites;
use crate::mail::{Mailer, templates};
use murmur_core::clock::{Clock, Millis};
use murmur_core::config::Config;
use murmur_core::db::Db;
pub use store::{join, list};

/// `murmur waitlist invite`: e-mails an invite code to the `count` oldest waiting addresses
/// not yet invited; answers how many were invited.
pub async fn invite_oldest(config: &Config, count: u32) -> anyhow::Result<u64> {
    std::fs::create_dir_all(&config.data_dir)?;
    let db = Db::connect(&config.database_url).await?;
    db.migrate().await?;
    let mailer = Mailer::from_config(config)?;
    let invited = invite_oldest_with(&db, &mailer, config, Clock::default().now(), count).await;
    db.close().await;
    invited
}

/// The work of `invite_oldest` on a given database, mailer and time (tests pass the app's).
///
/// Per address: one transaction makes an operator code (7 days) and marks the entry invited;
/// after the commit the e-mail goes out. If it cannot be sent, both are undone (the address
/// waits again, the code is gone) and the run stops, saying how far it got: the mail server
/// is likely down for the rest too.
pub async fn invite_oldest_with(
    db: &Db,
    mailer: &Mailer,
    config: &Config,
    now: Millis,
    count: u32,
) -> anyhow::Result<u64> {
    let link = config.link("/?login=1");
    let mut invited = 0;
    for entry in store::oldest_waiting(&db.read, count).await? {
        let mut tx = db.write.begin().await?;
        if !store::mark_invited(&mut tx, entry.id, now).await? {
            continue; // another run invited this address meanwhile
        }
        let (invite_id, code) = invites::insert_code(&mut *tx, None, now).await?;
        tx.commit().await?;

        let message = templates::waitlist_invite(&entry.email, &code, &link);
        if let Err(e) = mailer.send(message).await {
            let mut tx = db.write.begin().await?;
            store::unmark_invited(&mut tx, entry.id).await?;
            invites::delete_code(&mut tx, invite_id).await?;
            tx.commit().await?;
            return Err(anyhow::anyhow!("{e}")).with_context(|| {
                format!("sending the invite to {} failed after {invited} address(es) were invited", entry.email)
            });
        }
        tracing::info!(email = %entry.email, "waitlist address invited");
        invited += 1;
    }
    Ok(invited)
}
