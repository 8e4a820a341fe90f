//! The session reads that start members' requests, made together with those of other requests
//! waiting at the same moment (`murmur_core::db::batched`): a kept Friends page costs nothing
//! else (`feeds::cache`).
//!
//! Write requests read their session alone (`SessionReads::alone`): they run on the write
//! thread, with connections of their own (`AppState::for_writes`).

use std::sync::LazyLock;

use murmur_core::clock::Millis;
use murmur_core::db::Pool;
use murmur_core::db::batched::{self, BatchedReads, KeyedRead};
use murmur_core::error::Result;

/// What a lookup reads besides the session.
#[derive(Clone, Copy, Debug)]
pub enum Reading {
    SessionOnly,
    /// The member's `FeedMarks` too, in the same statement: a kept Friends page is then
    /// answered after this one statement.
    WithFeedMarks,
}

/// A session's row: `(user_id, last_seen_at, expires_at, feed_version, newest timeline post)`
/// (the last two are 0 and NULL for `Reading::SessionOnly`).
pub type SessionRow = (i64, Millis, Millis, i64, Option<i64>);

/// The row as read: the session's hash first.
type HashedRow = (String, i64, Millis, Millis, i64, Option<i64>);

/// How the sessions of a state's requests are read (both kinds of reading). Cheap to clone.
#[derive(Clone)]
pub struct SessionReads {
    session_only: BatchedReads<HashedRow>,
    with_marks: BatchedReads<HashedRow>,
}

static SESSION_ONLY: KeyedRead<HashedRow> = KeyedRead {
    statements: LazyLock::new(|| {
        batched::statements(|hashes| {
            format!(
                "SELECT id_hash, user_id, last_seen_at, expires_at, CAST(0 AS BIGINT), CAST(NULL AS BIGINT) \
                 FROM sessions WHERE id_hash IN ({hashes})"
            )
        })
    }),
    key: |row| &row.0,
};

static WITH_MARKS: KeyedRead<HashedRow> = KeyedRead {
    statements: LazyLock::new(|| {
        batched::statements(|hashes| {
            format!(
                "SELECT s.id_hash, s.user_id, s.last_seen_at, s.expires_at, {} \
                 FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id_hash IN ({hashes})",
                crate::timelines::marks::columns("s.user_id")
            )
        })
    }),
    key: |row| &row.0,
};

impl SessionReads {
    /// Reads each session together with the others waiting (starts the batching tasks on the
    /// current runtime; they end when the last clone is dropped).
    pub fn together(pool: &Pool) -> SessionReads {
        SessionReads {
            session_only: BatchedReads::together(pool, &SESSION_ONLY),
            with_marks: BatchedReads::together(pool, &WITH_MARKS),
        }
    }

    /// Each request's session in a statement of its own, on `pool`.
    pub fn alone(pool: &Pool) -> SessionReads {
        SessionReads {
            session_only: BatchedReads::alone(pool, &SESSION_ONLY),
            with_marks: BatchedReads::alone(pool, &WITH_MARKS),
        }
    }

    /// The row of the session with this hash, if there is one.
    pub async fn read(&self, id_hash: &str, reading: Reading) -> Result<Option<SessionRow>> {
        let reads = match reading {
            Reading::SessionOnly => &self.session_only,
            Reading::WithFeedMarks => &self.with_marks,
        };
        Ok(reads
            .read(id_hash)
            .await?
            .map(|(_, user, seen, expires, version, newest)| (user, seen, expires, version, newest)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_marks_reading_reads_the_marks() {
        assert!(WITH_MARKS.statements[1].contains("feed_version"));
        assert!(WITH_MARKS.statements[1].ends_with("IN ($1, $2)"));
        assert!(!SESSION_ONLY.statements[1].contains("feed_version"));
    }
}
