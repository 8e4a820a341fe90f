//! Murmur: an invite-only microblog. The binary is thin; everything lives here so that tests
//! start the real application (see `app::Application`).

pub mod accounts;
pub mod api;
pub mod app;
pub mod cli;
pub mod clock;
pub mod config;
pub mod db;
pub mod discovery;
pub mod error;
pub mod exports;
pub mod feeds;
pub mod follows;
pub mod health;
pub mod html;
pub mod invites;
pub mod jobs;
pub mod live;
pub mod mail;
pub mod media;
pub mod metrics;
pub mod moderation;
pub mod notifications;
pub mod openapi;
pub mod posts;
pub mod rate_limit;
pub mod request_id;
pub mod safety;
pub mod secrets;
pub mod security;
pub mod seed;
pub mod state;
pub mod text;
pub mod users;
pub mod waitlist;
pub mod wake;
pub mod web;

pub use app::Application;
pub use config::Config;
pub use error::{Error, Result};
pub use state::AppState;
