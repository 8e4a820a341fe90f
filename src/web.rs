//! The web app, built by Vite into web/dist and embedded in the binary. Every path that is not
//! an API, an object or a built file answers index.html; the app decides between its pages
//! and its 404.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/web/dist"]
#[allow_missing = true]
struct Assets;

/// Hashed build files never change under their name: cache them for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

pub async fn serve_app(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty()
        && let Some(file) = Assets::get(path)
    {
        let cache = if path.starts_with("assets/") { IMMUTABLE } else { "public, max-age=3600" };
        return file_response(path, file, cache);
    }
    match Assets::get("index.html") {
        Some(index) => file_response("index.html", index, "no-cache"),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The web app is not built. Run `npm run build` in web/ (or `make run`).",
        )
            .into_response(),
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
