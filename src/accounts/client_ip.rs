//! `ClientIp`: the address a request came from, for per-network abuse limits.
//!
//! It is the TCP peer (`ConnectInfo`, which `Application::run_until` serves with). Behind a
//! reverse proxy every request has the proxy's address, so the per-IP limits then count the
//! whole proxy; see docs/auth.md.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        let ip = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip());
        Ok(ClientIp(ip))
    }
}

impl ClientIp {
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

#[cfg(test)]
mod tests {
    use super::*;

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
