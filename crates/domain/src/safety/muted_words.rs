//! Muted words: a member hides the posts holding a word, phrase or hashtag (whole words, case
//! and accents folded: `text::word_key`) from their feeds, notifications, search and tag pages,
//! for a time or until they remove it. Threads fold such posts instead. The lists apply them in
//! their own SQL (`visibility::muted_post`); docs/feeds.md, "Muted words", says why that way.

use crate::timelines::changes::member_changed;
use murmur_core::clock::{HOUR, Millis};
use murmur_core::db::{Db, Pool};
use murmur_core::error::{Error, Result};
use murmur_core::text::{self, Kind};

/// Longest muted word, phrase or hashtag, in characters (the schema checks it too).
pub const MAX_CHARS: usize = 100;
/// Most muted words a member keeps at once (unexpired): each is a test on every post a list walks.
pub const MAX_PER_MEMBER: i64 = 100;
/// Longest time a muted word can be set for, in hours (a year); longer is "until removed".
pub const MAX_HOURS: i64 = 365 * 24;

/// A muted word as its member sees it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MutedWord {
    pub id: i64,
    /// As typed (trimmed, NFC).
    pub text: String,
    pub created_at: Millis,
    /// None: until removed.
    pub expires_at: Option<Millis>,
}

/// A muted word as typed, checked: answers the text to keep and its words (`text::word_key`).
/// `#rust` and `rust` are the same muted word: a post's hashtags are words of its text.
pub fn parse(raw: &str) -> Result<(String, String)> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(Error::bad_request("Type a word, phrase or hashtag to mute"));
    }
    let kept = text::normalize(Kind::MutedWord, trimmed)?;
    if kept.chars().count() > MAX_CHARS {
        return Err(Error::bad_request(format!("A muted word can be at most {MAX_CHARS} characters long")));
    }
    let key = text::word_key(&kept);
    if key.trim().is_empty() {
        return Err(Error::bad_request("A muted word needs at least one letter or digit"));
    }
    Ok((kept, key))
}

/// When a muted word set now for `hours` ends (None: until removed).
pub fn expiry(hours: Option<i64>, now: Millis) -> Result<Option<Millis>> {
    match hours {
        None => Ok(None),
        Some(hours) if (1..=MAX_HOURS).contains(&hours) => Ok(Some(now + hours * HOUR)),
        Some(_) => {
            Err(Error::bad_request(format!("hours must be from 1 to {MAX_HOURS} (or absent: until you remove it)")))
        }
    }
}

/// Those of `words` a post holds (in its text or content warning), compared as the lists compare
/// them: whole words of the post's folded text (`posts::store::muting_text`).
pub fn held_by<'a>(words: &'a [MutedWord], content: &str, spoiler_text: Option<&str>) -> Vec<&'a MutedWord> {
    let folded = crate::posts::store::muting_text(content, spoiler_text);
    words.iter().filter(|word| folded.contains(&text::word_key(&word.text))).collect()
}

/// The member's muted words that have not ended, newest first (at most `MAX_PER_MEMBER`).
pub async fn list(pool: &Pool, member: i64, now: Millis) -> Result<Vec<MutedWord>> {
    Ok(sqlx::query_as(
        "SELECT id, text, created_at, expires_at FROM muted_words \
         WHERE member_id = $1 AND (expires_at IS NULL OR expires_at > $2) ORDER BY created_at DESC, id DESC LIMIT $3",
    )
    .bind(member)
    .bind(now)
    .bind(MAX_PER_MEMBER)
    .fetch_all(pool)
    .await?)
}

/// The member mutes `raw` for `hours` (None: until removed). Muting the same words again sets
/// its time anew. Their kept Friends pages go (`member_changed`), so Home is right at once.
pub async fn add(db: &Db, member: i64, raw: &str, hours: Option<i64>, now: Millis) -> Result<MutedWord> {
    let (kept, key) = parse(raw)?;
    let expires_at = expiry(hours, now)?;
    let mut writer = super::writer(db, member, now).await?;
    let mut tx = sqlx::Connection::begin(&mut *writer).await?;
    // First: it takes the member's row lock, so two adds at once are counted one after the other.
    member_changed(&mut tx, member).await?;
    sqlx::query("DELETE FROM muted_words WHERE member_id = $1 AND expires_at <= $2")
        .bind(member)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    let others: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM muted_words WHERE member_id = $1 AND word_key <> $2")
            .bind(member)
            .bind(&key)
            .fetch_one(&mut *tx)
            .await?;
    if others >= MAX_PER_MEMBER {
        return Err(Error::bad_request(format!(
            "You can mute at most {MAX_PER_MEMBER} words; remove one to add another"
        )));
    }
    let word: MutedWord = sqlx::query_as(
        "INSERT INTO muted_words (member_id, text, word_key, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (member_id, word_key) DO UPDATE SET text = excluded.text, created_at = excluded.created_at, \
         expires_at = excluded.expires_at RETURNING id, text, created_at, expires_at",
    )
    .bind(member)
    .bind(&kept)
    .bind(&key)
    .bind(now)
    .bind(expires_at)
    .fetch_one(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(word)
}

/// The member removes one of their muted words; 404 when it is not theirs (or unknown).
pub async fn remove(db: &Db, member: i64, id: i64) -> Result<()> {
    let mut tx = db.write.begin().await?;
    member_changed(&mut tx, member).await?;
    let removed = sqlx::query("DELETE FROM muted_words WHERE id = $1 AND member_id = $2")
        .bind(id)
        .bind(member)
        .execute(&mut *tx)
        .await?;
    if removed.rows_affected() == 0 {
        return Err(Error::not_found("Muted word not found"));
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn muted_words_are_checked_and_keyed() {
        assert_eq!(parse("  Café au lait ").unwrap(), ("Café au lait".to_string(), " cafe au lait ".to_string()));
        assert_eq!(parse("#Rust").unwrap().1, " rust ");
        for bad in ["", "   ", "#!?", "a\nb", &"x".repeat(MAX_CHARS + 1)] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        assert!(parse(&"é".repeat(MAX_CHARS)).is_ok());
    }

    #[test]
    fn hours_are_bounded() {
        assert_eq!(expiry(None, 5).unwrap(), None);
        assert_eq!(expiry(Some(24), 0).unwrap(), Some(24 * HOUR));
        assert!(expiry(Some(0), 0).is_err());
        assert!(expiry(Some(MAX_HOURS + 1), 0).is_err());
    }
}
