//! Settings, from flags and the environment (clap with `env`). Every subcommand shares the
//! storage settings so an operator can point any of them at a running instance's data.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use clap::Args;
use ipnet::IpNet;
use url::Url;

use crate::db::{DbOptions, Pooler};

/// How long a Friends page is kept by default (`--feed-cache-seconds`).
pub const FEED_CACHE_SECONDS: u32 = 5;
/// Memory for the kept Friends pages by default, in MiB (`--feed-cache-mb`): about 4,000 pages.
pub const FEED_CACHE_MB: u32 = 64;

/// Where the data lives; taken by every subcommand.
#[derive(Args, Clone, Debug)]
pub struct StorageArgs {
    /// Directory for the SQLite database, the mail outbox, local media and the server secret.
    #[arg(long, env = "MURMUR_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Database URL: unset means SQLite at <data-dir>/murmur.db; a postgres:// URL means PostgreSQL.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,
}

impl StorageArgs {
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) if !url.is_empty() => url.clone(),
            _ => format!("sqlite://{}?mode=rwc", self.data_dir.join("murmur.db").display()),
        }
    }
}

/// Settings of a serving instance (and of commands that send mail or make links).
#[derive(Args, Clone, Debug)]
pub struct ServerArgs {
    #[command(flatten)]
    pub storage: StorageArgs,
    /// The public base URL people reach Murmur at (links in e-mails, cookie security, origin checks).
    #[arg(long, env = "MURMUR_PUBLIC_URL", default_value = "http://localhost:8080")]
    pub public_url: Url,
    /// SMTP server for outgoing mail, e.g. smtp://user:pass@host:587 (STARTTLS),
    /// smtps://… (TLS), smtp://host:25?tls=none (plain). Unset: mail is written to <data-dir>/outbox.
    #[arg(long, env = "SMTP_URL")]
    pub smtp_url: Option<String>,
    /// Sender of outgoing mail.
    #[arg(long, env = "MAIL_FROM", default_value = "Murmur <no-reply@localhost>")]
    pub mail_from: String,
    /// Media storage: unset means <data-dir>/media; s3://bucket uses an S3-compatible bucket
    /// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL).
    #[arg(long, env = "MURMUR_STORAGE_URL")]
    pub storage_url: Option<String>,
    /// Server secret for signing local upload URLs; unset means a random one kept in <data-dir>/secret.
    #[arg(long, env = "MURMUR_SECRET", hide_env_values = true)]
    pub secret: Option<String>,
    /// Endpoint of an S3-compatible service for s3:// storage, e.g. https://minio.example:9000
    /// (path-style requests); unset means AWS_ENDPOINT_URL or AWS itself.
    #[arg(long, env = "MURMUR_S3_ENDPOINT")]
    pub s3_endpoint: Option<String>,
    /// Seconds a member's Friends page is kept ready in this process and answered again while
    /// nothing of theirs changed: others' likes, replies and deletions on it show after at
    /// most this long (docs/feeds.md). 0 keeps nothing.
    #[arg(long, env = "MURMUR_FEED_CACHE_SECONDS", default_value_t = FEED_CACHE_SECONDS)]
    pub feed_cache_seconds: u32,
    /// Memory for those kept pages, in MiB (about 17 KB a page). 0 keeps nothing.
    #[arg(long, env = "MURMUR_FEED_CACHE_MB", default_value_t = FEED_CACHE_MB)]
    pub feed_cache_mb: u32,
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name the client, for the
    /// per-network limits and the logs: addresses and CIDR ranges, comma-separated, e.g.
    /// `127.0.0.1,::1`. Unset: the TCP peer is the client, and those headers are ignored.
    #[arg(long, env = "MURMUR_TRUSTED_PROXIES", value_parser = TrustedProxies::parse)]
    pub trusted_proxies: Option<TrustedProxies>,
    /// Where to serve `/metrics` (Prometheus text format), e.g. `127.0.0.1:9090`: an address of
    /// its own, so metrics are never public by accident. Unset: no metrics.
    #[arg(long, env = "MURMUR_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,
    /// Addresses and CIDR ranges that Murmur's outgoing requests (Web Push) may reach although
    /// they are private, loopback or link-local, and only where plain http is allowed: e.g. an
    /// internal push relay, `10.0.0.7,fd00::/8`. Empty by default: only public https.
    #[arg(long, env = "MURMUR_OUTBOUND_ALLOW", value_parser = AddressRanges::parse)]
    pub outbound_allow: Option<AddressRanges>,
    /// The instance's VAPID private key for Web Push (base64url of the P-256 private key). Unset:
    /// one is made once and kept in the database for every process (docs/push.md).
    #[arg(long, env = "MURMUR_VAPID_PRIVATE_KEY", hide_env_values = true)]
    pub vapid_private_key: Option<String>,
    /// What stands between Murmur and PostgreSQL: `pgbouncer` for PgBouncer in transaction
    /// mode (every use of a connection is one transaction, no prepared statements kept).
    #[arg(long, env = "DATABASE_POOLER", value_enum, default_value_t = Pooler::None)]
    pub database_pooler: Pooler,
    /// A direct PostgreSQL URL (not through a pooler) for the live events' `LISTEN` and for
    /// migrations; the database URL when unset.
    #[arg(long, env = "DATABASE_LISTEN_URL")]
    pub database_listen_url: Option<String>,
    /// PostgreSQL hot standbys for the reads that may be a moment old, comma-separated.
    #[arg(long, env = "DATABASE_REPLICA_URL", value_delimiter = ',', hide_env_values = true)]
    pub database_replica_url: Vec<String>,
    /// Whether the first link of a post gets a preview card, read in the background from the
    /// linked page through the outbound guard (docs/discovery.md). false: nothing is fetched.
    #[arg(long, env = "MURMUR_LINK_PREVIEWS", default_value_t = true, action = clap::ArgAction::Set)]
    pub link_previews: bool,
    /// The instance's Terms of Service, an http(s) page of the operator's: `/terms` (linked from
    /// the sign-up dialog) leads there. Unset: Murmur's plain default page.
    #[arg(long, env = "MURMUR_TERMS_URL", value_parser = web_page)]
    pub terms_url: Option<Url>,
    /// The instance's Privacy Policy, as `--terms-url`: `/privacy` leads there. Unset: Murmur's
    /// plain default page.
    #[arg(long, env = "MURMUR_PRIVACY_URL", value_parser = web_page)]
    pub privacy_url: Option<Url>,
}

/// An http(s) page, for the flags that name one.
fn web_page(value: &str) -> Result<Url, String> {
    let url = Url::parse(value).map_err(|e| format!("not a URL: {e}"))?;
    match url.scheme() {
        "http" | "https" => Ok(url),
        other => Err(format!("must be an http or https page, not {other}:")),
    }
}

/// Where `/terms` and `/privacy` lead: the operator's own pages, or (None) Murmur's defaults.
#[derive(Clone, Debug, Default)]
pub struct LegalPages {
    pub terms: Option<Url>,
    pub privacy: Option<Url>,
}

/// The running application's configuration, built from the flags (or directly by tests).
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub database_url: String,
    pub public_url: Url,
    pub smtp_url: Option<String>,
    pub mail_from: String,
    pub storage_url: Option<String>,
    pub secret: Option<String>,
    /// Bucket settings beyond the AWS_* environment (endpoint, and for tests credentials).
    pub s3: S3Settings,
    /// Address to listen on; port 0 picks a free one (tests).
    pub addr: SocketAddr,
    /// How long, and in how many bytes, Friends pages are kept ready (`feeds::cache`).
    pub feed_cache: FeedCacheSettings,
    /// Whose forwarding headers name the client (`client_ip`).
    pub trusted_proxies: TrustedProxies,
    /// Where `/metrics` is served, as bound (port 0 asks for any free one); None: nowhere
    /// (`metrics`).
    pub metrics_addr: Option<SocketAddr>,
    /// Where outgoing requests may go beyond public addresses (`murmur_server::outbound`).
    pub outbound_allow: AddressRanges,
    /// The operator's VAPID private key; None: the one kept in the database (`push`).
    pub vapid_private_key: Option<String>,
    /// A pooler, the direct URL and the replicas (PostgreSQL).
    pub database: DbOptions,
    /// Link preview cards' fetching (`murmur_server::link_cards`).
    pub link_previews: LinkPreviewSettings,
    /// The Terms of Service and Privacy Policy the operator set.
    pub legal: LegalPages,
}

/// How link preview cards are fetched: `--link-previews`, and the waits, which tests shorten.
#[derive(Clone, Copy, Debug)]
pub struct LinkPreviewSettings {
    /// False: no card is fetched (`--link-previews=false`).
    pub enabled: bool,
    /// Each fetch waits a random time up to this first, so one popular link does not send a
    /// burst of requests to its site.
    pub delay_max: std::time::Duration,
    /// How long a whole fetch of a page (or its image) may take.
    pub timeout: std::time::Duration,
}

impl Default for LinkPreviewSettings {
    fn default() -> Self {
        LinkPreviewSettings {
            enabled: true,
            delay_max: std::time::Duration::from_secs(3),
            timeout: std::time::Duration::from_secs(10),
        }
    }
}

/// `--feed-cache-seconds` and `--feed-cache-mb`, in the units the cache uses.
#[derive(Clone, Copy, Debug)]
pub struct FeedCacheSettings {
    pub keep_for: crate::clock::Millis,
    pub bytes: u64,
}

impl FeedCacheSettings {
    pub fn new(seconds: u32, megabytes: u32) -> Self {
        FeedCacheSettings { keep_for: i64::from(seconds) * crate::clock::SECOND, bytes: u64::from(megabytes) << 20 }
    }
}

impl Default for FeedCacheSettings {
    fn default() -> Self {
        FeedCacheSettings::new(FEED_CACHE_SECONDS, FEED_CACHE_MB)
    }
}

impl Config {
    pub fn from_args(args: &ServerArgs, addr: SocketAddr) -> Self {
        Config {
            data_dir: args.storage.data_dir.clone(),
            database_url: args.storage.database_url(),
            public_url: args.public_url.clone(),
            smtp_url: args.smtp_url.clone().filter(|s| !s.is_empty()),
            mail_from: args.mail_from.clone(),
            storage_url: args.storage_url.clone().filter(|s| !s.is_empty()),
            secret: args.secret.clone().filter(|s| !s.is_empty()),
            s3: S3Settings { endpoint: args.s3_endpoint.clone().filter(|s| !s.is_empty()), ..Default::default() },
            addr,
            feed_cache: FeedCacheSettings::new(args.feed_cache_seconds, args.feed_cache_mb),
            trusted_proxies: args.trusted_proxies.clone().unwrap_or_default(),
            metrics_addr: args.metrics_addr,
            outbound_allow: args.outbound_allow.clone().unwrap_or_default(),
            vapid_private_key: args.vapid_private_key.clone().filter(|s| !s.is_empty()),
            database: DbOptions {
                pooler: args.database_pooler,
                listen_url: args.database_listen_url.clone().filter(|s| !s.is_empty()),
                replica_urls: args.database_replica_url.iter().filter(|s| !s.is_empty()).cloned().collect(),
            },
            link_previews: LinkPreviewSettings { enabled: args.link_previews, ..Default::default() },
            legal: LegalPages { terms: args.terms_url.clone(), privacy: args.privacy_url.clone() },
        }
    }

    /// True when people reach Murmur over https: cookies get `Secure` and the `__Host-` prefix.
    pub fn is_https(&self) -> bool {
        self.public_url.scheme() == "https"
    }

    /// The public URL's origin, e.g. `https://murmur.example` (no trailing slash).
    pub fn public_origin(&self) -> String {
        self.public_url.origin().ascii_serialization()
    }

    /// An absolute link to a path of the web app.
    pub fn link(&self, path_and_query: &str) -> String {
        format!("{}{}", self.public_origin(), path_and_query)
    }
}

/// The storage settings for S3-compatible buckets beyond the AWS_* environment.
#[derive(Clone, Debug, Default)]
pub struct S3Settings {
    /// Endpoint of an S3-compatible service, e.g. `https://minio.example:9000`
    /// (path-style requests; plain http allowed when the endpoint says so).
    pub endpoint: Option<String>,
    pub region: Option<String>,
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<String>,
}

/// The reverse proxies whose forwarding headers are believed: addresses and CIDR ranges.
pub type TrustedProxies = AddressRanges;

/// Addresses and CIDR ranges, as `--trusted-proxies` and `--outbound-allow` take them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddressRanges(Vec<IpNet>);

impl AddressRanges {
    /// Addresses (`127.0.0.1`, `::1`) and CIDR ranges (`10.0.0.0/8`, `fd00::/8`),
    /// comma-separated; empty means none.
    pub fn parse(list: &str) -> Result<AddressRanges, String> {
        let entries = list.split(',').map(str::trim).filter(|entry| !entry.is_empty());
        entries.map(parse_entry).collect::<Result<_, _>>().map(AddressRanges)
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(&ip))
    }
}

fn parse_entry(entry: &str) -> Result<IpNet, String> {
    entry
        .parse::<IpNet>()
        .map(|range| range.trunc())
        .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
        .map_err(|_| format!("`{entry}` is not an IP address or CIDR range (e.g. 127.0.0.1, ::1, 10.0.0.0/8)"))
}
