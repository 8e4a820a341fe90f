//! Home's first Friends posts drawn as static HTML into the document's picture of Home
//! (`PREPAINT` in `web`), so that the largest thing on a member's first screen, usually the
//! first post's image, is drawn before the scripts have arrived rather than after them.
//!
//! Why a second drawing of a card: on a slow phone the scripts are ~125 KB of gzip to download
//! and run at a quarter of the speed, about 2.5 s after the document, and until then the first
//! post cannot be drawn by the app (docs/performance-web.md). The app's card is
//! web/src/features/posts/components/post-card.tsx; this draws what it draws, element for
//! element and class for class, for the first few posts of the Friends page the document
//! already carries. The app then draws its own over it and removes the picture.
//! `web/e2e/first-cards.e2e.ts` keeps the two equal: every element of each card drawn here
//! must have the tag, the attributes, the text, the colour and the box of the app's (the check
//! fails on a class or an element that differs). The post card's icons are not copied: the
//! web build renders them (`renderCardIcons` in web/src/app/prepaint.tsx).
//!
//! Only what the card needs with nothing special is drawn: the drawing stops before the first
//! post with a poll or with an image that is not an upload (the app draws those), and every
//! text a member wrote is escaped.

use std::fmt::Write;

use chrono::DateTime;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;

use crate::clock::Millis;
use crate::html::escape;
use crate::posts::Post;
use crate::posts::entities::{Entity, EntityKind};

/// How many posts the picture draws at most: more than a phone's or a desktop's first screen
/// shows (2 to 4 cards); the picture is cut at the window's edge.
pub const FIRST_CARDS: usize = 4;

/// Posts whose images load at once (`PRIORITY_POSTS` in post-list.tsx).
pub const PRIORITY_POSTS: usize = 2;

/// The `sizes` of a post's only image (`SIZES_ALONE` in post-images.tsx): the document's preload
/// and the picture's `<img>` must ask exactly what the app's will, or the browser fetches the
/// image twice.
pub const SIZES_ALONE: &str = "(min-width: 1024px) 586px, calc(100vw - 86px)";
pub const SIZES_IN_GRID: &str = "(min-width: 1024px) 291px, calc(50vw - 45px)";

/// The post card's icons as the web build renders them (`renderCardIcons` in prepaint.tsx).
#[derive(Deserialize, Default)]
pub struct Icons {
    reply: String,
    repost: String,
    like: String,
    liked: String,
    share: String,
    delete: String,
    more: String,
    reposted: String,
}

/// `actionClass` in post-card.tsx, and the same with its colour replaced (tailwind-merge keeps
/// the last of two colours).
const ACTION: &str = "inline-flex size-9 items-center justify-center rounded-full text-sm text-muted-foreground \
     transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring \
     disabled:opacity-50";
const ACTION_REPOSTED: &str = "inline-flex size-9 items-center justify-center rounded-full text-sm transition-colors \
     hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 \
     text-repost";
const ACTION_LIKED: &str = "inline-flex size-9 items-center justify-center rounded-full text-sm transition-colors \
     hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50 \
     text-like";
const ACTION_DELETE: &str = "inline-flex size-9 items-center justify-center rounded-full text-sm text-muted-foreground \
     transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring \
     disabled:opacity-50 ml-auto hover:text-destructive";
/// `Count` in post-card.tsx.
const COUNT: &str = "-ml-1 mr-2 min-w-4 text-sm tabular-nums text-muted-foreground";
const COUNT_REPOSTED: &str = "-ml-1 mr-2 min-w-4 text-sm tabular-nums text-repost";
const COUNT_LIKED: &str = "-ml-1 mr-2 min-w-4 text-sm tabular-nums text-like";

/// The first posts of `feed` as the app's cards draw them for `viewer` at `now`, or None when
/// not even the first can be drawn here.
pub fn first_cards(feed: &[Post], viewer: i64, now: Millis, icons: &Icons) -> Option<String> {
    let mut html = String::new();
    for (index, shown) in feed.iter().take(FIRST_CARDS).enumerate() {
        if !card(&mut html, shown, viewer, now, index < PRIORITY_POSTS, icons) {
            break;
        }
    }
    (!html.is_empty()).then_some(html)
}

/// Appends `shown`'s card; false, with nothing appended, when it is not one this draws.
fn card(out: &mut String, shown: &Post, viewer: i64, now: Millis, priority: bool, icons: &Icons) -> bool {
    // A repost shows the original (`post.repostOf ?? post`).
    let post = shown.repost_of.as_deref().unwrap_or(shown);
    let avatar_ok = post.author.profile_image_url.as_deref().is_none_or(is_upload);
    // Placeholders (unavailable, removed, deleted) are the app's to draw; Friends has none.
    let placeholder = shown.is_unavailable || post.is_unavailable || post.is_removed || post.is_deleted;
    if placeholder || !post.poll_options.is_empty() || !post.image_urls.iter().all(|url| is_upload(url)) || !avatar_ok {
        return false;
    }
    let _ = write!(
        out,
        r#"<article aria-labelledby="post-{}-author" class="cursor-pointer border-b border-border px-4 py-3 transition-colors hover:bg-muted/40">"#,
        shown.id
    );
    if shown.repost_of.is_some() {
        let _ = write!(
            out,
            r#"<p class="mb-1 flex items-center gap-1.5 pl-8 text-xs font-medium text-muted-foreground">{}<a href="/profile/{}" class="hover:underline">{} reposted</a></p>"#,
            icons.reposted,
            escape(&shown.author.username),
            escape(&shown.author.display_name)
        );
    }
    let username = escape(&post.author.username);
    let name = escape(&post.author.display_name);
    let _ = write!(
        out,
        r#"<div class="flex gap-3"><a href="/profile/{username}" aria-label="{name}&#39;s profile" class="shrink-0 self-start rounded-full">"#
    );
    avatar(out, &post.author.display_name, post.author.profile_image_url.as_deref());
    let _ = write!(
        out,
        r#"</a><div class="min-w-0 flex-1"><div class="flex flex-wrap items-baseline gap-x-1.5 text-sm leading-6"><a id="post-{}-author" href="/profile/{username}" class="truncate font-semibold hover:underline">{name}</a><span class="truncate text-muted-foreground">@{username}</span><span aria-hidden="true" class="text-muted-foreground">·</span><a href="/post/{}" class="text-muted-foreground hover:underline"><time datetime="{}">{}</time></a></div>"#,
        shown.id,
        post.id,
        escape(&post.created_at),
        relative_time(&post.created_at, now)
    );
    if let Some(parent) = post.reply_to_id {
        let _ = write!(
            out,
            r#"<p class="text-xs text-muted-foreground"><a href="/post/{parent}" class="inline-flex min-h-6 items-center hover:underline">Replying to a post</a></p>"#
        );
    }
    out.push_str(r#"<div class="mt-1 text-[15px]"><p class="whitespace-pre-wrap break-words">"#);
    content(out, &post.content, &post.entities);
    out.push_str("</p></div>");
    images(out, &post.image_urls, &post.author.display_name, priority);

    let (repost_class, repost_count_class, repost_label) =
        if post.is_reposted { (ACTION_REPOSTED, COUNT_REPOSTED, "Undo repost") } else { (ACTION, COUNT, "Repost") };
    let (like_class, like_count_class, like_label, like_icon) = if post.is_liked {
        (ACTION_LIKED, COUNT_LIKED, "Unlike", &icons.liked)
    } else {
        (ACTION, COUNT, "Like", &icons.like)
    };
    let _ = write!(
        out,
        r#"<div class="-ml-2 mt-2 flex flex-wrap items-center gap-0.5 sm:gap-2"><button type="button" class="{ACTION}" aria-label="Reply ({replies})">{reply}</button><span aria-hidden="true" class="{COUNT}">{replies}</span><button type="button" class="{repost_class}" aria-label="{repost_label} ({reposts})" aria-pressed="{reposted}">{repost}</button><span aria-hidden="true" class="{repost_count_class}">{reposts}</span><button type="button" class="{like_class}" aria-label="{like_label} ({likes})" aria-pressed="{liked}">{like_icon}</button><span aria-hidden="true" class="{like_count_class}">{likes}</span><button type="button" class="{ACTION}" aria-label="Share">{share}</button>"#,
        replies = post.reply_count,
        reposts = post.repost_count,
        likes = post.like_count,
        reposted = post.is_reposted,
        liked = post.is_liked,
        reply = icons.reply,
        repost = icons.repost,
        share = icons.share,
    );
    if post.author.id == viewer {
        let _ = write!(
            out,
            r#"<button type="button" class="{ACTION_DELETE}" aria-label="Delete post">{}</button>"#,
            icons.delete
        );
    } else {
        // The trigger of `MemberMenu` in post-card.tsx (mute, block, report), made on first press.
        let _ = write!(
            out,
            r#"<button type="button" class="{ACTION} ml-auto" aria-label="More actions" aria-haspopup="menu" aria-expanded="false">{}</button>"#,
            icons.more
        );
    }
    out.push_str("</div></div></div></article>");
    true
}

/// `Avatar` at 40 px (web/src/components/ui/avatar.tsx): the smallest display copy sharp at that
/// size (`variantFor`), or the name's first letter.
fn avatar(out: &mut String, name: &str, image: Option<&str>) {
    match image {
        Some(url) => {
            let _ = write!(
                out,
                r#"<img src="{}/320" alt="" width="40" height="40" class="shrink-0 rounded-full bg-muted object-cover" style="width:40px;height:40px">"#,
                escape(url)
            );
        }
        None => {
            let _ = write!(
                out,
                r#"<span aria-hidden="true" class="inline-flex shrink-0 items-center justify-center rounded-full bg-primary/15 font-semibold text-primary" style="width:40px;height:40px;font-size:16.8px">{}</span>"#,
                escape(&initial(name))
            );
        }
    }
}

/// `initial` in web/src/lib/utils.ts.
fn initial(name: &str) -> String {
    match name.trim().chars().next() {
        Some(first) => first.to_uppercase().collect(),
        None => "?".to_string(),
    }
}

/// `PostImages` (post-images.tsx): up to four, one in 3:2 or squares in a grid.
fn images(out: &mut String, urls: &[String], author: &str, priority: bool) {
    let shown = &urls[..urls.len().min(4)];
    if shown.is_empty() {
        return;
    }
    let alone = shown.len() == 1;
    out.push_str(if alone {
        r#"<div class="mt-3 grid gap-1 overflow-hidden rounded-xl border border-border">"#
    } else {
        r#"<div class="mt-3 grid gap-1 overflow-hidden rounded-xl border border-border grid-cols-2">"#
    });
    let (sizes, height, shape) =
        if alone { (SIZES_ALONE, 400, "aspect-[3/2]") } else { (SIZES_IN_GRID, 600, "aspect-square") };
    for (index, url) in shown.iter().enumerate() {
        let url = escape(url);
        let _ = write!(
            out,
            r#"<a href="{url}" target="_blank" rel="noopener noreferrer" class="block"><img src="{url}/640" srcset="{}" sizes="{sizes}" alt="Image {} of {} posted by {}" width="600" height="{height}" loading="{}" fetchpriority="{}" decoding="async" class="h-auto w-full bg-muted object-cover {shape}"></a>"#,
            src_set(&url),
            index + 1,
            shown.len(),
            escape(author),
            if priority { "eager" } else { "lazy" },
            if priority && index == 0 { "high" } else { "auto" },
        );
    }
    out.push_str("</div>");
}

/// Every display copy of an upload, as `srcset` (`variantSrcSet` in image-variants.ts).
pub fn src_set(url: &str) -> String {
    crate::media::VARIANT_WIDTHS.iter().map(|w| format!("{url}/{w} {w}w")).collect::<Vec<_>>().join(", ")
}

/// An image the server stores (`/objects/{id}`), the only kind with display copies.
pub fn is_upload(url: &str) -> bool {
    url.strip_prefix("/objects/").is_some_and(crate::media::is_media_id)
}

/// `PostContent` (post-content.tsx): the text, with the post's entities as links: a mention to
/// the profile, a hashtag to its page, a link to its address in a new tab, shown shortened.
fn content(out: &mut String, text: &str, entities: &[Entity]) {
    // Entities count UTF-16 code units (the web app's string indices); the text is UTF-8.
    let mut byte_at = Vec::with_capacity(text.len() + 1);
    for (i, c) in text.char_indices() {
        byte_at.extend(std::iter::repeat_n(i, c.len_utf16()));
    }
    byte_at.push(text.len());
    let mut last = 0;
    for entity in entities {
        let (Some(&start), Some(&end)) = (byte_at.get(entity.start), byte_at.get(entity.end)) else {
            continue;
        };
        if start < last || end <= start {
            continue;
        }
        out.push_str(&escape(&text[last..start]));
        let shown = escape(&text[start..end]);
        let _ = match entity.kind {
            EntityKind::Mention => {
                write!(out, r#"<a href="/profile/{}" class="{LINK}">{shown}</a>"#, escape(&entity.value))
            }
            EntityKind::Hashtag => write!(
                out,
                r#"<a href="/tag/{}" class="{LINK}">{shown}</a>"#,
                utf8_percent_encode(&entity.value, URI_COMPONENT)
            ),
            EntityKind::Link => write!(
                out,
                r#"<a href="{url}" target="_blank" rel="noopener noreferrer nofollow" title="{url}" class="{LINK}">{}</a>"#,
                escape(&short_url(&entity.value)),
                url = escape(&entity.value)
            ),
        };
        last = end;
    }
    out.push_str(&escape(&text[last..]));
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

/// A link's class in post text.
const LINK: &str = "font-medium text-primary hover:underline";

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

    #[test]
    fn entities_link_as_the_app_links_them() {
        let text = "🙂 @Ada likes #Café & <b> https://www.example.com/a/very/long/path/to/a/page";
        let found = crate::posts::entities::parse(text);
        let entities = found.entities(text, &["ada".to_string()].into());
        let mut out = String::new();
        content(&mut out, text, &entities);
        assert_eq!(
            out,
            format!(
                "🙂 <a href=\"/profile/ada\" class=\"{LINK}\">@Ada</a> likes <a href=\"/tag/Caf%C3%A9\" class=\"{LINK}\">#Café</a> \
                 &amp; &lt;b&gt; <a href=\"https://www.example.com/a/very/long/path/to/a/page\" target=\"_blank\" \
                 rel=\"noopener noreferrer nofollow\" title=\"https://www.example.com/a/very/long/path/to/a/page\" \
                 class=\"{LINK}\">example.com/a/very/long/path/…</a>"
            )
        );
        // Without entities, nothing is a link: the text is only escaped.
        let mut plain = String::new();
        content(&mut plain, "@ada@example.com <i>", &[]);
        assert_eq!(plain, "@ada@example.com &lt;i&gt;");
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
