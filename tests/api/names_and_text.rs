//! Names and text that cannot deceive (issue 24, issue 43; crates/core/src/text): control
//! characters, text-direction controls and invisible-only text are refused with a message naming
//! the field (report comments and moderators' reasons too), text is stored NFC-normalized, and a
//! display name that looks like another member's name or username is refused.

use serde_json::{Value, json};

use crate::accounts::{operator_code, sign_up};
use crate::both_databases;
use crate::common::{Member, TestApp, make_moderator};
use crate::fixtures::png;
use crate::mastodon::{AppClient, token_for};
use crate::media::uploaded;
use crate::posts::{get, post, put, write};

const LOOKS_LIKE: &str = "Display name looks like another member's name or username";
const USERNAME_LOOKS_LIKE: &str = "That username looks like another member's name or username.";
const RESERVED: &str = "Display name looks like the name of Murmur or of its staff";

async fn rename(app: &TestApp, who: &Member, display_name: &str) -> (u16, Value) {
    put(app, who, "/api/users/profile", Some(json!({ "displayName": display_name, "bio": "", "website": "" }))).await
}

/// Changes `who`'s username and display name at once, as the profile form does.
async fn rename_to(app: &TestApp, who: &Member, display_name: &str, username: &str) -> (u16, Value) {
    put(app, who, "/api/users/profile", Some(json!({ "displayName": display_name, "username": username }))).await
}

/// What the database holds for a member: display name, bio and both look-alike keys.
async fn stored(app: &TestApp, id: i64) -> (String, String, Option<String>, Option<String>) {
    sqlx::query_as("SELECT display_name, bio, name_skeleton, username_skeleton FROM users WHERE id = $1")
        .bind(id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn posts_of(app: &TestApp, who: &Member) -> i64 {
    sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM posts WHERE author_id = $1")
        .bind(who.id)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap()
}

async fn direction_controls_and_invisible_text_are_refused_with_a_message(app: TestApp) {
    let ada = app.member("ada").await;
    let posts = [
        (json!({ "content": "invoice\u{202e}fdp.exe" }), "A post cannot contain text-direction control characters"),
        (json!({ "content": "a \u{2066}b\u{2069}" }), "A post cannot contain text-direction control characters"),
        (json!({ "content": "\u{200b}\u{200d}" }), "A post cannot be only invisible characters"),
        (json!({ "content": "\u{3164}\u{3164}" }), "A post cannot be only invisible characters"),
        (json!({ "content": "\u{2800} \u{fe0f}" }), "A post cannot be only invisible characters"),
        (
            json!({ "content": "Tea?", "pollOptions": ["yes", "\u{202d}no"] }),
            "A poll option cannot contain text-direction control characters",
        ),
        (
            json!({ "content": "Tea?", "pollOptions": ["yes", "\u{200b}"] }),
            "A poll option cannot be only invisible characters",
        ),
    ];
    for (body, message) in posts {
        let (status, answer) = post(&app, &ada, "/api/posts", body.clone()).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{body}");
    }
    assert_eq!(posts_of(&app, &ada).await, 0, "no post was written");

    let edits = [
        (
            json!({ "displayName": "Ada\u{202e}", "bio": "" }),
            "Display name cannot contain text-direction control characters",
        ),
        (
            json!({ "displayName": "\u{2067}Ada", "bio": "" }),
            "Display name cannot contain text-direction control characters",
        ),
        // The marks too, in a name (a post keeps them).
        (
            json!({ "displayName": "Ada\u{200f}", "bio": "" }),
            "Display name cannot contain text-direction control characters",
        ),
        (json!({ "displayName": "\u{3164}", "bio": "" }), "Display name cannot be only invisible characters"),
        (
            json!({ "displayName": "\u{115f}\u{1160}\u{ffa0}", "bio": "" }),
            "Display name cannot be only invisible characters",
        ),
        (json!({ "displayName": "\u{200b}\u{2060}", "bio": "" }), "Display name cannot be only invisible characters"),
        (json!({ "displayName": "Ada", "bio": "hi \u{202e}" }), "Bio cannot contain text-direction control characters"),
    ];
    for (body, message) in edits {
        let (status, answer) = put(&app, &ada, "/api/users/profile", Some(body.clone())).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{body}");
    }
    assert_eq!(stored(&app, ada.id).await.0, "Ada", "the profile is unchanged");

    // A right-to-left mark in a Hebrew post is fine.
    let hebrew = write(&app, &ada, "\u{5e9}\u{5dc}\u{5d5}\u{5dd}\u{200f}!").await;
    assert_eq!(hebrew["content"], "\u{5e9}\u{5dc}\u{5d5}\u{5dd}\u{200f}!");
}

async fn text_is_stored_nfc_normalized(app: TestApp) {
    let ada = app.member("ada").await;
    // "é" typed as e + a combining accent is stored as the one code point.
    let written = write(&app, &ada, "cafe\u{301} au lait").await;
    assert_eq!(written["content"], "caf\u{e9} au lait");
    let content: String = sqlx::query_scalar("SELECT content FROM posts WHERE id = $1")
        .bind(written["id"].as_i64().unwrap())
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(content, "caf\u{e9} au lait");

    let (status, poll) =
        post(&app, &ada, "/api/posts", json!({ "content": "Drink?", "pollOptions": ["The\u{301}", "Cafe\u{301}"] }))
            .await;
    assert_eq!(status, 201, "{poll}");
    assert_eq!(poll["pollOptions"], json!(["Th\u{e9}", "Caf\u{e9}"]), "{poll}");
    // A vote names its option either way.
    let bob = app.member("bob").await;
    let (status, voted) =
        post(&app, &bob, &format!("/api/posts/{}/vote", poll["id"]), json!({ "option": "The\u{301}" })).await;
    assert_eq!(status, 200, "{voted}");
    assert_eq!(voted["myVote"], "Th\u{e9}", "{voted}");
    // The same words typed two ways are one option.
    let (status, _) =
        post(&app, &ada, "/api/posts", json!({ "content": "Again?", "pollOptions": ["caf\u{e9}", "cafe\u{301}"] }))
            .await;
    assert_eq!(status, 400);

    let (status, me) = put(
        &app,
        &ada,
        "/api/users/profile",
        Some(json!({ "displayName": "Ada Zoe\u{308}", "bio": "Ma\u{308}dchen", "website": "" })),
    )
    .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!((&me["displayName"], &me["bio"]), (&json!("Ada Zo\u{eb}"), &json!("M\u{e4}dchen")));
    let (name, bio, name_key, _) = stored(&app, ada.id).await;
    assert_eq!((name.as_str(), bio.as_str()), ("Ada Zo\u{eb}", "M\u{e4}dchen"));
    // The key is the skeleton, decomposed.
    assert_eq!(name_key.as_deref(), Some("ada zoe\u{308}"), "the key of the stored name");
}

async fn a_display_name_that_looks_like_another_members_is_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    // Ada's username, in the ways it can be made to look.
    for name in
        ["ada", "Ada", "ADA", "\u{430}da", "\u{391}DA", "\u{ff21}\u{ff44}\u{ff41}", "A\u{200b}da", "Ad\u{3164}a"]
    {
        let (status, answer) = rename(&app, &bob, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
    // Ada's display name.
    let (status, answer) = rename(&app, &ada, "Ada Lovelace").await;
    assert_eq!(status, 200, "{answer}");
    for name in ["Ada Lovelace", "ada lovelace", "Ada  Lovelace", "Ada Lovelac\u{435}", "Ada L0velace"] {
        let (status, answer) = rename(&app, &bob, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
    assert_eq!(stored(&app, bob.id).await.0, "Bob", "Bob's name is unchanged");

    // Names that differ are fine, and so are one's own username and current name.
    for name in ["Ada Lovelace Fan", "Adam", "Bobby"] {
        let (status, answer) = rename(&app, &bob, name).await;
        assert_eq!(status, 200, "{name:?}: {answer}");
    }
    let (status, _) = rename(&app, &bob, "BOB").await;
    assert_eq!(status, 200, "Bob may look like himself");
    let (status, _) = rename(&app, &ada, "Ada Lovelace").await;
    assert_eq!(status, 200, "Ada keeps her name");
    // Ada gave up "Ada Lovelace": Bob may take it now.
    let (status, _) = rename(&app, &ada, "Countess").await;
    assert_eq!(status, 200);
    let (status, answer) = rename(&app, &bob, "Ada Lovelace").await;
    assert_eq!(status, 200, "{answer}");
}

async fn a_member_keeps_a_name_taken_before_the_rule(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let (status, _) = rename(&app, &ada, "Sam Lee").await;
    assert_eq!(status, 200);
    // Bob took the same name before the rule (an older version wrote it).
    sqlx::query("UPDATE users SET display_name = 'Sam Lee', name_skeleton = $1 WHERE id = $2")
        .bind(murmur::text::look_alike_key("Sam Lee"))
        .bind(bob.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let (status, answer) = put(
        &app,
        &bob,
        "/api/users/profile",
        Some(json!({ "displayName": "Sam Lee", "bio": "Still Sam", "website": "" })),
    )
    .await;
    assert_eq!(status, 200, "editing his bio keeps his name: {answer}");
    assert_eq!(answer["bio"], "Still Sam");
}

async fn a_new_member_whose_name_looks_taken_is_named_by_their_username(app: TestApp) {
    let (_, first) = sign_up(&app, "ada@one.example", &operator_code(&app).await).await;
    assert_eq!((&first["username"], &first["displayName"]), (&json!("ada"), &json!("Ada")));
    let (_, second) = sign_up(&app, "ADA@two.example", &operator_code(&app).await).await;
    assert_eq!((&second["username"], &second["displayName"]), (&json!("ada2"), &json!("ada2")), "{second}");
    let (_, third) = sign_up(&app, "ada.lovelace@three.example", &operator_code(&app).await).await;
    assert_eq!(third["displayName"], "Ada Lovelace", "{third}");
    // Their keys were stored with them: a rename to look like the second Ada is refused.
    let bob = app.member("bob").await;
    for name in ["ada2", "Ada Lovelace"] {
        let (status, answer) = rename(&app, &bob, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
}

async fn members_from_before_the_keys_get_them_at_the_next_start(app: TestApp) {
    let bob = app.member("bob").await;
    // Written as before migration 0012 (or by an older murmur): no keys.
    let old: i64 = sqlx::query_scalar(
        "INSERT INTO users (email, username, display_name, created_at, invites_month) \
         VALUES ('old@example.com', 'oldtimer', 'Grace HOPPER', 0, 0) RETURNING id",
    )
    .fetch_one(&app.state.db.write)
    .await
    .unwrap();
    let (status, _) = rename(&app, &bob, "Grace Hopper").await;
    assert_eq!(status, 200, "before the keys are filled nothing is known of the old member");
    let (status, _) = rename(&app, &bob, "Bob").await;
    assert_eq!(status, 200);

    app.state.db.migrate().await.unwrap();
    let (_, _, name_key, username_key) = stored(&app, old).await;
    assert_eq!(name_key.as_deref(), Some("grace hopper"));
    assert_eq!(username_key.as_deref(), Some("oldtirner"), "m reads as rn");
    for name in ["Grace Hopper", "oldtimer", "OLDTIMER"] {
        let (status, answer) = rename(&app, &bob, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
    // Filling again finds nothing to do and changes nothing.
    app.state.db.migrate().await.unwrap();
    assert_eq!(stored(&app, old).await.2.as_deref(), Some("grace hopper"));
    let (_, me) = get(&app, &bob, "/api/users/bob").await;
    assert_eq!(me["displayName"], "Bob");
}

async fn a_name_in_greek_or_cyrillic_capitals_looks_like_the_username_it_copies(app: TestApp) {
    app.member("bob").await;
    app.member("moddy").await;
    app.member("alice").await;
    let cyd = app.member("cyd").await;
    for name in [
        "\u{392}ob",
        "\u{412}\u{41e}\u{412}",
        "\u{39c}ODDY",
        "\u{39c}oddy",
        "\u{1d401}\u{1d428}\u{1d41b}",
        "\u{ff22}\u{ff2f}\u{ff22}",
        "\u{391}lice",
        "B\u{3bf}b",
    ] {
        let (status, answer) = rename(&app, &cyd, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
    assert_eq!(stored(&app, cyd.id).await.0, "Cyd", "Cyd's name is unchanged");
    // The other way round: a name taken first is met by the username it looks like.
    let (status, _) = rename(&app, &cyd, "\u{39c}ax").await;
    assert_eq!(status, 200);
    let dee = app.member("dee").await;
    let (status, answer) = rename(&app, &dee, "MAX").await;
    assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{answer}");
}

async fn a_name_held_after_a_rename_is_its_owners_to_take_back_and_nobodys_look_alike(app: TestApp) {
    let bob = app.member("bob").await;
    let eve = app.member("eve").await;
    let (status, body) = rename_to(&app, &bob, "Robert", "robert").await;
    assert_eq!(status, 200, "{body}");

    // While "bob" is held for Bob, nobody else is named like it.
    let (status, body) = rename_to(&app, &eve, "Eve", "b0b").await;
    assert_eq!((status, body["message"].as_str()), (400, Some(USERNAME_LOOKS_LIKE)), "{body}");
    for name in ["Bob", "B0B", "\u{392}ob"] {
        let (status, answer) = rename(&app, &eve, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(LOOKS_LIKE)), "{name:?}");
    }
    assert_eq!(stored(&app, eve.id).await.0, "Eve", "Eve's name is unchanged");

    // Bob may look like his old name, and take it back.
    let (status, body) = rename(&app, &bob, "B0B").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = rename_to(&app, &bob, "B0B", "bob").await;
    assert_eq!((status, &body["username"]), (200, &json!("bob")), "{body}");
}

async fn display_names_that_read_as_the_instance_or_its_staff_are_refused(app: TestApp) {
    let cyd = app.member("cyd").await;
    for name in
        ["Admin", "Moderator", "Murmur", "Murmur Team", "MURMUR team", "Adm1n", "The Moderators", "Murmur_Support"]
    {
        let (status, answer) = rename(&app, &cyd, name).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(RESERVED)), "{name:?}");
    }
    assert_eq!(stored(&app, cyd.id).await.0, "Cyd", "Cyd's name is unchanged");
    for name in ["Admiral Cyd", "Murmuring Brook", "Cyd, moderator"] {
        let (status, answer) = rename(&app, &cyd, name).await;
        assert_eq!(status, 200, "{name:?}: {answer}");
    }
    // Nor as a username, where it would be the fallback display name.
    let (status, answer) = rename_to(&app, &cyd, "Cyd", "murmur_team").await;
    assert_eq!((status, answer["message"].as_str()), (400, Some("That username is not available.")), "{answer}");

    // Through an app, in Mastodon's shape.
    let app_client = AppClient::new(&app, &token_for(&app, &cyd, "read write").await);
    let (status, answer) =
        app_client.patch_form("/api/v1/accounts/update_credentials", &[("display_name", "Adm1n")]).await;
    assert_eq!((status, answer["error"].as_str()), (422, Some(RESERVED)), "{answer}");

    // A newcomer whose address reads as staff is named by their username.
    let (_, newcomer) = sign_up(&app, "murmur.team@example.org", &operator_code(&app).await).await;
    assert_eq!((&newcomer["username"], &newcomer["displayName"]), (&json!("murmur_team2"), &json!("murmur_team2")));

    // A member who took such a name before the rule keeps it through other edits.
    sqlx::query("UPDATE users SET display_name = 'Admin', name_skeleton = $1 WHERE id = $2")
        .bind(murmur::text::look_alike_key("Admin"))
        .bind(cyd.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let (status, answer) =
        put(&app, &cyd, "/api/users/profile", Some(json!({ "displayName": "Admin", "bio": "Still me" }))).await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = app_client.patch_form("/api/v1/accounts/update_credentials", &[("note", "Me again")]).await;
    assert_eq!(status, 200, "{answer}");
}

/// A report of `post` with `comment`, by `who`.
async fn report_with(app: &TestApp, who: &Member, post: i64, comment: &str) -> (u16, Value) {
    crate::posts::post(app, who, "/api/reports", json!({ "postId": post, "reason": "other", "comment": comment })).await
}

async fn control_characters_are_refused_in_every_field_naming_it(app: TestApp) {
    let ada = app.member("ada").await;
    const ONE_LINE: &str = "cannot contain line breaks or other control characters";
    const MULTI_LINE: &str = "cannot contain control characters other than line breaks and tabs";
    let edits = [
        (json!({ "displayName": "Ada\nLovelace", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "Ada\r\nLovelace", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "Ada\tLovelace", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "Ada\u{7}", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "A\u{7f}da", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "A\u{85}da", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "A\u{9b}31mda", "bio": "" }), format!("Display name {ONE_LINE}")),
        (json!({ "displayName": "Ada", "bio": "hi \u{1b}[2J" }), format!("Bio {MULTI_LINE}")),
        (json!({ "displayName": "Ada", "bio": "hi\rthere" }), format!("Bio {MULTI_LINE}")),
        (
            json!({ "displayName": "Ada", "bio": "", "website": "https://ada.example/a\tb" }),
            format!("Website {ONE_LINE}"),
        ),
    ];
    for (body, message) in edits {
        let (status, answer) = put(&app, &ada, "/api/users/profile", Some(body.clone())).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message.as_str())), "{body}");
    }
    assert_eq!(stored(&app, ada.id).await.0, "Ada", "the profile is unchanged");

    let posts = [
        (json!({ "content": "ding\u{7}" }), format!("A post {MULTI_LINE}")),
        (json!({ "content": "\u{1b}[31mred" }), format!("A post {MULTI_LINE}")),
        (json!({ "content": "Tea?", "pollOptions": ["y\nes", "no"] }), format!("A poll option {ONE_LINE}")),
        (json!({ "content": "Tea?", "pollOptions": ["yes", "n\to"] }), format!("A poll option {ONE_LINE}")),
    ];
    for (body, message) in posts {
        let (status, answer) = post(&app, &ada, "/api/posts", body.clone()).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message.as_str())), "{body}");
    }
    let url = uploaded(&app, &ada, png(4, 4)).await;
    let (status, answer) =
        post(&app, &ada, "/api/posts", json!({ "content": "A picture", "images": [{ "url": url, "alt": "a\u{8}b" }] }))
            .await;
    assert_eq!(
        (status, answer["message"].as_str()),
        (400, Some(format!("An image description {MULTI_LINE}").as_str()))
    );
    assert_eq!(posts_of(&app, &ada).await, 0, "no post was written");

    // Text on several lines keeps its line breaks and tabs; CR LF is stored as LF.
    let (status, me) = put(
        &app,
        &ada,
        "/api/users/profile",
        Some(json!({ "displayName": "Ada", "bio": "Counts things.\r\nLikes\tlooms.", "website": "" })),
    )
    .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(stored(&app, ada.id).await.1, "Counts things.\nLikes\tlooms.");
    let written = write(&app, &ada, "line one\r\nline two\n\tindented").await;
    assert_eq!(written["content"], "line one\nline two\n\tindented");

    // A report's comment and a moderator's reason, on the same rule.
    let bob = app.member("bob").await;
    let (status, answer) = report_with(&app, &bob, id_of(&written), "look\u{1b}[2J").await;
    assert_eq!((status, answer["message"].as_str()), (400, Some(format!("A comment {MULTI_LINE}").as_str())));
    let moderator = app.member("moddy").await;
    make_moderator(&app, &moderator).await;
    let (status, answer) = post(
        &app,
        &moderator,
        &format!("/api/moderation/posts/{}/remove", id_of(&written)),
        json!({ "reason": "spam\u{0}" }),
    )
    .await;
    assert_eq!((status, answer["message"].as_str()), (400, Some(format!("A reason {MULTI_LINE}").as_str())));
}

async fn report_comments_and_moderators_reasons_follow_the_member_text_rules(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let moderator = app.member("moddy").await;
    make_moderator(&app, &moderator).await;
    let written = write(&app, &ada, "a post to report").await;
    let post_id = id_of(&written);

    let comments = [
        ("invoice\u{202e}fdp.exe", "A comment cannot contain text-direction control characters"),
        ("\u{2067}look", "A comment cannot contain text-direction control characters"),
        ("\u{200b}\u{3164}", "A comment cannot be only invisible characters"),
        ("\u{2800}\u{fe0f}", "A comment cannot be only invisible characters"),
    ];
    for (comment, message) in comments {
        let (status, answer) = report_with(&app, &bob, post_id, comment).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{comment:?}");
    }
    let reports: i64 =
        sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM reports").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(reports, 0, "no report was written");
    let (status, answer) = report_with(&app, &bob, post_id, "cafe\u{301} spam").await;
    assert_eq!(status, 201, "{answer}");
    let comment: String =
        sqlx::query_scalar("SELECT comment FROM reports").fetch_one(&app.state.db.read).await.unwrap();
    assert_eq!(comment, "caf\u{e9} spam", "stored NFC");

    let remove = format!("/api/moderation/posts/{post_id}/remove");
    let reasons = [
        ("rule\u{202e}3", "A reason cannot contain text-direction control characters"),
        ("\u{2066}spam\u{2069}", "A reason cannot contain text-direction control characters"),
        ("\u{200b}", "A reason cannot be only invisible characters"),
        ("\u{3164}\u{115f}", "A reason cannot be only invisible characters"),
    ];
    for (reason, message) in reasons {
        let (status, answer) = post(&app, &moderator, &remove, json!({ "reason": reason })).await;
        assert_eq!((status, answer["message"].as_str()), (400, Some(message)), "{reason:?}");
    }
    let (_, thread) = get(&app, &bob, &format!("/api/posts/{post_id}/thread")).await;
    assert_eq!(thread["post"]["content"], "a post to report", "the post is still there");
    let (status, answer) = post(&app, &moderator, &remove, json!({ "reason": "Spam, per rule\u{a0}3" })).await;
    assert_eq!(status, 200, "{answer}");
}

fn id_of(post: &Value) -> i64 {
    post["id"].as_i64().unwrap()
}

both_databases!(
    a_name_held_after_a_rename_is_its_owners_to_take_back_and_nobodys_look_alike,
    display_names_that_read_as_the_instance_or_its_staff_are_refused,
    a_name_in_greek_or_cyrillic_capitals_looks_like_the_username_it_copies,
    control_characters_are_refused_in_every_field_naming_it,
    report_comments_and_moderators_reasons_follow_the_member_text_rules,
    direction_controls_and_invisible_text_are_refused_with_a_message,
    text_is_stored_nfc_normalized,
    a_display_name_that_looks_like_another_members_is_refused,
    a_member_keeps_a_name_taken_before_the_rule,
    a_new_member_whose_name_looks_taken_is_named_by_their_username,
    members_from_before_the_keys_get_them_at_the_next_start,
);
