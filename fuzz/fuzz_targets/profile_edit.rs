//! Profile edits: an accepted edit is trimmed, display name 1–50, bio at most 160, website
//! empty or a normalized http(s) URL with a host and no user info of at most 200 characters;
//! it parses back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::users::model::{BIO_MAX, DISPLAY_NAME_MAX, ProfileEdit, WEBSITE_MAX};

fuzz_target!(|input: (&str, &str, &str)| {
    let (name, bio, website) = input;
    let Ok(edit) = ProfileEdit::parse(name, bio, website) else { return };
    assert_eq!(edit.display_name, name.trim());
    for field in [&edit.display_name, &edit.bio, &edit.website] {
        assert!(!field.contains('\0'), "PostgreSQL cannot store U+0000: {field:?}");
    }
    assert!((1..=DISPLAY_NAME_MAX).contains(&edit.display_name.chars().count()));
    assert!(edit.bio.chars().count() <= BIO_MAX && edit.bio == edit.bio.trim());
    assert!(edit.website.chars().count() <= WEBSITE_MAX && edit.website == edit.website.trim());
    if !edit.website.is_empty() {
        let url = url::Url::parse(&edit.website).expect("the website parses");
        assert!(matches!(url.scheme(), "http" | "https"), "{url}");
        assert!(url.host_str().is_some_and(|h| !h.is_empty()), "{url}");
        assert!(url.username().is_empty() && url.password().is_none(), "{url}");
        assert_eq!(url.as_str(), edit.website, "stored as parsed");
    }
    assert_eq!(ProfileEdit::parse(&edit.display_name, &edit.bio, &edit.website).unwrap(), edit);
});
