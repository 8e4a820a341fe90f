//! The web app's document: what it carries for the first screen (crates/server/src/web). Each test is
//! skipped when the web app is not built (`npm --prefix web run build`), as the server then
//! answers 503 for every page.

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{TestApp, client_for};
use crate::fixtures::png;
use crate::media::uploaded;
use crate::posts::{follow, get, id, post, post_empty, put, write};

const BLOCK_START: &str = r#"<script type="application/json" id="murmur-first-screen">"#;

/// The document at `path` as `client` gets it, or None when the web app is not built.
async fn document(app: &TestApp, client: &reqwest::Client, path: &str) -> Option<(reqwest::header::HeaderMap, String)> {
    let response = client.get(app.url(path)).send().await.unwrap();
    if response.status() == 503 {
        let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/dist/index.html").exists();
        assert!(!built, "web/dist is built, yet the server answers that it is not: murmur-server's Assets folder");
        eprintln!("skipped: the web app is not built (npm --prefix web run build)");
        return None;
    }
    assert_eq!(response.status(), 200, "{path}");
    let headers = response.headers().clone();
    Some((headers, response.text().await.unwrap()))
}

/// The text of the first screen's data block; panics if there is none or more than one.
fn raw_block(html: &str) -> &str {
    assert_eq!(html.matches(BLOCK_START).count(), 1, "one data block: {html}");
    let start = html.find(BLOCK_START).unwrap() + BLOCK_START.len();
    let end = start + html[start..].find("</script>").expect("the block is closed");
    let head_end = html.find("</head>").expect("a head");
    assert!(end < head_end, "the block is in the head");
    &html[start..end]
}

/// The first screen's data block, parsed.
fn first_screen(html: &str) -> Value {
    serde_json::from_str(raw_block(html)).expect("the block is JSON")
}

async fn a_visitors_document_says_nobody_is_asking(app: TestApp) {
    let Some((headers, html)) = document(&app, &app.client, "/").await else { return };
    assert_eq!(first_screen(&html), json!({ "me": null }));
    assert!(!html.contains("member-routes"), "a visitor is not sent the member screens");
    assert!(
        html.contains(r#"<link rel="modulepreload" crossorigin href="/assets/landing-"#),
        "a visitor's document preloads the landing page: {html}"
    );
    assert!(html.contains("<div id=\"root\">"));
    assert!(!html.contains(PREPAINT), "a visitor gets no picture of the member shell");
    // The theme is set by a script in the document, which the policy allows by its hash alone.
    assert!(!html.contains(r#"src="/theme-init.js""#), "{html}");
    let start = html.find("<script>").expect("the inline theme script") + "<script>".len();
    let code = &html[start..start + html[start..].find("</script>").unwrap()];
    assert!(code.contains("vite-ui-theme"), "{code}");
    let hash = {
        use base64::Engine as _;
        use sha2::Digest as _;
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(code.as_bytes()))
    };
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains(&format!("script-src 'self' 'sha256-{hash}';")), "{csp}");
    assert!(!csp.contains("unsafe-inline'; style-src") && html.matches("<script>").count() == 1, "{csp}");
    // Documents depend on who asks: no shared cache may keep one.
    assert_eq!(headers["cache-control"], "private, no-cache");
    assert_eq!(headers["vary"], "Cookie");

    // A cookie that names no live session is a visitor too.
    let stranger = client_for(&app.base, Some("murmur_session=not-a-session"));
    let (_, html) = document(&app, &stranger, "/discover").await.unwrap();
    assert_eq!(first_screen(&html), json!({ "me": null }));
}

async fn a_members_home_carries_who_is_asking_and_the_first_friends_page(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    for n in 0..22 {
        write(&app, &bob, &format!("post {n}")).await;
    }
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    let screen = first_screen(&html);

    let (_, me) = get(&app, &ada, "/api/auth/me").await;
    assert_eq!(screen["me"], me);
    // Exactly the page the app would ask for: the same posts, the same fields.
    let (_, page) = get(&app, &ada, "/api/posts/feed?limit=20&offset=0").await;
    assert_eq!(screen["feed"], page);
    assert_eq!(screen["feed"].as_array().unwrap().len(), 20);
    // The member shell's and Home's chunks are preloaded with the document.
    // (at low priority: see below).
    assert!(
        html.contains(r#"<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/member-routes-"#),
        "{html}"
    );
    assert!(
        html.contains(r#"<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/home-"#),
        "{html}"
    );
    assert!(!html.contains("/assets/landing-"), "a member is not sent the landing page: {html}");
    // The picture of the shell, before the app's root, with Home as the current page, and
    // Home's first four posts drawn in it.
    let shell = prepaint(&html);
    // Home and nothing else, once in the sidebar and once in the bottom bar.
    assert_eq!(shell.matches(r#"aria-current="page""#).count(), 2, "{shell}");
    assert_eq!(shell.matches(r#"<a aria-current="page" href="/" "#).count(), 2, "{shell}");
    assert!(!shell.contains("@ada"), "nothing of the member is in it: {shell}");
    assert_eq!(shell.matches("<article ").count(), 4, "{shell}");
    assert!(shell.contains(">post 21</p>") && shell.contains(">post 18</p>"), "{shell}");
    assert!(!shell.contains("Loading..."), "{shell}");
    // With the posts drawn, the scripts are fetched after what the picture shows.
    assert!(html.contains(r#"<script type="module" fetchpriority="low" crossorigin src="/assets/index-"#), "{html}");
    assert!(!html.contains(r#"<link rel="modulepreload" crossorigin"#), "every script is low: {html}");

    // Another page: who is asking, but not Home's posts or chunk.
    let (_, html) = document(&app, &ada.client, "/discover").await.unwrap();
    let screen = first_screen(&html);
    assert_eq!(screen["me"]["username"], "ada");
    assert!(screen.get("feed").is_none(), "{screen}");
    assert!(html.contains("/assets/member-routes-"));
    assert!(!html.contains("/assets/home-"));
    // The same shell, with no menu item as the current page, and what the screen shows while
    // its scripts are on their way.
    let shell = prepaint(&html);
    assert!(!shell.contains("aria-current"), "{html}");
    assert!(shell.contains("Loading...") && !shell.contains("<article"), "{shell}");
    // The scripts draw this screen: they come first.
    assert!(!html.contains("fetchpriority=\"low\""), "{html}");
}

async fn a_newcomers_home_is_the_first_run_step_not_the_feed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    write(&app, &bob, "Welcome to the network").await;
    // Sign-up leaves the first-run step to do (members from `app.member` have done it).
    sqlx::query("UPDATE users SET first_run_done = 0 WHERE id = $1")
        .bind(ada.id)
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    let screen = first_screen(&html);
    assert_eq!(screen["me"]["firstRunDone"], false, "{screen}");
    assert!(screen.get("feed").is_none(), "the step takes the feed's place: {screen}");
    let shell = prepaint(&html);
    assert!(shell.contains("Loading...") && !shell.contains("<article"), "{shell}");
    assert!(html.contains("/assets/home-"), "Home's chunk draws the step: {html}");

    // Once the step is done, Home is the feed again.
    let (status, _) = post_empty(&app, &ada, "/api/users/first-run").await;
    assert_eq!(status, 204);
    let (_, html) = document(&app, &ada.client, "/").await.unwrap();
    assert_eq!(first_screen(&html)["feed"].as_array().map(Vec::len), Some(1));
    assert_eq!(prepaint(&html).matches("<article ").count(), 1);
}

const PREPAINT: &str = r#"<div id="murmur-prepaint""#;

/// The picture of the member shell a member's document starts with: static, inert, nothing of
/// the member in it, right before the app's root.
fn prepaint(html: &str) -> &str {
    assert_eq!(html.matches(PREPAINT).count(), 1, "one picture of the shell: {html}");
    let start = html.find(PREPAINT).unwrap();
    let end = html.find(r#"<div id="root">"#).expect("the app's root");
    assert!(start < end, "the picture comes before the app's root");
    let shell = &html[start..end];
    let tag_end = shell.find('>').unwrap();
    assert!(shell[..tag_end].contains(" inert"), "nothing in it can be focused: {shell}");
    assert!(shell.contains(r#"<main id="main""#), "{shell}");
    assert!(!shell.contains("<script"), "{shell}");
    shell
}

async fn text_a_member_wrote_cannot_leave_the_data_block(app: TestApp) {
    let ada = app.member("ada").await;
    let hostile = "</script><script>alert(1)</script><!-- & </head> ]]>";
    write(&app, &ada, hostile).await;
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    assert!(!html.contains("<script>alert"), "{html}");
    let raw = raw_block(&html);
    assert!(!raw.contains(['<', '>', '&']), "markup characters are escaped: {raw}");
    let screen = first_screen(&html);
    assert_eq!(screen["feed"][0]["content"], hostile, "the text is kept as written");
}

/// The cards in Home's picture (crates/server/src/web/cards.rs): how many, in the feed's order.
fn pictured(html: &str) -> Vec<&str> {
    let shell = prepaint(html);
    shell.split("<article ").skip(1).map(|card| &card[..card.find("</article>").expect("a closed card")]).collect()
}

async fn home_draws_its_first_posts_with_what_members_wrote_as_text(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let hostile = r#"<img src=x onerror="alert(1)"> & 'quotes'"#;
    let (status, body) = put(&app, &bob, "/api/users/profile", Some(json!({ "displayName": hostile }))).await;
    assert_eq!(status, 200, "{body}");
    write(&app, &bob, "</div></main><script>alert(2)</script> hi @ada, mail ada@example.com").await;
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    let cards = pictured(&html);
    assert_eq!(cards.len(), 1, "{html}");
    let card = cards[0];
    assert!(!card.contains("<img src=x") && !card.contains("<script>") && !card.contains("</main>"), "{card}");
    assert!(card.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39;"), "{card}");
    assert!(card.contains("&lt;/div&gt;&lt;/main&gt;&lt;script&gt;alert(2)&lt;/script&gt; hi "), "{card}");
    assert!(
        card.contains(
            r#"<a href="/profile/ada" class="font-medium text-primary hover:underline">@ada</a>, mail ada@example.com"#
        ),
        "{card}"
    );
    assert!(card.contains(r#"<span class="truncate text-muted-foreground">@bob</span>"#), "{card}");
    assert!(card.contains(">just now</time>"), "{card}");
}

async fn home_draws_posts_up_to_the_first_with_a_poll(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    write(&app, &bob, "before the poll").await;
    let (status, body) =
        post(&app, &bob, "/api/posts", json!({ "content": "Tea?", "pollOptions": ["Yes", "No"] })).await;
    assert_eq!(status, 201, "{body}");
    // The newest is a poll: the app draws it; the picture says the screen is loading.
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    assert!(pictured(&html).is_empty(), "{html}");
    assert!(prepaint(&html).contains("Loading..."), "{html}");
    assert!(!html.contains("fetchpriority=\"low\""), "the scripts draw the first screen: {html}");
    // One post above it: that one is drawn, and the drawing stops there.
    write(&app, &bob, "after the poll").await;
    let (_, html) = document(&app, &ada.client, "/").await.unwrap();
    let cards = pictured(&html);
    assert_eq!(cards.len(), 1, "{html}");
    assert!(cards[0].contains(">after the poll</p>"), "{html}");
}

async fn home_preloads_its_first_image(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    follow(&app, &ada, &bob).await;
    let image = uploaded(&app, &bob, png(800, 600)).await;
    let (status, with_image) =
        post(&app, &bob, "/api/posts", json!({ "content": "A picture", "imageUrls": [image] })).await;
    assert_eq!(status, 201, "{with_image}");
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    let object = with_image["imageUrls"][0].as_str().unwrap();
    // The `<img>`'s own src, srcset and sizes (post-images.tsx), or the browser fetches twice.
    let preload = format!(
        r#"<link rel="preload" as="image" href="{object}/640" imagesrcset="{object}/320 320w, {object}/640 640w, {object}/1280 1280w" imagesizes="(min-width: 1024px) 586px, calc(100vw - 86px)" fetchpriority="high">"#
    );
    assert!(html.contains(&preload), "{html}");

    // Not when the first posts have no image.
    write(&app, &bob, "words only").await;
    write(&app, &bob, "more words").await;
    let (_, html) = document(&app, &ada.client, "/").await.unwrap();
    assert!(!html.contains(r#"as="image""#), "{html}");
    assert_eq!(id(&first_screen(&html)["feed"][2]), id(&with_image));
}

async fn the_document_is_served_while_the_database_is_not(app: TestApp) {
    let ada = app.member("ada").await;
    app.state.db.close().await;
    let Some((_, html)) = document(&app, &ada.client, "/").await else { return };
    // Without its first screen: the app asks for itself (and shows what it is told).
    assert!(!html.contains(BLOCK_START));
    assert!(html.contains("<div id=\"root\">"));
}

async fn the_service_worker_is_served_from_the_root_as_javascript_always_revalidated(app: TestApp) {
    // Skipped, as the documents are, when the web app is not built.
    if document(&app, &app.client, "/").await.is_none() {
        return;
    }
    let response = app.client.get(app.url("/sw.js")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    let code = response.text().await.unwrap();
    assert!(code.contains("notificationclick") && code.contains("showNotification"), "{code}");
    // A classic script: a worker registered without `type: "module"` cannot run an import.
    assert!(!code.contains("import ") && !code.contains("export "), "{code}");
    // The build's other scripts are still JavaScript, and still kept for a year.
    let (_, html) = document(&app, &app.client, "/").await.unwrap();
    let start = html.find(r#"src="/assets/index-"#).expect("the entry script") + r#"src=""#.len();
    let entry = &html[start..start + html[start..].find('"').unwrap()];
    let response = app.client.get(app.url(entry)).send().await.unwrap();
    assert_eq!(response.headers()["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(response.headers()["cache-control"], "public, max-age=31536000, immutable");
}

/// Without pages of the operator's, `/terms` and `/privacy` are the web app's plain defaults.
async fn terms_and_privacy_are_murmurs_default_pages(app: TestApp) {
    for path in ["/terms", "/privacy"] {
        let Some((headers, _)) = document(&app, &app.client, path).await else { return };
        assert_eq!(headers["content-type"], "text/html; charset=utf-8", "{path}");
    }
}

/// `--terms-url` and `--privacy-url`: the operator's own pages.
async fn terms_and_privacy_lead_to_the_operators_pages(app: TestApp) {
    for (path, page) in [("/terms", "https://example.org/terms"), ("/privacy", "https://example.org/privacy")] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 303, "{path}");
        assert_eq!(response.headers()["location"], page, "{path}");
    }
}

both_databases!(
    the_service_worker_is_served_from_the_root_as_javascript_always_revalidated,
    a_visitors_document_says_nobody_is_asking,
    a_members_home_carries_who_is_asking_and_the_first_friends_page,
    text_a_member_wrote_cannot_leave_the_data_block,
    home_draws_its_first_posts_with_what_members_wrote_as_text,
    home_draws_posts_up_to_the_first_with_a_poll,
    home_preloads_its_first_image,
    the_document_is_served_while_the_database_is_not,
    a_newcomers_home_is_the_first_run_step_not_the_feed,
    terms_and_privacy_are_murmurs_default_pages,
);

crate::both_databases_with!(terms_and_privacy_lead_to_the_operators_pages, |c: &mut murmur::Config| {
    c.legal.terms = Some("https://example.org/terms".parse().unwrap());
    c.legal.privacy = Some("https://example.org/privacy".parse().unwrap());
});
