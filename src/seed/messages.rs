//! The benchmark's direct messages (`--messages`, docs/messages.md): conversations of two
//! members (a tenth of three to five), and messages spread over the last 30 days.
//!
//! Shaped for bench/murmur.lua's rows: the Nth session's member starts conversation N (its
//! `conversation` and `message` rows read and write there), half the messages go to those
//! conversations, and half the other members of every conversation are among the first
//! `BUSY_SESSIONS` sessions' members, whose lists (the `conversations` row) fill several pages.
//! Every conversation has been accepted; a fifth of each member's are unread.

use std::collections::HashSet;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sqlx::Executor;

use murmur_core::clock::{DAY, MINUTE, Millis};
use murmur_core::db::{Backend, Db};

use super::batch::Batch;
use super::plan::{self, stream};
use super::{BenchSession, Committer, Options, text};

/// Messages per conversation, on average.
const PER_CONVERSATION: u64 = 20;
/// How many of the first sessions' members are in many conversations.
const BUSY_SESSIONS: usize = 100;
/// How far back the messages go.
const SPAN: Millis = 30 * DAY;

/// What `write_messages` wrote.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Written {
    pub conversations: u64,
    pub messages: u64,
}

/// Writes `options.messages` messages in conversations among the members, starting with one
/// conversation per session (see the module's comment).
pub(super) async fn write_messages(
    db: &Db,
    options: &Options,
    sessions: &[BenchSession],
    now: Millis,
) -> anyhow::Result<Written> {
    let members: Vec<i64> = sqlx::query_scalar("SELECT id FROM users ORDER BY id").fetch_all(&db.read).await?;
    if options.messages == 0 || members.len() < 2 {
        return Ok(Written::default());
    }
    // A block between two members ends their messages: no conversation holds both.
    let blocks: HashSet<(i64, i64)> = sqlx::query_as::<_, (i64, i64)>("SELECT blocker_id, blocked_id FROM blocks")
        .fetch_all(&db.read)
        .await?
        .into_iter()
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    let mut rng = plan::rng(options.seed, stream::MESSAGES);
    let busy: Vec<i64> = sessions.iter().take(BUSY_SESSIONS).map(|s| s.user_id).collect();
    let wanted = (options.messages / PER_CONVERSATION).max(sessions.len() as u64).max(1) as usize;
    let mut keys = HashSet::with_capacity(wanted);
    let mut conversations: Vec<Vec<i64>> = Vec::with_capacity(wanted);
    // A small network runs out of new sets of people: the draws end anyway.
    for _ in 0..wanted * 10 {
        if conversations.len() == wanted {
            break;
        }
        let starter = match sessions.get(conversations.len()) {
            Some(session) => session.user_id,
            None => members[rng.random_range(0..members.len())],
        };
        if let Some(people) = draw_people(&mut rng, starter, &members, &busy, &blocks, &mut keys) {
            conversations.push(people);
        }
    }
    let count = conversations.len();
    anyhow::ensure!(count > 0, "no conversation could be drawn among {} members", members.len());

    // (sent at, conversation index, author): in time order, so ids ascend with time.
    let mut messages: Vec<(Millis, usize, i64)> = (0..options.messages)
        .map(|_| {
            let index = if !sessions.is_empty() && rng.random_bool(0.5) {
                rng.random_range(0..sessions.len().min(count))
            } else {
                rng.random_range(0..count)
            };
            let people = &conversations[index];
            (now - rng.random_range(1..SPAN), index, people[rng.random_range(0..people.len())])
        })
        .collect();
    messages.sort_unstable();

    let mut conn = db.write.acquire().await?;
    let base_conversation: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM conversations").fetch_one(&mut *conn).await?;
    let base_message: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) FROM messages").fetch_one(&mut *conn).await?;
    // Each conversation's first and last message (index into `messages`).
    let mut first = vec![usize::MAX; count];
    let mut last = vec![usize::MAX; count];
    for (at, (_, index, _)) in messages.iter().enumerate() {
        first[*index] = first[*index].min(at);
        last[*index] = at;
    }
    let message_id = |at: usize| if at == usize::MAX { 0 } else { base_message + at as i64 + 1 };

    conn.execute("BEGIN").await?;
    let mut commit = Committer { since: 0 };
    let mut rows = Batch::new(
        db.backend,
        "INSERT INTO conversations (id, member_key, started_by, created_at, last_message_id)",
        5,
    );
    let mut places = Batch::new(
        db.backend,
        "INSERT INTO conversation_members (conversation_id, member_id, box, muted, last_read_id, joined_at)",
        6,
    );
    // Conversations first, then their members: a member's row refers to its conversation's.
    let started = |index: usize| messages.get(first[index]).map_or(now - SPAN, |(at, _, _)| at - MINUTE);
    for (index, people) in conversations.iter().enumerate() {
        let mut key = people.clone();
        key.sort_unstable();
        let key: Vec<String> = key.iter().map(i64::to_string).collect();
        let id = base_conversation + index as i64 + 1;
        rows.int(id).text(key.join(",")).int(people[0]).int(started(index)).int(message_id(last[index]));
        let n = rows.end_row(&mut conn).await?;
        commit.add(&mut conn, n).await?;
    }
    rows.flush(&mut conn).await?;
    for (index, people) in conversations.iter().enumerate() {
        for member in people {
            let read = if rng.random_bool(0.2) { 0 } else { message_id(last[index]) };
            places
                .int(base_conversation + index as i64 + 1)
                .int(*member)
                .text("inbox")
                .int(0)
                .int(read)
                .int(started(index));
            let n = places.end_row(&mut conn).await?;
            commit.add(&mut conn, n).await?;
        }
    }
    places.flush(&mut conn).await?;
    let mut written =
        Batch::new(db.backend, "INSERT INTO messages (id, conversation_id, author_id, content, created_at)", 5);
    let mut words: ChaCha8Rng = plan::rng(options.seed, stream::MESSAGE_WORDS);
    for (at, (sent_at, index, author)) in messages.iter().enumerate() {
        written
            .int(message_id(at))
            .int(base_conversation + *index as i64 + 1)
            .int(*author)
            .text(text::post(&mut words, None, false))
            .int(*sent_at);
        let n = written.end_row(&mut conn).await?;
        commit.add(&mut conn, n).await?;
    }
    written.flush(&mut conn).await?;
    conn.execute("COMMIT").await?;
    if db.backend == Backend::Postgres {
        // Explicit ids leave the identity sequences behind: move them past the new rows.
        for table in ["conversations", "messages"] {
            let sql = format!("SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))");
            conn.execute(sqlx::AssertSqlSafe(sql)).await?;
        }
        conn.execute("VACUUM (ANALYZE) conversations, conversation_members, messages").await?;
    }
    Ok(Written { conversations: conversations.len() as u64, messages: messages.len() as u64 })
}

/// A conversation's members, its starter first: one other (a tenth of the time two to four),
/// half of them drawn from `busy`, none blocked by or blocking another. None when these people
/// already have one.
fn draw_people(
    rng: &mut ChaCha8Rng,
    starter: i64,
    members: &[i64],
    busy: &[i64],
    blocks: &HashSet<(i64, i64)>,
    keys: &mut HashSet<Vec<i64>>,
) -> Option<Vec<i64>> {
    let others = if rng.random_bool(0.1) { rng.random_range(2..=4) } else { 1 };
    let mut people = vec![starter];
    for _ in 0..others * 4 {
        if people.len() > others {
            break;
        }
        let other = if !busy.is_empty() && rng.random_bool(0.5) {
            busy[rng.random_range(0..busy.len())]
        } else {
            members[rng.random_range(0..members.len())]
        };
        if !people.contains(&other) && !people.iter().any(|member| blocks.contains(&(*member, other))) {
            people.push(other);
        }
    }
    let mut key = people.clone();
    key.sort_unstable();
    (people.len() > 1 && keys.insert(key)).then_some(people)
}
