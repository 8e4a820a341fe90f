//! Search terms: an accepted term is the input trimmed, 1–100 code points; its LIKE pattern
//! escapes every wildcard, so unescaping it gives the term back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::users::model::{SEARCH_MAX_CHARS, search_term};
use murmur::users::store::escape_like;

fn unescape(pattern: &str) -> String {
    let mut out = String::new();
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().expect("a dangling escape")),
            '%' | '_' => panic!("an unescaped wildcard in {pattern:?}"),
            c => out.push(c),
        }
    }
    out
}

fuzz_target!(|raw: &str| {
    let Ok(term) = search_term(Some(raw)) else { return };
    assert_eq!(term, raw.trim());
    assert!((1..=SEARCH_MAX_CHARS).contains(&term.chars().count()));
    assert!(!term.contains('\0'), "PostgreSQL cannot take U+0000 in a parameter");
    let lowered = term.to_lowercase();
    assert_eq!(unescape(&escape_like(&lowered)), lowered);
});
