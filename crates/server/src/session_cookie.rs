//! The session cookie: its name, the `Set-Cookie` values that hand it out and take it back, and
//! reading it from a request. A session itself is `murmur_domain::sessions`.

use axum::http::{HeaderMap, header};
use murmur_core::config::Config;
use murmur_domain::sessions::LIFETIME;

/// The cookie's name: `__Host-` prefixed over https (bound to this host, Secure, Path=/).
pub fn name(config: &Config) -> &'static str {
    if config.is_https() { "__Host-murmur_session" } else { "murmur_session" }
}

/// The `Set-Cookie` value that hands a session to the browser.
pub fn set(config: &Config, token: &str) -> String {
    let secure = if config.is_https() { "; Secure" } else { "" };
    format!("{}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}", name(config), LIFETIME / 1000)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear(config: &Config) -> String {
    let secure = if config.is_https() { "; Secure" } else { "" };
    format!("{}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}", name(config))
}

/// The session token in a request's cookies, if any.
pub fn token<'h>(config: &Config, headers: &'h HeaderMap) -> Option<&'h str> {
    let name = name(config);
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
        .filter(|v| !v.is_empty() && v.len() <= 128)
}
