//! Words for seeded members and posts: plain, varied, obviously made up, always within the
//! schema's limits (display name ≤ 50, bio ≤ 160, post ≤ 500, poll option ≤ 80 code points).

use rand::Rng;
use rand_chacha::ChaCha8Rng;

const FIRST: &[&str] = &[
    "Ada",
    "Alan",
    "Grace",
    "Linus",
    "Margaret",
    "Dennis",
    "Barbara",
    "Ken",
    "Frances",
    "Edsger",
    "Radia",
    "Tim",
    "Hedy",
    "John",
    "Katherine",
    "Niklaus",
    "Sophie",
    "Guido",
    "Annie",
    "Bjarne",
    "Mary",
    "Leslie",
    "Karen",
    "Donald",
    "Joan",
    "Vint",
    "Lynn",
    "Rob",
    "Shafi",
    "Yukihiro",
    "Ines",
    "Omar",
    "Priya",
    "Kwame",
    "Mei",
    "Lars",
    "Aisha",
    "Mateo",
    "Zoe",
    "Ravi",
];

const LAST: &[&str] = &[
    "Lovelace",
    "Turing",
    "Hopper",
    "Torvalds",
    "Hamilton",
    "Ritchie",
    "Liskov",
    "Thompson",
    "Allen",
    "Dijkstra",
    "Perlman",
    "Berners-Lee",
    "Lamarr",
    "McCarthy",
    "Johnson",
    "Wirth",
    "Wilson",
    "van Rossum",
    "Easley",
    "Stroustrup",
    "Keller",
    "Lamport",
    "Jones",
    "Knuth",
    "Clarke",
    "Cerf",
    "Conway",
    "Pike",
    "Goldwasser",
    "Matsumoto",
    "Okafor",
    "Haddad",
    "Sharma",
    "Mensah",
    "Chen",
    "Nilsson",
    "Bello",
    "Rossi",
];

const BIO: &[&str] = &[
    "Writing small programs and long letters.",
    "Gardener, cyclist, occasional baker.",
    "Coffee first. Then everything else.",
    "I take photos of doors and windows.",
    "Reading more than I should, sleeping less than I could.",
    "Teacher by day, drummer by night.",
    "Learning to draw, one bad sketch at a time.",
    "Here for the conversations, not the numbers.",
    "Amateur astronomer; professional worrier.",
    "Building things with wood, code and patience.",
];

const WORDS: &[&str] = &[
    "the", "a", "today", "really", "finally", "I", "we", "think", "made", "found", "tried", "new", "old", "coffee",
    "morning", "evening", "walk", "garden", "book", "song", "project", "idea", "city", "train", "bread", "rain", "sun",
    "friends", "weekend", "kitchen", "bike", "river", "photo", "code", "bug", "release", "meeting", "music", "dinner",
    "tea", "again", "slowly", "quickly", "great", "small", "quiet", "loud", "little", "big", "and", "but", "so",
    "with", "without", "after", "before", "about", "around", "is", "was", "feels", "looks", "works", "broke", "fixed",
    "learned", "shared", "wrote", "read",
];

/// Everyday tags: used at the same rate all through the seeded days, so none of them trends.
const TAGS: &[&str] = &[
    "#WebDev",
    "#UIDesign",
    "#BuildInPublic",
    "#AI",
    "#React",
    "#Design",
    "#Coffee",
    "#Gardening",
    "#Cycling",
    "#Books",
    "#Music",
    "#Photography",
    "#Baking",
    "#RustLang",
    "#Running",
    "#Hiking",
    "#Astronomy",
    "#Woodworking",
    "#TeaTime",
    "#Jazz",
];

/// Tags of the seeded last day only: a sudden topic, so Trending has something to show.
const HOT_TAGS: &[&str] =
    &["#Eclipse", "#CityMarathon", "#HeatWave", "#LaunchDay", "#BookFair", "#FirstSnow", "#Election", "#Derby"];

/// Words rare enough that a search finds a few hundred of a million posts.
const RARE: &[&str] = &["zeppelin", "aurora", "quokka", "harpsichord", "origami", "sourdough", "lighthouse", "meteor"];

/// What the benchmark's members mute (`--muted-words-per-session`), in this order of choice: the
/// seeded texts' tags and rare words, so some posts hold them (`#Coffee` also meets the everyday
/// word), then words no seeded post holds.
pub fn words_to_mute() -> impl Iterator<Item = String> {
    let seeded = TAGS.iter().chain(HOT_TAGS).chain(RARE).map(|w| w.to_string());
    seeded.chain((1..).map(|n| format!("unseen topic {n}")))
}

const POLLS: &[&[&str]] = &[
    &["Yes", "No", "Maybe", "Ask me tomorrow"],
    &["Tea", "Coffee", "Water", "Something stronger"],
    &["Morning", "Afternoon", "Evening", "Night"],
    &["Cats", "Dogs", "Both", "Neither"],
    &["Tabs", "Spaces", "Whatever the formatter says", "I do not care"],
];

/// Text used for reposts (the web app sends the recycle emoji).
pub const REPOST_CONTENT: &str = "\u{267B}\u{FE0F}";

pub fn display_name(rng: &mut ChaCha8Rng) -> String {
    format!("{} {}", FIRST[rng.random_range(0..FIRST.len())], LAST[rng.random_range(0..LAST.len())])
}

/// A bio, empty for about a third of members.
pub fn bio(rng: &mut ChaCha8Rng) -> String {
    if rng.random_bool(0.35) { String::new() } else { BIO[rng.random_range(0..BIO.len())].to_string() }
}

pub fn username(id: i64) -> String {
    format!("member{id}")
}

pub fn email(id: i64) -> String {
    format!("member{id}@example.com")
}

/// A post of 4 to 30 words, with an @mention of `mention`, now and then a hashtag, a rare word,
/// and, for a post of the last day (`last_day`), now and then one of that day's hot tags.
pub fn post(rng: &mut ChaCha8Rng, mention: Option<i64>, last_day: bool) -> String {
    let words = rng.random_range(4..=30);
    let at = mention.map(|_| rng.random_range(0..words));
    let mut text = String::with_capacity(words * 7);
    for i in 0..words {
        if i > 0 {
            text.push(' ');
        }
        if at == Some(i) {
            text.push('@');
            text.push_str(&username(mention.unwrap_or_default()));
            text.push(' ');
        }
        let word = WORDS[rng.random_range(0..WORDS.len())];
        if i == 0 {
            let mut chars = word.chars();
            if let Some(first) = chars.next() {
                text.extend(first.to_uppercase());
                text.push_str(chars.as_str());
            }
        } else {
            text.push_str(word);
        }
    }
    text.push(if rng.random_bool(0.2) { '!' } else { '.' });
    if rng.random_bool(0.08) {
        text.push(' ');
        text.push_str(TAGS[rng.random_range(0..TAGS.len())]);
    }
    if rng.random_bool(0.002) {
        text.push(' ');
        text.push_str(RARE[rng.random_range(0..RARE.len())]);
    }
    if last_day && rng.random_bool(0.15) {
        text.push(' ');
        text.push_str(HOT_TAGS[rng.random_range(0..HOT_TAGS.len())]);
    }
    text
}

/// The options of a poll with `n` (2..=4) distinct options.
pub fn poll_options(rng: &mut ChaCha8Rng, n: usize) -> &'static [&'static str] {
    &POLLS[rng.random_range(0..POLLS.len())][..n.clamp(2, 4)]
}
