//! `ClientIp`: the address a request came from, for per-network abuse limits and the logs.
//!
//! It is the TCP peer (`ConnectInfo`, which `Application::run_until` serves with), unless that
//! peer is one of the operator's trusted reverse proxies (`--trusted-proxies`): then it is the
//! client those proxies name in `Forwarded` or `X-Forwarded-For`. See docs/auth.md.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, header};
use ipnet::IpNet;

use crate::state::AppState;
use murmur_core::config::TrustedProxies;

/// The client's address; None only when the server recorded no peer (a router called directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(ClientIp::resolve(peer(&parts.extensions), &parts.headers, &state.config.trusted_proxies))
    }
}

/// The TCP peer's address, when the server recorded it.
pub fn peer(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip())
}

impl ClientIp {
    /// The client of a request that came from `peer`: the peer itself, or, when the peer is a
    /// trusted proxy, the client the proxies name. Headers that cannot be read, or two headers
    /// that name different clients, leave the peer: a proxy writes one of them, and which one
    /// a client added itself cannot be told.
    pub fn resolve(peer: Option<IpAddr>, headers: &HeaderMap, trusted: &TrustedProxies) -> ClientIp {
        let Some(peer) = peer.map(|ip| ip.to_canonical()) else {
            return ClientIp(None);
        };
        if !trusted.contains(peer) {
            return ClientIp(Some(peer));
        }
        let forwarded = client_named(headers, &FORWARDED_HEADER, trusted);
        let x_forwarded_for = client_named(headers, &X_FORWARDED_FOR_HEADER, trusted);
        let client = match (forwarded, x_forwarded_for) {
            (Ok(Some(a)), Ok(Some(b))) if a != b => None,
            (Ok(a), Ok(b)) => a.or(b),
            _ => None,
        };
        ClientIp(Some(client.unwrap_or(peer)))
    }

    /// What a per-IP limit counts: the IPv4 address, or the /64 of an IPv6 address (one
    /// subscriber usually has a whole /64, so counting single addresses would not limit them).
    pub fn limit_key(&self) -> String {
        match self.0 {
            None => "unknown".to_string(),
            Some(IpAddr::V4(v4)) => v4.to_string(),
            Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                Some(v4) => v4.to_string(),
                None => {
                    let s = v6.segments();
                    format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
        }
    }
}

impl ClientIp {
    /// The client's approximate network, as a member's list of sessions shows it: the IPv4 /24
    /// or the IPv6 /48 (`203.0.113.0/24`, `2001:db8:7::/48`), never the address itself; None
    /// when unknown.
    pub fn network(&self) -> Option<String> {
        let ip = self.0?;
        let v4 = match ip {
            IpAddr::V4(v4) => Some(v4),
            IpAddr::V6(v6) => v6.to_ipv4_mapped(),
        };
        Some(match (v4, ip) {
            (Some(v4), _) => format!("{}/24", IpNet::new(v4.into(), 24).ok()?.trunc().network()),
            (None, ip) => {
                let net = IpNet::new(ip, 48).ok()?.trunc();
                format!("{}/48", net.network())
            }
        })
    }
}

impl std::fmt::Display for ClientIp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(ip) => ip.fmt(f),
            None => f.write_str("unknown"),
        }
    }
}

const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// A forwarding header that is there but cannot be read.
#[derive(Debug)]
struct Malformed;

/// A forwarding header: how its value divides into hops, and how a hop names an address.
struct Forwarding {
    name: HeaderName,
    hops: fn(&str) -> Vec<&str>,
    address: fn(&str) -> Result<IpAddr, Malformed>,
}

/// `X-Forwarded-For: 203.0.113.7, 10.0.0.2`: addresses, some proxies adding a port.
const X_FORWARDED_FOR_HEADER: Forwarding = Forwarding {
    name: X_FORWARDED_FOR,
    hops: |value| value.split(',').collect(),
    address: |hop| node_address(hop.trim()),
};

/// RFC 7239 `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"`: each element's
/// `for=`. An element without one, or naming `unknown` or a hidden `_name`, cannot be counted.
const FORWARDED_HEADER: Forwarding = Forwarding {
    name: header::FORWARDED,
    hops: |value| split_outside_quotes(value, ',').collect(),
    address: |element| {
        let node = split_outside_quotes(element, ';')
            .filter_map(|pair| pair.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
            .ok_or(Malformed)?
            .1;
        node_address(unquote(node.trim())?)
    },
};

/// The client one forwarding header names: walking its hops from the right (the proxy nearest
/// to us appends last), the first that is not a trusted proxy; the left-most if all are. Hops
/// left of the client were written by nobody we trust, so they are not even read. Several
/// lines of the header are one list, in order.
fn client_named(
    headers: &HeaderMap,
    header: &Forwarding,
    trusted: &TrustedProxies,
) -> Result<Option<IpAddr>, Malformed> {
    let mut chain = Vec::new();
    for value in headers.get_all(&header.name) {
        chain.extend((header.hops)(value.to_str().map_err(|_| Malformed)?));
    }
    let mut left_most = None;
    for hop in chain.iter().rev() {
        let ip = (header.address)(hop)?;
        if !trusted.contains(ip) {
            return Ok(Some(ip));
        }
        left_most = Some(ip);
    }
    Ok(left_most)
}

/// An address as a hop is written: `192.0.2.60`, `192.0.2.60:80`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:4711`.
fn node_address(node: &str) -> Result<IpAddr, Malformed> {
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Ok(ip.to_canonical());
    }
    if let Some(inside) = node.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
        return inside.parse::<IpAddr>().map(|ip| ip.to_canonical()).map_err(|_| Malformed);
    }
    node.parse::<SocketAddr>().map(|addr| addr.ip().to_canonical()).map_err(|_| Malformed)
}

/// A quoted-string's content (a node has no escapes worth keeping), or the token as it is.
fn unquote(value: &str) -> Result<&str, Malformed> {
    match value.strip_prefix('"') {
        Some(rest) => rest.strip_suffix('"').filter(|inside| !inside.contains('"')).ok_or(Malformed),
        None => Ok(value),
    }
}

/// Splits at `separator` where it is not inside a quoted string.
fn split_outside_quotes(value: &str, separator: char) -> impl Iterator<Item = &str> {
    let mut quoted = false;
    value.split(move |c: char| {
        if c == '"' {
            quoted = !quoted;
        }
        c == separator && !quoted
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_is_the_ipv4_24_or_the_ipv6_48() {
        let network = |ip: &str| ClientIp(Some(ip.parse().unwrap())).network();
        assert_eq!(network("203.0.113.77").as_deref(), Some("203.0.113.0/24"));
        assert_eq!(network("::ffff:198.51.100.9").as_deref(), Some("198.51.100.0/24"));
        assert_eq!(network("2001:db8:7:42::1").as_deref(), Some("2001:db8:7::/48"));
        assert_eq!(ClientIp(None).network(), None);
    }

    fn trusted(list: &str) -> TrustedProxies {
        TrustedProxies::parse(list).unwrap()
    }

    fn client(peer: &str, trusted_list: &str, headers: &[(&str, &str)]) -> String {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.append(HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
        }
        ClientIp::resolve(Some(peer.parse().unwrap()), &map, &trusted(trusted_list)).to_string()
    }

    const XFF: &str = "x-forwarded-for";
    const FWD: &str = "forwarded";

    /// What the case shows, the peer, the trusted proxies, the headers, the client answered.
    type Case = (&'static str, &'static str, &'static str, &'static [(&'static str, &'static str)], &'static str);

    #[test]
    fn the_client_is_taken_from_forwarding_headers_only_when_a_trusted_proxy_sends_them() {
        #[rustfmt::skip]
        let cases: &[Case] = &[
            ("no trusted proxies: the headers are ignored",
             "203.0.113.9", "", &[(XFF, "1.2.3.4")], "203.0.113.9"),
            ("a spoofed header from a peer that is not trusted is ignored",
             "203.0.113.9", "127.0.0.1", &[(XFF, "1.2.3.4"), (FWD, "for=1.2.3.4")], "203.0.113.9"),
            ("a trusted proxy without headers: the proxy is the client",
             "127.0.0.1", "127.0.0.1", &[], "127.0.0.1"),
            ("one trusted proxy names the client",
             "127.0.0.1", "127.0.0.1", &[(XFF, "198.51.100.7")], "198.51.100.7"),
            ("what the client wrote before the proxy's entry does not count",
             "127.0.0.1", "127.0.0.1", &[(XFF, "1.2.3.4, 198.51.100.7")], "198.51.100.7"),
            ("several trusted hops are skipped from the right",
             "10.0.0.1", "10.0.0.0/8,127.0.0.1", &[(XFF, "1.2.3.4, 198.51.100.7, 10.0.0.3, 10.0.0.2")], "198.51.100.7"),
            ("when every hop is trusted the left-most is the client",
             "10.0.0.1", "10.0.0.0/8", &[(XFF, "10.0.0.9, 10.0.0.3")], "10.0.0.9"),
            ("two header lines are one list",
             "127.0.0.1", "127.0.0.1", &[(XFF, "1.2.3.4"), (XFF, "198.51.100.7")], "198.51.100.7"),
            ("IPv6 peers and hops",
             "::1", "::1,fd00::/8", &[(XFF, "2001:db8::1, fd00::2")], "2001:db8::1"),
            ("an IPv4-mapped peer is its IPv4 address",
             "::ffff:127.0.0.1", "127.0.0.1", &[(XFF, "198.51.100.7")], "198.51.100.7"),
            ("a hop with a port",
             "127.0.0.1", "127.0.0.1", &[(XFF, "198.51.100.7:5555")], "198.51.100.7"),
            ("Forwarded with a quoted IPv6 address and port",
             "127.0.0.1", "127.0.0.1", &[(FWD, r#"for="[2001:db8::1]:4711";proto=https"#)], "2001:db8::1"),
            ("Forwarded with several elements and parameters in any case",
             "127.0.0.1", "127.0.0.1", &[(FWD, "For=192.0.2.60;proto=http;by=203.0.113.43, for=127.0.0.1")], "192.0.2.60"),
            ("both headers naming the same client",
             "127.0.0.1", "127.0.0.1", &[(FWD, "for=192.0.2.60"), (XFF, "192.0.2.60")], "192.0.2.60"),
            ("both headers naming different clients: neither is believed",
             "127.0.0.1", "127.0.0.1", &[(FWD, "for=1.2.3.4"), (XFF, "192.0.2.60")], "127.0.0.1"),
            ("garbage in X-Forwarded-For leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(XFF, "not an address")], "127.0.0.1"),
            ("an empty hop between proxies leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(XFF, "198.51.100.7,,127.0.0.1")], "127.0.0.1"),
            ("garbage a client wrote left of its own address is not read",
             "127.0.0.1", "127.0.0.1", &[(XFF, "garbage, 198.51.100.7"), (FWD, "for=unknown, for=198.51.100.7")], "198.51.100.7"),
            ("an empty header leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(XFF, "")], "127.0.0.1"),
            ("Forwarded without for= leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(FWD, "proto=https;by=10.0.0.1")], "127.0.0.1"),
            ("Forwarded naming an unknown or hidden client leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(FWD, "for=unknown")], "127.0.0.1"),
            ("an unclosed quote leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(FWD, r#"for="[2001:db8::1]"#)], "127.0.0.1"),
            ("an IPv6 address without its brackets' end leaves the peer",
             "127.0.0.1", "127.0.0.1", &[(FWD, r#"for="[2001:db8::1:4711""#)], "127.0.0.1"),
        ];
        for (case, peer, trusted_list, headers, expected) in cases {
            assert_eq!(client(peer, trusted_list, headers), *expected, "{case}");
        }
    }

    #[test]
    fn bytes_that_are_not_text_leave_the_peer() {
        let mut map = HeaderMap::new();
        map.insert(X_FORWARDED_FOR, axum::http::HeaderValue::from_bytes(b"1.2.3.4\xff").unwrap());
        let ip = ClientIp::resolve(Some("127.0.0.1".parse().unwrap()), &map, &trusted("127.0.0.1"));
        assert_eq!(ip.to_string(), "127.0.0.1");
    }

    #[test]
    fn without_a_peer_the_client_is_unknown() {
        assert_eq!(ClientIp::resolve(None, &HeaderMap::new(), &trusted("127.0.0.1")), ClientIp(None));
    }

    #[test]
    fn trusted_proxies_are_addresses_or_ranges() {
        let list = trusted("127.0.0.1, ::1,10.0.0.0/8,fd00::/8,192.168.1.77/24");
        for inside in ["127.0.0.1", "::1", "10.200.3.4", "fd00::5", "192.168.1.3"] {
            assert!(list.contains(inside.parse().unwrap()), "{inside} is trusted");
        }
        for outside in ["127.0.0.2", "::2", "11.0.0.1", "fe80::1", "192.168.2.1"] {
            assert!(!list.contains(outside.parse().unwrap()), "{outside} is not trusted");
        }
        for bad in ["localhost", "127.0.0.1,10.0.0.0/33", "1.2.3", "::1/200", "127.0.0.1:80"] {
            let error = TrustedProxies::parse(bad).unwrap_err();
            assert!(error.contains("is not an IP address or CIDR range"), "{bad}: {error}");
        }
        assert_eq!(trusted(""), TrustedProxies::default(), "empty is none, as unset");
    }

    #[test]
    fn ipv6_addresses_count_by_their_64() {
        let a = ClientIp(Some("2001:db8:1:2:aaaa::1".parse().unwrap()));
        let b = ClientIp(Some("2001:db8:1:2:bbbb::9".parse().unwrap()));
        assert_eq!(a.limit_key(), b.limit_key());
        assert_eq!(a.limit_key(), "2001:db8:1:2::/64");
        assert_eq!(ClientIp(Some("::ffff:10.0.0.1".parse().unwrap())).limit_key(), "10.0.0.1");
        assert_eq!(ClientIp(Some("10.0.0.1".parse().unwrap())).limit_key(), "10.0.0.1");
    }
}
