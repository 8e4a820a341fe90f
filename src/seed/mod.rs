//! `murmur seed`: fills a database with a realistic, made-up network for development and for
//! the benchmark (bench/run.sh, docs/performance.md).
//!
//! The network: members joined over two months, then posted over `--days`; follower counts
//! heavy-tailed (a few members are followed by thousands, most by tens) through a Zipf-weighted
//! choice of whom to follow; posts with ~20% replies, ~5% reposts, ~3% polls with votes, ~10%
//! @mentions; likes per post log-normal around `--likes-per-post`; notifications for a sample
//! (`--notify-fraction`) of follows, likes, replies, reposts and mentions; with
//! `--image-fraction`, 1 to 4 images on that share of posts and replies (rows only: the
//! benchmark reads cards, never the images' bytes, so the web app would show them broken).
//! For the benchmark, hidden options add open reports and the sessions' blocks and mutes
//! (`safety`); `--messages` adds conversations and their messages (`messages`).
//!
//! Deterministic: the same `--seed`, sizes and `--now` give the same rows on either database.
//! No wall clock enters the data except `--now`, which defaults to the current UTC day at
//! midnight, so two runs on the same day agree without passing it.
//!
//! Fast: ids are assigned here (no round trip per row), rows go in multi-row INSERTs inside
//! large transactions (committed every ~250,000 rows, so a SQLite WAL does not grow without
//! bound; a failed run can leave a partial network behind — seed into a fresh database).

mod batch;
mod followed_tags;
mod messages;
mod plan;
mod safety;
mod text;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sqlx::AnyConnection;
use sqlx::Executor;

use batch::Batch;
use murmur_core::clock::{DAY, HOUR, Millis};
use murmur_core::db::{Backend, Db};
use murmur_domain::posts::entities;
use plan::{Kind, NO_MENTION, NO_POST, Note, NoteType, Plan, stream};

/// Sizes and knobs of a seeded network.
#[derive(Args, Clone, Debug)]
pub struct Options {
    /// Members to create.
    #[arg(long, default_value_t = 2_000, value_parser = clap::value_parser!(u32).range(0..=5_000_000))]
    pub members: u32,
    /// Posts to create (replies and reposts included).
    #[arg(long, default_value_t = 50_000, value_parser = clap::value_parser!(u32).range(0..=100_000_000))]
    pub posts: u32,
    /// Seed of the random generator: the same seed gives the same network.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Average likes per post (heavy-tailed: most posts get a few, some get hundreds).
    #[arg(long, default_value_t = 5.0)]
    pub likes_per_post: f64,
    /// Average members each member follows (heavy-tailed).
    #[arg(long, default_value_t = 40.0)]
    pub follows_per_member: f64,
    /// Days the posts are spread over, ending at `--now`.
    #[arg(long, default_value_t = 180, value_parser = clap::value_parser!(u32).range(1..=3650))]
    pub days: u32,
    /// Share of follows, likes, replies, reposts and mentions that left a notification (0..1).
    #[arg(long, default_value_t = 0.2)]
    pub notify_fraction: f64,
    /// Share of posts and replies with 1 to 4 images (0..1). Only their rows are written, not
    /// their bytes: for the benchmark, not for looking at in the web app.
    #[arg(long, default_value_t = 0.0)]
    pub image_fraction: f64,
    /// The seeded network's "now": milliseconds since the epoch or RFC 3339. Default: today 00:00 UTC.
    #[arg(long)]
    pub now: Option<String>,
    /// Seed even though the database already has members (new ids follow the existing ones).
    #[arg(long)]
    pub force: bool,
    /// Benchmark helper: afterwards, start this many sessions (heavy and light followers) ...
    #[arg(long, default_value_t = 0, hide = true)]
    pub sessions: u32,
    /// ... and write them to this file, one `token<TAB>user_id<TAB>username<TAB>following` a line.
    #[arg(long, hide = true)]
    pub sessions_out: Option<PathBuf>,
    /// Benchmark helper: each session's member blocks this many other members ...
    #[arg(long, default_value_t = 0, hide = true, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub blocks_per_session: u32,
    /// ... and mutes this many (until unmuted).
    #[arg(long, default_value_t = 0, hide = true, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub mutes_per_session: u32,
    /// Benchmark helper: each session's member follows this many most used tags, whose posts
    /// above their timeline's floor are put into it as the fan-out would have (at most 100).
    #[arg(long, default_value_t = 0, hide = true, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub followed_tags_per_session: u32,
    /// Benchmark helper: each session's member mutes this many words until removed (some held
    /// by seeded posts, `text::words_to_mute`), up to a member's limit of 100.
    #[arg(long, default_value_t = 0, hide = true, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub muted_words_per_session: u32,
    /// Benchmark helper: this many open reports on random posts; the member who follows the most
    /// (the first session) becomes an admin, to read the moderators' queue.
    #[arg(long, default_value_t = 0, hide = true, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub open_reports: u32,
    /// Direct messages to write, in conversations of two to five members (with `--sessions`,
    /// shaped for the benchmark: `seed::messages`).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000_000))]
    pub messages: u64,
    /// Show no progress bar.
    #[arg(long)]
    pub quiet: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            members: 2_000,
            posts: 50_000,
            seed: 1,
            likes_per_post: 5.0,
            follows_per_member: 40.0,
            days: 180,
            notify_fraction: 0.2,
            image_fraction: 0.0,
            now: None,
            force: false,
            sessions: 0,
            sessions_out: None,
            blocks_per_session: 0,
            mutes_per_session: 0,
            followed_tags_per_session: 0,
            muted_words_per_session: 0,
            open_reports: 0,
            messages: 0,
            quiet: true,
        }
    }
}

/// What a seed run wrote.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    pub members: u64,
    pub follows: u64,
    pub posts: u64,
    pub poll_options: u64,
    pub poll_votes: u64,
    pub images: u64,
    pub likes: u64,
    pub notifications: u64,
    pub timeline_rows: u64,
    /// Sessions started for the benchmark, and the blocks and mutes of their members.
    pub sessions: u64,
    pub blocks: u64,
    pub mutes: u64,
    /// Tags the sessions' members follow, one row per member and tag.
    pub followed_tags: u64,
    pub muted_words: u64,
    pub open_reports: u64,
    pub conversations: u64,
    pub messages: u64,
    /// Post-tag rows: posts using a hashtag, once per tag.
    pub tagged_posts: u64,
    /// Tags trending at `now`, and how long computing Trending took.
    pub trending: usize,
    pub trending_took: Duration,
    pub now: Millis,
    pub elapsed: Duration,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seeded {} members, {} follows, {} posts, {} poll options, {} poll votes, {} images, {} likes, \
             {} notifications, {} home timeline rows, {} open reports, {} conversations with {} messages, \
             {} tagged posts ({} trending, \
             computed in {} ms) (now = {}), started {} sessions with {} blocks, {} mutes, {} followed tags and {} muted words, in {:.1} s",
            self.members,
            self.follows,
            self.posts,
            self.poll_options,
            self.poll_votes,
            self.images,
            self.likes,
            self.notifications,
            self.timeline_rows,
            self.open_reports,
            self.conversations,
            self.messages,
            self.tagged_posts,
            self.trending,
            self.trending_took.as_millis(),
            murmur_core::clock::to_rfc3339(self.now),
            self.sessions,
            self.blocks,
            self.mutes,
            self.followed_tags,
            self.muted_words,
            self.elapsed.as_secs_f64()
        )
    }
}

/// A session started for the benchmark.
#[derive(Debug, Clone)]
pub struct BenchSession {
    pub token: String,
    pub user_id: i64,
    pub username: String,
    pub following: i64,
}

/// The "now" of the seeded data: `--now`, or today at 00:00 UTC.
pub fn resolve_now(now: Option<&str>) -> anyhow::Result<Millis> {
    match now {
        None => {
            let wall = murmur_core::clock::Clock::default().now();
            Ok(wall - wall.rem_euclid(DAY))
        }
        Some(s) => {
            if let Ok(ms) = s.parse::<i64>() {
                return Ok(ms);
            }
            let t = chrono::DateTime::parse_from_rfc3339(s).map_err(|e| {
                anyhow::anyhow!("--now must be milliseconds or RFC 3339 (like 2026-11-01T00:00:00Z): {e}")
            })?;
            Ok(t.timestamp_millis())
        }
    }
}

fn check(options: &Options) -> anyhow::Result<()> {
    anyhow::ensure!(
        options.likes_per_post.is_finite() && (0.0..=1000.0).contains(&options.likes_per_post),
        "--likes-per-post must be between 0 and 1000"
    );
    anyhow::ensure!(
        options.follows_per_member.is_finite() && (0.0..=100_000.0).contains(&options.follows_per_member),
        "--follows-per-member must be between 0 and 100000"
    );
    anyhow::ensure!(
        options.notify_fraction.is_finite() && (0.0..=1.0).contains(&options.notify_fraction),
        "--notify-fraction must be between 0 and 1"
    );
    anyhow::ensure!(
        options.image_fraction.is_finite() && (0.0..=1.0).contains(&options.image_fraction),
        "--image-fraction must be between 0 and 1"
    );
    anyhow::ensure!(options.posts == 0 || options.members > 0, "posts need members: pass --members");
    anyhow::ensure!(options.sessions == 0 || options.sessions_out.is_some(), "--sessions needs --sessions-out FILE");
    anyhow::ensure!(
        options.sessions > 0
            || (options.blocks_per_session == 0
                && options.mutes_per_session == 0
                && options.muted_words_per_session == 0),
        "--blocks-per-session, --mutes-per-session and --muted-words-per-session need --sessions"
    );
    anyhow::ensure!(
        options.sessions > 0 || options.followed_tags_per_session == 0,
        "--followed-tags-per-session needs --sessions"
    );
    Ok(())
}

async fn max_id(conn: &mut AnyConnection, sql: &'static str) -> sqlx::Result<i64> {
    let max: Option<i64> = sqlx::query_scalar(sql).fetch_one(conn).await?;
    Ok(max.unwrap_or(0))
}

/// Seeds `db` as `options` say; refuses a database with members unless `force`.
pub async fn run(db: &Db, options: &Options) -> anyhow::Result<Report> {
    check(options)?;
    let started = Instant::now();
    let now = resolve_now(options.now.as_deref())?;
    let mut conn = db.write.acquire().await?;
    let existing: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM users").fetch_one(&mut *conn).await?;
    if existing > 0 && !options.force && options.members > 0 {
        anyhow::bail!(
            "the database already has {existing} member(s); seeding is for fresh databases (pass --force to add a network anyway)"
        );
    }
    let mut report = Report { now, ..Report::default() };
    if options.members > 0 {
        let plan = plan::build(options, now);
        let bases = Bases {
            user: max_id(&mut conn, "SELECT MAX(id) FROM users").await?,
            post: max_id(&mut conn, "SELECT MAX(id) FROM posts").await?,
            note: max_id(&mut conn, "SELECT MAX(id) FROM notifications").await?,
        };
        let progress = progress_bar(options, &plan);
        if db.backend == Backend::Sqlite {
            // A large page cache for the writer while it builds big indexes (reset afterwards).
            conn.execute("PRAGMA cache_size = -262144").await?;
        }
        conn.execute("BEGIN").await?;
        let written = write(db.backend, &mut conn, options, &plan, &bases, &progress, &mut report).await;
        match written {
            Ok(()) => {
                conn.execute("COMMIT").await?;
            }
            Err(e) => {
                let _ = conn.execute("ROLLBACK").await;
                progress.abandon();
                return Err(e);
            }
        }
        if db.backend == Backend::Sqlite {
            conn.execute("PRAGMA cache_size = -2000").await?;
        } else {
            // Explicit ids leave the identity sequences behind: move them past the new rows.
            for sql in [
                "SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT MAX(id) FROM users))",
                "SELECT setval(pg_get_serial_sequence('posts', 'id'), (SELECT MAX(id) FROM posts))",
                "SELECT setval(pg_get_serial_sequence('notifications', 'id'), (SELECT MAX(id) FROM notifications))",
            ] {
                conn.execute(sql).await?;
            }
            // Fresh statistics and visibility maps (index-only scans need them), as autovacuum
            // would leave them soon after such a load; a server run with autovacuum off (as
            // this project's test machines are) would otherwise never have them.
            progress.set_prefix("vacuum");
            conn.execute("VACUUM (ANALYZE)").await?;
        }
        progress.finish_and_clear();
        drop(conn);
        let computing = Instant::now();
        report.trending = murmur_domain::discovery::trending::compute(db, now).await?;
        report.trending_took = computing.elapsed();
    } else {
        drop(conn);
    }
    let mut sessions = Vec::new();
    if options.sessions > 0 {
        sessions = start_sessions(db, options.sessions).await?;
        if let Some(path) = &options.sessions_out {
            let lines: String = sessions
                .iter()
                .map(|s| format!("{}\t{}\t{}\t{}\n", s.token, s.user_id, s.username, s.following))
                .collect();
            std::fs::write(path, lines)?;
        }
        report.sessions = sessions.len() as u64;
        let hidden = safety::block_and_mute(db, options, &sessions, now).await?;
        report.blocks = hidden.blocks;
        report.mutes = hidden.mutes;
        report.notifications -= hidden.notifications_deleted.min(report.notifications);
        make_lists(db, &sessions, now).await?;
        report.followed_tags = followed_tags::follow_tags(db, options, &sessions, now).await?;
        // After the followed tags: nobody mutes a tag they follow.
        report.muted_words = safety::mute_words(db, options, &sessions, now).await?;
    }
    if report.open_reports > 0 {
        safety::make_admin(db).await?;
    }
    // After the blocks: no conversation holds two members with a block between them.
    let written = messages::write_messages(db, options, &sessions, now).await?;
    report.conversations = written.conversations;
    report.messages = written.messages;
    report.elapsed = started.elapsed();
    Ok(report)
}

struct Bases {
    user: i64,
    post: i64,
    note: i64,
}

impl Bases {
    fn user(&self, index: u32) -> i64 {
        self.user + index as i64 + 1
    }
    fn post(&self, index: u32) -> i64 {
        self.post + index as i64 + 1
    }
}

fn progress_bar(options: &Options, plan: &Plan) -> ProgressBar {
    let polls = plan.posts.iter().filter(|p| p.poll_options > 0).count() as u64;
    // Images (their uploads' rows) are expected at the asked share; the bar only guides.
    let images = (plan.posts.len() as f64 * options.image_fraction * 2.5) as u64;
    let total = plan.users.len() as u64
        + images
        + plan.follows.len() as u64
        + plan.posts.len() as u64
        + polls
        + plan.total_likes()
        + plan.notes.len() as u64;
    if options.quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix:>13} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} rows ({eta} left)",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Commits now and then so the transaction (and SQLite's WAL) stays bounded.
struct Committer {
    since: u64,
}

impl Committer {
    async fn add(&mut self, conn: &mut AnyConnection, rows: u64) -> sqlx::Result<()> {
        self.since += rows;
        if self.since >= 250_000 {
            conn.execute("COMMIT").await?;
            conn.execute("BEGIN").await?;
            self.since = 0;
        }
        Ok(())
    }
}

async fn write(
    db_backend: Backend,
    conn: &mut AnyConnection,
    options: &Options,
    plan: &Plan,
    bases: &Bases,
    progress: &ProgressBar,
    report: &mut Report,
) -> anyhow::Result<()> {
    let seed = options.seed;
    let now = plan.now;
    let month = murmur_domain::invites::month_of(now);
    let mut commit = Committer { since: 0 };
    let backend = db_backend;
    let timelines = plan::timelines(plan, murmur_domain::timelines::KEEP as usize);
    progress.inc_length(timelines.rows.iter().map(|t| t.len() as u64).sum());

    // Members.
    progress.set_prefix("members");
    let mut rng = plan::rng(seed, stream::USERS + 100);
    let mut users = Batch::new(
        backend,
        "INSERT INTO users (id, email, username, display_name, bio, created_at, follower_count, following_count, \
         invites_month, home_floor, username_skeleton, name_skeleton)",
        12,
    );
    for (i, u) in plan.users.iter().enumerate() {
        let id = bases.user(i as u32);
        let username = text::username(id);
        let display_name = text::display_name(&mut rng);
        // Kept in step as every writer of a name keeps them (`text`).
        let username_key = murmur_core::text::look_alike_key(&username);
        let name_key = murmur_core::text::look_alike_key(&display_name);
        users
            .int(id)
            .text(text::email(id))
            .text(username)
            .text(display_name)
            .text(text::bio(&mut rng))
            .int(u.created_at)
            .int(u.followers as i64)
            .int(u.following as i64)
            .int(month)
            .int(timelines.floors[i].map_or(0, |post| bases.post(post)))
            .text(username_key)
            .text(name_key);
        let n = users.end_row(conn).await?;
        progress.inc(n);
        commit.add(conn, n).await?;
    }
    progress.inc(users.flush(conn).await?);
    report.members = users.written;

    // Follows.
    progress.set_prefix("follows");
    let mut follows = Batch::new(backend, "INSERT INTO follows (follower_id, following_id, created_at)", 3);
    for &(follower, following, at) in &plan.follows {
        follows.int(bases.user(follower)).int(bases.user(following)).int(at);
        let n = follows.end_row(conn).await?;
        progress.inc(n);
        commit.add(conn, n).await?;
    }
    progress.inc(follows.flush(conn).await?);
    report.follows = follows.written;

    // Posts, texts drawn from each post's own stream.
    progress.set_prefix("posts");
    let mut posts = Batch::new(
        backend,
        "INSERT INTO posts (id, author_id, content, created_at, reply_to_id, repost_of_id, poll_expires_at, \
         reply_count, repost_count, like_count, image_count, entities, muting_text)",
        13,
    );
    // Tags by key: (index, name as first written); and (tag index, post, author, when).
    let mut tags: HashMap<String, (usize, String)> = HashMap::new();
    let mut post_tags: Vec<(usize, i64, i64, Millis)> = Vec::new();
    let image_counts: Vec<u8> =
        plan.posts.iter().enumerate().map(|(i, p)| plan::images(seed, i, p, options.image_fraction)).collect();
    for (i, p) in plan.posts.iter().enumerate() {
        let mut rng = plan::rng(seed, stream::POST_BASE + 4 * i as u64);
        let (content, reply_to, repost_of) = match p.kind {
            Kind::Repost(of) => (text::REPOST_CONTENT.to_string(), None, Some(bases.post(of))),
            Kind::Reply(to) => {
                (post_text(&mut rng, p.mention, bases, p.created_at >= now - DAY), Some(bases.post(to)), None)
            }
            Kind::Original => (post_text(&mut rng, p.mention, bases, p.created_at >= now - DAY), None, None),
        };
        // What the text holds, as the server parses it when a post is written: seeded mentions
        // name seeded members (one at most, `p.mention`), so every one is a member.
        let parsed = entities::parse(&content);
        let members: HashMap<String, i64> =
            parsed.mentions().into_iter().map(|name| (name, bases.user(p.mention))).collect();
        let found = parsed.entities(&content, &members);
        for tag in parsed.hashtags() {
            let n = tags.len();
            let tag_index = tags.entry(tag.key).or_insert((n, tag.name)).0;
            post_tags.push((tag_index, bases.post(i as u32), bases.user(p.author), p.created_at));
        }
        // A repost has none: its original's is read (docs/feeds.md, "Muted words").
        let muting = repost_of.is_none().then(|| murmur_domain::posts::muting_text(&content, None));
        posts
            .int(bases.post(i as u32))
            .int(bases.user(p.author))
            .text(content)
            .int(p.created_at)
            .opt(reply_to)
            .opt(repost_of)
            .opt((p.poll_options > 0).then_some(p.created_at + 24 * HOUR))
            .int(p.replies as i64)
            .int(p.reposts as i64)
            .int(p.likes as i64)
            .int(image_counts[i] as i64)
            .opt_text(entities::to_column(&found))
            .opt_text(muting);
        let n = posts.end_row(conn).await?;
        progress.inc(n);
        commit.add(conn, n).await?;
    }
    progress.inc(posts.flush(conn).await?);
    report.posts = posts.written;
    report.tagged_posts = write_tags(backend, conn, &tags, &post_tags, now, &mut commit).await?;

    // Images: the uploads (ready, attached, owned by the post's author), then the posts' rows
    // naming them, so every foreign key finds its row.
    progress.set_prefix("images");
    let with_images = || plan.posts.iter().enumerate().filter(|(i, _)| image_counts[*i] > 0);
    let mut media = Batch::new(
        backend,
        "INSERT INTO media (id, owner_id, created_at, status, content_type, byte_size, width, height, attached_at)",
        9,
    );
    for (i, p) in with_images() {
        let post_id = bases.post(i as u32);
        for position in 0..image_counts[i] {
            media
                .text(seeded_media_id(post_id, position))
                .int(bases.user(p.author))
                .int(p.created_at)
                .text("ready")
                .text("image/jpeg")
                .int(180_000)
                .int(1280)
                .int(960)
                .int(p.created_at);
            let n = media.end_row(conn).await?;
            progress.inc(n);
            commit.add(conn, n).await?;
        }
    }
    progress.inc(media.flush(conn).await?);
    let mut images = Batch::new(backend, "INSERT INTO post_images (post_id, position, media_id)", 3);
    for (i, _) in with_images() {
        let post_id = bases.post(i as u32);
        for position in 0..image_counts[i] {
            images.int(post_id).int(position as i64).text(seeded_media_id(post_id, position));
            let n = images.end_row(conn).await?;
            commit.add(conn, n).await?;
        }
    }
    images.flush(conn).await?;
    report.images = images.written;

    // Home timelines, in key order (member, post).
    progress.set_prefix("timelines");
    static TIMELINE_ROWS: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("INSERT INTO {}", murmur_domain::timelines::ROW));
    let mut rows = Batch::new(backend, TIMELINE_ROWS.as_str(), 4);
    for (member, timeline) in timelines.rows.iter().enumerate() {
        for &post in timeline.iter().rev() {
            let planned = &plan.posts[post as usize];
            let original_author = match planned.kind {
                plan::Kind::Repost(original) => Some(bases.user(plan.posts[original as usize].author)),
                _ => None,
            };
            rows.int(bases.user(member as u32))
                .int(bases.post(post))
                .int(bases.user(planned.author))
                .opt(original_author);
            let n = rows.end_row(conn).await?;
            progress.inc(n);
            commit.add(conn, n).await?;
        }
    }
    progress.inc(rows.flush(conn).await?);
    report.timeline_rows = rows.written;

    // Polls: options and votes (votes have no counter; each voter votes once).
    progress.set_prefix("polls");
    let mut options_batch = Batch::new(backend, "INSERT INTO poll_options (post_id, position, text)", 3);
    let mut votes = Batch::new(backend, "INSERT INTO poll_votes (post_id, user_id, position, created_at)", 4);
    let members = plan.users.len() as u32;
    let mut marks = plan::Marks::new(members as usize);
    for (i, p) in plan.posts.iter().enumerate().filter(|(_, p)| p.poll_options > 0) {
        let mut rng = plan::rng(seed, stream::POST_BASE + 4 * i as u64 + 1);
        let post_id = bases.post(i as u32);
        for (position, option) in text::poll_options(&mut rng, p.poll_options as usize).iter().enumerate() {
            options_batch.int(post_id).int(position as i64).text(*option);
            let n = options_batch.end_row(conn).await?;
            commit.add(conn, n).await?;
        }
        let factor = plan::heavy(&mut rng, 1.0);
        let want = plan::round_random(&mut rng, 8.0 * factor).min(members as u64) as usize;
        let closes = (p.created_at + 24 * HOUR).min(now);
        for voter in plan::distinct(&mut rng, &mut marks, want, None, |r| rand::Rng::random_range(r, 0..members)) {
            let at = plan::later(&mut rng, p.created_at, closes);
            votes
                .int(post_id)
                .int(bases.user(voter))
                .int(rand::Rng::random_range(&mut rng, 0..p.poll_options as i64))
                .int(at);
            let n = votes.end_row(conn).await?;
            commit.add(conn, n).await?;
        }
        progress.inc(1);
    }
    options_batch.flush(conn).await?;
    votes.flush(conn).await?;
    report.poll_options = options_batch.written;
    report.poll_votes = votes.written;

    // Likes: exactly `likes` distinct members per post; a sample leaves notifications.
    progress.set_prefix("likes");
    let mut likes = Batch::new(backend, "INSERT INTO likes (user_id, post_id, created_at)", 3);
    let mut notes: Vec<Note> = plan.notes.clone();
    for (i, p) in plan.posts.iter().enumerate().filter(|(_, p)| p.likes > 0) {
        let mut rng = plan::rng(seed, stream::POST_BASE + 4 * i as u64 + 2);
        let likers =
            plan::distinct(&mut rng, &mut marks, p.likes as usize, None, |r| rand::Rng::random_range(r, 0..members));
        // `distinct` can only come up short when nearly everyone already liked; counters were
        // planned with `likes <= members`, so the likers are exactly that many.
        anyhow::ensure!(likers.len() == p.likes as usize, "internal: could not draw {} distinct likers", p.likes);
        for liker in likers {
            let at = plan::later(&mut rng, p.created_at, now);
            likes.int(bases.user(liker)).int(bases.post(i as u32)).int(at);
            if liker != p.author && rand::Rng::random::<f64>(&mut rng) < options.notify_fraction {
                notes.push(Note {
                    created_at: at,
                    recipient: p.author,
                    actor: liker,
                    kind: NoteType::Like,
                    post: i as u32,
                });
            }
            let n = likes.end_row(conn).await?;
            progress.inc(n);
            commit.add(conn, n).await?;
        }
    }
    progress.inc(likes.flush(conn).await?);
    report.likes = likes.written;
    // The bar's total counted the notifications planned before the likes drew theirs.
    progress.inc_length((notes.len() - plan.notes.len()) as u64);

    // Notifications in time order, so ids ascend with time as they would live; older ones read.
    progress.set_prefix("notifications");
    notes.sort_unstable_by_key(|n| (n.created_at, n.recipient, n.actor, n.kind, n.post));
    let mut rng = plan::rng(seed, stream::NOTIFICATIONS);
    let mut batch = Batch::new(
        backend,
        "INSERT INTO notifications (id, recipient_id, actor_id, type, post_id, created_at, read_at)",
        7,
    );
    for (i, note) in notes.iter().enumerate() {
        let read_at = (note.created_at < now - 3 * DAY).then(|| plan::later(&mut rng, note.created_at, now));
        batch
            .int(bases.note + i as i64 + 1)
            .int(bases.user(note.recipient))
            .int(bases.user(note.actor))
            .text(note.kind.as_str())
            .int(if note.post == NO_POST { 0 } else { bases.post(note.post) })
            .int(note.created_at)
            .opt(read_at);
        let n = batch.end_row(conn).await?;
        progress.inc(n);
        commit.add(conn, n).await?;
    }
    progress.inc(batch.flush(conn).await?);
    report.notifications = batch.written;

    progress.set_prefix("reports");
    report.open_reports = safety::write_reports(backend, conn, options, plan, bases, &mut commit).await?;
    Ok(())
}

/// The tags the seeded posts use (ids from the database: a network added with --force finds
/// tags already there), then which post uses which. Answers how many post-tag rows were written.
async fn write_tags(
    backend: Backend,
    conn: &mut AnyConnection,
    tags: &HashMap<String, (usize, String)>,
    post_tags: &[(usize, i64, i64, Millis)],
    now: Millis,
    commit: &mut Committer,
) -> anyhow::Result<u64> {
    let mut ids = vec![0i64; tags.len()];
    for (key, (index, name)) in tags {
        sqlx::query("INSERT INTO tags (key, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING")
            .bind(key.as_str())
            .bind(name.as_str())
            .bind(now)
            .execute(&mut *conn)
            .await?;
        ids[*index] =
            sqlx::query_scalar("SELECT id FROM tags WHERE key = $1").bind(key.as_str()).fetch_one(&mut *conn).await?;
    }
    let mut batch = Batch::new(backend, "INSERT INTO post_tags (tag_id, post_id, author_id, created_at)", 4);
    for &(index, post, author, at) in post_tags {
        batch.int(ids[index]).int(post).int(author).int(at);
        let n = batch.end_row(conn).await?;
        commit.add(conn, n).await?;
    }
    batch.flush(conn).await?;
    Ok(batch.written)
}

/// A seeded image's media id: 32 hex digits like the server's, unique per post and position.
fn seeded_media_id(post_id: i64, position: u8) -> String {
    format!("{:032x}", ((post_id as u128) << 2) | position as u128)
}

fn post_text(rng: &mut rand_chacha::ChaCha8Rng, mention: u32, bases: &Bases, last_day: bool) -> String {
    text::post(rng, (mention != NO_MENTION).then(|| bases.user(mention)), last_day)
}

/// People in each session's list (`make_lists`).
const LIST_MEMBERS: i64 = 50;

/// One list per session's member, in the sessions' order (so the Nth session's list has id N,
/// which bench/murmur.lua's "list" row reads), holding up to `LIST_MEMBERS` of the people they
/// follow (the lowest ids: those seeded first, who wrote throughout).
async fn make_lists(db: &Db, sessions: &[BenchSession], now: Millis) -> anyhow::Result<()> {
    let mut tx = db.write.begin().await?;
    for session in sessions {
        let id: i64 =
            sqlx::query_scalar("INSERT INTO lists (owner_id, title, created_at) VALUES ($1, $2, $3) RETURNING id")
                .bind(session.user_id)
                .bind("Close friends")
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
        sqlx::query(
            "INSERT INTO list_members (list_id, member_id, created_at) \
             SELECT $1, following_id, $2 FROM follows WHERE follower_id = $3 ORDER BY following_id LIMIT $4",
        )
        .bind(id)
        .bind(now)
        .bind(session.user_id)
        .bind(LIST_MEMBERS)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    if db.backend == Backend::Postgres {
        db.write.execute("VACUUM (ANALYZE) lists, list_members").await?;
    }
    Ok(())
}

/// Starts `count` sessions: a quarter for the members who follow the most (the costliest
/// Friends feeds), a quarter for those who follow the fewest, the rest spread over everyone.
/// Sessions use the wall clock (they must be live for the server), unlike the seeded data.
pub async fn start_sessions(db: &Db, count: u32) -> anyhow::Result<Vec<BenchSession>> {
    let members: Vec<(i64, String, i64)> =
        sqlx::query_as("SELECT id, username, following_count FROM users ORDER BY following_count DESC, id")
            .fetch_all(&db.read)
            .await?;
    anyhow::ensure!(!members.is_empty(), "there are no members to start sessions for");
    let count = count as usize;
    let heavy = count / 4;
    let light = count / 4;
    let spread = count - heavy - light;
    let mut chosen: Vec<&(i64, String, i64)> = Vec::with_capacity(count);
    chosen.extend(members.iter().take(heavy));
    chosen.extend(members.iter().rev().take(light));
    let step = (members.len() / spread.max(1)).max(1);
    chosen.extend(members.iter().skip(step / 2).step_by(step).take(spread));
    // Small counts can pick a member twice (the most followed can also be on the grid).
    let mut seen = std::collections::HashSet::new();
    chosen.retain(|(id, _, _)| seen.insert(*id));
    // Large ones (as many as half the members or more) are topped up with members not chosen
    // yet, so `count` sessions are `count` members (live streams as distinct members).
    let wanted = count.min(members.len());
    for member in &members {
        if chosen.len() >= wanted {
            break;
        }
        if seen.insert(member.0) {
            chosen.push(member);
        }
    }
    let now = murmur_core::clock::Clock::default().now();
    // The benchmark's Mastodon API rows use each session's token as an app's bearer token too.
    let app: i64 = sqlx::query_scalar(
        "INSERT INTO apps (client_id, secret_hash, name, website, redirect_uris, scopes, created_at) \
         VALUES ($1, $2, 'Benchmark', NULL, 'urn:ietf:wg:oauth:2.0:oob', 'read write follow', $3) RETURNING id",
    )
    .bind(murmur_core::secrets::random_token())
    .bind(murmur_core::secrets::hash_token(&murmur_core::secrets::random_token()))
    .bind(now)
    .fetch_one(&db.write)
    .await?;
    let mut sessions = Vec::with_capacity(chosen.len());
    for (id, username, following) in chosen {
        let token = murmur_domain::sessions::create(&db.write, *id, now).await?;
        sqlx::query(
            "INSERT INTO app_tokens (token_hash, app_id, member_id, scopes, created_at, last_used_at) \
             VALUES ($1, $2, $3, 'read write follow', $4, $4)",
        )
        .bind(murmur_core::secrets::hash_token(&token))
        .bind(app)
        .bind(*id)
        .bind(now)
        .execute(&db.write)
        .await?;
        sessions.push(BenchSession { token, user_id: *id, username: username.clone(), following: *following });
    }
    Ok(sessions)
}
