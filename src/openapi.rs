//! The OpenAPI document, generated from the handlers' `#[utoipa::path]` annotations and served
//! at `GET /api/openapi.json`. Each area's `router()` adds its paths.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Murmur API",
        description = "The JSON API of Murmur, the invite-only human network. Errors answer {\"message\": \"...\"}. \
                       State-changing calls need a same-origin Origin header or `X-Requested-With`.",
    ),
    components(schemas(crate::error::ErrorBody)),
    tags(
        (name = "accounts"), (name = "waitlist"), (name = "invites"), (name = "posts"), (name = "feeds"),
        (name = "users"), (name = "follows"), (name = "notifications"), (name = "media"),
    )
)]
struct ApiDoc;

pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
