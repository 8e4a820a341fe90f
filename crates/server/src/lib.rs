//! Murmur's HTTP layer: the JSON API over the product (`murmur_domain`) and the Mastodon client
//! API beside it (`mastodon`), their extractors and error answers, the state that composes the areas, the router and the server's life cycle,
//! the background jobs, and the web app it serves.

pub mod api;
pub mod app;
pub mod client_ip;
pub mod error;
pub mod extract;
pub mod health;
pub mod http;
pub mod jobs;
pub mod link_cards;
pub mod live;
pub mod mastodon;
pub mod metrics;
pub mod openapi;
pub mod outbound;
pub mod push;
pub mod request_id;
pub mod routes;
pub mod security;
pub mod session_cookie;
pub mod state;
pub mod user_agent;
pub mod web;

pub use app::Application;
pub use state::AppState;
