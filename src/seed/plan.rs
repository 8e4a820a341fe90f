//! The shape of the network, decided in memory before anything is written: who follows whom,
//! who posts what kind of post when, how many likes, replies and reposts each post gets. Every
//! counter the schema denormalises is computed here from the same choices the rows come from,
//! so counters equal the rows by construction. Bulky values (texts, likers, voters) are drawn
//! later, while writing, from per-post random streams, so memory stays small (about 40 bytes
//! per post) and the result does not depend on batch sizes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use murmur_core::clock::{DAY, HOUR, Millis};

use super::Options;

/// Independent random streams, so changing one part of the generator leaves the others alone.
pub(crate) mod stream {
    pub const USERS: u64 = 1;
    pub const FOLLOWS: u64 = 2;
    pub const POSTS: u64 = 3;
    pub const NOTIFICATIONS: u64 = 4;
    /// The benchmark's safety rows (`seed::safety`).
    pub const REPORTS: u64 = 5;
    pub const BLOCKS_AND_MUTES: u64 = 6;
    pub const MUTED_WORDS: u64 = 7;
    /// The benchmark's conversations and messages (`seed::messages`), and the messages' words.
    pub const MESSAGES: u64 = 8;
    pub const MESSAGE_WORDS: u64 = 9;
    /// Per-post streams (content, poll votes, likers, images) start here: POST_BASE + 4 × post
    /// index + 0, 1, 2, 3.
    pub const POST_BASE: u64 = 1 << 32;
}

pub(crate) fn rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

pub(crate) struct UserPlan {
    pub created_at: Millis,
    pub followers: u32,
    pub following: u32,
}

#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Original,
    /// Reply to the post with this index.
    Reply(u32),
    /// Repost of the post with this index (always an original or a reply, never a repost).
    Repost(u32),
}

pub(crate) struct PostPlan {
    pub author: u32,
    pub created_at: Millis,
    pub kind: Kind,
    /// 0, or 2..=4 poll options.
    pub poll_options: u8,
    /// Member index mentioned in the text (u32::MAX: none).
    pub mention: u32,
    pub likes: u32,
    pub replies: u32,
    pub reposts: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum NoteType {
    Follow,
    Like,
    Reply,
    Repost,
    Mention,
}

impl NoteType {
    pub fn as_str(self) -> &'static str {
        match self {
            NoteType::Follow => "follow",
            NoteType::Like => "like",
            NoteType::Reply => "reply",
            NoteType::Repost => "repost",
            NoteType::Mention => "mention",
        }
    }
}

/// A notification, by member and post index (post u32::MAX: none).
#[derive(Clone, Copy)]
pub(crate) struct Note {
    pub created_at: Millis,
    pub recipient: u32,
    pub actor: u32,
    pub kind: NoteType,
    pub post: u32,
}

pub(crate) const NO_POST: u32 = u32::MAX;
pub(crate) const NO_MENTION: u32 = u32::MAX;

pub(crate) struct Plan {
    pub now: Millis,
    pub users: Vec<UserPlan>,
    /// (follower, following, created_at), by member index.
    pub follows: Vec<(u32, u32, Millis)>,
    pub posts: Vec<PostPlan>,
    /// Notifications about follows, replies, reposts and mentions; likes add theirs while written.
    pub notes: Vec<Note>,
}

impl Plan {
    pub fn total_likes(&self) -> u64 {
        self.posts.iter().map(|p| p.likes as u64).sum()
    }
}

/// How many images (0, or 1 to 4) post `i` carries: `fraction` of posts and replies have
/// some; reposts never do. Drawn from the post's own stream, so other choices stay the same.
pub(crate) fn images(seed: u64, i: usize, post: &PostPlan, fraction: f64) -> u8 {
    if fraction <= 0.0 || matches!(post.kind, Kind::Repost(_)) {
        return 0;
    }
    let mut rng = rng(seed, stream::POST_BASE + 4 * i as u64 + 3);
    if rng.random::<f64>() < fraction { rng.random_range(1..=4) } else { 0 }
}

/// A standard normal draw (Box–Muller), to make log-normal heavy tails without another crate.
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A heavy-tailed positive factor with mean 1: log-normal with the given sigma.
pub(crate) fn heavy(rng: &mut ChaCha8Rng, sigma: f64) -> f64 {
    (sigma * normal(rng) - sigma * sigma / 2.0).exp()
}

/// Rounds `x` up or down at random so the mean of the rounded values is the mean of `x`.
pub(crate) fn round_random(rng: &mut ChaCha8Rng, x: f64) -> u64 {
    (x + rng.random::<f64>()).floor().max(0.0) as u64
}

/// Picks members: with probability `skew` by a Zipf law over a random ranking (a few members
/// are picked very often), otherwise uniformly. This is preferential choice without the cost
/// of updating weights as the graph grows.
pub(crate) struct Picker {
    ranked: Vec<u32>,
    cumulative: Vec<f64>,
    skew: f64,
}

impl Picker {
    pub fn new(rng: &mut ChaCha8Rng, members: u32, exponent: f64, skew: f64) -> Picker {
        let mut ranked: Vec<u32> = (0..members).collect();
        // Fisher–Yates, by hand so the order depends only on our stream.
        for i in (1..ranked.len()).rev() {
            let j = rng.random_range(0..=i);
            ranked.swap(i, j);
        }
        let mut total = 0.0;
        let cumulative = (0..members)
            .map(|rank| {
                total += 1.0 / ((rank + 1) as f64).powf(exponent);
                total
            })
            .collect();
        Picker { ranked, cumulative, skew }
    }

    pub fn pick(&self, rng: &mut ChaCha8Rng) -> u32 {
        let n = self.ranked.len();
        if rng.random::<f64>() < self.skew {
            let total = self.cumulative[n - 1];
            let target = rng.random::<f64>() * total;
            let rank = self.cumulative.partition_point(|&c| c < target).min(n - 1);
            self.ranked[rank]
        } else {
            rng.random_range(0..n as u32)
        }
    }
}

/// Distinct draws without a set: `marks[i] == stamp` means "already taken in this round".
pub(crate) struct Marks {
    marks: Vec<u32>,
    stamp: u32,
}

impl Marks {
    pub fn new(n: usize) -> Marks {
        Marks { marks: vec![0; n], stamp: 0 }
    }

    pub fn next_round(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Marks `i`; false when it was already marked this round.
    pub fn take(&mut self, i: u32) -> bool {
        let slot = &mut self.marks[i as usize];
        if *slot == self.stamp {
            false
        } else {
            *slot = self.stamp;
            true
        }
    }
}

/// Chooses `want` distinct members with `pick`, skipping those in `exclude`; gives up after
/// enough misses (the result may then be shorter, which the caller's counters follow).
pub(crate) fn distinct(
    rng: &mut ChaCha8Rng,
    marks: &mut Marks,
    want: usize,
    exclude: impl IntoIterator<Item = u32>,
    mut pick: impl FnMut(&mut ChaCha8Rng) -> u32,
) -> Vec<u32> {
    marks.next_round();
    for x in exclude {
        marks.take(x);
    }
    let mut out = Vec::with_capacity(want);
    let mut misses = 0;
    while out.len() < want && misses < 20 * want + 100 {
        let i = pick(rng);
        if marks.take(i) {
            out.push(i);
        } else {
            misses += 1;
        }
    }
    out
}

/// The chance a given event gets a notification row (keeps the table to a realistic sample).
fn sampled(rng: &mut ChaCha8Rng, fraction: f64) -> bool {
    fraction >= 1.0 || rng.random::<f64>() < fraction
}

pub(crate) fn build(options: &Options, now: Millis) -> Plan {
    let members = options.members;
    let seed = options.seed;
    let span = options.days as i64 * DAY;
    let start = now - span;

    // Members joined over the two months before the posting window opened.
    let mut rng_users = rng(seed, stream::USERS);
    let mut users: Vec<UserPlan> = (0..members)
        .map(|_| UserPlan { created_at: start - rng_users.random_range(0..60 * DAY), followers: 0, following: 0 })
        .collect();

    // Follows: out-degree log-normal around the average (some follow thousands), targets by
    // popularity (a few members are followed by thousands, most by tens).
    let mut rng_follows = rng(seed, stream::FOLLOWS);
    let popularity = Picker::new(&mut rng_follows, members.max(1), 1.0, 0.3);
    let mut marks = Marks::new(members as usize);
    let mut follows = Vec::with_capacity((members as f64 * options.follows_per_member) as usize);
    let mut notes = Vec::new();
    let max_out = ((members.saturating_sub(1)) as f64 * 0.6) as u64;
    for follower in 0..members {
        if members < 2 {
            break;
        }
        let factor = heavy(&mut rng_follows, 1.1);
        let want =
            round_random(&mut rng_follows, options.follows_per_member * factor).clamp(1, max_out.max(1)) as usize;
        let targets = distinct(&mut rng_follows, &mut marks, want, Some(follower), |r| popularity.pick(r));
        for following in targets {
            let created_at = start + rng_follows.random_range(0..span.max(1));
            follows.push((follower, following, created_at));
            users[follower as usize].following += 1;
            users[following as usize].followers += 1;
            if sampled(&mut rng_follows, options.notify_fraction) {
                notes.push(Note {
                    created_at,
                    recipient: following,
                    actor: follower,
                    kind: NoteType::Follow,
                    post: NO_POST,
                });
            }
        }
    }

    // Posts, in time order (ids ascend with time, as they would in a live instance).
    let mut rng_posts = rng(seed, stream::POSTS);
    let activity = Picker::new(&mut rng_posts, members.max(1), 0.9, 0.5);
    let n = options.posts as usize;
    let mut posts: Vec<PostPlan> = Vec::with_capacity(n);
    let mut reposted = std::collections::HashSet::new();
    for i in 0..n {
        let created_at =
            (start + ((i as f64 + rng_posts.random::<f64>()) / n as f64 * span as f64) as i64).min(now - 1);
        let author = activity.pick(&mut rng_posts);
        let roll: f64 = rng_posts.random();
        let mut kind = Kind::Original;
        if i > 0 && roll < 0.25 {
            // Conversations happen around recent posts: the target is biased to the last few thousand.
            let back = ((i.min(5000) as f64) * rng_posts.random::<f64>().powi(3)) as usize;
            let mut target = i - 1 - back.min(i - 1);
            if let Kind::Repost(original) = posts[target].kind {
                target = original as usize;
            }
            if roll < 0.05 {
                let target_author = posts[target].author;
                if target_author != author && reposted.insert((author, target as u32)) {
                    kind = Kind::Repost(target as u32);
                }
            } else {
                kind = Kind::Reply(target as u32);
            }
        }
        let mut poll_options = 0;
        let mut mention = NO_MENTION;
        match kind {
            Kind::Original | Kind::Reply(_) => {
                if matches!(kind, Kind::Original) && rng_posts.random_bool(0.03) {
                    poll_options = rng_posts.random_range(2..=4);
                }
                if members > 1 && rng_posts.random_bool(0.1) {
                    let who = popularity.pick(&mut rng_posts);
                    if who != author {
                        mention = who;
                    }
                }
            }
            Kind::Repost(_) => {}
        }
        // Likes go to originals and replies (a repost stands for its original), heavy-tailed.
        let likes = match kind {
            Kind::Repost(_) => 0,
            _ => {
                let factor = heavy(&mut rng_posts, 1.3);
                round_random(&mut rng_posts, options.likes_per_post * factor).min(members as u64) as u32
            }
        };
        match kind {
            Kind::Reply(target) => {
                let parent = &mut posts[target as usize];
                parent.replies += 1;
                if parent.author != author && sampled(&mut rng_posts, options.notify_fraction) {
                    notes.push(Note {
                        created_at,
                        recipient: parent.author,
                        actor: author,
                        kind: NoteType::Reply,
                        post: i as u32,
                    });
                }
            }
            Kind::Repost(target) => {
                let original = &mut posts[target as usize];
                original.reposts += 1;
                if sampled(&mut rng_posts, options.notify_fraction) {
                    notes.push(Note {
                        created_at,
                        recipient: original.author,
                        actor: author,
                        kind: NoteType::Repost,
                        post: target,
                    });
                }
            }
            Kind::Original => {}
        }
        if mention != NO_MENTION && sampled(&mut rng_posts, options.notify_fraction) {
            notes.push(Note { created_at, recipient: mention, actor: author, kind: NoteType::Mention, post: i as u32 });
        }
        posts.push(PostPlan { author, created_at, kind, poll_options, mention, likes, replies: 0, reposts: 0 });
    }

    Plan { now, users, follows, posts, notes }
}

/// When a reaction to something made at `at` happens: hours later, mostly, never after `now`.
pub(crate) fn later(rng: &mut ChaCha8Rng, at: Millis, now: Millis) -> Millis {
    let delay = (-(1.0 - rng.random::<f64>()).ln() * 6.0 * HOUR as f64) as i64;
    (at + 1 + delay).min(now - 1).max(at)
}

/// The members' home timelines as the live instance would have them (timelines): for each
/// member, the newest `keep` posts and reposts (no replies) of theirs and of everyone they
/// follow, newest first, as post indexes, and the floor as a post index (None: the timeline
/// holds the whole feed, floor 0). A k-way merge from the newest end of each author's posts.
pub(crate) struct Timelines {
    pub floors: Vec<Option<u32>>,
    pub rows: Vec<Vec<u32>>,
}

pub(crate) fn timelines(plan: &Plan, keep: usize) -> Timelines {
    let members = plan.users.len();
    let mut by_author: Vec<Vec<u32>> = vec![Vec::new(); members];
    for (i, post) in plan.posts.iter().enumerate() {
        if !matches!(post.kind, Kind::Reply(_)) {
            by_author[post.author as usize].push(i as u32);
        }
    }
    let mut followed: Vec<Vec<u32>> = vec![Vec::new(); members];
    for &(follower, following, _) in &plan.follows {
        followed[follower as usize].push(following);
    }
    let mut floors = Vec::with_capacity(members);
    let mut rows = Vec::with_capacity(members);
    let mut heap = std::collections::BinaryHeap::new();
    for (member, followed) in followed.iter().enumerate() {
        heap.clear();
        // (post index, author, how many of the author's posts are left below it)
        for &author in followed.iter().chain(std::iter::once(&(member as u32))) {
            let posts = &by_author[author as usize];
            if let Some(&newest) = posts.last() {
                heap.push((newest, author, posts.len() - 1));
            }
        }
        let mut timeline = Vec::with_capacity(keep.min(1024));
        while timeline.len() < keep {
            let Some((post, author, left)) = heap.pop() else { break };
            timeline.push(post);
            if left > 0 {
                heap.push((by_author[author as usize][left - 1], author, left - 1));
            }
        }
        floors.push(if heap.is_empty() { None } else { timeline.last().copied() });
        rows.push(timeline);
    }
    Timelines { floors, rows }
}
