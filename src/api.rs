//! Shared pieces of the HTTP API: extractors that answer in our error shape, and paging.

use axum::extract::{FromRequest, FromRequestParts};
use serde::Deserialize;

use crate::error::{Error, Result};

/// `axum::Json`, but a bad body answers `{"message"}` with 400/413/415 instead of plain text.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(Error))]
pub struct Json<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `axum::extract::Query` answering in our error shape.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(Error))]
pub struct Query<T>(pub T);

/// `axum::extract::Path` answering in our error shape.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(Error))]
pub struct Path<T>(pub T);

/// `?limit=&offset=` as sent; parsed into a `Page` by `Page::parse`.
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

/// A validated page request.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
}

pub const MAX_PAGE: i64 = 50;
pub const MAX_OFFSET: i64 = 100_000;

impl Page {
    pub fn parse(params: &PageParams, default_limit: i64, max_limit: i64) -> Result<Page> {
        let limit = params.limit.unwrap_or(default_limit);
        if !(1..=max_limit).contains(&limit) {
            return Err(Error::bad_request(format!("limit must be between 1 and {max_limit}")));
        }
        let offset = params.offset.unwrap_or(0);
        if !(0..=MAX_OFFSET).contains(&offset) {
            return Err(Error::bad_request(format!("offset must be between 0 and {MAX_OFFSET}")));
        }
        Ok(Page { limit, offset })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_defaults_and_bounds() {
        let p = Page::parse(&PageParams { limit: None, offset: None }, 20, 50).unwrap();
        assert_eq!((p.limit, p.offset), (20, 0));
        assert!(Page::parse(&PageParams { limit: Some(0), offset: None }, 20, 50).is_err());
        assert!(Page::parse(&PageParams { limit: Some(51), offset: None }, 20, 50).is_err());
        assert!(Page::parse(&PageParams { limit: Some(5), offset: Some(-1) }, 20, 50).is_err());
    }
}
