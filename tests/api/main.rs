//! API integration tests: one binary, one module per area. Each test runs on SQLite and on
//! PostgreSQL (see `common`).

mod common;

mod feeds;
mod follows;
mod foundation;
mod media;
mod notifications;
mod posts;
mod processes;
mod reliability;
mod users;
