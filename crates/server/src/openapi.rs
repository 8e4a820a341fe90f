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
        (name = "accounts"), (name = "waitlist"), (name = "invites"), (name = "posts"), (name = "feeds"), (name = "lists"), (name = "messages"),
        (name = "users"), (name = "follows"), (name = "notifications"), (name = "media"), (name = "safety"),
        (name = "moderation"), (name = "discovery"), (name = "live"), (name = "account"), (name = "apps"), (name = "push"),
    )
)]
struct ApiDoc;

pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// Completes the document once every area's paths are in: each operation also documents the
/// error answer every call may give (`default`: `{"message"}` with a 4xx or 5xx status), so
/// the document states the one error shape in one place instead of in every handler.
pub fn finish(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let error = ResponseBuilder::new()
        .description("Any error: a 4xx status for a request that cannot be served as sent, 503 while a dependency is down, 500 otherwise; the message says what is wrong.")
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build(),
        )
        .build();
    for item in doc.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
            &mut item.head,
            &mut item.options,
            &mut item.trace,
        ];
        for operation in operations.into_iter().flatten() {
            operation.responses.responses.entry("default".to_string()).or_insert_with(|| RefOr::T(error.clone()));
        }
    }
    doc
}
