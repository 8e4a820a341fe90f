//! The mention parser: whatever a post says, the mentions are valid usernames (3–20 of
//! a–z, 0–9, `_`), lower-case, each once, at most `MAX_MENTIONS`, and each one is really
//! written in the text as `@name` (case-insensitively). PostgreSQL cannot store U+0000 in text, so
//! accepted values never contain it (here and in the other targets).
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::accounts::Username;
use murmur::posts::domain::{MAX_MENTIONS, mentions};

fuzz_target!(|text: &str| {
    let found = mentions(text);
    assert!(found.len() <= MAX_MENTIONS, "{} mentions", found.len());
    for (i, name) in found.iter().enumerate() {
        assert!((3..=20).contains(&name.len()), "{name:?} has a bad length");
        assert!(
            name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "{name:?} is not a lower-case username"
        );
        assert!(!found[..i].contains(name), "{name:?} found twice");
        // Only names a member can have: a reserved word (`@everyone`, `@admin`) is plain text
        // and does not use up one of the post's mention slots.
        assert!(Username::parse(name).is_ok(), "{name:?} cannot be a username");
        let needle = format!("@{name}");
        assert!(
            text.to_ascii_lowercase().contains(&needle),
            "{needle:?} is not in the text"
        );
    }
    // The parser is a pure function of the text.
    assert_eq!(found, mentions(text));
});
