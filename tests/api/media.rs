//! Media: upload URLs, the local upload endpoint and a real S3-compatible server (s3s-fs,
//! which checks signatures), the image rules, claiming, serving and the orphan cleanup.

use std::io::Cursor;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::both_databases;
use crate::common::{Backend, Member, TestApp, json};
use crate::fixtures::{jpeg_with_gps, noise_png, photo_png, png, png_bomb};

const MAX: usize = 10 * 1024 * 1024;

const SVG: &[u8] = br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>"#;

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

// ---------------------------------------------------------------------------------------------
// Helpers

pub async fn upload_url(app: &TestApp, member: &Member) -> String {
    let (status, body) = json(member.client.post(app.url("/api/objects/upload")).send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body["uploadURL"].as_str().expect("uploadURL").to_string()
}

pub fn id_of(upload_url: &str) -> String {
    let path = upload_url.split('?').next().unwrap();
    path.rsplit('/').next().unwrap().to_string()
}

pub async fn put_bytes(member: &Member, url: &str, bytes: Vec<u8>) -> (u16, Value) {
    json(member.client.put(url).header("content-type", "image/jpeg").body(bytes).send().await.unwrap()).await
}

/// Uploads an image to the local store and answers the upload URL.
pub async fn uploaded(app: &TestApp, member: &Member, bytes: Vec<u8>) -> String {
    let url = upload_url(app, member).await;
    let (status, body) = put_bytes(member, &url, bytes).await;
    assert_eq!(status, 200, "{body}");
    url
}

async fn set_avatar(app: &TestApp, member: &Member, image_url: &str) -> (u16, Value) {
    json(
        member.client.put(app.url("/api/profile-images")).json(&json!({ "imageURL": image_url })).send().await.unwrap(),
    )
    .await
}

fn media_file(app: &TestApp, key: &str) -> PathBuf {
    app.data_dir.path().join("media").join(key)
}

/// Where a display copy is stored (local store or bucket): beside `objects/`, by id and width.
pub fn variant_key(id: &str, width: u32) -> String {
    format!("variants/{id}-{width}")
}

/// GET a path; its status, headers and body.
pub async fn fetch(app: &TestApp, path: &str) -> (u16, reqwest::header::HeaderMap, bytes::Bytes) {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap())
}

/// The headers every image answer carries, copies and fallbacks alike.
fn assert_image_headers(headers: &reqwest::header::HeaderMap, content_type: &str, what: &str) {
    assert_eq!(headers["content-type"], content_type, "{what}");
    assert_eq!(headers["x-content-type-options"], "nosniff", "{what}");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable", "{what}");
    assert_eq!(headers["content-security-policy"], "default-src 'none'; sandbox", "{what}");
}

// ---------------------------------------------------------------------------------------------
// Local store

async fn an_upload_goes_from_url_to_put_to_avatar_to_served_image(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    assert!(url.starts_with(&format!("{}/api/objects/upload/", app.base)), "{url}");
    let id = id_of(&url);
    assert_eq!(id.len(), 32);

    let (status, body) = put_bytes(&ada, &url, png(40, 30)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["url"], format!("/objects/{id}"));
    // One new object per URL.
    let (status, body) = put_bytes(&ada, &url, png(10, 10)).await;
    assert_eq!(status, 409, "{body}");

    let (status, user) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["profileImageUrl"], format!("/objects/{id}"));
    assert_eq!(user["email"], "ada@example.com");

    // The path form works too, for the header image.
    let (status, user) = json(
        ada.client
            .put(app.url("/api/header-images"))
            .json(&json!({ "imageURL": format!("/objects/{id}") }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["headerImageUrl"], format!("/objects/{id}"));
    assert_eq!(user["profileImageUrl"], format!("/objects/{id}"));

    // Anyone may see it, with the headers that keep it an image.
    let response = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(headers["content-security-policy"], "default-src 'none'; sandbox");
    let bytes = response.bytes().await.unwrap();
    let served = image::load_from_memory(&bytes).unwrap();
    assert_eq!((served.width(), served.height()), (40, 30));
    assert!(media_file(&app, &format!("objects/{id}")).exists());
}

async fn upload_urls_are_for_members_only(app: TestApp) {
    let (status, body) = json(app.client.post(app.url("/api/objects/upload")).send().await.unwrap()).await;
    assert_eq!(status, 401, "{body}");
}

async fn expired_and_tampered_upload_urls_are_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let (path, query) = url.split_once('?').unwrap();
    let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    let expires: i64 = params.iter().find(|(k, _)| k == "expires").unwrap().1.parse().unwrap();
    let sig = params.iter().find(|(k, _)| k == "sig").unwrap().1.clone();

    let flipped = format!("{}{}", if sig.starts_with('A') { "B" } else { "A" }, &sig[1..]);
    for tampered in [
        format!("{path}?expires={expires}&sig={flipped}"),
        format!("{path}?expires={}&sig={sig}", expires + 60_000),
        format!("{}?expires={expires}&sig={sig}", path.replace(&id_of(&url), &"0".repeat(32))),
        format!("{path}?expires={expires}&sig=not-base64!"),
    ] {
        let (status, body) = put_bytes(&ada, &tampered, png(4, 4)).await;
        assert_eq!(status, 403, "{tampered}: {body}");
        assert!(body["message"].as_str().unwrap().contains("not valid"), "{body}");
    }

    app.clock.advance(Duration::from_secs(16 * 60));
    let (status, body) = put_bytes(&ada, &url, png(4, 4)).await;
    assert_eq!(status, 403, "{body}");
    assert!(body["message"].as_str().unwrap().contains("expired"), "{body}");
}

async fn a_file_over_10_mib_is_refused_with_413(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let mut big = png(8, 8);
    big.resize(MAX + 1, 0);
    let (status, body) = put_bytes(&ada, &url, big.clone()).await;
    assert_eq!(status, 413, "{body}");
    assert!(body["message"].as_str().unwrap().contains("10 MiB"), "{body}");

    // Without a declared length (chunked), reading stops at the limit.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = big.chunks(256 * 1024).map(|c| Ok(c.to_vec())).collect();
    let response =
        ada.client.put(&url).body(reqwest::Body::wrap_stream(futures::stream::iter(chunks))).send().await.unwrap();
    let (status, body) = json(response).await;
    assert_eq!(status, 413, "{body}");
    assert!(!media_file(&app, &format!("objects/{}", id_of(&url))).exists());

    // Far over the limit, the server stops reading at once: a 413 or, while the client is
    // still writing, a closed connection; never a stored object.
    let mut huge = png(8, 8);
    huge.resize(MAX + 4 * 1024 * 1024, 0);
    match ada.client.put(&url).body(huge).send().await {
        Ok(response) => assert_eq!(response.status(), 413),
        Err(e) => assert!(e.is_request() || e.is_body(), "{e:?}"),
    }

    // Exactly 10 MiB is not too large (it is refused for not being an image, not for size).
    let mut exact = b"just text".to_vec();
    exact.resize(MAX, b' ');
    let (status, body) = put_bytes(&ada, &url, exact).await;
    assert_eq!(status, 400, "{body}");
}

async fn a_text_file_named_jpg_and_an_svg_are_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let text = ada
        .client
        .put(&url)
        .header("content-type", "image/jpeg")
        .header("content-disposition", "attachment; filename=\"cat.jpg\"")
        .body("this is not a picture of a cat")
        .send()
        .await
        .unwrap();
    let (status, body) = json(text).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["message"], "Only JPEG, PNG, GIF and WebP images can be uploaded");

    let svg = ada.client.put(&url).header("content-type", "image/svg+xml").body(SVG).send().await.unwrap();
    let (status, body) = json(svg).await;
    assert_eq!(status, 400, "{body}");

    // Nothing was kept: the upload is still pending, so it cannot be used.
    let (status, body) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 400, "{body}");
    assert!(!media_file(&app, &format!("objects/{}", id_of(&url))).exists());
    // And the same URL still takes a real image.
    let (status, body) = put_bytes(&ada, &url, png(4, 4)).await;
    assert_eq!(status, 200, "{body}");
}

async fn a_png_bomb_is_refused_at_once(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let bomb = png_bomb();
    assert!(bomb.len() < 200);
    assert_eq!(
        image::ImageReader::new(Cursor::new(&bomb)).with_guessed_format().unwrap().into_dimensions().unwrap(),
        (20_000, 20_000)
    );
    let started = Instant::now();
    let (status, body) = put_bytes(&ada, &url, bomb).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("40 megapixels"), "{body}");
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
}

async fn gps_exif_is_stripped_from_jpegs(app: TestApp) {
    let ada = app.member("ada").await;
    let original = jpeg_with_gps();
    assert!(contains(&original, b"Exif"));
    assert!(image::load_from_memory(&original).is_ok(), "the test JPEG is valid");
    let url = uploaded(&app, &ada, original).await;
    let id = id_of(&url);
    let response = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/jpeg");
    let served = response.bytes().await.unwrap();
    assert!(!contains(&served, b"Exif"), "EXIF survived");
    assert!(!contains(&served, &52u32.to_le_bytes()[..]) || !contains(&served, b"N\0\0\0"));
    let stored = std::fs::read(media_file(&app, &format!("objects/{id}"))).unwrap();
    assert!(!contains(&stored, b"Exif"));
    let decoded = image::load_from_memory(&served).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (48, 32));
    for size in murmur::media::VARIANT_WIDTHS {
        let (status, _, copy) = fetch(&app, &format!("/objects/{id}/{size}")).await;
        assert_eq!(status, 200);
        assert!(!contains(&copy, b"Exif"), "EXIF in the {size} px copy");
    }
}

async fn someone_elses_upload_cannot_be_claimed(app: TestApp) {
    let ada = app.member("ada").await;
    let bob = app.member("bob").await;
    let url = uploaded(&app, &ada, png(6, 6)).await;
    let id = id_of(&url);
    for attempt in [url.clone(), format!("/objects/{id}"), app.url(&format!("/objects/{id}"))] {
        let (status, body) = set_avatar(&app, &bob, &attempt).await;
        assert_eq!(status, 400, "{attempt}: {body}");
        assert_eq!(body["message"], "Image URL is not an upload of yours");
    }
    // Ada can.
    let (status, body) = set_avatar(&app, &ada, &app.url(&format!("/objects/{id}"))).await;
    assert_eq!(status, 200, "{body}");
}

async fn foreign_and_malformed_urls_are_refused(app: TestApp) {
    let ada = app.member("ada").await;
    let url = uploaded(&app, &ada, png(6, 6)).await;
    let id = id_of(&url);
    for foreign in [
        "https://evil.example/cat.jpg".to_string(),
        format!("https://evil.example/objects/{id}"),
        format!("https://evil.example/api/objects/upload/{id}"),
        format!("//evil.example/objects/{id}"),
        format!("{}0/objects/{id}", app.base),
        format!("/objects/../objects/{id}"),
        format!("/objects/{}", id.to_uppercase()),
        "javascript:alert(1)".to_string(),
        "data:image/png;base64,AAAA".to_string(),
        String::new(),
        "x".repeat(5000),
    ] {
        let (status, body) = set_avatar(&app, &ada, &foreign).await;
        assert_eq!(status, 400, "{foreign}: {body}");
    }
    let (status, body) =
        json(ada.client.put(app.url("/api/profile-images")).json(&json!({ "imageURL": 5 })).send().await.unwrap())
            .await;
    assert_eq!(status, 400, "{body}");
}

async fn an_upload_not_yet_received_cannot_be_claimed(app: TestApp) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let (status, body) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("not finished"), "{body}");
}

async fn claim_takes_at_most_four_images(app: TestApp) {
    let ada = app.member("ada").await;
    let mut urls = Vec::new();
    for _ in 0..5 {
        urls.push(uploaded(&app, &ada, png(3, 3)).await);
    }
    let now = app.clock.now();
    let mut conn = app.state.db.write.acquire().await.unwrap();
    let refused = murmur::media::claim(&app.state.media, &mut conn, ada.id, &urls, now).await;
    assert!(matches!(refused, Err(murmur::Error::BadRequest(_))), "{refused:?}");
    // Four are fine, by their path form.
    let paths: Vec<String> = urls[..4].iter().map(|u| format!("/objects/{}", id_of(u))).collect();
    let ids = murmur::media::claim(&app.state.media, &mut conn, ada.id, &paths, now).await.unwrap();
    assert_eq!(ids.len(), 4);
    assert_eq!(murmur::media::object_path(&ids[0]), paths[0]);
    // The fifth, by the upload URL the server handed out.
    let fifth = murmur::media::claim(&app.state.media, &mut conn, ada.id, &[urls[4].clone()], now).await.unwrap();
    assert_eq!(fifth, vec![id_of(&urls[4])]);
}

async fn unknown_and_pending_images_are_404(app: TestApp) {
    let ada = app.member("ada").await;
    let pending = id_of(&upload_url(&app, &ada).await);
    for path in [
        format!("/objects/{pending}"),
        format!("/objects/{}", "f".repeat(32)),
        "/objects/..%2Fsecret".to_string(),
        "/objects/x".to_string(),
    ] {
        let (status, body) = json(app.client.get(app.url(&path)).send().await.unwrap()).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["message"], "Image not found");
    }
    let (status, _) = json(
        ada.client
            .put(app.url(&format!("/api/objects/upload/{}?expires=1&sig=x", "f".repeat(32))))
            .body("x")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403);
}

async fn uploads_are_rate_limited_per_member(app: TestApp) {
    let ada = app.member("ada").await;
    for _ in 0..30 {
        upload_url(&app, &ada).await;
    }
    let response = ada.client.post(app.url("/api/objects/upload")).send().await.unwrap();
    assert!(response.headers().contains_key("retry-after"));
    let (status, body) = json(response).await;
    assert_eq!(status, 429, "{body}");
    // Someone else is not affected.
    let bob = app.member("bob").await;
    upload_url(&app, &bob).await;
}

async fn orphans_are_removed_after_a_day_and_attached_images_kept(app: TestApp) {
    let ada = app.member("ada").await;
    let kept = id_of(&uploaded(&app, &ada, photo_png(800, 500)).await);
    let orphan = id_of(&uploaded(&app, &ada, photo_png(800, 500)).await);
    let never_sent = id_of(&upload_url(&app, &ada).await);
    for id in [&kept, &orphan] {
        for size in murmur::media::VARIANT_WIDTHS {
            assert!(media_file(&app, &variant_key(id, size)).exists(), "{id} has its {size} px copy");
        }
    }
    let (status, body) = set_avatar(&app, &ada, &format!("/objects/{kept}")).await;
    assert_eq!(status, 200, "{body}");

    app.clock.advance(Duration::from_secs(23 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 0);
    app.clock.advance(Duration::from_secs(2 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 2);

    let gone = app.client.get(app.url(&format!("/objects/{orphan}"))).send().await.unwrap();
    assert_eq!(gone.status(), 404);
    assert!(!media_file(&app, &format!("objects/{orphan}")).exists());
    let here = app.client.get(app.url(&format!("/objects/{kept}"))).send().await.unwrap();
    assert_eq!(here.status(), 200);
    assert!(media_file(&app, &format!("objects/{kept}")).exists());
    // The display copies go with their image, and only with it.
    for size in murmur::media::VARIANT_WIDTHS {
        assert!(!media_file(&app, &variant_key(&orphan, size)).exists(), "the orphan's {size} px copy is left");
        assert_eq!(fetch(&app, &format!("/objects/{orphan}/{size}")).await.0, 404);
        assert!(media_file(&app, &variant_key(&kept, size)).exists(), "the kept image's {size} px copy is gone");
        assert_eq!(fetch(&app, &format!("/objects/{kept}/{size}")).await.0, 200);
    }
    let rows: i64 = sqlx::query_scalar("SELECT CAST(COUNT(*) AS BIGINT) FROM media WHERE id IN ($1, $2)")
        .bind(&orphan)
        .bind(&never_sent)
        .fetch_one(&app.state.db.read)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    // The whole upkeep round runs too (sessions and counters).
    murmur::jobs::upkeep(&app.state.db, &app.state.media, app.state.clock.now()).await.unwrap();
}

async fn animated_gifs_keep_their_frames(app: TestApp) {
    let ada = app.member("ada").await;
    let mut gif_bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut gif_bytes, 8, 8, &[0, 0, 0, 255, 0, 0]).unwrap();
        encoder.set_repeat(gif::Repeat::Infinite).unwrap();
        for i in 0..4u8 {
            let frame =
                gif::Frame { width: 8, height: 8, buffer: vec![i % 2; 64].into(), delay: 5, ..Default::default() };
            encoder.write_frame(&frame).unwrap();
        }
    }
    let id = id_of(&uploaded(&app, &ada, gif_bytes).await);
    let response = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
    assert_eq!(response.headers()["content-type"], "image/gif");
    let bytes = response.bytes().await.unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(Cursor::new(&bytes[..])).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 4);
}

async fn a_large_photo_gets_smaller_display_copies_with_the_same_headers(app: TestApp) {
    let ada = app.member("ada").await;
    let (width, height) = (1600, 1000);
    let id = id_of(&uploaded(&app, &ada, photo_png(width, height)).await);
    let (status, headers, original) = fetch(&app, &format!("/objects/{id}")).await;
    assert_eq!(status, 200);
    assert_image_headers(&headers, "image/png", "the image");
    assert_eq!(image::load_from_memory(&original).unwrap().width(), width, "the image itself is not resized");

    for size in murmur::media::VARIANT_WIDTHS {
        let what = format!("the {size} px copy");
        let (status, headers, bytes) = fetch(&app, &format!("/objects/{id}/{size}")).await;
        assert_eq!(status, 200, "{what}");
        assert_image_headers(&headers, "image/webp", &what);
        assert_eq!(image::guess_format(&bytes).unwrap(), image::ImageFormat::WebP, "{what}");
        let copy = image::load_from_memory(&bytes).unwrap();
        assert!(copy.width() <= size, "{what} is {} px wide", copy.width());
        assert_eq!(copy.width(), size.min(width), "{what}: scaled to the width, not below");
        assert_eq!(
            u64::from(copy.height()) * u64::from(width),
            u64::from(height) * u64::from(copy.width()),
            "{what} keeps the shape"
        );
        assert!(bytes.len() * 2 < original.len(), "{what}: {} B against the image's {} B", bytes.len(), original.len());
        assert!(media_file(&app, &variant_key(&id, size)).exists(), "{what} is stored");
    }
    // The phone-sized copy is a fraction of the image: what the feed saves.
    let (_, _, small) = fetch(&app, &format!("/objects/{id}/640")).await;
    assert!(small.len() * 5 < original.len(), "{} B against {} B", small.len(), original.len());
}

async fn a_known_image_without_a_copy_answers_itself(app: TestApp) {
    let ada = app.member("ada").await;
    // Animated: copies would lose the animation.
    let mut gif_bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut gif_bytes, 700, 10, &[0, 0, 0, 255, 0, 0]).unwrap();
        encoder.set_repeat(gif::Repeat::Infinite).unwrap();
        for i in 0..2u8 {
            let frame =
                gif::Frame { width: 700, height: 10, buffer: vec![i % 2; 7000].into(), delay: 5, ..Default::default() };
            encoder.write_frame(&frame).unwrap();
        }
    }
    let gif = id_of(&uploaded(&app, &ada, gif_bytes).await);
    // Made before copies existed: simulated by removing its copies from the store.
    let older = id_of(&uploaded(&app, &ada, photo_png(900, 600)).await);
    for size in murmur::media::VARIANT_WIDTHS {
        let file = media_file(&app, &variant_key(&older, size));
        assert!(file.exists(), "{}", file.display());
        std::fs::remove_file(file).unwrap();
    }
    // Narrower than every copy (so each would be at its own width) and smaller as a PNG.
    let noise = id_of(&uploaded(&app, &ada, noise_png(300, 200)).await);
    assert!(!media_file(&app, &variant_key(&noise, 320)).exists());

    for (id, content_type) in [(&gif, "image/gif"), (&older, "image/png"), (&noise, "image/png")] {
        let (_, _, original) = fetch(&app, &format!("/objects/{id}")).await;
        for size in murmur::media::VARIANT_WIDTHS {
            let (status, headers, bytes) = fetch(&app, &format!("/objects/{id}/{size}")).await;
            let what = format!("{content_type} {id} at {size}");
            assert_eq!(status, 200, "{what}");
            assert_image_headers(&headers, content_type, &what);
            assert_eq!(bytes, original, "{what} answers the image itself");
        }
    }
}

async fn only_the_listed_widths_are_served(app: TestApp) {
    let ada = app.member("ada").await;
    let id = id_of(&uploaded(&app, &ada, photo_png(900, 600)).await);
    for width in ["641", "0", "-640", "abc", "640.0", "99999999999999999999", "640x", "%20640"] {
        let (status, body) =
            json(app.client.get(app.url(&format!("/objects/{id}/{width}"))).send().await.unwrap()).await;
        assert_eq!(status, 400, "{width}: {body}");
        assert!(body["message"].as_str().unwrap().contains("640"), "{body}");
    }
    // Unknown, pending and malformed images stay 404, whatever the width.
    let pending = id_of(&upload_url(&app, &ada).await);
    for path in
        [format!("/objects/{pending}/640"), format!("/objects/{}/640", "f".repeat(32)), "/objects/x/640".to_string()]
    {
        let (status, body) = json(app.client.get(app.url(&path)).send().await.unwrap()).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["message"], "Image not found");
    }
}

async fn the_openapi_document_lists_the_media_calls(app: TestApp) {
    let (status, doc) = json(app.client.get(app.url("/api/openapi.json")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    for path in ["/api/objects/upload", "/api/objects/upload/{id}", "/api/profile-images", "/api/header-images"] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
}

both_databases!(
    an_upload_goes_from_url_to_put_to_avatar_to_served_image,
    upload_urls_are_for_members_only,
    expired_and_tampered_upload_urls_are_refused,
    a_file_over_10_mib_is_refused_with_413,
    a_text_file_named_jpg_and_an_svg_are_refused,
    a_png_bomb_is_refused_at_once,
    gps_exif_is_stripped_from_jpegs,
    someone_elses_upload_cannot_be_claimed,
    foreign_and_malformed_urls_are_refused,
    an_upload_not_yet_received_cannot_be_claimed,
    claim_takes_at_most_four_images,
    unknown_and_pending_images_are_404,
    uploads_are_rate_limited_per_member,
    orphans_are_removed_after_a_day_and_attached_images_kept,
    animated_gifs_keep_their_frames,
    a_large_photo_gets_smaller_display_copies_with_the_same_headers,
    a_known_image_without_a_copy_answers_itself,
    only_the_listed_widths_are_served,
    the_openapi_document_lists_the_media_calls,
);

// ---------------------------------------------------------------------------------------------
// S3: a real S3-compatible server that checks signatures (s3s-fs), one per test

const ACCESS_KEY: &str = "murmur-test-access";
const SECRET_KEY: &str = "murmur-test-secret-key-0123456789";

pub struct S3sFs {
    child: Child,
    pub endpoint: String,
    pub root: tempfile::TempDir,
}

impl S3sFs {
    /// Starts s3s-fs on a free port with a bucket named `bucket`; None (test skipped) when the
    /// binary is missing, unless MURMUR_REQUIRE_SERVICES=1.
    pub fn start() -> Option<S3sFs> {
        let binary = std::env::var("MURMUR_TEST_S3S_FS").map(PathBuf::from).unwrap_or_else(|_| {
            PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/murmur/test-services/bin/s3s-fs")
        });
        if !binary.exists() {
            let hint = "install it with `cargo install --locked --root $HOME/.cache/murmur/test-services s3s-fs@0.14.1 --features binary`";
            if std::env::var("MURMUR_REQUIRE_SERVICES").as_deref() == Ok("1") {
                panic!("MURMUR_REQUIRE_SERVICES=1 but s3s-fs is missing at {}; {hint}", binary.display());
            }
            eprintln!("skipped: S3 test (s3s-fs not found at {}; {hint})", binary.display());
            return None;
        }
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("bucket")).unwrap();
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = probe.local_addr().unwrap().port();
        drop(probe);
        let child = Command::new(&binary)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--access-key", ACCESS_KEY, "--secret-key", SECRET_KEY])
            .arg(root.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("s3s-fs starts");
        let server = S3sFs { child, endpoint: format!("http://127.0.0.1:{port}"), root };
        let deadline = Instant::now() + Duration::from_secs(15);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "s3s-fs did not start listening");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(server)
    }

    pub fn key_path(&self, key: &str) -> PathBuf {
        self.root.path().join("bucket").join(key)
    }
}

impl Drop for S3sFs {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn spawn_on_s3(backend: Backend, s3: &S3sFs) -> Option<TestApp> {
    let endpoint = s3.endpoint.clone();
    TestApp::spawn_with(backend, move |c| {
        c.storage_url = Some("s3://bucket".into());
        c.s3 = murmur::media::S3Settings {
            endpoint: Some(endpoint),
            region: Some("us-east-1".into()),
            access_key_id: Some(ACCESS_KEY.into()),
            secret_access_key: Some(SECRET_KEY.into()),
        };
    })
    .await
}

/// Like `both_databases!`, with the app storing media in a fresh s3s-fs bucket:
/// runs `async fn name(app: TestApp, s3: S3sFs)`.
macro_rules! both_databases_on_s3 {
    ($($name:ident),+ $(,)?) => {$(
        mod $name {
            use crate::common::Backend;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let Some(s3) = super::S3sFs::start() else { return };
                let app = super::spawn_on_s3(Backend::Sqlite, &s3).await.expect("SQLite is always available");
                super::$name(app, s3).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(s3) = super::S3sFs::start() else { return };
                if let Some(app) = super::spawn_on_s3(Backend::Postgres, &s3).await {
                    super::$name(app, s3).await;
                }
            }
        }
    )+};
}

/// The browser's PUT to the bucket: no cookies, no Origin of ours.
async fn put_to_bucket(url: &str, bytes: Vec<u8>) -> (u16, String) {
    let response = reqwest::Client::new().put(url).body(bytes).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap_or_default())
}

async fn bucket_upload(app: &TestApp, member: &Member, s3: &S3sFs, bytes: Vec<u8>) -> String {
    let url = upload_url(app, member).await;
    assert!(url.starts_with(&format!("{}/bucket/uploads/", s3.endpoint)), "{url}");
    assert!(url.contains("X-Amz-Signature="), "{url}");
    let (status, body) = put_to_bucket(&url, bytes).await;
    assert_eq!(status, 200, "{body}");
    url
}

async fn s3_round_trip_checks_and_cleans_the_image_on_claim(app: TestApp, s3: S3sFs) {
    let ada = app.member("ada").await;
    let url = bucket_upload(&app, &ada, &s3, jpeg_with_gps()).await;
    let id = id_of(&url);
    assert!(s3.key_path(&format!("uploads/{id}")).exists());
    assert_eq!(app.state.media.external_origin().as_deref(), Some(s3.endpoint.as_str()));
    // The instance's CSP lets the browser talk to the bucket.
    let page = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert!(page.headers()["content-security-policy"].to_str().unwrap().contains(&s3.endpoint));

    // Not served before it is checked.
    let early = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
    assert_eq!(early.status(), 404);

    let (status, user) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 200, "{user}");
    assert_eq!(user["profileImageUrl"], format!("/objects/{id}"));
    // The original, metadata and all, is gone from the bucket; the clean copy is there.
    assert!(!s3.key_path(&format!("uploads/{id}")).exists());
    assert!(s3.key_path(&format!("objects/{id}")).exists());

    let response = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/jpeg");
    assert_eq!(response.headers()["content-security-policy"], "default-src 'none'; sandbox");
    let bytes = response.bytes().await.unwrap();
    assert!(!contains(&bytes, b"Exif"));
    assert!(image::load_from_memory(&bytes).is_ok());

    // Claimed again (now ready) by path: fine; by someone else: refused.
    let (status, body) = set_avatar(&app, &ada, &format!("/objects/{id}")).await;
    assert_eq!(status, 200, "{body}");
    let bob = app.member("bob").await;
    let (status, body) = set_avatar(&app, &bob, &url).await;
    assert_eq!(status, 400, "{body}");
}

async fn s3_refuses_tampered_and_expired_signatures(app: TestApp, s3: S3sFs) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let mut parsed = url::Url::parse(&url).unwrap();
    let pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
    let tamper = |name: &str, f: &dyn Fn(&str) -> String| {
        let mut u = parsed.clone();
        u.query_pairs_mut()
            .clear()
            .extend_pairs(pairs.iter().map(|(k, v)| (k.clone(), if k == name { f(v) } else { v.clone() })));
        u.to_string()
    };
    let bad_signature =
        tamper("X-Amz-Signature", &|v| format!("{}{}", if v.starts_with('0') { "1" } else { "0" }, &v[1..]));
    let longer = tamper("X-Amz-Expires", &|_| "604800".to_string());
    for attempt in [bad_signature, longer] {
        let (status, body) = put_to_bucket(&attempt, png(4, 4)).await;
        assert_eq!(status, 403, "{attempt}: {body}");
    }
    // Another key than the one signed.
    parsed.set_path(&parsed.path().replace(&id_of(&url), &"0".repeat(32)));
    let (status, body) = put_to_bucket(parsed.as_str(), png(4, 4)).await;
    assert_eq!(status, 403, "{body}");
    assert!(!s3.key_path(&format!("uploads/{}", id_of(&url))).exists());

    // Expired: the same kind of URL, signed to last one second.
    use object_store::signer::Signer as _;
    let signer = object_store::aws::AmazonS3Builder::new()
        .with_bucket_name("bucket")
        .with_region("us-east-1")
        .with_endpoint(&s3.endpoint)
        .with_allow_http(true)
        .with_access_key_id(ACCESS_KEY)
        .with_secret_access_key(SECRET_KEY)
        .build()
        .unwrap();
    let short = signer
        .signed_url(
            object_store::signer::Method::PUT,
            &object_store::path::Path::from(format!("uploads/{}", id_of(&url))),
            Duration::from_secs(1),
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (status, body) = put_to_bucket(short.as_str(), png(4, 4)).await;
    assert_eq!(status, 403, "{body}");
    // The genuine URL still works.
    let (status, body) = put_to_bucket(&url, png(4, 4)).await;
    assert_eq!(status, 200, "{body}");
}

async fn s3_refuses_non_images_bombs_and_oversized_files_on_claim(app: TestApp, s3: S3sFs) {
    let ada = app.member("ada").await;
    let mut big = png(8, 8);
    big.resize(MAX + 1, 0);
    for (bytes, expected) in
        [(b"this is not a picture of a cat".to_vec(), 400), (SVG.to_vec(), 400), (png_bomb(), 400), (big, 413)]
    {
        let url = bucket_upload(&app, &ada, &s3, bytes).await;
        let id = id_of(&url);
        let started = Instant::now();
        let (status, body) = set_avatar(&app, &ada, &url).await;
        assert_eq!(status, expected, "{body}");
        assert!(body["message"].is_string(), "{body}");
        assert!(started.elapsed() < Duration::from_secs(5));
        // What was refused does not stay in the bucket, and nothing is served.
        assert!(!s3.key_path(&format!("uploads/{id}")).exists());
        assert!(!s3.key_path(&format!("objects/{id}")).exists());
        let served = app.client.get(app.url(&format!("/objects/{id}"))).send().await.unwrap();
        assert_eq!(served.status(), 404);
    }
    let (_, user) = json(ada.client.get(app.url("/api/auth/user")).send().await.unwrap()).await;
    assert!(user.get("profileImageUrl").is_none_or(|v| v.is_null()), "{user}");
}

async fn s3_upload_never_sent_cannot_be_claimed(app: TestApp, _s3: S3sFs) {
    let ada = app.member("ada").await;
    let url = upload_url(&app, &ada).await;
    let (status, body) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("not finished"), "{body}");
    let (status, body) = set_avatar(&app, &ada, "http://127.0.0.1:1/bucket/uploads/0123").await;
    assert_eq!(status, 400, "{body}");
}

async fn s3_orphans_are_removed_from_the_bucket(app: TestApp, s3: S3sFs) {
    let ada = app.member("ada").await;
    let kept_url = bucket_upload(&app, &ada, &s3, png(5, 5)).await;
    let kept = id_of(&kept_url);
    let orphan = id_of(&bucket_upload(&app, &ada, &s3, png(5, 5)).await);
    // The bucket URL without its signature names the upload as well.
    let (status, body) = set_avatar(&app, &ada, &format!("{}/bucket/uploads/{kept}", s3.endpoint)).await;
    assert_eq!(status, 200, "{body}");
    // A second PUT with the still valid URL leaves an unchecked original behind...
    let (status, body) = put_to_bucket(&kept_url, jpeg_with_gps()).await;
    assert_eq!(status, 200, "{body}");
    assert!(s3.key_path(&format!("uploads/{kept}")).exists());

    app.clock.advance(Duration::from_secs(25 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 1);
    // ...which the cleanup removes, keeping the checked image.
    assert!(!s3.key_path(&format!("uploads/{kept}")).exists());
    assert!(!s3.key_path(&format!("uploads/{orphan}")).exists());
    assert!(s3.key_path(&format!("objects/{kept}")).exists());
    let here = app.client.get(app.url(&format!("/objects/{kept}"))).send().await.unwrap();
    assert_eq!(here.status(), 200);
}

async fn s3_display_copies_live_in_the_bucket_and_go_with_their_image(app: TestApp, s3: S3sFs) {
    let ada = app.member("ada").await;
    let (width, height) = (1280, 720);
    let url = bucket_upload(&app, &ada, &s3, photo_png(width, height)).await;
    let id = id_of(&url);
    let (status, body) = set_avatar(&app, &ada, &url).await;
    assert_eq!(status, 200, "{body}");
    let (status, headers, original) = fetch(&app, &format!("/objects/{id}")).await;
    assert_eq!(status, 200);
    assert_image_headers(&headers, "image/png", "the image");
    for size in murmur::media::VARIANT_WIDTHS {
        assert!(s3.key_path(&variant_key(&id, size)).exists(), "{size} px copy in the bucket");
        let (status, headers, bytes) = fetch(&app, &format!("/objects/{id}/{size}")).await;
        assert_eq!(status, 200);
        assert_image_headers(&headers, "image/webp", &format!("the {size} px copy"));
        assert_eq!(image::load_from_memory(&bytes).unwrap().width(), size.min(width));
        assert!(bytes.len() < original.len(), "{size}: {} B against {} B", bytes.len(), original.len());
    }

    // Replaced as avatar and a day old: the cleanup removes image and copies from the bucket.
    let other = id_of(&bucket_upload(&app, &ada, &s3, png(5, 5)).await);
    let (status, body) = set_avatar(&app, &ada, &format!("/objects/{other}")).await;
    assert_eq!(status, 200, "{body}");
    app.clock.advance(Duration::from_secs(25 * 3600));
    assert_eq!(murmur::media::cleanup_orphans(&app.state.db, &app.state.media, app.clock.now()).await.unwrap(), 1);
    assert!(!s3.key_path(&format!("objects/{id}")).exists());
    for size in murmur::media::VARIANT_WIDTHS {
        assert!(!s3.key_path(&variant_key(&id, size)).exists(), "{size} px copy left in the bucket");
        assert_eq!(fetch(&app, &format!("/objects/{id}/{size}")).await.0, 404);
    }
}

both_databases_on_s3!(
    s3_display_copies_live_in_the_bucket_and_go_with_their_image,
    s3_round_trip_checks_and_cleans_the_image_on_claim,
    s3_refuses_tampered_and_expired_signatures,
    s3_refuses_non_images_bombs_and_oversized_files_on_claim,
    s3_upload_never_sent_cannot_be_claimed,
    s3_orphans_are_removed_from_the_bucket,
);
