//! Names and text that cannot deceive: the rule every writer of members' text calls (posts,
//! their content warnings, poll options, image descriptions, display names, bios, websites,
//! report comments, moderators' reasons, list titles, muted words), and the look-alike test for display names.
//!
//! - Text is stored NFC-normalized, so the same words are the same bytes (search, duplicate
//!   poll options, lengths as the schema counts them).
//! - Control characters (C0, DEL, C1) are refused everywhere, but for line feeds and tabs in
//!   text written on several lines (posts, bios, image descriptions, comments, reasons), where a
//!   CR LF pair is stored as LF. A name or option is one line: a line break there is refused.
//! - Text-direction controls that reorder what follows them (U+202A–U+202E embeddings and
//!   overrides, U+2066–U+2069 isolates) are refused everywhere: they make text read differently
//!   from what it is. A display name also refuses the three marks (U+200E, U+200F, U+061C): a
//!   name has no need of them and they can move the text beside it, while a post in Arabic or
//!   Hebrew uses them to place punctuation and keeps them.
//! - Text made only of blank characters (white space, default ignorable code points such as
//!   zero-width characters, U+3164 and the other Hangul fillers, variation selectors and tags,
//!   and U+2800) is refused, but in a bio: it would show as nothing. Zero-width characters
//!   inside visible text stay (emoji sequences and several scripts need them); the look-alike
//!   key ignores them.
//! - A display name may not look like another member's username or display name, nor like a
//!   username held after a rename or a deletion: all are stored as their `look_alike_key`
//!   (`users.username_skeleton`, `users.name_skeleton`, `username_holds.skeleton`, indexed) and
//!   a new name is refused when its key is another member's (`users::store::name_stands_apart`).
//! - A display name or an app's name may not read as the instance or its staff ("Murmur",
//!   "Admin", "Murmur Team": `is_reserved_name`).
//!
//! docs/safety.md, "Names and text", says why.

use icu_properties::CodePointSetData;
use icu_properties::props::{BidiControl, DefaultIgnorableCodePoint, WhiteSpace};
use unicode_normalization::UnicodeNormalization;

use crate::error::{Error, Result};

/// What a piece of member text is: it decides the rule, and names the text in messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    DisplayName,
    Bio,
    Website,
    Post,
    /// A post's content warning, which its card shows in place of the post.
    ContentWarning,
    PollOption,
    ImageDescription,
    /// A member's words with a report.
    ReportComment,
    /// Why a moderator acted, which every member reads in the moderation log.
    ModerationReason,
    /// An app's name, which members read when asked to let it in and under its posts.
    AppName,
    /// The title of a member's list, which only they read.
    ListTitle,
    /// A word, phrase or hashtag a member mutes.
    MutedWord,
    /// A direct message, which only its conversation's members read.
    Message,
}

impl Kind {
    /// How a message names the text, as the other messages of each field do.
    fn label(self) -> &'static str {
        match self {
            Kind::DisplayName => "Display name",
            Kind::Bio => "Bio",
            Kind::Website => "Website",
            Kind::Post => "A post",
            Kind::ContentWarning => "A content warning",
            Kind::PollOption => "A poll option",
            Kind::ImageDescription => "An image description",
            Kind::ReportComment => "A comment",
            Kind::AppName => "An app's name",
            Kind::ListTitle => "A list's title",
            Kind::ModerationReason => "A reason",
            Kind::MutedWord => "A muted word",
            Kind::Message => "A message",
        }
    }

    /// Text the web app takes in a text area and shows with its line breaks.
    fn is_multi_line(self) -> bool {
        match self {
            Kind::Bio
            | Kind::Post
            | Kind::ImageDescription
            | Kind::ReportComment
            | Kind::ModerationReason
            | Kind::Message => true,
            Kind::DisplayName
            | Kind::Website
            | Kind::PollOption
            | Kind::ContentWarning
            | Kind::AppName
            | Kind::ListTitle
            | Kind::MutedWord => false,
        }
    }
}

/// The message when a display name's look-alike key is another member's.
pub const LOOKS_LIKE_ANOTHER: &str = "Display name looks like another member's name or username";

/// The words only the instance and its staff go by: a display name or an app's name made of
/// nothing else ("Murmur", "Admin", "Murmur Team", "The Moderators") reads as the instance
/// speaking (`is_reserved_name`). Usernames have their own list (`users::username::RESERVED`).
pub const RESERVED_NAME_WORDS: &[&str] = &[
    "murmur",
    "the",
    "official",
    "team",
    "staff",
    "admin",
    "admins",
    "administrator",
    "administrators",
    "moderator",
    "moderators",
    "mod",
    "mods",
    "operator",
    "support",
    "help",
    "security",
    "system",
];

/// Refuses a name (`kind`: a display name, an app's name) that `is_reserved_name` finds.
pub fn refuse_reserved_name(kind: Kind, name: &str) -> Result<()> {
    if is_reserved_name(name) {
        return Err(Error::bad_request(format!("{} looks like the name of Murmur or of its staff", kind.label())));
    }
    Ok(())
}

/// Whether `name` is made only of `RESERVED_NAME_WORDS`, compared as they look: by their
/// look-alike keys, with anything between them ignored ("MURMUR team", "Murmur_Support",
/// "AdminTeam"), and small i read as l, since "Adm1n" and "Admin" differ only by a stroke that
/// the skeleton keeps apart ("1" reads as "l" there, "i" as itself).
pub fn is_reserved_name(name: &str) -> bool {
    static WORDS: std::sync::LazyLock<Vec<String>> =
        std::sync::LazyLock::new(|| RESERVED_NAME_WORDS.iter().map(|word| reserved_key(word)).collect());
    let key = reserved_key(name);
    // Whether key[..end] splits wholly into reserved words, for each end (a word break).
    let mut splits = vec![false; key.len() + 1];
    splits[0] = true;
    for end in 1..=key.len() {
        splits[end] = key.is_char_boundary(end)
            && WORDS.iter().any(|word| {
                end >= word.len()
                    && key.is_char_boundary(end - word.len())
                    && splits[end - word.len()]
                    && key[end - word.len()..end] == **word
            });
    }
    !key.is_empty() && splits[key.len()]
}

/// A name's look-alike key without what is not a letter or digit, small i read as l.
fn reserved_key(name: &str) -> String {
    look_alike_key(name).chars().filter(|c| c.is_alphanumeric()).map(|c| if c == 'i' { 'l' } else { c }).collect()
}

/// `text` as it is stored: NFC-normalized with CR LF as LF, after refusing control characters
/// (but line feeds and tabs in multi-line text), text-direction controls and, but for a bio,
/// text made only of blank characters. The caller trims first and checks emptiness and length
/// on the answer (normalizing can change the count of code points).
pub fn normalize(kind: Kind, text: &str) -> Result<String> {
    let mut text = nfc(text);
    if kind.is_multi_line() && text.contains('\r') {
        text = text.replace("\r\n", "\n");
    }
    if text.chars().any(|c| refused_control(kind, c)) {
        let message = if kind.is_multi_line() {
            format!("{} cannot contain control characters other than line breaks and tabs", kind.label())
        } else {
            format!("{} cannot contain line breaks or other control characters", kind.label())
        };
        return Err(Error::bad_request(message));
    }
    if text.chars().any(|c| refused_direction_control(kind, c)) {
        return Err(Error::bad_request(format!("{} cannot contain text-direction control characters", kind.label())));
    }
    if kind != Kind::Bio && !text.is_empty() && is_blank(&text) {
        return Err(Error::bad_request(format!("{} cannot be only invisible characters", kind.label())));
    }
    Ok(text)
}

/// `text` NFC-normalized: what is stored, and what a text sent to match stored text (a vote's
/// option) is compared as.
pub fn nfc(text: &str) -> String {
    text.nfc().collect()
}

/// A control character (general category Cc: C0, DEL, C1) `kind` may not hold; a one-line
/// text also refuses the line and paragraph separators, which break lines as LF does.
fn refused_control(kind: Kind, c: char) -> bool {
    if kind.is_multi_line() {
        c.is_control() && c != '\n' && c != '\t'
    } else {
        c.is_control() || c == '\u{2028}' || c == '\u{2029}'
    }
}

fn refused_direction_control(kind: Kind, c: char) -> bool {
    const MARKS: [char; 3] = ['\u{200E}', '\u{200F}', '\u{061C}'];
    CodePointSetData::new::<BidiControl>().contains(c) && (kind == Kind::DisplayName || !MARKS.contains(&c))
}

/// Text from another site (a link's card): never refused, since nobody here wrote it, but made
/// harmless the same way: NFC, control characters and text-direction controls that reorder what
/// follows dropped, runs of white space one space, at most `max_chars` characters (cut with
/// "…"). None when nothing visible is left.
pub fn from_elsewhere(text: &str, max_chars: usize) -> Option<String> {
    let kept: String = nfc(text)
        .chars()
        .map(|c| if c.is_control() || c == '\u{2028}' || c == '\u{2029}' { ' ' } else { c })
        .filter(|&c| !refused_direction_control(Kind::Post, c))
        .collect();
    let text = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() || is_blank(&text) {
        return None;
    }
    if text.chars().count() <= max_chars {
        return Some(text);
    }
    let cut: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    Some(format!("{}…", cut.trim_end()))
}

/// True when no character of `text` draws anything.
pub fn is_blank(text: &str) -> bool {
    let white_space = CodePointSetData::new::<WhiteSpace>();
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    // U+2800 BRAILLE PATTERN BLANK is a symbol by its properties but draws an empty cell: the
    // one blank that neither White_Space nor Default_Ignorable_Code_Point holds.
    text.chars().all(|c| white_space.contains(c) || ignorable.contains(c) || c.is_control() || c == '\u{2800}')
}

/// The NFKC case fold of `text`: NFKC of its case fold, without default ignorable code points,
/// repeated until it stands (folding can make text that NFKC maps again), as Unicode's
/// toNFKC_Casefold. The case fold is the lower case of the upper case, which folds what lower
/// case alone leaves apart ("ß" and "ss", "ς" and "σ"). "ＲＵＳＴ", "𝐑𝐮𝐬𝐭", "Rust" and "RUST"
/// all fold to "rust"; "Straße" to "strasse".
pub fn nfkc_case_fold(text: &str) -> String {
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    let mut folded: String = text.nfkc().collect();
    // Two rounds settle every text Unicode has; the bound keeps a surprise from looping.
    for _ in 0..4 {
        let next: String = folded.to_uppercase().to_lowercase().nfkc().filter(|&c| !ignorable.contains(c)).collect();
        if next == folded {
            break;
        }
        folded = next;
    }
    folded
}

/// What a name looks like, for comparing it with other names: the confusable skeleton (UTS #39)
/// of its NFKC case fold, so "Ada", "ada", "аda" with a Cyrillic а, "ＡＤＡ" and "A\u{200B}da"
/// share one key; runs of white space count as one space. Usernames are keyed the same way.
///
/// Two steps around that:
/// - First, each character reads as what it looks like (`read_as_prototype`): folded first,
///   Greek "Β" and Cyrillic "В" would become "β" and "в", which look like no small b, so "Βob"
///   and "ВОВ" would not meet @bob. A capital whose prototype is a small letter stays itself:
///   capital I reads as I (its prototype is a small l), so "Ian" matches @ian and capital I and
///   small l stay apart.
/// - Then the fold and the skeleton are applied twice: a prototype may fold to a letter that has
///   a prototype of its own ("Μ" reads as "M", which folds to "m", whose prototype is "rn").
pub fn look_alike_key(name: &str) -> String {
    let read: String = name.chars().nfd().flat_map(read_as_prototype).collect();
    let fold = |s: &str| unicode_security::skeleton(&nfkc_case_fold(s)).collect::<String>();
    let key = fold(&fold(&read));
    key.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What `c` looks like: its confusable prototype, but for a capital whose prototype holds no
/// capital, which stays itself so that case folding meets its own small letter (capital I reads
/// as I, not as the small l of its prototype). Greek "Β" and Cyrillic "В" read as "B", "0" as
/// "O", Greek "ϲ" as "c" (NFKC would make it a final sigma, which looks like no c).
fn read_as_prototype(c: char) -> Vec<char> {
    let mut buffer = [0; 4];
    let prototype: Vec<char> = unicode_security::skeleton(c.encode_utf8(&mut buffer)).collect();
    if c.is_uppercase() && !prototype.iter().any(|p| p.is_uppercase()) { vec![c] } else { prototype }
}

/// A tag's key, which every tag path compares (writing a post's tags, the tag page, search's
/// `#tag`, Trending by the tags' ids): its NFKC case fold, so tags are the same whatever their
/// letters' case and whether written in fullwidth or mathematical letters (`#ＲＵＳＴ`,
/// `#𝐑𝐮𝐬𝐭` and `#Rust` are `rust`).
pub fn tag_key(name: &str) -> String {
    nfkc_case_fold(name)
}

/// The words of `text` as muted words are matched against them: its NFKC case fold with accents
/// dropped (canonical decomposition without combining marks, so "Café" reads "cafe"), cut into
/// runs of letters and digits, each between single spaces (" cafe au lait "). A muted word's
/// words in the same form are then found whole with one `LIKE '% words %'`: "cat" is in
/// " the cat sat " but not in " a category ".
pub fn word_key(text: &str) -> String {
    let folded: String =
        nfkc_case_fold(text).nfd().filter(|&c| !unicode_normalization::char::is_combining_mark(c)).collect();
    let mut key = String::with_capacity(folded.len() + 2);
    key.push(' ');
    for word in folded.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        key.push_str(word);
        key.push(' ');
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_from_elsewhere_is_made_harmless_not_refused() {
        assert_eq!(from_elsewhere("  A\tpage\r\n title\u{0007} ", 100).as_deref(), Some("A page title"));
        assert_eq!(from_elsewhere("evil\u{202E}txt.exe", 100).as_deref(), Some("eviltxt.exe"));
        assert_eq!(from_elsewhere("\u{200B}\u{3164} ", 100), None);
        assert_eq!(from_elsewhere("abcdefgh", 5).as_deref(), Some("abcd…"));
        assert_eq!(from_elsewhere("e\u{301}", 5).as_deref(), Some("\u{e9}"));
    }

    #[test]
    fn word_keys_fold_case_and_accents_and_keep_words_whole() {
        assert_eq!(word_key("Café au LAIT!"), " cafe au lait ");
        assert_eq!(word_key("#Rust, @ada's ＣＡＴ"), " rust ada s cat ");
        assert_eq!(word_key("Ünïcödé"), " unicode ");
        assert_eq!(word_key("  ...  "), " ");
        assert!(word_key("the cat sat").contains(&word_key("CAT")));
        assert!(!word_key("a category").contains(&word_key("cat")));
        assert!(word_key("New York, new york").contains(&word_key("new  YORK")));
    }

    const DIRECTION: &str = "cannot contain text-direction control characters";
    const INVISIBLE: &str = "cannot be only invisible characters";
    const ONE_LINE: &str = "cannot contain line breaks or other control characters";
    const MULTI_LINE: &str = "cannot contain control characters other than line breaks and tabs";

    /// Every kind of text, with what `normalize` answers: the stored text, or the end of the
    /// message.
    #[test]
    fn members_text_is_normalized_or_refused() {
        use Kind::*;
        let cases: &[(Kind, &str, Result<&str, &str>)] = &[
            // Stored NFC: "é" typed as e + combining acute is stored as one code point.
            (Post, "caf\u{65}\u{301}", Ok("caf\u{e9}")),
            (DisplayName, "Zoe\u{308}", Ok("Zo\u{eb}")),
            (Bio, "A\u{30a}ngstro\u{308}m", Ok("\u{c5}ngstr\u{f6}m")),
            (PollOption, "\u{212b}", Ok("\u{c5}")),
            // Embeddings, overrides and isolates: refused everywhere.
            (Post, "file\u{202e}fdp.exe", Err(DIRECTION)),
            (Post, "a\u{202a}b", Err(DIRECTION)),
            (Post, "a\u{202b}b", Err(DIRECTION)),
            (Post, "a\u{202c}b", Err(DIRECTION)),
            (Post, "a\u{202d}b", Err(DIRECTION)),
            (Post, "a\u{2066}b\u{2069}", Err(DIRECTION)),
            (Post, "\u{2067}b", Err(DIRECTION)),
            (Post, "\u{2068}b", Err(DIRECTION)),
            (DisplayName, "Ada\u{202e}", Err(DIRECTION)),
            (Bio, "hi \u{2066}there", Err(DIRECTION)),
            (PollOption, "\u{202e}yes", Err(DIRECTION)),
            // The marks: kept in posts, bios and options; refused in names.
            (Post, "\u{5e9}\u{5dc}\u{5d5}\u{5dd}\u{200f}!", Ok("\u{5e9}\u{5dc}\u{5d5}\u{5dd}\u{200f}!")),
            (Post, "a\u{200e}b", Ok("a\u{200e}b")),
            (Bio, "\u{627}\u{61c}1", Ok("\u{627}\u{61c}1")),
            (DisplayName, "Ada\u{200e}", Err(DIRECTION)),
            (DisplayName, "\u{200f}Ada", Err(DIRECTION)),
            (DisplayName, "Ada\u{61c}", Err(DIRECTION)),
            // Only blank characters: refused, but in a bio.
            (Post, "\u{200b}", Err(INVISIBLE)),
            (Post, "\u{200b}\u{200c}\u{200d}\u{2060}\u{feff}", Err(INVISIBLE)),
            (Post, "\u{3164}", Err(INVISIBLE)),
            (DisplayName, "\u{3164}\u{3164}", Err(INVISIBLE)),
            (DisplayName, "\u{115f}\u{1160}", Err(INVISIBLE)),
            (DisplayName, "\u{ffa0}", Err(INVISIBLE)),
            (DisplayName, "\u{2800}\u{2800}", Err(INVISIBLE)),
            (DisplayName, "\u{fe0f}\u{fe00}", Err(INVISIBLE)),
            (DisplayName, "\u{e0041}\u{e0064}\u{e0061}", Err(INVISIBLE)),
            (DisplayName, "\u{ad}\u{34f}\u{180e}", Err(INVISIBLE)),
            (Post, "\u{3000}\u{200b}\u{a0}", Err(INVISIBLE)),
            (Post, "\u{1}\u{7f}", Err(MULTI_LINE)),
            (PollOption, "\u{200b}", Err(INVISIBLE)),
            (Bio, "\u{200b}", Ok("\u{200b}")),
            // Zero-width characters inside visible text stay: emoji sequences need them.
            (Post, "\u{1f469}\u{200d}\u{1f4bb}", Ok("\u{1f469}\u{200d}\u{1f4bb}")),
            (DisplayName, "A\u{200b}da", Ok("A\u{200b}da")),
            (Post, "\u{267b}\u{fe0f}", Ok("\u{267b}\u{fe0f}")),
            (DisplayName, "\u{3164}Ada", Ok("\u{3164}Ada")),
            // Controls: a name or an option is one line; text on several lines keeps LF (a CR LF
            // pair is one LF) and tabs, and refuses every other C0, DEL and C1 control.
            (DisplayName, "Ada\nLovelace", Err(ONE_LINE)),
            (DisplayName, "Ada\r\nLovelace", Err(ONE_LINE)),
            (DisplayName, "Ada\tLovelace", Err(ONE_LINE)),
            (DisplayName, "Ada\u{7}", Err(ONE_LINE)),
            (DisplayName, "Ada\u{7f}", Err(ONE_LINE)),
            (DisplayName, "Ada\u{85}", Err(ONE_LINE)),
            (DisplayName, "Ada\u{9b}31m", Err(ONE_LINE)),
            (DisplayName, "Ada\u{2028}Lovelace", Err(ONE_LINE)),
            (DisplayName, "\u{0}", Err(ONE_LINE)),
            (PollOption, "yes\r\nno", Err(ONE_LINE)),
            (Website, "https://ada.example/\n", Err(ONE_LINE)),
            (Post, "one\r\ntwo\r\n", Ok("one\ntwo\n")),
            (Post, "a\tb\nc", Ok("a\tb\nc")),
            (Post, "a\rb", Err(MULTI_LINE)),
            (Post, "\u{1b}[31mred", Err(MULTI_LINE)),
            (Post, "a\u{0}b", Err(MULTI_LINE)),
            (Bio, "hi\u{7f}", Err(MULTI_LINE)),
            (Bio, "line\nline", Ok("line\nline")),
            (ImageDescription, "a\u{8}b", Err(MULTI_LINE)),
            (ReportComment, "a\u{9b}b", Err(MULTI_LINE)),
            (ModerationReason, "spam\r\nwave", Ok("spam\nwave")),
            // Report comments and moderators' reasons follow the same rules as posts.
            (ReportComment, "see \u{202e}txt.exe", Err(DIRECTION)),
            (ModerationReason, "\u{2066}spam", Err(DIRECTION)),
            (ReportComment, "\u{200b}\u{3164}", Err(INVISIBLE)),
            (ModerationReason, "\u{200b}", Err(INVISIBLE)),
            (ReportComment, "fake cafe\u{301}", Ok("fake caf\u{e9}")),
            // A content warning: a post's rules, on one line (the card shows it as a heading).
            (ContentWarning, "spoilers: cafe\u{301}", Ok("spoilers: caf\u{e9}")),
            (ContentWarning, "\u{5e9}\u{200f}!", Ok("\u{5e9}\u{200f}!")),
            (ContentWarning, "a\u{202e}b", Err(DIRECTION)),
            (ContentWarning, "\u{200b}\u{3164}", Err(INVISIBLE)),
            (ContentWarning, "war\nnews", Err(ONE_LINE)),
            // Nothing at all is the caller's "cannot be empty".
            (Post, "", Ok("")),
            (Bio, "", Ok("")),
        ];
        for (kind, text, expected) in cases {
            let got = normalize(*kind, text).map_err(|e| e.to_string());
            match (expected, &got) {
                (Ok(stored), Ok(got)) => assert_eq!(got, stored, "{kind:?} {text:?}"),
                (Err(end), Err(message)) => {
                    assert!(message.starts_with(kind.label()) && message.ends_with(end), "{kind:?} {text:?}: {message}")
                }
                _ => panic!("{kind:?} {text:?}: expected {expected:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn the_messages_read_as_sentences() {
        let message = |kind, text| normalize(kind, text).unwrap_err().to_string();
        assert_eq!(
            message(Kind::DisplayName, "\u{202e}x"),
            "Display name cannot contain text-direction control characters"
        );
        assert_eq!(message(Kind::Post, "\u{200b}"), "A post cannot be only invisible characters");
        assert_eq!(
            message(Kind::DisplayName, "Ada\n"),
            "Display name cannot contain line breaks or other control characters"
        );
        assert_eq!(
            message(Kind::ReportComment, "\u{1b}[2J"),
            "A comment cannot contain control characters other than line breaks and tabs"
        );
    }

    /// Pairs of names and whether they look alike (share a key).
    #[test]
    fn names_that_look_alike_share_a_key() {
        let cases: &[(&str, &str, bool)] = &[
            ("Ada", "ada", true),
            ("ADA", "ada", true),
            // Cyrillic а, Greek Α, fullwidth letters, a zero-width space inside.
            ("\u{430}da", "ada", true),
            ("\u{391}DA", "ada", true),
            ("\u{ff41}\u{ff44}\u{ff41}", "ada", true),
            ("A\u{200b}da", "Ada", true),
            ("Ada\u{3164}", "ada", true),
            ("Ad\u{e0061}a", "ada", true),
            // Digits and letters that read alike; "rn" and "m".
            ("b0b", "bob", true),
            ("B0B", "bob", true),
            ("wi11", "will", true),
            ("Sam", "sarn", true),
            ("Ian", "ian", true),
            // Spacing and composition.
            ("Sam  Lee", "sam lee", true),
            (" Sam Lee ", "Sam\u{3000}Lee", true),
            ("Zo\u{eb}", "Zoe\u{308}", true),
            // Capitals read as the capitals they look like, before case is folded.
            ("\u{392}ob", "bob", true),
            ("\u{412}\u{41e}\u{412}", "bob", true),
            ("\u{39c}ODDY", "moddy", true),
            ("\u{391}lice", "alice", true),
            ("B\u{3bf}b", "bob", true),
            ("\u{1d401}\u{1d428}\u{1d41b}", "bob", true),
            ("Stra\u{df}e", "STRASSE", true),
            // Different names stay apart.
            ("Ada", "Adam", false),
            ("Ada Lovelace", "ada", false),
            ("Sam Lee", "SamLee", false),
            ("Zo\u{eb}", "Zoe", false),
            ("bob", "bobby", false),
            ("\u{5e9}\u{5dc}\u{5d5}\u{5dd}", "shalom", false),
        ];
        for (a, b, alike) in cases {
            assert_eq!(
                look_alike_key(a) == look_alike_key(b),
                *alike,
                "{a:?} {b:?}: {:?} {:?}",
                look_alike_key(a),
                look_alike_key(b)
            );
        }
    }

    /// Every line of the confusables data in `testdata/confusables.txt`: the character and the
    /// letters it looks like share a key, inside a name and whatever the case of those letters.
    #[test]
    fn the_confusables_data_look_alike() {
        let hex = |field: &str| -> String {
            field.split_whitespace().map(|h| char::from_u32(u32::from_str_radix(h, 16).unwrap()).unwrap()).collect()
        };
        let mut lines = 0;
        let mut apart = Vec::new();
        for line in include_str!("testdata/confusables.txt").lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(';').collect();
            let (source, prototype) = (hex(fields[0]), hex(fields[1]));
            let key = look_alike_key(&format!("{source}ob"));
            // A capital whose prototype is a small letter reads as itself (`read_as_prototype`),
            // as capital I does beside small l: Cyrillic Ь stays apart from b.
            if source.chars().all(char::is_uppercase) && !prototype.chars().any(char::is_uppercase) {
                assert_ne!(look_alike_key(&format!("{prototype}ob")), key, "{line}");
                lines += 1;
                continue;
            }
            for looks in [prototype.clone(), prototype.to_lowercase(), prototype.to_uppercase()] {
                let other = look_alike_key(&format!("{looks}ob"));
                if other != key {
                    apart.push(format!("{line}\n  {source:?}: {key:?}, {looks:?}: {other:?}"));
                }
            }
            lines += 1;
        }
        assert!(lines >= 36, "{lines} lines read");
        assert!(apart.is_empty(), "keys apart:\n{}", apart.join("\n"));
    }

    #[test]
    fn names_of_the_instance_and_its_staff_are_reserved_however_written() {
        for name in [
            "Murmur",
            "Admin",
            "Moderator",
            "Murmur Team",
            "MURMUR team",
            "Adm1n",
            "ADMIN",
            "\u{410}dmin",
            "M\u{1d42e}rmur",
            "Murmur_Support",
            "AdminTeam",
            "The Moderators",
            "Murmur \u{2713}",
            "M u r m u r",
        ] {
            assert!(is_reserved_name(name), "{name:?} should be reserved");
        }
        for name in ["Ada", "Admiral", "Murmuring Brook", "Ada, Admin", "Team Ada", "Modest", "\u{2615}", ""] {
            assert!(!is_reserved_name(name), "{name:?} is anyone's");
        }
        assert_eq!(
            refuse_reserved_name(Kind::AppName, "Murmur").unwrap_err().to_string(),
            "An app's name looks like the name of Murmur or of its staff"
        );
        assert!(refuse_reserved_name(Kind::DisplayName, "Ada").is_ok());
    }

    #[test]
    fn a_key_is_its_own_key() {
        for name in [
            "Ada Lovelace",
            "B0B",
            "M",
            "\u{430}da",
            "\u{392}ob",
            "\u{39c}ODDY",
            "Cyd \u{2615}",
            "\u{1f469}\u{200d}\u{1f4bb} dev",
        ] {
            let key = look_alike_key(name);
            assert_eq!(look_alike_key(&key), key, "{name:?}");
        }
    }
}
