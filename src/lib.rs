//! Murmur: an invite-only microblog. This crate is the top layer: the command line (`cli`) and
//! `murmur seed`, over the crates below (docs/architecture.md). It re-exports their modules
//! under one name, so tests and the fuzz targets say `murmur::posts`, `murmur::db`, ….

pub mod cli;
pub mod seed;

pub use murmur_core::{Config, Error, Result};
pub use murmur_core::{clock, config, db, error, html, metrics as metric_names, page, rate_limit, secrets, text, wake};
pub use murmur_domain::{
    accounts, apps, discovery, exports, feeds, follows, invites, live, mail, media, moderation, notifications, posts,
    profiles, safety, sessions, timelines, users, visibility, waitlist,
};
pub use murmur_server::{
    AppState, Application, api, app, client_ip, extract, health, jobs, mastodon, metrics, openapi, request_id, routes,
    security, session_cookie, state, user_agent, web,
};
