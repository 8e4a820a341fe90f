//! What a member sends when posting, parsed at the edge: handlers and queries only ever see
//! valid values.

use murmur_core::clock::{HOUR, MINUTE, Millis, SECOND};
use murmur_core::error::{Error, Result};
use murmur_core::text::{self, Kind};

/// How long after posting its author may edit a post.
pub const EDIT_WINDOW: Millis = 60 * MINUTE;

/// Longest post, counted in Unicode code points (the web counter counts the same way, and so
/// do SQLite's `length()` and PostgreSQL's `char_length()` in the schema's check).
pub const POST_MAX_CHARS: usize = 500;
pub const POLL_MIN_OPTIONS: usize = 2;
pub const POLL_MAX_OPTIONS: usize = 4;
pub const POLL_OPTION_MAX_CHARS: usize = 80;
/// How many of their posts a member may pin to their profile at once.
pub const MAX_PINS: i64 = 5;
/// Longest content warning, in code points as a post is counted.
pub const CONTENT_WARNING_MAX_CHARS: usize = 100;
/// Longest image description (alt text), in code points as a post is counted.
pub const IMAGE_DESCRIPTION_MAX_CHARS: usize = 1500;
/// PostgreSQL cannot store U+0000 in text (the insert would fail with a 500), and no person
/// types it: text holding one is refused at the edge on both databases (stored text by
/// `text::normalize`, with the other control characters; a search by this message).
pub fn no_nul(what: &str) -> Error {
    Error::bad_request(format!("{what} cannot contain the character U+0000"))
}

/// A post's text: trimmed, NFC-normalized, at most 500 code points, and as `text` has it
/// (no control characters but line breaks and tabs, no text-direction controls, not only
/// invisible characters). It may be empty: whether the post is then allowed depends on its
/// images (`PostContent::ensure_post_has`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostContent(String);

impl PostContent {
    pub fn parse(raw: &str) -> Result<PostContent> {
        let text = &text::normalize(Kind::Post, raw.trim())?;
        if text.chars().count() > POST_MAX_CHARS {
            return Err(Error::bad_request(format!("A post can be at most {POST_MAX_CHARS} characters long")));
        }
        Ok(PostContent(text.to_string()))
    }

    /// The one rule of what a post needs: text, or at least one image (an image-only post,
    /// as Mastodon allows). Posting and editing, from the web and from apps, all check here.
    pub fn ensure_post_has(&self, images: usize) -> Result<()> {
        if self.0.is_empty() && images == 0 {
            return Err(Error::bad_request("A post cannot be empty"));
        }
        Ok(())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A post's content warning (Mastodon's `spoiler_text`): trimmed, NFC-normalized, at most 100
/// code points, on one line, and as `text` has a post's text. `parse` answers `None` for a
/// missing or blank one: that post simply has no warning. Posting, editing and the Mastodon API
/// all parse it here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentWarning(String);

impl ContentWarning {
    pub fn parse(raw: Option<&str>) -> Result<Option<ContentWarning>> {
        let Some(raw) = raw else { return Ok(None) };
        let text = text::normalize(Kind::ContentWarning, raw.trim())?;
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > CONTENT_WARNING_MAX_CHARS {
            return Err(Error::bad_request(format!(
                "A content warning can be at most {CONTENT_WARNING_MAX_CHARS} characters long"
            )));
        }
        Ok(Some(ContentWarning(text)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A poll's options in the order given: blank ones dropped, then 2 to 4 distinct options of at
/// most 80 characters each, NFC-normalized and as `text` has them. `parse` answers
/// `None` when nothing but blanks was sent (the composer's poll was toggled on and left empty):
/// that post simply has no poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PollOptions(Vec<String>);

impl PollOptions {
    pub fn parse(raw: &[String]) -> Result<Option<PollOptions>> {
        let options: Vec<String> = raw
            .iter()
            .map(|o| o.trim())
            .filter(|o| !o.is_empty())
            .map(|o| text::normalize(Kind::PollOption, o))
            .collect::<Result<_>>()?;
        if options.is_empty() {
            return Ok(None);
        }
        if options.len() < POLL_MIN_OPTIONS {
            return Err(Error::bad_request("A poll needs at least 2 options"));
        }
        if options.len() > POLL_MAX_OPTIONS {
            return Err(Error::bad_request("A poll can have at most 4 options"));
        }
        if options.iter().any(|o| o.chars().count() > POLL_OPTION_MAX_CHARS) {
            return Err(Error::bad_request(format!(
                "A poll option can be at most {POLL_OPTION_MAX_CHARS} characters long"
            )));
        }
        for (i, option) in options.iter().enumerate() {
            if options[..i].contains(option) {
                return Err(Error::bad_request("Poll options must be different from each other"));
            }
        }
        Ok(Some(PollOptions(options)))
    }

    pub fn as_slice(&self) -> &[String] {
        &self.0
    }
}

/// An image's description (its alt text): trimmed, NFC-normalized, at most 1500 code points,
/// and as `text` has a post's text. `parse` answers `None` for a blank
/// one: that image simply has no description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageDescription(String);

impl ImageDescription {
    pub fn parse(raw: Option<&str>) -> Result<Option<ImageDescription>> {
        let Some(raw) = raw else { return Ok(None) };
        let text = text::normalize(Kind::ImageDescription, raw.trim())?;
        if text.is_empty() {
            return Ok(None);
        }
        if text.chars().count() > IMAGE_DESCRIPTION_MAX_CHARS {
            return Err(Error::bad_request(format!(
                "An image description can be at most {IMAGE_DESCRIPTION_MAX_CHARS} characters long"
            )));
        }
        Ok(Some(ImageDescription(text)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How long a poll stays open: 5 minutes to 7 days (Mastodon's range), a day unless said
/// otherwise. A length outside the range is refused naming it, never rounded into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PollDuration(Millis);

impl PollDuration {
    /// From Murmur's API: `pollDurationHours` (1 to 168) or `pollDurationMinutes` (5 to
    /// 10080), not both.
    pub fn parse(hours: Option<i64>, minutes: Option<i64>) -> Result<PollDuration> {
        match (hours, minutes) {
            (Some(_), Some(_)) => Err(Error::bad_request("Send pollDurationHours or pollDurationMinutes, not both")),
            (Some(hours), None) => {
                let max = POLL_MAX.as_millis() / HOUR;
                if !(1..=max).contains(&hours) {
                    return Err(Error::bad_request(format!("pollDurationHours must be between 1 and {max}")));
                }
                Ok(PollDuration(hours * HOUR))
            }
            (None, Some(minutes)) => {
                let (min, max) = (POLL_MIN.as_millis() / MINUTE, POLL_MAX.as_millis() / MINUTE);
                if !(min..=max).contains(&minutes) {
                    return Err(Error::bad_request(format!(
                        "pollDurationMinutes must be between {min} and {max} (5 minutes to 7 days)"
                    )));
                }
                Ok(PollDuration(minutes * MINUTE))
            }
            (None, None) => Ok(POLL_DEFAULT),
        }
    }

    /// From an app: `poll[expires_in]`, in seconds (300 to 604800).
    pub fn from_seconds(seconds: Option<i64>) -> Result<PollDuration> {
        let Some(seconds) = seconds else { return Ok(POLL_DEFAULT) };
        let (min, max) = (POLL_MIN.as_millis() / SECOND, POLL_MAX.as_millis() / SECOND);
        if !(min..=max).contains(&seconds) {
            return Err(Error::bad_request(format!(
                "poll[expires_in] must be between {min} and {max} seconds (5 minutes to 7 days)"
            )));
        }
        Ok(PollDuration(seconds * SECOND))
    }

    pub fn as_millis(self) -> Millis {
        self.0
    }
}

/// The shortest, longest and default poll.
pub const POLL_MIN: PollDuration = PollDuration(5 * MINUTE);
pub const POLL_MAX: PollDuration = PollDuration(7 * 24 * HOUR);
pub const POLL_DEFAULT: PollDuration = PollDuration(24 * HOUR);

/// A client's `Idempotency-Key` for a post it makes: retried with the same key within
/// `store::KEY_KEPT_FOR`, the request answers the first post instead of a second one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyKey(String);

/// Longest `Idempotency-Key`, in characters (a UUID is 36).
pub const IDEMPOTENCY_KEY_MAX_CHARS: usize = 128;

impl IdempotencyKey {
    pub fn parse(raw: &str) -> Result<IdempotencyKey> {
        let visible = |c: char| c.is_ascii_graphic();
        if raw.is_empty() || raw.len() > IDEMPOTENCY_KEY_MAX_CHARS || !raw.chars().all(visible) {
            return Err(Error::bad_request(format!(
                "Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX_CHARS} visible ASCII characters"
            )));
        }
        Ok(IdempotencyKey(raw.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An `Idempotency-Key` bound to the request it came with, as the IETF Idempotency-Key draft
/// asks: its endpoint and the SHA-256 of its body, so the key answers a retry of that very
/// request and refuses any other (`writes`: 422 for another request, 409 once its post is gone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedRequest {
    pub key: IdempotencyKey,
    /// The method and route, e.g. `POST /api/posts`.
    pub endpoint: &'static str,
    /// SHA-256 (hex) of the body as the server read it: the same request retried hashes alike
    /// however its JSON is spaced or ordered.
    pub body_hash: String,
}

impl KeyedRequest {
    pub fn new(key: IdempotencyKey, endpoint: &'static str, body: &[u8]) -> KeyedRequest {
        use sha2::Digest as _;
        KeyedRequest { key, endpoint, body_hash: hex::encode(sha2::Sha256::digest(body)) }
    }

    pub fn key(&self) -> &str {
        self.key.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_idempotency_key_is_short_visible_ascii() {
        assert_eq!(IdempotencyKey::parse("3f2a-b7").unwrap().as_str(), "3f2a-b7");
        assert!(IdempotencyKey::parse(&"k".repeat(IDEMPOTENCY_KEY_MAX_CHARS)).is_ok());
        for bad in ["", " ", "a b", "caf\u{e9}", "a\tb"] {
            assert!(IdempotencyKey::parse(bad).is_err(), "{bad:?}");
        }
        assert!(IdempotencyKey::parse(&"k".repeat(IDEMPOTENCY_KEY_MAX_CHARS + 1)).is_err());
    }

    #[test]
    fn content_is_trimmed_and_a_post_needs_text_or_an_image() {
        assert_eq!(PostContent::parse("  hello \n").unwrap().as_str(), "hello");
        let blank = PostContent::parse(" \n\t ").unwrap();
        assert_eq!(blank.ensure_post_has(0).unwrap_err().to_string(), "A post cannot be empty");
        assert!(blank.ensure_post_has(1).is_ok());
        assert!(PostContent::parse("hi").unwrap().ensure_post_has(0).is_ok());
    }

    #[test]
    fn content_is_stored_nfc_and_follows_the_text_rule() {
        assert_eq!(PostContent::parse(" cafe\u{301} ").unwrap().as_str(), "caf\u{e9}");
        // 500 decomposed letters are 1000 code points typed but 500 stored.
        assert!(PostContent::parse(&"e\u{301}".repeat(500)).is_ok());
        assert!(PostContent::parse("look \u{202e}txt.exe").is_err());
        assert!(PostContent::parse("\u{200b}\u{3164}").is_err_and(|e| e.to_string() != "A post cannot be empty"));
    }

    #[test]
    fn poll_options_are_stored_nfc_and_follow_the_text_rule() {
        let opts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let poll = PollOptions::parse(&opts(&["Cafe\u{301}", "Te\u{301}"])).unwrap().unwrap();
        assert_eq!(poll.as_slice(), ["Caf\u{e9}", "T\u{e9}"]);
        // The same words typed two ways are the same option.
        assert!(PollOptions::parse(&opts(&["caf\u{e9}", "cafe\u{301}"])).is_err());
        assert!(PollOptions::parse(&opts(&["yes", "\u{2066}no"])).is_err());
        assert!(PollOptions::parse(&opts(&["yes", "\u{200b}"])).is_err());
    }

    #[test]
    fn content_length_counts_code_points_not_bytes() {
        // 500 emoji are 2000 bytes but 500 characters.
        assert!(PostContent::parse(&"🙂".repeat(500)).is_ok());
        assert!(PostContent::parse(&"é".repeat(501)).is_err());
        assert!(PostContent::parse(&"a".repeat(500)).is_ok());
    }

    #[test]
    fn poll_drops_blank_options_and_needs_two_to_four_distinct() {
        let opts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(PollOptions::parse(&opts(&["", "  "])).unwrap(), None);
        let poll = PollOptions::parse(&opts(&[" Yes ", "", "No"])).unwrap().unwrap();
        assert_eq!(poll.as_slice(), ["Yes", "No"]);
        assert!(PollOptions::parse(&opts(&["Only", " "])).is_err());
        assert!(PollOptions::parse(&opts(&["a", "b", "c", "d", "e"])).is_err());
        assert!(PollOptions::parse(&opts(&["same", "same"])).is_err());
        assert!(PollOptions::parse(&opts(&["ok", &"x".repeat(81)])).is_err());
        assert!(PollOptions::parse(&opts(&["ok", &"x".repeat(80)])).is_ok());
    }

    #[test]
    fn poll_duration_defaults_to_a_day_and_stays_within_five_minutes_and_a_week() {
        assert_eq!(PollDuration::parse(None, None).unwrap().as_millis(), 24 * HOUR);
        assert_eq!(PollDuration::parse(Some(1), None).unwrap().as_millis(), HOUR);
        assert!(PollDuration::parse(Some(168), None).is_ok());
        assert!(PollDuration::parse(Some(0), None).is_err());
        assert!(PollDuration::parse(Some(169), None).is_err());
        assert_eq!(PollDuration::parse(None, Some(5)).unwrap().as_millis(), 5 * MINUTE);
        assert!(PollDuration::parse(None, Some(10080)).is_ok());
        assert_eq!(
            PollDuration::parse(None, Some(4)).unwrap_err().to_string(),
            "pollDurationMinutes must be between 5 and 10080 (5 minutes to 7 days)"
        );
        assert!(PollDuration::parse(Some(1), Some(60)).is_err());
        assert_eq!(PollDuration::from_seconds(Some(300)).unwrap().as_millis(), 5 * MINUTE);
        assert!(PollDuration::from_seconds(Some(604_800)).is_ok());
        assert!(PollDuration::from_seconds(Some(299)).is_err());
        assert!(PollDuration::from_seconds(Some(604_801)).is_err());
    }

    #[test]
    fn an_image_description_is_trimmed_nfc_and_bounded() {
        let parse = |s: &str| ImageDescription::parse(Some(s)).map(|d| d.map(|d| d.as_str().to_string()));
        assert_eq!(parse("  A heron, cafe\u{301} behind  ").unwrap().as_deref(), Some("A heron, caf\u{e9} behind"));
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(ImageDescription::parse(None).unwrap(), None);
        assert!(parse(&"é".repeat(1500)).unwrap().is_some());
        assert!(parse(&"é".repeat(1501)).is_err());
        assert!(parse("a \u{202e}gnp.exe").is_err());
        assert!(parse("\u{200b}").is_err());
        assert!(parse("a\0b").is_err());
    }

    #[test]
    fn a_content_warning_is_trimmed_nfc_bounded_and_blank_is_none() {
        let parse = |s: &str| ContentWarning::parse(Some(s)).map(|w| w.map(|w| w.as_str().to_string()));
        assert_eq!(parse("  Spoilers, cafe\u{301}  ").unwrap().as_deref(), Some("Spoilers, caf\u{e9}"));
        assert_eq!(parse(" \t ").unwrap(), None);
        assert_eq!(ContentWarning::parse(None).unwrap(), None);
        assert!(parse(&"é".repeat(100)).unwrap().is_some());
        // 100 letters typed with combining accents are 100 stored.
        assert!(parse(&"e\u{301}".repeat(100)).unwrap().is_some());
        assert_eq!(
            parse(&"é".repeat(101)).unwrap_err().to_string(),
            "A content warning can be at most 100 characters long"
        );
        assert!(parse("a \u{202e}b").is_err());
        assert!(parse("\u{200b}").is_err());
        assert!(parse("one\ntwo").is_err());
        assert!(parse("a\0b").is_err());
    }

    // Regressions found by fuzzing (fuzz/fuzz_targets/, see docs/security.md).

    #[test]
    fn post_content_handles_nul() {
        assert!(PostContent::parse("\0\u{2}").is_err());
        assert!(PostContent::parse("hello\0world").is_err());
    }

    #[test]
    fn poll_options_handle_nul() {
        let opts = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(PollOptions::parse(&opts(&["\0", "\u{11}\0", ""])).is_err());
        assert!(PollOptions::parse(&opts(&["yes", "n\0o"])).is_err());
    }
}
