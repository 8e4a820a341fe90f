//! Outgoing e-mail: through SMTP when `SMTP_URL` is set, otherwise written as .eml files to
//! `<data-dir>/outbox/` (so a person trying Murmur locally can log in with nothing set up).
//! The messages themselves are in `templates`.

pub mod templates;

use std::path::PathBuf;

use anyhow::Context;
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use murmur_core::config::Config;
use murmur_core::error::{Error, Result};

/// One message: a subject, a plain-text part and an HTML part.
pub struct Email {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

#[derive(Clone)]
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

#[derive(Clone)]
enum Transport {
    Outbox(PathBuf),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

impl Mailer {
    pub fn from_config(config: &Config) -> anyhow::Result<Mailer> {
        let from: Mailbox = config.mail_from.parse().context("MAIL_FROM is not a valid address")?;
        let transport = match &config.smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .context("SMTP_URL is not a valid smtp:// or smtps:// URL")?
                    .timeout(Some(std::time::Duration::from_secs(15)))
                    .build(),
            ),
            None => Transport::Outbox(config.data_dir.join("outbox")),
        };
        Ok(Mailer { from, transport })
    }

    /// True when mail goes to the local outbox folder instead of a mail server.
    pub fn is_outbox(&self) -> bool {
        matches!(self.transport, Transport::Outbox(_))
    }

    /// Connects to the mail server and says hello (`health`); the outbox needs no check.
    pub async fn probe(&self) -> std::result::Result<(), String> {
        match &self.transport {
            Transport::Outbox(_) => Ok(()),
            Transport::Smtp(smtp) => match smtp.test_connection().await {
                Ok(true) => Ok(()),
                Ok(false) => Err("The mail server did not accept a connection".to_string()),
                Err(e) => Err(format!("The mail server cannot be reached: {e}")),
            },
        }
    }

    /// Sends a message that carries a link (a login or sign-up link, an invite). In outbox mode
    /// the link is also logged, so someone trying Murmur locally can follow it from the log.
    /// Through SMTP it is not: a link is a credential and logs are read by more people.
    pub async fn send_link(&self, email: Email, link: &str) -> Result<()> {
        let to = email.to.clone();
        let subject = email.subject.clone();
        self.send(email).await?;
        if self.is_outbox() {
            tracing::info!(%to, %subject, %link, "e-mail with a link written to the outbox");
        }
        Ok(())
    }

    /// Sends (or files) one message. A mail server that cannot be reached answers 503, so the
    /// person is told to try again.
    pub async fn send(&self, email: Email) -> Result<()> {
        let to: Mailbox = email.to.parse().map_err(|_| Error::bad_request("Please enter a valid email address."))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(email.subject)
            .multipart(MultiPart::alternative_plain_html(email.text, email.html))
            .map_err(|e| Error::Internal(anyhow::anyhow!("building an e-mail: {e}")))?;
        match &self.transport {
            Transport::Outbox(dir) => {
                tokio::fs::create_dir_all(dir).await.context("creating the outbox")?;
                let name = format!(
                    "{}-{}.eml",
                    chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ"),
                    hex::encode(murmur_core::secrets::random_bytes::<4>())
                );
                let path = dir.join(&name);
                // Written under a temporary name and renamed, so a reader of the outbox never
                // sees half a message.
                let partial = dir.join(format!(".{name}.partial"));
                tokio::fs::write(&partial, message.formatted()).await.context("writing to the outbox")?;
                tokio::fs::rename(&partial, &path).await.context("writing to the outbox")?;
                tracing::info!(path = %path.display(), "e-mail written to the outbox");
                murmur_core::metrics::email(true);
                Ok(())
            }
            Transport::Smtp(smtp) => match smtp.send(message).await {
                Ok(_) => {
                    murmur_core::metrics::email(true);
                    Ok(())
                }
                Err(e) => {
                    tracing::error!(error = %e, "sending e-mail failed");
                    murmur_core::metrics::email(false);
                    Err(Error::Unavailable(
                        "We could not send the email right now. Please try again in a few minutes.".into(),
                    ))
                }
            },
        }
    }
}
