//! Reading the messages Murmur sent: the .eml files of the outbox (SMTP_URL unset) or the
//! maildir of the SMTP test server, and the links in them.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One received message, decoded enough to read: quoted-printable soft line breaks joined
/// and `=XX` escapes decoded.
#[derive(Clone, Debug)]
pub struct Mail {
    pub raw: String,
    pub decoded: String,
}

impl Mail {
    /// The first value of a header (unfolded).
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.raw.split("\r\n\r\n").next().unwrap_or_default();
        let head = head.split("\n\n").next().unwrap_or_default().replace("\r\n", "\n");
        let mut lines = head.split('\n').peekable();
        while let Some(line) = lines.next() {
            if let Some((key, value)) = line.split_once(':')
                && key.eq_ignore_ascii_case(name)
            {
                let mut value = value.trim().to_string();
                while let Some(next) = lines.peek().filter(|l| l.starts_with(' ') || l.starts_with('\t')) {
                    value.push(' ');
                    value.push_str(next.trim());
                    lines.next();
                }
                return Some(value);
            }
        }
        None
    }

    pub fn subject(&self) -> String {
        self.header("Subject").unwrap_or_default()
    }

    pub fn is_to(&self, address: &str) -> bool {
        self.header("To").is_some_and(|to| to.to_lowercase().contains(&address.to_lowercase()))
    }

    /// The first Murmur verification link in the message (from the plain-text part).
    pub fn verify_link(&self) -> String {
        self.link_starting("/auth/verify?token=").expect("the message has a verification link")
    }

    /// The first link whose path starts with `path`.
    pub fn link_starting(&self, path: &str) -> Option<String> {
        let at = self.decoded.find(path)?;
        let start = self.decoded[..at].rfind("http")?;
        let end = self.decoded[at..]
            .find(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>')
            .map_or(self.decoded.len(), |i| at + i);
        Some(self.decoded[start..end].replace("&amp;", "&"))
    }

    /// True when the message has a plain-text and an HTML part.
    pub fn has_text_and_html(&self) -> bool {
        let lower = self.raw.to_lowercase();
        lower.contains("multipart/alternative") && lower.contains("text/plain") && lower.contains("text/html")
    }
}

/// Every message in `dir` (outbox files, or a maildir's new/ and cur/), oldest first.
pub fn all_mail(dir: &Path) -> Vec<Mail> {
    let mut files: Vec<PathBuf> = Vec::new();
    for folder in [dir.to_path_buf(), dir.join("new"), dir.join("cur")] {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let hidden = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'));
            if path.is_file() && !hidden {
                files.push(path);
            }
        }
    }
    // By the time they were filed (maildir names do not sort by time), then by name.
    files.sort_by_key(|path| (std::fs::metadata(path).and_then(|m| m.modified()).ok(), path.clone()));
    files
        .into_iter()
        .filter_map(|path| std::fs::read(&path).ok())
        .map(|bytes| {
            let raw = String::from_utf8_lossy(&bytes).into_owned();
            let decoded = decode_quoted_printable(&raw);
            Mail { raw, decoded }
        })
        .collect()
}

/// The messages to `address` in `dir`.
pub fn mail_to(dir: &Path, address: &str) -> Vec<Mail> {
    all_mail(dir).into_iter().filter(|m| m.is_to(address)).collect()
}

/// Waits (up to 10 s) until `dir` holds at least `count` messages to `address`; answers them.
/// Login links are sent from a spawned task, so they may arrive after the answer.
pub async fn wait_for_mail(dir: &Path, address: &str, count: usize) -> Vec<Mail> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found = mail_to(dir, address);
        if found.len() >= count {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "expected {count} message(s) to {address} in {}, found {}",
            dir.display(),
            found.len()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The newest message to `address`, once there are `count`.
pub async fn nth_mail(dir: &Path, address: &str, count: usize) -> Mail {
    wait_for_mail(dir, address, count).await.pop().expect("a message")
}

/// Joins quoted-printable soft line breaks and decodes `=XX`; leaves everything else alone.
pub fn decode_quoted_printable(s: &str) -> String {
    let joined = s.replace("=\r\n", "").replace("=\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' && i + 2 < bytes.len() {
            let (hi, lo) = (bytes[i + 1], bytes[i + 2]);
            if hi.is_ascii_hexdigit() && lo.is_ascii_hexdigit() {
                let hex = [hi, lo];
                out.push(u8::from_str_radix(std::str::from_utf8(&hex).unwrap(), 16).unwrap());
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path and query of a link, as the API's verify call: `/api/auth/verify?token=…`.
pub fn api_verify_path(link: &str) -> String {
    let at = link.find("/auth/verify?").expect("a verification link");
    format!("/api{}", &link[at..])
}

/// The token in a verification link.
pub fn token_of(link: &str) -> String {
    let url = url::Url::parse(link).expect("an absolute link");
    url.query_pairs().find(|(k, _)| k == "token").map(|(_, v)| v.into_owned()).expect("a token")
}

#[cfg(test)]
mod tests {
    #[test]
    fn soft_breaks_and_escapes_are_decoded() {
        assert_eq!(super::decode_quoted_printable("a=3Db=\r\nc =\nd"), "a=bc d");
        assert_eq!(super::decode_quoted_printable("x=ZZ="), "x=ZZ=");
    }
}
