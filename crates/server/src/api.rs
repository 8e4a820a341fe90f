//! Shared pieces of the HTTP API: extractors that answer in our error shape, and paging.

use axum::extract::{FromRequest, FromRequestParts};
use serde::Deserialize;

use crate::error::ApiError;
pub use murmur_core::page::{MAX_OFFSET, MAX_PAGE, Page};

/// `axum::Json`, but a bad body answers `{"message"}` with 400/413/415 instead of plain text.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `axum::extract::Query` answering in our error shape.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// `axum::extract::Path` answering in our error shape.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// `?limit=&offset=` as sent; parsed into a `Page` by `page`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    /// Page size, 1 to 50 (default 20).
    #[param(minimum = 1, maximum = 50)]
    pub limit: Option<i64>,
    /// Items to skip, 0 to 100000 (default 0).
    #[param(minimum = 0, maximum = 100000)]
    pub offset: Option<i64>,
}

impl PageParams {
    /// The page these parameters ask for, within `max_limit`.
    pub fn page(&self, default_limit: i64, max_limit: i64) -> murmur_core::Result<Page> {
        Page::parse(self.limit, self.offset, default_limit, max_limit)
    }
}
