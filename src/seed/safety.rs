//! The benchmark's safety rows: open reports for the moderators' queue, and blocks and mutes
//! for the members with sessions, so the feeds are measured with hidden members in place
//! (`--open-reports`, `--blocks-per-session`, `--mutes-per-session`,
//! `--muted-words-per-session`; docs/performance.md).
//!
//! Rows are as a live instance would hold them: a block is never between two members who
//! follow each other (blocking ends those follows) and leaves no notification between them;
//! a member mutes nobody they block. Drawn from their own random streams, so the rest of the
//! network is the same with or without them.

use std::collections::{HashMap, HashSet};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sqlx::{AnyConnection, Executor};

use murmur_core::clock::{DAY, Millis};
use murmur_core::db::{Backend, Db};

use super::batch::Batch;
use super::plan::{self, Kind, Marks, Plan, stream};
use super::{Bases, BenchSession, Committer, Options};

/// Reasons as reporters pick them: mostly spam, some harassment, few impersonations.
const REASONS: [&str; 8] = ["spam", "spam", "spam", "spam", "harassment", "harassment", "impersonation", "other"];
const COMMENTS: [&str; 4] = [
    "Same link in every reply.",
    "Keeps replying to me after I asked them to stop.",
    "This is not who they say they are.",
    "Please have a look.",
];

/// `--open-reports` reports on random posts (never a repost) by random members other than the
/// post's author, reported hours after the post; one per member and post, as a second report
/// rewrites the first; in time order, so ids ascend with time as they would live.
pub(super) async fn write_reports(
    backend: Backend,
    conn: &mut AnyConnection,
    options: &Options,
    plan: &Plan,
    bases: &Bases,
    commit: &mut Committer,
) -> anyhow::Result<u64> {
    let members = plan.users.len() as u32;
    let posts = plan.posts.len() as u32;
    if options.open_reports == 0 || members < 2 || posts == 0 {
        return Ok(0);
    }
    let mut rng = plan::rng(options.seed, stream::REPORTS);
    // At most half the possible (reporter, post) pairs, so the draws end soon.
    let originals = plan.posts.iter().filter(|p| !matches!(p.kind, Kind::Repost(_))).count() as u64;
    let wanted = (options.open_reports as u64).min(originals * (members as u64 - 1) / 2) as usize;
    let mut taken = HashSet::with_capacity(wanted);
    // (reported at, post index, reporter, reason, comment)
    let mut drawn = Vec::with_capacity(wanted);
    while drawn.len() < wanted {
        // The first post is always an original, so a draw finds one soon.
        let index = rng.random_range(0..posts);
        let post = &plan.posts[index as usize];
        let reporter = rng.random_range(0..members);
        if matches!(post.kind, Kind::Repost(_)) || reporter == post.author || !taken.insert((reporter, index)) {
            continue;
        }
        let reason = REASONS[rng.random_range(0..REASONS.len())];
        let comment = if rng.random_bool(0.3) { COMMENTS[rng.random_range(0..COMMENTS.len())] } else { "" };
        drawn.push((plan::later(&mut rng, post.created_at, plan.now), index, reporter, reason, comment));
    }
    drawn.sort_unstable();
    let mut reports =
        Batch::new(backend, "INSERT INTO reports (reporter_id, member_id, post_id, reason, comment, created_at)", 6);
    for (at, index, reporter, reason, comment) in drawn {
        reports
            .int(bases.user(reporter))
            .int(bases.user(plan.posts[index as usize].author))
            .int(bases.post(index))
            .text(reason)
            .text(comment)
            .int(at);
        let n = reports.end_row(conn).await?;
        commit.add(conn, n).await?;
    }
    reports.flush(conn).await?;
    // Each keeps its post's words, as every report of a post does (`moderation::store`).
    sqlx::query("UPDATE reports SET post_text = (SELECT p.content FROM posts p WHERE p.id = reports.post_id)")
        .execute(&mut *conn)
        .await?;
    Ok(reports.written)
}

/// What `block_and_mute` wrote.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Hidden {
    pub blocks: u64,
    pub mutes: u64,
    /// Notifications between members who now block each other, deleted.
    pub notifications_deleted: u64,
}

/// Each session's member blocks `--blocks-per-session` and mutes `--mutes-per-session` other
/// members drawn uniformly from everyone (mutes without end), in the sessions' order. Blocks
/// skip the members they follow or are followed by; fewer are written when too few are left.
pub(super) async fn block_and_mute(
    db: &Db,
    options: &Options,
    sessions: &[BenchSession],
    now: Millis,
) -> anyhow::Result<Hidden> {
    if options.blocks_per_session == 0 && options.mutes_per_session == 0 {
        return Ok(Hidden::default());
    }
    let members: Vec<i64> = sqlx::query_scalar("SELECT id FROM users ORDER BY id").fetch_all(&db.read).await?;
    let index = |id: i64| members.binary_search(&id).ok().map(|i| i as u32);
    let related = follows_of(db, sessions, &index).await?;

    let mut rng = plan::rng(options.seed, stream::BLOCKS_AND_MUTES);
    let mut marks = Marks::new(members.len());
    let count = members.len() as u32;
    let mut conn = db.write.acquire().await?;
    conn.execute("BEGIN").await?;
    let mut commit = Committer { since: 0 };
    let mut blocks = Batch::new(db.backend, "INSERT INTO blocks (blocker_id, blocked_id, created_at)", 3);
    let mut mutes = Batch::new(db.backend, "INSERT INTO mutes (muter_id, muted_id, created_at, expires_at)", 4);
    for session in sessions {
        let Some(me) = index(session.user_id) else { continue };
        let follows = related.get(&me).map_or(&[][..], Vec::as_slice);
        let blocked = plan::distinct(
            &mut rng,
            &mut marks,
            options.blocks_per_session as usize,
            std::iter::once(me).chain(follows.iter().copied()),
            |r| r.random_range(0..count),
        );
        for &other in &blocked {
            blocks.int(session.user_id).int(members[other as usize]).int(made_at(&mut rng, now));
            let n = blocks.end_row(&mut conn).await?;
            commit.add(&mut conn, n).await?;
        }
        let muted = plan::distinct(
            &mut rng,
            &mut marks,
            options.mutes_per_session as usize,
            std::iter::once(me).chain(blocked.iter().copied()),
            |r| r.random_range(0..count),
        );
        for other in muted {
            mutes.int(session.user_id).int(members[other as usize]).int(made_at(&mut rng, now)).opt(None);
            let n = mutes.end_row(&mut conn).await?;
            commit.add(&mut conn, n).await?;
        }
    }
    blocks.flush(&mut conn).await?;
    mutes.flush(&mut conn).await?;
    // As `safety::block` does: nothing left between two members once either blocks.
    let between = murmur_domain::visibility::blocked_between("notifications.recipient_id", "notifications.actor_id");
    let deleted = conn.execute(sqlx::AssertSqlSafe(format!("DELETE FROM notifications WHERE {between}"))).await?;
    conn.execute("COMMIT").await?;
    if db.backend == Backend::Postgres {
        conn.execute("VACUUM (ANALYZE) blocks, mutes, notifications").await?;
    }
    Ok(Hidden { blocks: blocks.written, mutes: mutes.written, notifications_deleted: deleted.rows_affected() })
}

/// Each session's member mutes `--muted-words-per-session` words until removed: the first of
/// `text::words_to_mute` but the tags they follow, in an order of their own (so each member
/// hides some seeded posts),
/// as `safety::muted_words::add` keys them. Answers how many were written.
pub(super) async fn mute_words(
    db: &Db,
    options: &Options,
    sessions: &[BenchSession],
    now: Millis,
) -> anyhow::Result<u64> {
    use rand::seq::SliceRandom;
    if options.muted_words_per_session == 0 {
        return Ok(0);
    }
    // The tags the sessions' members follow (the same for all: `followed_tags`), which none of
    // them mutes: following and muting a tag at once is nobody's choice.
    let followed: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT t.key FROM followed_tags ft JOIN tags t ON t.id = ft.tag_id")
            .fetch_all(&db.read)
            .await?;
    let pool: Vec<String> = super::text::words_to_mute()
        .filter(|word| {
            !followed.iter().any(|key| word.strip_prefix('#').is_some_and(|tag| tag.eq_ignore_ascii_case(key)))
        })
        .take(options.muted_words_per_session as usize)
        .collect();
    let mut rng = plan::rng(options.seed, stream::MUTED_WORDS);
    let mut conn = db.write.acquire().await?;
    conn.execute("BEGIN").await?;
    let mut commit = Committer { since: 0 };
    let mut words =
        Batch::new(db.backend, "INSERT INTO muted_words (member_id, text, word_key, created_at, expires_at)", 5);
    for session in sessions {
        let mut chosen = pool.clone();
        chosen.shuffle(&mut rng);
        for word in chosen {
            let (text, key) = murmur_domain::safety::muted_words::parse(&word)?;
            words.int(session.user_id).text(text).text(key).int(made_at(&mut rng, now)).opt(None);
            let n = words.end_row(&mut conn).await?;
            commit.add(&mut conn, n).await?;
        }
    }
    words.flush(&mut conn).await?;
    conn.execute("COMMIT").await?;
    Ok(words.written)
}

/// When a block or mute was made: within the month before `now`.
fn made_at(rng: &mut ChaCha8Rng, now: Millis) -> Millis {
    now - rng.random_range(1..30 * DAY)
}

/// For each session's member (by index), the members they follow or are followed by.
async fn follows_of(
    db: &Db,
    sessions: &[BenchSession],
    index: &impl Fn(i64) -> Option<u32>,
) -> anyhow::Result<HashMap<u32, Vec<u32>>> {
    let mut related: HashMap<u32, Vec<u32>> =
        sessions.iter().filter_map(|s| index(s.user_id)).map(|i| (i, Vec::new())).collect();
    let follows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT follower_id, following_id FROM follows").fetch_all(&db.read).await?;
    for (follower, following) in follows {
        let (Some(a), Some(b)) = (index(follower), index(following)) else { continue };
        if let Some(list) = related.get_mut(&a) {
            list.push(b);
        }
        if let Some(list) = related.get_mut(&b) {
            list.push(a);
        }
    }
    Ok(related)
}

/// The member who follows the most (the first session) reads the moderators' queue.
pub(super) async fn make_admin(db: &Db) -> anyhow::Result<i64> {
    let id: i64 = sqlx::query_scalar("SELECT id FROM users ORDER BY following_count DESC, id LIMIT 1")
        .fetch_one(&db.read)
        .await?;
    sqlx::query("UPDATE users SET role = 'admin' WHERE id = $1").bind(id).execute(&db.write).await?;
    Ok(id)
}
