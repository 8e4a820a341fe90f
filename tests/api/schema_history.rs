//! Upgrades (issue 28): every earlier schema in the migration history, holding data, is taken to
//! the latest by the app's own `Db::migrate`, and nothing is lost.
//!
//! For each migration V, on each backend: a fresh database is migrated up to V with sqlx's own
//! bookkeeping (so the full migration carries on from there), filled with rows that are valid at
//! V (plain SQL below, per migration: the old schemas differ), asked what `murmur migrate
//! --dry-run` would run, migrated, and compared with what was written: every row is still there
//! with the same values, and the columns later migrations backfilled hold the right values. The
//! app then serves the migrated database.
//!
//! A released migration never changes, so these rows stay valid. A new migration needs its own
//! entry in `STEPS` (its rows, or none): the tests fail until it has one.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use sqlx::Row;
use sqlx::migrate::Migrator;

use crate::common::{Backend, FreshDatabase, TestApp, client_for, json as read};

/// What one migration brought, as the rows a database at its schema holds of it.
struct Step {
    version: i64,
    /// Written (in order) into a database at this schema or a later one, before `until`.
    rows: &'static [&'static str],
    /// The migration that replaced what `rows` write, if one did (their rows are not written at
    /// that schema or later ones).
    until: Option<i64>,
    /// Tables whose rows this migration drops on purpose (checked empty after an upgrade across it).
    drops: &'static [&'static str],
}

/// Every migration of either backend, oldest first. `:now` is the time the rows are written and
/// `:ada_session` the hash of `ADA_SESSION`.
const STEPS: &[Step] = &[
    Step {
        version: 1,
        rows: &[
            // Ada, Bob and Cyd: Bob and Ada follow each other, Cyd follows Ada.
            "INSERT INTO users (email, username, display_name, bio, website, created_at, follower_count, following_count, invites_available, invites_month) VALUES \
             ('ada@example.com', 'ada', 'Ada Lovelace', 'Counts things', 'https://ada.example', :now - 86400000, 2, 1, 2, 202611), \
             ('bob@example.com', 'bob', 'Bob', '', '', :now - 3600000, 1, 1, 3, 202611), \
             ('cyd@example.com', 'cyd', 'Cyd ☕', '', '', :now - 60000, 0, 1, 3, 202611)",
            "INSERT INTO follows (follower_id, following_id, created_at) VALUES (2, 1, :now - 3500000), (1, 2, :now - 3400000), (3, 1, :now - 50000)",
            "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at) VALUES (':ada_session', 1, :now - 600000, :now - 600000, :now + 2592000000)",
            // Ada's invite that Cyd used, and an operator's code still unused.
            "INSERT INTO invites (code, owner_id, created_at, expires_at, used_at, used_by) VALUES \
             ('ADAINVITE234', 1, :now - 7200000, :now + 604800000, :now - 60000, 3), \
             ('OPERATOR2345', NULL, :now - 7200000, :now + 604800000, NULL, NULL)",
            "INSERT INTO magic_links (token_hash, email, purpose, invite_code, created_at, expires_at, used_at) VALUES \
             ('0000000000000000000000000000000000000000000000000000000000000001', 'cyd@example.com', 'signup', 'ADAINVITE234', :now - 70000, :now + 830000, :now - 60000)",
            "INSERT INTO waitlist (email, created_at, invited_at) VALUES ('dee@example.com', :now - 9000000, NULL)",
            "INSERT INTO rate_limits (key, window_start, count) VALUES ('post:1', :now - 30000, 2)",
            "INSERT INTO media (id, owner_id, created_at, status, content_type, byte_size, width, height, attached_at) VALUES \
             ('0123456789abcdef0123456789abcdef', 1, :now - 400000, 'ready', 'image/webp', 31337, 640, 480, :now - 300000)",
            // 1: Ada's post with an image, 2: Bob's reply, 3: Cyd's repost, 4: Bob's poll, 5: Ada's deleted post.
            "INSERT INTO posts (author_id, content, created_at, reply_count, repost_count, like_count) VALUES (1, 'Hello, Murmur 👋', :now - 300000, 1, 1, 2)",
            "INSERT INTO posts (author_id, content, created_at, reply_to_id) VALUES (2, 'Welcome, Ada', :now - 200000, 1)",
            "INSERT INTO posts (author_id, content, created_at, repost_of_id) VALUES (3, '♻️', :now - 50000, 1)",
            "INSERT INTO posts (author_id, content, created_at, poll_expires_at, like_count) VALUES (2, 'Tea or coffee?', :now - 100000, :now + 86400000, 0)",
            "INSERT INTO posts (author_id, content, created_at, deleted_at) VALUES (1, 'Oops', :now - 90000, :now - 80000)",
            "INSERT INTO post_images (post_id, position, media_id) VALUES (1, 0, '0123456789abcdef0123456789abcdef')",
            "INSERT INTO poll_options (post_id, position, text) VALUES (4, 0, 'Tea'), (4, 1, 'Coffee')",
            "INSERT INTO poll_votes (post_id, user_id, position, created_at) VALUES (4, 1, 1, :now - 40000)",
            "INSERT INTO likes (user_id, post_id, created_at) VALUES (2, 1, :now - 190000), (3, 1, :now - 45000)",
            "INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at, read_at) VALUES \
             (1, 2, 'follow', 0, :now - 3500000, :now - 3000000), (1, 2, 'reply', 2, :now - 200000, NULL), \
             (1, 3, 'like', 1, :now - 45000, NULL), (1, 3, 'repost', 1, :now - 50000, NULL)",
        ],
        until: None,
        drops: &[],
    },
    // Bob's For You list of the time: a cache, which 0005 drops.
    Step {
        version: 3,
        rows: &["INSERT INTO for_you_snapshots (user_id, created_at, post_ids) VALUES (2, :now - 20000, '1,4')"],
        until: Some(5),
        drops: &[],
    },
    // The timelines as written before 0021 named the authors.
    Step {
        version: 4,
        rows: &["INSERT INTO home_timeline (member_id, post_id) VALUES (1, 1), (1, 4), (2, 1), (2, 4), (3, 1), (3, 3)"],
        until: Some(21),
        drops: &[],
    },
    Step { version: 4, rows: &["UPDATE users SET home_floor = 1"], until: None, drops: &[] },
    Step {
        version: 5,
        rows: &[
            "INSERT INTO for_you_rankings (created_at, ranked) VALUES (:now - 20000, '1:1,4:2')",
            "INSERT INTO for_you_snapshots (user_id, ranking_id) VALUES (2, 1)",
        ],
        until: None,
        drops: &["for_you_snapshots"],
    },
    Step { version: 6, rows: &[], until: None, drops: &[] },
    // Cyd's repost still on its way to her followers' timelines.
    Step {
        version: 7,
        rows: &["INSERT INTO timeline_fanouts (post_id, author_id, after_follower) VALUES (3, 3, 1)"],
        until: None,
        drops: &[],
    },
    Step {
        version: 8,
        rows: &["UPDATE users SET feed_version = 5 WHERE id = 1", "UPDATE users SET feed_version = 2 WHERE id = 2"],
        until: None,
        drops: &[],
    },
    // PostgreSQL only: a storage setting.
    Step { version: 9, rows: &[], until: None, drops: &[] },
    Step { version: 10, rows: &["UPDATE posts SET image_count = 1 WHERE id = 1"], until: None, drops: &[] },
    // Ada, the first member, is admin; Cyd was invited by Ada (both backfilled). Cyd blocked
    // Bob, Bob muted Cyd, Cyd reported Bob's poll and Ada dismissed it.
    Step {
        version: 11,
        rows: &[
            "UPDATE users SET role = 'admin' WHERE id = 1",
            "UPDATE users SET invited_by = 1 WHERE id = 3",
            "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (3, 2, :now - 1000)",
            "INSERT INTO mutes (muter_id, muted_id, created_at, expires_at) VALUES (2, 3, :now - 1000, :now + 3600000)",
            "INSERT INTO reports (reporter_id, member_id, post_id, reason, comment, created_at, resolved_at) VALUES \
             (3, 2, 4, 'spam', 'Not a real poll', :now - 900, :now - 800)",
            "INSERT INTO moderation_log (created_at, moderator_id, action, member_id, post_id, report_id, reason) VALUES \
             (:now - 800, 1, 'dismiss', 2, 4, 1, 'A fair poll')",
        ],
        until: None,
        drops: &[],
    },
    // The look-alike keys of the members' names, as every writer stores them from 0012 on.
    Step {
        version: 12,
        rows: &[
            "UPDATE users SET username_skeleton = 'ada', name_skeleton = 'ada lovelace' WHERE id = 1",
            "UPDATE users SET username_skeleton = 'bob', name_skeleton = 'bob' WHERE id = 2",
            "UPDATE users SET username_skeleton = 'cyd', name_skeleton = 'cyd ☕' WHERE id = 3",
        ],
        until: None,
        drops: &[],
    },
    // An index only.
    Step { version: 13, rows: &[], until: None, drops: &[] },
    // Bob's poll as written from 0014 on: its hashtag parsed, the tag used, Trending computed.
    Step {
        version: 14,
        rows: &[
            "UPDATE posts SET content = 'Tea or coffee? #TeaTime', \
             entities = '[{\"type\":\"hashtag\",\"start\":15,\"end\":23,\"value\":\"TeaTime\"}]' WHERE id = 4",
            "INSERT INTO tags (key, name, created_at) VALUES ('teatime', 'TeaTime', :now - 100000)",
            "INSERT INTO post_tags (tag_id, post_id, author_id, created_at) VALUES (1, 4, 2, :now - 100000)",
            "INSERT INTO trending_tags (rank, tag_id, people_count, post_count, computed_at) VALUES (1, 1, 3, 3, :now - 1000)",
            "INSERT INTO jobs (name, next_run_at, cursor) VALUES ('trending', :now + 300000, 0)",
        ],
        until: None,
        drops: &[],
    },
    // Bob's poll tags #TeaTime a second time, in fullwidth letters.
    Step {
        version: 14,
        rows: &["UPDATE posts SET content = 'Tea or coffee? #TeaTime #ＴｅａＴｉｍｅ', \
             entities = '[{\"type\":\"hashtag\",\"start\":15,\"end\":23,\"value\":\"TeaTime\"},\
             {\"type\":\"hashtag\",\"start\":24,\"end\":32,\"value\":\"ＴｅａＴｉｍｅ\"}]' WHERE id = 4"],
        until: None,
        drops: &[],
    },
    // Before 0026 the fullwidth tag was a tag of its own, keyed by its lower case, and trending
    // second; from 0026 on it is #TeaTime.
    Step {
        version: 14,
        rows: &[
            "INSERT INTO tags (key, name, created_at) VALUES ('ｔｅａｔｉｍｅ', 'ＴｅａＴｉｍｅ', :now - 100000)",
            "INSERT INTO post_tags (tag_id, post_id, author_id, created_at) VALUES (2, 4, 2, :now - 100000)",
            "INSERT INTO trending_tags (rank, tag_id, people_count, post_count, computed_at) VALUES (2, 2, 3, 3, :now - 1000)",
        ],
        until: Some(26),
        drops: &[],
    },
    // Ada's post as edited from 0015 on (a typo fixed), with its first text kept; Bob
    // bookmarked it.
    Step {
        version: 15,
        rows: &[
            "UPDATE posts SET edited_at = :now - 250000 WHERE id = 1",
            "INSERT INTO post_edits (post_id, content, written_at, replaced_at) VALUES (1, 'Helo, Murmur 👋', :now - 300000, :now - 250000)",
            "INSERT INTO bookmarks (user_id, post_id, created_at) VALUES (2, 1, :now - 240000)",
        ],
        until: None,
        drops: &[],
    },
    // Every session has a public id from 0016 on (Ada's, as written then); Bob's session in a
    // browser, listed under its public id; Bob asked to change his address.
    Step {
        version: 16,
        rows: &[
            "UPDATE sessions SET public_id = 'fedcba9876543210fedcba9876543210' WHERE user_id = 1",
            "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at, public_id, user_agent) VALUES \
             ('00000000000000000000000000000000000000000000000000000000000000b0', 2, :now - 5000, :now - 5000, :now + 2592000000, \
              '0123456789abcdef0123456789abcdef', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')",
            "INSERT INTO magic_links (token_hash, email, purpose, invite_code, created_at, expires_at, used_at, user_id) VALUES \
             ('0000000000000000000000000000000000000000000000000000000000000002', 'bob.new@example.com', 'email', NULL, :now - 4000, :now + 896000, NULL, 2)",
        ],
        until: None,
        drops: &[],
    },
    // Ada's picture described, as posts may be from 0017 on.
    Step {
        version: 17,
        rows: &["UPDATE post_images SET alt = 'A wave saying hello' WHERE post_id = 1"],
        until: None,
        drops: &[],
    },
    // A deleted account's username held, and Bob's link to confirm deleting his account.
    Step {
        version: 18,
        rows: &[
            "INSERT INTO username_holds (username, until) VALUES ('dee', :now + 2592000000)",
            "INSERT INTO magic_links (token_hash, email, purpose, invite_code, created_at, expires_at, used_at) VALUES \
             ('0000000000000000000000000000000000000000000000000000000000000003', 'bob@example.com', 'delete_account', NULL, :now - 1000, :now + 899000, NULL)",
        ],
        until: None,
        drops: &[],
    },
    // Ada's data archive, ready, and the notice that told her; Bob's still being prepared.
    Step {
        version: 19,
        rows: &[
            "INSERT INTO data_exports (member_id, status, requested_at, attempts, archive_id, byte_size, finished_at, expires_at) VALUES \
             (1, 'ready', :now - 5000, 1, 'fedcba9876543210fedcba9876543210', 4096, :now - 4000, :now + 604800000)",
            "INSERT INTO data_exports (member_id, status, requested_at) VALUES (2, 'pending', :now - 1000)",
            "INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at) VALUES (1, 1, 'export-ready', 0, :now - 4000)",
        ],
        until: None,
        drops: &[],
    },
    // Indexes only (the leaving job's lookups).
    Step { version: 20, rows: &[], until: None, drops: &[] },
    // The same timelines, each row naming its post's author and a repost's original author.
    Step {
        version: 21,
        rows: &["INSERT INTO home_timeline (member_id, post_id, author_id, original_author_id) VALUES \
             (1, 1, 1, NULL), (1, 4, 2, NULL), (2, 1, 1, NULL), (2, 4, 2, NULL), (3, 1, 1, NULL), (3, 3, 3, 1)"],
        until: None,
        drops: &[],
    },
    // Cyd's report keeps the words of the post it reported, as every report of a post does.
    Step {
        version: 22,
        rows: &["UPDATE reports SET post_text = (SELECT content FROM posts WHERE id = 4) WHERE id = 1"],
        until: None,
        drops: &[],
    },
    // An index only (the queue's order).
    Step { version: 23, rows: &[], until: None, drops: &[] },
    // From 0024 on: Cyd, who signed up lately, has not finished the first-run step; Bob changed
    // his username from `bobby`, which is held for him.
    Step {
        version: 24,
        rows: &[
            "UPDATE users SET first_run_done = 0 WHERE id = 3",
            "UPDATE users SET username_changed_at = :now - 86400000 WHERE id = 2",
            "INSERT INTO username_holds (username, until, user_id) VALUES ('bobby', :now + 2505600000, 2)",
        ],
        until: None,
        drops: &[],
    },
    // Keys computed again in Rust (the members' look-alike keys, the tags' keys): no rows of
    // its own.
    Step { version: 26, rows: &[], until: None, drops: &[] },
    // Where Ada's session was last used.
    Step {
        version: 27,
        rows: &["UPDATE sessions SET network = '203.0.113.0/24' WHERE user_id = 1"],
        until: None,
        drops: &[],
    },
    // Ada's first post was made with an Idempotency-Key.
    Step {
        version: 28,
        rows: &["INSERT INTO post_keys (member_id, key, post_id, created_at) VALUES (1, 'k-1', 1, :now - 60000)"],
        until: None,
        drops: &[],
    },
    // Ada let an app in: it holds a token, and a second consent waits for its exchange.
    Step {
        version: 29,
        rows: &[
            "INSERT INTO apps (id, client_id, secret_hash, name, website, redirect_uris, scopes, created_at) \
             VALUES (1, 'client-1', 'h', 'Ivory', 'https://tapbots.com', 'ivory://oauth', 'read write follow push', :now)",
            "INSERT INTO app_tokens (id, token_hash, app_id, member_id, scopes, created_at, last_used_at) \
             VALUES (1, 't', 1, 1, 'read write', :now, :now)",
            "INSERT INTO app_codes (code_hash, app_id, member_id, redirect_uri, scopes, code_challenge, expires_at) \
             VALUES ('c', 1, 1, 'ivory://oauth', 'read', NULL, :now + 600000)",
            "UPDATE media SET description = 'A cat' WHERE id = (SELECT MIN(id) FROM media)",
            "INSERT INTO markers (member_id, timeline, last_read_id, version, updated_at) VALUES (1, 'home', 1, 1, :now)",
        ],
        until: None,
        drops: &[],
    },
    // Ada's first post was written from her app.
    Step { version: 30, rows: &["UPDATE posts SET app_id = 1 WHERE id = 1"], until: None, drops: &[] },
    // Web Push: the instance's key, Ada's browser subscribed from her session, and the push of
    // Bob's reply still waiting to be sent.
    Step {
        version: 31,
        rows: &[
            "INSERT INTO push_keys (id, private_key, public_key, created_at) VALUES (1, 'KyLLGnm8ZqxsQqXke4OQ1c-zY-X5VskRFw__4KpSpC4', \
             'BEMRqX1INEDBfYUW5ArobdeAKeOY6dm9xsNITdkXt4LLjQEMTwRSHN1PV64z5DvMEP3yPt_FYapJkOthLbgxQTs', :now)",
            "INSERT INTO push_subscriptions (id, member_id, session_hash, endpoint, p256dh, auth, alerts, policy, created_at) \
             VALUES (1, 1, ':ada_session', 'https://push.example/send/1', 'key', 'auth', 63, 'all', :now)",
            "INSERT INTO push_deliveries (id, notification_id, subscription_id, attempts, due_at, claimed_until, created_at) \
             VALUES (1, 2, 1, 0, :now, NULL, :now)",
        ],
        until: None,
        drops: &[],
    },
    // Ada's app subscribed her phone with its token.
    Step {
        version: 32,
        rows: &[
            "INSERT INTO push_subscriptions (id, member_id, session_hash, token_id, endpoint, p256dh, auth, alerts, policy, created_at) \
             VALUES (2, 1, NULL, 1, 'https://push.example/send/2', 'key', 'auth', 3, 'followed', :now)",
        ],
        until: None,
        drops: &[],
    },
    // Passkeys: Ada's laptop, used once, a sign-in under way, and Ada's session signed in with it.
    Step {
        version: 33,
        rows: &[
            "INSERT INTO passkeys (id, user_id, credential_id, user_handle, name, credential, created_at, last_used_at) \
             VALUES (1, 1, 'AAECAwQFBgcICQ', '6f1c2a4e-0000-4000-8000-000000000001', 'Laptop', '{}', :now - 60000, :now)",
            "INSERT INTO passkey_ceremonies (id_hash, kind, user_id, state, created_at, expires_at) \
             VALUES ('0000000000000000000000000000000000000000000000000000000000000002', 'login', NULL, '{}', :now, :now + 300000)",
            "UPDATE sessions SET signed_in_with = 'passkey' WHERE id_hash = ':ada_session'",
        ],
        until: None,
        drops: &[],
    },
    // Bob's poll carries a content warning, and Ada's first post carried one before her edit;
    // Bob opens such posts at once.
    Step {
        version: 34,
        rows: &[
            "UPDATE posts SET spoiler_text = 'Hot beverage takes' WHERE id = 4",
            "INSERT INTO post_edits (post_id, content, spoiler_text, written_at, replaced_at) \
             VALUES (1, 'Hello, Murmur', 'Greetings', :now - 250000, :now - 200000)",
            "UPDATE users SET expand_warnings = 1 WHERE id = 2",
        ],
        until: None,
        drops: &[],
    },
    // Muted words: Bob mutes coffee for a day and #Tea until he removes it; Bob's poll has its
    // words.
    Step {
        version: 35,
        rows: &[
            "INSERT INTO muted_words (id, member_id, text, word_key, created_at, expires_at) \
             VALUES (1, 2, 'coffee', ' coffee ', :now, :now + 86400000), (2, 2, '#Tea', ' tea ', :now, NULL)",
            "UPDATE posts SET muting_text = ' tea or coffee hot beverage takes ' WHERE id = 4",
        ],
        until: None,
        drops: &[],
    },
    // Lists: Ada's list of the people she reads on engines, holding Bob.
    Step {
        version: 36,
        rows: &[
            "INSERT INTO lists (id, owner_id, title, created_at) VALUES (1, 1, 'Engines', :now)",
            "INSERT INTO list_members (list_id, member_id, created_at) VALUES (1, 2, :now)",
        ],
        until: None,
        drops: &[],
    },
    // Followed tags: Bob follows Ada's first post's tag, which reached his timeline by it, and a
    // post of hers still waits for its tag's followers.
    Step {
        version: 37,
        rows: &[
            "INSERT INTO followed_tags (member_id, tag_id, created_at) SELECT 2, MIN(id), :now FROM tags",
            "UPDATE home_timeline SET via_tag_id = (SELECT MIN(id) FROM tags) WHERE member_id = 2 AND post_id = 1",
            "INSERT INTO tag_fanouts (post_id, author_id, after_member) VALUES (1, 1, 0)",
        ],
        until: None,
        drops: &[],
    },
    // An index only: notifications' groups.
    Step { version: 38, rows: &[], until: None, drops: &[] },
    // Link preview cards: Ada's first post shows the card of a page, and a second link waits for
    // its fetch.
    Step {
        version: 39,
        rows: &[
            "INSERT INTO link_cards (id, url, title, description, site_name, image_media_id, image_content_type, fetched_at, due_at, claimed_until) VALUES \
             (1, 'https://ada.example/engines', 'Engines', 'On the analytical engine', 'Ada''s notes', NULL, NULL, :now - 1000, NULL, NULL), \
             (2, 'https://bob.example/tea', NULL, NULL, NULL, NULL, NULL, NULL, :now, NULL)",
            "UPDATE posts SET link_card_id = 1 WHERE id = 1",
        ],
        until: None,
        drops: &[],
    },
    // Quote posts: Bob's reply quotes Ada's first post, which she detached from it; Ada's first
    // post may no longer be quoted; Ada heard of the quote.
    Step {
        version: 40,
        rows: &[
            "UPDATE posts SET quote_of_id = 1, quote_detached_at = :now WHERE id = 2",
            "UPDATE posts SET quotes_allowed = 0 WHERE id = 1",
            "INSERT INTO notifications (recipient_id, actor_id, type, post_id, created_at) VALUES (1, 2, 'quote', 2, :now)",
        ],
        until: None,
        drops: &[],
    },
    // Read replicas: Ada's position after her last write request.
    Step {
        version: 41,
        rows: &["INSERT INTO member_positions (member_id, position) VALUES (1, 4096)"],
        until: None,
        drops: &[],
    },
    // PostgreSQL's `instr` (the muted words' test): a function, no rows.
    Step { version: 42, rows: &[], until: None, drops: &[] },
    // Ada confirmed her session with a passkey a little after signing in.
    Step {
        version: 43,
        rows: &["UPDATE sessions SET reauthenticated_at = :now - 300000 WHERE id_hash = ':ada_session'"],
        until: None,
        drops: &[],
    },
    // Bob's reply was made with an Idempotency-Key bound to its request.
    Step {
        version: 44,
        rows: &["INSERT INTO post_keys (member_id, key, post_id, created_at, endpoint, body_hash) VALUES \
             (2, 'k-2', 2, :now - 50000, 'POST /api/posts', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')"],
        until: None,
        drops: &[],
    },
    // Held names' look-alike keys: the earlier holds keyed as the app keys them, a deleted
    // member's name held with its key; a consent whose authorization request left the redirect
    // URI out.
    Step {
        version: 45,
        rows: &[
            "UPDATE username_holds SET skeleton = username",
            "INSERT INTO username_holds (username, until, user_id, skeleton) VALUES ('eve', :now + 2592000000, NULL, 'eve')",
            "INSERT INTO app_codes (code_hash, app_id, member_id, redirect_uri, redirect_uri_named, scopes, code_challenge, expires_at) \
             VALUES ('c2', 1, 1, 'ivory://oauth', 0, 'read', NULL, :now + 600000)",
        ],
        until: None,
        drops: &[],
    },
    // Multiple-choice polls: Bob took both options of Ada's poll.
    Step {
        version: 46,
        rows: &[
            "UPDATE posts SET poll_multiple = 1 WHERE id = 4",
            "INSERT INTO poll_votes (post_id, user_id, position, created_at) VALUES (4, 2, 0, :now), (4, 2, 1, :now)",
        ],
        until: None,
        drops: &[],
    },
    // Pinned posts: Ada pinned her first post.
    Step {
        version: 47,
        rows: &["INSERT INTO pinned_posts (user_id, post_id, created_at) VALUES (1, 1, :now)"],
        until: None,
        drops: &[],
    },
    // Edit history keeps images: the first version of Ada's first post showed the wave, not yet
    // described.
    Step {
        version: 48,
        rows: &["INSERT INTO post_edit_images (edit_id, position, media_id, alt) \
                 SELECT MIN(id), 0, '0123456789abcdef0123456789abcdef', NULL FROM post_edits WHERE post_id = 1"],
        until: None,
        drops: &[],
    },
    // Direct messages: Ada wrote to Bob, who takes messages from everyone and has not read it.
    Step {
        version: 49,
        rows: &[
            "UPDATE users SET messages_from = 'everyone' WHERE id = 2",
            "INSERT INTO conversations (id, member_key, started_by, created_at, last_message_id) VALUES (1, '1,2', 1, :now, 1)",
            "INSERT INTO conversation_members (conversation_id, member_id, box, muted, last_read_id, joined_at) \
             VALUES (1, 1, 'inbox', 0, 1, :now), (1, 2, 'requests', 0, 0, :now)",
            "INSERT INTO messages (id, conversation_id, author_id, content, created_at, deleted_at) \
             VALUES (1, 1, 1, 'Hello Bob', :now, NULL)",
            "INSERT INTO report_messages (report_id, message_id, author_id, content, sent_at) \
             SELECT MIN(id), 1, 1, 'Hello Bob', :now FROM reports HAVING COUNT(*) > 0",
        ],
        until: None,
        drops: &[],
    },
    // A message is pushed: Ada's message waits to reach Bob's browser, which chose messages.
    Step {
        version: 50,
        rows: &[
            "INSERT INTO push_subscriptions (id, member_id, session_hash, endpoint, p256dh, auth, alerts, policy, created_at) \
             VALUES (3, 2, '00000000000000000000000000000000000000000000000000000000000000b0', 'https://push.example/send/3', 'key', 'auth', 255, 'all', :now)",
            "INSERT INTO push_deliveries (id, message_id, subscription_id, attempts, due_at, claimed_until, created_at) \
             VALUES (2, 1, 3, 0, :now, NULL, :now)",
        ],
        until: None,
        drops: &[],
    },
];

/// Tables whose rows `Db::migrate` rewrites in Rust after a migration (tags merged by their new
/// key), or a migration adds rows to (0035's backfill job): `backfilled_right` checks them
/// instead of row for row.
const REWRITTEN: &[(i64, &[&str])] = &[(26, &["tags", "post_tags", "trending_tags"]), (35, &["jobs"])];

/// The cookie value of Ada's session in the rows above.
const ADA_SESSION: &str = "ada-session-from-an-old-schema";

/// The app's own migrations of a backend.
fn migrator(backend: Backend) -> &'static Migrator {
    match backend {
        Backend::Sqlite => murmur::db::Backend::Sqlite.migrator(),
        Backend::Postgres => murmur::db::Backend::Postgres.migrator(),
    }
}

/// The migrations of a backend, oldest first, as (version, description).
fn history(backend: Backend) -> Vec<(i64, String)> {
    migrator(backend)
        .iter()
        .filter(|m| m.migration_type.is_up_migration())
        .map(|m| (m.version, m.description.to_string()))
        .collect()
}

fn missing_steps(backend: Backend) -> Vec<String> {
    history(backend)
        .into_iter()
        .filter(|(version, _)| !STEPS.iter().any(|s| s.version == *version))
        .map(|(version, description)| {
            format!("migration {version:04} ({description}) has no upgrade step in tests/api/schema_history.rs: add it to STEPS")
        })
        .collect()
}

#[test]
fn every_migration_has_an_upgrade_step() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let missing = missing_steps(backend);
        assert!(missing.is_empty(), "{backend:?}: {}", missing.join("; "));
    }
}

mod every_earlier_schema_upgrades_without_losing_data {
    use crate::common::Backend;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sqlite() {
        super::every_earlier_schema_upgrades_without_losing_data(Backend::Sqlite).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn postgres() {
        super::every_earlier_schema_upgrades_without_losing_data(Backend::Postgres).await;
    }
}

async fn every_earlier_schema_upgrades_without_losing_data(backend: Backend) {
    let missing = missing_steps(backend);
    assert!(missing.is_empty(), "{}", missing.join("; "));
    for (version, _) in history(backend) {
        let Some(database) = FreshDatabase::create(backend).await else { return };
        upgrade_from(version, database).await;
    }
}

/// One case: a database at schema `from`, filled, upgraded, compared, served.
async fn upgrade_from(from: i64, database: FreshDatabase) {
    let backend = database.backend;
    let at = |what: &str| format!("{backend:?}, upgrading from {from:04}: {what}");
    let db = murmur::db::Db::connect(&database.url).await.unwrap();
    migrator(backend)
        .run_to(from, db.write.sqlx())
        .await
        .unwrap_or_else(|e| panic!("{}", at(&format!("migrating to it: {e}"))));

    let now = murmur::clock::Clock::default().now();
    let ada_session = murmur::secrets::hash_token(ADA_SESSION);
    for step in STEPS.iter().filter(|s| s.version <= from && s.until.is_none_or(|until| from < until)) {
        for sql in step.rows {
            let sql = sql.replace(":now", &now.to_string()).replace(":ada_session", &ada_session);
            sqlx::query(sqlx::AssertSqlSafe(sql.clone())).execute(&db.write).await.unwrap_or_else(|e| {
                panic!("{}", at(&format!("the rows of {:04} do not fit: {e}\n{sql}", step.version)))
            });
        }
    }
    let before = snapshot(&db).await;

    // The operator's dry run lists exactly the migrations after `from`.
    let expected: Vec<String> = history(backend)
        .into_iter()
        .filter(|(version, _)| *version > from)
        .map(|(version, description)| format!("would run {version:04} {description}"))
        .collect();
    let dry_run = std::process::Command::new(env!("CARGO_BIN_EXE_murmur"))
        .args(["migrate", "--dry-run", "--data-dir"])
        .arg(database.data_dir.path())
        .env("DATABASE_URL", &database.url)
        .env_remove("SMTP_URL")
        .output()
        .expect("the murmur binary runs");
    assert!(dry_run.status.success(), "{}", at(&String::from_utf8_lossy(&dry_run.stderr)));
    let listed = String::from_utf8_lossy(&dry_run.stdout).into_owned();
    if expected.is_empty() {
        assert_eq!(listed.trim(), "no migrations to run", "{}", at("the dry run"));
    } else {
        assert_eq!(listed.lines().collect::<Vec<_>>(), expected, "{}", at("the dry run"));
    }

    db.migrate().await.unwrap_or_else(|e| panic!("{}", at(&format!("Db::migrate: {e:#}"))));
    assert_eq!(db.pending_migrations().await.unwrap(), Vec::<String>::new(), "{}", at("pending after migrate"));
    let after = snapshot(&db).await;
    nothing_was_lost(from, &before, &after, &at);
    backfilled_right(from, &after, &at);
    db.read.close().await;
    db.write.close().await;
    drop(db);

    the_migrated_database_serves(database, &at).await;
}

/// Every table's rows (but sqlx's own), each as column → value, sorted.
type Snapshot = BTreeMap<String, Vec<BTreeMap<String, Value>>>;

async fn snapshot(db: &murmur::db::Db) -> Snapshot {
    let tables = match db.backend {
        // Post search's full-text tables are derived from the posts (and their shadow tables hold blobs).
        murmur::db::Backend::Sqlite => {
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' \
             AND name NOT LIKE 'post_search%'"
        }
        murmur::db::Backend::Postgres => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'"
        }
    };
    let tables: Vec<String> = sqlx::query_scalar(tables).fetch_all(&db.write).await.unwrap();
    let mut snapshot = Snapshot::new();
    for table in tables {
        // The names come from the schema, not from input. Not kept prepared, and read on the
        // connection that migrated: the same statement answers more columns after the upgrade,
        // and sqlx reads a prepared statement's columns once (a kept statement, or one prepared
        // on a SQLite connection that has not seen the new schema yet, panics in sqlx-sqlite).
        // The columns the transfer copies: a generated one (post search's words) is derived.
        let mut conn = db.write.acquire().await.unwrap();
        let columns = murmur::db::transfer::columns(&mut conn, db.backend, &table).await.unwrap();
        drop(conn);
        let list = columns.iter().map(|c| format!("\"{}\"", c.name)).collect::<Vec<_>>().join(", ");
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {list} FROM {table}")))
            .persistent(false)
            .fetch_all(&db.write)
            .await
            .unwrap();
        let mut rows: Vec<BTreeMap<String, Value>> = rows
            .iter()
            .map(|row| {
                use sqlx::Column;
                (0..row.len())
                    .map(|i| {
                        let value = match row.try_get::<Option<i64>, _>(i) {
                            Ok(n) => json!(n),
                            Err(_) => json!(row.try_get::<Option<String>, _>(i).unwrap()),
                        };
                        (row.columns()[i].name().to_string(), value)
                    })
                    .collect()
            })
            .collect();
        rows.sort_by_key(|row| serde_json::to_string(row).unwrap());
        snapshot.insert(table, rows);
    }
    snapshot
}

/// Every row written before the upgrade is there after it, with the same values in every
/// column it had; only what a migration drops on purpose (`Step::drops`) may go.
fn nothing_was_lost(from: i64, before: &Snapshot, after: &Snapshot, at: &dyn Fn(&str) -> String) {
    for (table, rows) in before {
        if let Some(step) = STEPS.iter().find(|s| s.version > from && s.drops.contains(&table.as_str())) {
            let left = after.get(table).map_or(0, Vec::len);
            assert_eq!(left, 0, "{}", at(&format!("{table}: migration {:04} drops its rows", step.version)));
            continue;
        }
        if REWRITTEN.iter().any(|(version, tables)| *version > from && tables.contains(&table.as_str())) {
            continue;
        }
        let Some(columns) = rows.first() else { continue };
        let later = after.get(table).unwrap_or_else(|| panic!("{}", at(&format!("table {table} is gone"))));
        let mut kept: Vec<BTreeMap<String, Value>> = later
            .iter()
            .map(|row| {
                row.iter()
                    .filter(|(column, _)| columns.contains_key(*column))
                    .map(|(c, v)| (c.clone(), v.clone()))
                    .collect()
            })
            .collect();
        kept.sort_by_key(|row| serde_json::to_string(row).unwrap());
        assert_eq!(&kept, rows, "{}", at(&format!("the rows of {table} changed (left: after, right: before)")));
    }
}

/// The columns migrations added and filled in hold what they should, whatever the schema the
/// rows were written at; and the counters still match the rows they count.
fn backfilled_right(from: i64, after: &Snapshot, at: &dyn Fn(&str) -> String) {
    let int = |row: &BTreeMap<String, Value>, column: &str| {
        row[column].as_i64().unwrap_or_else(|| panic!("{column} in {row:?}"))
    };
    let count = |table: &str, matches: &dyn Fn(&BTreeMap<String, Value>) -> bool| {
        after[table].iter().filter(|r| matches(r)).count() as i64
    };
    let users = &after["users"];
    let posts = &after["posts"];
    assert_eq!(users.len(), 3, "{}", at("members"));
    assert_eq!(posts.len(), 5, "{}", at("posts"));
    let newest_post = posts.iter().map(|p| int(p, "id")).max().unwrap();
    for user in users {
        let id = int(user, "id");
        // 0004: members who were there start their timelines after the newest post.
        let home_floor = if from < 4 { newest_post + 1 } else { 1 };
        assert_eq!(int(user, "home_floor"), home_floor, "{}", at(&format!("home_floor of member {id}")));
        // 0008: feed versions start at 0.
        let feed_version = if from < 8 { 0 } else { [5, 2, 0][id as usize - 1] };
        assert_eq!(int(user, "feed_version"), feed_version, "{}", at(&format!("feed_version of member {id}")));
        // 0024: members from before it have been through the first-run step.
        let first_run_done = if from < 24 { 1 } else { [1, 1, 0][id as usize - 1] };
        assert_eq!(int(user, "first_run_done"), first_run_done, "{}", at(&format!("first_run_done of member {id}")));
        // 0012: the look-alike keys, which `Db::migrate` computes for members from before it.
        for (key, name) in [("username_skeleton", "username"), ("name_skeleton", "display_name")] {
            let name = user[name].as_str().unwrap_or_else(|| panic!("{name} in {user:?}"));
            let expected = murmur::text::look_alike_key(name);
            assert_eq!(user[key], json!(expected), "{}", at(&format!("{key} of member {id}")));
        }
        assert_eq!(
            int(user, "follower_count"),
            count("follows", &|f| int(f, "following_id") == id),
            "{}",
            at("follower_count")
        );
        assert_eq!(
            int(user, "following_count"),
            count("follows", &|f| int(f, "follower_id") == id),
            "{}",
            at("following_count")
        );
    }
    // 0016: every session has a public id of its own, whatever the schema it began at.
    let public_ids: Vec<&str> = after["sessions"]
        .iter()
        .map(|s| s["public_id"].as_str().unwrap_or_else(|| panic!("{}", at(&format!("no public id: {s:?}")))))
        .collect();
    assert!(
        public_ids.iter().all(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())),
        "{}",
        at(&format!("public ids {public_ids:?}"))
    );
    let distinct: std::collections::BTreeSet<&&str> = public_ids.iter().collect();
    assert_eq!(distinct.len(), public_ids.len(), "{}", at("public ids are distinct"));
    // 0021: each timeline row names its post's author and a repost's original author.
    let author_of =
        |post: &Value| posts.iter().find(|p| &p["id"] == post).map_or(Value::Null, |p| p["author_id"].clone());
    for row in &after["home_timeline"] {
        let post = posts.iter().find(|p| p["id"] == row["post_id"]).unwrap();
        assert_eq!(
            (&row["author_id"], &row["original_author_id"]),
            (&post["author_id"], &author_of(&post["repost_of_id"])),
            "{}",
            at(&format!("the authors in timeline row {row:?}"))
        );
    }
    assert_eq!(after["home_timeline"].len(), if from < 4 { 0 } else { 6 }, "{}", at("timeline rows"));
    // 0022: a report of a post keeps the post's words (from before it: the words it holds now).
    for report in &after["reports"] {
        let words = posts.iter().find(|p| p["id"] == report["post_id"]).map_or(Value::Null, |p| p["content"].clone());
        assert_eq!(report["post_text"], words, "{}", at(&format!("the words kept with report {report:?}")));
    }
    // 0026: a tag is keyed by its NFKC case fold: the fullwidth #ＴｅａＴｉｍｅ is #TeaTime, merged
    // into it where it was a tag of its own (the poll counts once, Trending loses its row until
    // next computed). Before 0014 the posts wait for the entities backfill.
    let column = |table: &str, names: [&str; 2]| -> Vec<(Value, Value)> {
        after[table].iter().map(|row| (row[names[0]].clone(), row[names[1]].clone())).collect()
    };
    let (tags, uses, trending) = if from < 14 {
        (vec![], vec![], vec![])
    } else {
        (vec![(json!("teatime"), json!("TeaTime"))], vec![(json!(1), json!(4))], vec![(json!(1), json!(1))])
    };
    assert_eq!(column("tags", ["key", "name"]), tags, "{}", at("tags"));
    assert_eq!(column("post_tags", ["tag_id", "post_id"]), uses, "{}", at("post_tags"));
    assert_eq!(column("trending_tags", ["rank", "tag_id"]), trending, "{}", at("trending_tags"));
    assert!(after["jobs"].iter().all(|j| j["name"] != json!("tag_keys")), "{}", at("the tags' keys are done"));
    // 0014: the posts from before it wait for the entities backfill, from the newest down.
    let entities_job: Vec<i64> =
        after["jobs"].iter().filter(|j| j["name"] == json!("entities")).map(|j| int(j, "cursor")).collect();
    let expected: Vec<i64> = if from < 14 { vec![newest_post] } else { vec![] };
    assert_eq!(entities_job, expected, "{}", at("the entities backfill's cursor"));
    // 0035: the posts from before it wait for their muted words' text, from the newest down.
    let muting_job: Vec<i64> =
        after["jobs"].iter().filter(|j| j["name"] == json!("muting_texts")).map(|j| int(j, "cursor")).collect();
    let expected: Vec<i64> = if from < 35 { vec![newest_post] } else { vec![] };
    assert_eq!(muting_job, expected, "{}", at("the muting texts' backfill cursor"));
    // 0043: every held name has its look-alike key; consents from before it named their
    // redirect URI, as far as the token request knows.
    for hold in &after["username_holds"] {
        let name = hold["username"].as_str().unwrap();
        let expected = murmur::text::look_alike_key(name);
        assert_eq!(hold["skeleton"], json!(expected), "{}", at(&format!("the key of held name {name}")));
    }
    for code in after["app_codes"].iter().filter(|code| code["code_hash"] != json!("c2")) {
        assert_eq!(code["redirect_uri_named"], json!(1), "{}", at(&format!("app code {code:?}")));
    }
    for post in posts {
        let id = int(post, "id");
        // 0010: how many images each post carries.
        let images = count("post_images", &|i| int(i, "post_id") == id);
        assert_eq!(int(post, "image_count"), images, "{}", at(&format!("image_count of post {id}")));
        let likes = count("likes", &|l| int(l, "post_id") == id);
        assert_eq!(int(post, "like_count"), likes, "{}", at(&format!("like_count of post {id}")));
        let replies = count("posts", &|p| p["reply_to_id"] == json!(id));
        assert_eq!(int(post, "reply_count"), replies, "{}", at(&format!("reply_count of post {id}")));
        let reposts = count("posts", &|p| p["repost_of_id"] == json!(id));
        assert_eq!(int(post, "repost_count"), reposts, "{}", at(&format!("repost_count of post {id}")));
    }
}

/// The app starts on the migrated database; Ada is still logged in and her profile, her post
/// with its image, reply, repost and likes, and her Media tab read as they were written.
async fn the_migrated_database_serves(database: FreshDatabase, at: &dyn Fn(&str) -> String) {
    let app = TestApp::spawn_on(database, |_| {}).await;
    let cookie = format!("{}={ADA_SESSION}", murmur::session_cookie::name(&app.state.config));
    let ada = client_for(&app.base, Some(&cookie));
    let get = async |path: &str| {
        let (status, body) = read(ada.get(app.url(path)).send().await.unwrap()).await;
        assert_eq!(status, 200, "{}", at(&format!("GET {path}: {body}")));
        body
    };

    let me = get("/api/auth/me").await;
    assert_eq!(me["username"], "ada", "{}", at("Ada's session"));
    // 0016: her session from before is listed, as this one, without a browser to name.
    let sessions = get("/api/auth/sessions").await;
    assert_eq!(
        (sessions.as_array().map(Vec::len), &sessions[0]["current"], &sessions[0]["userAgent"]),
        (Some(1), &json!(true), &Value::Null),
        "{}",
        at(&format!("Ada's sessions: {sessions}"))
    );
    let profile = get("/api/users/ada").await;
    assert_eq!(
        (&profile["displayName"], &profile["bio"], &profile["followerCount"], &profile["followingCount"]),
        (&json!("Ada Lovelace"), &json!("Counts things"), &json!(2), &json!(1)),
        "{}",
        at(&format!("Ada's profile: {profile}"))
    );
    let thread = get("/api/posts/1/thread").await;
    let post = &thread["post"];
    assert_eq!(
        (
            &post["content"],
            &post["likeCount"],
            &post["replyCount"],
            &post["repostCount"],
            post["imageUrls"].as_array().map(Vec::len)
        ),
        (&json!("Hello, Murmur 👋"), &json!(2), &json!(1), &json!(1), Some(1)),
        "{}",
        at(&format!("Ada's post: {post}"))
    );
    // Images are served with the size their upload recorded.
    assert_eq!(
        (&post["images"][0]["width"], &post["images"][0]["height"]),
        (&json!(640), &json!(480)),
        "{}",
        at(&format!("Ada's image: {post}"))
    );
    assert_eq!(thread["replies"][0]["content"], "Welcome, Ada", "{}", at(&format!("the reply: {thread}")));
    let media = get("/api/users/ada/media").await;
    assert!(media.to_string().contains("Hello, Murmur 👋"), "{}", at(&format!("Ada's Media tab: {media}")));
    // 0014 indexed the posts already there for search, and 0027 again with its prefixes.
    let found = get("/api/posts/search?q=murmur").await;
    assert_eq!(found[0]["id"], 1, "{}", at(&format!("post search: {found}")));
    let found = get("/api/posts/search?q=welcom").await;
    assert_eq!(found[0]["id"], 2, "{}", at(&format!("post search for a prefix: {found}")));
}
