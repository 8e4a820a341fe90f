//! PollOptions: from any list of strings, a poll is absent (only blanks), or 2–4 distinct,
//! trimmed, non-empty options of at most 80 code points, in the order given; parsing the
//! result again gives the same poll.
#![no_main]

use libfuzzer_sys::fuzz_target;
use murmur::posts::domain::{POLL_MAX_OPTIONS, POLL_MIN_OPTIONS, POLL_OPTION_MAX_CHARS, PollOptions};

fuzz_target!(|raw: Vec<String>| {
    let non_blank: Vec<&str> = raw.iter().map(|o| o.trim()).filter(|o| !o.is_empty()).collect();
    match PollOptions::parse(&raw) {
        Ok(None) => assert!(non_blank.is_empty()),
        Ok(Some(poll)) => {
            let options = poll.as_slice();
            assert!((POLL_MIN_OPTIONS..=POLL_MAX_OPTIONS).contains(&options.len()));
            assert_eq!(options, non_blank.as_slice(), "options changed or reordered");
            for (i, o) in options.iter().enumerate() {
                assert!(!o.is_empty() && o.trim() == o, "{o:?}");
                assert!(!o.contains('\0'), "PostgreSQL cannot store U+0000");
                assert!(o.chars().count() <= POLL_OPTION_MAX_CHARS, "{o:?} too long");
                assert!(!options[..i].contains(o), "{o:?} twice");
            }
            assert_eq!(PollOptions::parse(options).unwrap(), Some(poll.clone()));
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }
});
