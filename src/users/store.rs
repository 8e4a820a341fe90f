//! Queries about members.

use sqlx::AnyPool;

use super::model::UserRow;
use crate::user_columns;
use crate::error::Result;

pub async fn find_by_id(pool: &AnyPool, id: i64) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1");
    Ok(sqlx::query_as(SQL).bind(id).fetch_optional(pool).await?)
}

pub async fn find_by_username(pool: &AnyPool, username: &str) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE username = $1");
    Ok(sqlx::query_as(SQL)
        .bind(username.to_lowercase())
        .fetch_optional(pool)
        .await?)
}

pub async fn find_by_email(pool: &AnyPool, email: &str) -> Result<Option<UserRow>> {
    const SQL: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE email = $1");
    Ok(sqlx::query_as(SQL).bind(email).fetch_optional(pool).await?)
}
