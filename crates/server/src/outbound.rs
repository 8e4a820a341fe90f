//! Every outgoing request of Murmur to a URL someone else chose (a push subscription's endpoint
//! today): a security boundary, kept in this one place.
//!
//! - https only; plain http only where every address of the host is one the operator allowed
//!   (`--outbound-allow`); no user name or password in the URL; the scheme's own port unless
//!   the address is allowed;
//! - every address the host resolves to is checked, and a private, loopback, link-local,
//!   shared, reserved, documentation, multicast or unspecified one (IPv4 or IPv6, IPv4 inside
//!   IPv6 included) refuses the request, unless the operator allowed it;
//! - the check is made by the client's own resolver, so the connection goes to an address that
//!   was checked (a name that resolves differently the second time gains nothing);
//! - redirects are not followed by the client: `send` answers a 3xx like any other answer, and
//!   `get` follows at most `Fetch::redirects` of them itself, each hop's URL checked again as
//!   the first was; no proxy from the environment is used, connecting and the whole request have
//!   timeouts, and an answer's body is read up to a limit only (`BODY_LIMIT` for `send`).
//!
//! Web Push uses `send` (https only). Link preview cards use `get` with `LINK_PREVIEW`-like
//! options: plain http is allowed there too, on its standard port 80.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use murmur_core::config::AddressRanges;
use url::Url;

/// How long connecting may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a whole request may take, answer included.
pub const TOTAL_TIMEOUT: Duration = Duration::from_secs(15);
/// The most of an answer's body that is read.
pub const BODY_LIMIT: usize = 8 * 1024;

/// Why a request was not made, or failed.
#[derive(Debug, thiserror::Error)]
pub enum OutboundError {
    /// The guard refused the URL or the addresses it names; the message says why.
    #[error("{0}")]
    Refused(String),
    /// The request was made and failed (connecting, TLS, a timeout).
    #[error("the request failed: {0}")]
    Failed(String),
}

/// An answer, its body cut at the request's limit.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
    /// The body went on past the limit (what was read is in `body`).
    pub cut: bool,
}

/// What one `get` allows: how much of the body is read, how long it may take in all (redirects
/// included), how many redirects are followed, and whether plain http is allowed beside https.
#[derive(Clone, Copy, Debug)]
pub struct Fetch {
    pub body_limit: usize,
    pub timeout: Duration,
    pub redirects: usize,
    pub plain_http: bool,
    /// The `Accept` header.
    pub accept: &'static str,
}

/// The guarded client; cheap to clone.
#[derive(Clone)]
pub struct Outbound {
    allow: Arc<AddressRanges>,
    client: reqwest::Client,
}

impl Outbound {
    pub fn new(allow: AddressRanges) -> Outbound {
        let allow = Arc::new(allow);
        let client = reqwest::Client::builder()
            .dns_resolver(Arc::new(CheckingResolver { allow: allow.clone() }))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(CONNECT_TIMEOUT)
            .timeout(TOTAL_TIMEOUT)
            .user_agent(concat!("Murmur/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("the outbound client builds");
        Outbound { allow, client }
    }

    /// Checks `url` (https only) and the addresses its host resolves to now; the request itself
    /// checks them again as it connects.
    pub async fn check(&self, url: &Url) -> Result<(), OutboundError> {
        self.check_with(url, false).await
    }

    async fn check_with(&self, url: &Url, plain_http: bool) -> Result<(), OutboundError> {
        let host = check_url(url)?;
        let port = url.port_or_known_default().unwrap_or(0);
        let addresses: Vec<IpAddr> = match host {
            Host::Address(ip) => vec![ip],
            Host::Name(name) => resolve(&name).await?,
        };
        check_addresses_with(url, port, &addresses, &self.allow, plain_http)
    }

    /// Sends `request` (its URL checked first) and reads its answer up to `BODY_LIMIT`.
    pub async fn send(&self, request: reqwest::Request) -> Result<Answer, OutboundError> {
        self.check(request.url()).await?;
        let response = self.client.execute(request).await.map_err(refused_or_failed)?;
        // The status is what matters; a body cut short does not change it.
        Ok(read(response, BODY_LIMIT).await)
    }

    /// GETs `url`, following redirects itself (each hop checked like the first), within
    /// `fetch`'s limits. Answers the URL the answer came from, and the answer.
    pub async fn get(&self, url: Url, fetch: &Fetch) -> Result<(Url, Answer), OutboundError> {
        let deadline = tokio::time::Instant::now() + fetch.timeout;
        let timed_out = || OutboundError::Failed(format!("no answer within {} s", fetch.timeout.as_secs_f32()));
        let mut url = url;
        for _ in 0..=fetch.redirects {
            self.check_with(&url, fetch.plain_http).await?;
            let request = self
                .client
                .get(url.clone())
                .header(reqwest::header::ACCEPT, fetch.accept)
                .timeout(fetch.timeout)
                .build()
                .map_err(refused_or_failed)?;
            let response = tokio::time::timeout_at(deadline, self.client.execute(request))
                .await
                .map_err(|_| timed_out())?
                .map_err(refused_or_failed)?;
            if response.status().is_redirection()
                && let Some(location) = response.headers().get(reqwest::header::LOCATION)
            {
                let location = location
                    .to_str()
                    .map_err(|_| OutboundError::Refused("A redirect's Location is not text".into()))?;
                url = url
                    .join(location)
                    .map_err(|_| OutboundError::Refused("A redirect's Location is not a URL".into()))?;
                continue;
            }
            let answer =
                tokio::time::timeout_at(deadline, read(response, fetch.body_limit)).await.map_err(|_| timed_out())?;
            return Ok((url, answer));
        }
        Err(OutboundError::Refused(format!("More than {} redirects", fetch.redirects)))
    }
}

/// An answer with its body read up to `limit` bytes (no more is asked of the connection).
async fn read(mut response: reqwest::Response, limit: usize) -> Answer {
    let status = response.status().as_u16();
    let headers = std::mem::take(response.headers_mut());
    let mut body = Vec::new();
    // At the limit, whether more follows is only known by asking for it: a body exactly the
    // limit long counts as cut, which loses nothing worth keeping.
    let mut cut = false;
    // A failed read ends the body like its end does: what came is what there is.
    while let Ok(Some(chunk)) = response.chunk().await {
        let room = limit - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() == limit {
            cut = true;
            break;
        }
    }
    Answer { status, headers, body, cut }
}

/// A request error caused by the resolver's refusal is the guard's answer, not a failure.
fn refused_or_failed(error: reqwest::Error) -> OutboundError {
    let mut source: Option<&dyn std::error::Error> = Some(&error);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<Refusal>() {
            return OutboundError::Refused(refused.0.clone());
        }
        source = cause.source();
    }
    OutboundError::Failed(error.without_url().to_string())
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Refusal(String);

/// The client's resolver: answers only addresses that pass the guard, all or none.
struct CheckingResolver {
    allow: Arc<AddressRanges>,
}

impl reqwest::dns::Resolve for CheckingResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow = self.allow.clone();
        let name = name.as_str().to_string();
        Box::pin(async move {
            let refusal = |why: String| -> Box<dyn std::error::Error + Send + Sync> { Box::new(Refusal(why)) };
            let addresses = resolve(&name).await.map_err(|e| refusal(e.to_string()))?;
            if let Some(bad) = addresses.iter().find(|ip| forbidden(**ip) && !allow.contains(**ip)) {
                return Err(refusal(format!("{name} resolves to {bad}, which is not a public address")));
            }
            let addrs: reqwest::dns::Addrs = Box::new(addresses.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}

async fn resolve(name: &str) -> Result<Vec<IpAddr>, OutboundError> {
    let found = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::lookup_host((name, 0)))
        .await
        .map_err(|_| OutboundError::Refused(format!("{name} did not resolve in time")))?
        .map_err(|_| OutboundError::Refused(format!("{name} does not resolve")))?;
    let addresses: Vec<IpAddr> = found.map(|addr| addr.ip()).collect();
    if addresses.is_empty() {
        return Err(OutboundError::Refused(format!("{name} does not resolve")));
    }
    Ok(addresses)
}

/// A URL's host, as the checks need it.
#[derive(Debug, PartialEq, Eq)]
pub enum Host {
    Address(IpAddr),
    Name(String),
}

/// The checks of the URL alone: scheme (http or https; whether http may be used is
/// `check_addresses`'), credentials, a host.
pub fn check_url(url: &Url) -> Result<Host, OutboundError> {
    let refuse = |why: &str| Err(OutboundError::Refused(why.to_string()));
    if url.scheme() != "https" && url.scheme() != "http" {
        return refuse("The URL must be https");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return refuse("The URL must not hold a user name or password");
    }
    match url.host() {
        Some(url::Host::Ipv4(ip)) => Ok(Host::Address(IpAddr::V4(ip))),
        Some(url::Host::Ipv6(ip)) => Ok(Host::Address(IpAddr::V6(ip))),
        Some(url::Host::Domain(name)) => Ok(Host::Name(name.to_string())),
        None => refuse("The URL has no host"),
    }
}

/// The checks of the addresses a URL's host resolved to (`port` is the URL's), https only.
pub fn check_addresses(url: &Url, port: u16, addresses: &[IpAddr], allow: &AddressRanges) -> Result<(), OutboundError> {
    check_addresses_with(url, port, addresses, allow, false)
}

/// `check_addresses`, with plain http (on port 80) allowed everywhere when `plain_http`.
pub fn check_addresses_with(
    url: &Url,
    port: u16,
    addresses: &[IpAddr],
    allow: &AddressRanges,
    plain_http: bool,
) -> Result<(), OutboundError> {
    let refuse = |why: String| Err(OutboundError::Refused(why));
    let all_allowed = addresses.iter().all(|ip| allow.contains(*ip));
    if let Some(bad) = addresses.iter().find(|ip| forbidden(**ip) && !allow.contains(**ip)) {
        return refuse(format!("The URL's host is {bad}, which is not a public address"));
    }
    if url.scheme() == "http" && !plain_http && !all_allowed {
        return refuse("The URL must be https".to_string());
    }
    let default_port = if url.scheme() == "https" { 443 } else { 80 };
    if port != default_port && !all_allowed {
        return refuse(format!("The URL must use the port {default_port}"));
    }
    Ok(())
}

/// True for an address an outgoing request must not reach unless the operator allowed it:
/// anything but a public unicast address.
pub fn forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_documentation()
        || ip.is_multicast()
        || a == 0 // "this network"
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier-grade NAT)
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || a >= 240 // reserved
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let segments = ip.segments();
    // IPv4 inside IPv6 is judged as the IPv4 address it carries: a gateway on the way (a
    // NAT64, a 6to4 or Teredo relay, the host's own stack) would deliver it there.
    if let Some(v4) = embedded_v4(ip) {
        return forbidden_v4(v4);
    }
    if segments[..6] == [0, 0, 0, 0, 0, 0] {
        // `::`, `::1` and the deprecated IPv4-compatible addresses
        return true;
    }
    if segments[..3] == [0x64, 0xff9b, 1] {
        // NAT64 for local use (RFC 8215): translated inside one network, never a public place
        return true;
    }
    ip.is_multicast()
        || (segments[0] & 0xfe00) == 0xfc00 // unique local
        || (segments[0] & 0xffc0) == 0xfe80 // link-local
        || (segments[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (segments[0] == 0x2001 && segments[1] == 0x0db8) // documentation
        || (segments[0] == 0x0100 && segments[1..4] == [0, 0, 0]) // discard-only
        || (segments[0] == 0x2001 && segments[1] < 0x0200) // IETF protocol assignments (Teredo, ORCHID, …)
}

/// The IPv4 address an IPv6 address carries, in every form that embeds one: mapped
/// (`::ffff:a.b.c.d`), translated (`::ffff:0:a.b.c.d`), NAT64's well-known prefix
/// (`64:ff9b::/96`) and 6to4 (`2002::/16`). Teredo (`2001::/32`) is refused whatever it
/// carries, with the rest of the IETF's protocol assignments.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let v4 = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match s {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] | [0, 0, 0, 0, 0xffff, 0, hi, lo] => Some(v4(hi, lo)),
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(v4(hi, lo)),
        [0x2002, hi, lo, ..] => Some(v4(hi, lo)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn only_public_unicast_addresses_pass() {
        for public in ["93.184.215.14", "8.8.8.8", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "2a00:1450:4001::200e"] {
            assert!(!forbidden(ip(public)), "{public}");
        }
        for private in [
            "127.0.0.1",
            "127.8.9.10",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "0.1.2.3",
            "100.64.0.1",
            "192.0.0.8",
            "192.0.2.1",
            "198.18.0.1",
            "224.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::127.0.0.1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "::ffff:0:7f00:1",
            "::ffff:0:a9fe:a9fe",
            "64:ff9b:1::7f00:1",
            "64:ff9b:1:7f00:1::",
            "64:ff9b:1::808:808",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::1",
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "100::1",
            "2001::1",
        ] {
            assert!(forbidden(ip(private)), "{private}");
        }
        assert!(!forbidden(ip("::ffff:8.8.8.8")), "a mapped public address is public");
        assert!(!forbidden(ip("64:ff9b::808:808")), "NAT64 of a public address is public");
        assert!(!forbidden(ip("::ffff:0:808:808")), "a translated public address is public");
        assert!(!forbidden(ip("2002:808:808::1")), "6to4 of a public address is public");
    }

    fn url(text: &str) -> Url {
        text.parse().unwrap()
    }

    fn refused(result: Result<impl std::fmt::Debug, OutboundError>) -> String {
        match result {
            Err(OutboundError::Refused(why)) => why,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_url_is_https_without_credentials() {
        assert_eq!(check_url(&url("https://push.example/a")).unwrap(), Host::Name("push.example".into()));
        assert_eq!(check_url(&url("https://[::1]/a")).unwrap(), Host::Address(ip("::1")));
        assert!(refused(check_url(&url("ftp://push.example/a"))).contains("https"));
        assert!(refused(check_url(&url("https://me:secret@push.example/a"))).contains("password"));
        assert!(refused(check_url(&url("https://me@push.example/a"))).contains("user name"));
        assert!(refused(check_url(&url("file:///etc/passwd"))).contains("https"));
    }

    #[test]
    fn private_addresses_plain_http_and_other_ports_only_where_allowed() {
        let none = AddressRanges::default();
        let local = AddressRanges::parse("127.0.0.1, 10.0.0.0/8").unwrap();
        let public = [ip("93.184.215.14")];
        let check = |u: &str, addresses: &[IpAddr], allow: &AddressRanges| {
            let u = url(u);
            let port = u.port_or_known_default().unwrap();
            check_addresses(&u, port, addresses, allow)
        };
        assert!(check("https://push.example/", &public, &none).is_ok());
        assert!(refused(check("https://push.example/", &[public[0], ip("10.0.0.1")], &none)).contains("10.0.0.1"));
        assert!(refused(check("http://push.example/", &public, &none)).contains("https"));
        assert!(refused(check("https://push.example:8443/", &public, &none)).contains("port 443"));
        assert!(refused(check("https://127.0.0.1/", &[ip("127.0.0.1")], &none)).contains("not a public address"));
        assert!(check("http://127.0.0.1:9000/", &[ip("127.0.0.1")], &local).is_ok());
        assert!(check("http://relay.internal/", &[ip("10.2.3.4")], &local).is_ok());
        assert!(refused(check("http://[::1]/", &[ip("::1")], &local)).contains("::1"));
    }

    #[test]
    fn link_cards_may_use_plain_http_but_only_on_its_standard_port() {
        let none = AddressRanges::default();
        let public = [ip("93.184.215.14")];
        let check = |u: &str, addresses: &[IpAddr]| {
            let u = url(u);
            let port = u.port_or_known_default().unwrap();
            check_addresses_with(&u, port, addresses, &none, true)
        };
        assert!(check("http://news.example/a", &public).is_ok());
        assert!(check("https://news.example/a", &public).is_ok());
        assert!(refused(check("http://news.example:8080/a", &public)).contains("port 80"));
        assert!(refused(check("https://news.example:8443/a", &public)).contains("port 443"));
        assert!(refused(check("http://metadata.example/", &[ip("169.254.169.254")])).contains("not a public address"));
    }

    #[tokio::test]
    async fn the_client_refuses_a_name_that_resolves_to_loopback() {
        let outbound = Outbound::new(AddressRanges::default());
        let request = reqwest::Request::new(reqwest::Method::POST, url("https://localhost/push"));
        assert!(refused(outbound.send(request).await).contains("not a public address"));
        // Past the first check too: the resolver the connection uses refuses it on its own.
        let client = outbound.client.clone();
        let error = client.post("https://localhost:1/push").send().await.unwrap_err();
        assert!(refused(Err::<(), _>(refused_or_failed(error))).contains("not a public address"));
    }
}
