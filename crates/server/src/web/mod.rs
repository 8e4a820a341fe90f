//! The web app, built by Vite into web/dist and embedded in the binary. Every path that is not
//! an API, an object or a built file answers index.html; the app decides between its pages
//! and its 404.
//!
//! The document carries what the first screen needs (docs/performance-web.md): who is asking
//! (`me`, null for a visitor) and, for a member opening Home, the first page of the Friends
//! feed, as a JSON data block the app reads before it draws anything. Without it the app asks
//! `/api/auth/me` and then the feed after its scripts have run, two round trips in a row before
//! the first post, which is most of Home's time to its largest paint on a slow phone network.
//! For the same reason the document preloads the chunks of the screen it will show (the landing
//! page's for a visitor, the member screens' for a member) and Home's first image. Mastodon's
//! `initial_state` block does the same. A member's document also starts with a picture of the
//! member shell in static HTML (`PREPAINT`), which the browser draws before the scripts arrive;
//! on Home with the first posts drawn into it from the app's post card's template (`cards`).

mod cards;
pub mod limits;

use std::sync::LazyLock;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use serde::{Deserialize, Serialize};

use crate::api::Page;
use crate::extract::CurrentUser;
use crate::state::AppState;
use murmur_domain::posts::Post;
use murmur_domain::users::User;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web/dist"]
#[allow_missing = true]
struct Assets;

/// Hashed build files never change under their name: cache them for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The service worker (web/src/service-worker/sw.ts), at the root so its scope is the whole site.
const SERVICE_WORKER: &str = "sw.js";

/// The `id` of the data block; web/src/app/first-screen.ts reads it.
const FIRST_SCREEN_ID: &str = "murmur-first-screen";

pub async fn serve_app(State(state): State<AppState>, request: Request) -> Response {
    let (mut parts, _) = request.into_parts();
    let path = parts.uri.path().trim_start_matches('/');
    // Vite's manifest (`.vite/manifest.json`) is for the server, not for browsers.
    if !path.is_empty()
        && !path.starts_with('.')
        && let Some(file) = Assets::get(path)
    {
        let cache = match path {
            _ if path.starts_with("assets/") => IMMUTABLE,
            // Browsers fetch their worker past the HTTP cache anyway (`updateViaCache`); this
            // says the same to any cache between, so a release reaches them at their next check.
            SERVICE_WORKER => "no-cache",
            _ => "public, max-age=3600",
        };
        return file_response(path, file, cache);
    }
    let Some(index) = Assets::get("index.html") else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The web app is not built. Run `npm run build` in web/ (or `make run`).",
        )
            .into_response();
    };
    if parts.method != Method::GET && parts.method != Method::HEAD {
        return file_response("index.html", index, "no-cache");
    }
    let is_home = path.is_empty();
    let FirstScreenParts { head, prepainted_shell, shows_first_posts } =
        first_screen(&state, &mut parts, is_home).await;
    let html = String::from_utf8_lossy(&index.data);
    let html = match html.split_once("</head>") {
        Some((before, after)) => format!("{before}{head}</head>{after}"),
        None => html.into_owned(),
    };
    // The document's own tags are changed before the picture, with what members wrote in it,
    // goes in (it is escaped, so it could not match them anyway).
    let mut html = match THEME_INIT.as_ref() {
        Some(theme) => html.replacen(THEME_INIT_TAG, &theme.tag, 1),
        None => html,
    };
    if shows_first_posts {
        html = after_the_first_screen(&html);
    }
    let html = html.replacen(ROOT, &format!("{prepainted_shell}{ROOT}"), 1);
    let mut response = html.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    // The document now depends on who asks: never kept by a shared cache, always revalidated.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    headers.insert(header::VARY, HeaderValue::from_static("Cookie"));
    response
}

/// `/terms`: the operator's Terms of Service when they set one (`--terms-url`), else the web
/// app's plain default page.
pub async fn terms(State(state): State<AppState>, request: Request) -> Response {
    let page = state.config.legal.terms.clone();
    legal_page(page, State(state), request).await
}

/// `/privacy`: the operator's Privacy Policy (`--privacy-url`), else the web app's default.
pub async fn privacy(State(state): State<AppState>, request: Request) -> Response {
    let page = state.config.legal.privacy.clone();
    legal_page(page, State(state), request).await
}

async fn legal_page(page: Option<url::Url>, state: State<AppState>, request: Request) -> Response {
    match page {
        Some(url) => axum::response::Redirect::to(url.as_str()).into_response(),
        None => serve_app(state, request).await,
    }
}

/// What the app's first screen would otherwise fetch (web/src/app/first-screen.ts).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FirstScreen {
    /// The member asking, as `/api/auth/me` answers; null for a visitor.
    me: Option<User>,
    /// Home's first Friends page, as `/api/posts/feed?limit=20&offset=0` answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    feed: Option<Vec<Post>>,
}

/// The tags the document gets before `</head>`: the data block and the preloads of the screen
/// it will show; and, for a member, the picture of the shell that goes before the app's root
/// (`PREPAINT`), on Home with its first posts.
/// Both empty when the database could not be asked: the app then asks for itself, as it does
/// under Vite's dev server.
async fn first_screen(state: &AppState, parts: &mut axum::http::request::Parts, is_home: bool) -> FirstScreenParts {
    let current = match CurrentUser::from_request_parts(parts, state).await {
        Ok(current) => Some(current),
        Err(crate::error::ApiError(crate::error::Error::Unauthorized)) => None,
        Err(error) => {
            tracing::warn!(?error, "the document goes without its first screen");
            return FirstScreenParts::default();
        }
    };
    let screen = match current {
        None => FirstScreen { me: None, feed: None },
        Some(current) => {
            let me = match murmur_domain::users::own_user(&state.db.read, current.id, state.clock.now()).await {
                Ok(me) => me,
                // The session outlived its member (deleted): a visitor.
                Err(crate::error::Error::Unauthorized) => {
                    return FirstScreenParts {
                        head: data_block(&FirstScreen { me: None, feed: None }),
                        ..Default::default()
                    };
                }
                Err(error) => {
                    tracing::warn!(?error, "the document goes without its first screen");
                    return FirstScreenParts::default();
                }
            };
            // A newcomer's Home is the first-run step (web/src/app/routes/home.tsx), not the feed.
            let feed = if is_home && me.first_run_done != Some(false) {
                let first = Page::new(murmur_domain::feeds::PAGE_SIZE, 0);
                match murmur_domain::feeds::friends_page(&state.db, current.id, first, state.clock.now()).await {
                    Ok(feed) => Some(feed),
                    Err(error) => {
                        tracing::warn!(?error, "the document goes without Home's first page");
                        None
                    }
                }
            } else {
                None
            };
            FirstScreen { me: Some(me), feed }
        }
    };
    let mut head = data_block(&screen);
    let Some(me) = &screen.me else {
        head.push_str(&CHUNKS.landing);
        return FirstScreenParts { head, ..Default::default() };
    };
    head.push_str(&CHUNKS.member);
    if !is_home {
        return FirstScreenParts { head, prepainted_shell: PREPAINT.other.clone(), shows_first_posts: false };
    }
    head.push_str(&CHUNKS.home);
    if me.first_run_done == Some(false) {
        // The first-run step takes Home's place: no tabs or posts the app would then take away.
        return FirstScreenParts { head, prepainted_shell: PREPAINT.other.clone(), shows_first_posts: false };
    }
    let feed = screen.feed.as_deref().unwrap_or_default();
    if let Some(image) = first_image(feed) {
        head.push_str(&image);
    }
    let cards = CARD.as_ref().and_then(|template| cards::first_cards(feed, me.id, state.clock.now(), template));
    match cards {
        Some(cards) if !PREPAINT.cards_slot.is_empty() => {
            let cards = format!(r#"<div id="{FIRST_CARDS_ID}">{cards}</div>"#);
            FirstScreenParts {
                head,
                prepainted_shell: PREPAINT.home.replacen(&PREPAINT.cards_slot, &cards, 1),
                shows_first_posts: true,
            }
        }
        _ => FirstScreenParts { head, prepainted_shell: PREPAINT.home.clone(), shows_first_posts: false },
    }
}

/// What `first_screen` adds to index.html.
#[derive(Default)]
struct FirstScreenParts {
    /// Before `</head>`: the data block and the preloads.
    head: String,
    /// Before the app's root: the shell drawn in HTML for a member, shown until the app starts.
    prepainted_shell: String,
    /// The prepainted shell includes the screen's first posts (Home's first cards).
    shows_first_posts: bool,
}

/// The document with its scripts fetched after what its first screen shows.
///
/// Why: when the picture already shows the posts, the scripts no longer draw the first screen;
/// they make it work. Fetched at the priority scripts have by default (high, beside the
/// stylesheet), their ~125 KB compete with the first image for a slow phone's bandwidth, and
/// Lighthouse counts every high-priority script as holding up the first paint (its simulated
/// first and largest paints on Home were 2.6 and 3.0 s, with both observed under 0.2 s).
/// `fetchpriority="low"` lets the stylesheet, the document and the image go first; the
/// scripts still start at once and run as soon as they are there.
fn after_the_first_screen(html: &str) -> String {
    html.replace(r#"<script type="module" crossorigin "#, r#"<script type="module" fetchpriority="low" crossorigin "#)
        .replace(
            r#"<link rel="modulepreload" crossorigin "#,
            r#"<link rel="modulepreload" fetchpriority="low" crossorigin "#,
        )
}

/// Where Home's picture has its first posts (`FIRST_CARDS_ID` in web/src/app/prepaint.tsx).
const FIRST_CARDS_ID: &str = "murmur-first-cards";

/// How index.html loads the script that sets the theme before the first paint.
const THEME_INIT_TAG: &str = r#"<script src="/theme-init.js"></script>"#;

/// web/public/theme-init.js, put into the document itself, and its hash for the
/// Content-Security-Policy (`security`), which allows that script and no other inline one.
///
/// Why: it must run before the first paint (or a dark page flashes light), so it holds the
/// first paint until it is there: loaded from its own file, that is one more round trip on
/// every document, 150 ms on a slow phone network, before anything is drawn. None when the
/// build has no such file (Vite's dev server) or it could end its own tag.
pub struct InlineScript {
    tag: String,
    /// `'sha256-…'`, as a CSP source.
    pub hash: String,
}

pub static THEME_INIT: LazyLock<Option<InlineScript>> = LazyLock::new(|| {
    use base64::Engine as _;
    use sha2::Digest as _;
    let file = Assets::get("theme-init.js")?;
    let code = std::str::from_utf8(&file.data).ok()?;
    if code.to_ascii_lowercase().contains("</script") || code.contains("<!--") {
        return None;
    }
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(code.as_bytes()));
    Some(InlineScript { tag: format!("<script>{code}</script>"), hash: format!("'sha256-{hash}'") })
});

/// The app's root element in index.html; a member's picture of the shell goes before it.
const ROOT: &str = r#"<div id="root">"#;

/// The member shell as static HTML (web/src/app/prepaint.tsx, rendered by the web build into
/// `.murmur/prepaint.json`): what a member's document shows before its scripts have run, over
/// the page until the app has drawn its own. Home's frame with Home marked as the current page,
/// or the shell with none. It is the same for everyone (nothing about the member is in it)
/// until the server draws Home's first posts in place of `cards_slot`; empty if the build has
/// none (Vite's dev server).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Prepaint {
    home: String,
    other: String,
    /// The place of Home's first posts in `home`, "Loading..." until they are drawn there.
    cards_slot: String,
}

static PREPAINT: LazyLock<Prepaint> = LazyLock::new(|| {
    Assets::get(".murmur/prepaint.json").and_then(|file| serde_json::from_slice(&file.data).ok()).unwrap_or_default()
});

/// The post card's template (web/scripts/card-template.mjs), which Home's first posts are drawn
/// from; None if the build has none (Vite's dev server).
static CARD: LazyLock<Option<cards::CardTemplate>> = LazyLock::new(|| {
    let file = Assets::get(".murmur/card.json")?;
    serde_json::from_slice(&file.data)
        .inspect_err(
            |error| tracing::warn!(%error, "the post card's template does not parse: the app draws Home's first posts"),
        )
        .ok()
});

/// `value` as a JSON data block. A data block is not a script, so the Content-Security-Policy
/// (no inline scripts) allows it. `<` `>` `&` are escaped as `\u003c`… (JSON allows them only
/// inside strings, where the escape means the same), so no text a member wrote can end the
/// block or open a comment; U+2028/2029 need nothing here (JSON.parse takes them).
fn data_block(value: &FirstScreen) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    let json = json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
    format!(r#"<script type="application/json" id="{FIRST_SCREEN_ID}">{json}</script>"#)
}

/// A preload of the first image of the first posts, usually Home's largest paint, so that it
/// downloads beside the scripts instead of after them. Only uploads (`/objects/{id}`) have the
/// copies the `srcset` names (`variantSrcSet` in web/src/lib/image-variants.ts); other URLs are
/// not preloaded.
fn first_image(feed: &[Post]) -> Option<String> {
    let post = feed
        .iter()
        .take(cards::PRIORITY_POSTS)
        .map(|post| post.repost_of.as_deref().unwrap_or(post))
        .find(|post| !post.image_urls.is_empty())?;
    let url = &post.image_urls[0];
    if !cards::is_upload(url) {
        return None;
    }
    let sizes = if post.image_urls.len() == 1 { cards::SIZES_ALONE } else { cards::SIZES_IN_GRID };
    Some(format!(
        r#"<link rel="preload" as="image" href="{url}/640" imagesrcset="{}" imagesizes="{sizes}" fetchpriority="high">"#,
        murmur_core::html::escape(&cards::src_set(url))
    ))
}

/// `<link rel="modulepreload">` tags for the first screens' chunks, from Vite's manifest.
struct Chunks {
    /// The landing page (src/app/routes/landing.tsx) and what it imports: a member never
    /// needs them, so they are not in index.html for everyone.
    landing: String,
    /// The member shell (src/app/member-routes.tsx) and what it imports.
    member: String,
    /// Home (src/app/routes/home.tsx) and what it imports, less the shell's.
    home: String,
}

static CHUNKS: LazyLock<Chunks> = LazyLock::new(|| {
    let manifest = Assets::get(".vite/manifest.json")
        .and_then(|file| serde_json::from_slice::<Manifest>(&file.data).ok())
        .unwrap_or_default();
    // What index.html already loads (the entry and its imports) is left out. (The build's
    // other entry is the service worker.)
    let mut seen = Vec::new();
    closure(&manifest, "index.html", &mut seen);
    let mut landing = Vec::new();
    closure(&manifest, "src/app/routes/landing.tsx", &mut landing);
    let mut member = Vec::new();
    closure(&manifest, "src/app/member-routes.tsx", &mut member);
    let mut home = Vec::new();
    closure(&manifest, "src/app/routes/home.tsx", &mut home);
    let tags = |files: &[String], skip: &[String]| -> String {
        files
            .iter()
            .filter(|file| !skip.contains(file))
            .map(|file| {
                format!(r#"<link rel="modulepreload" crossorigin href="/{}">"#, murmur_core::html::escape(file))
            })
            .collect()
    };
    let home_skip: Vec<String> = seen.iter().chain(member.iter()).cloned().collect();
    Chunks { landing: tags(&landing, &seen), member: tags(&member, &seen), home: tags(&home, &home_skip) }
});

/// Vite's build manifest: source path (or shared chunk name) → its chunk.
type Manifest = std::collections::HashMap<String, ManifestChunk>;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
}

/// The JavaScript files of `key` and of everything it imports statically, in load order.
fn closure(manifest: &Manifest, key: &str, files: &mut Vec<String>) {
    let Some(chunk) = manifest.get(key) else { return };
    if !chunk.file.ends_with(".js") || files.contains(&chunk.file) {
        return;
    }
    files.push(chunk.file.clone());
    for import in &chunk.imports {
        closure(manifest, import, files);
    }
}

fn file_response(path: &str, file: rust_embed::EmbeddedFile, cache: &'static str) -> Response {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    let is_text = mime.type_() == "text" || mime.subtype() == "javascript" || mime.subtype() == "json";
    let content_type = if is_text { format!("{mime}; charset=utf-8") } else { mime.to_string() };
    let mut response = file.data.into_owned().into_response();
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&content_type) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}
