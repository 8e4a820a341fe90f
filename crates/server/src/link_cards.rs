//! Fetching link preview cards (docs/discovery.md, "Link preview cards"): the background job's
//! work, never a request's. Each due card is claimed by one process (`link_cards::claim_due`), waits
//! a random moment (so one popular link does not send a burst to its site), then its page is
//! read through the outbound guard (http or https on their standard ports, every address and
//! redirect checked, `PAGE_LIMIT` bytes at most, `text/html` only), and its image fetched the
//! same way and checked and stored like an upload. A page that cannot be read, or has no title,
//! leaves the card empty until its next refresh; an image that fails leaves the card without one.

use std::time::Duration;

use rand::Rng as _;
use url::Url;

use crate::outbound::{Fetch, Outbound};
use murmur_core::clock::Clock;
use murmur_core::config::LinkPreviewSettings;
use murmur_core::db::Db;
use murmur_core::error::Result;
use murmur_domain::link_cards::extract::{self, PageCard};
use murmur_domain::link_cards::{self, Claimed, Found};
use murmur_domain::media::MediaStore;

/// The most of a page that is read; a card is made of what was read (its `<head>` comes first).
pub const PAGE_LIMIT: usize = 1024 * 1024;
/// Redirects followed to the page or its image; one more is refused.
pub const REDIRECTS: usize = 3;

/// What the link cards job needs.
#[derive(Clone)]
pub struct LinkCardJob {
    pub db: Db,
    pub media: MediaStore,
    pub outbound: Outbound,
    pub clock: Clock,
    pub settings: LinkPreviewSettings,
    /// Tells the authors of new posts that their card came.
    pub live: murmur_domain::live::Live,
}

/// Fetches every due card, `BATCH` at a time, until none is left.
pub async fn fetch_due(job: &LinkCardJob) -> Result<()> {
    loop {
        let claimed = link_cards::claim_due(&job.db.write, job.clock.now(), murmur_domain::link_cards::BATCH).await?;
        if claimed.is_empty() {
            return Ok(());
        }
        for fetched in futures::future::join_all(claimed.iter().map(|claimed| fetch_one(job, claimed))).await {
            fetched?;
        }
    }
}

async fn fetch_one(job: &LinkCardJob, claimed: &Claimed) -> Result<()> {
    let max = job.settings.delay_max.as_millis() as u64;
    if max > 0 {
        let delay = rand::rng().random_range(0..=max);
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    let found = match read_page(job, &claimed.url).await {
        Some(card) => {
            let image = match &card.image_url {
                Some(url) => keep_image(job, url.clone()).await,
                None => None,
            };
            Found {
                title: Some(card.title),
                description: card.description,
                site_name: card.site_name,
                image: image.map(|(id, content_type)| (id, content_type.to_string())),
            }
        }
        None => Found::default(),
    };
    let saved = link_cards::save(&job.db.write, claimed, &found, job.clock.now()).await?;
    // A new link's card: its posts' authors had them without it.
    if saved && claimed.fetched_at.is_none() && found.title.is_some() {
        for (post, author) in murmur_domain::link_cards::first_fetched(&job.db, claimed.id).await? {
            job.live.publish(murmur_domain::live::Change::CardFetched { author, post });
        }
    }
    // The image no card names any more: the new one when another process took the card over
    // meanwhile, else the one the card had.
    let unused = if saved { claimed.image_media_id.clone() } else { found.image.map(|(id, _)| id) };
    if let Some(id) = unused
        && let Err(e) = job.media.delete_all(&id).await
    {
        tracing::warn!(media_id = %id, error = %e, "could not delete a link card's old image");
    }
    Ok(())
}

fn page_fetch(settings: &LinkPreviewSettings) -> Fetch {
    Fetch {
        body_limit: PAGE_LIMIT,
        timeout: settings.timeout,
        redirects: REDIRECTS,
        plain_http: true,
        accept: "text/html,application/xhtml+xml;q=0.9",
    }
}

/// The card the page at `url` makes, if it can be read and has a title.
async fn read_page(job: &LinkCardJob, url: &str) -> Option<PageCard> {
    let url: Url = url.parse().ok()?;
    let (final_url, answer) = match job.outbound.get(url, &page_fetch(&job.settings)).await {
        Ok(got) => got,
        Err(e) => {
            tracing::info!(error = %e, "a link's page was not read; no card");
            return None;
        }
    };
    if !(200..300).contains(&answer.status) {
        tracing::info!(status = answer.status, "a link's page answered no page; no card");
        return None;
    }
    if !is_html(&answer.headers) {
        tracing::info!("a link's page is not HTML; no card");
        return None;
    }
    // Pages that are not UTF-8 are rare; their tags are ASCII, and their text is read as well
    // as it can be.
    let html = String::from_utf8_lossy(&answer.body);
    extract::page_card(&html, &final_url)
}

fn is_html(headers: &reqwest::header::HeaderMap) -> bool {
    let Some(content_type) = headers.get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("text/html") || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

/// The card's image, fetched (at most an upload's size), checked and stored; None when it could
/// not be, which leaves the card without an image.
async fn keep_image(job: &LinkCardJob, url: Url) -> Option<(String, &'static str)> {
    let fetch = Fetch { body_limit: murmur_domain::media::MAX_BYTES, accept: "image/*", ..page_fetch(&job.settings) };
    let answer = match job.outbound.get(url, &fetch).await {
        Ok((_, answer)) if (200..300).contains(&answer.status) && !answer.cut => answer,
        Ok((_, answer)) => {
            tracing::info!(status = answer.status, too_large = answer.cut, "a link card's image was not kept");
            return None;
        }
        Err(e) => {
            tracing::info!(error = %e, "a link card's image was not fetched");
            return None;
        }
    };
    match murmur_domain::media::keep_fetched(&job.media, answer.body.into()).await {
        Ok(kept) => Some(kept),
        Err(e) => {
            tracing::info!(error = %e, "a link card's image did not pass the image checks");
            None
        }
    }
}
