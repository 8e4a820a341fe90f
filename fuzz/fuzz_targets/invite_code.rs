//! InviteCode: an accepted code is exactly 12 characters of the code alphabet, is the input
//! trimmed and upper-cased, and parses back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::invites::{CODE_ALPHABET, CODE_LEN, InviteCode};

fuzz_target!(|raw: &str| {
    let Ok(code) = InviteCode::parse(raw) else { return };
    let s = code.as_str();
    assert_eq!(s.len(), CODE_LEN);
    assert!(s.bytes().all(|b| CODE_ALPHABET.contains(&b)), "{s:?}");
    assert_eq!(s, raw.trim().to_ascii_uppercase());
    assert_eq!(InviteCode::parse(&code.to_string()).unwrap(), code);
});
