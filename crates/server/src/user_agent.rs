//! The browser's user agent, kept with a session so its member can tell their sessions apart:
//! bounded when stored, and read as a browser and an operating system when listed.
//!
//! A short reader of the well-known tokens rather than a crate: the list needs a name a person
//! recognises ("Firefox 128 on Linux"), not a full device database, and the crates that have
//! one carry a large, rarely updated rule set.

use axum::http::{HeaderMap, header};

/// The most of a user agent a session keeps, in bytes.
pub const MAX_BYTES: usize = 512;

/// The request's user agent as a session keeps it: printable ASCII only (anything else, which
/// browsers never send, becomes `?`), cut to `MAX_BYTES`; None when absent or blank.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    let raw = headers.get(header::USER_AGENT)?.as_bytes();
    let kept: String =
        raw.iter().take(MAX_BYTES).map(|&b| if (0x20..0x7f).contains(&b) { b as char } else { '?' }).collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_string())
}

/// What a user agent says about the browser and the operating system, in the words a person
/// knows; None for what it does not say (or says in a way this reader does not know).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    /// The browser and its major version: "Firefox 128", "Safari 17".
    pub browser: Option<String>,
    pub os: Option<&'static str>,
}

impl Device {
    /// "Firefox 128 on Linux", as far as the agent says: the words the web app's list of
    /// sessions uses (`deviceName`), so a notice and the list name a browser alike.
    pub fn name(&self) -> String {
        match (&self.browser, self.os) {
            (Some(browser), Some(os)) => format!("{browser} on {os}"),
            (Some(browser), None) => browser.clone(),
            (None, Some(os)) => format!("A browser on {os}"),
            (None, None) => "Unknown browser".to_string(),
        }
    }
}

/// The name of the browser a stored user agent says (`Device::name`); "Unknown browser" without one.
pub fn device_name(user_agent: Option<&str>) -> String {
    user_agent.map(describe).map_or_else(|| "Unknown browser".to_string(), |device| device.name())
}

/// Reads a user agent. The order matters: most browsers name others for compatibility (Edge
/// says Chrome and Safari; Chrome says Safari), so the most specific token is looked for first.
pub fn describe(user_agent: &str) -> Device {
    Device { browser: browser(user_agent), os: os(user_agent) }
}

fn browser(ua: &str) -> Option<String> {
    const BROWSERS: [(&str, &str); 12] = [
        ("Edg/", "Edge"),
        ("EdgA/", "Edge"),
        ("EdgiOS/", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser/", "Samsung Internet"),
        ("Vivaldi/", "Vivaldi"),
        ("FxiOS/", "Firefox"),
        ("Firefox/", "Firefox"),
        ("CriOS/", "Chrome"),
        ("HeadlessChrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"),
    ];
    for (token, name) in BROWSERS {
        if let Some(version) = version_after(ua, token) {
            return Some(with_version(name, version));
        }
    }
    // Safari gives its own version as `Version/17.1`; `Safari/` alone is WebKit's build.
    if ua.contains("Safari/") && (ua.contains("Macintosh") || ua.contains("iPhone") || ua.contains("iPad")) {
        return Some(with_version("Safari", version_after(ua, "Version/").unwrap_or("")));
    }
    None
}

fn os(ua: &str) -> Option<&'static str> {
    // Phones and tablets first: their agents also say "like Mac OS X" or "Linux".
    const SYSTEMS: [(&str, &str); 8] = [
        ("Windows", "Windows"),
        ("iPhone", "iOS"),
        ("iPod", "iOS"),
        ("iPad", "iPadOS"),
        ("Android", "Android"),
        ("CrOS", "ChromeOS"),
        ("Macintosh", "macOS"),
        ("Linux", "Linux"),
    ];
    SYSTEMS.iter().find(|(token, _)| ua.contains(token)).map(|(_, name)| *name)
}

/// The version right after `token` (up to the next space or `;`), if the token is there.
fn version_after<'a>(ua: &'a str, token: &str) -> Option<&'a str> {
    let at = ua.find(token)? + token.len();
    let rest = &ua[at..];
    Some(&rest[..rest.find([' ', ';', ')']).unwrap_or(rest.len())])
}

/// "Firefox 128" from "Firefox" and "128.0"; the name alone without a readable major version.
fn with_version(name: &str, version: &str) -> String {
    let major = version.split('.').next().unwrap_or_default();
    if !major.is_empty() && major.len() <= 4 && major.bytes().all(|b| b.is_ascii_digit()) {
        format!("{name} {major}")
    } else {
        name.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(ua: &str) -> (Option<String>, Option<&'static str>) {
        let device = describe(ua);
        (device.browser, device.os)
    }

    #[test]
    fn the_common_browsers_are_named_with_their_system() {
        let cases = [
            ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", ("Firefox 128", "Linux")),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
                ("Chrome 126", "Windows"),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87",
                ("Edge 126", "Windows"),
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
                ("Safari 17", "macOS"),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                ("Safari 17", "iOS"),
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
                ("Chrome 126", "iPadOS"),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
                ("Chrome 126", "Android"),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
                ("Samsung Internet 25", "Android"),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0",
                ("Opera 111", "Windows"),
            ),
            (
                "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
                ("Chrome 126", "ChromeOS"),
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
                ("Chrome 131", "Linux"),
            ),
        ];
        for (ua, (browser, os)) in cases {
            assert_eq!(read(ua), (Some(browser.to_string()), Some(os)), "{ua}");
        }
    }

    #[test]
    fn what_an_agent_does_not_say_is_left_unknown() {
        assert_eq!(read("curl/8.5.0"), (None, None));
        assert_eq!(read(""), (None, None));
        // A version that is not a number is left out rather than shown.
        assert_eq!(read("Firefox/abc (Windows)"), (Some("Firefox".to_string()), Some("Windows")));
        assert_eq!(read("Mozilla/5.0 (Windows NT 10.0) Firefox/"), (Some("Firefox".to_string()), Some("Windows")));
    }

    #[test]
    fn a_device_is_named_as_the_list_of_sessions_names_it() {
        assert_eq!(
            device_name(Some("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")),
            "Firefox 128 on Linux"
        );
        assert_eq!(device_name(Some("Mozilla/5.0 (Windows NT 10.0)")), "A browser on Windows");
        assert_eq!(device_name(Some("curl/8.5.0")), "Unknown browser");
        assert_eq!(device_name(None), "Unknown browser");
    }

    #[test]
    fn a_stored_user_agent_is_bounded_and_printable() {
        let mut headers = HeaderMap::new();
        assert_eq!(from_headers(&headers), None);
        headers.insert(header::USER_AGENT, "   ".parse().unwrap());
        assert_eq!(from_headers(&headers), None);
        headers.insert(header::USER_AGENT, "A".repeat(2000).parse().unwrap());
        assert_eq!(from_headers(&headers).unwrap().len(), MAX_BYTES);
        headers.insert(header::USER_AGENT, axum::http::HeaderValue::from_bytes(b"Firefox/1\xff\tx").unwrap());
        assert_eq!(from_headers(&headers).as_deref(), Some("Firefox/1??x"));
    }
}
