//! Discovery: a post's entities, tag pages, Trending and post search (docs/discovery.md).

use std::time::Duration;

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Member, TestApp};
use crate::posts::{delete, get, id, ids, post, repost, seen_by, write};

const DAY: Duration = Duration::from_secs(24 * 3600);

async fn list(app: &TestApp, who: &Member, path: &str) -> Vec<i64> {
    let (status, body) = get(app, who, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    ids(&body)
}

async fn search(app: &TestApp, who: &Member, q: &str) -> Vec<i64> {
    let path = format!("/api/posts/search?q={}", urlencode(q));
    list(app, who, &path).await
}

fn urlencode(q: &str) -> String {
    q.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect()
}

/// `post.content[start..end]` in UTF-16 code units, as the web app slices it.
fn slice(content: &str, entity: &Value) -> String {
    let units: Vec<u16> = content.encode_utf16().collect();
    let (start, end) = (entity["start"].as_u64().unwrap() as usize, entity["end"].as_u64().unwrap() as usize);
    String::from_utf16(&units[start..end]).unwrap()
}

async fn trending(app: &TestApp, who: &Member) -> Vec<(String, i64, i64)> {
    murmur::discovery::trending::compute(&app.state.db, app.clock.now()).await.unwrap();
    let (status, body) = get(app, who, "/api/trending?limit=20").await;
    assert_eq!(status, 200, "{body}");
    body.as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["peopleCount"].as_i64().unwrap(),
                t["postCount"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn a_post_carries_its_mentions_hashtags_and_links(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let text = "🙂 Hi @Bob and @nobody, see #RustLang at https://example.com/a?b=1. Mail ada@example.com or @everyone";
    let written = write(&app, &ada, text).await;
    let entities = written["entities"].as_array().unwrap().clone();
    let shown: Vec<(String, String, String)> = entities
        .iter()
        .map(|e| (e["type"].as_str().unwrap().to_string(), slice(text, e), e["value"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        shown,
        [
            ("mention".into(), "@Bob".into(), "bob".into()),
            ("hashtag".into(), "#RustLang".into(), "RustLang".into()),
            ("link".into(), "https://example.com/a?b=1".into(), "https://example.com/a?b=1".into()),
        ],
        "no member is called nobody; an e-mail address and @everyone are text"
    );
    // Every list answers the same entities: the thread, the author's profile, a repost's original.
    assert_eq!(seen_by(&app, &bob, id(&written)).await["entities"], json!(entities));
    let (_, posts) = get(&app, &bob, "/api/users/ada/posts").await;
    assert_eq!(posts[0]["entities"], json!(entities));
    let shared = repost(&app, &bob, id(&written)).await;
    assert_eq!(shared["entities"], json!([]), "a repost has no text of its own");
    assert_eq!(shared["repostOf"]["entities"], json!(entities));
    // A deleted post keeps nothing of its text (it stands above a reply as a placeholder).
    let answer = crate::posts::reply(&app, &bob, id(&written), "Nice").await;
    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&written))).await;
    assert_eq!(status, 204);
    let (_, thread) = get(&app, &bob, &format!("/api/posts/{}/thread", id(&answer))).await;
    let gone = &thread["ancestors"][0];
    assert_eq!(
        (gone["isDeleted"].clone(), gone["content"].clone(), gone["entities"].clone()),
        (json!(true), json!(""), json!([]))
    );
}

async fn a_tag_page_lists_its_posts_newest_first_with_the_weeks_counts(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let first = id(&write(&app, &ada, "Learning #Rust today").await);
    let second = id(&write(&app, &bob, "#rust is fun").await);
    let third = id(&write(&app, &ada, "More #RUST, and #rust again").await);
    write(&app, &bob, "No tag here, only rust").await;
    let (status, tag) = get(&app, &bob, "/api/tags/rust").await;
    assert_eq!(status, 200, "{tag}");
    assert_eq!(
        tag,
        json!({ "name": "Rust", "postCount": 3, "peopleCount": 2, "isFollowing": false }),
        "named as first written"
    );
    assert_eq!(list(&app, &bob, "/api/tags/RUST/posts").await, [third, second, first]);
    assert_eq!(list(&app, &bob, "/api/tags/%23rust/posts?limit=2&offset=2").await, [first]);
    // A deleted post leaves the page and the counts.
    delete(&app, &bob, &format!("/api/posts/{second}")).await;
    assert_eq!(list(&app, &ada, "/api/tags/rust/posts").await, [third, first]);
    assert_eq!(get(&app, &ada, "/api/tags/rust").await.1["postCount"], 2);
    // The counts are the last 7 days'; the page is every post. (A session ends after 7 idle
    // days: Ada looks in half-way.)
    app.clock.advance(4 * DAY);
    assert_eq!(get(&app, &ada, "/api/tags/rust").await.1["postCount"], 2);
    app.clock.advance(4 * DAY);
    assert_eq!(
        get(&app, &ada, "/api/tags/rust").await.1,
        json!({ "name": "Rust", "postCount": 0, "peopleCount": 0, "isFollowing": false })
    );
    assert_eq!(list(&app, &ada, "/api/tags/rust/posts").await, [third, first]);
    // Nobody used it yet: zeros and no posts. Not a tag: 400 with a reason.
    assert_eq!(
        get(&app, &ada, "/api/tags/Nothing_Yet").await.1,
        json!({ "name": "Nothing_Yet", "postCount": 0, "peopleCount": 0, "isFollowing": false })
    );
    assert_eq!(list(&app, &ada, "/api/tags/Nothing_Yet/posts").await, Vec::<i64>::new());
    for bad in ["2024", "a-b", &"a".repeat(51)] {
        for path in [format!("/api/tags/{bad}"), format!("/api/tags/{bad}/posts")] {
            let (status, body) = get(&app, &ada, &path).await;
            assert_eq!(status, 400, "{path}: {body}");
            assert_eq!(body["message"], "A tag is 1 to 50 letters, digits or underscores");
        }
    }
}

async fn tag_pages_and_search_leave_out_blocked_and_muted_members(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let adas = id(&write(&app, &ada, "Sunny #garden morning").await);
    let bobs = id(&write(&app, &bob, "Rainy #garden morning").await);
    let (status, body) = post(&app, &bob, "/api/blocks", json!({ "userId": ada.id })).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = post(&app, &cyd, "/api/mutes", json!({ "userId": bob.id })).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(list(&app, &ada, "/api/tags/garden/posts").await, [adas], "blocked by bob");
    assert_eq!(list(&app, &bob, "/api/tags/garden/posts").await, [bobs], "bob blocked ada");
    assert_eq!(list(&app, &cyd, "/api/tags/garden/posts").await, [adas], "cyd muted bob");
    assert_eq!(search(&app, &bob, "morning").await, [bobs]);
    assert_eq!(search(&app, &ada, "garden").await, [adas]);
    assert_eq!(search(&app, &cyd, "morning").await, [adas]);
    assert_eq!(search(&app, &cyd, "\"garden morning\" -rainy").await, [adas]);
    assert_eq!(list(&app, &cyd, "/api/posts/search?q=morning&limit=1").await, [adas], "left out before the cut");
    // The tag's counts are the instance's, not the reader's.
    assert_eq!(get(&app, &cyd, "/api/tags/garden").await.1["peopleCount"], 2);
}

async fn trending_counts_people_against_their_usual_level(app: TestApp) {
    let members: Vec<Member> =
        futures::future::join_all(["ada", "bob", "cyd", "dee", "eve", "fay"].map(|name| app.member(name))).await;
    let [ada, bob, cyd, dee, eve, fay] = &members[..] else { unreachable!() };
    // A steady tag: three people every day for a week.
    for day in 0..8 {
        for who in [ada, bob, cyd] {
            write(&app, who, &format!("Day {day} of #Daily walks")).await;
        }
        // The others look in, so their sessions do not end idle.
        for who in [dee, eve, fay] {
            assert_eq!(get(&app, who, "/api/auth/me").await.0, 200);
        }
        app.clock.advance(DAY);
    }
    app.clock.advance(Duration::from_secs(60));
    assert!(trending(&app, ada).await.is_empty(), "nobody used a tag today");
    // Today: the steady tag as usual, one loud member, a new topic, and a newcomer's tag.
    for who in [ada, bob, cyd] {
        write(&app, who, "Today's #Daily walk").await;
    }
    for n in 0..10 {
        write(&app, eve, &format!("Loud post {n} #Loud")).await;
    }
    for who in [bob, cyd, dee] {
        write(&app, who, "Did you see the #Eclipse?").await;
    }
    let newcomer = app.member("newcomer").await;
    for who in [&newcomer, ada, dee] {
        write(&app, who, "Joining #Fresh").await;
    }
    assert_eq!(
        trending(&app, ada).await,
        [("Eclipse".to_string(), 3, 3)],
        "the steady tag is at its usual level, one loud member is one person, and a member who joined \
         today does not count"
    );
    // Twice its usual level: the steady tag trends too, after the sudden one.
    for who in [dee, eve, fay] {
        write(&app, who, "Me too, #daily").await;
    }
    assert_eq!(trending(&app, ada).await, [("Eclipse".to_string(), 3, 3), ("Daily".to_string(), 6, 6)]);
    app.clock.advance(DAY + Duration::from_secs(60));
    write(&app, &newcomer, "Still here #Fresh").await;
    let later = trending(&app, ada).await;
    assert!(later.is_empty(), "a day later nothing new happened: {later:?}");
    let (status, body) = get(&app, ada, "/api/trending?limit=21").await;
    assert_eq!((status, body["message"].as_str()), (400, Some("limit must be between 1 and 20")));
}

async fn trending_is_computed_by_one_process_at_a_time(app: TestApp) {
    let now = app.clock.now();
    let every = murmur::jobs::TRENDING_EVERY;
    let db = &app.state.db;
    // A name of its own: the app's own discovery job claims "trending" as the test starts, so
    // the first claim below would race it. The rule is the same function for every job.
    let job = "trending-by-a-test";
    assert!(murmur::jobs::claim(db, job, now, every).await.unwrap(), "the first claim runs");
    assert!(!murmur::jobs::claim(db, job, now, every).await.unwrap(), "a second process waits");
    assert!(!murmur::jobs::claim(db, job, now + every - 1, every).await.unwrap());
    assert!(murmur::jobs::claim(db, job, now + every, every).await.unwrap(), "due again");
}

async fn post_search_finds_words_phrases_prefixes_and_filters(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let cyd = app.member("cyd").await;
    let river = id(&write(&app, &ada, "Morning coffee by the river").await);
    let rain = id(&write(&app, &bob, "Coffee in the morning, rain later").await);
    let cafe = id(&write(&app, &ada, "Café au lait for #Breakfast").await);
    let quiet = id(&write(&app, &cyd, "The river was quiet").await);
    let lots = id(&write(&app, &cyd, "coffee, coffee, coffee and a little more coffee").await);
    repost(&app, &cyd, rain).await;
    assert_eq!(search(&app, &bob, "coffee").await, [lots, rain, river], "newest first, reposts are not matches");
    assert_eq!(search(&app, &bob, "COFFEE Morning").await, [rain, river]);
    assert_eq!(search(&app, &bob, "\"morning coffee\"").await, [river], "a phrase keeps its order");
    assert_eq!(search(&app, &bob, "coffee -rain").await, [lots, river]);
    assert_eq!(search(&app, &bob, "coffee -\"in the morning\"").await, [lots, river]);
    assert_eq!(search(&app, &bob, "riv").await, [quiet, river], "a short last word is a prefix");
    assert_eq!(search(&app, &bob, "rive").await, [quiet, river]);
    assert_eq!(search(&app, &bob, "morni").await, [rain, river], "a longer one is a prefix too");
    assert_eq!(search(&app, &bob, "from:ada coffee").await, [river]);
    assert_eq!(search(&app, &bob, "from:@Ada").await, [cafe, river]);
    assert_eq!(search(&app, &bob, "from:ada -coffee").await, [cafe]);
    assert_eq!(search(&app, &bob, "#breakfast").await, [cafe]);
    assert_eq!(search(&app, &bob, "café").await, [cafe]);
    assert_eq!(search(&app, &bob, "from:nobody coffee").await, Vec::<i64>::new());
    assert_eq!(search(&app, &bob, "#NeverUsed").await, Vec::<i64>::new());
    let top = list(&app, &bob, "/api/posts/search?q=coffee&sort=top").await;
    assert_eq!(top.first(), Some(&lots), "the post saying it most is the best match: {top:?}");
    assert_eq!(list(&app, &bob, "/api/posts/search?q=coffee&limit=1&offset=1").await, [rain]);
    // Deleted posts never match.
    delete(&app, &cyd, &format!("/api/posts/{lots}")).await;
    assert_eq!(search(&app, &bob, "coffee").await, [rain, river]);
    // Query syntax of either database is only ever our own: punctuation is plain text.
    for odd in ["NEAR(coffee, river) OR *", "coffee\" AND", "'; DROP TABLE posts; --", "a:b c^d", "((("] {
        let (status, body) = get(&app, &bob, &format!("/api/posts/search?q={}", urlencode(odd))).await;
        assert!(status == 200 || status == 400, "{odd}: {status} {body}");
    }
}

async fn every_last_word_is_a_prefix_as_it_is_typed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let lighthouses = id(&write(&app, &ada, "Three lighthouses on the coast").await);
    let lights = id(&write(&app, &ada, "Lights out on the coast").await);
    let keeper = id(&write(&app, &ada, "The lighthousekeeper's log").await);
    for (typed, found) in [
        ("li", vec![keeper, lights, lighthouses]),
        ("ligh", vec![keeper, lights, lighthouses]),
        ("lighth", vec![keeper, lighthouses]),
        ("lighthous", vec![keeper, lighthouses]),
        ("lighthouse", vec![keeper, lighthouses]),
        // Longer than SQLite's prefix indexes: the words starting so, merged.
        ("lighthouses", vec![lighthouses]),
        ("lighthousek", vec![keeper]),
        ("lighthousesx", vec![]),
        ("coast lighth", vec![lighthouses]),
        ("lighthouses coa", vec![lighthouses]),
        ("LIGHTH", vec![keeper, lighthouses]),
    ] {
        assert_eq!(search(&app, &bob, typed).await, found, "{typed:?}");
    }
    // Only the last word is being typed: an earlier one is whole.
    assert_eq!(search(&app, &bob, "lighth coast").await, Vec::<i64>::new());
    // A single letter is a word of its own, not the start of every word.
    assert_eq!(search(&app, &bob, "l").await, Vec::<i64>::new());
    let top = list(&app, &bob, "/api/posts/search?q=lighth&sort=top").await;
    assert_eq!(top.len(), 2, "{top:?}");
}

async fn bad_searches_are_refused_with_a_reason(app: TestApp) {
    let ada = app.member("ada").await;
    let eleven: String = (0..11).map(|i| format!("w{i} ")).collect();
    for (q, message) in [
        ("", "Type something to search for"),
        ("   ", "Type something to search for"),
        (&"a".repeat(201) as &str, "A search can be at most 200 characters long"),
        (&eleven, "A search can have at most 10 terms"),
        ("-only -left -out", "Search for at least one word, phrase, #tag or from:member"),
        ("...", "Search for at least one word, phrase, #tag or from:member"),
        ("from:x!", "from: needs a username, like from:ada"),
        ("#2024", "A tag is 1 to 50 letters, digits or underscores"),
    ] {
        let (status, body) = get(&app, &ada, &format!("/api/posts/search?q={}", urlencode(q))).await;
        assert_eq!((status, body["message"].as_str()), (400, Some(message)), "{q:?}");
    }
    let (status, body) = get(&app, &ada, "/api/posts/search").await;
    assert_eq!((status, body["message"].as_str()), (400, Some("Type something to search for")));
    let (status, body) = get(&app, &ada, "/api/posts/search?q=a&sort=best").await;
    assert_eq!((status, body["message"].as_str()), (400, Some("sort must be latest or top")));
    let (status, _) = get(&app, &ada, "/api/posts/search?q=a&limit=51").await;
    assert_eq!(status, 400);
}

async fn posts_written_before_entities_get_them_from_the_backfill(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    // A post as an earlier version stored it: text only, the backfill's cursor on it.
    let old: i64 = sqlx::query_scalar(
        "INSERT INTO posts (author_id, content, created_at) VALUES ($1, 'Old news for @bob #Archive', $2) RETURNING id",
    )
    .bind(ada.id)
    .bind(app.clock.now())
    .fetch_one(&app.state.db.write)
    .await
    .unwrap();
    sqlx::query("INSERT INTO jobs (name, next_run_at, cursor) VALUES ('entities', 0, $1)")
        .bind(old)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    murmur::jobs::discovery(&app.state.db, app.clock.now()).await.unwrap();
    let types: Vec<Value> =
        seen_by(&app, &bob, old).await["entities"].as_array().unwrap().iter().map(|e| e["type"].clone()).collect();
    assert_eq!(types, [json!("mention"), json!("hashtag")]);
    assert_eq!(list(&app, &bob, "/api/tags/archive/posts").await, [old]);
    assert_eq!(search(&app, &bob, "archive").await, [old], "the search index had it already");
    let cursor: i64 = sqlx::query_scalar("SELECT cursor FROM jobs WHERE name = 'entities'")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(cursor, 0, "done");
}

const FULLWIDTH_RUST: &str = "\u{ff32}\u{ff35}\u{ff33}\u{ff34}";
const BOLD_RUST: &str = "\u{1d411}\u{1d42e}\u{1d42c}\u{1d42d}";

async fn fullwidth_and_mathematical_tags_are_the_tag_they_spell(app: TestApp) {
    let members: Vec<Member> = futures::future::join_all(["ada", "bob", "cyd"].map(|name| app.member(name))).await;
    let [ada, bob, cyd] = &members[..] else { unreachable!() };
    // Members of more than a day count in Trending.
    app.clock.advance(DAY + Duration::from_secs(60));
    let first = id(&write(&app, ada, "Learning #rust").await);
    let second = id(&write(&app, bob, &format!("#{FULLWIDTH_RUST} is wide")).await);
    let third = id(&write(&app, cyd, &format!("#{BOLD_RUST} in bold, and #RUST again")).await);
    let all = [third, second, first];

    for name in ["rust", "RUST", FULLWIDTH_RUST, BOLD_RUST] {
        let path = format!("/api/tags/{}", urlencode(name));
        let (status, tag) = get(&app, ada, &path).await;
        assert_eq!(status, 200, "{path}: {tag}");
        assert_eq!(tag, json!({ "name": "rust", "postCount": 3, "peopleCount": 3, "isFollowing": false }), "{name}");
        assert_eq!(list(&app, ada, &format!("{path}/posts")).await, all, "{name}");
        assert_eq!(search(&app, ada, &format!("#{name}")).await, all, "#{name}");
    }
    assert_eq!(trending(&app, ada).await, [("rust".to_string(), 3, 3)]);
    let tags: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM tags").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(tags, 1, "one tag");
}

/// The tags' keys and names, by id.
async fn stored_tags(app: &TestApp) -> Vec<(String, String)> {
    sqlx::query_as("SELECT key, name FROM tags ORDER BY id").fetch_all(&app.state.db.read).await.unwrap()
}

async fn tags_written_before_the_fold_are_rekeyed_and_merged_at_the_next_start(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let rust = id(&write(&app, &ada, "Learning #rust").await);
    let both = id(&write(&app, &bob, &format!("#rust and #{FULLWIDTH_RUST}")).await);
    let wide = id(&write(&app, &bob, &format!("Only #{FULLWIDTH_RUST}")).await);
    let bold = id(&write(&app, &ada, &format!("Only #{BOLD_RUST}")).await);
    let cafe = id(&write(&app, &ada, "#Caf\u{e9} time").await);
    let tea = id(&write(&app, &bob, "#\u{ff34}\u{ff25}\u{ff21} time").await);
    // As an earlier murmur keyed them (lower case only): the fullwidth and bold tags apart.
    let db = &app.state.db.write;
    sqlx::query("DELETE FROM post_tags").execute(db).await.unwrap();
    sqlx::query("DELETE FROM tags").execute(db).await.unwrap();
    let now = app.clock.now();
    for (key, name, posts) in [
        ("rust".to_string(), "rust", vec![rust, both]),
        (FULLWIDTH_RUST.to_lowercase(), FULLWIDTH_RUST, vec![both, wide]),
        (BOLD_RUST.to_lowercase(), BOLD_RUST, vec![bold]),
        ("caf\u{e9}".to_string(), "Caf\u{e9}", vec![cafe]),
        ("\u{ff54}\u{ff45}\u{ff41}".to_string(), "\u{ff34}\u{ff25}\u{ff21}", vec![tea]),
    ] {
        let tag: i64 = sqlx::query_scalar("INSERT INTO tags (key, name, created_at) VALUES ($1, $2, $3) RETURNING id")
            .bind(key)
            .bind(name)
            .bind(now)
            .fetch_one(db)
            .await
            .unwrap();
        for post in posts {
            sqlx::query("INSERT INTO post_tags (tag_id, post_id, author_id, created_at) SELECT $1, id, author_id, created_at FROM posts WHERE id = $2")
                .bind(tag)
                .bind(post)
                .execute(db)
                .await
                .unwrap();
        }
    }
    assert_eq!(list(&app, &ada, &format!("/api/tags/{}/posts", urlencode(FULLWIDTH_RUST))).await, [both, rust]);
    // Migration 0026 marks them; the next start re-keys them.
    sqlx::query("INSERT INTO jobs (name, next_run_at, cursor) VALUES ('tag_keys', 0, 0)").execute(db).await.unwrap();

    app.state.db.migrate().await.unwrap();

    assert_eq!(
        stored_tags(&app).await,
        [
            ("rust".to_string(), "rust".to_string()),
            ("caf\u{e9}".to_string(), "Caf\u{e9}".to_string()),
            ("tea".to_string(), "\u{ff34}\u{ff25}\u{ff21}".to_string()),
        ],
        "merged where the new key was taken, renamed where it was free"
    );
    for name in ["rust", FULLWIDTH_RUST, BOLD_RUST] {
        assert_eq!(list(&app, &ada, &format!("/api/tags/{}/posts", urlencode(name))).await, [bold, wide, both, rust]);
    }
    assert_eq!(get(&app, &ada, "/api/tags/rust").await.1["postCount"], 4, "a post in two of them counts once");
    assert_eq!(list(&app, &ada, "/api/tags/caf%C3%A9/posts").await, [cafe]);
    assert_eq!(list(&app, &ada, "/api/tags/tea/posts").await, [tea]);
    let marks: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM jobs WHERE name = 'tag_keys'")
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(marks, 0, "done once");
    app.state.db.migrate().await.unwrap();
    assert_eq!(stored_tags(&app).await.len(), 3);
}

both_databases!(
    fullwidth_and_mathematical_tags_are_the_tag_they_spell,
    tags_written_before_the_fold_are_rekeyed_and_merged_at_the_next_start,
    a_post_carries_its_mentions_hashtags_and_links,
    a_tag_page_lists_its_posts_newest_first_with_the_weeks_counts,
    tag_pages_and_search_leave_out_blocked_and_muted_members,
    trending_counts_people_against_their_usual_level,
    trending_is_computed_by_one_process_at_a_time,
    post_search_finds_words_phrases_prefixes_and_filters,
    every_last_word_is_a_prefix_as_it_is_typed,
    bad_searches_are_refused_with_a_reason,
    posts_written_before_entities_get_them_from_the_backfill,
);
