//! The one parser of a post's text: its mentions, hashtags and links. Run once when a post is
//! written; what it finds is stored with the post (`posts.entities`, `post_tags`), answered as
//! the post's `entities`, and drawn by the web app without parsing again.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Mentions of more members than this in one post are plain text: a post cannot page the whole
/// network.
pub const MAX_MENTIONS: usize = 10;
/// Hashtags beyond this many different ones in a post are plain text.
pub const MAX_TAGS: usize = 10;
/// A hashtag's name is 1 to 50 letters, digits or underscores, not only digits.
pub const TAG_MAX_CHARS: usize = 50;
/// Usernames are 3 to 20 characters (the users table's check).
const USERNAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EntityKind {
    Mention,
    Hashtag,
    Link,
}

/// A mention, hashtag or link in a post's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Entity {
    #[serde(rename = "type")]
    pub kind: EntityKind,
    /// Where it starts in `content`, in UTF-16 code units (a JavaScript string index), with its
    /// `@` or `#`.
    pub start: usize,
    /// Where it ends (exclusive), in UTF-16 code units.
    pub end: usize,
    /// Mention: the member's username, lower-case (as they are named now, which may not be
    /// the text any more: `posts::hydrate`). Hashtag: the tag as written here, without `#`.
    /// Link: the URL.
    pub value: String,
    /// Mention: the member's id. Stored with the post, so a mention follows its member when
    /// they change their username.
    #[serde(rename = "userId", default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub user_id: Option<i64>,
}

/// The first link of a post's entities: the one its preview card shows (`link_cards`).
pub fn first_link(entities: &[Entity]) -> Option<&str> {
    entities.iter().find(|e| e.kind == EntityKind::Link).map(|e| e.value.as_str())
}

/// What a post's text holds, found by `parse`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    spans: Vec<Span>,
}

/// One entity found, by char positions.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Span {
    kind: EntityKind,
    start: usize,
    end: usize,
    value: String,
}

/// A hashtag as stored: `key` (`tag_key`) names the tag, `name` is how this post wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hashtag {
    pub key: String,
    pub name: String,
}

pub use murmur_core::text::tag_key;

/// Whether `name` (without `#`) is a tag's name: 1 to 50 letters, digits or underscores, not
/// only digits (`#1` is a number, not a topic).
pub fn is_tag_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=TAG_MAX_CHARS).contains(&count) && name.chars().all(is_tag_char) && name.chars().any(|c| !c.is_numeric())
}

fn is_tag_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_username_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Finds the links, mentions and hashtags of `text`, in order. Links first: a mention or
/// hashtag inside a URL (`https://x.example/@ada#top`) is part of the link.
pub fn parse(text: &str) -> Parsed {
    let chars: Vec<char> = text.chars().collect();
    let mut spans = links(text);
    let in_link =
        |i: usize, spans: &[Span]| spans.iter().any(|s| s.kind == EntityKind::Link && (s.start..s.end).contains(&i));
    let mut mentioned: Vec<String> = Vec::new();
    let mut tagged: Vec<String> = Vec::new();
    let mut found: Vec<Span> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c != '@' && c != '#') || in_link(i, &spans) {
            i += 1;
            continue;
        }
        // Not inside a word: `a@b`, `x#1`, `&#38;`, `/@ada`, `@@ada` start nothing.
        let starts_word = match i.checked_sub(1).map(|p| chars[p]) {
            None => true,
            Some(prev) => !(prev.is_alphanumeric() || matches!(prev, '_' | '@' | '#' | '/' | '&')),
        };
        let is_name_char: fn(char) -> bool = if c == '@' { is_username_char } else { is_tag_char };
        let mut end = i + 1;
        while end < chars.len() && is_name_char(chars[end]) {
            end += 1;
        }
        let name: String = chars[i + 1..end].iter().collect();
        // Ends cleanly: `@ada@example.com` and `@ada` followed by more letters mention nobody.
        let ends_cleanly = match chars.get(end) {
            None => true,
            Some(&next) => !(next == '@' || next == '#' || next.is_alphanumeric()),
        };
        if starts_word && ends_cleanly {
            if c == '@' && USERNAME_CHARS.contains(&name.chars().count()) {
                let username = name.to_lowercase();
                // A reserved word (`@everyone`) is no member's name and takes no mention slot.
                let known = mentioned.contains(&username);
                if !crate::users::username::is_reserved(&username) && (known || mentioned.len() < MAX_MENTIONS) {
                    if !known {
                        mentioned.push(username.clone());
                    }
                    found.push(Span { kind: EntityKind::Mention, start: i, end, value: username });
                }
            } else if c == '#' && is_tag_name(&name) {
                let key = tag_key(&name);
                let known = tagged.contains(&key);
                if known || tagged.len() < MAX_TAGS {
                    if !known {
                        tagged.push(key);
                    }
                    found.push(Span { kind: EntityKind::Hashtag, start: i, end, value: name });
                }
            }
        }
        i = end.max(i + 1);
    }
    spans.append(&mut found);
    spans.sort_by_key(|s| s.start);
    Parsed { spans }
}

/// The http and https URLs of `text`, as char spans.
fn links(text: &str) -> Vec<Span> {
    let mut finder = linkify::LinkFinder::new();
    finder.kinds(&[linkify::LinkKind::Url]).url_must_have_scheme(true);
    let mut spans = Vec::new();
    for link in finder.links(text) {
        let url = link.as_str();
        let scheme_ok = url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://"))
            || url.get(..7).is_some_and(|s| s.eq_ignore_ascii_case("http://"));
        if !scheme_ok {
            continue;
        }
        let start = text[..link.start()].chars().count();
        let end = start + url.chars().count();
        spans.push(Span { kind: EntityKind::Link, start, end, value: url.to_string() });
    }
    spans
}

impl Parsed {
    /// The usernames mentioned, lower-cased, first mention first, each once.
    pub fn mentions(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for span in self.spans.iter().filter(|s| s.kind == EntityKind::Mention) {
            if !names.contains(&span.value) {
                names.push(span.value.clone());
            }
        }
        names
    }

    /// The post's tags, first use first, each once (as first written in the post).
    pub fn hashtags(&self) -> Vec<Hashtag> {
        let mut tags: Vec<Hashtag> = Vec::new();
        for span in self.spans.iter().filter(|s| s.kind == EntityKind::Hashtag) {
            let key = tag_key(&span.value);
            if !tags.iter().any(|t| t.key == key) {
                tags.push(Hashtag { key, name: span.value.clone() });
            }
        }
        tags
    }

    /// The entities of `text` (the text this was parsed from), with UTF-16 offsets; a mention
    /// only where `members` (username → id) holds its username (a name nobody has is plain
    /// text), with the member's id.
    pub fn entities(&self, text: &str, members: &HashMap<String, i64>) -> Vec<Entity> {
        // The UTF-16 offset of each char position, and of the end.
        let mut utf16 = Vec::with_capacity(text.len() + 1);
        let mut at = 0;
        for c in text.chars() {
            utf16.push(at);
            at += c.len_utf16();
        }
        utf16.push(at);
        self.spans
            .iter()
            .filter_map(|s| {
                let user_id = match s.kind {
                    EntityKind::Mention => Some(*members.get(&s.value)?),
                    _ => None,
                };
                Some(Entity { kind: s.kind, start: utf16[s.start], end: utf16[s.end], value: s.value.clone(), user_id })
            })
            .collect()
    }
}

/// How entities are stored in `posts.entities`: NULL for none, else the API's JSON.
pub fn to_column(entities: &[Entity]) -> Option<String> {
    if entities.is_empty() { None } else { serde_json::to_string(entities).ok() }
}

/// The stored entities; a value that does not parse is no entities (the text still shows).
pub fn from_column(column: Option<&str>) -> Vec<Entity> {
    column.and_then(|json| serde_json::from_str(json).ok()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mentions(text: &str) -> Vec<String> {
        parse(text).mentions()
    }

    fn tags(text: &str) -> Vec<String> {
        parse(text).hashtags().into_iter().map(|t| t.name).collect()
    }

    fn all(text: &str) -> Vec<(EntityKind, String, String)> {
        let members: HashMap<String, i64> = [("ada".to_string(), 1), ("bob_1".to_string(), 2)].into();
        let units: Vec<u16> = text.encode_utf16().collect();
        parse(text)
            .entities(text, &members)
            .into_iter()
            .map(|e| (e.kind, String::from_utf16(&units[e.start..e.end]).unwrap(), e.value))
            .collect()
    }

    #[test]
    fn mentions_are_found_lowercased_and_once() {
        assert_eq!(mentions("hi @Ada and @bob_1, also @ada!"), ["ada", "bob_1"]);
        assert_eq!(mentions("@ada: look"), ["ada"]);
        assert_eq!(mentions("(@ada)"), ["ada"]);
    }

    #[test]
    fn email_addresses_urls_and_words_are_not_mentions() {
        assert!(mentions("write to ada@example.com").is_empty());
        assert!(mentions("x@ada").is_empty());
        assert!(mentions("@ada@example.com").is_empty());
        assert!(mentions("https://example.com/@ada").is_empty());
        assert!(mentions("see x.example/@ada").is_empty());
        assert!(mentions("@ab is too short, @").is_empty());
        assert!(mentions(&format!("@{}", "a".repeat(21))).is_empty());
    }

    #[test]
    fn mentions_are_bounded() {
        let text: String = (0..30).map(|i| format!("@user{i:02} ")).collect();
        assert_eq!(mentions(&text).len(), MAX_MENTIONS);
    }

    #[test]
    fn reserved_words_are_not_mentions_and_take_no_slot() {
        assert!(mentions("@feed\n\n").is_empty());
        let text = "@everyone @here @admin @support @help @staff @root @system @mod @feed @ada";
        assert_eq!(mentions(text), ["ada"]);
    }

    #[test]
    fn hashtags_are_letters_digits_and_underscores_in_any_script() {
        assert_eq!(tags("Learning #RustLang today, #rustlang again"), ["RustLang"]);
        assert_eq!(tags("#café #日本語 #snake_case."), ["café", "日本語", "snake_case"]);
        assert_eq!(tags("(#one) #two!"), ["one", "two"]);
        assert!(tags("#1 #2024").is_empty(), "only digits is a number");
        assert_eq!(tags("#2024goals"), ["2024goals"]);
    }

    #[test]
    fn hashtags_inside_words_urls_and_entities_are_not_hashtags() {
        assert!(tags("issue#12 and C#").is_empty());
        assert!(tags("https://example.com/page#section").is_empty());
        assert!(tags("&#38; ##double").is_empty());
        assert!(tags(&format!("#{}", "a".repeat(51))).is_empty());
        assert_eq!(tags(&format!("#{}", "a".repeat(50))).len(), 1);
        assert!(tags("#").is_empty());
    }

    #[test]
    fn hashtags_are_bounded() {
        let text: String = (0..30).map(|i| format!("#tag{i} ")).collect();
        assert_eq!(tags(&text).len(), MAX_TAGS);
    }

    #[test]
    fn a_tag_is_one_tag_whatever_its_case_width_or_letter_style() {
        for name in ["rust", "Rust", "RUST", "\u{ff32}\u{ff35}\u{ff33}\u{ff34}", "\u{1d411}\u{1d42e}\u{1d42c}\u{1d42d}"]
        {
            assert_eq!(tag_key(name), "rust", "{name:?}");
        }
        assert_eq!(tag_key("Stra\u{df}e"), tag_key("STRASSE"));
        assert_eq!(tag_key("Cafe\u{301}"), tag_key("caf\u{e9}"));
        assert_ne!(tag_key("rust"), tag_key("rusty"));
        // One tag, written twice, takes one of the post's ten places.
        let parsed = parse("#rust #\u{ff32}\u{ff35}\u{ff33}\u{ff34} #\u{1d411}\u{1d42e}\u{1d42c}\u{1d42d}");
        assert_eq!(parsed.hashtags(), [Hashtag { key: "rust".into(), name: "rust".into() }]);
    }

    #[test]
    fn links_are_http_and_https_urls_without_trailing_punctuation() {
        assert_eq!(
            all("see https://example.com/a?b=1. and (http://x.example/y)"),
            [
                (EntityKind::Link, "https://example.com/a?b=1".into(), "https://example.com/a?b=1".into()),
                (EntityKind::Link, "http://x.example/y".into(), "http://x.example/y".into()),
            ]
        );
        assert!(all("ftp://example.com and javascript:alert(1) and example.com").is_empty());
    }

    #[test]
    fn entities_have_utf16_offsets_and_only_known_members() {
        let text = "🙂 @Ada meet @nobody at #Café https://x.example/@ada";
        assert_eq!(
            all(text),
            [
                (EntityKind::Mention, "@Ada".into(), "ada".into()),
                (EntityKind::Hashtag, "#Café".into(), "Café".into()),
                (EntityKind::Link, "https://x.example/@ada".into(), "https://x.example/@ada".into()),
            ]
        );
    }

    #[test]
    fn stored_entities_read_back_and_bad_ones_are_none() {
        let text = "#a @ada";
        let entities = parse(text).entities(text, &HashMap::from([("ada".to_string(), 7)]));
        assert_eq!(entities[1].user_id, Some(7));
        assert_eq!(from_column(to_column(&entities).as_deref()), entities);
        assert_eq!(to_column(&[]), None);
        assert!(from_column(Some("not json")).is_empty());
    }

    #[test]
    fn tag_names_are_checked() {
        assert!(is_tag_name("Rust_2024"));
        assert!(is_tag_name("日本"));
        assert!(!is_tag_name(""));
        assert!(!is_tag_name("123"));
        assert!(!is_tag_name("a-b"));
        assert!(!is_tag_name(&"a".repeat(51)));
    }
}
