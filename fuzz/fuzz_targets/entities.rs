//! The entity parser: whatever a post says, the mentions are valid usernames (3–20 of a–z, 0–9,
//! `_`), lower-case, each once, at most `MAX_MENTIONS`, each really written as `@name`; the
//! hashtags are tag names, at most `MAX_TAGS`; every entity's UTF-16 span lies in the text, in
//! order, without overlap, and starts with its `@`, `#` or scheme. PostgreSQL cannot store
//! U+0000 in text, so accepted values never contain it (here and in the other targets).
#![no_main]

use std::collections::HashSet;

use libfuzzer_sys::fuzz_target;
use murmur::users::Username;
use murmur::posts::entities::{EntityKind, MAX_MENTIONS, MAX_TAGS, is_tag_name, parse};

fuzz_target!(|text: &str| {
    let parsed = parse(text);
    let found = parsed.mentions();
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
        assert!(text.to_ascii_lowercase().contains(&needle), "{needle:?} is not in the text");
    }
    let tags = parsed.hashtags();
    assert!(tags.len() <= MAX_TAGS, "{} tags", tags.len());
    assert!(tags.iter().all(|t| is_tag_name(&t.name)));
    let members: HashSet<String> = found.iter().cloned().collect();
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut last_end = 0;
    for entity in parsed.entities(text, &members) {
        assert!(last_end <= entity.start && entity.start < entity.end && entity.end <= units.len());
        last_end = entity.end;
        let shown = String::from_utf16(&units[entity.start..entity.end]).expect("spans end on characters");
        match entity.kind {
            EntityKind::Mention => assert!(shown.starts_with('@')),
            EntityKind::Hashtag => assert_eq!(shown, format!("#{}", entity.value)),
            EntityKind::Link => assert_eq!(shown, entity.value),
        }
    }
    // The parser is a pure function of the text.
    assert_eq!(parsed, parse(text));
});
