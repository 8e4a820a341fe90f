//! Link preview cards (docs/discovery.md, "Link preview cards"): the first link of a post gets a
//! card read in the background from the linked page, through the outbound guard. A local site
//! in the test serves the pages: OpenGraph tags and an image, a title alone, redirects, a huge
//! body, a slow answer, JSON, and redirects to private addresses, which the guard refuses (the
//! tests allow only the site's own address, 127.0.0.1, as an operator would with
//! `--outbound-allow`).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::common::{Member, TestApp};
use crate::mastodon::{AppClient, token_for};
use crate::posts::{delete, get, id, repost, seen_by, write};
use crate::{both_databases_with, fixtures};

/// The local site: what it serves at each path, and which paths it was asked for.
struct Site {
    addr: SocketAddr,
    hits: Arc<Mutex<Vec<String>>>,
}

impl Site {
    /// Listens on every loopback address (so 127.0.0.2 would reach it too: the guard, not the
    /// network, must be what refuses that).
    async fn start() -> Site {
        let listener = TcpListener::bind("0.0.0.0:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let seen = hits.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(answer(stream, port, seen.clone()));
            }
        });
        Site { addr, hits }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn hits(&self, path: &str) -> usize {
        self.hits.lock().unwrap().iter().filter(|p| *p == path).count()
    }
}

const ARTICLE: &str = r#"<!doctype html><html><head>
<title>Plain title</title>
<meta property="og:title" content="The Analytical Engine">
<meta property="og:description" content="Notes on a machine that weaves algebraic patterns.">
<meta property="og:site_name" content="Engines Weekly">
<meta property="og:image" content="/cover.png">
</head><body><p>Text</p></body></html>"#;

async fn answer(mut stream: TcpStream, port: u16, hits: Arc<Mutex<Vec<String>>>) {
    let mut request = Vec::new();
    let mut buffer = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 16 * 1024 {
        match stream.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
    }
    let request = String::from_utf8_lossy(&request).to_string();
    let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
    hits.lock().unwrap().push(path.clone());
    let html = "text/html; charset=utf-8";
    let (status, content_type, body): (&str, &str, Vec<u8>) = match path.as_str() {
        "/article" | "/article-again" | "/article-removed" => ("200 OK", html, ARTICLE.into()),
        "/cover.png" => ("200 OK", "image/png", fixtures::png(120, 63)),
        "/plain" => ("200 OK", html, b"<html><head><title>Only a title</title></head></html>".to_vec()),
        "/not-an-image" => (
            "200 OK",
            html,
            b"<meta property=og:title content='Broken image'><meta property=og:image content='/article'>".to_vec(),
        ),
        "/json" => ("200 OK", "application/json", br#"{"title": "<title>Not a page</title>"}"#.to_vec()),
        "/missing" => ("404 Not Found", html, b"<title>Not found</title>".to_vec()),
        "/huge" => {
            let mut body = b"<html><head><meta property=og:title content='A very long page'></head><body>".to_vec();
            body.resize(3 * 1024 * 1024, b'x');
            ("200 OK", html, body)
        }
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            ("200 OK", html, b"<title>Too late</title>".to_vec())
        }
        hop if hop.starts_with("/hop/") => {
            let left: u32 = hop["/hop/".len()..].parse().unwrap();
            let next = if left <= 1 { "/plain".to_string() } else { format!("/hop/{}", left - 1) };
            return redirect(&mut stream, &next).await;
        }
        "/to-private" => return redirect(&mut stream, &format!("http://127.0.0.2:{port}/private")).await,
        "/to-metadata" => return redirect(&mut stream, "http://169.254.169.254/latest/meta-data/").await,
        "/to-network" => return redirect(&mut stream, &format!("http://10.0.0.1:{port}/private")).await,
        _ => ("404 Not Found", "text/plain", b"no".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    // A reader that stopped early (the huge page) closes the connection: that is fine.
    let _ = stream.write_all(&body).await;
}

async fn redirect(stream: &mut TcpStream, to: &str) {
    let head = format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    let _ = stream.write_all(head.as_bytes()).await;
}

/// The site's address allowed, fetches at once, and a timeout shorter than the slow page's wait
/// yet long enough for the huge page on a busy machine.
pub(crate) fn fast(config: &mut murmur::Config) {
    config.outbound_allow = murmur::config::AddressRanges::parse("127.0.0.1").unwrap();
    config.link_previews.delay_max = Duration::from_millis(100);
    config.link_previews.timeout = Duration::from_secs(6);
}

/// Waits until the card of `url` was fetched (whether it found a card or not).
async fn fetched(app: &TestApp, url: &str) {
    for _ in 0..300 {
        let at: Option<Option<i64>> = sqlx::query_scalar("SELECT fetched_at FROM link_cards WHERE url = $1")
            .bind(url)
            .fetch_optional(&app.state.db.read)
            .await
            .unwrap();
        if at.flatten().is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the card of {url} was never fetched");
}

/// `who`'s post `content`, once its link's card was fetched, as `who` sees it. (Its own answer
/// may already carry the card: a fast page's fetch can finish first on a busy machine.)
async fn written_and_fetched(app: &TestApp, who: &Member, url: &str) -> Value {
    let written = write(app, who, &format!("Read this: {url} (and more)")).await;
    fetched(app, url).await;
    seen_by(app, who, id(&written)).await
}

async fn a_pages_opengraph_tags_make_the_posts_card_with_its_image(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;

    let post = written_and_fetched(&app, &ada, &site.url("/article")).await;

    let card = &post["card"];
    assert_eq!(card["url"], site.url("/article"), "{post}");
    assert_eq!(card["title"], "The Analytical Engine");
    assert_eq!(card["description"], "Notes on a machine that weaves algebraic patterns.");
    assert_eq!(card["siteName"], "Engines Weekly");
    let image = card["imageUrl"].as_str().unwrap_or_else(|| panic!("an image: {card}"));
    assert!(image.starts_with("/objects/"), "{image}");
    // The image is served like an upload: checked, re-encoded, an image type.
    let served = ada.client.get(app.url(image)).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert!(served.headers()["content-type"].to_str().unwrap().starts_with("image/"));
    // Every reader sees it, and a repost carries it on its original.
    assert_eq!(seen_by(&app, &bob, id(&post)).await["card"], *card);
    let shared = repost(&app, &bob, id(&post)).await;
    assert_eq!((&shared["card"], &shared["repostOf"]["card"]), (&Value::Null, card), "{shared}");
    let (_, adas) = get(&app, &bob, "/api/users/ada/posts").await;
    assert_eq!(adas[0]["card"], *card, "{adas}");
}

async fn a_title_alone_makes_a_card_and_three_redirects_are_followed_but_not_four(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;

    let plain = written_and_fetched(&app, &ada, &site.url("/plain")).await;
    assert_eq!(
        plain["card"],
        json!({ "url": site.url("/plain"), "title": "Only a title", "description": null, "siteName": null, "imageUrl": null })
    );
    let three = written_and_fetched(&app, &ada, &site.url("/hop/3")).await;
    assert_eq!(three["card"]["title"], "Only a title", "{three}");
    assert_eq!(three["card"]["url"], site.url("/hop/3"), "the card leads where the post does");
    let four = written_and_fetched(&app, &ada, &site.url("/hop/4")).await;
    assert_eq!(four["card"], Value::Null, "{four}");
    assert_eq!(
        site.hits("/plain"),
        2,
        "the fourth redirect was not followed (only the post of /plain and the three hops reached it)"
    );
}

async fn a_huge_page_is_read_up_to_a_megabyte_and_its_head_makes_the_card(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;

    let huge = written_and_fetched(&app, &ada, &site.url("/huge")).await;

    assert_eq!(huge["card"]["title"], "A very long page", "{huge}");
}

async fn a_slow_page_json_a_missing_page_and_a_broken_image_make_no_card_or_no_image(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;

    let started = std::time::Instant::now();
    // The page takes 30 s to answer and the post is answered at once: the card is fetched after
    // the post, never on its path.
    let written = write(&app, &ada, &format!("Read this: {} (and more)", site.url("/slow"))).await;
    assert_eq!(written["card"], Value::Null, "{written}");
    assert!(started.elapsed() < Duration::from_secs(5), "the post waited for its link's page");
    fetched(&app, &site.url("/slow")).await;
    let slow = seen_by(&app, &ada, id(&written)).await;
    assert_eq!(slow["card"], Value::Null, "{slow}");
    assert!(started.elapsed() < Duration::from_secs(20), "the fetch gave up at its timeout");
    for path in ["/json", "/missing"] {
        let post = written_and_fetched(&app, &ada, &site.url(path)).await;
        assert_eq!(post["card"], Value::Null, "{path}: {post}");
    }
    // An image that is not one fails the image checks: the card stays, without it.
    let broken = written_and_fetched(&app, &ada, &site.url("/not-an-image")).await;
    assert_eq!((&broken["card"]["title"], &broken["card"]["imageUrl"]), (&json!("Broken image"), &Value::Null));
}

async fn a_redirect_to_a_private_address_is_refused(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;

    for path in ["/to-private", "/to-metadata", "/to-network"] {
        let post = written_and_fetched(&app, &ada, &site.url(path)).await;
        assert_eq!(post["card"], Value::Null, "{path}: {post}");
    }
    assert_eq!(site.hits("/private"), 0, "127.0.0.2 was never asked, though the site listens there");
}

async fn posts_with_one_link_share_one_fetch_until_it_is_fourteen_days_old(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let url = site.url("/article");

    let first = write(&app, &ada, &format!("First {url}")).await;
    let second = write(&app, &bob, &format!("Second {url}")).await;
    fetched(&app, &url).await;

    let (a, b) = (seen_by(&app, &ada, id(&first)).await, seen_by(&app, &bob, id(&second)).await);
    assert_eq!(a["card"]["title"], "The Analytical Engine", "{a}");
    assert_eq!(a["card"], b["card"], "one card, shared");
    let third = write(&app, &bob, &format!("Third {url}")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(seen_by(&app, &bob, id(&third)).await["card"], a["card"]);
    assert_eq!((site.hits("/article"), site.hits("/cover.png")), (1, 1), "one fetch for every post");

    // Fourteen days on, the next post with the link asks for a new one.
    sqlx::query("UPDATE link_cards SET fetched_at = fetched_at - 15 * 86400000")
        .execute(&app.state.db.write)
        .await
        .unwrap();
    write(&app, &ada, &format!("Again {url}")).await;
    for _ in 0..100 {
        if site.hits("/article") == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(site.hits("/article"), 2, "refreshed");
}

async fn the_author_removes_the_card_for_good_and_nobody_else_can(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let url = site.url("/article-removed");
    let post = written_and_fetched(&app, &ada, &url).await;
    assert!(post["card"].is_object(), "{post}");
    let path = format!("/api/posts/{}/card", id(&post));

    let (status, body) = delete(&app, &bob, &path).await;
    assert_eq!(status, 403, "{body}");
    assert!(body["message"].as_str().unwrap().contains("your own posts"), "{body}");
    assert!(seen_by(&app, &bob, id(&post)).await["card"].is_object(), "still there");
    let (status, _) = app.client.delete(app.url(&path)).send().await.map(|r| (r.status().as_u16(), ())).unwrap();
    assert_eq!(status, 401, "a visitor");
    let (status, body) = delete(&app, &ada, "/api/posts/999999/card").await;
    assert_eq!(status, 404, "{body}");

    let (status, removed) = delete(&app, &ada, &path).await;
    assert_eq!((status, &removed["card"]), (200, &Value::Null), "{removed}");
    let (status, again) = delete(&app, &ada, &path).await;
    assert_eq!((status, &again["card"]), (200, &Value::Null), "twice changes nothing");
    assert_eq!(seen_by(&app, &bob, id(&post)).await["card"], Value::Null);

    // A refresh of the card (a later post with the link) does not bring it back.
    sqlx::query("UPDATE link_cards SET fetched_at = fetched_at - 15 * 86400000")
        .execute(&app.state.db.write)
        .await
        .unwrap();
    let later = write(&app, &bob, &format!("Also {url}")).await;
    for _ in 0..100 {
        if seen_by(&app, &bob, id(&later)).await["card"].is_object() && site.hits("/article-removed") == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(seen_by(&app, &bob, id(&later)).await["card"].is_object(), "the other post has it");
    assert_eq!(seen_by(&app, &ada, id(&post)).await["card"], Value::Null, "still removed");
}

async fn a_post_hidden_from_the_reader_or_deleted_shows_no_card(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let post = written_and_fetched(&app, &ada, &site.url("/article")).await;
    assert!(seen_by(&app, &bob, id(&post)).await["card"].is_object());

    let (status, body) = crate::posts::post(&app, &ada, "/api/blocks", json!({ "userId": bob.id })).await;
    assert!(status < 300, "{body}");
    let hidden = seen_by(&app, &bob, id(&post)).await;
    assert_eq!((&hidden["isUnavailable"], &hidden["card"]), (&json!(true), &Value::Null), "{hidden}");

    let (status, _) = delete(&app, &ada, &format!("/api/posts/{}", id(&post))).await;
    assert!(status < 300);
    let (_, thread) = get(&app, &ada, &format!("/api/posts/{}/thread", id(&post))).await;
    assert_eq!(thread["post"]["card"], Value::Null, "{thread}");
}

async fn apps_read_the_card_as_mastodons_preview_card(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let post = written_and_fetched(&app, &ada, &site.url("/article")).await;
    let client = AppClient::new(&app, &token_for(&app, &ada, "read").await);

    let (status, status_json) = client.get(&format!("/api/v1/statuses/{}", id(&post))).await;
    assert_eq!(status, 200, "{status_json}");
    let card = &status_json["card"];
    assert_eq!(card["type"], "link");
    assert_eq!(card["url"], site.url("/article"));
    assert_eq!(card["title"], "The Analytical Engine");
    assert_eq!(card["provider_name"], "Engines Weekly");
    assert!(card["image"].as_str().unwrap().starts_with(&format!("{}/objects/", app.base)), "{card}");
    let (status, alone) = client.get(&format!("/api/v1/statuses/{}/card", id(&post))).await;
    assert_eq!((status, &alone), (200, card));
}

async fn no_card_is_fetched_when_link_previews_are_off(app: TestApp) {
    let site = Site::start().await;
    let ada = app.member("ada").await;

    let written = write(&app, &ada, &format!("Quiet {}", site.url("/article"))).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;

    assert_eq!(site.hits("/article"), 0);
    assert_eq!(seen_by(&app, &ada, id(&written)).await["card"], Value::Null);
}

/// The author's own open pages had the post before its card: their stream says it came.
async fn the_author_hears_when_the_card_of_their_new_post_came(app: TestApp) {
    use crate::live::Events;
    let site = Site::start().await;
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    crate::posts::follow(&app, &bob, &ada).await;
    let mut adas = Events::open(&ada.client, &app.url("/api/events"), None).await;
    adas.expect("hello").await;
    let mut bobs = Events::open(&bob.client, &app.url("/api/events"), None).await;
    bobs.expect("hello").await;

    let post = write(&app, &ada, &format!("Read this: {}", site.url("/article"))).await;
    // Her Friends page as her screen read it then, kept ready by the server.
    let (_, before) = get(&app, &ada, "/api/posts/feed").await;
    let (_, name, data) = adas.expect("post-card").await;
    assert_eq!((name.as_str(), &data), ("post-card", &json!({ "postId": id(&post) })));
    assert_eq!(seen_by(&app, &ada, id(&post)).await["card"]["title"], "The Analytical Engine");
    let (_, after) = get(&app, &ada, "/api/posts/feed").await;
    assert_eq!(after[0]["card"]["title"], "The Analytical Engine", "read again, not kept: {before}");
    let heard: Vec<String> = bobs.drain(Duration::from_millis(400)).await.into_iter().map(|e| e.1).collect();
    assert!(!heard.contains(&"post-card".to_string()), "only the author: {heard:?}");

    // A link whose card is there already comes with its post: nothing to hear of.
    let again = write(&app, &ada, &format!("Again: {}", site.url("/article"))).await;
    assert_eq!(again["card"]["title"], "The Analytical Engine", "{again}");
    let heard: Vec<String> = adas.drain(Duration::from_millis(400)).await.into_iter().map(|e| e.1).collect();
    assert!(!heard.contains(&"post-card".to_string()), "{heard:?}");
}

both_databases_with!(a_pages_opengraph_tags_make_the_posts_card_with_its_image, crate::link_previews::fast);
both_databases_with!(the_author_hears_when_the_card_of_their_new_post_came, crate::link_previews::fast);
both_databases_with!(
    a_title_alone_makes_a_card_and_three_redirects_are_followed_but_not_four,
    crate::link_previews::fast
);
both_databases_with!(a_huge_page_is_read_up_to_a_megabyte_and_its_head_makes_the_card, crate::link_previews::fast);
both_databases_with!(
    a_slow_page_json_a_missing_page_and_a_broken_image_make_no_card_or_no_image,
    crate::link_previews::fast
);
both_databases_with!(a_redirect_to_a_private_address_is_refused, crate::link_previews::fast);
both_databases_with!(posts_with_one_link_share_one_fetch_until_it_is_fourteen_days_old, crate::link_previews::fast);
both_databases_with!(the_author_removes_the_card_for_good_and_nobody_else_can, crate::link_previews::fast);
both_databases_with!(a_post_hidden_from_the_reader_or_deleted_shows_no_card, crate::link_previews::fast);
both_databases_with!(apps_read_the_card_as_mastodons_preview_card, crate::link_previews::fast);
both_databases_with!(no_card_is_fetched_when_link_previews_are_off, |c: &mut murmur::Config| {
    crate::link_previews::fast(c);
    c.link_previews.enabled = false;
});
