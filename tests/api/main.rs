//! API integration tests: one binary, one module per area. Each test runs on SQLite and on
//! PostgreSQL (see `common`).

mod common;
mod fixtures;
mod mailbox;
mod smtp;

mod account_deletion;
mod accounts;
mod alt_text;
mod authorization;
mod bookmarks;
mod concurrency;
mod data_export;
mod discovery;
mod edits;
mod email_change;
mod feeds;
mod first_hour;
mod follows;
mod foundation;
mod hostile_text;
mod invites;
mod layers;
mod live;
mod mastodon;
mod mastodon_clients;
mod media;
mod media_cleanup;
mod metrics;
mod moderation;
mod names_and_text;
mod notifications;
mod operator;
mod posts;
mod processes;
mod proxy;
mod reliability;
mod safety;
mod schema_history;
mod seed;
mod sessions;
mod timeline;
mod transfer;
mod users;
mod waitlist;
mod web;
