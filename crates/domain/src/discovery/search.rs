//! Post search: the query a member types, parsed at the edge into `SearchQuery`, and the
//! statement that finds its posts. Each database's full-text matching (SQLite's FTS5 table
//! `post_search`, PostgreSQL's `tsvector` index `posts_search_idx`) is `murmur_core::db::full_text`.

use crate::posts::entities::{is_tag_name, tag_key};
use crate::visibility;
use crate::visibility::Scope;
use murmur_core::clock::Millis;
use murmur_core::db::full_text::{self, Index, Terms, Values};
use murmur_core::db::{Backend, Pool};
use murmur_core::error::{Error, Result};
use murmur_core::page::Page;

/// Longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 200;
/// Most terms (words, phrases, exclusions, `#tag`s and `from:`) in one query.
pub const MAX_TERMS: usize = 10;
/// The last plain word of a query, when it has at least this many characters, also matches
/// longer words (the query is typed as you go: `rus` and `lighth` find "rust" and "lighthouses").
/// A single letter is taken whole: as a prefix it would match most words.
pub const PREFIX_MIN_CHARS: usize = 2;
/// SQLite keeps a prefix index for each of these lengths (migration 0027's `prefix` list), so a
/// prefix reads one ready list, newest first, like a whole word does. A prefix without its index
/// merges every matching word's list before the first match is read: a common word's cost
/// several times over. A prefix longer than these names few words, each rarely used.
pub const PREFIX_INDEXED: std::ops::RangeInclusive<usize> = 2..=10;
/// "Top" ranks the newest this many matches by relevance: a common word stays one bounded read.
pub const TOP_CANDIDATES: i64 = 1000;

/// Posts as the full-text index holds them (migrations 0014).
const POSTS: Index = Index { rows: "posts p", id: "p.id", fts5_table: "post_search", vector: "p.search_vector" };

/// How results are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Latest,
    Top,
}

impl Sort {
    pub fn parse(raw: Option<&str>) -> Result<Sort> {
        match raw.unwrap_or("latest") {
            "latest" => Ok(Sort::Latest),
            "top" => Ok(Sort::Top),
            _ => Err(Error::bad_request("sort must be latest or top")),
        }
    }
}

/// A search as typed, parsed: every word lower-case letters and digits only, so what reaches
/// the databases' query syntax is our own quoting around plain words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchQuery {
    /// Words every match holds.
    pub words: Vec<String>,
    /// The last word, of 2 characters or more, also matches as the start of a word (`rus` finds "rust").
    pub prefix: Option<String>,
    /// Phrases (two or more words in a row) every match holds.
    pub phrases: Vec<Vec<String>>,
    /// Words or phrases no match holds.
    pub excluded: Vec<Vec<String>>,
    /// Tag keys every match uses.
    pub tags: Vec<String>,
    /// Only posts by this member (a username, lower-case).
    pub from: Option<String>,
}

/// The words of `text` as both databases' tokenizers split them: runs of letters and digits,
/// lower-cased.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
}

impl SearchQuery {
    pub fn parse(raw: &str) -> Result<SearchQuery> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(Error::bad_request("Type something to search for"));
        }
        if raw.chars().count() > MAX_QUERY_CHARS {
            return Err(Error::bad_request(format!("A search can be at most {MAX_QUERY_CHARS} characters long")));
        }
        if raw.contains('\0') {
            return Err(crate::posts::domain::no_nul("A search"));
        }
        let mut query = SearchQuery::default();
        let mut terms = 0;
        let mut last_plain: Option<usize> = None;
        for (token, quoted) in tokens(raw) {
            if quoted {
                let phrase = words(&token);
                match phrase.len() {
                    0 => continue,
                    1 => query.words.extend(phrase),
                    _ => query.phrases.push(phrase),
                }
            } else if let Some(rest) = token.strip_prefix('-').filter(|r| !r.is_empty()) {
                let excluded = words(rest);
                if excluded.is_empty() {
                    continue;
                }
                query.excluded.push(excluded);
            } else if let Some(name) = token.strip_prefix("from:") {
                let name = name.trim_start_matches('@').to_lowercase();
                if crate::users::Username::parse(&name).is_err() {
                    return Err(Error::bad_request("from: needs a username, like from:ada"));
                }
                if query.from.replace(name).is_some() {
                    return Err(Error::bad_request("A search can have one from:"));
                }
            } else if let Some(tag) = token.strip_prefix('#') {
                if !is_tag_name(tag) {
                    return Err(Error::bad_request("A tag is 1 to 50 letters, digits or underscores"));
                }
                let key = tag_key(tag);
                if !query.tags.contains(&key) {
                    query.tags.push(key);
                }
            } else {
                let found = words(&token);
                if found.is_empty() {
                    continue;
                }
                query.words.extend(found);
                last_plain = Some(terms);
            }
            terms += 1;
        }
        let count = query.words.len()
            + query.phrases.len()
            + query.excluded.len()
            + query.tags.len()
            + query.from.iter().count();
        if count > MAX_TERMS {
            return Err(Error::bad_request(format!("A search can have at most {MAX_TERMS} terms")));
        }
        // The last term typed, when it is a short plain word, may still be being typed.
        let long_enough = query.words.last().is_some_and(|w| w.chars().count() >= PREFIX_MIN_CHARS);
        if long_enough && last_plain.is_some() && last_plain == terms.checked_sub(1) {
            query.prefix = query.words.pop();
        }
        if query.words.is_empty()
            && query.prefix.is_none()
            && query.phrases.is_empty()
            && query.tags.is_empty()
            && query.from.is_none()
        {
            return Err(Error::bad_request("Search for at least one word, phrase, #tag or from:member"));
        }
        Ok(query)
    }

    /// A search as an app sends it (the Mastodon API, where a query is plain text, never refused):
    /// Murmur's syntax when the query reads as it, else its words, each one required (the
    /// first `MAX_TERMS`; the last a prefix as `parse` makes it). None when it holds no word,
    /// which finds nothing.
    pub fn parse_or_plain_words(raw: &str) -> Option<SearchQuery> {
        if let Ok(query) = SearchQuery::parse(raw) {
            return Some(query);
        }
        let plain: Vec<String> = words(raw).into_iter().take(MAX_TERMS).collect();
        SearchQuery::parse(&plain.join(" ")).ok()
    }

    /// What the full-text index is asked for.
    pub fn terms(&self) -> Terms {
        Terms {
            words: self.words.clone(),
            prefix: self.prefix.clone(),
            phrases: self.phrases.clone(),
            excluded: self.excluded.clone(),
        }
    }
}

/// The query's tokens: runs without spaces, or a quoted phrase (an unclosed quote runs to the
/// end); `true` for quoted ones.
fn tokens(raw: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut chars = raw.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let phrase: String = chars.by_ref().take_while(|&c| c != '"').collect();
            out.push((phrase, true));
        } else if raw_starts_excluded_phrase(&mut chars) {
            let phrase: String = chars.by_ref().take_while(|&c| c != '"').collect();
            out.push((format!("-{phrase}"), false));
        } else {
            let mut token = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '"' {
                    break;
                }
                token.push(c);
                chars.next();
            }
            out.push((token, false));
        }
    }
    out
}

/// Whether `chars` go on with `-"` (an excluded phrase); if so, both are taken.
fn raw_starts_excluded_phrase(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> bool {
    let mut ahead = chars.clone();
    if ahead.next() == Some('-') && ahead.next() == Some('"') {
        chars.next();
        chars.next();
        return true;
    }
    false
}

/// The ids of the posts matching `query` that `viewer` may see (blocks, mutes, suspensions and
/// muted words left out before the page is cut), in `sort` order. `from` and the tags are resolved first:
/// an unknown member or tag matches nothing.
pub async fn search(
    pool: &Pool,
    backend: Backend,
    viewer: i64,
    query: &SearchQuery,
    sort: Sort,
    page: Page,
    now: Millis,
) -> Result<Vec<i64>> {
    let author: Option<i64> = match &query.from {
        Some(name) => match sqlx::query_scalar("SELECT id FROM users WHERE username = $1")
            .bind(name.as_str())
            .fetch_optional(pool)
            .await?
        {
            Some(id) => Some(id),
            None => return Ok(Vec::new()),
        },
        None => None,
    };
    let mut tag_ids = Vec::with_capacity(query.tags.len());
    for key in &query.tags {
        match super::store::tag(pool, key).await? {
            Some(tag) => tag_ids.push(tag.id),
            None => return Ok(Vec::new()),
        }
    }
    // The values are constants of the statement where the planner plans by them, so a rare word
    // is not searched the way a common one is (walking the posts newest first), nor a common one
    // the way a rare one is (every match read, then sorted): `full_text::Values`.
    let mut values = Values::new(backend);
    let (viewer, now) = (values.int(viewer), values.int(now));
    let (limit, offset) = (values.int(page.limit), values.int(page.offset));
    let mut conditions = vec![
        "p.deleted_at IS NULL".to_string(),
        "p.repost_of_id IS NULL".to_string(),
        format!("NOT {}", visibility::hidden(Scope::Feeds { now: &now }, &viewer, "p.author_id")),
        format!("NOT {}", visibility::muted_post(&viewer, "p.id", &now)),
    ];
    if let Some(author) = author {
        conditions.push(format!("p.author_id = {}", values.int(author)));
    }
    for tag in tag_ids {
        conditions.push(format!(
            "EXISTS (SELECT 1 FROM post_tags pt WHERE pt.tag_id = {} AND pt.post_id = p.id)",
            values.int(tag)
        ));
    }
    // The words last: where they are bound, they are the one text, after the numbers.
    let matching = POSTS.matching(&mut values, &query.terms(), &mut conditions);
    let sql = matching.statement(&conditions.join(" AND "), sort == Sort::Top, TOP_CANDIDATES, &limit, &offset);
    let mut statement = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql)).persistent(values.is_persistent());
    for value in values.ints {
        statement = statement.bind(value);
    }
    for text in values.texts {
        statement = statement.bind(text);
    }
    statement.fetch_all(pool).await.map_err(|e| {
        // Our quoting leaves the engines nothing to misread; should a word still trip a parser,
        // that is the query's fault, not the server's.
        if full_text::is_query_refused(&e) {
            Error::bad_request("This search cannot be run; try other words")
        } else {
            e.into()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_phrases_exclusions_and_filters_are_told_apart() {
        let q = SearchQuery::parse(r#"Coffee "morning walk" -rain from:Ada #Tea bre"#).unwrap();
        assert_eq!(q.words, words(&["coffee"]));
        assert_eq!(q.phrases, vec![words(&["morning", "walk"])]);
        assert_eq!(q.excluded, vec![words(&["rain"])]);
        assert_eq!(q.from.as_deref(), Some("ada"));
        assert_eq!(q.tags, words(&["tea"]));
        assert_eq!(q.prefix.as_deref(), Some("bre"));
    }

    #[test]
    fn the_last_plain_word_of_two_letters_or_more_is_a_prefix() {
        assert_eq!(SearchQuery::parse("rust").unwrap().prefix.as_deref(), Some("rust"));
        assert_eq!(SearchQuery::parse("ru").unwrap().prefix.as_deref(), Some("ru"));
        let q = SearchQuery::parse("morning lighth").unwrap();
        assert_eq!((q.prefix.as_deref(), q.words), (Some("lighth"), words(&["morning"])), "a longer word too");
        let q = SearchQuery::parse("lighthouses").unwrap();
        assert_eq!(q.prefix.as_deref(), Some("lighthouses"));
        assert_eq!(SearchQuery::parse("r").unwrap().prefix, None);
        let q = SearchQuery::parse("rust \"async code\"").unwrap();
        assert_eq!((q.prefix, q.words), (None, words(&["rust"])));
    }

    #[test]
    fn sqlite_keeps_a_prefix_index_for_every_indexed_length() {
        let migration = include_str!("../../../../migrations/sqlite/0027_prefixes_and_session_networks.sql");
        let lengths: Vec<String> = PREFIX_INDEXED.map(|n| n.to_string()).collect();
        assert!(migration.contains(&format!("prefix = '{}'", lengths.join(" "))), "migration 0027's prefix list");
        assert_eq!(*PREFIX_INDEXED.start(), PREFIX_MIN_CHARS, "every prefix of the shortest length has its index");
    }

    #[test]
    fn an_unclosed_quote_runs_to_the_end() {
        let q = SearchQuery::parse("\"good morning").unwrap();
        assert_eq!(q.phrases, vec![words(&["good", "morning"])]);
    }

    #[test]
    fn punctuation_never_reaches_the_query_syntax() {
        let q = SearchQuery::parse("it's \"a\" NEAR(b) x*").unwrap();
        assert_eq!(q.terms().fts5(), "(\"it\" AND \"s\" AND \"a\" AND \"near\" AND \"b\" AND \"x\")");
        assert_eq!(q.terms().tsquery(), "'it' & 's' & 'a' & 'near' & 'b' & 'x'");
        let q = SearchQuery::parse("tea ru").unwrap();
        assert_eq!(q.terms().fts5(), "(\"tea\" AND \"ru\"*)");
        assert_eq!(q.terms().tsquery(), "'tea' & 'ru':*");
        let q = SearchQuery::parse("cafe -\"bad news\" -x").unwrap();
        assert_eq!(q.terms().fts5(), "(\"cafe\") NOT \"bad news\" NOT \"x\"");
        assert_eq!(q.terms().tsquery(), "'cafe' & !('bad' <-> 'news') & !('x')");
    }

    #[test]
    fn bad_queries_are_refused_with_a_reason() {
        for bad in ["", "   ", "-only -exclusions", "from:", "from:a!", "#", "#123", "a\0b", "from:ada from:bob"] {
            assert!(SearchQuery::parse(bad).is_err(), "{bad:?}");
        }
        assert!(SearchQuery::parse(&"a".repeat(201)).is_err());
        let eleven: String = (0..11).map(|i| format!("w{i} ")).collect();
        assert!(SearchQuery::parse(&eleven).is_err());
        assert!(SearchQuery::parse("from:ada -lunch").is_ok());
        assert!(Sort::parse(Some("best")).is_err());
    }

    #[test]
    fn punctuation_alone_is_nothing_to_search() {
        assert!(SearchQuery::parse("!!! ...").is_err());
    }

    #[test]
    fn an_apps_query_that_murmur_cannot_parse_is_searched_as_plain_words() {
        let plain = |raw: &str| SearchQuery::parse_or_plain_words(raw);
        // Murmur's syntax where it parses.
        assert_eq!(plain("from:ada coffee"), Some(SearchQuery::parse("from:ada coffee").unwrap()));
        // Else the words, every one required.
        let q = plain("from:").unwrap();
        assert_eq!((q.words, q.prefix, q.from), (vec![], Some("from".to_string()), None));
        let q = plain("tea from:a!").unwrap();
        assert_eq!((q.words, q.prefix), (words(&["tea", "from", "a"]), None));
        let q = plain("#123 -only").unwrap();
        assert_eq!((q.words, q.prefix.as_deref(), q.tags, q.excluded), (words(&["123"]), Some("only"), vec![], vec![]));
        let q = plain("from:ada from:bob").unwrap();
        assert_eq!((q.words, q.prefix.as_deref(), q.from), (words(&["from", "ada", "from"]), Some("bob"), None));
        let q = plain(&"word ".repeat(60)).unwrap();
        assert_eq!(q.words.len() + q.prefix.iter().count(), MAX_TERMS, "the first terms of a long query");
        // Nothing to search for.
        assert_eq!(plain("!!! ..."), None);
        assert_eq!(plain("#"), None);
        assert_eq!(plain(""), None);
    }
}
