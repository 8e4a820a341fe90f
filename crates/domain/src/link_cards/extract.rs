//! What a page says about itself, read from its HTML with a real parser (html5ever through
//! `scraper`): OpenGraph first, then Twitter cards, then `<title>` and `<meta name=description>`.
//! The page is a stranger's: every text is cleaned (`murmur_core::text::from_elsewhere`) and
//! bounded, and the image must be an http or https URL.

use scraper::{Html, Selector};
use url::Url;

/// A card's title, at most this many characters.
pub const TITLE_MAX_CHARS: usize = 200;
/// A card's description, at most this many characters.
pub const DESCRIPTION_MAX_CHARS: usize = 500;
/// A card's site name, at most this many characters.
pub const SITE_NAME_MAX_CHARS: usize = 100;
/// An image URL longer than this is left out.
const IMAGE_URL_MAX_CHARS: usize = 2048;

/// What a page says about itself. A page without a title makes no card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCard {
    pub title: String,
    pub description: Option<String>,
    pub site_name: Option<String>,
    /// Absolute (resolved against the page's final URL), http or https.
    pub image_url: Option<Url>,
}

/// Reads `html`, the page found at `page_url` (after redirects); None when it has no title.
pub fn page_card(html: &str, page_url: &Url) -> Option<PageCard> {
    let document = Html::parse_document(html);
    let meta = |keys: &[&str]| keys.iter().find_map(|key| meta_content(&document, key));
    let title = meta(&["og:title", "twitter:title"])
        .or_else(|| title_element(&document))
        .and_then(|t| murmur_core::text::from_elsewhere(&t, TITLE_MAX_CHARS))?;
    let description = meta(&["og:description", "twitter:description", "description"])
        .and_then(|d| murmur_core::text::from_elsewhere(&d, DESCRIPTION_MAX_CHARS));
    let site_name = meta(&["og:site_name", "application-name"])
        .and_then(|s| murmur_core::text::from_elsewhere(&s, SITE_NAME_MAX_CHARS));
    let image_url = meta(&["og:image:secure_url", "og:image", "og:image:url", "twitter:image", "twitter:image:src"])
        .and_then(|src| image_url(&src, page_url));
    Some(PageCard { title, description, site_name, image_url })
}

/// The `content` of the first `<meta>` whose `property` or `name` is `key` (case-insensitive,
/// as pages write `og:Title` too), when it says something.
fn meta_content(document: &Html, key: &str) -> Option<String> {
    let metas = Selector::parse("meta").expect("a valid selector");
    document.select(&metas).find_map(|element| {
        let value = element.value();
        let named =
            ["property", "name"].iter().any(|a| value.attr(a).is_some_and(|n| n.trim().eq_ignore_ascii_case(key)));
        let content = value.attr("content")?.trim();
        (named && !content.is_empty()).then(|| content.to_string())
    })
}

fn title_element(document: &Html) -> Option<String> {
    let title = Selector::parse("head title, title").expect("a valid selector");
    document.select(&title).next().map(|element| element.text().collect::<String>())
}

fn image_url(src: &str, page_url: &Url) -> Option<Url> {
    if src.len() > IMAGE_URL_MAX_CHARS {
        return None;
    }
    let url = page_url.join(src.trim()).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Url {
        "https://news.example/articles/1?x=1".parse().unwrap()
    }

    #[test]
    fn opengraph_comes_first_and_a_relative_image_is_resolved() {
        let html = r#"<!doctype html><html><head>
            <title>The title element</title>
            <meta name="description" content="The plain description">
            <meta property="og:title" content="The OpenGraph title">
            <meta property="og:description" content="What the article says">
            <meta property="og:site_name" content="News Example">
            <meta property="og:image" content="/images/cover.png">
            <meta name="twitter:title" content="The Twitter title">
            </head><body></body></html>"#;
        let card = page_card(html, &page()).unwrap();
        assert_eq!(card.title, "The OpenGraph title");
        assert_eq!(card.description.as_deref(), Some("What the article says"));
        assert_eq!(card.site_name.as_deref(), Some("News Example"));
        assert_eq!(card.image_url.unwrap().as_str(), "https://news.example/images/cover.png");
    }

    #[test]
    fn twitter_cards_then_the_title_element_stand_in() {
        let html = r#"<head><meta name="twitter:title" content="Tweeted title">
            <meta name="twitter:image" content="https://cdn.example/a.png"></head>"#;
        let card = page_card(html, &page()).unwrap();
        assert_eq!(card.title, "Tweeted title");
        assert_eq!(card.image_url.unwrap().as_str(), "https://cdn.example/a.png");

        let html =
            "<html><head><title>\n  Only a   title\n</title><meta name=description content='Plain'></head></html>";
        let card = page_card(html, &page()).unwrap();
        assert_eq!(
            card,
            PageCard {
                title: "Only a title".into(),
                description: Some("Plain".into()),
                site_name: None,
                image_url: None,
            }
        );
    }

    #[test]
    fn a_page_without_a_title_makes_no_card() {
        assert_eq!(page_card("<html><body><p>Hello</p></body></html>", &page()), None);
        assert_eq!(page_card("<meta property='og:title' content='   '>", &page()), None);
        assert_eq!(page_card("", &page()), None);
    }

    #[test]
    fn hostile_text_is_cleaned_and_bounded() {
        let long = "x".repeat(1000);
        let html = format!(
            "<meta property=og:title content='Pay\u{202E}gpj.exe\u{0007}'><meta property=og:description content='{long}'>"
        );
        let card = page_card(&html, &page()).unwrap();
        assert_eq!(card.title, "Paygpj.exe");
        assert_eq!(card.description.unwrap().chars().count(), DESCRIPTION_MAX_CHARS);
        // Markup in a meta's content is text, never markup.
        let card = page_card("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>", &page()).unwrap();
        assert_eq!(card.title, "<script>alert(1)</script>");
    }

    #[test]
    fn an_image_must_be_http_or_https() {
        let html = "<meta property=og:title content=T><meta property=og:image content='javascript:alert(1)'>";
        assert_eq!(page_card(html, &page()).unwrap().image_url, None);
        let html = "<meta property=og:title content=T><meta property=og:image content='data:image/png;base64,AAAA'>";
        assert_eq!(page_card(html, &page()).unwrap().image_url, None);
    }
}
