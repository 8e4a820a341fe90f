//! `Username`: lower-case letters, digits and underscore, 3 to 20 characters, and never a word
//! the app's routes use. New members get one derived from their e-mail address
//! (`Username::derive_base` plus a number when it is taken), and a display name from the same.

use std::fmt;

use murmur_core::error::Error;
use murmur_core::text::Kind;

use super::model::DISPLAY_NAME_MAX;

pub const MIN_LEN: usize = 3;
pub const MAX_LEN: usize = 20;

/// Words that are never usernames: path segments next to `/api/users/{username}` and
/// `/profile/{username}` (a member called "search" would shadow the search call), and names
/// people would take for the operator's.
pub const RESERVED: &[&str] = &[
    "suggested",
    "search",
    "profile",
    "profiles",
    "me",
    "self",
    "admin",
    "administrator",
    "root",
    "system",
    "operator",
    "moderator",
    "mod",
    "staff",
    "support",
    "help",
    "security",
    "abuse",
    "postmaster",
    "hostmaster",
    "webmaster",
    "noreply",
    "no_reply",
    "murmur",
    "official",
    "api",
    "auth",
    "login",
    "logout",
    "signup",
    "verify",
    "settings",
    "invites",
    "invite",
    "discover",
    "notifications",
    "post",
    "posts",
    "user",
    "users",
    "feed",
    "home",
    "about",
    "terms",
    "privacy",
    "objects",
    "null",
    "undefined",
    "anonymous",
    "everyone",
    "here",
];

/// Stands in for a local part with nothing usable in it (e.g. only symbols or non-Latin letters).
const FALLBACK: &str = "member";

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// Checks a username as typed (case-insensitive; stored lower-case).
    pub fn parse(input: &str) -> Result<Username, Error> {
        let value = input.trim().to_ascii_lowercase();
        if !is_well_formed(&value) {
            return Err(Error::bad_request("Usernames are 3 to 20 characters: letters, digits and underscores."));
        }
        if is_reserved(&value) {
            return Err(Error::bad_request("That username is not available."));
        }
        Ok(Username(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The username an e-mail's local part suggests, before making it unique: lower-case,
    /// the `+tag` dropped, `.` and `-` turned into `_`, anything else left out, padded with
    /// zeros to 3 characters and cut to 20. May be reserved; `candidate` handles that.
    pub fn derive_base(local_part: &str) -> String {
        let without_tag = local_part.split('+').next().unwrap_or_default();
        let mut base = String::with_capacity(MAX_LEN);
        for c in without_tag.chars() {
            let c = c.to_ascii_lowercase();
            let mapped = match c {
                'a'..='z' | '0'..='9' => Some(c),
                '_' | '.' | '-' => Some('_'),
                _ => None,
            };
            match mapped {
                // one underscore between words, none at the start
                Some('_') if base.is_empty() || base.ends_with('_') => {}
                Some(m) => base.push(m),
                None => {}
            }
        }
        let mut base: String = base.trim_end_matches('_').chars().take(MAX_LEN).collect();
        while base.ends_with('_') {
            base.pop();
        }
        if base.is_empty() {
            return FALLBACK.to_string();
        }
        while base.len() < MIN_LEN {
            base.push('0');
        }
        base
    }

    /// The `n`th candidate for a base: `n = 1` is the base itself (unless reserved), then
    /// `base2`, `base3`, … with the base cut so the whole stays within 20 characters.
    pub fn candidate(base: &str, n: u32) -> Option<Username> {
        let value = if n <= 1 {
            base.to_string()
        } else {
            let suffix = n.to_string();
            let keep = MAX_LEN.saturating_sub(suffix.len());
            let mut head: String = base.chars().take(keep).collect();
            while head.ends_with('_') && head.len() > 1 {
                head.pop();
            }
            head + &suffix
        };
        (is_well_formed(&value) && !is_reserved(&value)).then_some(Username(value))
    }
}

/// The display name an e-mail's local part suggests: its words capitalised
/// (`ada.lovelace` → `Ada Lovelace`) as `text` stores a display name, or `fallback`
/// when it has none or they break that rule (only invisible letters such as U+3164).
/// Whether it looks like another member's name is the sign-up's question (`create_member`).
pub fn display_name_from(local_part: &str, fallback: &str) -> String {
    // Composed first, so an accent typed as a combining mark stays in its word.
    let local_part = murmur_core::text::nfc(local_part);
    let without_tag = local_part.split('+').next().unwrap_or_default();
    let words: Vec<String> = without_tag
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect(),
                None => String::new(),
            }
        })
        .collect();
    let joined = murmur_core::text::normalize(Kind::DisplayName, &words.join(" ")).unwrap_or_default();
    let name: String = joined.chars().take(DISPLAY_NAME_MAX).collect();
    let name = name.trim_end().to_string();
    if name.is_empty() { fallback.to_string() } else { name }
}

fn is_well_formed(value: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// A word of `RESERVED`, or a name only the instance and its staff go by however written
/// (`murmur_team`, `adm1n`: `text::is_reserved_name`), which would also be the display name of a
/// newcomer named by their username.
pub fn is_reserved(value: &str) -> bool {
    RESERVED.contains(&value) || murmur_core::text::is_reserved_name(value)
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_comes_from_the_local_part() {
        assert_eq!(Username::derive_base("ada"), "ada");
        assert_eq!(Username::derive_base("Ada.Lovelace"), "ada_lovelace");
        assert_eq!(Username::derive_base("ada+murmur"), "ada");
        assert_eq!(Username::derive_base("j-r.r..tolkien"), "j_r_r_tolkien");
        assert_eq!(Username::derive_base("_x_"), "x00");
        assert_eq!(Username::derive_base("al"), "al0");
        assert_eq!(Username::derive_base("a'b!c#d"), "abcd");
    }

    #[test]
    fn long_local_parts_are_cut_to_twenty() {
        let base = Username::derive_base("abcdefghijklmnopqrstuvwxyz");
        assert_eq!(base, "abcdefghijklmnopqrst");
        // never ends on an underscore after the cut
        assert_eq!(Username::derive_base("abcdefghijklmnopqrs.tuv"), "abcdefghijklmnopqrs");
    }

    #[test]
    fn nothing_usable_gives_the_fallback() {
        assert_eq!(Username::derive_base("+tag"), "member");
        assert_eq!(Username::derive_base("émile"), "mile");
        assert_eq!(Username::derive_base("日本"), "member");
    }

    #[test]
    fn candidates_add_a_number_within_twenty_characters() {
        assert_eq!(Username::candidate("ada", 1).unwrap().as_str(), "ada");
        assert_eq!(Username::candidate("ada", 2).unwrap().as_str(), "ada2");
        assert_eq!(Username::candidate("abcdefghijklmnopqrst", 12).unwrap().as_str(), "abcdefghijklmnopqr12");
        assert_eq!(Username::candidate("abcdefghijklmnopqr_t", 123).unwrap().as_str(), "abcdefghijklmnopq123");
        for n in 1..2000 {
            let c = Username::candidate("abcdefghijklmnopqrst", n).unwrap();
            assert!(c.as_str().len() <= MAX_LEN);
        }
    }

    #[test]
    fn reserved_words_are_never_candidates() {
        assert!(Username::candidate("search", 1).is_none());
        assert!(Username::candidate("suggested", 1).is_none());
        assert!(Username::candidate("admin", 1).is_none());
        assert!(Username::candidate("murmur_team", 1).is_none());
        assert!(Username::parse("adm1n").is_err());
        assert_eq!(Username::candidate("search", 2).unwrap().as_str(), "search2");
        assert_eq!(Username::derive_base("Search"), "search");
    }

    #[test]
    fn parse_accepts_valid_names_and_refuses_the_rest() {
        assert_eq!(Username::parse(" Ada_99 ").unwrap().as_str(), "ada_99");
        for bad in
            ["", "ab", "a".repeat(21).as_str(), "ada lovelace", "ada-l", "émile", "search", "suggested", "me", "ADMIN"]
        {
            assert!(Username::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }

    #[test]
    fn display_names_capitalise_the_words() {
        assert_eq!(display_name_from("ada.lovelace", "x"), "Ada Lovelace");
        assert_eq!(display_name_from("GRACE_hopper+work", "x"), "Grace Hopper");
        assert_eq!(display_name_from("émile", "x"), "Émile");
        assert_eq!(display_name_from("+++", "member"), "member");
        assert_eq!(display_name_from(&"a".repeat(64), "x").chars().count(), 50);
    }

    #[test]
    fn derived_display_names_follow_the_text_rule_or_fall_back() {
        // Stored NFC: a decomposed é in the address becomes one code point.
        assert_eq!(display_name_from("e\u{301}mile", "x"), "\u{c9}mile");
        // U+3164 is a letter by its category, and draws nothing.
        assert_eq!(display_name_from("\u{3164}", "member"), "member");
        assert_eq!(display_name_from("\u{3164}.\u{3164}", "member"), "member");
        // Direction controls and zero-width characters are not letters: they split words.
        assert_eq!(display_name_from("ada\u{202e}moc", "x"), "Ada Moc");
        assert_eq!(display_name_from("\u{200b}", "member"), "member");
    }
}
