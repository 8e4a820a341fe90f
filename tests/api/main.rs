//! API integration tests: one binary, one module per area. Each test runs on SQLite and on
//! PostgreSQL (see `common`).

mod common;

mod foundation;
mod reliability;
mod seed;
