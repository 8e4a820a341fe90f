//! Usernames: a parsed one is 3–20 of a–z, 0–9, `_`, not reserved, and parses back to itself;
//! whatever an e-mail's local part is, the derived base and its numbered candidates are valid
//! usernames (or reserved ones, which `candidate` never answers), and the derived display name
//! is 1–50 characters.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::users::model::DISPLAY_NAME_MAX;
use murmur::users::username::{MAX_LEN, MIN_LEN, Username, display_name_from, is_reserved};

fn well_formed(s: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&s.len())
        && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fuzz_target!(|input: (&str, u32)| {
    let (raw, n) = input;
    if let Ok(name) = Username::parse(raw) {
        assert!(well_formed(name.as_str()) && !is_reserved(name.as_str()), "{name}");
        assert_eq!(Username::parse(&name.to_string()).unwrap(), name, "no round trip");
    }
    let base = Username::derive_base(raw);
    assert!(well_formed(&base), "derived base {base:?} from {raw:?}");
    assert!(!base.starts_with('_') && !base.ends_with('_'), "{base:?}");
    for k in [1, 2, n % 100_000, n] {
        if let Some(candidate) = Username::candidate(&base, k) {
            assert!(well_formed(candidate.as_str()) && !is_reserved(candidate.as_str()), "{candidate}");
            assert_eq!(Username::parse(candidate.as_str()).unwrap(), candidate);
        } else {
            assert!(k <= 1 && is_reserved(&base), "no candidate {k} for {base:?}");
        }
    }
    let display = display_name_from(raw, "Member");
    let len = display.chars().count();
    assert!((1..=DISPLAY_NAME_MAX).contains(&len), "{display:?}");
    assert_eq!(display, display.trim(), "{display:?}");
});
