//! Follows: who reads whom. The Friends feed and suggestions are built on them.

pub(crate) mod store;
pub mod writes;
pub use store::is_following;
