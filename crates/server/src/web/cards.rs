//! Home's first Friends posts drawn as static HTML into the document's picture of Home
//! (`PREPAINT` in `web`), so that the largest thing on a member's first screen, usually the
//! first post's image, is drawn before the scripts have arrived rather than after them.
//!
//! There is one post card: the app's (web/src/features/posts/components/post-card.tsx). The web
//! build renders it into a template (web/scripts/card-template.mjs, `.murmur/card.json`): its
//! markup with holes named by where their value is (`post.author.username`, `time`) and choices
//! between branches named by the state that picks one (`post.isLiked`, `post.imageUrls`). This
//! only fills it: every value HTML-escaped, the post's text cut into plain text and entities
//! drawn from the templates of `PostContent`. What it keeps is data: the relative time as
//! `Intl.RelativeTimeFormat` writes it, a name's initial, a link's short form, and which posts
//! it can draw (it stops before a post with a poll, a content warning, a link's preview card,
//! or an image that is not an upload; the app draws those: a warning opens by the member's setting, which only the app
//! knows).

use std::collections::HashMap;

use chrono::DateTime;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use serde_json::{Value, json};

use murmur_core::clock::Millis;
use murmur_core::html::escape;
use murmur_domain::posts::Post;

/// How many posts the picture draws at most: more than a phone's or a desktop's first screen
/// shows (2 to 4 cards); the picture is cut at the window's edge.
pub const FIRST_CARDS: usize = 4;

/// Posts whose images load at once (`PRIORITY_POSTS` in post-list.tsx).
pub const PRIORITY_POSTS: usize = 2;

/// The `sizes` of a post's only image (`SIZES_ALONE` in post-images.tsx): the document's preload
/// must ask exactly what the card's `<img>` will, or the browser fetches the image twice.
pub const SIZES_ALONE: &str = "(min-width: 1024px) 586px, calc(100vw - 86px)";
pub const SIZES_IN_GRID: &str = "(min-width: 1024px) 291px, calc(50vw - 45px)";

/// The post card's template as the web build renders it (web/scripts/card-template.mjs).
#[derive(Deserialize)]
pub struct CardTemplate {
    /// One card, filled from what `card` puts in its context.
    card: Vec<Node>,
    /// A post's text: `text` for plain text, and one template per kind of entity (`mention`,
    /// `hashtag`, `link`), filled from `text`, `value` and `shortUrl`.
    content: HashMap<String, Vec<Node>>,
}

#[derive(Deserialize, Debug)]
#[serde(untagged)]
enum Node {
    /// Literal markup, as React wrote it.
    Markup(String),
    /// The value at a path (`post.author.username`), written as `as` says.
    Hole {
        hole: String,
        #[serde(default, rename = "as")]
        written_as: WrittenAs,
    },
    /// The branch the value at `choose` picks (`branch`).
    Choice { choose: String, branches: Vec<Vec<Node>> },
}

#[derive(Deserialize, Default, Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum WrittenAs {
    /// HTML-escaped, for text and quoted attributes.
    #[default]
    Text,
    /// As `encodeURIComponent` encodes it, then escaped (a mention's or a tag's address).
    Uri,
    /// A post (the object at the path): its text with its entities, from the content templates.
    Content,
}

/// The first posts of `feed` as the app's cards draw them for `viewer` at `now`, or None when
/// not even the first can be drawn here.
pub fn first_cards(feed: &[Post], viewer: i64, now: Millis, template: &CardTemplate) -> Option<String> {
    let mut html = String::new();
    for (index, shown) in feed.iter().take(FIRST_CARDS).enumerate() {
        let Some(card) = card(shown, viewer, now, index < PRIORITY_POSTS, template) else { break };
        html.push_str(&card);
    }
    (!html.is_empty()).then_some(html)
}

/// `shown`'s card, or None when it is not one this draws.
fn card(shown: &Post, viewer: i64, now: Millis, priority: bool, template: &CardTemplate) -> Option<String> {
    // A repost shows the original (`post.repostOf ?? post`).
    let post = shown.repost_of.as_deref().unwrap_or(shown);
    let avatar_ok = post.author.profile_image_url.as_deref().is_none_or(is_upload);
    // Placeholders (unavailable, removed, deleted) are the app's to draw; Friends has none.
    let placeholder = shown.is_unavailable || post.is_unavailable || post.is_removed || post.is_deleted;
    let warned = post.spoiler_text.is_some();
    // A followed tag's post ("# tag" above it), a quote (the quoted post in a box) and a post
    // with a link's preview card are the app's to draw too.
    let quoting = post.quote_of_id.is_some() || post.quote_detached;
    if placeholder
        || warned
        || quoting
        || shown.via_tag.is_some()
        || post.card.is_some()
        || !post.poll_options.is_empty()
        || !post.image_urls.iter().all(|url| is_upload(url))
        || !avatar_ok
    {
        return None;
    }
    let own = post.author.id == viewer;
    // "Edit post" while the window is open: the app asks its clock, the server its own.
    let editable_until = post.editable_until.as_deref().and_then(|until| DateTime::parse_from_rfc3339(until).ok());
    let editable = own && editable_until.is_some_and(|until| now < until.timestamp_millis());
    // What the template's paths read: the names `sampleCard` in card-template.mjs gives them.
    let context = json!({
        "shown": shown,
        "post": post,
        "own": own,
        "editable": editable,
        "priority": priority,
        "time": relative_time(&post.created_at, now),
        "editedTime": post.edited_at.as_deref().map(|edited| relative_time(edited, now)),
        "initial": initial(&post.author.display_name),
        "alts": alts(post),
    });
    let mut out = String::new();
    template.fill(&mut out, &template.card, &context)?;
    Some(out)
}

impl CardTemplate {
    /// Appends `nodes` filled from `context`; None when a value is missing or not text.
    fn fill(&self, out: &mut String, nodes: &[Node], context: &Value) -> Option<()> {
        for node in nodes {
            match node {
                Node::Markup(markup) => out.push_str(markup),
                Node::Hole { hole, written_as: WrittenAs::Text } => out.push_str(&escape(&text(at(context, hole)?)?)),
                Node::Hole { hole, written_as: WrittenAs::Uri } => {
                    let encoded = utf8_percent_encode(&text(at(context, hole)?)?, URI_COMPONENT).to_string();
                    out.push_str(&escape(&encoded));
                }
                Node::Hole { hole, written_as: WrittenAs::Content } => self.content(out, at(context, hole)?)?,
                Node::Choice { choose, branches } => {
                    let last = branches.len().checked_sub(1)?;
                    self.fill(out, &branches[branch(at(context, choose)).min(last)], context)?;
                }
            }
        }
        Some(())
    }

    /// `PostContent` (post-content.tsx): `post`'s text with its entities drawn from their
    /// templates; an entity of no known kind, out of place, or a link that is not http(s), is
    /// left as text.
    fn content(&self, out: &mut String, post: &Value) -> Option<()> {
        let text = post.get("content")?.as_str()?;
        let entities = post.get("entities").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        // Entities count UTF-16 code units (the web app's string indices); the text is UTF-8.
        let mut byte_at = Vec::with_capacity(text.len() + 1);
        for (i, c) in text.char_indices() {
            byte_at.extend(std::iter::repeat_n(i, c.len_utf16()));
        }
        byte_at.push(text.len());
        let index = |key: &str, entity: &Value| {
            entity.get(key)?.as_u64().and_then(|at| usize::try_from(at).ok()).and_then(|at| byte_at.get(at).copied())
        };
        let mut last = 0;
        for entity in entities {
            let (Some(kind), Some(value), Some(start), Some(end)) = (
                entity.get("type").and_then(Value::as_str),
                entity.get("value").and_then(Value::as_str),
                index("start", entity),
                index("end", entity),
            ) else {
                continue;
            };
            let Some(template) = self.content.get(kind).filter(|_| kind != "text") else { continue };
            if start < last || end <= start || (kind == "link" && !is_web_address(value)) {
                continue;
            }
            self.plain(out, &text[last..start])?;
            let part = json!({ "text": &text[start..end], "value": value, "shortUrl": short_url(value) });
            self.fill(out, template, &part)?;
            last = end;
        }
        self.plain(out, &text[last..])
    }

    /// Plain text between entities, drawn only when there is some (as `PostContent` does).
    fn plain(&self, out: &mut String, text: &str) -> Option<()> {
        if text.is_empty() {
            return Some(());
        }
        self.fill(out, self.content.get("text")?, &json!({ "text": text }))
    }
}

/// The value at `path` (`post.author.username`, `post.imageUrls.0`).
fn at<'a>(context: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(context, |value, key| match value {
        Value::Array(items) => items.get(key.parse::<usize>().ok()?),
        _ => value.get(key),
    })
}

/// A value written into the markup: a string or a number.
fn text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The branch a state's value picks (`branchOf` in card-template.mjs): an array's length, else
/// 0 or 1 as JavaScript's truth (missing, null, false, 0 and "" are 0).
fn branch(value: Option<&Value>) -> usize {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => 0,
        Some(Value::Array(items)) => items.len(),
        Some(Value::String(text)) => usize::from(!text.is_empty()),
        Some(Value::Number(number)) => usize::from(number.as_f64() != Some(0.0)),
        Some(_) => 1,
    }
}

/// An address `PostContent` links (`usableEntities` in post-content.tsx).
fn is_web_address(url: &str) -> bool {
    let starts = |scheme: &str| url.get(..scheme.len()).is_some_and(|start| start.eq_ignore_ascii_case(scheme));
    starts("https://") || starts("http://")
}

/// Each image's `alt` as `PostImages` (post-images.tsx) writes it: its description, or which image
/// of how many and whose.
fn alts(post: &Post) -> Vec<String> {
    let count = post.image_urls.len().min(4);
    let name = &post.author.display_name;
    (0..count)
        .map(|index| match post.images.get(index).and_then(|image| image.alt.as_ref()) {
            Some(alt) => alt.clone(),
            None => format!("Image {} of {count} posted by {name}", index + 1),
        })
        .collect()
}

/// `initial` in web/src/lib/utils.ts.
fn initial(name: &str) -> String {
    match name.trim().chars().next() {
        Some(first) => first.to_uppercase().collect(),
        None => "?".to_string(),
    }
}

/// Every display copy of an upload, as `srcset` (`variantSrcSet` in image-variants.ts).
pub fn src_set(url: &str) -> String {
    murmur_domain::media::VARIANT_WIDTHS.iter().map(|w| format!("{url}/{w} {w}w")).collect::<Vec<_>>().join(", ")
}

/// An image the server stores (`/objects/{id}`), the only kind with display copies.
pub fn is_upload(url: &str) -> bool {
    url.strip_prefix("/objects/").is_some_and(murmur_domain::media::is_media_id)
}

/// What JavaScript's `encodeURIComponent` encodes (a tag holds letters, digits and `_`).
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// `shortUrl` in post-content.tsx: without the scheme and `www.`, at most 30 characters.
fn short_url(url: &str) -> String {
    let bare = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")).unwrap_or(url);
    let bare = bare.strip_prefix("www.").unwrap_or(bare);
    if bare.chars().count() > 30 {
        format!("{}…", bare.chars().take(29).collect::<String>())
    } else {
        bare.to_string()
    }
}

/// `relativeTime` in web/src/lib/utils.ts: `Intl.RelativeTimeFormat('en', { numeric: 'auto' })`
/// in the largest unit the time reaches, "just now" under a minute.
fn relative_time(iso: &str, now: Millis) -> String {
    const UNITS: [(&str, i64); 6] = [
        ("year", 365 * 24 * 3600),
        ("month", 30 * 24 * 3600),
        ("week", 7 * 24 * 3600),
        ("day", 24 * 3600),
        ("hour", 3600),
        ("minute", 60),
    ];
    let Ok(then) = DateTime::parse_from_rfc3339(iso) else {
        return "just now".to_string();
    };
    // `Math.round((then - now) / 1000)`: halves go up.
    let seconds = ((then.timestamp_millis() - now) as f64 / 1000.0 + 0.5).floor() as i64;
    for (unit, size) in UNITS {
        if seconds.abs() >= size {
            let n = seconds / size;
            return match (n, unit) {
                (-1, "day") => "yesterday".to_string(),
                (1, "day") => "tomorrow".to_string(),
                (-1, _) if unit != "hour" && unit != "minute" => format!("last {unit}"),
                (1, _) if unit != "hour" && unit != "minute" => format!("next {unit}"),
                (n, _) if n < 0 => format!("{} {unit}{} ago", -n, if n == -1 { "" } else { "s" }),
                (n, _) => format!("in {n} {unit}{}", if n == 1 { "" } else { "s" }),
            };
        }
    }
    "just now".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use murmur_domain::posts::model::Author;

    /// A template shaped as the built one, small enough to read: every kind of node.
    fn template() -> CardTemplate {
        serde_json::from_value(json!({
            "card": [
                {"choose": "shown.repostOf", "branches": [
                    ["<article id=\"", {"hole": "post.id"}, "\">"],
                    ["<article id=\"", {"hole": "shown.id"}, "\"><p>", {"hole": "shown.author.displayName"}, " reposted</p>"],
                ]},
                "<a href=\"/profile/", {"hole": "post.author.username"}, "\" aria-label=\"",
                {"hole": "post.author.displayName"}, "&#x27;s profile\">",
                {"choose": "post.author.profileImageUrl", "branches": [
                    ["<span>", {"hole": "initial"}, "</span>"],
                    ["<img src=\"", {"hole": "post.author.profileImageUrl"}, "/320\">"],
                ]},
                "</a><time datetime=\"", {"hole": "post.createdAt"}, "\">", {"hole": "time"}, "</time>",
                {"choose": "post.replyToId", "branches": [
                    [],
                    ["<a href=\"/post/", {"hole": "post.replyToId"}, "\">Replying to a post</a>"],
                ]},
                "<p>", {"hole": "post", "as": "content"}, "</p>",
                {"choose": "post.imageUrls", "branches": [
                    [],
                    ["<img src=\"", {"hole": "post.imageUrls.0"}, "\" loading=\"",
                        {"choose": "priority", "branches": [["lazy"], ["eager"]]}, "\">"],
                    ["<img src=\"", {"hole": "post.imageUrls.0"}, "\"><img src=\"", {"hole": "post.imageUrls.1"}, "\">"],
                ]},
                {"choose": "post.isLiked", "branches": [
                    ["<button aria-pressed=\"false\">Like (", {"hole": "post.likeCount"}, ")</button>"],
                    ["<button aria-pressed=\"true\">Unlike (", {"hole": "post.likeCount"}, ")</button>"],
                ]},
                {"choose": "own", "branches": [["<button>More actions</button>"], ["<button>Delete post</button>"]]},
                "</article>",
            ],
            "content": {
                "text": [{"hole": "text"}],
                "mention": ["<a href=\"/profile/", {"hole": "value", "as": "uri"}, "\">", {"hole": "text"}, "</a>"],
                "hashtag": ["<a href=\"/tag/", {"hole": "value", "as": "uri"}, "\">", {"hole": "text"}, "</a>"],
                "link": ["<a href=\"", {"hole": "value"}, "\" title=\"", {"hole": "value"}, "\">", {"hole": "shortUrl"}, "</a>"],
            },
        }))
        .unwrap()
    }

    const UPLOAD: &str = "/objects/0123456789abcdef0123456789abcdef";
    const NOW: &str = "2026-11-24T12:00:00Z";

    fn post(id: i64, author_id: i64, name: &str, content: &str) -> Post {
        Post {
            id,
            content: content.to_string(),
            spoiler_text: None,
            entities: Vec::new(),
            author: Author {
                id: author_id,
                username: format!("member{author_id}"),
                display_name: name.to_string(),
                profile_image_url: None,
            },
            created_at: "2026-11-24T09:00:00Z".to_string(),
            image_urls: Vec::new(),
            images: Vec::new(),
            edited_at: None,
            editable_until: None,
            is_bookmarked: false,
            pinned: false,
            poll_options: Vec::new(),
            poll_votes: Default::default(),
            poll_expires_at: None,
            poll_multiple: false,
            my_vote: None,
            my_votes: Vec::new(),
            reply_to_id: None,
            repost_of_id: None,
            repost_of: None,
            quote_of_id: None,
            quote_of: None,
            quote_detached: false,
            quotes_allowed: true,
            reply_count: 1,
            repost_count: 2,
            like_count: 3,
            is_liked: false,
            is_reposted: false,
            is_deleted: false,
            is_unavailable: false,
            is_removed: false,
            author_mute: None,
            application: None,
            feed_entries: None,
            via_tag: None,
            hidden_by_muted_word: None,
            card: None,
        }
    }

    fn now() -> Millis {
        DateTime::parse_from_rfc3339(NOW).unwrap().timestamp_millis()
    }

    fn drawn(shown: &Post, viewer: i64, priority: bool) -> String {
        card(shown, viewer, now(), priority, &template()).expect("a card")
    }

    #[test]
    fn a_hostile_name_and_text_are_written_as_text() {
        let hostile =
            post(5, 2, r#""><script>alert(1)</script> & 'Ada'"#, "</p></article><img src=x onerror=alert(2)>");
        let html = drawn(&hostile, 1, false);
        assert!(!html.contains("<script>") && !html.contains("<img src=x"), "{html}");
        assert!(
            html.contains(
                r#"aria-label="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;Ada&#39;&#x27;s profile">"#
            ),
            "{html}"
        );
        assert!(html.contains("<p>&lt;/p&gt;&lt;/article&gt;&lt;img src=x onerror=alert(2)&gt;</p>"), "{html}");
        // The initial of a name that starts with a quote is that quote, escaped.
        assert!(html.contains("<span>&quot;</span>"), "{html}");
    }

    #[test]
    fn each_state_picks_its_branch() {
        let plain = post(5, 2, "ada", "hi");
        let html = drawn(&plain, 1, false);
        assert!(html.starts_with(r#"<article id="5"><a href="/profile/member2""#), "{html}");
        assert!(html.contains("<span>A</span>") && html.contains(">3 hours ago</time>"), "{html}");
        assert!(html.contains("Like (3)") && html.contains("More actions"), "{html}");
        assert!(!html.contains("reposted") && !html.contains("Replying") && !html.contains("<img"), "{html}");

        let mut original = post(5, 2, "ada", "hi");
        original.author.profile_image_url = Some(UPLOAD.to_string());
        original.reply_to_id = Some(4);
        original.image_urls = vec![UPLOAD.to_string()];
        original.is_liked = true;
        let mut repost = post(9, 1, "Bob <3", "♻️");
        repost.repost_of = Some(Box::new(original.clone()));
        let html = drawn(&repost, 2, true);
        assert!(html.starts_with(r#"<article id="9"><p>Bob &lt;3 reposted</p>"#), "{html}");
        assert!(html.contains(&format!(r#"<img src="{UPLOAD}/320">"#)), "{html}");
        assert!(html.contains(r#"<a href="/post/4">Replying to a post</a>"#), "{html}");
        assert!(html.contains(&format!(r#"<img src="{UPLOAD}" loading="eager">"#)), "{html}");
        assert!(html.contains("Unlike (3)") && html.contains("Delete post"), "{html}");

        // Past the last branch, the last: four images and more draw as the template's last.
        original.image_urls = vec![UPLOAD.to_string(); 5];
        let html = drawn(&original, 1, false);
        assert!(html.contains(&format!(r#"<img src="{UPLOAD}"><img src="{UPLOAD}">"#)), "{html}");
    }

    #[test]
    fn its_author_may_edit_a_post_until_its_window_closes() {
        let mut editable = template();
        editable.card.push(Node::Choice {
            choose: "editable".to_string(),
            branches: vec![vec![], vec![Node::Markup("<button>Edit post</button>".to_string())]],
        });
        let mut fresh = post(5, 2, "ada", "hi");
        fresh.editable_until = Some("2026-11-24T12:30:00Z".to_string());
        assert!(card(&fresh, 2, now(), false, &editable).unwrap().contains("Edit post"));
        assert!(!card(&fresh, 1, now(), false, &editable).unwrap().contains("Edit post"), "another's post");
        fresh.editable_until = Some("2026-11-24T11:30:00Z".to_string());
        assert!(!card(&fresh, 2, now(), false, &editable).unwrap().contains("Edit post"), "the window closed");
    }

    #[test]
    fn an_image_is_described_by_its_description_or_by_its_place_and_author() {
        let mut described = post(5, 2, "Ada", "hi");
        described.image_urls = vec![UPLOAD.to_string(); 2];
        described.images = vec![
            murmur_domain::posts::model::PostImage {
                url: UPLOAD.to_string(),
                alt: Some("A heron".to_string()),
                width: None,
                height: None,
            },
            murmur_domain::posts::model::PostImage { url: UPLOAD.to_string(), alt: None, width: None, height: None },
        ];
        assert_eq!(alts(&described), ["A heron", "Image 2 of 2 posted by Ada"]);
    }

    #[test]
    fn a_value_the_template_names_but_the_post_lacks_draws_no_card() {
        let mut template = template();
        template.card.push(Node::Hole { hole: "post.noSuchField".to_string(), written_as: WrittenAs::Text });
        assert!(card(&post(5, 2, "ada", "hi"), 1, now(), false, &template).is_none());
        let feed = [post(5, 2, "ada", "hi")];
        assert_eq!(first_cards(&feed, 1, now(), &template), None);
    }

    #[test]
    fn the_drawing_stops_before_a_post_the_app_must_draw() {
        let mut poll = post(6, 2, "ada", "Tea?");
        poll.poll_options = vec!["Yes".to_string(), "No".to_string()];
        let mut outside = post(7, 2, "ada", "look");
        outside.image_urls = vec!["https://example.com/a.png".to_string()];
        let first = post(8, 2, "ada", "first");
        let html = first_cards(&[first.clone(), poll, first.clone()], 1, now(), &template()).unwrap();
        assert_eq!(html.matches("<article ").count(), 1, "{html}");
        assert_eq!(first_cards(&[outside, first.clone()], 1, now(), &template()), None);
        // Behind a warning, the text must not be drawn before the app knows whether to open it.
        let mut warned = post(9, 2, "ada", "the ending");
        warned.spoiler_text = Some("Spoilers".to_string());
        assert_eq!(first_cards(&[warned, first.clone()], 1, now(), &template()), None);
        // A quote's box (or "Removed by the author") is the app's to draw.
        let mut quote = post(10, 2, "ada", "look at this");
        quote.quote_of_id = Some(8);
        let mut detached = post(11, 2, "ada", "and this");
        detached.quote_detached = true;
        assert_eq!(first_cards(&[quote, first.clone()], 1, now(), &template()), None);
        assert_eq!(first_cards(&[detached, first], 1, now(), &template()), None);
    }

    #[test]
    fn entities_link_as_the_app_links_them() {
        let text = "🙂 @Ada likes #Café & <b> https://www.example.com/a/very/long/path/to/a/page";
        let mut with_entities = post(5, 2, "ada", text);
        let found = murmur_domain::posts::entities::parse(text);
        with_entities.entities = found.entities(text, &[("ada".to_string(), 2)].into());
        let html = drawn(&with_entities, 1, false);
        assert!(
            html.contains(
                "<p>🙂 <a href=\"/profile/ada\">@Ada</a> likes <a href=\"/tag/Caf%C3%A9\">#Café</a> &amp; &lt;b&gt; \
                 <a href=\"https://www.example.com/a/very/long/path/to/a/page\" \
                 title=\"https://www.example.com/a/very/long/path/to/a/page\">example.com/a/very/long/path/…</a></p>"
            ),
            "{html}"
        );
        // Without entities, nothing is a link: the text is only escaped.
        let html = drawn(&post(5, 2, "ada", "@ada@example.com <i>"), 1, false);
        assert!(html.contains("<p>@ada@example.com &lt;i&gt;</p>"), "{html}");
    }

    #[test]
    fn a_link_to_anything_but_the_web_stays_text() {
        let mut odd = post(5, 2, "ada", "see javascript:alert(1)");
        odd.entities =
            serde_json::from_value(json!([{"type": "link", "start": 4, "end": 23, "value": "javascript:alert(1)"}]))
                .unwrap();
        let html = drawn(&odd, 1, false);
        assert!(html.contains("<p>see javascript:alert(1)</p>"), "{html}");
    }

    #[test]
    fn the_built_template_draws_a_card_with_what_members_wrote_as_text() {
        let Some(file) = super::super::Assets::get(".murmur/card.json") else {
            eprintln!("skipped: the web app is not built");
            return;
        };
        let built: CardTemplate = serde_json::from_slice(&file.data).expect("the built template parses");
        let mut hostile = post(5, 2, r#""><script>alert(1)</script>"#, "<b>hi</b> @ada");
        hostile.entities = murmur_domain::posts::entities::parse("<b>hi</b> @ada")
            .entities("<b>hi</b> @ada", &[("ada".to_string(), 2)].into());
        let html = card(&hostile, 1, now(), true, &built).expect("a card");
        assert!(html.starts_with(r#"<article aria-labelledby="post-5-author""#), "{html}");
        assert!(!html.contains("<script>") && !html.contains("<b>"), "{html}");
        assert!(html.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</a>"), "{html}");
        assert!(html.contains("&lt;b&gt;hi&lt;/b&gt; <a href=\"/profile/ada\""), "{html}");
        assert!(html.contains(">3 hours ago</time>") && html.contains("aria-label=\"Like (3)\""), "{html}");
    }

    #[test]
    fn times_read_as_intl_relative_time_format_writes_them() {
        let now = DateTime::parse_from_rfc3339("2026-11-24T12:00:00Z").unwrap().timestamp_millis();
        for (iso, expected) in [
            ("2026-11-24T11:59:31Z", "just now"),
            ("2026-11-24T11:59:00Z", "1 minute ago"),
            ("2026-11-24T11:55:00Z", "5 minutes ago"),
            ("2026-11-24T11:00:00Z", "1 hour ago"),
            ("2026-11-24T09:00:00Z", "3 hours ago"),
            ("2026-11-23T11:00:00Z", "yesterday"),
            ("2026-11-21T12:00:00Z", "3 days ago"),
            ("2026-11-17T12:00:00Z", "last week"),
            ("2026-11-03T12:00:00Z", "3 weeks ago"),
            ("2026-10-20T12:00:00Z", "last month"),
            ("2025-11-20T12:00:00Z", "last year"),
            ("2024-11-20T12:00:00Z", "2 years ago"),
            ("2026-11-24T12:05:00Z", "in 5 minutes"),
            ("not a date", "just now"),
        ] {
            assert_eq!(relative_time(iso, now), expected, "{iso}");
        }
    }

    #[test]
    fn an_initial_is_the_first_letter_in_capitals() {
        assert_eq!(initial("  élan"), "É");
        assert_eq!(initial("   "), "?");
    }
}
