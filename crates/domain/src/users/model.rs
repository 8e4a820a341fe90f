//! A member as stored and as the API shows them.

use serde::Serialize;
use utoipa::ToSchema;

use murmur_core::clock::{Millis, to_rfc3339};

/// How long a deleted member's username is given to nobody else.
pub const HOLD: Millis = 30 * murmur_core::clock::DAY;

/// What a suspended member is told when they ask for a link or use one.
pub const SUSPENDED: &str = "This account is suspended";

/// Whether a member whose `suspended_until` is this is suspended at `now`. A suspension that
/// has run out refuses nothing, even before upkeep clears it
/// (`moderation::store::end_expired_suspensions`).
pub fn is_suspended(suspended_until: Option<Millis>, now: Millis) -> bool {
    suspended_until.is_some_and(|until| until > now)
}

/// Columns selected for a user; keep in sync with `user_columns!`.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: i64,
    pub email: String,
    pub username: String,
    pub display_name: String,
    pub bio: String,
    pub website: String,
    pub profile_image_url: Option<String>,
    pub header_image_url: Option<String>,
    pub created_at: Millis,
    pub follower_count: i64,
    pub following_count: i64,
    pub invites_available: i64,
    /// year*100+month of the last stored invite top-up (see `invites::store::allowance_at`).
    pub invites_month: i64,
    /// `member`, `moderator` or `admin`.
    pub role: String,
    /// Set while suspended (`i64::MAX`: until lifted); see `moderation`.
    pub suspended_until: Option<Millis>,
    /// Moderators took the member's invites away: no new codes until given back.
    pub invites_taken: i64,
    /// Who invited the member; None for the instance.
    pub invited_by: Option<i64>,
    /// 1 once the member went through (or skipped) the first-run step.
    pub first_run_done: i64,
    /// When the member last changed their username; None: never.
    pub username_changed_at: Option<Millis>,
    /// 1 when the member's setting "Always expand posts with content warnings" is on.
    pub expand_warnings: i64,
    /// Who may start a conversation with the member (`MessagesFrom`, as stored).
    pub messages_from: String,
}

/// The columns of `UserRow`, for `concat!` into static SQL (sqlx refuses unaudited dynamic SQL).
#[macro_export]
macro_rules! user_columns {
    () => {
        "id, email, username, display_name, bio, website, profile_image_url, header_image_url, \
         created_at, follower_count, following_count, invites_available, invites_month, role, suspended_until, \
         invites_taken, invited_by, first_run_done, username_changed_at, expand_warnings, messages_from"
    };
}

/// A member as the API answers them. `email` only on the member's own record.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct User {
    pub id: i64,
    pub username: String,
    pub display_name: String,
    pub bio: String,
    pub website: String,
    pub profile_image_url: Option<String>,
    pub header_image_url: Option<String>,
    pub created_at: String,
    pub follower_count: i64,
    pub following_count: i64,
    pub invites_available: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// `member`, `moderator` or `admin`: only on the member's own record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Whether the member went through or skipped the first-run step (false right after
    /// sign-up): only on the member's own record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_run_done: Option<bool>,
    /// From when the member may change their username again; null: now. Only on the member's
    /// own record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime, nullable = true)]
    pub username_changeable_at: Option<Option<String>>,
    /// The member's setting "Always expand posts with content warnings": their cards open such
    /// posts at once. Only on the member's own record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expand_content_warnings: Option<bool>,
    /// The member's setting "Allow new messages from". Only on the member's own record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages_from: Option<MessagesFrom>,
}

/// Who may start a conversation with a member (their setting "Allow new messages from"); a
/// conversation started by someone they do not follow arrives under Requests
/// (docs/messages.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum MessagesFrom {
    Everyone,
    /// The default.
    Following,
    Nobody,
}

impl MessagesFrom {
    pub const fn as_str(self) -> &'static str {
        match self {
            MessagesFrom::Everyone => "everyone",
            MessagesFrom::Following => "following",
            MessagesFrom::Nobody => "nobody",
        }
    }

    /// The setting as stored; the schema allows no other value.
    pub fn stored(value: &str) -> MessagesFrom {
        match value {
            "everyone" => MessagesFrom::Everyone,
            "nobody" => MessagesFrom::Nobody,
            _ => MessagesFrom::Following,
        }
    }
}

/// A member changes their username at most once in this long.
pub const USERNAME_CHANGE_EVERY: Millis = 30 * murmur_core::clock::DAY;

/// A member's first username choice within this long of joining is free (the Welcome card
/// offers one, and says it can be changed later).
pub const FREE_FIRST_CHOICE_WITHIN: Millis = murmur_core::clock::DAY;

/// When a member whose username last changed at `changed_at` may change it again; None: now.
pub fn username_changeable_at(changed_at: Option<Millis>, now: Millis) -> Option<Millis> {
    changed_at.map(|at| at + USERNAME_CHANGE_EVERY).filter(|from| *from > now)
}

/// What a change of username at `now` stores as the member's last change, for a member who
/// joined at `joined_at` and last changed it at `changed_at`: `now`, which starts the wait, but
/// for the first choice within `FREE_FIRST_CHOICE_WITHIN` of joining, stored as a change whose
/// wait is already over: the next change may come at once, and that one starts the wait.
pub fn username_change_stamp(changed_at: Option<Millis>, joined_at: Millis, now: Millis) -> Millis {
    if changed_at.is_none() && now < joined_at + FREE_FIRST_CHOICE_WITHIN { now - USERNAME_CHANGE_EVERY } else { now }
}

impl UserRow {
    /// The public view: no e-mail, and invitesAvailable only matters to its owner.
    pub fn public(self) -> User {
        User {
            id: self.id,
            username: self.username,
            display_name: self.display_name,
            bio: self.bio,
            website: self.website,
            profile_image_url: self.profile_image_url,
            header_image_url: self.header_image_url,
            created_at: to_rfc3339(self.created_at),
            follower_count: self.follower_count,
            following_count: self.following_count,
            invites_available: 0,
            email: None,
            role: None,
            first_run_done: None,
            username_changeable_at: None,
            expand_content_warnings: None,
            messages_from: None,
        }
    }

    /// What a member who blocked the viewer shows them ("You can't view this profile"): who
    /// it is, and nothing of what they wrote about themselves or of their network.
    pub fn blocked_view(self) -> User {
        self.shut_out().public()
    }

    /// The record as `blocked_view` shows it, for interfaces that make their own entities.
    pub fn shut_out(self) -> UserRow {
        UserRow {
            bio: String::new(),
            website: String::new(),
            header_image_url: None,
            follower_count: 0,
            following_count: 0,
            ..self
        }
    }

    /// The member's own view at `now`, with e-mail and the invite allowance including the
    /// monthly top-ups not stored yet (a read shows them; making an invite stores them).
    pub fn own(self, now: Millis) -> User {
        let email = Some(self.email.clone());
        let role = Some(self.role.clone());
        let invites = crate::invites::store::allowance_at(self.invites_available, self.invites_month, now);
        let first_run_done = Some(self.first_run_done != 0);
        let username_changeable_at = Some(username_changeable_at(self.username_changed_at, now).map(to_rfc3339));
        let expand_content_warnings = Some(self.expand_warnings != 0);
        let messages_from = Some(MessagesFrom::stored(&self.messages_from));
        User {
            email,
            role,
            invites_available: invites,
            first_run_done,
            username_changeable_at,
            expand_content_warnings,
            messages_from,
            ..self.public()
        }
    }
}

/// A profile edit, parsed: display name 1–50 characters after trimming, bio at most 160, both
/// NFC-normalized and as `text` has them; website as `text` has it, then empty
/// or an http(s) URL of at most 200 characters, stored as parsed (see `website`). Whether the name looks like another
/// member's is the store's question (`update_profile`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileEdit {
    pub display_name: String,
    pub bio: String,
    pub website: String,
}

/// Display names are 1 to 50 characters (the schema's check).
pub const DISPLAY_NAME_MAX: usize = 50;
pub const BIO_MAX: usize = 160;
pub const WEBSITE_MAX: usize = 200;

impl ProfileEdit {
    pub fn parse(display_name: &str, bio: &str, website: &str) -> murmur_core::error::Result<ProfileEdit> {
        use murmur_core::error::Error;
        use murmur_core::text::{Kind, normalize};
        let display_name = &normalize(Kind::DisplayName, display_name.trim())?;
        if display_name.is_empty() {
            return Err(Error::bad_request("Display name cannot be empty"));
        }
        if display_name.chars().count() > DISPLAY_NAME_MAX {
            return Err(Error::bad_request(format!("Display name can be at most {DISPLAY_NAME_MAX} characters long")));
        }
        let bio = &normalize(Kind::Bio, bio.trim())?;
        if bio.chars().count() > BIO_MAX {
            return Err(Error::bad_request(format!("Bio can be at most {BIO_MAX} characters long")));
        }
        let typed_website = normalize(Kind::Website, website.trim())?;
        let website = self::website(&typed_website)?;
        Ok(ProfileEdit { display_name: display_name.clone(), bio: bio.clone(), website })
    }
}

/// A website as typed (trimmed), parsed into what is stored: empty, or the normalized form of
/// an http(s) URL with a host and no user info. The web app makes it a link, so the stored
/// text must be the URL that was checked: `https:alert(1)` would otherwise link back into
/// Murmur, and `https://bank.example@evil.example` would read as the bank.
fn website(typed: &str) -> murmur_core::error::Result<String> {
    use murmur_core::error::Error;
    if typed.is_empty() {
        return Ok(String::new());
    }
    let not_web = || Error::bad_request("Website must be a web address starting with http:// or https://");
    let lower = typed.get(..8).unwrap_or(typed).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return Err(not_web());
    }
    let url = url::Url::parse(typed).map_err(|_| not_web())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(not_web());
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Error::bad_request("Website cannot contain a user name or password"));
    }
    if url.as_str().chars().count() > WEBSITE_MAX {
        return Err(Error::bad_request(format!("Website can be at most {WEBSITE_MAX} characters long")));
    }
    Ok(url.as_str().to_string())
}

/// Longest search term, in code points after trimming.
pub const SEARCH_MAX_CHARS: usize = 100;

/// A search as typed (`q`), parsed: trimmed, 1 to 100 code points, without U+0000.
pub fn search_term(q: Option<&str>) -> murmur_core::error::Result<&str> {
    use murmur_core::error::Error;
    let term = q.unwrap_or("").trim();
    if term.is_empty() {
        return Err(Error::bad_request("Enter something to search for"));
    }
    if term.chars().count() > SEARCH_MAX_CHARS {
        return Err(Error::bad_request(format!("A search can be at most {SEARCH_MAX_CHARS} characters long")));
    }
    // PostgreSQL refuses U+0000 in a text parameter (a 500); no name contains it anyway.
    if term.contains('\0') {
        return Err(Error::bad_request("A search cannot contain the character U+0000"));
    }
    Ok(term)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_username_choice_on_the_first_day_is_free() {
        use murmur_core::clock::{DAY, MINUTE};
        let joined = 100 * DAY;
        let first = username_change_stamp(None, joined, joined + MINUTE);
        assert_eq!(
            username_changeable_at(Some(first), joined + MINUTE),
            None,
            "free: the next change may come at once"
        );
        let second = username_change_stamp(Some(first), joined, joined + 2 * MINUTE);
        assert_eq!(second, joined + 2 * MINUTE, "the second choice starts the wait");
        assert_eq!(username_change_stamp(None, joined, joined + DAY), joined + DAY, "not after the first day");
    }

    #[test]
    fn a_profile_edit_is_trimmed() {
        let edit = ProfileEdit::parse("  Ada  ", " hi ", " https://ada.dev ").unwrap();
        assert_eq!(
            edit,
            ProfileEdit { display_name: "Ada".into(), bio: "hi".into(), website: "https://ada.dev/".into() }
        );
        assert!(ProfileEdit::parse("Ada", "", "").is_ok());
    }

    #[test]
    fn display_name_and_bio_are_bounded() {
        assert!(ProfileEdit::parse("   ", "", "").is_err());
        assert!(ProfileEdit::parse(&"é".repeat(50), "", "").is_ok());
        assert!(ProfileEdit::parse(&"é".repeat(51), "", "").is_err());
        assert!(ProfileEdit::parse("Ada", &"b".repeat(160), "").is_ok());
        assert!(ProfileEdit::parse("Ada", &"b".repeat(161), "").is_err());
    }

    #[test]
    fn name_and_bio_are_stored_nfc_and_follow_the_text_rule() {
        let edit = ProfileEdit::parse(" Zoe\u{308} ", "cafe\u{301}", "").unwrap();
        assert_eq!((edit.display_name.as_str(), edit.bio.as_str()), ("Zo\u{eb}", "caf\u{e9}"));
        // The limit counts what is stored: 50 letters typed with combining accents fit.
        assert!(ProfileEdit::parse(&"e\u{301}".repeat(50), "", "").is_ok());
        let message = |name: &str, bio: &str| ProfileEdit::parse(name, bio, "").unwrap_err().to_string();
        assert_eq!(message("Ada\u{202e}", ""), "Display name cannot contain text-direction control characters");
        assert_eq!(message("\u{200f}Ada", ""), "Display name cannot contain text-direction control characters");
        assert_eq!(message("\u{3164}", ""), "Display name cannot be only invisible characters");
        assert_eq!(message("Ada", "\u{2067}hi"), "Bio cannot contain text-direction control characters");
        // A mark is fine in a bio.
        assert!(ProfileEdit::parse("Ada", "\u{5e9}\u{200f}!", "").is_ok());
    }

    #[test]
    fn a_website_is_stored_as_the_url_that_was_checked() {
        let cases = [
            ("", Ok("")),
            ("http://x", Ok("http://x/")),
            ("http://example.com/x", Ok("http://example.com/x")),
            ("HTTPS://Ada.Dev", Ok("https://ada.dev/")),
            ("https://ada.dev/a b?q=1#top", Ok("https://ada.dev/a%20b?q=1#top")),
            ("https://ada.dev:443/", Ok("https://ada.dev/")),
            ("https://@ada.dev", Ok("https://ada.dev/")),
            ("https:alert(1)", Err(NOT_WEB)),
            ("javascript:alert(1)", Err(NOT_WEB)),
            ("JavaScript://ada.dev/%0aalert(1)", Err(NOT_WEB)),
            ("ftp://example.com", Err(NOT_WEB)),
            ("example.com", Err(NOT_WEB)),
            ("data:text/html,hi", Err(NOT_WEB)),
            ("//ada.dev", Err(NOT_WEB)),
            ("https://", Err(NOT_WEB)),
            ("http://exa mple.com", Err(NOT_WEB)),
            ("https://user:pw@x.example", Err(USER_INFO)),
            ("https://bank.example@evil.example", Err(USER_INFO)),
            ("https://:pw@x.example", Err(USER_INFO)),
        ];
        for (typed, expected) in cases {
            let got = ProfileEdit::parse("Ada", "", typed).map(|edit| edit.website).map_err(|e| e.to_string());
            assert_eq!(got.as_deref().map_err(String::as_str), expected, "{typed:?}");
        }
    }

    const NOT_WEB: &str = "Website must be a web address starting with http:// or https://";
    const USER_INFO: &str = "Website cannot contain a user name or password";

    #[test]
    fn a_website_is_bounded_as_stored() {
        let fits = format!("https://example.com/{}", "a".repeat(180));
        assert_eq!(ProfileEdit::parse("Ada", "", &fits).unwrap().website, fits);
        let long = format!("https://example.com/{}", "a".repeat(190));
        assert!(ProfileEdit::parse("Ada", "", &long).is_err());
        // Normalizing can lengthen what was typed: the limit holds for what is stored.
        let spaces = format!("https://example.com/{}", " a".repeat(60));
        assert!(spaces.chars().count() <= WEBSITE_MAX);
        assert!(ProfileEdit::parse("Ada", "", &spaces).is_err());
    }

    #[test]
    fn a_search_term_is_trimmed_and_bounded() {
        assert_eq!(search_term(Some("  ada ")).unwrap(), "ada");
        assert!(search_term(None).is_err());
        assert!(search_term(Some(" \t ")).is_err());
        assert!(search_term(Some(&"é".repeat(100))).is_ok());
        assert!(search_term(Some(&"é".repeat(101))).is_err());
    }

    // Regressions found by fuzzing (fuzz/fuzz_targets/): PostgreSQL cannot take U+0000.

    #[test]
    fn search_term_handles_nul() {
        assert!(search_term(Some("N\u{e}\0")).is_err());
    }

    #[test]
    fn profile_edit_handles_nul() {
        assert!(ProfileEdit::parse("\u{1}\0", "", "").is_err());
        assert!(ProfileEdit::parse("Ada", "hi\0", "").is_err());
        assert!(ProfileEdit::parse("Ada", "", "https://ada.dev/\0").is_err());
    }
}
