//! Follows: who reads whom. The Friends feed and suggestions are built on them.

pub mod store;
pub mod writes;
