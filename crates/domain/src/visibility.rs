//! Who a member does not see, as SQL that each list puts in its own `WHERE` (so a page of 20 is
//! still 20 when posts are hidden), and who may not act on whom.
//!
//! - A block hides each of the two members from the other everywhere (`Scope::Anywhere`) and
//!   stops every interaction between them.
//! - A mute hides the muted member from the muter in the Friends and For You feeds and in
//!   notifications (`Scope::Feeds`) until it expires; nothing else changes.
//! - A suspended member is hidden from everyone everywhere while suspended.
//!
//! - A muted word hides the posts holding it (its words whole, case and accents folded) from
//!   the member who muted it in the feeds, notifications, search and tag pages until it
//!   expires (`muted_post`); threads show such a reply folded (docs/feeds.md, "Muted words").
//!
//! Each test is a primary-key or partial-index lookup per row (`blocks` both ways, `mutes`,
//! `users_suspended_idx`), never a scan of a member's blocks.

use std::collections::HashSet;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use sqlx::AnyConnection;

use murmur_core::error::{Error, Result};

/// Where a list is shown, which decides what hides an author from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// Threads, profiles, likes tabs, search, suggestions: blocks and suspensions.
    Anywhere,
    /// The Friends and For You feeds and notifications: mutes too, unexpired at `now` (SQL: a
    /// parameter or a number).
    Feeds { now: &'a str },
}

/// One thing that hides a member (`author`) from a viewer: a row of `table` (aliased `alias`)
/// naming the viewer in `viewer` (None: it hides them from everyone) and the member in
/// `author`, where `condition` holds (`{now}` is the moment asked about). The rule below is
/// the one list of them; the SQL every list applies (`hidden`) and the set For You filters
/// with (`hidden_authors`) are both made from it.
struct Hider {
    table: &'static str,
    alias: &'static str,
    viewer: Option<&'static str>,
    author: &'static str,
    condition: &'static str,
    /// Only in the feeds and notifications (`Scope::Feeds`).
    feeds_only: bool,
}

const RULE: [Hider; 4] = [
    Hider {
        table: "blocks",
        alias: "hb",
        viewer: Some("blocker_id"),
        author: "blocked_id",
        condition: "",
        feeds_only: false,
    },
    Hider {
        table: "blocks",
        alias: "hb",
        viewer: Some("blocked_id"),
        author: "blocker_id",
        condition: "",
        feeds_only: false,
    },
    Hider {
        table: "users",
        alias: "hs",
        viewer: None,
        author: "id",
        condition: "{a}.suspended_until IS NOT NULL",
        feeds_only: false,
    },
    Hider {
        table: "mutes",
        alias: "hm",
        viewer: Some("muter_id"),
        author: "muted_id",
        condition: "({a}.expires_at IS NULL OR {a}.expires_at > {now})",
        feeds_only: true,
    },
];

impl Hider {
    fn applies(&self, scope: Scope<'_>) -> bool {
        !self.feeds_only || matches!(scope, Scope::Feeds { .. })
    }

    /// The condition on the row's columns, for the moment `now` (SQL).
    fn condition(&self, now: &str) -> String {
        self.condition.replace("{a}", self.alias).replace("{now}", now)
    }

    /// SQL true when this hides `author` from `viewer` (SQL expressions).
    fn exists(&self, viewer: &str, author: &str, now: &str) -> String {
        let mut wheres = Vec::new();
        if let Some(column) = self.viewer {
            wheres.push(format!("{}.{column} = {viewer}", self.alias));
        }
        wheres.push(format!("{}.{} = {author}", self.alias, self.author));
        if !self.condition.is_empty() {
            wheres.push(self.condition(now));
        }
        format!("EXISTS (SELECT 1 FROM {} {} WHERE {})", self.table, self.alias, wheres.join(" AND "))
    }

    /// SQL selecting the members this hides from `viewer` (SQL expressions).
    fn members(&self, viewer: &str, now: &str) -> String {
        let mut wheres = Vec::new();
        if let Some(column) = self.viewer {
            wheres.push(format!("{}.{column} = {viewer}", self.alias));
        }
        if !self.condition.is_empty() {
            wheres.push(self.condition(now));
        }
        format!(
            "SELECT {}.{} FROM {} {} WHERE {}",
            self.alias,
            self.author,
            self.table,
            self.alias,
            wheres.join(" AND ")
        )
    }
}

/// SQL true when the member `author` is hidden from `viewer` in `scope` (each an SQL
/// expression: a column or a parameter such as `$1`).
pub fn hidden(scope: Scope<'_>, viewer: &str, author: &str) -> String {
    let now = match scope {
        Scope::Anywhere => "",
        Scope::Feeds { now } => now,
    };
    let tests: Vec<String> =
        RULE.iter().filter(|hider| hider.applies(scope)).map(|hider| hider.exists(viewer, author, now)).collect();
    format!("({})", tests.join(" OR "))
}

/// SQL answering the ids of the members hidden from `viewer` in `scope` (one row per thing
/// that hides each; a member may come more than once): for a ranked list that is cut into
/// pages after it is filtered (For You). Each part is one index range.
pub fn hidden_members(scope: Scope<'_>, viewer: &str) -> String {
    let now = match scope {
        Scope::Anywhere => "",
        Scope::Feeds { now } => now,
    };
    let parts: Vec<String> =
        RULE.iter().filter(|hider| hider.applies(scope)).map(|hider| hider.members(viewer, now)).collect();
    parts.join(" UNION ALL ")
}

/// SQL true when the post `post` (an alias of `posts`) is hidden from `viewer` in `scope`: its
/// author is, or, for a repost, the original's author is.
pub fn post_hidden(scope: Scope<'_>, viewer: &str, post: &str) -> String {
    format!("({} OR {})", hidden(scope, viewer, &format!("{post}.author_id")), original_hidden(scope, viewer, post))
}

/// SQL true when a post whose author is `author` (and, for a repost, whose original's author is
/// `original_author`, else NULL) is hidden from `viewer` in `scope`: for lists that keep the
/// authors beside the post's id (`timelines`).
pub fn written_hidden(scope: Scope<'_>, viewer: &str, author: &str, original_author: &str) -> String {
    format!(
        "({} OR ({original_author} IS NOT NULL AND {}))",
        hidden(scope, viewer, author),
        hidden(scope, viewer, original_author)
    )
}

/// SQL true when `post` is a repost whose original's author is hidden from `viewer`: for lists
/// that already left out hidden authors (so a muted member's posts are never walked one by one).
pub fn original_hidden(scope: Scope<'_>, viewer: &str, post: &str) -> String {
    format!(
        "({post}.repost_of_id IS NOT NULL AND EXISTS ( \
             SELECT 1 FROM posts ho WHERE ho.id = {post}.repost_of_id AND {}))",
        hidden(scope, viewer, "ho.author_id")
    )
}

/// SQL true when the post whose id is `post` (a repost: its original) holds a word `viewer`
/// mutes, unexpired at `now` (each an SQL expression). The post's row is read by its key first,
/// so a member's own posts (never hidden from them) skip the words; each muted word is then one
/// substring test (`instr`, which migration 0042 gives PostgreSQL) over the post's folded words
/// (`posts.muting_text`, `text::word_key`), cheaper than a `LIKE` pattern built per row.
pub fn muted_post(viewer: &str, post: &str, now: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM posts mp LEFT JOIN posts mo ON mo.id = mp.repost_of_id \
             WHERE mp.id = {post} AND COALESCE(mo.author_id, mp.author_id) <> {viewer} \
             AND EXISTS (SELECT 1 FROM muted_words mw WHERE mw.member_id = {viewer} \
                 AND (mw.expires_at IS NULL OR mw.expires_at > {now}) \
                 AND instr(COALESCE(mo.muting_text, mp.muting_text), mw.word_key) > 0))"
    )
}

/// SQL true when row `row` of `viewer`'s home timeline (`home_timeline`) is not shown in their
/// feeds, Friends and each of their lists alike: its author or its original's author is hidden
/// from them, or it holds a word they mute. `now` is the time's placeholder.
pub fn timeline_row_hidden(now: &str, viewer: &str, row: &str) -> String {
    format!(
        "({} OR {})",
        written_hidden(Scope::Feeds { now }, viewer, &format!("{row}.author_id"), &format!("{row}.original_author_id")),
        muted_post(viewer, &format!("{row}.post_id"), now)
    )
}

/// SQL true when `post`, a post of a member a feed walks by author (Friends' fan-in, a list's
/// older posts), is not shown to `viewer` in their feeds: a repost of a hidden member's post, or
/// one holding a word they mute. The walk leaves hidden authors out first.
pub fn walked_post_hidden(now: &str, viewer: &str, post: &str) -> String {
    format!(
        "({} OR {})",
        original_hidden(Scope::Feeds { now }, viewer, post),
        muted_post(viewer, &format!("{post}.id"), now)
    )
}

/// Which of the posts `ids` hold a word `viewer` mutes at `now` (`muted_post`): for lists cut
/// into pages in Rust (For You) and for threads, which fold such replies instead of leaving
/// them out.
pub async fn muted_among(pool: &Pool, viewer: i64, ids: &[i64], now: Millis) -> Result<HashSet<i64>> {
    use murmur_core::db::sql::{in_list, padded_values};
    if ids.is_empty() {
        return Ok(HashSet::new());
    }
    let values: Vec<i64> = padded_values(ids).collect();
    let sql = format!(
        "SELECT p.id FROM posts p WHERE p.id IN ({}) AND {}",
        in_list(3, values.len()),
        muted_post("$1", "p.id", "$2")
    );
    let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(viewer).bind(now);
    for id in values {
        query = query.bind(id);
    }
    let muted: Vec<i64> = query.fetch_all(pool).await?;
    Ok(muted.into_iter().collect())
}

/// SQL true when either of the members `a` and `b` (SQL expressions) blocked the other: the
/// rule's blocks, which also stop every interaction.
pub fn blocked_between(a: &str, b: &str) -> String {
    let tests: Vec<String> =
        RULE.iter().filter(|hider| hider.table == "blocks").map(|hider| hider.exists(a, b, "")).collect();
    format!("({})", tests.join(" OR "))
}

/// Whether either member blocked the other.
async fn blocked_either_way(conn: &mut AnyConnection, a: i64, b: i64) -> Result<bool> {
    static SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("SELECT CASE WHEN {} THEN 1 ELSE 0 END", blocked_between("$1", "$2")));
    let blocked: i64 = sqlx::query_scalar(SQL.as_str()).bind(a).bind(b).fetch_one(conn).await?;
    Ok(blocked == 1)
}

/// The message a member gets when a block between them and another stops what they tried.
pub const CANNOT_INTERACT: &str = "You can't interact with this member";

/// Refuses (403) an interaction of `actor` with `other` (following, replying, liking,
/// reposting, voting) when either blocked the other. Every writer of an interaction calls it in
/// its transaction.
pub async fn ensure_can_interact(conn: &mut AnyConnection, actor: i64, other: i64) -> Result<()> {
    if actor != other && blocked_either_way(conn, actor, other).await? {
        return Err(Error::forbidden(CANNOT_INTERACT));
    }
    Ok(())
}

/// The members whose posts `viewer` does not see in the feeds at `now` (`visibility`, in
/// `Scope::Feeds`): blocked either way, muted, or suspended. For a ranked list that is cut into
/// pages after it is filtered (For You).
pub async fn hidden_authors(pool: &Pool, viewer: i64, now: Millis) -> Result<HashSet<i64>> {
    static SQL: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| hidden_members(Scope::Feeds { now: "$2" }, "$1"));
    let ids: Vec<i64> = sqlx::query_scalar(SQL.as_str()).bind(viewer).bind(now).fetch_all(pool).await?;
    Ok(ids.into_iter().collect())
}
