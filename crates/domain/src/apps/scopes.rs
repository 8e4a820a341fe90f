//! OAuth scopes as Mastodon names them: `read`, `write`, `follow`, `push`, `profile` and the
//! `read:statuses`-style parts of `read` and `write`. A token allows what one of its scopes
//! covers; `follow` is Mastodon's older name for reading and changing follows, blocks and mutes.

use std::collections::BTreeSet;
use std::fmt;

use murmur_core::error::{Error, Result};

/// The parts `read:…` may name.
const READ_PARTS: &[&str] = &[
    "accounts",
    "blocks",
    "bookmarks",
    "favourites",
    "filters",
    "follows",
    "lists",
    "mutes",
    "notifications",
    "search",
    "statuses",
];

/// The parts `write:…` may name.
const WRITE_PARTS: &[&str] = &[
    "accounts",
    "blocks",
    "bookmarks",
    "conversations",
    "favourites",
    "filters",
    "follows",
    "lists",
    "media",
    "mutes",
    "notifications",
    "reports",
    "statuses",
];

/// What `follow` covers.
const FOLLOW_COVERS: &[&str] =
    &["read:blocks", "read:follows", "read:mutes", "write:blocks", "write:follows", "write:mutes"];

/// The most scopes one request may name (there are fewer than 40 distinct ones).
const MAX_SCOPES: usize = 40;

/// A set of known scopes, never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scopes(BTreeSet<String>);

impl Scopes {
    /// Scopes as OAuth writes them (separated by spaces; `+` too, as some clients send them in a
    /// URL); none given means `read`, as in Mastodon. An unknown scope is refused by name.
    pub fn parse(text: Option<&str>) -> Result<Scopes> {
        let text = text.unwrap_or("").trim();
        if text.len() > 1000 {
            return Err(Error::bad_request("scope is too long"));
        }
        let mut set = BTreeSet::new();
        for scope in text.split([' ', '+']).filter(|s| !s.is_empty()) {
            if !is_known(scope) {
                return Err(Error::bad_request(format!(
                    "Unknown scope: {}",
                    scope.chars().take(60).collect::<String>()
                )));
            }
            set.insert(scope.to_string());
        }
        if set.len() > MAX_SCOPES {
            return Err(Error::bad_request("Too many scopes"));
        }
        if set.is_empty() {
            set.insert("read".to_string());
        }
        Ok(Scopes(set))
    }

    /// Whether these scopes allow `required` (`read:statuses`, `write:follows`, `push`, …).
    pub fn allow(&self, required: &str) -> bool {
        if self.0.contains(required) {
            return true;
        }
        let whole = required.split(':').next().unwrap_or(required);
        (whole != required && self.0.contains(whole))
            || (self.0.contains("follow") && FOLLOW_COVERS.contains(&required))
            // `read:accounts` is what `profile` (verify_credentials only) is a part of.
            || (required == "profile" && self.allow("read:accounts"))
    }

    /// Whether every scope of `self` is allowed by `granted` (an authorization may ask for the
    /// app's scopes or fewer).
    pub fn within(&self, granted: &Scopes) -> bool {
        self.beyond(granted).is_empty()
    }

    /// The scopes of `self` that `granted` does not allow (what an authorization asks for
    /// beyond the app's registration), in order.
    pub fn beyond<'a>(&'a self, granted: &Scopes) -> Vec<&'a str> {
        self.iter()
            .filter(|scope| {
                let covered = granted.allow(scope)
                    || (*scope == "follow" && FOLLOW_COVERS.iter().all(|part| granted.allow(part)))
                    || (matches!(*scope, "read" | "write")
                        && parts(scope).iter().all(|part| granted.allow(&format!("{scope}:{part}"))));
                !covered
            })
            .collect()
    }

    /// What the scopes let an app do, in the words the consent page shows, one line each.
    pub fn in_words(&self) -> Vec<String> {
        self.iter()
            .map(|scope| match scope.split_once(':') {
                None => match scope {
                    "read" => "Read your feeds, posts, notifications, follows, blocks and mutes".to_string(),
                    "write" => {
                        "Post, reply, repost, like, bookmark, follow, block and mute as you, and edit your profile"
                            .to_string()
                    }
                    "follow" => "Follow, block and mute people as you".to_string(),
                    "push" => "Send you push notifications".to_string(),
                    _ => "See your profile".to_string(),
                },
                Some(("read", part)) => format!("Read your {}", part.replace('_', " ")),
                Some((_, part)) => format!("Change your {}", part.replace('_', " ")),
            })
            .collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(String::as_str)
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let joined: Vec<&str> = self.iter().collect();
        f.write_str(&joined.join(" "))
    }
}

fn parts(whole: &str) -> &'static [&'static str] {
    match whole {
        "read" => READ_PARTS,
        "write" => WRITE_PARTS,
        _ => &[],
    }
}

fn is_known(scope: &str) -> bool {
    match scope.split_once(':') {
        None => matches!(scope, "read" | "write" | "follow" | "push" | "profile"),
        Some((whole, part)) => parts(whole).contains(&part),
    }
}

#[cfg(test)]
mod tests {
    use super::Scopes;

    #[test]
    fn scopes_parse_and_allow_their_parts() {
        let read = Scopes::parse(Some("read")).unwrap();
        assert!(read.allow("read:statuses"));
        assert!(!read.allow("write:statuses"));
        let some = Scopes::parse(Some("read:statuses+write:favourites")).unwrap();
        assert!(some.allow("write:favourites") && some.allow("read:statuses"));
        assert!(!some.allow("read:notifications") && !some.allow("write:statuses"));
        let follow = Scopes::parse(Some("follow")).unwrap();
        assert!(follow.allow("write:follows") && follow.allow("read:blocks") && !follow.allow("read:statuses"));
        assert!(read.allow("profile"));
        assert_eq!(Scopes::parse(None).unwrap().to_string(), "read");
        assert_eq!(Scopes::parse(Some("write  read")).unwrap().to_string(), "read write");
    }

    #[test]
    fn unknown_scopes_are_refused() {
        assert!(Scopes::parse(Some("admin:read")).is_err());
        assert!(Scopes::parse(Some("read:everything")).is_err());
        assert!(Scopes::parse(Some("sudo")).is_err());
    }

    #[test]
    fn an_authorization_asks_for_the_apps_scopes_or_fewer() {
        let app = Scopes::parse(Some("read write follow")).unwrap();
        assert!(Scopes::parse(Some("read")).unwrap().within(&app));
        assert!(Scopes::parse(Some("write:statuses read:accounts")).unwrap().within(&app));
        assert!(!Scopes::parse(Some("push")).unwrap().within(&app));
        let narrow = Scopes::parse(Some("read:statuses")).unwrap();
        assert!(!Scopes::parse(Some("read")).unwrap().within(&narrow));
        let parts =
            Scopes::parse(Some("read:blocks read:follows read:mutes write:blocks write:follows write:mutes")).unwrap();
        assert!(Scopes::parse(Some("follow")).unwrap().within(&parts));
    }

    #[test]
    fn what_an_authorization_asks_beyond_the_apps_scopes_is_named() {
        let app = Scopes::parse(Some("read write:statuses")).unwrap();
        let asked = Scopes::parse(Some("read:accounts write push write:statuses")).unwrap();
        assert_eq!(asked.beyond(&app), ["push", "write"]);
        assert!(Scopes::parse(Some("read:lists")).unwrap().beyond(&app).is_empty());
    }
}
