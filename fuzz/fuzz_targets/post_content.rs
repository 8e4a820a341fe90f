//! PostContent: a parsed post is trimmed and 1–500 code points, parsing it again gives the
//! same value, and a refusal is only for empty or too long text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::posts::domain::{POST_MAX_CHARS, PostContent};

fuzz_target!(|raw: &str| {
    let trimmed = raw.trim();
    match PostContent::parse(raw) {
        Ok(content) => {
            let text = content.as_str();
            assert_eq!(text, trimmed);
            assert_eq!(text, text.trim(), "not trimmed");
            assert!(!text.contains('\0'), "PostgreSQL cannot store U+0000");
            let n = text.chars().count();
            assert!((1..=POST_MAX_CHARS).contains(&n), "{n} code points");
            assert_eq!(PostContent::parse(text).unwrap(), content, "no round trip");
        }
        Err(err) => {
            let n = trimmed.chars().count();
            assert!(n == 0 || n > POST_MAX_CHARS || trimmed.contains('\0'), "{n} code points refused: {err}");
            assert!(!err.to_string().is_empty());
        }
    }
});
