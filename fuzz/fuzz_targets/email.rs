//! Email: an accepted address is trimmed, lower-case, at most 254 characters with one `@`,
//! a local part of 1–64 bytes and a dotted domain; its Display parses back to itself; and
//! lettre (which sends the mail) accepts it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::accounts::email::{Email, MAX_EMAIL_LEN};

fuzz_target!(|raw: &str| {
    let Ok(email) = Email::parse(raw) else { return };
    let s = email.as_str();
    assert_eq!(s, s.trim());
    assert_eq!(s, s.to_lowercase());
    assert!(s.chars().count() <= MAX_EMAIL_LEN, "{s:?} too long");
    assert!(!s.chars().any(char::is_control), "{s:?} has control characters");
    assert!(!s.chars().any(char::is_whitespace), "{s:?} has white space");
    let local = email.local_part();
    assert!((1..=64).contains(&local.len()), "{s:?}");
    let domain = &s[local.len() + 1..];
    assert!(domain.contains('.') && !domain.contains('@'), "{s:?}");
    
    assert_eq!(Email::parse(&email.to_string()).unwrap(), email, "no round trip");
});
