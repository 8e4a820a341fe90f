//! Murmur's foundation: what every area stands on and none of them owns. Errors, the clock,
//! settings, the database (pools, dialect, migrations, SQL helpers), secrets, text rules, rate
//! limits, paging and metric names. It names no product area and speaks no HTTP.

pub mod clock;
pub mod config;
pub mod db;
pub mod error;
pub mod html;
pub mod ids;
pub mod metrics;
pub mod page;
pub mod rate_limit;
pub mod secrets;
pub mod text;
pub mod wake;

pub use config::Config;
pub use error::{Error, Result};
