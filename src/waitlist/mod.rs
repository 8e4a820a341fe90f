//! The waitlist: visitors without an invite leave their address and are invited later.

pub mod routes;
pub mod store;

pub use routes::router;

use crate::config::Config;

/// E-mails an invite code to the `count` oldest waiting addresses not yet invited; answers how
/// many were invited. (Built with the accounts work.)
pub async fn invite_oldest(_config: &Config, _count: u32) -> anyhow::Result<u64> {
    anyhow::bail!("`murmur waitlist invite` is not available yet")
}
